//! Colours readable by colour-blind readers: the viridis scale for banks
//! (perceptually uniform, distinguishable under the common colour-vision
//! deficiencies, and readable in grey) and the Okabe–Ito palette for
//! categories. No picture encodes anything by colour alone: every coloured
//! cell also prints its number.

use alloc::format;
use alloc::string::String;

/// Okabe–Ito's eight colours: black, orange, sky blue, bluish green,
/// yellow, blue, vermillion, reddish purple.
///
/// ```
/// assert_eq!(cktile::render::svg::palette::OKABE_ITO[1], "#e69f00");
/// ```
pub const OKABE_ITO: [&str; 8] =
    ["#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"];

/// A lane access that shares its bank with no other word (sky blue).
///
/// ```
/// assert_eq!(cktile::render::svg::palette::FREE, cktile::render::svg::palette::OKABE_ITO[2]);
/// ```
pub const FREE: &str = "#56b4e9";
/// A lane access whose bank serves several words in its phase (orange).
///
/// ```
/// assert_eq!(cktile::render::svg::palette::CONFLICT, cktile::render::svg::palette::OKABE_ITO[1]);
/// ```
pub const CONFLICT: &str = "#e69f00";
/// A position that is padding (light grey).
///
/// ```
/// use cktile::render::svg::palette::{text_on, PADDING};
/// assert_eq!(text_on(PADDING), "#000000");
/// ```
pub const PADDING: &str = "#d9d9d9";

/// Viridis at eleven evenly spaced points (matplotlib's values).
const VIRIDIS: [(u8, u8, u8); 11] = [
    (0x44, 0x01, 0x54),
    (0x48, 0x24, 0x75),
    (0x41, 0x44, 0x87),
    (0x35, 0x5f, 0x8d),
    (0x2a, 0x78, 0x8e),
    (0x21, 0x91, 0x8c),
    (0x22, 0xa8, 0x84),
    (0x44, 0xbf, 0x70),
    (0x7a, 0xd1, 0x51),
    (0xbd, 0xdf, 0x26),
    (0xfd, 0xe7, 0x25),
];

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The viridis colour at `i / (n - 1)` (linear between the anchors).
///
/// ```
/// use cktile::render::svg::palette::viridis;
/// assert_eq!(viridis(0, 32), "#440154");
/// assert_eq!(viridis(31, 32), "#fde725");
/// ```
pub fn viridis(i: u32, n: u32) -> String {
    if n <= 1 {
        return hex(VIRIDIS[0]);
    }
    let i = i.min(n - 1) as u64;
    let segments = (VIRIDIS.len() - 1) as u64;
    // Position on the scale in units of 1 / ((n - 1) * segments).
    let pos = i * segments;
    let span = (n - 1) as u64;
    let k = (pos / span) as usize;
    let frac = pos % span;
    if k >= VIRIDIS.len() - 1 {
        return hex(VIRIDIS[VIRIDIS.len() - 1]);
    }
    let (a, b) = (VIRIDIS[k], VIRIDIS[k + 1]);
    let mix = |x: u8, y: u8| -> u8 {
        let (x, y) = (x as i64, y as i64);
        (x + ((y - x) * frac as i64 + span as i64 / 2) / span as i64).clamp(0, 255) as u8
    };
    hex((mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2)))
}

/// The fill of bank `bank` of `banks`: viridis from bank 0 (dark purple) to
/// the last bank (yellow), so a conflict-free row of banks is a full
/// gradient and cells of one bank share one colour.
///
/// ```
/// use cktile::render::svg::palette::bank_colour;
/// assert_eq!(bank_colour(0, 32), "#440154");
/// assert_eq!(bank_colour(32, 32), bank_colour(0, 32));
/// ```
pub fn bank_colour(bank: u32, banks: u32) -> String {
    viridis(bank % banks.max(1), banks)
}

/// Black or white, whichever reads better on `fill` (`#rrggbb`).
///
/// ```
/// use cktile::render::svg::palette::text_on;
/// assert_eq!(text_on("#440154"), "#ffffff");
/// assert_eq!(text_on("#fde725"), "#000000");
/// ```
pub fn text_on(fill: &str) -> &'static str {
    let channel = |i: usize| fill.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok()).unwrap_or(255) as u32;
    let (r, g, b) = (channel(1), channel(3), channel(5));
    if 299 * r + 587 * g + 114 * b < 140_000 { "#ffffff" } else { "#000000" }
}

/// The fill of a bank that serves `ways` distinct words in a phase: white
/// for an unused bank, light blue for one word, then orange to vermillion
/// as the conflict deepens (the number is always printed as well).
///
/// ```
/// use cktile::render::svg::palette::ways_colour;
/// assert_eq!(ways_colour(0), "#ffffff");
/// assert_eq!(ways_colour(1), "#cde8f6");
/// assert_eq!(ways_colour(9), ways_colour(4));
/// ```
pub fn ways_colour(ways: u32) -> &'static str {
    match ways {
        0 => "#ffffff",
        1 => "#cde8f6",
        2 => "#f5c77e",
        3 => "#e69f00",
        _ => "#d55e00",
    }
}

/// The fill of a transform box in a chain diagram, by the kind's family
/// ([`Kind::family`](cktile_transforms::Kind::family), from the table of
/// kinds; its name is always written in the box).
///
/// ```
/// use cktile::render::svg::palette::kind_colour;
/// use cktile::transforms::Kind;
/// assert_ne!(kind_colour(Kind::Xor), kind_colour(Kind::Merge));
/// ```
pub fn kind_colour(kind: cktile_transforms::Kind) -> &'static str {
    use cktile_transforms::Family;
    match kind.family() {
        Family::Identity => "#f2f2f2",
        Family::Permutation => "#f5c77e",
        Family::Merge => "#a6d7f2",
        Family::Unmerge => "#9fd9c6",
        Family::Embed => "#d9c2e0",
        Family::Pad => "#f7efa0",
        Family::Index => "#e0e0e0",
    }
}
