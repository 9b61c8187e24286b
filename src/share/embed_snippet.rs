//! The HTML an instructor pastes into a slide or a course page to show a run there: one `<iframe>` whose
//! address is a share link with view options (`embed=on`, the controls, autoplay, theme). Built here as
//! plain text so it can be tested natively; the page only shows and copies it.
//!
//! 960 x 540 is a 16:9 slide's usual embed box; the embedded layout (style/embed.css) fills whatever
//! box it is given, so an instructor may change the two numbers. Everything that goes into an attribute
//! is escaped: the run's title is the author's own text and must not be able to end the attribute.

/// The embed box, in CSS pixels.
pub const EMBED_WIDTH_PX: u32 = 960;
pub const EMBED_HEIGHT_PX: u32 = 540;

/// The `<iframe>` element for `address` (a whole share link), titled for screen readers.
pub fn iframe_snippet(address: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{EMBED_WIDTH_PX}\" height=\"{EMBED_HEIGHT_PX}\" \
         title=\"{}\" style=\"border: 0\" loading=\"lazy\" allowfullscreen></iframe>",
        escape_attribute(address),
        escape_attribute(&format!("Quorum Lab: {title}"))
    )
}

fn escape_attribute(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            other => escaped.push(other),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_is_one_iframe_at_slide_size_with_the_link_as_its_address() {
        let snippet = iframe_snippet(
            "https://host/ql/#/run/v4/AbC?embed=on&controls=locked",
            "Fencing",
        );
        assert!(snippet.starts_with(
            "<iframe src=\"https://host/ql/#/run/v4/AbC?embed=on&amp;controls=locked\""
        ));
        assert!(snippet.contains("width=\"960\" height=\"540\""));
        assert!(snippet.contains("title=\"Quorum Lab: Fencing\""));
        assert!(snippet.ends_with("></iframe>"));
    }

    #[test]
    fn a_title_cannot_end_its_attribute_or_open_a_tag() {
        let snippet = iframe_snippet("https://host/", "a \"quoted\" <script>'s & more");
        assert!(snippet.contains(
            "title=\"Quorum Lab: a &quot;quoted&quot; &lt;script&gt;&#39;s &amp; more\""
        ));
        assert_eq!(
            snippet.matches('<').count(),
            2,
            "only the iframe's own tags: {snippet}"
        );
    }
}
