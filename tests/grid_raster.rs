//! Large layout grids drawn as one embedded PNG (`render::svg::grid` past
//! `RASTER_CELLS`): the picture read back by an independent PNG reader
//! (chunks, CRCs, stored deflate blocks, Adler-32) holds every coordinate's
//! bank as the layout gives it, in under 100 KB for a 128 x 128 tile.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::render::svg::grid::{GridOptions, RASTER_CELLS, grid};
use cktile::render::svg::palette::{PADDING, bank_colour};

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for group in bytes.chunks(4) {
        let n = group.iter().enumerate().fold(0u32, |n, (i, &c)| n | u32::from(value(c)) << (18 - 6 * i));
        for i in 0..group.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

fn crc(bytes: &[u8]) -> u32 {
    // Table-driven, unlike the library's bitwise one.
    let table: Vec<u32> =
        (0..256u32).map(|n| (0..8).fold(n, |c, _| if c & 1 == 1 { 0xedb88320 ^ (c >> 1) } else { c >> 1 })).collect();
    !bytes.iter().fold(!0u32, |c, &b| table[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8))
}

/// (width, height, palette, pixel indices) of an indexed PNG with stored blocks.
fn read_png(png: &[u8]) -> (usize, usize, Vec<[u8; 3]>, Vec<u8>) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut ihdr, mut plte, mut idat) = (8, vec![], vec![], vec![]);
    while at < png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png[at + 4..at + 8];
        let data = &png[at + 8..at + 8 + len];
        let stored = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(stored, crc(&png[at + 4..at + 8 + len]), "chunk CRC");
        match kind {
            b"IHDR" => ihdr = data.to_vec(),
            b"PLTE" => plte = data.to_vec(),
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let w = u32::from_be_bytes(ihdr[0..4].try_into().unwrap()) as usize;
    let h = u32::from_be_bytes(ihdr[4..8].try_into().unwrap()) as usize;
    assert_eq!(&ihdr[8..], &[8, 3, 0, 0, 0]);
    // zlib: header, stored blocks, Adler-32.
    assert_eq!(idat[0] & 0x0f, 8);
    let (mut p, mut raw) = (2, vec![]);
    loop {
        let last = idat[p] & 1 == 1;
        assert_eq!(idat[p] >> 1 & 3, 0, "stored block");
        let len = u16::from_le_bytes([idat[p + 1], idat[p + 2]]) as usize;
        assert_eq!(u16::from_le_bytes([idat[p + 3], idat[p + 4]]), !(len as u16));
        raw.extend_from_slice(&idat[p + 5..p + 5 + len]);
        p += 5 + len;
        if last {
            break;
        }
    }
    let (a, b) = raw
        .iter()
        .fold((1u32, 0u32), |(a, b), &x| ((a + u32::from(x)) % 65521, (b + (a + u32::from(x)) % 65521) % 65521));
    assert_eq!(u32::from_be_bytes(idat[p..p + 4].try_into().unwrap()), b << 16 | a);
    let mut pixels = Vec::new();
    for row in raw.chunks(w + 1) {
        assert_eq!(row[0], 0, "filter none");
        pixels.extend_from_slice(&row[1..]);
    }
    assert_eq!(pixels.len(), w * h);
    (w, h, plte.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(), pixels)
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

#[test]
fn a_large_grid_is_one_image_holding_every_bank() {
    for (entry, rows, cols, banks) in [
        ("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=128", 128, 128, 32u32),
        ("row-padded:rows=128,cols=64,pad=8", 128, 64, 64),
        ("ck-xor-preshuffle:m=256,k=64,kpack=8", 256, 64, 32),
    ] {
        let desc = cktile::layouts::resolve(entry).unwrap();
        let svg = grid(&desc, &GridOptions::new(entry, 2, banks)).unwrap();
        assert!(rows * cols > RASTER_CELLS);
        assert!(svg.len() < 100_000, "{entry}: {} bytes", svg.len());
        assert!(!svg.contains("class=\"cell\""));
        let start = svg.find("href=\"data:image/png;base64,").unwrap() + "href=\"data:image/png;base64,".len();
        let end = start + svg[start..].find('"').unwrap();
        let (w, h, palette, pixels) = read_png(&base64(&svg[start..end]));
        assert_eq!((w, h), (cols, rows));
        assert_eq!(palette.len(), banks as usize + 1);
        assert_eq!(hex(palette[banks as usize]), PADDING);
        for r in 0..rows {
            for c in 0..cols {
                let offset = desc.calculate_offset(&[r as i64, c as i64]);
                let bank = ((offset * 2 / 4) as u32) % banks;
                let p = pixels[r * cols + c];
                assert_eq!(u32::from(p), bank, "{entry} ({r}, {c})");
                assert_eq!(hex(palette[p as usize]), bank_colour(bank, banks));
            }
        }
    }
    // At the threshold and below, a cell each, as before.
    let small = cktile::Descriptor::packed(&[64, 64]).unwrap();
    let svg = grid(&small, &GridOptions::new("packed", 2, 32)).unwrap();
    assert_eq!(svg.matches("class=\"cell\"").count(), 4096);
}
