//! A slide's link as a QR code, drawn as one SVG path so it prints sharp at any size. The code itself
//! comes from `qrcodegen` (no dependencies of its own); this file only turns its modules into a path.
//!
//! Medium error correction (about 15% of the code may be smudged or covered): a printed sheet is held
//! up to a phone's camera from across a table, and a link of about 100 characters still fits a code of
//! 41 modules a side. A quiet zone of four modules, as the standard asks, is part of the picture, so a
//! code printed beside text still scans.

use qrcodegen::{QrCode, QrCodeEcc};

/// Light modules around the code, on every side, as the QR standard asks.
pub const QUIET_ZONE_MODULES: usize = 4;

/// A QR code as an SVG path over a square of `side_modules` (quiet zone included), one unit a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QrPicture {
    pub side_modules: usize,
    /// The dark modules: each run of them along a row is one `M x,y h n v 1 h -n z` rectangle.
    pub path: String,
}

/// The QR code of `text`, or why there is none (a text too long for the largest code).
pub fn qr_picture(text: &str) -> Result<QrPicture, String> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium).map_err(|_| {
        format!(
            "a link of {} characters is too long for a QR code",
            text.len()
        )
    })?;
    let size = code.size();
    let mut path = String::new();
    for y in 0..size {
        let mut x = 0;
        while x < size {
            if !code.get_module(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < size && code.get_module(x, y) {
                x += 1;
            }
            let run = x - start;
            let offset = QUIET_ZONE_MODULES as i32;
            path.push_str(&format!(
                "M{},{}h{run}v1h-{run}z",
                start + offset,
                y + offset
            ));
        }
    }
    Ok(QrPicture {
        side_modules: size as usize + 2 * QUIET_ZONE_MODULES,
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the path back into a grid of dark modules (only the shapes `qr_picture` writes).
    fn dark_modules(picture: &QrPicture) -> Vec<Vec<bool>> {
        let mut grid = vec![vec![false; picture.side_modules]; picture.side_modules];
        for rectangle in picture.path.split('M').filter(|part| !part.is_empty()) {
            let (corner, rest) = rectangle.split_once('h').unwrap();
            let (x, y) = corner.split_once(',').unwrap();
            let run: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            for (column, module) in grid[y].iter_mut().enumerate().skip(x).take(run) {
                assert!(!*module, "modules drawn twice at {column},{y}");
                *module = true;
            }
        }
        grid
    }

    #[test]
    fn the_path_draws_exactly_the_codes_dark_modules_inside_a_quiet_zone() {
        let link =
            "https://host/courses/ql/#/gallery/two-phase-commit/coordinator-crash?presenter=on";
        let picture = qr_picture(link).unwrap();
        let code = QrCode::encode_text(link, QrCodeEcc::Medium).unwrap();
        assert_eq!(
            picture.side_modules,
            code.size() as usize + 2 * QUIET_ZONE_MODULES
        );
        let grid = dark_modules(&picture);
        for (y, row) in grid.iter().enumerate() {
            for (x, dark) in row.iter().enumerate() {
                let inside = |value: usize| {
                    (QUIET_ZONE_MODULES..QUIET_ZONE_MODULES + code.size() as usize).contains(&value)
                };
                let expected = inside(x)
                    && inside(y)
                    && code.get_module(
                        (x - QUIET_ZONE_MODULES) as i32,
                        (y - QUIET_ZONE_MODULES) as i32,
                    );
                assert_eq!(*dark, expected, "module {x},{y}");
            }
        }
        // The top-left finder pattern: a dark 7×7 ring right inside the quiet zone.
        let corner = QUIET_ZONE_MODULES;
        assert!((0..7).all(|offset| grid[corner][corner + offset] && grid[corner + offset][corner]));
        assert!(!grid[corner + 1][corner + 1] && grid[corner + 2][corner + 2]);
    }

    #[test]
    fn a_text_too_long_for_any_code_is_refused_with_its_length() {
        let long = "x".repeat(5_000);
        assert_eq!(
            qr_picture(&long).unwrap_err(),
            "a link of 5000 characters is too long for a QR code"
        );
    }
}
