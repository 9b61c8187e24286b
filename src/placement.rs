//! Where a popover goes beside the thing it belongs to: to one side of it, never over it, and inside
//! the area it may use (the stage first, the whole viewport if the stage is too small). Pure rectangles
//! in page pixels, so it is tested natively.

/// An axis-aligned rectangle in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn right(self) -> f64 {
        self.left + self.width
    }

    pub fn bottom(self) -> f64 {
        self.top + self.height
    }

    /// The overlap of two rectangles (zero-sized where they do not meet).
    pub fn intersect(self, other: Rect) -> Rect {
        let left = self.left.max(other.left);
        let top = self.top.max(other.top);
        Rect {
            left,
            top,
            width: (self.right().min(other.right()) - left).max(0.0),
            height: (self.bottom().min(other.bottom()) - top).max(0.0),
        }
    }

    fn contains(self, inner: Rect) -> bool {
        inner.left >= self.left
            && inner.top >= self.top
            && inner.right() <= self.right()
            && inner.bottom() <= self.bottom()
    }

    fn overlaps(self, other: Rect) -> bool {
        self.left < other.right()
            && other.left < self.right()
            && self.top < other.bottom()
            && other.top < self.bottom()
    }
}

/// Space kept between the anchor and the popover.
const GAP_PX: f64 = 10.0;

/// Moves `start` so that a span of `length` lies within `low..high` where it can (the start wins when
/// the span is longer than the room).
fn clamp_span(start: f64, length: f64, low: f64, high: f64) -> f64 {
    start.min(high - length).max(low)
}

/// The four sides a popover can sit on, right first (the reading direction), with the cross axis
/// centred on the anchor and then pulled inside `area`.
fn candidates(anchor: Rect, width: f64, height: f64, area: Rect) -> [Rect; 4] {
    let beside_top = clamp_span(
        anchor.top + (anchor.height - height) / 2.0,
        height,
        area.top,
        area.bottom(),
    );
    let stacked_left = clamp_span(
        anchor.left + (anchor.width - width) / 2.0,
        width,
        area.left,
        area.right(),
    );
    let at = |left: f64, top: f64| Rect {
        left,
        top,
        width,
        height,
    };
    [
        at(anchor.right() + GAP_PX, beside_top),
        at(anchor.left - GAP_PX - width, beside_top),
        at(stacked_left, anchor.bottom() + GAP_PX),
        at(stacked_left, anchor.top - GAP_PX - height),
    ]
}

/// The top-left corner for a `width`×`height` popover beside `anchor`: the first side that fits
/// wholly inside one of `areas` (tried in order) without covering the anchor, preferring one that
/// leaves every rectangle in `keep_clear` (the other nodes) visible too; failing all, the first side
/// pulled inside the last area, which may then overlap the anchor but stays on screen.
pub fn place_beside(
    anchor: Rect,
    width: f64,
    height: f64,
    areas: &[Rect],
    keep_clear: &[Rect],
) -> (f64, f64) {
    for area in areas {
        let fitting: Vec<Rect> = candidates(anchor, width, height, *area)
            .into_iter()
            .filter(|spot| area.contains(*spot) && !spot.overlaps(anchor))
            .collect();
        let clear = fitting
            .iter()
            .find(|spot| keep_clear.iter().all(|other| !spot.overlaps(*other)));
        if let Some(spot) = clear.or(fitting.first()) {
            return (spot.left, spot.top);
        }
    }
    let Some(last) = areas.last() else {
        return (anchor.right() + GAP_PX, anchor.top);
    };
    let first = candidates(anchor, width, height, *last)[0];
    (
        clamp_span(first.left, width, last.left, last.right()),
        clamp_span(first.top, height, last.top, last.bottom()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(left: f64, top: f64, width: f64, height: f64) -> Rect {
        Rect {
            left,
            top,
            width,
            height,
        }
    }

    #[test]
    fn sits_right_of_the_anchor_when_there_is_room() {
        let stage = rect(0.0, 0.0, 1000.0, 600.0);
        let node = rect(400.0, 250.0, 100.0, 100.0);
        assert_eq!(
            place_beside(node, 300.0, 200.0, &[stage], &[]),
            (510.0, 200.0)
        );
    }

    #[test]
    fn flips_left_near_the_right_edge_and_never_covers_the_anchor() {
        let stage = rect(0.0, 0.0, 1000.0, 600.0);
        let node = rect(850.0, 20.0, 100.0, 100.0);
        let (left, top) = place_beside(node, 300.0, 200.0, &[stage], &[]);
        assert_eq!(left, 540.0);
        assert_eq!(top, 0.0, "pulled down inside the stage, not above it");
        assert!(!rect(left, top, 300.0, 200.0).overlaps(node));
    }

    #[test]
    fn goes_below_when_neither_side_has_room_and_falls_back_to_the_viewport() {
        let narrow = rect(0.0, 0.0, 400.0, 900.0);
        let node = rect(150.0, 100.0, 100.0, 100.0);
        assert_eq!(
            place_beside(node, 300.0, 200.0, &[narrow], &[]),
            (50.0, 210.0)
        );
        let short_stage = rect(0.0, 0.0, 400.0, 250.0);
        let viewport = rect(0.0, 0.0, 1440.0, 900.0);
        assert_eq!(
            place_beside(node, 300.0, 200.0, &[short_stage, viewport], &[]),
            (260.0, 50.0)
        );
    }

    #[test]
    fn prefers_a_side_that_leaves_the_other_nodes_visible() {
        let stage = rect(0.0, 0.0, 1000.0, 600.0);
        let node = rect(400.0, 250.0, 100.0, 100.0);
        let neighbour = rect(600.0, 250.0, 100.0, 100.0);
        assert_eq!(
            place_beside(node, 300.0, 200.0, &[stage], &[neighbour]),
            (90.0, 200.0)
        );
        let everywhere = [neighbour, rect(0.0, 0.0, 1000.0, 600.0)];
        assert_eq!(
            place_beside(node, 300.0, 200.0, &[stage], &everywhere),
            (510.0, 200.0),
            "the first side that fits when none is clear"
        );
    }

    #[test]
    fn a_popover_larger_than_every_area_still_starts_on_screen() {
        let viewport = rect(0.0, 0.0, 300.0, 300.0);
        let node = rect(100.0, 100.0, 50.0, 50.0);
        let (left, top) = place_beside(node, 400.0, 400.0, &[viewport], &[]);
        assert_eq!((left, top), (0.0, 0.0));
    }
}
