//! Pictures for slides: the cluster view or the space-time diagram as a self-contained SVG file, or as
//! a PNG drawn from that SVG at twice its size (sharp on a projector).
//!
//! The on-screen SVGs take their colours from the stylesheet; a file opened elsewhere has none of it.
//! So [`inline_svg`] copies each element's computed presentation (fill, stroke, font...) into its
//! `style` attribute, and [`png`] draws that text into a canvas. A picture on a slide must tell its
//! story on its own, so by default it is framed ([`frame`], [`draw_frame`]) by what the page says
//! about the moment: the scenario, the simulated time, the caption, the invariants and a legend
//! ([`page_context`], [`legend`]). Its colours are the light theme's unless the reader asks for the
//! ones on screen ([`export_theme`]). The naming, parsing, options and layout are pure and tested
//! natively.

pub mod draw_frame;
pub mod export_theme;
pub mod frame;
pub mod inline_svg;
pub mod legend;
pub mod page_context;
pub mod png;

thread_local! {
    /// Whether the Export menu is open (one per page, so one flag). Reference-counted, not owned by
    /// whichever view or effect first asked for it: an owned signal goes when that owner is cleaned up
    /// (an effect's next run, a part of the page drawn again), and every later reader would panic.
    static MENU_OPEN: leptos::prelude::ArcRwSignal<bool> = leptos::prelude::ArcRwSignal::new(false);
}

/// True while the Export menu is open. A drawing that stops following the run out of sight (the
/// space-time diagram, scrolled away or hidden in presenter mode) follows it while this is true, so the
/// picture saved shows the moment the clock and the caption show.
pub fn menu_open() -> leptos::prelude::ArcRwSignal<bool> {
    MENU_OPEN.with(leptos::prelude::ArcRwSignal::clone)
}

/// The PNG is drawn this many times the SVG's own size.
pub const PNG_SCALE: f64 = 2.0;
/// Longest scenario part of a file name, in characters.
const MAX_NAME_CHARS: usize = 48;

/// Which drawing to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    Cluster,
    SpaceTime,
}

impl Picture {
    pub const ALL: [Picture; 2] = [Picture::Cluster, Picture::SpaceTime];

    /// The word in file names and test ids.
    pub fn slug(self) -> &'static str {
        match self {
            Picture::Cluster => "cluster",
            Picture::SpaceTime => "space-time",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Picture::Cluster => "Cluster view",
            Picture::SpaceTime => "Space-time diagram",
        }
    }

    /// The SVG on the page.
    pub fn svg_selector(self) -> &'static str {
        match self {
            Picture::Cluster => "[data-testid=cluster-view]",
            Picture::SpaceTime => "[data-testid=spacetime] svg.spacetime",
        }
    }

    /// The element whose background the drawing sits on (its background is part of the picture).
    pub fn backdrop_selector(self) -> &'static str {
        match self {
            Picture::Cluster => ".cluster-panel",
            Picture::SpaceTime => "[data-testid=spacetime]",
        }
    }
}

/// The image formats offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// Whose colours the picture takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportTheme {
    /// The light theme, whatever the page shows: slides are usually light.
    Light,
    /// The theme in effect on the page.
    AsOnScreen,
}

impl ExportTheme {
    pub const ALL: [ExportTheme; 2] = [ExportTheme::Light, ExportTheme::AsOnScreen];

    /// The stored word, also the menu's option value.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportTheme::Light => "light",
            ExportTheme::AsOnScreen => "as-on-screen",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ExportTheme::Light => "Light",
            ExportTheme::AsOnScreen => "As on screen",
        }
    }

    /// A stored word back to a theme; anything else (missing, edited by hand) is the default, light.
    pub fn from_stored(text: Option<&str>) -> ExportTheme {
        match text {
            Some("as-on-screen") => ExportTheme::AsOnScreen,
            _ => ExportTheme::Light,
        }
    }
}

/// How a picture is exported: with the words around it or not, in which theme's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    pub context: bool,
    pub theme: ExportTheme,
}

/// Whether the words around the picture are included: stored as "context" or "picture-only"; anything
/// else means the default, included.
pub fn context_from_stored(text: Option<&str>) -> bool {
    text != Some("picture-only")
}

pub fn context_as_stored(include: bool) -> &'static str {
    if include {
        "context"
    } else {
        "picture-only"
    }
}

/// `title` as lower-case ASCII words joined by hyphens ("Raft playground" → "raft-playground").
pub fn slug(title: &str) -> String {
    let mut slug = String::new();
    for character in title.chars() {
        if character.is_ascii_alphanumeric() {
            if slug.len() >= MAX_NAME_CHARS {
                break;
            }
            slug.push(character.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

/// A file name saying what, from which scenario and when: `quorumlab-raft-playground-cluster-1250ms.png`.
pub fn file_name(scenario_title: &str, picture: Picture, now_us: u64, format: Format) -> String {
    let scenario = slug(scenario_title);
    let scenario = if scenario.is_empty() {
        String::new()
    } else {
        format!("{scenario}-")
    };
    format!(
        "quorumlab-{scenario}{}-{}ms.{}",
        picture.slug(),
        now_us / 1_000,
        format.extension()
    )
}

/// A `viewBox="x y width height"`: its origin and a positive, finite size; `None` unless it is four
/// numbers.
pub fn parse_view_box(view_box: &str) -> Option<[f64; 4]> {
    let numbers: Vec<f64> = view_box
        .split([' ', ','])
        .filter(|part| !part.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match numbers[..] {
        [x, y, width, height]
            if width > 0.0 && height > 0.0 && (x + y + width * height).is_finite() =>
        {
            Some([x, y, width, height])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_say_scenario_picture_and_time() {
        assert_eq!(
            file_name("Raft playground", Picture::Cluster, 1_250_400, Format::Png),
            "quorumlab-raft-playground-cluster-1250ms.png"
        );
        assert_eq!(
            file_name(
                "Fencing: the paused holder's stale write",
                Picture::SpaceTime,
                0,
                Format::Svg
            ),
            "quorumlab-fencing-the-paused-holder-s-stale-write-space-time-0ms.svg"
        );
        assert_eq!(
            file_name("— ✓ —", Picture::Cluster, 3_000, Format::Svg),
            "quorumlab-cluster-3ms.svg"
        );
    }

    #[test]
    fn export_options_round_trip_and_default_to_a_light_picture_with_its_context() {
        for theme in ExportTheme::ALL {
            assert_eq!(ExportTheme::from_stored(Some(theme.as_str())), theme);
        }
        assert_eq!(ExportTheme::from_stored(None), ExportTheme::Light);
        assert_eq!(ExportTheme::from_stored(Some("dark")), ExportTheme::Light);
        for include in [true, false] {
            assert_eq!(
                context_from_stored(Some(context_as_stored(include))),
                include
            );
        }
        assert!(context_from_stored(None));
        assert!(context_from_stored(Some("Picture-Only")));
    }

    #[test]
    fn a_long_title_is_cut_to_a_bounded_name() {
        let name = slug(&"word ".repeat(100));
        assert!(name.len() <= MAX_NAME_CHARS, "{name}");
        assert!(!name.ends_with('-'));
    }

    #[test]
    fn only_a_well_formed_view_box_gives_a_size() {
        assert_eq!(
            parse_view_box("0 0 1000 800"),
            Some([0.0, 0.0, 1000.0, 800.0])
        );
        assert_eq!(
            parse_view_box("-5,2,640,212.5"),
            Some([-5.0, 2.0, 640.0, 212.5])
        );
        assert_eq!(parse_view_box("0 0 1000"), None);
        assert_eq!(parse_view_box("0 0 0 800"), None);
        assert_eq!(parse_view_box("0 0 wide 800"), None);
        assert_eq!(parse_view_box("0 0 inf 800"), None);
        assert_eq!(parse_view_box(""), None);
    }
}
