//! Splits one line into tokens (nom recognisers for each token class).
//!
//! Words are kept twice: as written (for passwords, names and error messages)
//! and normalised (lower case, dots dropped) for matching, so `St. Petersburg.`
//! and `ST PETERSBURG` read the same. Columns are counted in characters, 1-based.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_while1},
    character::complete::{anychar, char},
    combinator::{map, opt},
    sequence::{preceded, terminated},
};

use super::error::{ErrorKind, GrammarError};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Word,
    /// `-`, `->`, `=>`, `>`, `–`, `—`, `→`: every way of writing "moves to".
    Dash,
    Slash,
    LParen,
    RParen,
    Comma,
    Semi,
    Colon,
    /// `"text"`: `raw` is the text inside the quotes.
    Quoted,
    /// Any other single character (`*`, `@`, `?`, `[`, `]` ...): `ch` says which.
    Other,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    /// Range in `Line::norm` (words only).
    pub norm: (u32, u32),
    /// Byte range in the source line (for quoted text: inside the quotes).
    pub raw: (u32, u32),
    /// Byte offset of the token's first character (the opening quote of quoted text).
    pub start: u32,
    /// 1-based character column of the token's first character.
    pub col: u32,
    pub ch: char,
}

/// A tokenised line.
pub(crate) struct Line<'s> {
    pub src: &'s str,
    pub norm: String,
    pub toks: Vec<Token>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\'' || c == '_'
}

enum Raw<'s> {
    Word(&'s str),
    Quoted(&'s str),
    Punct(Kind, char),
}

fn word(i: &str) -> IResult<&str, Raw<'_>> {
    map(take_while1(is_word_char), Raw::Word).parse(i)
}

fn quoted(i: &str) -> IResult<&str, Raw<'_>> {
    let open = alt((char('"'), char('“'), char('”')));
    let close = opt(alt((char('"'), char('“'), char('”'))));
    map(
        preceded(
            open,
            terminated(take_till(|c| c == '"' || c == '“' || c == '”'), close),
        ),
        Raw::Quoted,
    )
    .parse(i)
}

fn arrow(i: &str) -> IResult<&str, Raw<'_>> {
    map(
        alt((
            tag("-->"),
            tag("->"),
            tag("=>"),
            tag("--"),
            tag("-"),
            tag(">"),
            tag("–"),
            tag("—"),
            tag("→"),
        )),
        |_| Raw::Punct(Kind::Dash, '-'),
    )
    .parse(i)
}

fn punct(i: &str) -> IResult<&str, Raw<'_>> {
    map(anychar, |c| {
        let kind = match c {
            '/' => Kind::Slash,
            '(' => Kind::LParen,
            ')' => Kind::RParen,
            ',' => Kind::Comma,
            ';' => Kind::Semi,
            ':' => Kind::Colon,
            _ => Kind::Other,
        };
        Raw::Punct(kind, c)
    })
    .parse(i)
}

/// The common case, an ASCII word, without going through `alt`.
fn ascii_word(i: &str) -> IResult<&str, Raw<'_>> {
    let b = i.as_bytes();
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'\'' | b'_'))
        .count();
    // A word that goes on in non-ASCII letters is left to the general rule.
    if n == 0 || b.get(n).is_some_and(|c| !c.is_ascii()) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::AlphaNumeric,
        )));
    }
    Ok((&i[n..], Raw::Word(&i[..n])))
}

fn token(i: &str) -> IResult<&str, Raw<'_>> {
    alt((word, quoted, arrow, punct)).parse(i)
}

/// Spare buffers of dropped lines, so that reading a body does not allocate two
/// buffers per line. A few are kept: lines nest at most a couple deep.
struct Spare {
    norm: String,
    toks: Vec<Token>,
}

thread_local! {
    static SPARES: std::cell::RefCell<Vec<Spare>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Buffers larger than this go back to the allocator rather than being kept.
const SPARE_LIMIT: usize = 4096;

fn take_spare(len: usize) -> (String, Vec<Token>) {
    let spare = SPARES.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()));
    match spare {
        Some(Spare { norm, toks }) => (norm, toks),
        None => (String::with_capacity(len.max(32)), Vec::with_capacity(12)),
    }
}

impl Drop for Line<'_> {
    fn drop(&mut self) {
        if self.norm.capacity() > SPARE_LIMIT || self.toks.capacity() > SPARE_LIMIT {
            return;
        }
        let mut norm = std::mem::take(&mut self.norm);
        let mut toks = std::mem::take(&mut self.toks);
        norm.clear();
        toks.clear();
        SPARES.with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < 4
            {
                s.push(Spare { norm, toks });
            }
        });
    }
}

/// Byte classes of ASCII text: `SPACE` is `char::is_whitespace`, `WORD` is
/// [`is_word_char`].
const SPACE: u8 = 1;
const WORD: u8 = 2;
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
            t[b] = SPACE;
        } else if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'\'' | b'_') {
            t[b] = WORD;
        }
        b += 1;
    }
    t
};

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] == SPACE
}

#[inline]
fn is_word_byte(b: u8) -> bool {
    CLASS[b as usize] == WORD
}

impl<'s> Line<'s> {
    pub fn new(src: &'s str) -> Line<'s> {
        let (mut norm, mut toks) = take_spare(src.len());
        // Neither grows while the line is read: at most one token per byte.
        norm.reserve(src.len());
        toks.reserve(src.len().min(64));
        let mut line = Line { src, norm, toks };
        if src.is_ascii() {
            line.lex_ascii();
        } else {
            line.lex_general();
        }
        line
    }

    /// The same tokens as [`Line::lex_general`], for a line of ASCII text (where
    /// columns are bytes), read byte by byte; quoted text goes the general way.
    fn lex_ascii(&mut self) {
        let src = self.src;
        let b = src.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if is_space(c) {
                i += 1;
                continue;
            }
            let start = i as u32;
            let col = start + 1;
            if is_word_byte(c) {
                // Normalised as it is read: lower case, dots dropped.
                let n0 = self.norm.len() as u32;
                let mut j = i;
                while j < b.len() && is_word_byte(b[j]) {
                    if b[j] != b'.' {
                        self.norm.push(b[j].to_ascii_lowercase() as char);
                    }
                    j += 1;
                }
                self.push_normalised(n0, start, j as u32, col);
                i = j;
                continue;
            }
            let next = b.get(i + 1).copied();
            let (kind, len) = match c {
                b'-' => match (next, b.get(i + 2)) {
                    (Some(b'-'), Some(b'>')) => (Kind::Dash, 3),
                    (Some(b'>' | b'-'), _) => (Kind::Dash, 2),
                    _ => (Kind::Dash, 1),
                },
                b'=' if next == Some(b'>') => (Kind::Dash, 2),
                b'>' => (Kind::Dash, 1),
                b'"' => {
                    // Quoted text: rare, and its offsets are subtle.
                    let Ok((after, raw)) = token(&src[i..]) else {
                        break;
                    };
                    let end = src.len() - after.len();
                    self.push_raw(raw, &src[i..end], start, end as u32, col);
                    i = end;
                    continue;
                }
                b'/' => (Kind::Slash, 1),
                b'(' => (Kind::LParen, 1),
                b')' => (Kind::RParen, 1),
                b',' => (Kind::Comma, 1),
                b';' => (Kind::Semi, 1),
                b':' => (Kind::Colon, 1),
                _ => (Kind::Other, 1),
            };
            let ch = if kind == Kind::Dash { '-' } else { c as char };
            self.toks.push(Token {
                kind,
                norm: (0, 0),
                raw: (start, start + len),
                start,
                col,
                ch,
            });
            i += len as usize;
        }
    }

    /// Any text: nom recognisers for each token class, columns in characters.
    fn lex_general(&mut self) {
        let src = self.src;
        let mut rest = src;
        let mut col = 1u32;
        loop {
            let trimmed = rest.trim_start();
            col += rest[..rest.len() - trimmed.len()].chars().count() as u32;
            rest = trimmed;
            if rest.is_empty() {
                break;
            }
            let start = (src.len() - rest.len()) as u32;
            let Ok((after, raw)) = ascii_word(rest).or_else(|_| token(rest)) else {
                break;
            };
            let end = (src.len() - after.len()) as u32;
            let consumed = &rest[..rest.len() - after.len()];
            self.push_raw(raw, consumed, start, end, col);
            col += consumed.chars().count() as u32;
            rest = after;
        }
    }

    /// Adds the token `raw` read from `consumed` (source bytes `start..end`).
    fn push_raw(&mut self, raw: Raw<'s>, consumed: &str, start: u32, end: u32, col: u32) {
        match raw {
            Raw::Word(w) => self.push_word(w, start, end, col),
            Raw::Quoted(q) => {
                let qs = start
                    + (consumed.len() - consumed.trim_start_matches(['"', '“', '”']).len()) as u32;
                self.toks.push(Token {
                    kind: Kind::Quoted,
                    norm: (0, 0),
                    raw: (qs, qs + q.len() as u32),
                    start,
                    col,
                    ch: '"',
                });
            }
            Raw::Punct(kind, ch) => self.toks.push(Token {
                kind,
                norm: (0, 0),
                raw: (start, end),
                start,
                col,
                ch,
            }),
        }
    }

    fn push_word(&mut self, w: &str, start: u32, end: u32, col: u32) {
        let n0 = self.norm.len() as u32;
        for c in w.chars() {
            if c != '.' {
                self.norm.push(c.to_ascii_lowercase());
            }
        }
        self.push_normalised(n0, start, end, col);
    }

    /// Adds the word whose normal form is `norm[n0..]` (none if it was only dots).
    fn push_normalised(&mut self, n0: u32, start: u32, end: u32, col: u32) {
        let n1 = self.norm.len() as u32;
        if n1 > n0 {
            self.toks.push(Token {
                kind: Kind::Word,
                norm: (n0, n1),
                raw: (start, end),
                start,
                col,
                ch: 'w',
            });
        }
    }

    pub fn norm_of(&self, t: &Token) -> &str {
        &self.norm[t.norm.0 as usize..t.norm.1 as usize]
    }

    pub fn raw_of(&self, t: &Token) -> &'s str {
        &self.src[t.raw.0 as usize..t.raw.1 as usize]
    }
}

/// Is `w` one of `words`? Keywords are a few bytes long: compared inline
/// rather than through a library `memcmp` call.
#[inline]
pub(crate) fn one_of(words: &[&str], w: &str) -> bool {
    let w = w.as_bytes();
    words.iter().any(|k| {
        let k = k.as_bytes();
        k.len() == w.len() && k.iter().zip(w).all(|(a, b)| a == b)
    })
}

/// A position in a tokenised line, with the helpers every production uses.
pub(crate) struct Cursor<'l, 's> {
    pub line: &'l Line<'s>,
    pub pos: usize,
}

impl<'l, 's> Cursor<'l, 's> {
    pub fn new(line: &'l Line<'s>) -> Self {
        Cursor { line, pos: 0 }
    }

    pub fn peek(&self) -> Option<&'l Token> {
        self.line.toks.get(self.pos)
    }

    pub fn peek_at(&self, ahead: usize) -> Option<&'l Token> {
        self.line.toks.get(self.pos + ahead)
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.line.toks.len()
    }

    pub fn bump(&mut self) {
        self.pos += 1;
    }

    /// The normalised word `ahead` tokens on, if that token is a word.
    pub fn word_at(&self, ahead: usize) -> Option<&'l str> {
        let t = self.peek_at(ahead)?;
        (t.kind == Kind::Word).then(|| self.line.norm_of(t))
    }

    pub fn word(&self) -> Option<&'l str> {
        self.word_at(0)
    }

    pub fn is_kind(&self, kind: Kind) -> bool {
        self.peek().is_some_and(|t| t.kind == kind)
    }

    pub fn eat(&mut self, kind: Kind) -> bool {
        let hit = self.is_kind(kind);
        if hit {
            self.bump();
        }
        hit
    }

    /// Is the next word one of `words`?
    pub fn is_word(&self, words: &[&str]) -> bool {
        self.word().is_some_and(|w| one_of(words, w))
    }

    /// Consumes the next word if it is one of `words`.
    pub fn eat_word(&mut self, words: &[&str]) -> bool {
        let hit = self.is_word(words);
        if hit {
            self.bump();
        }
        hit
    }

    pub fn column(&self) -> Option<usize> {
        self.peek().map(|t| t.col as usize)
    }

    /// The current token as written (empty at the end of the line).
    pub fn found(&self) -> &'s str {
        match self.peek() {
            Some(t) => self.line.raw_of(t),
            None => "",
        }
    }

    pub fn expected(&self, what: &str) -> GrammarError {
        let kind = ErrorKind::Expected;
        let col = self.column().or(Some(self.end_column()));
        GrammarError::new(kind, col, self.found(), what)
    }

    /// Column just past the last character of the line.
    pub fn end_column(&self) -> usize {
        self.line.src.trim_end().chars().count() + 1
    }

    /// The source text from the current token to the end of the line.
    pub fn rest_raw(&self) -> &'s str {
        match self.peek() {
            Some(t) => self.line.src.get(t.start as usize..).unwrap_or(""),
            None => "",
        }
    }

    /// Skips every token that starts before byte `offset` of the source.
    pub fn skip_to(&mut self, offset: usize) {
        while let Some(t) = self.peek() {
            if (t.start as usize) < offset {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// The next whitespace-delimited field exactly as written (passwords,
    /// addresses, game names), consuming every token inside it.
    pub fn raw_field(&mut self) -> Option<&'s str> {
        let t = self.peek()?;
        let start = t.start as usize;
        let rest = self.line.src.get(start..)?;
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.skip_to(start + len);
        Some(&rest[..len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Kind> {
        Line::new(s).toks.iter().map(|t| t.kind).collect()
    }

    #[test]
    fn words_are_normalised_and_columns_counted() {
        let l = Line::new("A  St. Petersburg/NC -> Bot.");
        let words: Vec<&str> = l
            .toks
            .iter()
            .filter(|t| t.kind == Kind::Word)
            .map(|t| l.norm_of(t))
            .collect();
        assert_eq!(words, ["a", "st", "petersburg", "nc", "bot"]);
        let cols: Vec<u32> = l.toks.iter().map(|t| t.col).collect();
        assert_eq!(cols, [1, 4, 8, 18, 19, 22, 25]);
    }

    #[test]
    fn arrows_and_punctuation() {
        use Kind::*;
        assert_eq!(
            kinds("a->b => c - d → e"),
            [Word, Dash, Word, Dash, Word, Dash, Word, Dash, Word]
        );
        assert_eq!(
            kinds("(nc),;:*"),
            [LParen, Word, RParen, Comma, Semi, Colon, Other]
        );
        assert_eq!(kinds("\"New Rome\" x"), [Quoted, Word]);
    }

    /// Every token as a comparable tuple, with the normalised word.
    fn dump(l: &Line) -> Vec<String> {
        l.toks
            .iter()
            .map(|t| {
                let norm = if t.kind == Kind::Word {
                    l.norm_of(t)
                } else {
                    ""
                };
                format!(
                    "{:?} {:?} {} {} {:?} {norm}",
                    t.kind, t.raw, t.start, t.col, t.ch
                )
            })
            .collect()
    }

    #[test]
    fn the_ascii_lexer_gives_the_general_tokens() {
        let lines = [
            "A  St. Petersburg/NC -> Bot.",
            "France: Army Paris -> Burgundy.  (*bounce*)",
            "a->b => c - d --> e -- f > g = h =",
            "SIGNON Fgame pa.ss-W0rd! \"quoted text\" \"\" \"open",
            "F Mid-Atlantic Ocean - Spain (north coast); A Lon-Nth-Nwy, F Nth C A Lon - Nwy",
            "\t\x0b\x0c\r x_y 'tis ... . \x01 @ ? [ ] * #",
            "",
            "   ",
            "-",
            "\"",
        ];
        for text in lines {
            let fast = Line::new(text);
            let mut general = Line {
                src: text,
                norm: String::new(),
                toks: Vec::new(),
            };
            general.lex_general();
            assert_eq!(dump(&fast), dump(&general), "{text:?}");
        }
    }

    #[test]
    fn raw_fields_keep_what_was_written() {
        let l = Line::new("SIGNON Fgame pa.ss-W0rd! tail");
        let mut c = Cursor::new(&l);
        c.bump();
        assert_eq!(c.raw_field(), Some("Fgame"));
        assert_eq!(c.raw_field(), Some("pa.ss-W0rd!"));
        assert_eq!(c.word(), Some("tail"));
    }
}
