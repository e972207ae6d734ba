//! `Diagnostic`: the one shape every writ language reports a failure in.
//!
//! Each engine keeps its own closed enum of codes (seed 004's reasons for the JavaScript subset,
//! JSONata's `S0201`/`T2001`/…, writ-jexl's and writ-lua's kebab-case codes) and renders it as
//! today's stable strings through [`ErrorCode`]. A [`Diagnostic`] carries the rendered code, the
//! [`Category`] a host acts on (a predicate cell turns it into a fault kind, a workflow into its
//! own code), the message, where in the source it points ([`Span`]) and, when there is one, a
//! separate line of help. Plan freeze reports its issues in the same shape.

use std::fmt;

/// A closed set of error codes: one enum per engine, each variant rendered as a stable string.
pub trait ErrorCode: Copy + fmt::Debug + Send + Sync + 'static {
    /// The stable code, exactly as envelopes and events write it.
    fn as_str(self) -> &'static str;

    /// What kind of failure the code stands for, when the code alone decides it. An engine whose
    /// code covers several kinds (the JavaScript subset's `expression-runtime` covers type errors
    /// and range errors) says which when it builds the [`Diagnostic`].
    fn category(self) -> Category;
}

/// What kind of failure a diagnostic reports, the same in every language.
///
/// The split is the one a host acts on: [`Category::Syntax`] and [`Category::Refused`] are the
/// author's to fix before anything runs (validation finds them), the rest happen while running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// The source does not parse, or is not one expression of the language.
    Syntax,
    /// The source parses but is outside what writ runs: a construct, name, method, transform or
    /// function that is not on the allow-list, or a dialect mistake the linter names.
    Refused,
    /// A value had the wrong type for what was done with it.
    Type,
    /// A bound of the [`Limits`](crate::Limits) was crossed.
    Budget,
    /// Any other failure while running: a value out of range, an error the expression raised.
    Runtime,
    /// A host function (or tool) refused its input or failed.
    Host,
    /// The evaluation was configured wrongly: limits out of range, bindings that are not an
    /// object.
    Config,
}

impl Category {
    /// True for the categories validation finds before anything runs.
    pub fn is_static(self) -> bool {
        matches!(self, Category::Syntax | Category::Refused)
    }
}

/// Where a diagnostic points in its source: a half-open range of **byte offsets into the
/// source's UTF-8 text**, so that `&source[span.start..span.end]` is the text it names.
///
/// Every engine reports in this unit, whatever its own parser counts in (JSONata counts UTF-16
/// code units, Lua lines); [`Span::from_utf16`] and [`Span::line`] convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte; equal to `start` for a point (the end of the source, say).
    pub end: u32,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        let end = u32::try_from(end).unwrap_or(u32::MAX).max(start);
        Span { start, end }
    }

    /// The point at byte `offset`.
    pub fn at(offset: usize) -> Span {
        Span::new(offset, offset)
    }

    /// The span of UTF-16 code units `start..end` of `source`, in bytes. Offsets past the end
    /// of the source stop at its end.
    pub fn from_utf16(source: &str, start: usize, end: usize) -> Span {
        let byte_of = |units: usize| {
            let mut counted = 0;
            for (byte, c) in source.char_indices() {
                if counted >= units {
                    return byte;
                }
                counted += c.len_utf16();
            }
            source.len()
        };
        Span::new(byte_of(start), byte_of(end.max(start)))
    }

    /// The span of line `line` (counted from 1) of `source`, without its line break; `None` when
    /// the source has fewer lines.
    pub fn line(source: &str, line: usize) -> Option<Span> {
        let mut start = 0;
        for (number, text) in source.split('\n').enumerate() {
            if number + 1 == line {
                let text = text.strip_suffix('\r').unwrap_or(text);
                return Some(Span::new(start, start + text.len()));
            }
            start += text.len() + 1;
        }
        None
    }

    /// The span as a `usize` range, for slicing the source.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A failure of one evaluation, validation or check, in the shape every writ language shares:
/// a stable code, its [`Category`], a message, an optional [`Span`] and optional help.
///
/// Small and opaque: one pointer wide, read through its methods.
///
/// # Example
///
/// ```
/// use writ_core::{Category, Diagnostic, Span};
///
/// let source = "status === 'ready'";
/// let diagnostic = Diagnostic::new("jexl-dialect", Category::Refused, "JEXL's equality operator is '=='")
///     .with_span(Span::new(7, 10))
///     .with_help("replace '===' with '=='");
/// assert_eq!(&source[diagnostic.span().unwrap().range()], "===");
/// assert_eq!(
///     diagnostic.to_string(),
///     "jexl-dialect: JEXL's equality operator is '==' (help: replace '===' with '==')"
/// );
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Diagnostic(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    code: &'static str,
    category: Category,
    message: String,
    span: Option<Span>,
    help: Option<String>,
}

const _: () = assert!(std::mem::size_of::<Diagnostic>() == std::mem::size_of::<usize>());

impl Diagnostic {
    /// A diagnostic with `code`, of `category`, saying `message`.
    #[cold]
    pub fn new(code: &'static str, category: Category, message: impl Into<String>) -> Diagnostic {
        Diagnostic(Box::new(Inner {
            code,
            category,
            message: message.into(),
            span: None,
            help: None,
        }))
    }

    /// A diagnostic whose code is `code`, in the category the code names.
    #[cold]
    pub fn of(code: impl ErrorCode, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code.as_str(), code.category(), message)
    }

    /// The same diagnostic, pointing at `span`.
    #[must_use]
    pub fn with_span(mut self, span: Span) -> Diagnostic {
        self.0.span = Some(span);
        self
    }

    /// The same diagnostic, pointing at `span` when there is one.
    #[must_use]
    pub fn with_span_opt(mut self, span: Option<Span>) -> Diagnostic {
        self.0.span = span;
        self
    }

    /// The same diagnostic, with a line of help: what to write instead.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.0.help = Some(help.into());
        self
    }

    /// The same diagnostic in another category (an engine that knows better than its code).
    #[must_use]
    pub fn with_category(mut self, category: Category) -> Diagnostic {
        self.0.category = category;
        self
    }

    /// The stable code, as the engine's [`ErrorCode`] renders it.
    pub fn code(&self) -> &'static str {
        self.0.code
    }

    /// True when the code is `code`.
    pub fn is(&self, code: impl ErrorCode) -> bool {
        self.0.code == code.as_str()
    }

    /// What kind of failure this is.
    pub fn category(&self) -> Category {
        self.0.category
    }

    /// What is wrong, where, and (unless [`help`](Diagnostic::help) says it apart) what to write
    /// instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Where in the source, in bytes, when the engine knows.
    pub fn span(&self) -> Option<Span> {
        self.0.span
    }

    /// What to write instead, when it is said apart from the message.
    pub fn help(&self) -> Option<&str> {
        self.0.help.as_deref()
    }

    /// The message with its help appended, as one line for an envelope.
    pub fn full_message(&self) -> String {
        match &self.0.help {
            None => self.0.message.clone(),
            Some(help) => format!("{} (help: {help})", self.0.message),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.full_message())
    }
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diagnostic")
            .field("code", &self.0.code)
            .field("category", &self.0.category)
            .field("message", &self.0.message)
            .field("span", &self.0.span)
            .field("help", &self.0.help)
            .finish()
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_become_byte_spans() {
        let source = "é😀 + x";
        // é is one unit (two bytes), 😀 two units (four bytes).
        assert_eq!(Span::from_utf16(source, 0, 1), Span::new(0, 2));
        assert_eq!(Span::from_utf16(source, 1, 3), Span::new(2, 6));
        assert_eq!(&source[Span::from_utf16(source, 6, 7).range()], "x");
        assert_eq!(Span::from_utf16(source, 40, 50), Span::at(source.len()));
    }

    #[test]
    fn lines_become_byte_spans() {
        let source = "local a = 1\r\nreturn a +\nnil";
        assert_eq!(&source[Span::line(source, 2).unwrap().range()], "return a +");
        assert_eq!(&source[Span::line(source, 3).unwrap().range()], "nil");
        assert_eq!(&source[Span::line(source, 1).unwrap().range()], "local a = 1");
        assert_eq!(Span::line(source, 4), None);
    }

    #[test]
    fn a_reversed_span_is_empty_at_its_start() {
        assert_eq!(Span::new(5, 2), Span::at(5));
    }
}
