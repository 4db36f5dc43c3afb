//! One viewport for the player's map and the editor's: the rectangle of the world shown, at
//! what zoom, and the links that pan and zoom it.

use serde::Serialize;

/// (cell size in pixels, columns, rows) of three zoom levels, 1 (far) to 3 (near).
pub type Zooms = [(i32, i32, i32); 3];

/// The rectangle of the world a map page shows, and at what size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Viewport {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub zoom: i32,
    pub cell_px: i32,
}

impl Viewport {
    /// The rectangle of zoom level `zoom` (clamped to 1–3) centred on `centre` as near as the
    /// world's edges allow.
    pub fn around(
        zooms: &Zooms,
        width: i32,
        height: i32,
        centre: (i32, i32),
        zoom: i32,
    ) -> Viewport {
        let zoom = zoom.clamp(1, 3);
        let (cell_px, cols, rows) = zooms[(zoom - 1) as usize];
        let (c, r) = (cols.min(width).max(1), rows.min(height).max(1));
        // `(c - 1) / 2` so that a view made around its own centre is the same view: links
        // carry the centre, and an even width must not creep a column per click.
        let x0 = centre
            .0
            .saturating_sub((c - 1) / 2)
            .clamp(0, (width - c).max(0));
        let y0 = centre
            .1
            .saturating_sub((r - 1) / 2)
            .clamp(0, (height - r).max(0));
        Viewport {
            x0,
            y0,
            x1: x0 + c - 1,
            y1: y0 + r - 1,
            zoom,
            cell_px,
        }
    }

    pub fn rect(&self) -> (i32, i32, i32, i32) {
        (self.x0, self.y0, self.x1, self.y1)
    }

    pub fn cols(&self) -> i32 {
        self.x1 - self.x0 + 1
    }

    pub fn rows(&self) -> i32 {
        self.y1 - self.y0 + 1
    }

    pub fn centre(&self) -> (i32, i32) {
        ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)
    }

    /// The cell under a point of the drawing, in pixels from its top left corner.
    pub fn cell_at(&self, px: i32, py: i32) -> Option<(i32, i32)> {
        let (w, h) = (self.cols() * self.cell_px, self.rows() * self.cell_px);
        ((0..w).contains(&px) && (0..h).contains(&py))
            .then(|| (self.x0 + px / self.cell_px, self.y0 + py / self.cell_px))
    }

    /// Centre of the cell `(x, y)` in the drawing's pixels.
    pub fn pixel_centre(&self, x: i32, y: i32) -> (i32, i32) {
        (
            (x - self.x0) * self.cell_px + self.cell_px / 2,
            (y - self.y0) * self.cell_px + self.cell_px / 2,
        )
    }

    /// Links that move the view half a screen each way, where the world goes on; `href` makes
    /// the link of a view centred on `(x, y)` at a zoom level.
    pub fn pan(&self, width: i32, height: i32, href: impl Fn(i32, i32, i32) -> String) -> Pan {
        let (cx, cy) = self.centre();
        let (sx, sy) = ((self.cols() / 2).max(1), (self.rows() / 2).max(1));
        Pan {
            north: (self.y0 > 0).then(|| href(cx, cy - sy, self.zoom)),
            south: (self.y1 < height - 1).then(|| href(cx, cy + sy, self.zoom)),
            west: (self.x0 > 0).then(|| href(cx - sx, cy, self.zoom)),
            east: (self.x1 < width - 1).then(|| href(cx + sx, cy, self.zoom)),
        }
    }

    /// The three zoom links, centred on `focus` (what the player looks at: the selected cell
    /// or company) when it is in view, else where the view is. Near the world's edge the
    /// view's centre is not the company's cell, and a nearer zoom around it would leave the
    /// company out.
    pub fn zoom_links(
        &self,
        focus: Option<(i32, i32)>,
        href: impl Fn(i32, i32, i32) -> String,
    ) -> Vec<ZoomLink> {
        let inside = |&(x, y): &(i32, i32)| {
            (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
        };
        let (cx, cy) = focus.filter(inside).unwrap_or_else(|| self.centre());
        (1..=3)
            .map(|z| ZoomLink {
                level: z,
                href: href(cx, cy, z),
                current: z == self.zoom,
            })
            .collect()
    }
}

#[derive(Serialize)]
pub struct ZoomLink {
    pub level: i32,
    pub href: String,
    pub current: bool,
}

#[derive(Serialize, Clone)]
pub struct Pan {
    pub north: Option<String>,
    pub south: Option<String>,
    pub west: Option<String>,
    pub east: Option<String>,
}
