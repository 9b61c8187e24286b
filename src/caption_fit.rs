//! Which way a node's words run under it, so they stay inside the stage. A caption is centred under
//! its node, which is right for most of the ring; but a node near the stage's side edge (the left and
//! right of the ring, a server parked in a bottom corner) with a long caption ("client · waits on 5: 0
//! of 2 replies", "not a member · term 3") would hang past the drawing's edge and be cut ("t a
//! member"). Such a caption starts at the node's outer edge instead and runs inward.
//!
//! A caption too long for either (a PBFT client's "waits on 1: 0 of 2 replies · 2 faulty > f = 1" on a
//! phone, where it would run into the caption of the node across the ring) is broken over two lines
//! at the " · " nearest its middle.
//!
//! SVG text has no width until it is drawn, so the width is estimated from the number of characters
//! at the size the stylesheet gives captions on this screen (`caption_font_px`), with a glyph width
//! rounded up, so a caption the estimate lets stay centred does fit.

/// An average glyph's width as a share of its font size, rounded up for a sans-serif face.
pub const GLYPH_WIDTH_EM: f64 = 0.56;

/// The captions' font size in SVG user units, as style/main.css and style/access.css set it: 17 px,
/// 21 px in presenter mode, 27 px on a phone (up to 600 px wide), where the drawing is scaled down.
pub fn caption_font_px(presenter: bool, phone: bool) -> f64 {
    match (phone, presenter) {
        (true, _) => 27.0,
        (false, true) => 21.0,
        (false, false) => 17.0,
    }
}
/// Room kept between a caption and the stage's edge.
const EDGE_MARGIN_PX: f64 = 6.0;
/// The widest a caption line may be, in SVG user units: under half the stage, so a caption running
/// inward from one side of the ring stops short of the other side's.
pub const WIDEST_LINE_PX: f64 = 440.0;

/// `caption` as one line, or as two broken at the " · " (else the space) nearest its middle when at
/// `font_px` it would be wider than `WIDEST_LINE_PX`. The break keeps every character, so the two
/// lines read together are the caption: the first ends with " ·", the second starts with a space.
pub fn split_caption(caption: &str, font_px: f64) -> (String, String) {
    let chars: Vec<char> = caption.chars().collect();
    if chars.len() as f64 * font_px * GLYPH_WIDTH_EM <= WIDEST_LINE_PX {
        return (caption.to_string(), String::new());
    }
    let middle = chars.len() / 2;
    let nearest = |is_break: &dyn Fn(usize) -> bool| {
        (1..chars.len().saturating_sub(1))
            .filter(|index| is_break(*index))
            .min_by_key(|index| index.abs_diff(middle))
    };
    // A " · " break at index i: chars[i - 1] == ' ', chars[i] == '·', chars[i + 1] == ' '.
    let dot =
        nearest(&|index| chars[index] == '·' && chars[index - 1] == ' ' && chars[index + 1] == ' ');
    let split_at = match dot {
        Some(index) => index + 1,
        None => match nearest(&|index| chars[index] == ' ') {
            Some(index) => index,
            None => return (caption.to_string(), String::new()),
        },
    };
    let first: String = chars[..split_at].iter().collect();
    let second: String = chars[split_at..].iter().collect();
    (first, second)
}

/// How a caption is anchored under its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptionRun {
    /// Centred under the node.
    Centred,
    /// From the node's left edge rightwards (a node near the stage's left edge).
    Rightwards,
    /// From the node's right edge leftwards (a node near the stage's right edge).
    Leftwards,
}

impl CaptionRun {
    /// The run for a caption of `chars` characters at `font_px` under a node at `node_x` in a stage
    /// `stage_width` wide.
    pub fn for_caption(node_x: f64, stage_width: f64, chars: usize, font_px: f64) -> CaptionRun {
        let half_width_px = chars as f64 * font_px * GLYPH_WIDTH_EM / 2.0;
        let fits_left = node_x - half_width_px >= EDGE_MARGIN_PX;
        let fits_right = node_x + half_width_px <= stage_width - EDGE_MARGIN_PX;
        match (fits_left, fits_right) {
            (true, true) => CaptionRun::Centred,
            // Both sides short: the side with more room takes the overhang.
            _ if node_x < stage_width / 2.0 => CaptionRun::Rightwards,
            _ => CaptionRun::Leftwards,
        }
    }

    /// The class that sets the SVG text anchor (a stylesheet rule, which a presentation attribute
    /// could not override).
    pub fn class(self) -> &'static str {
        match self {
            CaptionRun::Centred => "",
            CaptionRun::Rightwards => " run-rightwards",
            CaptionRun::Leftwards => " run-leftwards",
        }
    }

    /// Where the text starts, from the node's centre, for a node of `node_radius`.
    pub fn x(self, node_radius: f64) -> f64 {
        match self {
            CaptionRun::Centred => 0.0,
            CaptionRun::Rightwards => -node_radius,
            CaptionRun::Leftwards => node_radius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESK: f64 = 17.0;
    const PHONE: f64 = 27.0;

    #[test]
    fn a_caption_too_wide_breaks_at_the_dot_nearest_its_middle() {
        let waiting = "client · waits on 1: 0 of 2 replies · 2 faulty > f = 1";
        let (first, second) = split_caption(waiting, PHONE);
        assert_eq!(first, "client · waits on 1: 0 of 2 replies ·");
        assert_eq!(second, " 2 faulty > f = 1");
        assert_eq!(format!("{first}{second}"), waiting, "nothing is lost");
        let short = "follower · term 3";
        assert_eq!(
            split_caption(short, PHONE),
            (short.to_string(), String::new())
        );
        let (first, second) = split_caption("abcdefghij klmnopqrstuvwxyz abcdefghij klmnop", PHONE);
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("abcdefghij klmnopqrstuvwxyz", " abcdefghij klmnop")
        );
        let unbroken = "x".repeat(60);
        assert_eq!(
            split_caption(&unbroken, PHONE),
            (unbroken.clone(), String::new())
        );
    }

    #[test]
    fn short_captions_and_central_nodes_stay_centred() {
        let follower = "follower · term 3".chars().count();
        assert_eq!(
            CaptionRun::for_caption(205.0, 1000.0, follower, PHONE),
            CaptionRun::Centred
        );
        assert_eq!(
            CaptionRun::for_caption(500.0, 1000.0, 40, DESK),
            CaptionRun::Centred
        );
        // A caption that fits on a desk runs inward on a phone, where it is drawn larger.
        let parked = "not a member · term 3".chars().count();
        assert_eq!(
            CaptionRun::for_caption(150.0, 1000.0, parked, DESK),
            CaptionRun::Centred
        );
        assert_eq!(
            CaptionRun::for_caption(150.0, 1000.0, parked, PHONE),
            CaptionRun::Rightwards
        );
        assert_eq!(caption_font_px(false, false), DESK);
        assert_eq!(caption_font_px(true, true), PHONE);
        assert_eq!(caption_font_px(true, false), 21.0);
        assert_eq!(CaptionRun::Centred.x(46.0), 0.0);
        assert_eq!(CaptionRun::Centred.class(), "");
    }

    #[test]
    fn a_long_caption_near_an_edge_runs_inward_from_the_node() {
        // A server parked in the bottom-left corner and a client at the ring's left.
        let parked =
            CaptionRun::for_caption(77.0, 1000.0, "not a member · term 3".chars().count(), DESK);
        assert_eq!(parked, CaptionRun::Rightwards);
        assert_eq!(parked.x(46.0), -46.0);
        let client = "client · waits on 5: 0 of 2 replies · 2 faulty > f = 1"
            .chars()
            .count();
        assert_eq!(
            CaptionRun::for_caption(190.0, 1000.0, client, DESK),
            CaptionRun::Rightwards
        );
        assert_eq!(
            CaptionRun::for_caption(810.0, 1000.0, client, DESK),
            CaptionRun::Leftwards
        );
        assert_eq!(CaptionRun::Leftwards.x(46.0), 46.0);
        assert_eq!(CaptionRun::Leftwards.class(), " run-leftwards");
    }
}
