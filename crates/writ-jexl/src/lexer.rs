//! The lexer: source text to elements, then elements to tokens, exactly as jexl 2.3 splits them.
//!
//! jexl-js splits the source with one regular expression whose alternatives are tried in order
//! at each position (strings, white space, `true`/`false`, the grammar's operators longest
//! first, identifiers, numbers); text no alternative matches becomes an element of its own.
//! [`elements`] reproduces that split by hand, in linear time, and [`tokenize`] turns elements
//! into tokens, folding a `-` into the number that follows it where jexl does. The linter reads
//! the elements, so it sees strings as strings and never fires inside one.

use writ_core::{Str, Value, js};

use crate::error::{Error, Result};

/// What kind of text an element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ElementKind {
    /// A quoted string, quotes included.
    String,
    /// A run of white space.
    Space,
    /// `true` or `false` between word boundaries.
    Boolean,
    /// One of the grammar's operators or punctuation marks.
    Operator,
    /// An identifier (which may still spell `true`, `false` or `in`).
    Identifier,
    /// A number without sign.
    Number,
    /// Text that nothing matched.
    Unmatched,
}

/// One element of the split source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Element {
    /// Its kind.
    pub(crate) kind: ElementKind,
    /// Its first byte.
    pub(crate) start: usize,
    /// One past its last byte.
    pub(crate) end: usize,
}

/// jexl's binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `^`
    Pow,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `in`
    In,
}

impl BinaryOp {
    /// The binding strength jexl's grammar gives the operator.
    pub(crate) fn precedence(self) -> u8 {
        match self {
            BinaryOp::And | BinaryOp::Or => 10,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Lt | BinaryOp::Le | BinaryOp::In => {
                20
            }
            BinaryOp::Add | BinaryOp::Sub => 30,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv => 40,
            BinaryOp::Mod | BinaryOp::Pow => 50,
        }
    }
}

/// What a token is, as jexl's parser distinguishes them.
#[derive(Clone, Debug)]
pub(crate) enum Tok {
    /// A string, number or boolean.
    Literal(Value),
    /// A name.
    Identifier(Str),
    /// A binary operator.
    Binary(BinaryOp),
    /// `!`, the one unary operator.
    Not,
    /// `.`
    Dot,
    /// `[`
    OpenBracket,
    /// `]`
    CloseBracket,
    /// `|`
    Pipe,
    /// `{`
    OpenCurl,
    /// `}`
    CloseCurl,
    /// `:`
    Colon,
    /// `,`
    Comma,
    /// `(`
    OpenParen,
    /// `)`
    CloseParen,
    /// `?`
    Question,
    /// A name jexl-js looks up in its grammar and finds on `Object.prototype` (`toString`,
    /// `constructor`, …): a token of no type, which no parser state accepts.
    Inherited,
}

impl Tok {
    /// How a message names this kind of token.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Tok::Literal(Value::String(_)) => "string",
            Tok::Literal(Value::Bool(_)) => "boolean",
            Tok::Literal(_) => "number",
            Tok::Identifier(_) => "name",
            Tok::Binary(_) => "operator",
            Tok::Not => "operator '!'",
            Tok::Dot => "'.'",
            Tok::OpenBracket => "'['",
            Tok::CloseBracket => "']'",
            Tok::Pipe => "'|'",
            Tok::OpenCurl => "'{'",
            Tok::CloseCurl => "'}'",
            Tok::Colon => "':'",
            Tok::Comma => "','",
            Tok::OpenParen => "'('",
            Tok::CloseParen => "')'",
            Tok::Question => "'?'",
            Tok::Inherited => "reserved name",
        }
    }
}

/// A token and where it was written.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    /// The token.
    pub(crate) tok: Tok,
    /// Its first byte.
    pub(crate) start: usize,
    /// One past its last byte.
    pub(crate) end: usize,
}

/// The names on `Object.prototype` in node 20, which jexl-js's grammar lookup finds.
const INHERITED_NAMES: [&str; 12] = [
    "constructor",
    "__defineGetter__",
    "__defineSetter__",
    "hasOwnProperty",
    "__lookupGetter__",
    "__lookupSetter__",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toString",
    "valueOf",
    "__proto__",
    "toLocaleString",
];

/// The operators and punctuation, in the order jexl's split tries them (longest first, then as
/// the grammar lists them), with `in` needing word boundaries.
const OPERATORS: [&str; 28] = [
    "//", "==", "!=", ">=", "<=", "&&", "||", "in", ".", "[", "]", "|", "{", "}", ":", ",", "(", ")", "?", "+", "-",
    "*", "/", "%", "^", ">", "<", "!",
];

/// A character that may start an identifier: ASCII letters, `_`, `$`, Latin-1 letters and the
/// basic Cyrillic letters, exactly jexl's character class.
fn is_ident_start(c: char) -> bool {
    matches!(c, 'a'..='z' | 'A'..='Z' | '_' | '$' | '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{ff}' | '\u{410}'..='\u{44f}')
}

/// A character that may continue an identifier.
fn is_ident_part(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// A regular-expression word character, for `\b`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits `source` into elements as jexl's split regular expression does.
pub(crate) fn elements(source: &str) -> Vec<Element> {
    let chars: Vec<(usize, char)> = source.char_indices().collect();
    let byte_at = |idx: usize| chars.get(idx).map_or(source.len(), |&(byte, _)| byte);
    let char_at = |idx: usize| chars.get(idx).map(|&(_, c)| c);
    let mut out: Vec<Element> = Vec::new();
    let mut unmatched_from: Option<usize> = None;
    let mut idx = 0;
    while let Some(c) = char_at(idx) {
        let matched = match_at(&chars, idx, c);
        match matched {
            Some((kind, len)) => {
                if let Some(from) = unmatched_from.take() {
                    out.push(Element {
                        kind: ElementKind::Unmatched,
                        start: byte_at(from),
                        end: byte_at(idx),
                    });
                }
                out.push(Element {
                    kind,
                    start: byte_at(idx),
                    end: byte_at(idx + len),
                });
                idx += len;
            }
            None => {
                unmatched_from.get_or_insert(idx);
                idx += 1;
            }
        }
    }
    if let Some(from) = unmatched_from {
        out.push(Element {
            kind: ElementKind::Unmatched,
            start: byte_at(from),
            end: source.len(),
        });
    }
    out
}

/// The element that starts at character `idx` (which is `c`), and its length in characters.
fn match_at(chars: &[(usize, char)], idx: usize, c: char) -> Option<(ElementKind, usize)> {
    let char_at = |at: usize| chars.get(at).map(|&(_, c)| c);
    let word_before = idx.checked_sub(1).and_then(char_at).is_some_and(is_word);
    let spells = |word: &str| {
        word.chars()
            .enumerate()
            .all(|(offset, w)| char_at(idx + offset) == Some(w))
    };
    let bounded_word = |word: &str| {
        let len = word.chars().count();
        !word_before && spells(word) && !char_at(idx + len).is_some_and(is_word)
    };
    if (c == '\'' || c == '"')
        && let Some(len) = string_length(chars, idx, c)
    {
        return Some((ElementKind::String, len));
    }
    // JavaScript's `\s`: white space and line terminators, all in the basic plane.
    let is_space = |c: char| u16::try_from(u32::from(c)).is_ok_and(js::is_space);
    if is_space(c) {
        let len = chars[idx..].iter().take_while(|&&(_, c)| is_space(c)).count();
        return Some((ElementKind::Space, len));
    }
    if bounded_word("true") {
        return Some((ElementKind::Boolean, 4));
    }
    if bounded_word("false") {
        return Some((ElementKind::Boolean, 5));
    }
    for op in OPERATORS {
        let fits = if op == "in" { bounded_word(op) } else { spells(op) };
        if fits {
            return Some((ElementKind::Operator, op.len()));
        }
    }
    if is_ident_start(c) {
        let len = chars[idx..].iter().take_while(|&&(_, c)| is_ident_part(c)).count();
        return Some((ElementKind::Identifier, len));
    }
    if c.is_ascii_digit() {
        let digits = |from: usize| {
            chars[from.min(chars.len())..]
                .iter()
                .take_while(|(_, c)| c.is_ascii_digit())
                .count()
        };
        let whole = digits(idx);
        let after = idx + whole;
        if char_at(after) == Some('.') {
            let fraction = digits(after + 1);
            if fraction > 0 {
                return Some((ElementKind::Number, whole + 1 + fraction));
            }
        }
        return Some((ElementKind::Number, whole));
    }
    None
}

/// The length in characters of the string literal opening with `quote` at `idx`, if one does.
///
/// jexl's pattern is a quote, then any run of escaped quotes or other characters, then a quote,
/// tried greedily with backtracking: the string ends at the first quote not preceded by a
/// backslash, or, when there is none, at the quote of the last `\'` before the end of the text.
fn string_length(chars: &[(usize, char)], idx: usize, quote: char) -> Option<usize> {
    let mut at = idx + 1;
    let mut last_escaped_quote = None;
    while let Some(&(_, c)) = chars.get(at) {
        if c == '\\' && chars.get(at + 1).is_some_and(|&(_, next)| next == quote) {
            last_escaped_quote = Some(at + 1);
            at += 2;
        } else if c == quote {
            return Some(at + 1 - idx);
        } else {
            at += 1;
        }
    }
    last_escaped_quote.map(|quote_at| quote_at + 1 - idx)
}

/// The value of a quoted element: the text between its first and last code unit, with every
/// backslash-quote turned into the quote and then the first double backslash into one, as
/// jexl's `_unquote` does (it unescapes nothing else).
fn unquote(units: &[u16]) -> Str {
    let Some(&quote) = units.first() else {
        return Str::empty();
    };
    let inner = units.get(1..units.len().saturating_sub(1)).unwrap_or(&[]);
    let backslash = u16::from(b'\\');
    let mut unescaped = Vec::with_capacity(inner.len());
    let mut idx = 0;
    while let Some(&unit) = inner.get(idx) {
        if unit == backslash && inner.get(idx + 1) == Some(&quote) {
            unescaped.push(quote);
            idx += 2;
        } else {
            unescaped.push(unit);
            idx += 1;
        }
    }
    if let Some(at) = unescaped.windows(2).position(|pair| pair == [backslash, backslash]) {
        unescaped.remove(at);
    }
    Str::from_utf16(&unescaped)
}

/// Turns `source` into tokens.
///
/// # Errors
///
/// `jexl-syntax` for an element that is no token (`=`, `@`, `-` before anything but a number).
pub(crate) fn tokenize(source: &str) -> Result<Vec<Token>> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut negate_from: Option<usize> = None;
    for element in elements(source) {
        let text = source.get(element.start..element.end).unwrap_or("");
        if element.kind == ElementKind::Space {
            continue;
        }
        if text == "-" && minus_negates(tokens.last()) {
            negate_from.get_or_insert(element.start);
            continue;
        }
        let start = negate_from.take();
        let tok = match start {
            Some(minus) => negated(source, minus, element, text)?,
            None => token_of(element, text)?,
        };
        tokens.push(Token {
            tok,
            start: start.unwrap_or(element.start),
            end: element.end,
        });
    }
    if let Some(minus) = negate_from {
        // A `-` at the very end stays an operator; the parser then reports what is missing.
        tokens.push(Token {
            tok: Tok::Binary(BinaryOp::Sub),
            start: minus,
            end: minus + 1,
        });
    }
    Ok(tokens)
}

/// True when a `-` after `last` is a sign rather than subtraction.
fn minus_negates(last: Option<&Token>) -> bool {
    match last {
        None => true,
        Some(token) => matches!(
            token.tok,
            Tok::Binary(_) | Tok::Not | Tok::OpenParen | Tok::OpenBracket | Tok::Question | Tok::Colon
        ),
    }
}

/// The token for `-` followed by `element`: a negative number, or an error, since jexl glues
/// the sign onto whatever follows and only a number survives that.
fn negated(source: &str, minus: usize, element: Element, text: &str) -> Result<Tok> {
    if element.kind == ElementKind::Number {
        let value = text.parse::<f64>().map_or(f64::NAN, |number| -number);
        return Ok(Tok::Literal(Value::Number(value)));
    }
    let written = source.get(minus..element.end).unwrap_or(text);
    Err(Error::syntax(
        minus,
        format!(
            "invalid token '-{text}' at byte {minus} (written '{written}'): a leading '-' only negates a number; \
             to negate anything else write '0 - x' or '(0 - x)'"
        ),
    ))
}

/// The token for an element not preceded by a sign, by jexl's order of checks: quoted text,
/// number, boolean, grammar element, identifier.
///
/// # Errors
///
/// `jexl-syntax` for text nothing matched (unless it opens with a quote: jexl reads an
/// unterminated quote and what follows it as a string literal).
fn token_of(element: Element, text: &str) -> Result<Tok> {
    match element.kind {
        ElementKind::String => Ok(Tok::Literal(Value::String(unquote_text(text)))),
        ElementKind::Unmatched if text.starts_with(['\'', '"']) => Ok(Tok::Literal(Value::String(unquote_text(text)))),
        ElementKind::Unmatched => Err(Error::syntax(
            element.start,
            format!(
                "invalid token '{text}' at byte {}: Jexl has no such operator or character \
                 (compare with '==' and '!=', combine with '&&' and '||', quote text with '\"' or \"'\")",
                element.start
            ),
        )),
        ElementKind::Number => Ok(Tok::Literal(Value::Number(text.parse::<f64>().unwrap_or(f64::NAN)))),
        ElementKind::Space | ElementKind::Boolean | ElementKind::Operator | ElementKind::Identifier => {
            Ok(word_token(text))
        }
    }
}

/// [`unquote`] over text.
fn unquote_text(text: &str) -> Str {
    let units: Vec<u16> = text.encode_utf16().collect();
    unquote(&units)
}

/// The token a word or operator spells: a boolean, a grammar element, a name jexl-js finds on
/// `Object.prototype`, or an identifier.
fn word_token(text: &str) -> Tok {
    match text {
        "true" => Tok::Literal(Value::Bool(true)),
        "false" => Tok::Literal(Value::Bool(false)),
        "." => Tok::Dot,
        "[" => Tok::OpenBracket,
        "]" => Tok::CloseBracket,
        "|" => Tok::Pipe,
        "{" => Tok::OpenCurl,
        "}" => Tok::CloseCurl,
        ":" => Tok::Colon,
        "," => Tok::Comma,
        "(" => Tok::OpenParen,
        ")" => Tok::CloseParen,
        "?" => Tok::Question,
        "!" => Tok::Not,
        "+" => Tok::Binary(BinaryOp::Add),
        "-" => Tok::Binary(BinaryOp::Sub),
        "*" => Tok::Binary(BinaryOp::Mul),
        "/" => Tok::Binary(BinaryOp::Div),
        "//" => Tok::Binary(BinaryOp::FloorDiv),
        "%" => Tok::Binary(BinaryOp::Mod),
        "^" => Tok::Binary(BinaryOp::Pow),
        "==" => Tok::Binary(BinaryOp::Eq),
        "!=" => Tok::Binary(BinaryOp::Ne),
        ">" => Tok::Binary(BinaryOp::Gt),
        ">=" => Tok::Binary(BinaryOp::Ge),
        "<" => Tok::Binary(BinaryOp::Lt),
        "<=" => Tok::Binary(BinaryOp::Le),
        "&&" => Tok::Binary(BinaryOp::And),
        "||" => Tok::Binary(BinaryOp::Or),
        "in" => Tok::Binary(BinaryOp::In),
        _ if INHERITED_NAMES.contains(&text) => Tok::Inherited,
        _ => Tok::Identifier(Str::from(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    /// The elements of `source` as (kind, text) pairs.
    fn split(source: &str) -> Vec<(ElementKind, &str)> {
        elements(source)
            .into_iter()
            .map(|element| (element.kind, &source[element.start..element.end]))
            .collect()
    }

    #[test]
    fn elements_split_as_jexls_regular_expression_does() {
        use ElementKind::*;
        assert_eq!(
            split("a.b>=1.5||!c"),
            vec![
                (Identifier, "a"),
                (Operator, "."),
                (Identifier, "b"),
                (Operator, ">="),
                (Number, "1.5"),
                (Operator, "||"),
                (Operator, "!"),
                (Identifier, "c")
            ]
        );
        // `===` is `==` and an unmatched `=`; `in` needs word boundaries; `true` too.
        assert_eq!(split("a===b")[1..3], [(Operator, "=="), (Unmatched, "=")]);
        assert_eq!(
            split("index in$"),
            vec![(Identifier, "index"), (Space, " "), (Operator, "in"), (Identifier, "$")]
        );
        assert_eq!(
            split("true_ true$"),
            vec![
                (Identifier, "true_"),
                (Space, " "),
                (Boolean, "true"),
                (Identifier, "$")
            ]
        );
        // A number's trailing dot is a dot; a leading one too.
        assert_eq!(
            split("1..5"),
            vec![(Number, "1"), (Operator, "."), (Operator, "."), (Number, "5")]
        );
        // An unterminated quote is unmatched text, and so is what no alternative takes.
        assert_eq!(split("'ab"), vec![(Unmatched, "'"), (Identifier, "ab")]);
        assert_eq!(
            split("a @# b"),
            vec![
                (Identifier, "a"),
                (Space, " "),
                (Unmatched, "@#"),
                (Space, " "),
                (Identifier, "b")
            ]
        );
        // Without a closing quote, a string ends at the last escaped quote.
        assert_eq!(split(r"'a\'b\'c"), vec![(String, r"'a\'b\'"), (Identifier, "c")]);
        assert_eq!(split("жук€"), vec![(Identifier, "жук"), (Unmatched, "€")]);
        assert_eq!(
            split("\u{a0}\u{2028}x"),
            vec![(Space, "\u{a0}\u{2028}"), (Identifier, "x")]
        );
    }

    #[test]
    fn strings_unescape_only_quotes_and_the_first_double_backslash() {
        let value = |source: &str| match tokenize(source).map(|tokens| tokens.into_iter().next().map(|token| token.tok))
        {
            Ok(Some(Tok::Literal(Value::String(text)))) => text.to_string_lossy().into_owned(),
            other => panic!("{source}: {other:?}"),
        };
        assert_eq!(value(r#""say \"hi\"""#), r#"say "hi""#);
        assert_eq!(value(r"'\n\t'"), r"\n\t");
        assert_eq!(value(r"'a\\b\\c'"), r"a\b\\c");
        // An unmatched text opening with a quote reads as the text between its ends.
        assert_eq!(value("'"), "");
        assert_eq!(value("\"@@"), "@");
    }

    #[test]
    fn a_sign_folds_into_the_number_after_an_operator_only() {
        let kinds = |source: &str| {
            tokenize(source).map(|tokens| tokens.into_iter().map(|token| token.tok.describe()).collect::<Vec<_>>())
        };
        assert_eq!(kinds("-1").ok(), Some(vec!["number"]));
        assert_eq!(kinds("1 - -1").ok(), Some(vec!["number", "operator", "number"]));
        assert_eq!(kinds("(-1)").ok(), Some(vec!["'('", "number", "')'"]));
        assert_eq!(
            kinds("[1, -1]").ok(),
            Some(vec!["'['", "number", "','", "operator", "number", "']'"])
        );
        assert_eq!(kinds("1 -").ok(), Some(vec!["number", "operator"]));
        assert_eq!(kinds("-a").map_err(|error| error.code()), Err(Code::Syntax));
        assert_eq!(kinds("-'a'").map_err(|error| error.code()), Err(Code::Syntax));
    }

    #[test]
    fn any_text_splits_into_contiguous_elements_without_panicking() {
        let mut samples: Vec<String> = (0..0x3100_u32).filter_map(char::from_u32).map(String::from).collect();
        samples.extend(
            [
                "😀'",
                "'😀",
                "\"\u{10ffff}",
                "a\u{0}b",
                "'\\",
                "\"\\\"",
                "--",
                "1.",
                ".1.",
                "ё",
                "Ё",
            ]
            .map(String::from),
        );
        let pairs: Vec<String> = samples
            .iter()
            .take(400)
            .flat_map(|a| samples.iter().take(60).map(move |b| format!("{a}{b}")))
            .collect();
        for source in samples.iter().chain(&pairs) {
            let mut at = 0;
            for element in elements(source) {
                assert_eq!(element.start, at, "{source:?}");
                assert!(
                    element.end > element.start && source.is_char_boundary(element.end),
                    "{source:?}"
                );
                at = element.end;
            }
            assert_eq!(at, source.len(), "{source:?}");
            let _ = tokenize(source);
        }
    }
}
