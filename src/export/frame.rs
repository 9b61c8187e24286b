//! Where the words go around an exported drawing: the scenario's title and the simulated time above it,
//! and below it the caption on screen, the invariants (each holding or violated) and a legend of what
//! the drawing's colours and shapes mean.
//!
//! A slide is read from the back of a room, so sizes follow the picture's width (about 20 units for a
//! 1000-unit drawing, which the PNG doubles), never below what a projector still shows. Lines are
//! wrapped, and badges and legend entries flow into rows, with a `measure` function the caller gives: the
//! browser measures with the picture's own font, the tests with a fixed width per character. Everything
//! here is arithmetic on that measure, so it is tested natively; [`super::draw_frame`] turns the result
//! into SVG elements.

/// Narrowest frame: a narrow drawing (a phone's diagram) is centred on at least this width, so the
/// words around it are not wrapped a few to a line.
pub const MIN_FRAME_WIDTH: f64 = 720.0;
/// Text size for a frame this wide is `width / WIDTH_PER_TEXT_UNIT`, within the bounds below.
const WIDTH_PER_TEXT_UNIT: f64 = 50.0;
const MIN_TEXT_PX: f64 = 14.0;
const MAX_TEXT_PX: f64 = 24.0;
/// A drawing at least this tall for its width gets the words beside it rather than under it.
const BESIDE_FROM_ASPECT: f64 = 0.6;
/// The column beside a tall drawing: this share of the drawing's width, at least the minimum.
const COLUMN_SHARE: f64 = 0.5;
const MIN_COLUMN_WIDTH: f64 = 380.0;
/// Between a tall drawing and its column, in paddings.
const COLUMN_GAP_PADS: f64 = 1.5;
/// Baseline to baseline, in text sizes.
const LINE_HEIGHT: f64 = 1.35;

/// The tone a piece of text or a mark is painted in (the browser resolves each to a theme colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Text,
    Muted,
    Danger,
    Ok,
    Accent,
}

/// The shape of a legend entry's swatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    Circle,
    Square,
    Diamond,
    Hexagon,
    Dot,
    Stroke,
    Ring,
    Cross,
}

/// One legend entry: a swatch painted like an element of the drawing, and the page's word for it.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendItem {
    pub label: String,
    pub swatch: Swatch,
    /// The computed `fill`, `stroke`, `stroke-dasharray` and `opacity` of the element it stands for.
    pub fill: String,
    pub stroke: String,
    pub dash: String,
    pub opacity: String,
}

/// An invariant as its badge shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantState {
    pub name: String,
    pub holds: bool,
}

/// What the page says about the moment shown.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PictureContext {
    pub title: String,
    /// The line under the title: the simulated time and which drawing this is.
    pub meta: String,
    /// The caption on screen and whether it is an alarm (an invariant broken).
    pub caption: Option<(String, bool)>,
    pub invariants: Vec<InvariantState>,
    /// A sentence before the legend's entries ("each line is a node; each arrow a message").
    pub legend_lead: Option<String>,
    pub legend: Vec<LegendItem>,
}

/// What a placed text is, so the file says it in attributes as well as in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextRole {
    Title,
    Meta,
    Caption,
    Heading,
    Invariant { name: String, holds: bool },
    Legend,
}

/// One thing drawn around the picture; `y` of a text is its baseline.
#[derive(Clone, Debug, PartialEq)]
pub enum Placed {
    Text {
        x: f64,
        y: f64,
        size: f64,
        bold: bool,
        tone: Tone,
        role: TextRole,
        text: String,
    },
    /// The bar beside the caption.
    Bar {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
        tone: Tone,
    },
    /// Legend entry `index`'s swatch, centred on (x, y), `size` across.
    Swatch {
        x: f64,
        y: f64,
        size: f64,
        index: usize,
    },
}

/// The frame: its size, where the drawing goes, and everything around it.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameLayout {
    pub width: f64,
    pub height: f64,
    pub drawing_x: f64,
    pub drawing_y: f64,
    pub text_px: f64,
    pub items: Vec<Placed>,
}

/// The body text size of a frame `width` wide.
pub fn text_px(width: f64) -> f64 {
    (width / WIDTH_PER_TEXT_UNIT).clamp(MIN_TEXT_PX, MAX_TEXT_PX)
}

/// `text` broken at spaces into lines no wider than `width` (a word wider than that gets a line of its
/// own); no empty lines.
pub fn wrap(text: &str, width: f64, size: f64, measure: &dyn Fn(&str, f64) -> f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && measure(&candidate, size) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A chip in a flowing row: its swatch (a legend entry's index) and its words.
struct Chip {
    swatch: Option<usize>,
    text: String,
    tone: Tone,
    bold: bool,
    role: TextRole,
}

/// Lays out `context` around a drawing of `drawing_width` × `drawing_height`: the title and time above
/// it, the rest beside a tall drawing (so the picture is about as wide as a slide) or under a wide one.
pub fn layout_frame(
    drawing_width: f64,
    drawing_height: f64,
    context: &PictureContext,
    measure: &dyn Fn(&str, f64) -> f64,
) -> FrameLayout {
    let size = text_px(drawing_width.max(MIN_FRAME_WIDTH));
    let pad = size;
    let beside = drawing_height >= drawing_width * BESIDE_FROM_ASPECT;
    let width = if beside {
        let column = (drawing_width * COLUMN_SHARE).max(MIN_COLUMN_WIDTH);
        pad + drawing_width + COLUMN_GAP_PADS * pad + column + pad
    } else {
        (drawing_width + 2.0 * pad).max(MIN_FRAME_WIDTH)
    };
    let mut frame = Builder {
        left: pad,
        right: width - pad,
        y: pad,
        items: Vec::new(),
        measure,
    };
    frame.lines(
        &context.title,
        size * 1.4,
        true,
        Tone::Text,
        TextRole::Title,
    );
    frame.lines(&context.meta, size, false, Tone::Muted, TextRole::Meta);
    frame.y += size * 0.6;
    let drawing_y = frame.y;
    let drawing_x = if beside {
        frame.left = pad + drawing_width + COLUMN_GAP_PADS * pad;
        pad
    } else {
        frame.y += drawing_height + size * 0.8;
        (width - drawing_width) / 2.0
    };
    frame.story(context, size);
    let height = frame.y.max(drawing_y + drawing_height + pad * 0.6) + size * 0.4;
    FrameLayout {
        width,
        height,
        drawing_x,
        drawing_y,
        text_px: size,
        items: frame.items,
    }
}

fn invariant_chip(invariant: &InvariantState) -> Chip {
    let (text, tone) = if invariant.holds {
        (format!("✓ {}", invariant.name), Tone::Ok)
    } else {
        (format!("✗ {}: violated", invariant.name), Tone::Danger)
    };
    Chip {
        swatch: None,
        text,
        tone,
        bold: !invariant.holds,
        role: TextRole::Invariant {
            name: invariant.name.clone(),
            holds: invariant.holds,
        },
    }
}

fn legend_chip((index, item): (usize, &LegendItem)) -> Chip {
    Chip {
        swatch: Some(index),
        text: item.label.clone(),
        tone: Tone::Text,
        bold: false,
        role: TextRole::Legend,
    }
}

struct Builder<'a> {
    /// The text's left and right margins.
    left: f64,
    right: f64,
    /// The top of the next free line.
    y: f64,
    items: Vec<Placed>,
    measure: &'a dyn Fn(&str, f64) -> f64,
}

impl Builder<'_> {
    fn text_width(&self) -> f64 {
        self.right - self.left
    }

    /// The caption, the invariants and the legend, one after the other.
    fn story(&mut self, context: &PictureContext, size: f64) {
        if let Some((caption, alarm)) = &context.caption {
            self.caption(caption, *alarm, size * 1.1);
        }
        if !context.invariants.is_empty() {
            self.heading("Invariants", size);
            let chips = context.invariants.iter().map(invariant_chip).collect();
            self.flow(chips, size * 0.9);
        }
        if !context.legend.is_empty() {
            let heading = match &context.legend_lead {
                Some(lead) => format!("Legend — {lead}"),
                None => "Legend".to_string(),
            };
            self.heading(&heading, size);
            let chips = context.legend.iter().enumerate().map(legend_chip).collect();
            self.flow(chips, size * 0.85);
        }
    }

    fn lines(&mut self, text: &str, size: f64, bold: bool, tone: Tone, role: TextRole) {
        for line in wrap(text, self.text_width(), size, self.measure) {
            self.items.push(Placed::Text {
                x: self.left,
                y: self.y + size,
                size,
                bold,
                tone,
                role: role.clone(),
                text: line,
            });
            self.y += size * LINE_HEIGHT;
        }
    }

    /// The caption, indented past a bar in the caption's tone, as on the page.
    fn caption(&mut self, caption: &str, alarm: bool, size: f64) {
        let tone = if alarm { Tone::Danger } else { Tone::Accent };
        let indent = size * 0.7;
        let top = self.y;
        let width = self.text_width() - indent;
        for line in wrap(caption, width, size, self.measure) {
            self.items.push(Placed::Text {
                x: self.left + indent,
                y: self.y + size,
                size,
                bold: false,
                tone: if alarm { Tone::Danger } else { Tone::Text },
                role: TextRole::Caption,
                text: line,
            });
            self.y += size * LINE_HEIGHT;
        }
        self.items.push(Placed::Bar {
            x: self.left,
            y: top + size * 0.1,
            width: size * 0.25,
            height: self.y - top,
            tone,
        });
        self.y += size * 0.6;
    }

    fn heading(&mut self, text: &str, size: f64) {
        self.lines(text, size, true, Tone::Text, TextRole::Heading);
        self.y += size * 0.1;
    }

    /// Chips left to right, a new row when the next one would pass the right margin.
    fn flow(&mut self, chips: Vec<Chip>, size: f64) {
        let gap = size * 1.2;
        let swatch_px = size * 1.1;
        let row_px = size * 1.6;
        let right = self.right;
        let mut x = self.left;
        for chip in chips {
            let swatch_room = chip.swatch.map_or(0.0, |_| swatch_px + size * 0.4);
            let chip_px = swatch_room + (self.measure)(&chip.text, size);
            if x > self.left && x + chip_px > right {
                x = self.left;
                self.y += row_px;
            }
            let middle = self.y + row_px / 2.0;
            if let Some(index) = chip.swatch {
                self.items.push(Placed::Swatch {
                    x: x + swatch_px / 2.0,
                    y: middle,
                    size: swatch_px,
                    index,
                });
            }
            self.items.push(Placed::Text {
                x: x + swatch_room,
                y: middle + size * 0.35,
                size,
                bold: chip.bold,
                tone: chip.tone,
                role: chip.role,
                text: chip.text,
            });
            x += chip_px + gap;
        }
        self.y += row_px + size * 0.5;
    }
}

#[cfg(test)]
mod tests;
