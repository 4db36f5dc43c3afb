//! What players wrote, as HTML: escaped everywhere, its line breaks kept and its web
//! addresses made links that leave the site without its referrer. Nothing else a body says
//! becomes markup.

use super::escape;

/// Where an address ends: at a space or a character that cannot be part of it here.
fn ends_address(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`')
}

/// Punctuation that closes a sentence rather than the address before it.
fn trailing(c: char) -> bool {
    matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']')
}

/// A message's body as HTML.
pub fn message_html(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 8);
    let mut rest = body;
    while let Some(start) = next_address(rest) {
        let (before, from) = rest.split_at(start);
        push_text(&mut out, before);
        let len = from.find(ends_address).unwrap_or(from.len());
        let mut addr = &from[..len];
        while addr.ends_with(trailing) {
            addr = &addr[..addr.len() - 1];
        }
        if addr.len() <= "https://".len() {
            // A bare scheme: text, and on past it.
            let skip = from.find("//").map_or(from.len(), |i| i + 2);
            push_text(&mut out, &from[..skip]);
            rest = &from[skip..];
            continue;
        }
        out.push_str("<a href=\"");
        escape(&mut out, addr);
        out.push_str("\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">");
        escape(&mut out, addr);
        out.push_str("</a>");
        rest = &from[addr.len()..];
    }
    push_text(&mut out, rest);
    out
}

fn next_address(s: &str) -> Option<usize> {
    match (s.find("https://"), s.find("http://")) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn push_text(out: &mut String, s: &str) {
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push_str("<br>");
        }
        escape(out, line);
    }
}

#[cfg(test)]
mod tests {
    use super::message_html;

    #[test]
    fn markup_is_escaped_and_lines_kept() {
        assert_eq!(
            message_html("<script>alert(1)</script>\nbye & \"so\""),
            "&lt;script&gt;alert(1)&lt;/script&gt;<br>bye &amp; &quot;so&quot;"
        );
    }

    #[test]
    fn addresses_become_links_without_their_closing_punctuation() {
        assert_eq!(
            message_html("see https://example.org/a?b=1&c=2."),
            "see <a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">https://example.org/a?b=1&amp;c=2</a>."
        );
        // Quotes end an address: it cannot leave its attribute.
        let html = message_html("http://x.org/\"onmouseover=\"alert(1)");
        assert!(html.starts_with("<a href=\"http://x.org/\" "), "{html}");
        assert!(html.ends_with("&quot;onmouseover=&quot;alert(1)"), "{html}");
        // Only http and https: no javascript: links.
        assert_eq!(message_html("javascript:alert(1)"), "javascript:alert(1)");
        assert_eq!(message_html("https:// x"), "https:// x");
        // Other spellings of a scheme stay text.
        assert_eq!(message_html("JAVASCRIPT:alert(1)"), "JAVASCRIPT:alert(1)");
        assert_eq!(message_html("HTTPS://x.org"), "HTTPS://x.org");
    }
}
