//! The board picture as PNG, rendered from the SVG in-process with resvg.
//!
//! Fonts come from the system (the `fonts-dejavu-core` package on Debian is
//! enough). Without any font the picture is still drawn, without its text.

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
                db.set_sans_serif_family(family.clone());
                db.set_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
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
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
