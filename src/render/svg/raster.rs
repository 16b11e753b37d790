//! Pictures too large to draw cell by cell, as one embedded PNG: an
//! indexed-colour image (one pixel per cell, one palette entry per colour)
//! written with stored (uncompressed) deflate blocks, so the encoder is a
//! few lines with no dependency, and a `data:` URI in base64 for SVG's
//! `<image>`.
//!
//! ```
//! use cktile::render::svg::raster::{data_uri, png};
//! let image = png(2, 1, &[[255, 0, 0], [0, 0, 255]], &[0, 1])?;
//! assert_eq!(&image[..8], b"\x89PNG\r\n\x1a\n");
//! assert!(data_uri(&image).starts_with("data:image/png;base64,iVBORw0KGgo"));
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::{Error, ParameterProblem};
use alloc::string::String;
use alloc::vec::Vec;

/// CRC-32 (ISO 3309, as PNG's chunks use it), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// Adler-32 (RFC 1950), zlib's checksum.
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    b << 16 | a
}

/// `data` as a zlib stream of stored deflate blocks (RFC 1950/1951).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 65535 * 5 + 11);
    out.extend_from_slice(&[0x78, 0x01]);
    let mut blocks = data.chunks(65535).peekable();
    if blocks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        let len = block.len() as u16;
        out.push(u8::from(blocks.peek().is_none()));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A `width x height` indexed-colour PNG: `pixels` (row-major, one palette
/// index each) over `palette` (at most 256 RGB entries). An error when the
/// sizes disagree, the palette is empty or too long, or a pixel names no
/// entry.
///
/// ```
/// use cktile::render::svg::raster::png;
/// assert!(png(2, 2, &[[0, 0, 0]], &[0, 0, 0]).is_err());
/// assert!(png(1, 1, &[[0, 0, 0]], &[1]).is_err());
/// ```
pub fn png(width: u32, height: u32, palette: &[[u8; 3]], pixels: &[u8]) -> Result<Vec<u8>, Error> {
    let bad = |parameter, value: usize, requirement| {
        Error::parameter(ParameterProblem::invalid_usize("png", parameter, value, requirement))
    };
    let area = (width as usize).checked_mul(height as usize).filter(|&n| n > 0 && n <= 1 << 26);
    if area != Some(pixels.len()) {
        return Err(bad("pixels", pixels.len(), "one per pixel of a non-empty image of at most 2^26 pixels"));
    }
    if palette.is_empty() || palette.len() > 256 {
        return Err(bad("palette entries", palette.len(), "1 to 256"));
    }
    if let Some(&p) = pixels.iter().find(|&&p| usize::from(p) >= palette.len()) {
        return Err(bad("pixel", usize::from(p), "an index into the palette"));
    }
    let mut raw = Vec::with_capacity(pixels.len() + height as usize);
    for row in pixels.chunks(width as usize) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]); // 8-bit indices, palette, deflate, no filter, no interlace
    chunk(&mut out, b"IHDR", &ihdr);
    let plte: Vec<u8> = palette.iter().flatten().copied().collect();
    chunk(&mut out, b"PLTE", &plte);
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// `bytes` as a `data:image/png;base64,...` URI.
pub fn data_uri(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(22 + bytes.len().div_ceil(3) * 4);
    out.push_str("data:image/png;base64,");
    for group in bytes.chunks(3) {
        let n = group.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(TABLE[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The red, green and blue of a `#rrggbb` colour (black for anything else).
pub(crate) fn rgb(hex: &str) -> [u8; 3] {
    let channel = |i: usize| hex.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok()).unwrap_or(0);
    [channel(1), channel(3), channel(5)]
}
