//! The tokenizer: expression text to tokens, one at a time, as the parser asks for them.
//!
//! It reads UTF-16 code units, as jsonata-js reads its string, so that every position it
//! reports is the one jsonata-js reports and `\uD800` escapes may leave lone surrogates.

use std::sync::Arc;

use writ_core::Str;

use crate::error::{Code, Error, Result};
use crate::regex::Pattern;

/// What a token is.
#[derive(Debug, Clone)]
pub(super) enum Tok {
    /// A field name (plain or backquoted).
    Name(Str),
    /// `$name` (the name without `$`).
    Variable(Str),
    /// A string literal.
    String(Str),
    /// A number literal.
    Number(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// A regular-expression literal, compiled, and its text as jsonata-js shows it.
    Regex(Arc<Pattern>, Arc<str>),
    /// An operator or punctuation (also `and`, `or`, `in`).
    Op(&'static str),
    /// The end of the text.
    End,
}

/// One token and the offset just past it.
#[derive(Debug, Clone)]
pub(super) struct Token {
    /// What it is.
    pub(super) tok: Tok,
    /// The UTF-16 offset just past it (for the end, the text's length).
    pub(super) position: usize,
}

impl Token {
    /// The parser's name for the token's kind: the operator itself, or a class name.
    pub(super) fn id(&self) -> &'static str {
        match &self.tok {
            Tok::Name(_) | Tok::Variable(_) => "(name)",
            Tok::String(_) | Tok::Number(_) | Tok::Bool(_) | Tok::Null => "(literal)",
            Tok::Regex(..) => "(regex)",
            Tok::Op(op) => op,
            Tok::End => "(end)",
        }
    }

    /// Whether this is the operator `op`.
    pub(super) fn is(&self, op: &str) -> bool {
        matches!(self.tok, Tok::Op(o) if o == op)
    }

    /// The token's value as errors name it (and as a signature's text is rebuilt from it).
    pub(super) fn text(&self) -> String {
        match &self.tok {
            Tok::Name(s) | Tok::Variable(s) | Tok::String(s) => s.to_string_lossy().into_owned(),
            Tok::Number(n) => writ_core::js_number_to_string(*n),
            Tok::Bool(b) => b.to_string(),
            Tok::Null => "null".to_owned(),
            Tok::Regex(_, text) => text.to_string(),
            Tok::Op(op) => (*op).to_owned(),
            Tok::End => "(end)".to_owned(),
        }
    }
}

/// The single characters that are operators (and end a name).
const SINGLE: &[(u8, &str)] = &[
    (b'.', "."),
    (b'[', "["),
    (b']', "]"),
    (b'{', "{"),
    (b'}', "}"),
    (b'(', "("),
    (b')', ")"),
    (b',', ","),
    (b'@', "@"),
    (b'#', "#"),
    (b';', ";"),
    (b':', ":"),
    (b'?', "?"),
    (b'+', "+"),
    (b'-', "-"),
    (b'*', "*"),
    (b'/', "/"),
    (b'%', "%"),
    (b'|', "|"),
    (b'=', "="),
    (b'<', "<"),
    (b'>', ">"),
    (b'^', "^"),
    (b'&', "&"),
    (b'!', "!"),
    (b'~', "~"),
];

/// The two-character operators, checked before the single ones.
const DOUBLE: &[(u8, u8, &str)] = &[
    (b'.', b'.', ".."),
    (b':', b'=', ":="),
    (b'!', b'=', "!="),
    (b'>', b'=', ">="),
    (b'<', b'=', "<="),
    (b'*', b'*', "**"),
    (b'~', b'>', "~>"),
    (b'?', b':', "?:"),
    (b'?', b'?', "??"),
];

/// The operator a single code unit is, if any.
fn single(unit: u16) -> Option<&'static str> {
    let byte = u8::try_from(unit).ok()?;
    SINGLE.iter().find(|(c, _)| *c == byte).map(|(_, op)| *op)
}

/// Whether `unit` is whitespace between tokens (jsonata-js's set: no form feed, no Unicode
/// spaces).
fn is_space(unit: u16) -> bool {
    matches!(unit, 0x20 | 0x09 | 0x0A | 0x0D | 0x0B)
}

/// Whether `unit` is an ASCII digit.
fn is_digit(unit: u16) -> bool {
    (u16::from(b'0')..=u16::from(b'9')).contains(&unit)
}

/// The tokenizer's state: the text and where it has got to.
pub(super) struct Lexer {
    /// The expression, in UTF-16 code units.
    src: Vec<u16>,
    /// The offset of the next unread unit.
    pos: usize,
}

impl Lexer {
    /// A tokenizer at the start of `source`.
    pub(super) fn new(source: &str) -> Lexer {
        Lexer {
            src: source.encode_utf16().collect(),
            pos: 0,
        }
    }

    /// The text's length in UTF-16 units (the end token's position).
    pub(super) fn len(&self) -> usize {
        self.src.len()
    }

    /// The unit at `at`, or `None` past the end (where jsonata-js reads an empty string).
    fn at(&self, at: usize) -> Option<u16> {
        self.src.get(at).copied()
    }

    /// Whether the unit at `at` is the ASCII character `c`.
    fn is(&self, at: usize, c: u8) -> bool {
        self.at(at) == Some(u16::from(c))
    }

    /// The units from `start` to `end` as a string.
    fn slice(&self, start: usize, end: usize) -> Str {
        Str::from_utf16(self.src.get(start..end).unwrap_or_default())
    }

    /// The next token, or `None` at the end. `infix` says an operand was just read, so `/`
    /// divides rather than starting a regular expression.
    pub(super) fn next(&mut self, infix: bool) -> Result<Option<Token>> {
        loop {
            while self.at(self.pos).is_some_and(is_space) {
                self.pos += 1;
            }
            if !(self.is(self.pos, b'/') && self.is(self.pos + 1, b'*')) {
                break;
            }
            let start = self.pos;
            self.pos += 2;
            while !(self.is(self.pos, b'*') && self.is(self.pos + 1, b'/')) {
                self.pos += 1;
                if self.pos >= self.src.len() {
                    return Err(Error::new(Code::S0106).at(start));
                }
            }
            self.pos += 2;
        }
        let Some(unit) = self.at(self.pos) else {
            return Ok(None);
        };
        if !infix && unit == u16::from(b'/') {
            self.pos += 1;
            let tok = self.regex()?;
            return Ok(Some(self.token(tok)));
        }
        if let Some((_, _, op)) = DOUBLE
            .iter()
            .find(|(a, b, _)| self.is(self.pos, *a) && self.is(self.pos + 1, *b))
        {
            self.pos += 2;
            return Ok(Some(self.token(Tok::Op(op))));
        }
        if let Some(op) = single(unit) {
            self.pos += 1;
            return Ok(Some(self.token(Tok::Op(op))));
        }
        if unit == u16::from(b'"') || unit == u16::from(b'\'') {
            let tok = self.string(unit)?;
            return Ok(Some(self.token(tok)));
        }
        if let Some(tok) = self.number()? {
            return Ok(Some(self.token(tok)));
        }
        if unit == u16::from(b'`') {
            self.pos += 1;
            let start = self.pos;
            let Some(end) = self
                .src
                .get(start..)
                .and_then(|rest| rest.iter().position(|&u| u == u16::from(b'`')))
            else {
                self.pos = self.src.len();
                return Err(Error::new(Code::S0105).at(self.pos));
            };
            let name = self.slice(start, start + end);
            self.pos = start + end + 1;
            return Ok(Some(self.token(Tok::Name(name))));
        }
        let start = self.pos;
        let end = start
            + self
                .src
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&u| !is_space(u) && single(u).is_none())
                .count();
        self.pos = end;
        let tok = if unit == u16::from(b'$') {
            Tok::Variable(self.slice(start + 1, end))
        } else {
            let name = self.slice(start, end);
            match name.as_ascii_str() {
                Some("and") => Tok::Op("and"),
                Some("or") => Tok::Op("or"),
                Some("in") => Tok::Op("in"),
                Some("true") => Tok::Bool(true),
                Some("false") => Tok::Bool(false),
                Some("null") => Tok::Null,
                _ => Tok::Name(name),
            }
        };
        Ok(Some(self.token(tok)))
    }

    /// A token ending here.
    fn token(&self, tok: Tok) -> Token {
        Token {
            tok,
            position: self.pos,
        }
    }

    /// A string literal opened by `quote` at the current position, with JSON's escapes.
    fn string(&mut self, quote: u16) -> Result<Tok> {
        self.pos += 1;
        let mut text: Vec<u16> = Vec::new();
        while let Some(unit) = self.at(self.pos) {
            if unit == u16::from(b'\\') {
                self.pos += 1;
                let escaped = self.at(self.pos);
                let plain = escaped.and_then(|u| u8::try_from(u).ok()).and_then(|c| match c {
                    b'"' => Some(b'"'),
                    b'\\' => Some(b'\\'),
                    b'/' => Some(b'/'),
                    b'b' => Some(0x08),
                    b'f' => Some(0x0C),
                    b'n' => Some(b'\n'),
                    b'r' => Some(b'\r'),
                    b't' => Some(b'\t'),
                    _ => None,
                });
                if let Some(c) = plain {
                    text.push(u16::from(c));
                } else if escaped == Some(u16::from(b'u')) {
                    // Up to four units (fewer at the end of the text), all hex digits.
                    let end = (self.pos + 5).min(self.src.len());
                    let digits = self.src.get(self.pos + 1..end).unwrap_or_default();
                    let value = (!digits.is_empty())
                        .then(|| String::from_utf16(digits).ok())
                        .flatten()
                        .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
                        .and_then(|d| u16::from_str_radix(&d, 16).ok());
                    let Some(value) = value else {
                        return Err(Error::new(Code::S0104).at(self.pos));
                    };
                    text.push(value);
                    self.pos += 4;
                } else {
                    let token = escaped.map(|u| String::from_utf16_lossy(&[u])).unwrap_or_default();
                    return Err(Error::new(Code::S0103).at(self.pos).with_token(token));
                }
            } else if unit == quote {
                self.pos += 1;
                return Ok(Tok::String(Str::from_utf16(&text)));
            } else {
                text.push(unit);
            }
            self.pos += 1;
        }
        Err(Error::new(Code::S0101).at(self.pos))
    }

    /// A number literal at the current position, if one starts here: jsonata-js's
    /// `(0|[1-9][0-9]*)(\.[0-9]+)?([Ee][-+]?[0-9]+)?`.
    fn number(&mut self) -> Result<Option<Tok>> {
        let start = self.pos;
        let mut end = start;
        if self.is(end, b'0') {
            end += 1;
        } else if self.at(end).is_some_and(|u| is_digit(u) && u != u16::from(b'0')) {
            while self.at(end).is_some_and(is_digit) {
                end += 1;
            }
        } else {
            return Ok(None);
        }
        if self.is(end, b'.') && self.at(end + 1).is_some_and(is_digit) {
            end += 2;
            while self.at(end).is_some_and(is_digit) {
                end += 1;
            }
        }
        if self.is(end, b'e') || self.is(end, b'E') {
            let mut exponent = end + 1;
            if self.is(exponent, b'+') || self.is(exponent, b'-') {
                exponent += 1;
            }
            if self.at(exponent).is_some_and(is_digit) {
                while self.at(exponent).is_some_and(is_digit) {
                    exponent += 1;
                }
                end = exponent;
            }
        }
        let text = String::from_utf16_lossy(self.src.get(start..end).unwrap_or_default());
        match text.parse::<f64>() {
            Ok(number) if number.is_finite() => {
                self.pos = end;
                Ok(Some(Tok::Number(number)))
            }
            _ => Err(Error::new(Code::S0102).at(start).with_token(text)),
        }
    }

    /// A regular expression whose opening `/` has been read: up to the closing `/` that is
    /// not escaped and not inside brackets, then its `i`/`m` flags.
    fn regex(&mut self) -> Result<Tok> {
        let start = self.pos;
        let mut depth: i64 = 0;
        while let Some(unit) = self.at(self.pos) {
            if unit == u16::from(b'/') && depth == 0 && self.backslashes_before(self.pos).is_multiple_of(2) {
                let pattern = String::from_utf16_lossy(self.src.get(start..self.pos).unwrap_or_default());
                if pattern.is_empty() {
                    return Err(Error::new(Code::S0301).at(self.pos));
                }
                self.pos += 1;
                let flags_start = self.pos;
                while self.is(self.pos, b'i') || self.is(self.pos, b'm') {
                    self.pos += 1;
                }
                let flags = String::from_utf16_lossy(self.src.get(flags_start..self.pos).unwrap_or_default());
                let compiled = compile_regex(&pattern, &flags).map_err(|error| error.at(self.pos))?;
                let text: Arc<str> = format!("/{pattern}/{flags}g").into();
                return Ok(Tok::Regex(Arc::new(compiled), text));
            }
            let escaped = self.pos > 0 && self.is(self.pos - 1, b'\\');
            if !escaped {
                match u8::try_from(unit) {
                    Ok(b'(' | b'[' | b'{') => depth += 1,
                    Ok(b')' | b']' | b'}') => depth -= 1,
                    _ => {}
                }
            }
            self.pos += 1;
        }
        Err(Error::new(Code::S0302).at(self.pos))
    }

    /// How many backslashes come right before `at`.
    fn backslashes_before(&self, at: usize) -> usize {
        self.src
            .get(..at)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|&&u| u == u16::from(b'\\'))
            .count()
    }
}

/// Compiles a regular-expression literal once, at parse time. jsonata-js adds the `g` flag
/// (the matcher is global by construction, so only `i` and `m` are passed on) and JavaScript
/// refuses a flag given twice.
fn compile_regex(pattern: &str, flags: &str) -> Result<Pattern> {
    if let Some(twice) = ['i', 'm'].into_iter().find(|&flag| flags.matches(flag).count() > 1) {
        let mut quoted = String::new();
        writ_core::write_json_string(&Str::from(pattern), &mut quoted);
        return Err(Error::new(Code::S0303).with_value(quoted).with_detail(format!(
            "Invalid regular expression /{pattern}/{flags}: the flag {twice} is given twice"
        )));
    }
    Pattern::new(pattern, flags)
}
