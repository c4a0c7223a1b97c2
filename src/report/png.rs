//! The board picture as PNG, rendered from the SVG in-process with resvg.
//!
//! Fonts come from the system (the `fonts-dejavu-core` package on Debian is
//! enough). Without any font the picture is still drawn, without its text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

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
    let pixmap = match Layers::split(svg) {
        Some(layers) => layers.draw(width)?,
        None => draw_whole(svg, width)?,
    };
    encode_indexed(&pixmap)
}

fn options() -> usvg::Options<'static> {
    usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    }
}

fn parse(svg: &str) -> Result<usvg::Tree, PngError> {
    usvg::Tree::from_str(svg, &options()).map_err(|e| PngError::Svg(e.to_string()))
}

/// The canvas for `tree` at `width`, and the scale to draw at.
fn canvas(tree: &usvg::Tree, width: Option<u32>) -> Result<(Pixmap, f32), PngError> {
    let size = tree.size();
    let scale = width.map_or(1.0, |w| w as f32 / size.width());
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    Ok((Pixmap::new(w, h).ok_or(PngError::Empty)?, scale))
}

fn draw_whole(svg: &str, width: Option<u32>) -> Result<Pixmap, PngError> {
    let tree = parse(svg)?;
    let (mut pixmap, scale) = canvas(&tree, width)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A board SVG cut at the markers of [`super::svg::FIXED_START`]: the root
/// element with its definitions, then parts in drawing order, each fixed (the
/// same on every board) or not.
struct Layers<'a> {
    head: &'a str,
    parts: Vec<(bool, &'a str)>,
}

impl<'a> Layers<'a> {
    fn split(svg: &'a str) -> Option<Layers<'a>> {
        use super::svg::{FIXED_END, FIXED_START};
        const DEFS_END: &str = "</defs>";
        let head_end = svg.find(DEFS_END)? + DEFS_END.len();
        let body_end = svg.rfind("</svg>")?;
        if body_end < head_end || !svg[head_end..].contains(FIXED_START) {
            return None;
        }
        let mut rest = &svg[head_end..body_end];
        let mut parts = Vec::new();
        while let Some(start) = rest.find(FIXED_START) {
            parts.push((false, &rest[..start]));
            let after = &rest[start + FIXED_START.len()..];
            let end = after.find(FIXED_END)?;
            parts.push((true, &after[..end]));
            rest = &after[end + FIXED_END.len()..];
        }
        parts.push((false, rest));
        parts.retain(|(_, text)| !text.trim().is_empty());
        Some(Layers {
            head: &svg[..head_end],
            parts,
        })
    }

    fn document(&self, part: &str) -> String {
        let mut doc = String::with_capacity(self.head.len() + part.len() + 16);
        doc.push_str(self.head);
        doc.push('\n');
        doc.push_str(part);
        doc.push_str("</svg>\n");
        doc
    }

    /// Draws the parts in order on white: the fixed ones from the cache
    /// (drawn on a transparent layer the first time), the others in place.
    /// Laying a layer over the canvas blends exactly as drawing its shapes
    /// there would, so the picture is the one the whole SVG gives.
    fn draw(&self, width: Option<u32>) -> Result<Pixmap, PngError> {
        let frame = parse(&self.document(""))?;
        let (mut pixmap, scale) = canvas(&frame, width)?;
        let transform = Transform::from_scale(scale, scale);
        let (w, h) = (pixmap.width(), pixmap.height());
        let mut parts = self.parts.iter().peekable();
        // A fixed first part is kept drawn on the white ground itself: the
        // canvas starts as a copy of it, with nothing to blend.
        match parts.peek() {
            Some((true, part)) => {
                let base = fixed_layer(&self.document(part), width, w, h, transform, true)?;
                pixmap = (*base).clone();
                parts.next();
            }
            _ => pixmap.fill(resvg::tiny_skia::Color::WHITE),
        }
        for (fixed, part) in parts {
            let doc = self.document(part);
            if *fixed {
                let layer = fixed_layer(&doc, width, w, h, transform, false)?;
                lay_over(&mut pixmap, &layer);
            } else {
                resvg::render(&parse(&doc)?, transform, &mut pixmap.as_mut());
            }
        }
        Ok(pixmap)
    }
}

/// Blends `layer` over `canvas` (both premultiplied RGBA of one size), as
/// drawing its shapes there would. Done by hand: the general pixmap drawing
/// goes through the floating-point pipeline and cost a quarter of a picture.
fn lay_over(canvas: &mut Pixmap, layer: &Pixmap) {
    for (d, s) in canvas
        .data_mut()
        .chunks_exact_mut(4)
        .zip(layer.data().chunks_exact(4))
    {
        match s[3] {
            0 => {}
            255 => d.copy_from_slice(s),
            a => {
                let keep = u16::from(255 - a);
                for i in 0..4 {
                    let under = ((u16::from(d[i]) * keep + 127) / 255) as u8;
                    d[i] = s[i].saturating_add(under);
                }
            }
        }
    }
}

/// Fixed parts already drawn, by document, width and ground (white or
/// transparent). A map has two; a few maps and widths fit.
type LayerCache = Mutex<Vec<(String, Option<u32>, bool, Arc<Pixmap>)>>;

fn fixed_layer(
    doc: &str,
    width: Option<u32>,
    w: u32,
    h: u32,
    transform: Transform,
    on_white: bool,
) -> Result<Arc<Pixmap>, PngError> {
    static CACHE: OnceLock<LayerCache> = OnceLock::new();
    const KEEP: usize = 16;
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let found = cache.lock().ok().and_then(|c| {
        c.iter()
            .find(|(d, wd, white, _)| d == doc && *wd == width && *white == on_white)
            .map(|(_, _, _, l)| l.clone())
    });
    if let Some(layer) = found {
        return Ok(layer);
    }
    let mut layer = Pixmap::new(w, h).ok_or(PngError::Empty)?;
    if on_white {
        layer.fill(resvg::tiny_skia::Color::WHITE);
    }
    resvg::render(&parse(doc)?, transform, &mut layer.as_mut());
    let layer = Arc::new(layer);
    if let Ok(mut c) = cache.lock() {
        if c.len() >= KEEP {
            c.remove(0);
        }
        c.push((doc.to_string(), width, on_white, layer.clone()));
    }
    Ok(layer)
}

/// The picture is opaque (drawn on white) and mostly flat colour, so it is
/// written with a palette: the 256 most common colours, every other pixel (the
/// anti-aliased edges) taken to the nearest of them. A third of the size of
/// the RGBA the renderer holds.
fn encode_indexed(pixmap: &Pixmap) -> Result<Vec<u8>, PngError> {
    let runs = runs(pixmap.data());
    let palette = popular_colours(&runs, 256);
    let indices = palette_indices(&runs, &palette, pixmap.data().len() / 4);
    let mut out = Vec::with_capacity(indices.len() / 4);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.iter().flatten().copied().collect::<Vec<u8>>());
    // Level 2 with no prediction filter: measured smaller than level 9 with
    // the adaptive filter (palette indices gain nothing from prediction) at a
    // fraction of the time; level 1 and the ultra-fast mode save little time
    // for a larger file.
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    encoder.set_filter(png::Filter::NoFilter);
    let encode_error = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer.write_image_data(&indices).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

fn rgb(c: u32) -> [u8; 3] {
    let [r, g, b, _] = c.to_le_bytes();
    [r, g, b]
}

/// The pixels as runs of one colour (RGB in the low three bytes, alpha
/// dropped: the picture is opaque), with their lengths. Flat areas make long
/// runs, so each colour is looked up far less often than once per pixel.
fn runs(rgba: &[u8]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(rgba.len() / 64);
    for px in rgba.chunks_exact(4) {
        let c = u32::from_le_bytes([px[0], px[1], px[2], 0]);
        match out.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => out.push((c, 1)),
        }
    }
    out
}

/// A hasher for colours: one multiplication, no SipHash rounds. The keys are
/// the picture's own colours, not anyone's input to flood a table with.
#[derive(Default)]
struct ColourHasher(u64);

impl std::hash::Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u32(&mut self, c: u32) {
        self.0 = u64::from(c).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16;
    }
}

type ColourMap<V> = HashMap<u32, V, std::hash::BuildHasherDefault<ColourHasher>>;

/// The `n` most frequent colours (at least one).
fn popular_colours(runs: &[(u32, u32)], n: usize) -> Vec<[u8; 3]> {
    let mut counts: ColourMap<u64> = ColourMap::default();
    for &(c, len) in runs {
        *counts.entry(c).or_insert(0) += u64::from(len);
    }
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
fn palette_indices(runs: &[(u32, u32)], palette: &[[u8; 3]], pixels: usize) -> Vec<u8> {
    let mut index: ColourMap<u8> = ColourMap::default();
    let mut out = Vec::with_capacity(pixels);
    for &(c, len) in runs {
        let i = *index.entry(c).or_insert_with(|| nearest(palette, rgb(c)));
        out.resize(out.len() + len as usize, i);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Countries, Position, Rules};
    use crate::map::Map;
    use crate::orders::PowerOrder;
    use crate::report::{GameInfo, Layout, PhaseReport, Replay};

    /// The opening with moves, supports and a bounce, so that arrows lie
    /// between the two fixed parts.
    fn board() -> String {
        let map = Map::standard();
        let before = Position::initial(map);
        let lines = [
            ("France", "A Par - Bur"),
            ("France", "A Mar S A Par - Bur"),
            ("Germany", "A Mun - Bur"),
            ("England", "F Lon - Nth"),
            ("Russia", "F Stp/sc - Bot"),
        ];
        let orders: Vec<PowerOrder> = lines
            .iter()
            .map(|(p, t)| PowerOrder {
                power: map.power(p).expect("power"),
                order: crate::grammar::parse_order_in(map, t, Some(before.phase.kind))
                    .expect("order")
                    .order,
            })
            .collect();
        let report = PhaseReport::replay(
            map,
            &Rules::default(),
            &Replay {
                info: GameInfo {
                    game: "layers".into(),
                    judge: "LEGT".into(),
                    variant: "Standard".into(),
                    seq: 1,
                },
                allegiance: &Countries,
                before: &before,
                orders: &orders,
                after: None,
                deadline: None,
                game_over: false,
            },
        );
        crate::report::svg::render(map, Layout::standard(), &report)
    }

    #[test]
    fn drawing_by_layers_gives_the_whole_picture() {
        let svg = board();
        let layers = Layers::split(&svg).expect("the board marks its fixed parts");
        assert_eq!(layers.parts.iter().filter(|(fixed, _)| *fixed).count(), 2);
        let whole = draw_whole(&svg, Some(600)).unwrap();
        // Twice: once drawing the fixed parts, once from the cache.
        for _ in 0..2 {
            let layered = layers.draw(Some(600)).unwrap();
            assert_eq!(
                (layered.width(), layered.height()),
                (whole.width(), whole.height())
            );
            let worst = whole
                .data()
                .iter()
                .zip(layered.data())
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap_or(0);
            // A layer drawn on transparent and then blended rounds its
            // premultiplied colours once more than drawing in place: a few
            // levels where half-transparent halos overlap. A missing or
            // misplaced part would differ by far more.
            assert!(worst <= 6, "pixels differ by up to {worst}");
        }
    }

    #[test]
    fn a_picture_without_markers_is_drawn_whole() {
        let svg = board().replace(crate::report::svg::FIXED_START, "");
        assert!(Layers::split(&svg).is_none());
        let png = render(&svg, Some(300)).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
}
