//! A mail body, line by line: which lines are orders, which are commands, which
//! are ignored and which are errors. One bad line never hides the others.
//!
//! ```text
//! body     = {line} ;  ended by SIGNOFF or a "-- " signature line
//! line     = blank | quoted | comment | command | order-list | variant-line
//!          | block-text ;  "\\" splits one physical line into several
//! ```
//! Before the first command or order, lines that do not look like either are
//! ignored (greetings, pasted headers). `//` starts a comment outside blocks.

use crate::map::{Map, Power};
use crate::phase::Phase;

use super::canonical::canonical_parsed;
use super::command::{self, Block, Command, command_canonical};
use super::error::{ErrorKind, GrammarError};
use super::lexer::{Cursor, Kind, Line};
use super::lexicon;
use super::order::{self, Ctx, ParsedOrder, order_line};
use super::variant::{VariantOrder, is_variant_line, variant_canonical, variant_line};

/// An order found in a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderItem {
    Order(ParsedOrder),
    /// A variant order, with the power prefix the line gave (or the `FOR` block's power).
    Variant {
        power: Option<Power>,
        order: VariantOrder,
    },
}

/// Why a line was not read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    Blank,
    /// Only a `//` comment.
    Comment,
    /// A `>` quoted reply line.
    Quoted,
    /// Neither command nor order, before the first command (greetings, headers).
    Preamble,
    /// The `-- ` line that starts a signature.
    Signature,
    /// After `SIGNOFF` or the signature.
    AfterEnd,
}

/// What one (logical) line of the body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// One or more orders (`,`/`;` separate several on a line).
    Orders(Vec<OrderItem>),
    /// A command. A block command (`PRESS`, `REGISTER`, `MAP`, `PROPOSE`) holds
    /// the text of its whole block.
    Command(Command),
    /// A line inside a block, or the line that closes it.
    BlockText,
    Ignored(Ignored),
    /// The line's error; `orders` are the other orders of the line that did parse.
    Error {
        error: GrammarError,
        orders: Vec<OrderItem>,
    },
    /// A line inside a block whose header, on line `by`, was refused: it is
    /// refused with it ("not applied because line N was refused").
    Refused {
        by: usize,
    },
}

/// One logical line: its 1-based line number in the body, its text and what it is.
/// A physical line split by `\\` gives several, with the same number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyLine {
    pub line: usize,
    pub text: String,
    pub entry: Entry,
    /// The phase the line's orders are for: from the last `PHASE` command, else
    /// the phase the body was read for.
    pub phase: Option<Phase>,
}

/// A parsed mail body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    pub lines: Vec<BodyLine>,
}

impl Body {
    /// Every error, in line order.
    pub fn errors(&self) -> impl Iterator<Item = &GrammarError> {
        self.lines.iter().filter_map(|l| match &l.entry {
            Entry::Error { error, .. } => Some(error),
            _ => None,
        })
    }

    /// Every command, in order.
    pub fn commands(&self) -> impl Iterator<Item = &Command> {
        self.lines.iter().filter_map(|l| match &l.entry {
            Entry::Command(c) => Some(c),
            _ => None,
        })
    }

    /// The lines (indices into `lines`) inside the block that the command at
    /// `header` opens, closer included: a text block's lines (`PRESS`,
    /// `BROADCAST`, `MAP`, `REGISTER`), an `IF`'s lines to its `ENDIF`, a
    /// `PHASE`'s lines to the next `PHASE` or sign-on, a sign-on's lines to the
    /// next sign-on. `None` when that line heads no block. Were the header
    /// refused, these are the lines refused with it.
    pub fn block_of(&self, header: usize) -> Option<std::ops::Range<usize>> {
        let Entry::Command(c) = &self.lines.get(header)?.entry else {
            return None;
        };
        let rest = &self.lines[header + 1..];
        let len = match c {
            _ if c.block().is_some() => rest
                .iter()
                .take_while(|l| l.entry == Entry::BlockText)
                .count(),
            Command::If(_) => endif(rest).map_or(rest.len(), |e| e + 1),
            // The rest of the chain, up to the ENDIF that closes the IF.
            Command::ElseIf(_) => endif(rest).unwrap_or(rest.len()),
            Command::Phase(_) => rest
                .iter()
                .position(|l| {
                    is_sign_on(&l.entry) || matches!(l.entry, Entry::Command(Command::Phase(_)))
                })
                .unwrap_or(rest.len()),
            c if signs_on(c) => rest
                .iter()
                .position(|l| is_sign_on(&l.entry))
                .unwrap_or(rest.len()),
            _ => return None,
        };
        // What follows the end of the mail is in no block.
        let len = rest[..len]
            .iter()
            .take_while(|l| l.entry != Entry::Ignored(Ignored::AfterEnd))
            .count();
        Some(header + 1..header + 1 + len)
    }

    /// Every order that parsed, in order (also the good ones of a line with an error).
    pub fn orders(&self) -> impl Iterator<Item = &OrderItem> {
        self.lines.iter().flat_map(|l| match &l.entry {
            Entry::Orders(v) | Entry::Error { orders: v, .. } => v.as_slice(),
            _ => &[],
        })
    }
}

/// The index of the `ENDIF` that closes an `IF` open before `lines`.
fn endif(lines: &[BodyLine]) -> Option<usize> {
    let mut depth = 0u32;
    lines.iter().position(|l| match &l.entry {
        Entry::Command(Command::If(_)) => {
            depth += 1;
            false
        }
        Entry::Command(Command::EndIf) if depth == 0 => true,
        Entry::Command(Command::EndIf) => {
            depth -= 1;
            false
        }
        _ => false,
    })
}

/// Reads a mail body with no phase known (`D` after a unit is a disband).
pub fn parse_body(map: &Map, text: &str) -> Body {
    parse_body_in(map, text, None)
}

/// Reads a mail body for a game in `phase` (`D` means remove in adjustments).
pub fn parse_body_in(map: &Map, text: &str, phase: Option<Phase>) -> Body {
    let mut r = Reader {
        map,
        phase,
        read_for: phase,
        power: None,
        started: false,
        ended: false,
        block: None,
        refused: None,
        if_depth: 0,
        boundary: 0,
        body: Body::default(),
    };
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        r.physical_line(i + 1, raw);
    }
    r.close_open_block();
    r.body
}

/// Reads one physical line as it would be read after the first command of a
/// body (so an unknown line is an error, not a greeting). A line split by `\\`
/// gives several entries; a block opened and closed on it is read whole.
pub fn parse_line(map: &Map, text: &str, phase: Option<Phase>) -> Vec<BodyLine> {
    let mut r = Reader {
        map,
        phase,
        read_for: phase,
        power: None,
        started: true,
        ended: false,
        block: None,
        refused: None,
        if_depth: 0,
        boundary: 0,
        body: Body::default(),
    };
    let text = text.split(['\n', '\r']).next().unwrap_or("");
    r.physical_line(1, text);
    r.close_open_block();
    r.body.lines
}

/// An open block: which, the index of its opening line, and its text so far.
struct OpenBlock {
    kind: Block,
    at: usize,
    text: Vec<String>,
    /// The line of its refused header: the block is read to its end and
    /// every line of it refused.
    refused: Option<usize>,
}

/// The block a line heads, told by its first words (whether or not the rest
/// of the line reads).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Header {
    /// `SIGNON`, `SIGN ON`, `CREATE`, `JOIN`, `OBSERVE`, `ENTER`: up to the next sign-on.
    SignOn,
    /// `PHASE`: up to the next `PHASE` or sign-on.
    Phase,
    /// `IF`: up to its `ENDIF`.
    If,
    /// `ELSE IF`: the rest of the chain, up to the `ENDIF` (which still closes
    /// the `IF`).
    ElseIf,
    /// A block of text (`PRESS`, `BROADCAST`, `MAP`, `REGISTER`): up to its closer.
    Text(Block),
}

/// A block whose header was refused, while its lines are read.
#[derive(Copy, Clone, Debug)]
struct RefusedScope {
    header: Header,
    /// The line of the refused header.
    by: usize,
    /// `IF`s opened inside it (their `ENDIF`s do not close it).
    depth: u32,
}

struct Reader<'m> {
    map: &'m Map,
    phase: Option<Phase>,
    /// The phase the body is read for (a sign-on ends a `PHASE` block).
    read_for: Option<Phase>,
    /// The power of an open `FOR` block (Masters Rules).
    power: Option<Power>,
    /// A command or order has been read: unknown lines are errors from now on.
    started: bool,
    ended: bool,
    block: Option<OpenBlock>,
    /// The refused block being read, if any.
    refused: Option<RefusedScope>,
    /// `IF`s open (read, not refused).
    if_depth: u32,
    /// The index in `body.lines` after the last command or block: where a
    /// block whose header was lost may have begun.
    boundary: usize,
    body: Body,
}

impl Reader<'_> {
    fn push(&mut self, line: usize, text: &str, entry: Entry) {
        self.body.lines.push(BodyLine {
            line,
            text: text.to_string(),
            entry,
            phase: self.phase,
        });
    }

    fn physical_line(&mut self, n: usize, raw: &str) {
        if self.ended {
            return self.push(n, raw, Entry::Ignored(Ignored::AfterEnd));
        }
        let trimmed = raw.trim();
        if trimmed == "--" {
            self.ended = true;
            return self.push(n, raw, Entry::Ignored(Ignored::Signature));
        }
        if self.block.is_some() {
            return self.block_line(n, raw);
        }
        if trimmed.starts_with('>') {
            return self.push(n, raw, Entry::Ignored(Ignored::Quoted));
        }
        let mut offset = 0;
        let segments: &mut dyn Iterator<Item = &str> = if find_pair(raw, b'\\', b'\\').is_some() {
            &mut raw.split("\\\\")
        } else {
            &mut std::iter::once(raw)
        };
        for seg in segments {
            if self.ended {
                break;
            }
            if self.block.is_some() {
                // Lines written with `\\` lose the spaces around the break.
                let seg = if raw.contains("\\\\") {
                    seg.trim()
                } else {
                    seg
                };
                self.block_line(n, seg);
            } else {
                self.logical_line(n, seg, offset);
            }
            offset += seg.chars().count() + 2;
        }
    }

    fn block_line(&mut self, n: usize, raw: &str) {
        let Some(b) = self.block.as_mut() else { return };
        let entry = match b.refused {
            Some(by) => Entry::Refused { by },
            None => Entry::BlockText,
        };
        let closes = closer(b.kind, raw);
        match closes {
            Some(ends_mail) => {
                self.close_block();
                self.ended |= ends_mail;
            }
            None => b.text.push(raw.to_string()),
        }
        self.push(n, raw, entry);
        if closes.is_some() {
            self.boundary = self.body.lines.len();
        }
    }

    fn close_block(&mut self) {
        let Some(b) = self.block.take() else { return };
        if b.refused.is_some() {
            return;
        }
        let lines: Vec<&str> = b.text.iter().map(String::as_str).collect();
        if let Some(Entry::Command(c)) = self.body.lines.get_mut(b.at).map(|l| &mut l.entry) {
            c.fill_block(&lines);
        }
    }

    /// Text blocks (press, diary) run to the end of the body when not closed, as
    /// on the classic judges; the others must be closed.
    fn close_open_block(&mut self) {
        let Some(b) = self.block.as_ref() else { return };
        let (kind, at, refused) = (b.kind, b.at, b.refused.is_some());
        self.close_block();
        if kind == Block::Press || refused {
            return;
        }
        if let Some(l) = self.body.lines.get_mut(at) {
            let closer = kind.closers()[0].to_uppercase();
            let word = l.text.split_whitespace().next().unwrap_or("").to_string();
            let mut e = GrammarError::new(
                ErrorKind::Block,
                Some(1),
                &word,
                &format!("{} without {closer}", word.to_uppercase()),
            );
            e.line = l.line;
            l.entry = Entry::Error {
                error: e,
                orders: Vec::new(),
            };
        }
    }

    fn logical_line(&mut self, n: usize, seg: &str, offset: usize) {
        let (code, comment) = match find_pair(seg, b'/', b'/') {
            Some(i) => (&seg[..i], true),
            None => (seg, false),
        };
        if code.trim().is_empty() {
            let why = if comment {
                Ignored::Comment
            } else {
                Ignored::Blank
            };
            return self.push(n, seg, Entry::Ignored(why));
        }
        let mut line = Line::new(code);
        // `(*bounce*)` ends a pasted results line; a command keeps its text
        // (a password may hold those characters).
        if let Some(i) = find_pair(code, b'(', b'*') {
            let first = line
                .toks
                .first()
                .filter(|t| t.kind == Kind::Word)
                .map(|t| line.norm_of(t));
            if !first.is_some_and(command::is_command_word) {
                line = Line::new(&code[..i]);
            }
        }
        let fix = |mut e: GrammarError| {
            e.line = n;
            e.column = e.column.map(|c| c + offset);
            e
        };
        let header = header_of(&line);
        let entry = match self.read(&line) {
            Read::Entry(e) => e,
            Read::Error(e, orders) => {
                if !self.started
                    && orders.is_empty()
                    && !looks_like_order(self.map, &line)
                    && !looks_like_command(&line)
                    && header != Some(Header::SignOn)
                {
                    Entry::Ignored(Ignored::Preamble)
                } else {
                    Entry::Error {
                        error: fix(e),
                        orders,
                    }
                }
            }
        };
        // Before the first command, "If ..." opens a greeting more often
        // than a block.
        let header = header.filter(|h| self.started || *h != Header::If);
        let entry = self.scoped(n, header, entry);
        let entry = self.orphan(n, code, offset, entry);
        if matches!(entry, Entry::Orders(_) | Entry::Command(_)) {
            self.started = true;
        }
        if let Entry::Command(c) = &entry {
            self.after_command(c);
        }
        // Commands and refused headers are where a block may begin.
        let boundary = match &entry {
            Entry::Command(_) | Entry::Refused { .. } => true,
            Entry::Error { .. } => header.is_some(),
            _ => false,
        };
        self.push(n, seg, entry);
        if boundary {
            self.boundary = self.body.lines.len();
        }
        if let Some(b) = self.block.as_mut()
            && b.at == usize::MAX
        {
            b.at = self.body.lines.len() - 1;
        }
    }

    /// The rule of blocks: inside a block whose header was refused, every line
    /// is refused with it, up to the line that ends the block; a refused
    /// header opens such a block. Nothing inside acts outside it.
    fn scoped(&mut self, n: usize, header: Option<Header>, entry: Entry) -> Entry {
        if let Some(scope) = self.refused.as_mut() {
            let signs_on = header == Some(Header::SignOn) || is_sign_on(&entry);
            let ends = match scope.header {
                _ if signs_on || matches!(entry, Entry::Command(Command::Signoff)) => true,
                Header::Phase => header == Some(Header::Phase),
                Header::If | Header::ElseIf if header == Some(Header::If) => {
                    scope.depth += 1;
                    false
                }
                // The `ENDIF` of a refused `ELSE IF` closes the `IF` it belongs to.
                Header::ElseIf
                    if scope.depth == 0 && matches!(entry, Entry::Command(Command::EndIf)) =>
                {
                    true
                }
                Header::If | Header::ElseIf if matches!(entry, Entry::Command(Command::EndIf)) => {
                    if scope.depth == 0 {
                        let by = scope.by;
                        self.refused = None;
                        return Entry::Refused { by };
                    }
                    scope.depth -= 1;
                    false
                }
                _ => false,
            };
            if !ends {
                let by = scope.by;
                // A text block inside is read to its end, refused with it.
                let text = match (&entry, header) {
                    (Entry::Command(c), _) => c.block(),
                    (_, Some(Header::Text(kind))) => Some(kind),
                    _ => None,
                };
                if let Some(kind) = text {
                    self.open_refused_block(kind, by);
                }
                return Entry::Refused { by };
            }
            self.refused = None;
        }
        if let (Entry::Error { .. }, Some(header)) = (&entry, header) {
            match header {
                Header::Text(kind) => self.open_refused_block(kind, n),
                _ => {
                    self.refused = Some(RefusedScope {
                        header,
                        by: n,
                        depth: 0,
                    })
                }
            }
        }
        entry
    }

    /// A closing word with nothing open (`ENDPRESS`, `END PRESS`, `ENDMAP`,
    /// `ELSE`, `ENDIF`): its header was lost, so the lines since the last
    /// command, which may have been inside the block, are refused with it; an
    /// `ELSE` without `IF` refuses the lines after it too, to their `ENDIF`.
    fn orphan(&mut self, n: usize, code: &str, offset: usize, entry: Entry) -> Entry {
        let lost = match &entry {
            Entry::Refused { .. } => None,
            Entry::Command(Command::If(_)) => {
                self.if_depth += 1;
                None
            }
            Entry::Command(c @ (Command::Else | Command::ElseIf(_) | Command::EndIf))
                if self.if_depth == 0 =>
            {
                if *c != Command::EndIf {
                    self.refused = Some(RefusedScope {
                        header: Header::If,
                        by: n,
                        depth: 0,
                    });
                }
                Some("IF")
            }
            Entry::Command(Command::EndIf) => {
                self.if_depth -= 1;
                None
            }
            _ if closer(Block::Press, code) == Some(false) => Some("PRESS or BROADCAST"),
            _ if closer(Block::Map, code) == Some(false) => Some("MAP"),
            _ => None,
        };
        let Some(opener) = lost else { return entry };
        for l in &mut self.body.lines[self.boundary..] {
            if matches!(l.entry, Entry::Orders(_)) {
                l.entry = Entry::Refused { by: n };
            }
        }
        let word = code.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut e = GrammarError::new(
            ErrorKind::Block,
            Some(offset + 1),
            &word,
            &format!(
                "{} without {opener}; the lines before it, back to the last command, \
                 are not applied",
                word.to_uppercase()
            ),
        );
        e.line = n;
        Entry::Error {
            error: e,
            orders: Vec::new(),
        }
    }

    fn open_refused_block(&mut self, kind: Block, by: usize) {
        self.block = Some(OpenBlock {
            kind,
            at: usize::MAX,
            text: Vec::new(),
            refused: Some(by),
        });
    }

    fn after_command(&mut self, c: &Command) {
        if signs_on(c) {
            self.phase = self.read_for;
        }
        match c {
            Command::Signoff => self.ended = true,
            Command::Phase(p) => self.phase = Some(*p),
            Command::For(p) => self.power = Some(*p),
            Command::EndFor => self.power = None,
            _ => {}
        }
        if let Some(kind) = c.block() {
            self.block = Some(OpenBlock {
                kind,
                at: usize::MAX,
                text: Vec::new(),
                refused: None,
            });
        }
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            map: self.map,
            phase: self.phase.map(|p| p.kind),
        }
    }

    fn read(&self, line: &Line) -> Read {
        let ctx = self.ctx();
        let mut cur = Cursor::new(line);
        if cur.word().is_some_and(command::is_command_word) {
            let save = cur.pos;
            match command::command(&ctx, &mut cur) {
                Ok(Some(c)) => return Read::Entry(Entry::Command(c)),
                Ok(None) => cur.pos = save,
                Err(e) => return Read::Error(e, Vec::new()),
            }
        }
        if let Some(p) = power_header(&ctx, line) {
            return Read::Entry(Entry::Command(Command::For(p)));
        }
        if is_variant_line(&ctx, &cur) {
            return match variant_line(&ctx, &mut cur)
                .and_then(|r| order::end_of_order(&cur, "the order").map(|_| r))
            {
                Ok((power, order)) => Read::Entry(Entry::Orders(vec![OrderItem::Variant {
                    power: power.or(self.power),
                    order,
                }])),
                Err(e) => Read::Error(e, Vec::new()),
            };
        }
        self.order_list(&ctx, &mut cur)
    }

    /// `order-list = order-line {("," | ";") order-line} [","|";"]`
    fn order_list(&self, ctx: &Ctx, cur: &mut Cursor) -> Read {
        let mut orders = Vec::new();
        let mut first_err: Option<GrammarError> = None;
        loop {
            match order_line(ctx, cur) {
                Ok(mut p) => {
                    p.power = p.power.or(self.power);
                    orders.push(OrderItem::Order(p));
                    if !cur.at_end() && !cur.is_kind(Kind::Comma) && !cur.is_kind(Kind::Semi) {
                        let e = order::end_of_order(cur, "the order").err();
                        first_err = first_err.or(e);
                    }
                }
                Err(e) => {
                    first_err = first_err.or(Some(unknown_command(&e, cur)));
                }
            }
            // On to the next separator, whatever happened.
            while !cur.at_end() && !cur.is_kind(Kind::Comma) && !cur.is_kind(Kind::Semi) {
                cur.bump();
            }
            while cur.eat(Kind::Comma) || cur.eat(Kind::Semi) {}
            if cur.at_end() {
                break;
            }
        }
        match first_err {
            Some(e) => Read::Error(e, orders),
            None => Read::Entry(Entry::Orders(orders)),
        }
    }
}

enum Read {
    Entry(Entry),
    Error(GrammarError, Vec<OrderItem>),
}

/// Does the line end a block, and with it the mail? Press ends at a closer
/// standing alone on its line (njudge: `ENDPRESS`, `END PRESS`, `ENDBROADCAST`,
/// `SIGNOFF`, `SIGN OFF`; the last two end the mail too); other blocks at a
/// line whose first word closes them.
pub(crate) fn closer(kind: Block, raw: &str) -> Option<bool> {
    let words: Vec<String> = raw
        .split_whitespace()
        .map(|w| w.trim_end_matches('.').to_ascii_lowercase())
        .collect();
    let said = if kind == Block::Press {
        words.join(" ")
    } else {
        words.first().cloned().unwrap_or_default()
    };
    kind.closers()
        .contains(&said.as_str())
        .then_some(matches!(said.as_str(), "signoff" | "sign off"))
}

/// The block a line heads, by its first words; a misspelt `SIGNON` heads a
/// sign-on too (the lines after it are not for an earlier one).
fn header_of(line: &Line) -> Option<Header> {
    let mut words = line
        .toks
        .iter()
        .filter(|t| t.kind == Kind::Word)
        .map(|t| line.norm_of(t));
    let first = words.next()?;
    Some(match first {
        "signon" | "create" | "join" | "observe" | "enter" => Header::SignOn,
        "sign" if words.next() == Some("on") => Header::SignOn,
        "phase" => Header::Phase,
        "if" => Header::If,
        "else" if words.next() == Some("if") => Header::ElseIf,
        "press" | "broadcast" => Header::Text(Block::Press),
        "map" => Header::Text(Block::Map),
        "register" => Header::Text(Block::Register),
        w if lexicon::suggest_keyword(w, &["signon"]).is_some() => Header::SignOn,
        _ => return None,
    })
}

/// A command that signs on (and so starts a new sign-on block).
fn is_sign_on(entry: &Entry) -> bool {
    matches!(entry, Entry::Command(c) if signs_on(c))
}

fn signs_on(c: &Command) -> bool {
    matches!(
        c,
        Command::Signon { .. }
            | Command::Create { .. }
            | Command::Join { .. }
            | Command::Observe { .. }
            | Command::Enter { .. }
    )
}

/// The words an order may begin with, for suggestions.
const ORDER_WORDS: &[&str] = &["build", "remove", "disband", "waive", "army", "fleet"];

/// An unknown first word close to a command word reads better as a misspelt
/// command than as an unknown province.
fn unknown_command(e: &GrammarError, cur: &Cursor) -> GrammarError {
    let first = cur.line.toks.first();
    let at_first = e.column == first.map(|t| t.col as usize);
    if e.kind != ErrorKind::UnknownProvince || !at_first {
        return e.clone();
    }
    let Some(t) = first.filter(|t| t.kind == Kind::Word) else {
        return e.clone();
    };
    let word = cur.line.norm_of(t);
    // A misspelt order word (`bild A Bud`) or command word (`sigon`) is named
    // as such, before any province it is also close to.
    let sug = lexicon::suggest_keyword(word, ORDER_WORDS)
        .or_else(|| lexicon::suggest_keyword(word, command::COMMAND_WORDS));
    if sug.is_none() && e.suggestion.is_some() {
        return e.clone();
    }
    let found = cur.line.raw_of(t);
    GrammarError::new(
        ErrorKind::Expected,
        e.column,
        found,
        "a command or an order",
    )
    .with_suggestion(sug)
}

/// A line that is only a power's name (`Portugal`, `Portugal:`), as the Masters
/// Rules text heads orders for a minor power: read as `FOR Portugal`.
fn power_header(ctx: &Ctx, line: &Line) -> Option<crate::map::Power> {
    let (first, rest) = line.toks.split_first()?;
    let rest_ok = match rest {
        [] => true,
        [t] => t.kind == Kind::Colon,
        _ => false,
    };
    if first.kind != Kind::Word || !rest_ok {
        return None;
    }
    lexicon::power(ctx.map, line.norm_of(first))
}

/// The byte offset of the first `a` followed by `b` (both ASCII).
pub(crate) fn find_pair(s: &str, a: u8, b: u8) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&c| c == a) {
        let at = from + i;
        if bytes.get(at + 1) == Some(&b) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Does the line begin with a command word (other than the words that are
/// commands only when the whole line is one: `HELLO`, `LOGIN`, `CLEAR`)?
fn looks_like_command(line: &Line) -> bool {
    line.toks.first().is_some_and(|t| {
        let w = line.norm_of(t);
        // Greetings and sentences before the first command may begin so.
        t.kind == Kind::Word
            && command::is_command_word(w)
            && !matches!(
                w,
                "hello" | "login" | "clear" | "i" | "who" | "info" | "watch"
            )
    })
}

/// Does the line begin like an order (unit type, power, province or order verb)?
fn looks_like_order(map: &Map, line: &Line) -> bool {
    let Some(t) = line.toks.first() else {
        return false;
    };
    if t.kind != Kind::Word {
        return false;
    }
    let w = line.norm_of(t);
    matches!(
        w,
        "a" | "army" | "f" | "fleet" | "build" | "remove" | "disband" | "waive"
    ) || map.power(w).is_some()
        || map.lookup(w).is_some()
        || (w.len() >= lexicon::MIN_PREFIX && map.spellings().iter().any(|(s, _)| s.starts_with(w)))
}

/// The canonical form of an order item.
pub fn item_canonical(map: &Map, item: &OrderItem) -> String {
    match item {
        OrderItem::Order(p) => canonical_parsed(map, p),
        OrderItem::Variant { power, order } => {
            let o = variant_canonical(map, order);
            match power {
                Some(p) => format!("{}: {o}", lexicon::power_name(map, *p)),
                None => o,
            }
        }
    }
}

/// The canonical form of an entry's content (`None` for ignored and block lines).
pub fn entry_canonical(map: &Map, entry: &Entry) -> Option<String> {
    match entry {
        Entry::Orders(v) => Some(
            v.iter()
                .map(|i| item_canonical(map, i))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        Entry::Command(c) => Some(command_canonical(map, c)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &Body) -> Vec<String> {
        let map = Map::standard();
        body.lines
            .iter()
            .map(|l| match &l.entry {
                Entry::Ignored(i) => format!("{}:ignored {i:?}", l.line),
                Entry::BlockText => format!("{}:block", l.line),
                Entry::Error { error, .. } => format!("{}:error {}", l.line, error.detail()),
                e => format!("{}:{}", l.line, entry_canonical(map, e).unwrap_or_default()),
            })
            .collect()
    }

    #[test]
    fn a_whole_mail() {
        let text = "Hi GM,\r\n\
                    SIGNON Fmygame secret\r\n\
                    A Par - Bur\r\n\
                    > A Mar H\r\n\
                    PRESS TO England\r\n\
                    Shall we? // not a comment in press\r\n\
                    ENDPRESS\r\n\
                    PHASE Winter 1901 Adjustment\r\n\
                    A Mun D\r\n\
                    FOR Germany\r\n\
                    A Ber H\r\n\
                    ENDFOR\r\n\
                    A Parris - Bur\r\n\
                    A Mar H\r\n\
                    -- \r\n\
                    Ada";
        let body = parse_body(Map::standard(), text);
        assert_eq!(
            kinds(&body),
            [
                "1:ignored Preamble",
                "2:SIGNON F mygame ****",
                "3:A PAR - BUR",
                "4:ignored Quoted",
                "5:PRESS TO ENGLAND \\\\ Shall we? // not a comment in press \\\\ ENDPRESS",
                "6:block",
                "7:block",
                "8:PHASE W1901A",
                "9:REMOVE A MUN",
                "10:FOR GERMANY",
                "11:GERMANY: A BER H",
                "12:ENDFOR",
                "13:error unknown province \"Parris\"",
                "14:A MAR H",
                "15:ignored Signature",
                "16:ignored AfterEnd",
            ]
        );
        assert_eq!(body.errors().count(), 1);
        assert_eq!(body.errors().next().map(|e| e.line), Some(13));
        assert_eq!(body.orders().count(), 4);
        assert_eq!(
            body.lines[8].phase.map(|p| p.to_string()).as_deref(),
            Some("W1901A")
        );
    }

    #[test]
    fn unclosed_blocks() {
        let body = parse_body(Map::standard(), "PRESS TO ALL\nhello\nthere");
        assert_eq!(
            kinds(&body),
            [
                "1:PRESS TO ALL \\\\ hello \\\\ there \\\\ ENDPRESS",
                "2:block",
                "3:block"
            ]
        );
        let body = parse_body(Map::standard(), "MAP\nlon nth");
        assert_eq!(kinds(&body), ["1:error MAP without ENDMAP", "2:block"]);
    }

    #[test]
    fn signoff_ends_the_mail_and_good_orders_survive_a_bad_one() {
        let body = parse_body(
            Map::standard(),
            "A Par - Bur, A Xyz - Gas, F Bre H\nSIGNOFF\nA Mar H",
        );
        assert_eq!(body.orders().count(), 2);
        assert!(
            matches!(body.lines[0].entry, Entry::Error { ref orders, .. } if orders.len() == 2)
        );
        assert_eq!(body.lines[2].entry, Entry::Ignored(Ignored::AfterEnd));
    }
}
