//! Drawing for the pages: the map's viewport, its SVG, the legend and the history charts.
//! Pages give these the game's views; nothing here reads the database or decides a rule.

pub mod chart;
pub mod legend;
pub mod map;
pub mod text;
pub mod viewport;

/// Escapes text for HTML and SVG, attributes included.
pub fn escape(out: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}
