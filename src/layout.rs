//! Where things go on screen. Pure functions of sizes, so they are tested natively.

/// A point in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Places `node_count` nodes evenly on a circle of `radius` around `center`, the first at the top,
/// going clockwise — so `n1` is always where a reader starts looking.
pub fn circle_positions(node_count: usize, center: Point, radius: f64) -> Vec<Point> {
    if node_count == 1 {
        return vec![center];
    }
    (0..node_count)
        .map(|index| {
            let turn = index as f64 / node_count as f64;
            let angle_radians = turn * std::f64::consts::TAU - std::f64::consts::FRAC_PI_2;
            Point {
                x: center.x + radius * angle_radians.cos(),
                y: center.y + radius * angle_radians.sin(),
            }
        })
        .collect()
}

/// Where servers outside the configuration wait, off the ring: along the bottom corners of a stage
/// `width` × `height`, left corner first, `spacing` apart, so the ring's own spacing never changes
/// for them. Positions past the corners' room repeat the last spot rather than leave the stage.
pub fn parked_positions(count: usize, width: f64, height: f64, spacing: f64) -> Vec<Point> {
    const PER_CORNER: usize = 2;
    let margin = spacing * 0.7;
    (0..count)
        .map(|index| {
            let corner = (index / PER_CORNER).min(1);
            let along = (index % PER_CORNER) as f64 * spacing;
            let x = match corner {
                0 => margin + along,
                _ => width - margin - along,
            };
            Point {
                x,
                y: height - margin * 1.3,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parked_servers_fill_the_bottom_corners_inside_the_stage() {
        let spots = parked_positions(7, 1000.0, 800.0, 110.0);
        assert_eq!(spots.len(), 7);
        assert!(spots[0].x < spots[1].x && spots[1].x < 500.0);
        assert!(spots[2].x > 500.0, "the third goes to the right corner");
        assert!(spots[3].x < spots[2].x);
        for spot in &spots {
            assert!(spot.x > 0.0 && spot.x < 1000.0 && spot.y > 400.0 && spot.y < 800.0);
        }
        assert!(parked_positions(0, 1000.0, 800.0, 110.0).is_empty());
    }

    const CENTER: Point = Point { x: 500.0, y: 400.0 };

    fn distance(first: Point, second: Point) -> f64 {
        ((first.x - second.x).powi(2) + (first.y - second.y).powi(2)).sqrt()
    }

    #[test]
    fn a_single_node_sits_in_the_middle() {
        assert_eq!(circle_positions(1, CENTER, 300.0), vec![CENTER]);
    }

    #[test]
    fn first_node_is_at_the_top_and_the_second_is_clockwise() {
        let points = circle_positions(4, CENTER, 300.0);
        assert!((points[0].x - 500.0).abs() < 1e-9 && (points[0].y - 100.0).abs() < 1e-9);
        assert!((points[1].x - 800.0).abs() < 1e-9 && (points[1].y - 400.0).abs() < 1e-9);
    }

    #[test]
    fn every_node_is_on_the_circle_and_neighbours_are_evenly_spaced() {
        for node_count in 2..=51 {
            let points = circle_positions(node_count, CENTER, 300.0);
            assert_eq!(points.len(), node_count);
            let gap = distance(points[0], points[1]);
            for (index, point) in points.iter().enumerate() {
                assert!((distance(*point, CENTER) - 300.0).abs() < 1e-6);
                let next = points[(index + 1) % node_count];
                assert!(
                    (distance(*point, next) - gap).abs() < 1e-6,
                    "uneven gap at {node_count} nodes"
                );
            }
        }
    }
}

/// Where a message is drawn at `now_us`: on the straight line from its sender to its receiver, at the
/// fraction of its flight already done. Sent and delivered at the same instant means "arriving".
pub fn message_position(
    from: Point,
    to: Point,
    (sent_at_us, deliver_at_us): (u64, u64),
    now_us: u64,
    reduced_motion: bool,
) -> Point {
    let glide = flight_progress(sent_at_us, deliver_at_us, now_us);
    let progress = if reduced_motion {
        stepped(glide)
    } else {
        glide
    };
    Point {
        x: from.x + (to.x - from.x) * progress,
        y: from.y + (to.y - from.y) * progress,
    }
}

/// Positions a message takes when motion is reduced: three stops along its line (a sixth, half, five
/// sixths of the way), so the direction still reads without anything gliding.
pub fn stepped(progress: f64) -> f64 {
    (((progress * 3.0).floor().min(2.0)) + 0.5) / 3.0
}

/// How much of a flight is done, in 0.0..=1.0.
pub fn flight_progress(sent_at_us: u64, deliver_at_us: u64, now_us: u64) -> f64 {
    if deliver_at_us <= sent_at_us {
        return 1.0;
    }
    let done_us = now_us.saturating_sub(sent_at_us) as f64;
    (done_us / (deliver_at_us - sent_at_us) as f64).clamp(0.0, 1.0)
}

/// Moves `point` toward `toward` by `distance`, e.g. to stop an arrow at a node's rim, not its centre.
pub fn pull_toward(point: Point, toward: Point, distance: f64) -> Point {
    let length = ((toward.x - point.x).powi(2) + (toward.y - point.y).powi(2)).sqrt();
    if length <= distance || length == 0.0 {
        return toward;
    }
    Point {
        x: point.x + (toward.x - point.x) * distance / length,
        y: point.y + (toward.y - point.y) * distance / length,
    }
}

/// Clusters above this size are drawn compact: a wider ring, small nodes, no captions.
pub const COMPACT_ABOVE_NODES: usize = 12;

/// Radius of the ring the nodes sit on; compact clusters use more of the stage.
pub fn ring_radius(node_count: usize) -> f64 {
    if node_count > COMPACT_ABOVE_NODES {
        350.0
    } else {
        310.0
    }
}

/// Node radius in SVG units: large for small clusters, shrinking so 51 nodes still fit on the ring.
pub fn node_radius(node_count: usize) -> f64 {
    match node_count {
        0..=7 => 46.0,
        8..=12 => 36.0,
        13..=24 => 20.0,
        _ => 11.0,
    }
}

/// Gap between a node's body and its timer ring.
pub fn timer_ring_gap(node_count: usize) -> f64 {
    if node_count > COMPACT_ABOVE_NODES {
        4.0
    } else {
        7.0
    }
}

/// Half the stroke width of the timer ring (see `.timer-ring` in the stylesheet).
pub const TIMER_RING_HALF_STROKE: f64 = 2.5;

#[cfg(test)]
mod message_tests {
    use super::*;

    const FROM: Point = Point { x: 0.0, y: 0.0 };
    const TO: Point = Point { x: 100.0, y: 50.0 };

    #[test]
    fn a_message_moves_linearly_from_sender_to_receiver() {
        assert_eq!(
            message_position(FROM, TO, (1_000, 2_000), 1_000, false),
            FROM
        );
        assert_eq!(
            message_position(FROM, TO, (1_000, 2_000), 1_500, false),
            Point { x: 50.0, y: 25.0 }
        );
        assert_eq!(message_position(FROM, TO, (1_000, 2_000), 2_000, false), TO);
        // Reduced motion: three stops, however finely time moves.
        let stops: std::collections::BTreeSet<String> = (1_000..=2_000)
            .step_by(10)
            .map(|now| {
                format!(
                    "{:?}",
                    message_position(FROM, TO, (1_000, 2_000), now, true)
                )
            })
            .collect();
        assert_eq!(stops.len(), 3, "{stops:?}");
    }

    #[test]
    fn progress_is_clamped_before_sending_and_after_delivery() {
        assert_eq!(flight_progress(1_000, 2_000, 0), 0.0);
        assert_eq!(flight_progress(1_000, 2_000, 9_000), 1.0);
        assert_eq!(flight_progress(1_000, 1_000, 1_000), 1.0);
    }

    #[test]
    fn pulling_stops_short_by_the_distance_or_lands_on_target() {
        let pulled = pull_toward(Point { x: 0.0, y: 0.0 }, Point { x: 10.0, y: 0.0 }, 4.0);
        assert_eq!(pulled, Point { x: 4.0, y: 0.0 });
        assert_eq!(
            pull_toward(FROM, Point { x: 3.0, y: 0.0 }, 4.0),
            Point { x: 3.0, y: 0.0 }
        );
    }

    #[test]
    fn nodes_shrink_as_the_cluster_grows_and_their_rings_never_touch() {
        assert!(node_radius(5) > node_radius(20));
        for node_count in 2..=51 {
            let gap =
                2.0 * ring_radius(node_count) * (std::f64::consts::PI / node_count as f64).sin();
            let outer =
                node_radius(node_count) + timer_ring_gap(node_count) + TIMER_RING_HALF_STROKE;
            assert!(
                2.0 * outer < gap,
                "timer rings overlap at {node_count} nodes"
            );
        }
    }

    #[test]
    fn the_ring_and_its_nodes_stay_inside_an_800_unit_tall_stage() {
        for node_count in 1..=51 {
            let outer =
                node_radius(node_count) + timer_ring_gap(node_count) + TIMER_RING_HALF_STROKE;
            assert!(
                ring_radius(node_count) + outer < 400.0,
                "{node_count} nodes spill off the stage"
            );
        }
    }
}
