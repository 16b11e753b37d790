//! A minimal SVG writer: a canvas of integer pixel coordinates to which
//! rectangles, lines, paths and text are appended, then closed into one
//! standalone SVG document.
//!
//! Text is written as real `<text>` elements (selectable and searchable, not
//! outlines), every element can carry `class` and `data-*` attributes so
//! tests and tools can read the picture back, and every string is escaped
//! for XML.

use alloc::format;
use alloc::string::String;
use core::fmt::Write;

/// Escapes `&`, `<`, `>`, `"` and `'` for use in XML text and attribute
/// values, and spells out control characters ([`is_hidden`](crate::is_hidden))
/// as [`Visible`](crate::Visible) does.
///
/// ```
/// use cktile::render::svg::writer::escape;
/// assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
/// assert_eq!(escape("t\x1b]0;x\x07"), "t\\u{1b}]0;x\\u{7}");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no C0 control but tab and newline, and none
            // of them should reach a terminal that shows the SVG: spelled out.
            c if crate::is_hidden(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// How a piece of text is anchored horizontally at its `x`.
///
/// ```
/// use cktile::render::svg::writer::Anchor;
/// assert_eq!(Anchor::Middle.as_str(), "middle");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is the left edge.
    Start,
    /// `x` is the centre.
    Middle,
    /// `x` is the right edge.
    End,
}

impl Anchor {
    /// The `text-anchor` value.
    ///
    /// ```
    /// assert_eq!(cktile::render::svg::writer::Anchor::End.as_str(), "end");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// The width in pixels of `text` in the canvas's monospace font at `size`
/// pixels (0.6 em per character, rounded up).
///
/// ```
/// assert_eq!(cktile::render::svg::writer::text_width("merge((4,8))", 10), 72);
/// ```
pub fn text_width(text: &str, size: u32) -> u32 {
    let chars = text.chars().count() as u32;
    (chars * size * 6).div_ceil(10)
}

/// An SVG document being drawn.
///
/// ```
/// use cktile::render::svg::writer::{Anchor, Svg};
/// let mut svg = Svg::new(100, 40, "A box");
/// svg.rect(10, 10, 20, 20, "#0072b2", &[("class", "cell")]);
/// svg.text(50, 25, "hi & bye", 12, Anchor::Middle, &[]);
/// let doc = svg.finish();
/// assert!(doc.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(doc.contains("<title>A box</title>"));
/// assert!(doc.contains(">hi &amp; bye</text>"));
/// assert!(doc.ends_with("</svg>\n"));
/// ```
#[derive(Clone, Debug)]
pub struct Svg {
    width: u32,
    height: u32,
    title: String,
    description: String,
    body: String,
}

fn attributes(out: &mut String, attrs: &[(&str, &str)]) {
    for (name, value) in attrs {
        let _ = write!(out, " {name}=\"{}\"", escape(value));
    }
}

impl Svg {
    /// An empty canvas of `width` x `height` pixels whose `<title>` is `title`.
    ///
    /// ```
    /// let svg = cktile::render::svg::writer::Svg::new(10, 10, "empty");
    /// assert_eq!(svg.size(), (10, 10));
    /// ```
    pub fn new(width: u32, height: u32, title: &str) -> Svg {
        Svg { width, height, title: String::from(title), description: String::new(), body: String::new() }
    }

    /// The canvas size.
    ///
    /// ```
    /// let svg = cktile::render::svg::writer::Svg::new(30, 20, "t");
    /// assert_eq!(svg.size(), (30, 20));
    /// ```
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Sets the `<desc>` element: a longer description for screen readers.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.describe("a 4 x 8 grid");
    /// assert!(svg.finish().contains("<desc>a 4 x 8 grid</desc>"));
    /// ```
    pub fn describe(&mut self, description: &str) {
        self.description = String::from(description);
    }

    /// Makes the canvas taller (the drawing grew).
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.set_height(25);
    /// assert_eq!(svg.size(), (10, 25));
    /// ```
    pub fn set_height(&mut self, height: u32) {
        self.height = height;
    }

    /// Appends an empty element: `start` (its name and fixed attributes),
    /// then the extra `attrs`, then `/>`.
    fn element(&mut self, start: core::fmt::Arguments<'_>, attrs: &[(&str, &str)]) {
        let _ = self.body.write_fmt(start);
        attributes(&mut self.body, attrs);
        self.body.push_str("/>\n");
    }

    /// A filled rectangle with a thin grey outline, plus extra attributes.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.rect(1, 2, 3, 4, "#fff", &[("data-bank", "7")]);
    /// assert!(svg.finish().contains("<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\" fill=\"#fff\""));
    /// ```
    pub fn rect(&mut self, x: i64, y: i64, w: u32, h: u32, fill: &str, attrs: &[(&str, &str)]) {
        self.element(
            format_args!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"#5f5f5f\" stroke-width=\"0.5\"",
                escape(fill)
            ),
            attrs,
        );
    }

    /// An image (a `data:` URI or a link) scaled to `w` x `h` without
    /// smoothing, plus extra attributes.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.image(0, 0, 8, 8, "data:image/png;base64,AA==", &[]);
    /// assert!(svg.finish().contains("<image x=\"0\" y=\"0\" width=\"8\" height=\"8\" href=\"data:image/png;base64,AA==\""));
    /// ```
    pub fn image(&mut self, x: i64, y: i64, w: u32, h: u32, href: &str, attrs: &[(&str, &str)]) {
        self.element(
            format_args!(
                "<image x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" href=\"{}\" \
                 preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\"",
                escape(href)
            ),
            attrs,
        );
    }

    /// A rectangle outline (no fill).
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.outline(0, 0, 5, 5, "#000", 2, &[]);
    /// assert!(svg.finish().contains("fill=\"none\" stroke=\"#000\" stroke-width=\"2\""));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn outline(&mut self, x: i64, y: i64, w: u32, h: u32, stroke: &str, width: u32, attrs: &[(&str, &str)]) {
        self.element(
            format_args!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"",
                escape(stroke)
            ),
            attrs,
        );
    }

    /// A rounded box (a diagram node).
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.rounded(0, 0, 8, 8, "#eee", &[]);
    /// assert!(svg.finish().contains("rx=\"4\""));
    /// ```
    pub fn rounded(&mut self, x: i64, y: i64, w: u32, h: u32, fill: &str, attrs: &[(&str, &str)]) {
        self.element(
            format_args!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"4\" fill=\"{}\" stroke=\"#333333\" stroke-width=\"1\"",
                escape(fill)
            ),
            attrs,
        );
    }

    /// A straight line.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.line(0, 0, 10, 10, "#000", 1);
    /// assert!(svg.finish().contains("<line x1=\"0\" y1=\"0\" x2=\"10\" y2=\"10\""));
    /// ```
    pub fn line(&mut self, x1: i64, y1: i64, x2: i64, y2: i64, stroke: &str, width: u32) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{width}\"/>",
            escape(stroke)
        );
    }

    /// A vertical S-shaped wire from `(x1, y1)` down (or up) to `(x2, y2)`.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.wire(0, 0, 10, 20, "#000", &[("class", "wire")]);
    /// assert!(svg.finish().contains("<path d=\"M 0 0 C 0 10, 10 10, 10 20\""));
    /// ```
    pub fn wire(&mut self, x1: i64, y1: i64, x2: i64, y2: i64, stroke: &str, attrs: &[(&str, &str)]) {
        let mid = (y1 + y2) / 2;
        self.element(
            format_args!(
                "<path d=\"M {x1} {y1} C {x1} {mid}, {x2} {mid}, {x2} {y2}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\"",
                escape(stroke)
            ),
            attrs,
        );
    }

    /// A path (`d` in SVG path syntax) drawn as a thin line.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.path("M 0 0 V 10", "#ccc");
    /// assert!(svg.finish().contains("<path d=\"M 0 0 V 10\" fill=\"none\" stroke=\"#ccc\" stroke-width=\"0.5\"/>"));
    /// ```
    pub fn path(&mut self, d: &str, stroke: &str) {
        let _ = writeln!(
            self.body,
            "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"0.5\"/>",
            escape(d),
            escape(stroke)
        );
    }

    /// Text at `(x, y)` (the baseline), `size` pixels high, in the canvas's
    /// monospace font.
    ///
    /// ```
    /// use cktile::render::svg::writer::{Anchor, Svg};
    /// let mut svg = Svg::new(10, 10, "t");
    /// svg.text(5, 8, "7", 9, Anchor::Middle, &[("fill", "#fff")]);
    /// assert!(svg.finish().contains("<text x=\"5\" y=\"8\" font-size=\"9\" text-anchor=\"middle\" fill=\"#fff\">7</text>"));
    /// ```
    pub fn text(&mut self, x: i64, y: i64, text: &str, size: u32, anchor: Anchor, attrs: &[(&str, &str)]) {
        let _ = write!(self.body, "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" text-anchor=\"{}\"", anchor.as_str());
        attributes(&mut self.body, attrs);
        let _ = writeln!(self.body, ">{}</text>", escape(text));
    }

    /// Opens a group (`<g>`) with attributes; close it with [`end_group`](Self::end_group).
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.group(&[("class", "phase")]);
    /// svg.end_group();
    /// assert!(svg.finish().contains("<g class=\"phase\">\n</g>"));
    /// ```
    pub fn group(&mut self, attrs: &[(&str, &str)]) {
        self.body.push_str("<g");
        attributes(&mut self.body, attrs);
        self.body.push_str(">\n");
    }

    /// Closes the innermost open group.
    ///
    /// ```
    /// let mut svg = cktile::render::svg::writer::Svg::new(10, 10, "t");
    /// svg.group(&[]);
    /// svg.end_group();
    /// assert!(svg.finish().contains("<g>\n</g>"));
    /// ```
    pub fn end_group(&mut self) {
        self.body.push_str("</g>\n");
    }

    /// The finished document: the root element with its size and view box,
    /// `<title>`, `<desc>`, a style sheet (fonts), a white background and
    /// everything drawn.
    ///
    /// ```
    /// let doc = cktile::render::svg::writer::Svg::new(20, 10, "t").finish();
    /// assert!(doc.contains("width=\"20\" height=\"10\" viewBox=\"0 0 20 10\""));
    /// ```
    pub fn finish(self) -> String {
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             role=\"img\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n",
            w = self.width,
            h = self.height
        );
        let _ = writeln!(out, "<title>{}</title>", escape(&self.title));
        if !self.description.is_empty() {
            let _ = writeln!(out, "<desc>{}</desc>", escape(&self.description));
        }
        let _ = writeln!(
            out,
            "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
            self.width, self.height
        );
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }
}
