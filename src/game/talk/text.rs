//! What a player types, parsed once: a message's body and a marker's label. Plain text only;
//! the pages escape it and make its links clickable when they show it.

use crate::game::error::{GameError, GameResult};
use crate::said::Said;

/// A message's body: line breaks kept (as `\n`), tabs kept, no other control character,
/// trimmed, between 1 and `max` characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body(String);

impl Body {
    pub fn parse(raw: &str, max: usize) -> GameResult<Body> {
        let text = raw.replace("\r\n", "\n").replace('\r', "\n");
        let text = text.trim();
        check(
            text,
            max,
            |c| c == '\n' || c == '\t',
            "error-message-length",
        )?;
        Ok(Body(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A marker's label: one line, trimmed, between 1 and `max` characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label(String);

impl Label {
    pub fn parse(raw: &str, max: usize) -> GameResult<Label> {
        let text = raw.trim();
        check(text, max, |_| false, "error-marker-length")?;
        Ok(Label(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn check(text: &str, max: usize, allowed: impl Fn(char) -> bool, length: &str) -> GameResult<()> {
    let n = text.chars().count();
    if n == 0 || n > max {
        return Err(GameError::Invalid(
            Said::new(length).n("max", max as i64).into(),
        ));
    }
    // NUL, escapes and the other controls: a database refuses some, a terminal obeys others.
    // The marks that turn text around make a link or a label read otherwise than it is: the
    // embeddings, overrides and isolates, and the single marks (left-to-right, right-to-left,
    // Arabic letter), which move neutral characters such as a path's dots and slashes.
    let turns = |c: char| {
        matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
        )
    };
    if text
        .chars()
        .any(|c| (c.is_control() && !allowed(c)) || turns(c))
    {
        return Err(GameError::Invalid(
            Said::new("error-control-characters").into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_keeps_its_lines_and_refuses_controls_and_lengths() {
        assert_eq!(
            Body::parse("  Rally\r\nat dawn\r ", 100).unwrap().as_str(),
            "Rally\nat dawn"
        );
        assert!(Body::parse("   \n ", 100).is_err());
        assert!(Body::parse("a\u{0}b", 100).is_err());
        assert!(Body::parse("a\u{1b}[2Jb", 100).is_err());
        assert!(Body::parse("see https://a.org/\u{202e}gpj.exe", 100).is_err());
        assert!(Body::parse("\u{2067}x", 100).is_err());
        for mark in ['\u{200e}', '\u{200f}', '\u{061c}'] {
            assert!(Body::parse(&format!("a.org/{mark}exe.txt"), 100).is_err());
            assert!(Label::parse(&format!("guns{mark}"), 100).is_err());
        }
        assert!(Body::parse(&"é".repeat(100), 100).is_ok());
        assert!(Body::parse(&"é".repeat(101), 100).is_err());
    }

    #[test]
    fn a_label_is_one_line() {
        assert_eq!(Label::parse(" guns ", 10).unwrap().as_str(), "guns");
        assert!(Label::parse("two\nlines", 10).is_err());
        assert!(Label::parse("eleven char", 10).is_err());
        assert!(Label::parse("", 10).is_err());
    }
}
