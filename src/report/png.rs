//! The board picture as PNG, rendered from the SVG in-process with resvg.
//!
//! Fonts come from the system (the `fonts-dejavu-core` package on Debian is
//! enough). Without any font the picture is still drawn, without its text.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("the board picture is not valid SVG: {0}")]
    Svg(String),
    #[error("the board picture has no size")]
    Empty,
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

/// The system fonts, loaded once: scanning them takes a while.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_system_fonts();
            // The generic family names default to fonts a Linux host rarely has.
            let preferred = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans"];
            let family = preferred
                .iter()
                .find(|name| {
                    db.faces()
                        .any(|f| f.families.iter().any(|(n, _)| n == *name))
                })
                .map(|s| s.to_string())
                .or_else(|| {
                    db.faces()
                        .next()
                        .and_then(|f| f.families.first().map(|(n, _)| n.clone()))
                });
            if let Some(family) = family {
                keep_in_memory(&mut db, &family);
                db.set_sans_serif_family(family.clone());
                db.set_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
}

/// Holds the faces of `family` in memory. A face backed by a file is read
/// again from disk for every text element drawn, which made font reading a
/// fifth of the cost of a picture.
fn keep_in_memory(db: &mut fontdb::Database, family: &str) {
    let faces: Vec<fontdb::FaceInfo> = db
        .faces()
        .filter(|f| f.families.iter().any(|(n, _)| n == family))
        .cloned()
        .collect();
    let mut files: HashMap<std::path::PathBuf, Arc<Vec<u8>>> = HashMap::new();
    for mut face in faces {
        let fontdb::Source::File(path) = &face.source else {
            continue;
        };
        let data = match files.get(path) {
            Some(d) => d.clone(),
            None => match std::fs::read(path) {
                Ok(bytes) => {
                    let d = Arc::new(bytes);
                    files.insert(path.clone(), d.clone());
                    d
                }
                // Unreadable now: leave the face as it was.
                Err(_) => continue,
            },
        };
        db.remove_face(face.id);
        face.source = fontdb::Source::Binary(data);
        db.push_face_info(face);
    }
}

/// Are any fonts available to draw text with?
pub fn has_fonts() -> bool {
    !fonts().is_empty()
}

/// Renders `svg` to PNG bytes, scaled to `width` pixels wide (the SVG's own size
/// if `None`).
pub fn render(svg: &str, width: Option<u32>) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let scale = width.map_or(1.0, |w| w as f32 / size.width());
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    let mut pixmap = Pixmap::new(w, h).ok_or(PngError::Empty)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode_indexed(&pixmap)
}

/// The picture is opaque (drawn on white) and mostly flat colour, so it is
/// written with a palette: the 256 most common colours, every other pixel (the
/// anti-aliased edges) taken to the nearest of them. A third of the size of
/// the RGBA the renderer holds.
fn encode_indexed(pixmap: &Pixmap) -> Result<Vec<u8>, PngError> {
    let pixels: Vec<u32> = pixmap
        .data()
        .chunks_exact(4)
        .map(|px| u32::from_be_bytes([0, px[0], px[1], px[2]]))
        .collect();
    let palette = popular_colours(&pixels, 256);
    let indices = palette_indices(&pixels, &palette);
    let mut out = Vec::with_capacity(indices.len() / 4);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.iter().flatten().copied().collect::<Vec<u8>>());
    // Level 2 with no prediction filter: measured smaller than level 9 with
    // the adaptive filter (palette indices gain nothing from prediction) at a
    // fraction of the time.
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    encoder.set_filter(png::Filter::NoFilter);
    let encode_error = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer.write_image_data(&indices).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

fn rgb(c: u32) -> [u8; 3] {
    let [_, r, g, b] = c.to_be_bytes();
    [r, g, b]
}

/// Calls `f` once per run of equal pixels with the colour and the run length:
/// flat areas make long runs, so each colour is looked up far less often than
/// once per pixel.
fn runs(pixels: &[u32], mut f: impl FnMut(u32, usize)) {
    let mut i = 0;
    while i < pixels.len() {
        let c = pixels[i];
        let mut j = i + 1;
        while j < pixels.len() && pixels[j] == c {
            j += 1;
        }
        f(c, j - i);
        i = j;
    }
}

/// The `n` most frequent colours (at least one).
fn popular_colours(pixels: &[u32], n: usize) -> Vec<[u8; 3]> {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    runs(pixels, |c, len| *counts.entry(c).or_insert(0) += len as u64);
    let mut by_count: Vec<(u32, u64)> = counts.into_iter().collect();
    // Ties broken by colour so the same picture always gives the same file.
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut palette: Vec<[u8; 3]> = by_count.into_iter().take(n).map(|(c, _)| rgb(c)).collect();
    if palette.is_empty() {
        palette.push([255, 255, 255]);
    }
    palette
}

/// Each pixel's palette index: the nearest palette colour, worked out once
/// per distinct colour.
fn palette_indices(pixels: &[u32], palette: &[[u8; 3]]) -> Vec<u8> {
    let mut index: HashMap<u32, u8> = HashMap::new();
    let mut out = Vec::with_capacity(pixels.len());
    runs(pixels, |c, len| {
        let i = *index.entry(c).or_insert_with(|| nearest(palette, rgb(c)));
        out.resize(out.len() + len, i);
    });
    out
}

fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let distance = |p: &[u8; 3]| -> i32 {
        (0..3)
            .map(|i| {
                let d = i32::from(p[i]) - i32::from(c[i]);
                d * d
            })
            .sum()
    };
    let best = (0..palette.len())
        .min_by_key(|&i| distance(&palette[i]))
        .unwrap_or(0);
    best as u8
}
