//! The one error type of the grammar: where the mistake is, what was found,
//! what was expected and, when one is close enough, a suggestion.

use std::fmt;

/// What went wrong, so callers can react without reading the message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A word where a province was expected names none.
    UnknownProvince,
    /// A prefix that several provinces share (`Nor`).
    AmbiguousProvince,
    /// A word where a power was expected names none.
    UnknownPower,
    /// A fleet move or build into a two-coast province without a coast.
    NeedsCoast,
    /// A coast the province does not have (`Par/nc`, `Spa/ec`).
    BadCoast,
    /// A build without the unit type.
    NeedsUnitType,
    /// Something else stood where the grammar expected `expected`.
    Expected,
    /// Words left over after a complete order or command.
    Trailing,
    /// A date or time that does not read as one.
    BadDate,
    /// A block (`PRESS`, `IF`, `MAP` ...) never closed, or a closing word with no block.
    Block,
}

/// A grammar error at a line (1-based) and, when it points at a word, a column
/// (1-based, in characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct GrammarError {
    pub line: usize,
    pub column: Option<usize>,
    /// The offending text as written (empty at the end of a line).
    pub word: String,
    /// What the grammar wanted there (`a province`, `SPA/NC or SPA/SC`).
    pub expected: String,
    /// A close spelling (`Paris (PAR)`, `SUPPORT`), when one exists.
    pub suggestion: Option<String>,
    pub kind: ErrorKind,
}

impl GrammarError {
    pub(crate) fn new(kind: ErrorKind, column: Option<usize>, word: &str, expected: &str) -> Self {
        GrammarError {
            line: 1,
            column,
            word: word.to_string(),
            expected: expected.to_string(),
            suggestion: None,
            kind,
        }
    }

    pub(crate) fn with_suggestion(mut self, suggestion: Option<String>) -> Self {
        self.suggestion = suggestion;
        self
    }

    /// The message without the `line N, col M:` prefix and without the
    /// suggestion (`unknown province "Parris"`).
    pub fn detail(&self) -> String {
        let w = &self.word;
        let e = &self.expected;
        match self.kind {
            ErrorKind::UnknownProvince => format!("unknown province \"{w}\""),
            ErrorKind::AmbiguousProvince => format!("\"{w}\" could be {e}"),
            ErrorKind::UnknownPower => format!("unknown power \"{w}\""),
            ErrorKind::NeedsCoast => format!("fleet to {w} needs a coast: {e}"),
            ErrorKind::BadCoast if e.is_empty() => format!("{w} has no coasts"),
            ErrorKind::BadCoast => format!("no coast {w}: expected {e}"),
            ErrorKind::NeedsUnitType => format!("build in {w} needs a unit type: {e}"),
            ErrorKind::Trailing => format!("unexpected \"{w}\" after {e}"),
            ErrorKind::BadDate => format!("not a date: \"{w}\" (expected {e})"),
            ErrorKind::Block => e.clone(),
            ErrorKind::Expected if w.is_empty() => format!("expected {e} at end of line"),
            ErrorKind::Expected => format!("expected {e}, found \"{w}\""),
        }
    }
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, col {}: {}", self.line, c, self.detail())?,
            None => write!(f, "line {}: {}", self.line, self.detail())?,
        }
        match &self.suggestion {
            Some(s) => write!(f, " - did you mean {s}?"),
            None => Ok(()),
        }
    }
}
