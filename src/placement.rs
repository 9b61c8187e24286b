//! Where a popover goes beside the thing it belongs to: never over it, inside the area it may use (the
//! stage first, the whole viewport if the stage is too small), and off the other things it must leave
//! visible (the other nodes of the ring, which a learner clicks next). Pure rectangles in page pixels,
//! so it is tested natively.
//!
//! Spots are tried beside the anchor on each side (centred on it, or flush with either of its ends, so
//! the box can slide away from a neighbour) and beside the whole group of things kept clear, on the
//! anchor's level (outside the ring rather than across it). The best spot covers the least of the kept
//! things, then the least of the box around them all (the ring's middle, where messages fly), then lies
//! in the earliest area, then nearest the anchor: a box that has to cover something covers as little as
//! it can, and one that covers nothing stays as close as it can.

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

    /// The smallest rectangle holding both.
    pub fn union(self, other: Rect) -> Rect {
        let left = self.left.min(other.left);
        let top = self.top.min(other.top);
        Rect {
            left,
            top,
            width: self.right().max(other.right()) - left,
            height: self.bottom().max(other.bottom()) - top,
        }
    }

    fn area(self) -> f64 {
        self.width * self.height
    }

    fn contains(self, inner: Rect) -> bool {
        inner.left >= self.left
            && inner.top >= self.top
            && inner.right() <= self.right()
            && inner.bottom() <= self.bottom()
    }

    pub fn overlaps(self, other: Rect) -> bool {
        self.left < other.right()
            && other.left < self.right()
            && self.top < other.bottom()
            && other.top < self.bottom()
    }

    /// The straight-line gap between the nearest edges (zero when they touch or overlap).
    fn gap_to(self, other: Rect) -> f64 {
        let across = (other.left - self.right())
            .max(self.left - other.right())
            .max(0.0);
        let down = (other.top - self.bottom())
            .max(self.top - other.bottom())
            .max(0.0);
        across.hypot(down)
    }

    fn centre(self) -> (f64, f64) {
        (self.left + self.width / 2.0, self.top + self.height / 2.0)
    }
}

/// Space kept between the anchor and the popover.
const GAP_PX: f64 = 10.0;

/// Moves `start` so that a span of `length` lies within `low..high` where it can (the start wins when
/// the span is longer than the room).
fn clamp_span(start: f64, length: f64, low: f64, high: f64) -> f64 {
    start.min(high - length).max(low)
}

/// The sides a box can sit on, right first (the reading direction).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Right,
    Left,
    Below,
    Above,
}

const SIDES: [Side; 4] = [Side::Right, Side::Left, Side::Below, Side::Above];

/// A `width`×`height` box on `side` of `reference`, its other axis starting at `cross_start` pulled
/// inside `area`.
fn on_side(reference: Rect, side: Side, size: (f64, f64), cross_start: f64, area: Rect) -> Rect {
    let (width, height) = size;
    let (left, top) = match side {
        Side::Right | Side::Left => {
            let top = clamp_span(cross_start, height, area.top, area.bottom());
            let left = match side {
                Side::Right => reference.right() + GAP_PX,
                _ => reference.left - GAP_PX - width,
            };
            (left, top)
        }
        Side::Below | Side::Above => {
            let left = clamp_span(cross_start, width, area.left, area.right());
            let top = match side {
                Side::Below => reference.bottom() + GAP_PX,
                _ => reference.top - GAP_PX - height,
            };
            (left, top)
        }
    };
    Rect {
        left,
        top,
        width,
        height,
    }
}

/// Where the box may start on its cross axis beside `anchor`: centred on it, then flush with either end.
fn cross_starts(anchor: Rect, side: Side, size: (f64, f64)) -> [f64; 3] {
    let (width, height) = size;
    match side {
        Side::Right | Side::Left => [
            anchor.top + (anchor.height - height) / 2.0,
            anchor.top,
            anchor.bottom() - height,
        ],
        Side::Below | Side::Above => [
            anchor.left + (anchor.width - width) / 2.0,
            anchor.left,
            anchor.right() - width,
        ],
    }
}

/// Every spot tried in `area`, with the side each sits on.
fn candidates(anchor: Rect, size: (f64, f64), area: Rect, group: Rect) -> Vec<(Side, Rect)> {
    let mut spots = Vec::new();
    for reference in [anchor, group] {
        for side in SIDES {
            for start in cross_starts(anchor, side, size) {
                spots.push((side, on_side(reference, side, size, start, area)));
            }
        }
    }
    spots
}

/// How much of the kept-clear rectangles a spot hides, in square pixels.
fn covered(spot: Rect, keep_clear: &[Rect]) -> f64 {
    keep_clear
        .iter()
        .map(|other| spot.intersect(*other).area())
        .sum()
}

/// How far a spot's centre sits from the anchor's along the side it is on (zero when centred).
fn off_centre(anchor: Rect, side: Side, spot: Rect) -> f64 {
    let (anchor_x, anchor_y) = anchor.centre();
    let (spot_x, spot_y) = spot.centre();
    match side {
        Side::Right | Side::Left => (spot_y - anchor_y).abs(),
        Side::Below | Side::Above => (spot_x - anchor_x).abs(),
    }
}

/// The top-left corner for a `width`×`height` popover beside `anchor`: among the spots that fit wholly
/// inside one of `areas` without covering the anchor, the one covering least of `keep_clear` (the other
/// nodes), then least of the box round them and the anchor, then in the earliest area, then nearest
/// the anchor, then most centred on it, then on the earliest side. Failing all, the right side pulled inside the last area, which may then overlap the
/// anchor but stays on screen.
pub fn place_beside(
    anchor: Rect,
    width: f64,
    height: f64,
    areas: &[Rect],
    keep_clear: &[Rect],
) -> (f64, f64) {
    place_beside_keeping(anchor, width, height, areas, keep_clear, &[])
}

/// `place_beside`, also keeping clear of `also_clear` (a lesson's step in hand) as much as of the
/// other nodes, without counting it in the ring's box.
pub fn place_beside_keeping(
    anchor: Rect,
    width: f64,
    height: f64,
    areas: &[Rect],
    keep_clear: &[Rect],
    also_clear: &[Rect],
) -> (f64, f64) {
    let size = (width, height);
    let group = keep_clear
        .iter()
        .fold(anchor, |group, other| group.union(*other));
    let mut best: Option<([f64; 6], Rect)> = None;
    for (area_index, area) in areas.iter().enumerate() {
        for (side, spot) in candidates(anchor, size, *area, group) {
            if !area.contains(spot) || spot.overlaps(anchor) {
                continue;
            }
            let side_index = SIDES.iter().position(|each| *each == side).unwrap_or(0);
            let rank = [
                covered(spot, keep_clear) + covered(spot, also_clear),
                spot.intersect(group).area(),
                area_index as f64,
                spot.gap_to(anchor),
                off_centre(anchor, side, spot),
                side_index as f64,
            ];
            if best.is_none_or(|(kept, _)| rank < kept) {
                best = Some((rank, spot));
            }
        }
    }
    if let Some((_, spot)) = best {
        return (spot.left, spot.top);
    }
    let Some(last) = areas.last() else {
        return (anchor.right() + GAP_PX, anchor.top);
    };
    let first = on_side(
        anchor,
        Side::Right,
        size,
        cross_starts(anchor, Side::Right, size)[0],
        *last,
    );
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
            (90.0, 200.0),
            "when nothing is clear, the spot hiding least"
        );
    }

    #[test]
    fn slides_along_a_side_to_uncover_a_neighbour() {
        // Room only to the node's right: a box centred there would reach down over the neighbour.
        let stage = rect(0.0, 0.0, 530.0, 600.0);
        let node = rect(100.0, 200.0, 100.0, 100.0);
        let neighbour = rect(230.0, 330.0, 80.0, 80.0);
        let (left, top) = place_beside(node, 300.0, 200.0, &[stage], &[neighbour]);
        let spot = rect(left, top, 300.0, 200.0);
        assert!(
            !spot.overlaps(neighbour) && !spot.overlaps(node),
            "{spot:?}"
        );
        assert_eq!(
            (left, top),
            (210.0, 100.0),
            "flush with the node's bottom, beside it"
        );
    }

    #[test]
    fn goes_round_the_outside_of_the_ring_rather_than_across_its_middle() {
        let stage = rect(0.0, 0.0, 1400.0, 800.0);
        let top_node = rect(650.0, 100.0, 100.0, 100.0);
        let left_node = rect(400.0, 350.0, 100.0, 100.0);
        let right_node = rect(900.0, 350.0, 100.0, 100.0);
        let bottom_node = rect(650.0, 600.0, 100.0, 100.0);
        let others = [left_node, right_node, bottom_node];
        // Below the top node, inside the ring, a box would cover no node, only the ring's middle.
        let (left, top) = place_beside(top_node, 300.0, 200.0, &[stage], &others);
        let spot = rect(left, top, 300.0, 200.0);
        let ring = others
            .iter()
            .fold(top_node, |ring, other| ring.union(*other));
        assert_eq!(
            spot.intersect(ring).area(),
            0.0,
            "outside the ring: {spot:?}"
        );
        assert_eq!(
            (left, top),
            (1010.0, 50.0),
            "beside the ring, level with the node"
        );
    }

    /// Five nodes on a ring in a stage too small for a box beside a node to miss its neighbours.
    fn ring() -> (Rect, Vec<Rect>) {
        let stage = rect(400.0, 60.0, 600.0, 480.0);
        let (centre_x, centre_y, radius, size) = (700.0, 300.0, 180.0, 90.0);
        let nodes = (0..5)
            .map(|index| {
                let angle =
                    std::f64::consts::TAU * index as f64 / 5.0 - std::f64::consts::FRAC_PI_2;
                let (x, y) = (
                    centre_x + radius * angle.cos(),
                    centre_y + radius * angle.sin(),
                );
                rect(x - size / 2.0, y - size / 2.0, size, size)
            })
            .collect();
        (stage, nodes)
    }

    #[test]
    fn on_a_crowded_ring_it_leaves_the_ring_rather_than_cover_a_neighbour() {
        let (stage, nodes) = ring();
        let viewport = rect(0.0, 0.0, 1440.0, 900.0);
        for (index, node) in nodes.iter().enumerate() {
            let others: Vec<Rect> = nodes
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != index)
                .map(|(_, rect)| *rect)
                .collect();
            let (left, top) = place_beside(*node, 330.0, 320.0, &[stage, viewport], &others);
            let spot = rect(left, top, 330.0, 320.0);
            assert!(viewport.contains(spot), "n{}: {spot:?}", index + 1);
            assert!(!spot.overlaps(*node), "n{}: {spot:?}", index + 1);
            for other in &others {
                assert!(
                    !spot.overlaps(*other),
                    "n{} covers {other:?}: {spot:?}",
                    index + 1
                );
            }
        }
    }

    #[test]
    fn it_also_keeps_off_the_step_in_hand() {
        let viewport = rect(0.0, 0.0, 1440.0, 900.0);
        let stage = rect(450.0, 60.0, 560.0, 480.0);
        let node = rect(690.0, 100.0, 100.0, 100.0);
        let others = [
            rect(520.0, 250.0, 100.0, 100.0),
            rect(860.0, 250.0, 100.0, 100.0),
        ];
        // The step on the left, where a box left of the ring would otherwise be as good as one right.
        let step = rect(30.0, 0.0, 400.0, 600.0);
        let (left, top) =
            place_beside_keeping(node, 330.0, 320.0, &[stage, viewport], &others, &[step]);
        let spot = rect(left, top, 330.0, 320.0);
        assert!(!spot.overlaps(step), "{spot:?}");
        assert!(
            others.iter().all(|other| !spot.overlaps(*other)),
            "{spot:?}"
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
