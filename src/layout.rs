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

#[cfg(test)]
mod tests {
    use super::*;

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
