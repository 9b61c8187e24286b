//! Loading the course. The lesson text is most of the app's data and most visits never open a lesson,
//! so the page does not carry it: the build copies `lessons/` beside `index.html`, and the first thing
//! that needs a lesson (the list, a lesson address, a share link made in a lesson) fetches every file
//! from the app's own origin. The wasm knows each file's path and checksum ([`LESSON_FILES`]), so a
//! copy from another version is refused with a sentence rather than half-working. Natively (tests,
//! tools) the course is the compiled-in text and arrives at once.

use quorumlab_sim::lesson::Lesson;
#[cfg(target_arch = "wasm32")]
use quorumlab_sim::lesson::LESSON_FILES;

/// The parsed course, or a sentence saying why it is not available.
pub type Course = Result<Vec<Lesson>, String>;

/// Loads the course and hands it to `done` (later, on the web; at once, natively).
pub fn load_course(done: impl FnOnce(Course) + 'static) {
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_futures::spawn_local(async move { done(fetch_course().await) });
    #[cfg(not(target_arch = "wasm32"))]
    done(crate::lesson::course());
}

#[cfg(target_arch = "wasm32")]
async fn fetch_course() -> Course {
    let window = web_sys::window().ok_or("there is no window to fetch the lessons in")?;
    // Every request starts before the first is awaited, so the files arrive in parallel.
    let requests: Vec<_> = LESSON_FILES
        .iter()
        .map(|file| (file, window.fetch_with_str(file.path)))
        .collect();
    let mut texts = Vec::with_capacity(requests.len());
    for (file, request) in requests {
        let text = fetch_text(file.path, request).await?;
        if !file.matches(&text) {
            return Err(format!(
                "{} is not the file this version of Quorum Lab was built with (reload the page)",
                file.path
            ));
        }
        texts.push((file.path, text));
    }
    let files: Vec<(&str, &str)> = texts
        .iter()
        .map(|(path, text)| (*path, text.as_str()))
        .collect();
    // The parser comes with the lesson machinery's part (`lesson::runtime`), which every lesson needs.
    let machinery = crate::lesson::runtime::fetch_machinery()
        .await
        .map_err(|_| "the lessons' code could not be loaded (check the connection and reload)")?;
    (machinery.parse_course)(&files)
}

#[cfg(target_arch = "wasm32")]
async fn fetch_text(path: &str, request: web_sys::js_sys::Promise) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let failed = |what: &str| format!("{path} could not be loaded ({what})");
    let response: web_sys::Response = JsFuture::from(request)
        .await
        .map_err(|_| failed("the network request failed"))?
        .dyn_into()
        .map_err(|_| failed("no response"))?;
    if !response.ok() {
        return Err(failed(&format!("HTTP {}", response.status())));
    }
    let body = response.text().map_err(|_| failed("unreadable body"))?;
    JsFuture::from(body)
        .await
        .map_err(|_| failed("unreadable body"))?
        .as_string()
        .ok_or_else(|| failed("the body is not text"))
}
