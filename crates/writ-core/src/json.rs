//! JSON text to [`Value`] and back, with `JSON.parse` and `JSON.stringify` semantics.
//!
//! The reader is writ's own rather than serde_json's because JSON text may carry lone
//! surrogates (`"\uD800"`), which `JSON.parse` accepts and serde_json refuses, and because it
//! builds `Value`s directly: repeated keys share one allocation, and nesting is walked with an
//! explicit stack, so a deep document meets a depth limit instead of the end of the thread's
//! stack.

use std::fmt;

use crate::object::Entry;
use crate::{Array, Object, Str, Value, write_js_number};

/// The deepest nesting [`parse_json`] accepts by default.
pub const DEFAULT_MAX_JSON_DEPTH: usize = 512;

/// An error from reading JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    kind: JsonErrorKind,
    line: usize,
    column: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum JsonErrorKind {
    Expected { expected: &'static str, found: String },
    TooDeep { limit: usize },
    BadEscape,
    ControlCharacter,
    BadNumber,
}

impl JsonError {
    /// The stable code: `json-syntax`, or `json-too-deep` for nesting past the limit.
    pub fn code(&self) -> &'static str {
        match self.kind {
            JsonErrorKind::TooDeep { .. } => "json-too-deep",
            _ => "json-syntax",
        }
    }

    /// The 1-based line of the error.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column, counted in characters, of the error.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            JsonErrorKind::Expected { expected, found } => write!(f, "expected {expected}, found {found}")?,
            JsonErrorKind::TooDeep { limit } => write!(
                f,
                "nesting deeper than {limit} levels (flatten the document, or raise the depth limit)"
            )?,
            JsonErrorKind::BadEscape => {
                f.write_str("invalid escape in a string (JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)")?
            }
            JsonErrorKind::ControlCharacter => {
                f.write_str("control character inside a string (write it as an escape such as \\n or \\u0001)")?
            }
            JsonErrorKind::BadNumber => f.write_str("malformed number (JSON numbers look like -12, 3.5 or 1e-7)")?,
        }
        write!(f, " at line {} column {}", self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

/// Reads one JSON value from `text`, as `JSON.parse` does, nesting at most
/// [`DEFAULT_MAX_JSON_DEPTH`] levels deep.
///
/// Object keys keep JavaScript's order (see [`Object`]); a repeated key keeps its first position
/// and its last value. Lone surrogate escapes are kept as code units.
///
/// # Errors
///
/// `json-syntax` for text that is not one JSON value; `json-too-deep` for nesting past the
/// limit.
///
/// # Example
///
/// ```
/// let value = writ_core::parse_json(r#"{"b": [1, 2.5, "\uD800"], "a": null}"#).unwrap();
/// assert_eq!(value.to_json_string().unwrap(), r#"{"b":[1,2.5,"\ud800"],"a":null}"#);
/// ```
pub fn parse_json(text: &str) -> Result<Value, JsonError> {
    parse_json_with_depth(text, DEFAULT_MAX_JSON_DEPTH)
}

/// Reads one JSON value from `text`, nesting at most `max_depth` levels deep.
///
/// # Errors
///
/// As [`parse_json`].
pub fn parse_json_with_depth(text: &str, max_depth: usize) -> Result<Value, JsonError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        keys: KeyCache::default(),
        scratch: Vec::new(),
    };
    reader.read_document(max_depth)
}

enum Frame {
    Array(Vec<Value>),
    Object(Vec<Entry>, Str),
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    keys: KeyCache,
    scratch: Vec<u16>,
}

/// A direct-mapped cache of recently read keys, so that the rows of a table share their key
/// strings. Constant time per lookup whatever the keys are, so crafted keys cannot slow it.
struct KeyCache {
    slots: Vec<Option<Str>>,
}

const KEY_CACHE_SLOTS: usize = 256;
const KEY_CACHE_MAX_LEN: usize = 32;

impl Default for KeyCache {
    fn default() -> KeyCache {
        KeyCache {
            slots: vec![None; KEY_CACHE_SLOTS],
        }
    }
}

impl KeyCache {
    fn get_or_insert(&mut self, raw: &[u8]) -> Option<Str> {
        if raw.len() > KEY_CACHE_MAX_LEN || !raw.is_ascii() {
            return None;
        }
        let mut hash: u32 = 0x811c_9dc5;
        for &byte in raw {
            hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
        }
        let slot = &mut self.slots[(hash as usize) % KEY_CACHE_SLOTS];
        if let Some(existing) = slot
            && existing.ascii_bytes() == Some(raw)
        {
            return Some(existing.clone());
        }
        let key = Str::from_ascii(raw)?;
        *slot = Some(key.clone());
        Some(key)
    }
}

impl Reader<'_> {
    #[cold]
    fn error(&self, kind: JsonErrorKind) -> JsonError {
        let consumed = &self.text[..floor_char_boundary(self.text, self.pos)];
        let line = consumed.matches('\n').count() + 1;
        let column = consumed.rsplit('\n').next().map_or(0, |tail| tail.chars().count()) + 1;
        JsonError { kind, line, column }
    }

    #[cold]
    fn expected(&self, expected: &'static str) -> JsonError {
        let found = match self.text[floor_char_boundary(self.text, self.pos)..].chars().next() {
            None => "the end of the text".to_string(),
            Some(ch) => format!("{ch:?}"),
        };
        self.error(JsonErrorKind::Expected { expected, found })
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&byte) = self.bytes.get(self.pos) {
            if matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn read_document(&mut self, max_depth: usize) -> Result<Value, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_whitespace();
            let mut value = match self.peek() {
                Some(b'[' | b'{') if stack.len() >= max_depth => {
                    return Err(self.error(JsonErrorKind::TooDeep { limit: max_depth }));
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Array::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Object::new())
                    } else {
                        let key = self.read_key()?;
                        stack.push(Frame::Object(Vec::new(), key));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.read_string()?),
                Some(b'-' | b'0'..=b'9') => Value::Number(self.read_number()?),
                Some(b't') => self.read_literal("true", Value::Bool(true))?,
                Some(b'f') => self.read_literal("false", Value::Bool(false))?,
                Some(b'n') => self.read_literal("null", Value::Null)?,
                _ => return Err(self.expected("a JSON value")),
            };
            // Hand the finished value to the enclosing container, closing containers as they end.
            loop {
                self.skip_whitespace();
                match stack.last_mut() {
                    None => {
                        if self.pos != self.bytes.len() {
                            return Err(self.expected("the end of the text after the value"));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(elements)) => {
                        elements.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Array(elements)) = stack.pop() else {
                                    unreachable!("the top frame was just matched as an array")
                                };
                                value = Value::Array(Array::from(elements));
                            }
                            _ => return Err(self.expected("',' or ']' after an array element")),
                        }
                    }
                    Some(Frame::Object(entries, key)) => {
                        entries.push(Entry::new(std::mem::take(key), value));
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_whitespace();
                                *key = self.read_key()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Object(entries, _)) = stack.pop() else {
                                    unreachable!("the top frame was just matched as an object")
                                };
                                value = Value::Object(Object::from_entry_vec(entries));
                            }
                            _ => return Err(self.expected("',' or '}' after an object member")),
                        }
                    }
                }
            }
        }
    }

    fn read_literal(&mut self, word: &'static str, value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.expected("a JSON value"))
        }
    }

    /// Reads `"key"` and the `:` after it.
    fn read_key(&mut self) -> Result<Str, JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.expected("a string key in double quotes"));
        }
        let start = self.pos + 1;
        let plain_end = self.bytes[start..]
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
            .map(|offset| start + offset);
        let key = match plain_end {
            Some(end) if self.bytes[end] == b'"' => match self.keys.get_or_insert(&self.bytes[start..end]) {
                Some(key) => {
                    self.pos = end + 1;
                    key
                }
                None => self.read_string()?,
            },
            _ => self.read_string()?,
        };
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.expected("':' after an object key"));
        }
        self.pos += 1;
        Ok(key)
    }

    fn read_string(&mut self) -> Result<Str, JsonError> {
        debug_assert_eq!(self.peek(), Some(b'"'));
        self.pos += 1;
        let start = self.pos;
        // Fast path: plain ASCII up to the closing quote.
        while let Some(&byte) = self.bytes.get(self.pos) {
            match byte {
                b'"' => {
                    let text = Str::from_ascii(&self.bytes[start..self.pos]);
                    if let Some(text) = text {
                        self.pos += 1;
                        return Ok(text);
                    }
                    break;
                }
                b'\\' => break,
                0x00..=0x1F => return Err(self.error(JsonErrorKind::ControlCharacter)),
                0x80.. => break,
                _ => self.pos += 1,
            }
        }
        // Slow path: escapes or non-ASCII; collect UTF-16 code units.
        let mut units = std::mem::take(&mut self.scratch);
        units.clear();
        units.extend(self.bytes[start..self.pos].iter().map(|&byte| u16::from(byte)));
        let result = self.read_string_units(&mut units);
        let text = result.map(|()| Str::from_utf16(&units));
        self.scratch = units;
        text
    }

    fn read_string_units(&mut self, units: &mut Vec<u16>) -> Result<(), JsonError> {
        loop {
            let Some(&byte) = self.bytes.get(self.pos) else {
                return Err(self.expected("'\"' to close the string"));
            };
            match byte {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.pos += 1;
                    let escaped = self.peek();
                    self.pos += 1;
                    let unit = match escaped {
                        Some(b'"') => 0x22,
                        Some(b'\\') => 0x5C,
                        Some(b'/') => 0x2F,
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0C,
                        Some(b'n') => 0x0A,
                        Some(b'r') => 0x0D,
                        Some(b't') => 0x09,
                        Some(b'u') => {
                            let hex = self.bytes.get(self.pos..self.pos + 4);
                            let unit = hex
                                .and_then(|hex| std::str::from_utf8(hex).ok())
                                .filter(|hex| hex.bytes().all(|byte| byte.is_ascii_hexdigit()))
                                .and_then(|hex| u16::from_str_radix(hex, 16).ok());
                            match unit {
                                Some(unit) => {
                                    self.pos += 4;
                                    unit
                                }
                                None => return Err(self.error(JsonErrorKind::BadEscape)),
                            }
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error(JsonErrorKind::BadEscape));
                        }
                    };
                    units.push(unit);
                }
                0x00..=0x1F => return Err(self.error(JsonErrorKind::ControlCharacter)),
                0x20..=0x7F => {
                    units.push(u16::from(byte));
                    self.pos += 1;
                }
                _ => {
                    // The text is a &str, so a non-ASCII byte starts a whole UTF-8 character.
                    let rest = &self.text[self.pos..];
                    let ch = rest.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
                    let mut buffer = [0u16; 2];
                    units.extend_from_slice(ch.encode_utf16(&mut buffer));
                    self.pos += ch.len_utf8();
                }
            }
        }
    }

    fn read_number(&mut self) -> Result<f64, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(self.error(JsonErrorKind::BadNumber)),
        }
        let int_end = self.pos;
        let mut plain_integer = true;
        if self.peek() == Some(b'.') {
            plain_integer = false;
            self.pos += 1;
            if !self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                return Err(self.error(JsonErrorKind::BadNumber));
            }
            self.skip_digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            plain_integer = false;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                return Err(self.error(JsonErrorKind::BadNumber));
            }
            self.skip_digits();
        }
        // Up to 15 digits fit an f64 exactly, so they need no correctly-rounded parse.
        if plain_integer && int_end - int_start <= 15 {
            let magnitude = self.bytes[int_start..int_end]
                .iter()
                .fold(0u64, |acc, &digit| acc * 10 + u64::from(digit - b'0')) as f64;
            return Ok(if int_start > start { -magnitude } else { magnitude });
        }
        self.text[start..self.pos]
            .parse::<f64>()
            .map_err(|_| self.error(JsonErrorKind::BadNumber))
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.pos += 1;
        }
    }
}

fn floor_char_boundary(text: &str, mut pos: usize) -> usize {
    pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// Appends `text` as a JSON string literal, escaped as `JSON.stringify` escapes it.
///
/// `"` and `\` are escaped, control characters become `\b \f \n \r \t` or `\u00XX`, lone
/// surrogates become `\uXXXX` (lowercase hex), and everything else is written as UTF-8.
pub fn write_json_string(text: &Str, out: &mut String) {
    out.push('"');
    if let Some(ascii) = text.as_ascii_str() {
        let bytes = ascii.as_bytes();
        let mut run_start = 0;
        for (idx, &byte) in bytes.iter().enumerate() {
            if byte >= 0x20 && byte != b'"' && byte != b'\\' {
                continue;
            }
            out.push_str(&ascii[run_start..idx]);
            push_escape(u16::from(byte), out);
            run_start = idx + 1;
        }
        out.push_str(&ascii[run_start..]);
    } else {
        for decoded in char::decode_utf16(text.code_units()) {
            match decoded {
                Ok(ch) if (ch as u32) < 0x80 => {
                    let byte = ch as u8;
                    if byte >= 0x20 && byte != b'"' && byte != b'\\' {
                        out.push(ch);
                    } else {
                        push_escape(u16::from(byte), out);
                    }
                }
                Ok(ch) => out.push(ch),
                Err(lone) => push_escape(lone.unpaired_surrogate(), out),
            }
        }
    }
    out.push('"');
}

fn push_escape(unit: u16, out: &mut String) {
    match unit {
        0x22 => out.push_str("\\\""),
        0x5C => out.push_str("\\\\"),
        0x08 => out.push_str("\\b"),
        0x0C => out.push_str("\\f"),
        0x0A => out.push_str("\\n"),
        0x0D => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(char::from(HEX[usize::from((unit >> shift) & 0xF)]));
            }
        }
    }
}

impl Value {
    /// Reads one JSON value from `text`; see [`parse_json`].
    ///
    /// # Errors
    ///
    /// As [`parse_json`].
    pub fn from_json_text(text: &str) -> Result<Value, JsonError> {
        parse_json(text)
    }

    /// Writes the value as `JSON.stringify(value)` would, or `None` for `undefined`.
    ///
    /// Non-finite numbers become `null`; `undefined` is left out of objects and becomes `null`
    /// in arrays.
    pub fn to_json_string(&self) -> Option<String> {
        let mut out = String::new();
        if self.write_json(&mut out) { Some(out) } else { None }
    }

    /// Appends the value as `JSON.stringify` would; returns false, writing nothing, for
    /// `undefined`.
    pub fn write_json(&self, out: &mut String) -> bool {
        match self {
            Value::Undefined => return false,
            Value::Null => out.push_str("null"),
            Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
            Value::Number(number) if number.is_finite() => write_js_number(*number, out),
            Value::Number(_) => out.push_str("null"),
            Value::String(text) => write_json_string(text, out),
            Value::Array(elements) => {
                out.push('[');
                for (idx, element) in elements.iter().enumerate() {
                    if idx > 0 {
                        out.push(',');
                    }
                    if !element.write_json(out) {
                        out.push_str("null");
                    }
                }
                out.push(']');
            }
            Value::Object(object) => {
                out.push('{');
                let mut first = true;
                for (key, value) in object.iter() {
                    if value.is_undefined() {
                        continue;
                    }
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    write_json_string(key, out);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        parse_json(text)
            .unwrap_or_else(|error| panic!("{text}: {error}"))
            .to_json_string()
            .unwrap_or_default()
    }

    #[test]
    fn writes_what_json_stringify_writes() {
        assert_eq!(
            round_trip(" [1, 1.5, -0, 1e21, 1E-7, true, null] "),
            "[1,1.5,0,1e+21,1e-7,true,null]"
        );
        assert_eq!(
            round_trip(r#"{"b":1,"a":{"2":0,"1":0}}"#),
            r#"{"b":1,"a":{"1":0,"2":0}}"#
        );
        assert_eq!(
            round_trip(r#""\u0001\u001f\"\\\/\b\f\n\r\t""#),
            r#""\u0001\u001f\"\\/\b\f\n\r\t""#
        );
        assert_eq!(
            round_trip(r#""\u00e9\ud83d\ude00\ud800 x \udc00""#),
            "\"\u{e9}\u{1F600}\\ud800 x \\udc00\""
        );
        assert_eq!(round_trip("\"\u{2028}\u{7f}\""), "\"\u{2028}\u{7f}\"");
        assert_eq!(round_trip(r#"{"a":1,"a":2}"#), r#"{"a":2}"#);
    }

    #[test]
    fn leaves_out_undefined_like_json_stringify() {
        let mut object = Object::new();
        object.insert("gone".into(), Value::Undefined);
        object.insert(
            "kept".into(),
            Value::from(vec![Value::Undefined, Value::from(f64::NAN)]),
        );
        assert_eq!(
            Value::from(object).to_json_string().as_deref(),
            Some(r#"{"kept":[null,null]}"#)
        );
        assert_eq!(Value::Undefined.to_json_string(), None);
    }

    #[test]
    fn refuses_what_json_parse_refuses() {
        for text in [
            "",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "+1",
            "-",
            "1e",
            "[1 2]",
            "{'a':1}",
            "\"\t\"",
            "nul",
            "\"\\x\"",
            "\"\\u12\"",
            "[1]]",
            "{\"a\" 1}",
            "\"abc",
        ] {
            let error = parse_json(text).expect_err(text);
            assert_eq!(error.code(), "json-syntax", "{text}");
        }
    }

    #[test]
    fn errors_say_where() {
        let error = parse_json("{\n  \"a\": [1, 2,, 3]\n}").expect_err("a double comma");
        assert_eq!((error.line(), error.column()), (2, 14));
        assert_eq!(
            error.to_string(),
            "expected a JSON value, found ',' at line 2 column 14"
        );
    }

    #[test]
    fn depth_is_bounded_without_recursion() {
        let deep = "[".repeat(100_000);
        let error = parse_json(&deep).expect_err("too deep");
        assert_eq!(error.code(), "json-too-deep");
        let ok = format!("{}{}", "[".repeat(512), "]".repeat(512));
        assert!(parse_json(&ok).is_ok());
        let over = format!("{}{}", "[".repeat(513), "]".repeat(513));
        assert_eq!(parse_json(&over).expect_err("513 levels").code(), "json-too-deep");
    }

    #[test]
    fn repeated_keys_share_one_allocation() {
        let value = parse_json(r#"[{"price":1},{"price":2}]"#).expect("valid");
        let rows = value.as_array().expect("an array");
        let first = rows[0].as_object().expect("an object").keys().next().cloned();
        let second = rows[1].as_object().expect("an object").keys().next().cloned();
        assert!(first.zip(second).is_some_and(|(a, b)| a.ptr_eq(&b)));
    }

    #[test]
    fn numbers_parse_correctly_rounded() {
        for (text, expected) in [
            ("123456789012345678", 123456789012345678.0),
            ("-0", -0.0),
            ("0.1", 0.1),
            ("1e400", f64::INFINITY),
            ("-999999999999999", -999999999999999.0),
        ] {
            let value = parse_json(text).expect("valid number");
            assert_eq!(value, Value::Number(expected), "{text}");
        }
    }
}
