//! JSON text to [`Value`] and back, with `JSON.parse` and `JSON.stringify` semantics.
//!
//! The reader is writ's own rather than serde_json's because JSON text may carry lone
//! surrogates (`"\uD800"`), which `JSON.parse` accepts and serde_json refuses, and because it
//! builds `Value`s directly: objects with the same keys share one key list (see [`Object`]),
//! repeated short strings share one allocation, and nesting is walked with an explicit stack,
//! so a deep document meets a depth limit instead of the end of the thread's stack.

use std::fmt;

use crate::number::write_js_number_into;
use crate::object::{Keys, keys_are_simple};
use crate::{Array, Object, Str, Value};

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
        keys: StrCache::new(KEY_CACHE_MAX_LEN, text.len()),
        strings: StrCache::new(STRING_CACHE_MAX_LEN, text.len()),
        shapes: ShapeCache::new(text.len()),
        scratch: Vec::new(),
    };
    reader.read_document(max_depth, &mut Vec::new())
}

/// An open array or object. Their elements wait on the reader's shared stacks, so a container
/// costs one allocation, made when it closes and its size is known.
enum Frame {
    Array {
        /// Where its elements start on the value stack.
        values_start: usize,
    },
    Object {
        /// Where its values start on the value stack.
        values_start: usize,
        /// Where its keys start on the key stack, once they are there (see `guess`).
        keys_start: usize,
        /// The key list this object is predicted to have. While every key read matches it,
        /// the keys stay off the key stack: only `matched` counts them.
        guess: Option<Keys>,
        matched: usize,
        /// The prediction slot the guess came from, where this object's keys go back.
        slot: usize,
    },
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    keys: StrCache,
    strings: StrCache,
    shapes: ShapeCache,
    scratch: Vec<u16>,
}

/// A direct-mapped cache of short ASCII strings read recently, so that the repeated keys and
/// values of a table's rows share one string each. A string is kept from its second sighting
/// on, so a stream of distinct strings costs a hash apiece and evicts nothing. Constant time
/// per lookup whatever the text holds, so crafted text cannot slow it.
struct StrCache {
    /// Per slot: the hash of the last string that mapped there, and the string kept there.
    slots: Vec<(u32, Option<Str>)>,
    max_len: usize,
}

/// Slots for a text of `len` bytes: about one per 32 bytes, a power of two from 16 to 256, so a
/// small document does not pay for a table it cannot fill.
fn str_cache_slots(len: usize) -> usize {
    (len / 32).next_power_of_two().clamp(16, 256)
}

/// Keys longer than this are made afresh each time: few keys are, and a repeated key list is
/// matched in place anyway.
const KEY_CACHE_MAX_LEN: usize = 32;
/// String values longer than this are made afresh each time: long values (names, sentences)
/// rarely repeat, and looking them up would cost every one of them a hash.
const STRING_CACHE_MAX_LEN: usize = 12;

impl StrCache {
    fn new(max_len: usize, text_len: usize) -> StrCache {
        StrCache {
            slots: vec![(0, None); str_cache_slots(text_len)],
            max_len,
        }
    }

    /// The string of the ASCII bytes `raw`, shared with an earlier equal one when it is kept.
    #[inline]
    fn get_or_make(&mut self, raw: &[u8]) -> Option<Str> {
        if raw.len() > self.max_len {
            return Str::from_ascii(raw);
        }
        let hash = short_hash(raw);
        let slot = spread(u64::from(hash), self.slots.len());
        let (seen, kept) = &mut self.slots[slot];
        if let Some(kept) = kept
            && kept.ascii_bytes() == Some(raw)
        {
            return Some(kept.clone());
        }
        let text = Str::from_ascii(raw)?;
        if *seen == hash {
            *kept = Some(text.clone());
        } else {
            *seen = hash;
        }
        Some(text)
    }
}

/// Key lists of recently read objects, so that objects with the same keys share one list.
///
/// `predicted` is what the next object read in the same place (depth, and the key it is the
/// value of) is guessed to have: while the guess holds, keys are matched in the text in place
/// and never become strings. `recent` catches objects that change shape from one row to the
/// next. Both are direct-mapped, so every lookup is constant time whatever the text holds.
struct ShapeCache {
    predicted: Vec<Option<Keys>>,
    recent: Vec<Option<Keys>>,
}

impl ShapeCache {
    /// Caches for a text of `len` bytes: a power of two from 4 to 64 slots each.
    fn new(len: usize) -> ShapeCache {
        let slots = (len / 128).next_power_of_two().clamp(4, 64);
        ShapeCache {
            predicted: vec![None; slots],
            recent: vec![None; slots],
        }
    }

    /// The prediction slot of an object at `depth` that is the value of a key with tag
    /// `parent_tag` (zero in an array).
    fn slot(&self, depth: usize, parent_tag: u64) -> usize {
        spread(
            parent_tag ^ (depth as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD),
            self.predicted.len(),
        )
    }

    fn guess(&self, slot: usize) -> Option<Keys> {
        self.predicted[slot].clone()
    }

    /// Remembers `keys` as the guess for `slot`, when the reader can match them in place.
    fn predict(&mut self, slot: usize, keys: &Keys) {
        let entry = &mut self.predicted[slot];
        if keys.is_plain() && !entry.as_ref().is_some_and(|known| known.ptr_eq(keys)) {
            *entry = Some(keys.clone());
        }
    }

    /// A key list for `keys`, which [`keys_are_simple`] accepted: a recent equal one if there
    /// is one, else a new one.
    fn share(&mut self, keys: std::vec::Drain<'_, Str>) -> Keys {
        let hash = keys.as_slice().iter().fold(keys.len() as u64, |hash, key| {
            (hash ^ key.tag()).wrapping_mul(0x0100_0000_01B3)
        });
        let slot = spread(hash, self.recent.len());
        let entry = &mut self.recent[slot];
        if let Some(known) = entry
            && known.equals(keys.as_slice())
        {
            return known.clone();
        }
        let fresh = Keys::from_simple(keys);
        *entry = Some(fresh.clone());
        fresh
    }
}

/// A hash of a short string, eight bytes at a time.
#[inline]
fn short_hash(raw: &[u8]) -> u32 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut chunks = raw.chunks_exact(8);
    let mut hash = raw.len() as u64;
    for chunk in &mut chunks {
        let word = <[u8; 8]>::try_from(chunk).map_or(0, u64::from_le_bytes);
        hash = (hash ^ word).wrapping_mul(MULTIPLIER);
        hash ^= hash >> 29;
    }
    let tail = chunks
        .remainder()
        .iter()
        .rev()
        .fold(0, |word, &byte| word << 8 | u64::from(byte));
    hash = (hash ^ tail).wrapping_mul(MULTIPLIER);
    (hash >> 32) as u32
}

/// The eight bytes of `bytes` from `at`, little-endian; zero when there are not eight.
#[inline]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|chunk| <[u8; 8]>::try_from(chunk).ok())
        .map_or(0, u64::from_le_bytes)
}

/// A slot in a table of `slots` (a power of two) for `hash`: Fibonacci hashing, whose middle
/// bits depend on all of the input's low bits.
fn spread(hash: u64, slots: usize) -> usize {
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (slots - 1)
}

/// The offset of the first byte of `bytes` that is `"`, `\`, a control character or not ASCII,
/// or the length when there is none.
#[inline]
pub(crate) fn plain_run(bytes: &[u8]) -> usize {
    run_until::<true>(bytes)
}

/// The offset of the first byte of `bytes` that is `"`, `\` or a control character, or the
/// length when there is none: the end of what a string can take as it stands.
#[inline]
fn literal_run(bytes: &[u8]) -> usize {
    run_until::<false>(bytes)
}

/// [`plain_run`], or [`literal_run`] when `STOP_AT_WIDE` is false. Eight bytes at a time: in
/// each word, the lowest flagged byte is exact (borrows only ever flag bytes above a true
/// match), and bytes of 0x80 and above are never flagged by the three comparisons.
#[inline]
fn run_until<const STOP_AT_WIDE: bool>(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut idx = 0;
    while let Some(chunk) = bytes.get(idx..idx + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let mut flagged = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        if STOP_AT_WIDE {
            flagged |= word;
        }
        flagged &= HIGHS;
        if flagged != 0 {
            return idx + (flagged.trailing_zeros() / 8) as usize;
        }
        idx += 8;
    }
    while let Some(&byte) = bytes.get(idx) {
        if byte < 0x20 || (STOP_AT_WIDE && byte >= 0x80) || byte == b'"' || byte == b'\\' {
            break;
        }
        idx += 1;
    }
    idx
}

/// Powers of ten that an `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

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

    /// Reads the document, with `values` (empty) as the stack of the elements and values of
    /// every open container, innermost last.
    fn read_document(&mut self, max_depth: usize, values: &mut Vec<Value>) -> Result<Value, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        // The keys of open objects whose keys did not match a guess.
        let mut keys: Vec<Str> = Vec::new();
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
                        stack.push(Frame::Array {
                            values_start: values.len(),
                        });
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
                        let parent_tag = match stack.last() {
                            Some(Frame::Object {
                                guess: Some(guess),
                                matched,
                                ..
                            }) => matched
                                .checked_sub(1)
                                .and_then(|last| guess.get(last))
                                .map_or(0, Str::tag),
                            Some(Frame::Object { .. }) => keys.last().map_or(0, Str::tag),
                            _ => 0,
                        };
                        let slot = self.shapes.slot(stack.len(), parent_tag);
                        let mut guess = self.shapes.guess(slot);
                        let mut matched = 0;
                        let keys_start = keys.len();
                        self.read_member_key(&mut guess, &mut matched, &mut keys)?;
                        stack.push(Frame::Object {
                            values_start: values.len(),
                            keys_start,
                            guess,
                            matched,
                            slot,
                        });
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
                let Some(frame) = stack.last_mut() else {
                    if self.pos != self.bytes.len() {
                        return Err(self.expected("the end of the text after the value"));
                    }
                    return Ok(value);
                };
                values.push(value);
                match frame {
                    Frame::Array { values_start } => match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            continue 'value;
                        }
                        Some(b']') => {
                            self.pos += 1;
                            let elements: Vec<Value> = if *values_start == 0 {
                                // Everything on the stack is this array's: keep the stack
                                // rather than copy it, as for the outermost array of a document.
                                let mut elements = std::mem::take(values);
                                elements.shrink_to_fit();
                                elements
                            } else {
                                // One exact allocation and a copy of the whole run.
                                values.split_off(*values_start)
                            };
                            stack.pop();
                            value = Value::Array(Array::from(elements));
                        }
                        _ => return Err(self.expected("',' or ']' after an array element")),
                    },
                    Frame::Object {
                        values_start,
                        keys_start,
                        guess,
                        matched,
                        slot,
                    } => match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_whitespace();
                            self.read_member_key(guess, matched, &mut keys)?;
                            continue 'value;
                        }
                        Some(b'}') => {
                            self.pos += 1;
                            let (values_start, keys_start, slot) = (*values_start, *keys_start, *slot);
                            let object = match guess.take() {
                                Some(guess) if guess.len() == *matched => {
                                    let object = Object::from_keys_taking(guess, &mut values[values_start..]);
                                    values.truncate(values_start);
                                    object
                                }
                                Some(guess) => {
                                    // Fewer keys than guessed.
                                    keys.extend(guess.iter().take(*matched).cloned());
                                    self.finish_object(&mut keys, keys_start, values, values_start)
                                }
                                None => self.finish_object(&mut keys, keys_start, values, values_start),
                            };
                            self.shapes.predict(slot, object.key_list());
                            stack.pop();
                            value = Value::Object(object);
                        }
                        _ => return Err(self.expected("',' or '}' after an object member")),
                    },
                }
            }
        }
    }

    /// Builds an object from keys on the key stack, sharing a recent key list when one fits.
    fn finish_object(
        &mut self,
        keys: &mut Vec<Str>,
        keys_start: usize,
        values: &mut Vec<Value>,
        values_start: usize,
    ) -> Object {
        if keys_are_simple(&keys[keys_start..]) {
            let list = self.shapes.share(keys.drain(keys_start..));
            let object = Object::from_keys_taking(list, &mut values[values_start..]);
            values.truncate(values_start);
            object
        } else {
            Object::from_read_order(keys.drain(keys_start..), values.drain(values_start..))
        }
    }

    /// Reads the key of an object member and the `:` after it: in place while it matches the
    /// object's guessed key list, else onto the key stack.
    #[inline]
    fn read_member_key(
        &mut self,
        guess: &mut Option<Keys>,
        matched: &mut usize,
        keys: &mut Vec<Str>,
    ) -> Result<(), JsonError> {
        if let Some(list) = guess {
            if let Some((tag, expected)) = list.get_tagged(*matched)
                && self.read_plain_key(tag, expected.bytes())
            {
                *matched += 1;
                return self.read_colon();
            }
            keys.extend(list.iter().take(*matched).cloned());
            *guess = None;
        }
        let key = self.read_key()?;
        keys.push(key);
        Ok(())
    }

    /// Reads `"expected"` when the text has exactly that, which holds no character that JSON
    /// escapes; otherwise reads nothing. `tag` is the key's [`Str::tag`], which holds a short key
    /// whole, so a short key is one comparison of eight bytes of text.
    #[inline]
    fn read_plain_key(&mut self, tag: u64, expected: &[u8]) -> bool {
        if self.peek() != Some(b'"') {
            return false;
        }
        let start = self.pos + 1;
        let len = expected.len();
        let found = match self.bytes.get(start..start + 16) {
            Some(text) if len <= 7 => {
                let word = word_at(text, 0);
                word & ((1 << (8 * len)) - 1) == tag >> 8 && (word >> (8 * len)) as u8 == b'"'
            }
            // Two overlapping words cover 8 to 16 bytes, without a call to `memcmp`.
            Some(text) if len < 16 => {
                word_at(text, 0) == word_at(expected, 0)
                    && word_at(text, len - 8) == word_at(expected, len - 8)
                    && text[len] == b'"'
            }
            _ => self.bytes.get(start..start + len) == Some(expected) && self.bytes.get(start + len) == Some(&b'"'),
        };
        if found {
            self.pos = start + len + 1;
        }
        found
    }

    #[inline]
    fn read_colon(&mut self) -> Result<(), JsonError> {
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.expected("':' after an object key"));
        }
        self.pos += 1;
        Ok(())
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
        let end = start + plain_run(&self.bytes[start..]);
        let plain = match self.bytes.get(end) {
            Some(b'"') => self.keys.get_or_make(&self.bytes[start..end]),
            _ => None,
        };
        let key = match plain {
            Some(key) => {
                self.pos = end + 1;
                key
            }
            None => self.read_string()?,
        };
        self.read_colon()?;
        Ok(key)
    }

    fn read_string(&mut self) -> Result<Str, JsonError> {
        debug_assert_eq!(self.peek(), Some(b'"'));
        let start = self.pos + 1;
        self.pos = start + plain_run(&self.bytes[start..]);
        // Fast path: plain ASCII up to the closing quote.
        match self.peek() {
            Some(b'"') => {
                let raw = &self.bytes[start..self.pos];
                if let Some(text) = self.strings.get_or_make(raw) {
                    self.pos += 1;
                    return Ok(text);
                }
            }
            Some(0x00..=0x1F) => return Err(self.error(JsonErrorKind::ControlCharacter)),
            _ => {}
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
            // Up to the next quote, escape or control character the text is the string itself,
            // and it ends on an ASCII byte, so on a character boundary.
            let end = self.pos + literal_run(&self.bytes[self.pos..]);
            units.extend(self.text[self.pos..end].encode_utf16());
            self.pos = end;
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
                _ => return Err(self.error(JsonErrorKind::ControlCharacter)),
            }
        }
    }
    fn read_number(&mut self) -> Result<f64, JsonError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        // The digits, as long as they fit, and the power of ten they are scaled by.
        let mut mantissa: u64 = 0;
        let mut digits = 0;
        let mut scale: i64 = 0;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while let Some(digit @ b'0'..=b'9') = self.peek() {
                    if digits < 19 {
                        mantissa = mantissa * 10 + u64::from(digit - b'0');
                        digits += 1;
                    } else {
                        scale += 1;
                    }
                    self.pos += 1;
                }
            }
            _ => return Err(self.error(JsonErrorKind::BadNumber)),
        }
        let mut truncated = scale > 0;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                return Err(self.error(JsonErrorKind::BadNumber));
            }
            while let Some(digit @ b'0'..=b'9') = self.peek() {
                if digits < 19 {
                    mantissa = mantissa * 10 + u64::from(digit - b'0');
                    if mantissa != 0 {
                        digits += 1;
                    }
                    scale -= 1;
                } else {
                    truncated = true;
                }
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            let exponent_negative = self.peek() == Some(b'-');
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                return Err(self.error(JsonErrorKind::BadNumber));
            }
            let mut exponent: i64 = 0;
            while let Some(digit @ b'0'..=b'9') = self.peek() {
                // Saturates far beyond any exponent that changes the result.
                exponent = (exponent * 10 + i64::from(digit - b'0')).min(1 << 40);
                self.pos += 1;
            }
            scale += if exponent_negative { -exponent } else { exponent };
        }
        // Clinger's fast path: both operands are exact doubles, so the one rounding IEEE
        // arithmetic does is the correct rounding of the decimal.
        if !truncated && mantissa <= 1 << 53 && (-22..=22).contains(&scale) {
            let magnitude = mantissa as f64;
            let power = EXACT_POWERS_OF_TEN[scale.unsigned_abs() as usize];
            let magnitude = if scale < 0 {
                magnitude / power
            } else {
                magnitude * power
            };
            return Ok(if negative { -magnitude } else { magnitude });
        }
        self.text[start..self.pos]
            .parse::<f64>()
            .map_err(|_| self.error(JsonErrorKind::BadNumber))
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
    let mut writer = Writer::default();
    writer.string(text);
    writer.append_to(out);
}

/// JSON text being written, as bytes. Every piece written is ASCII or a whole UTF-8 character,
/// so the bytes are UTF-8 throughout: they are checked once, at the end, rather than string by
/// string as `String::push_str` would need.
struct Writer {
    out: Vec<u8>,
    /// The most bytes to write; past it the writer stops (see [`Value::to_json_string_within`]).
    limit: usize,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer {
            out: Vec::new(),
            limit: usize::MAX,
        }
    }
}

/// A value whose JSON text is longer than the limit it was written under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonTooLong {
    /// The limit, in bytes.
    pub limit: usize,
}

impl fmt::Display for JsonTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the value's JSON text is longer than {} bytes", self.limit)
    }
}

impl std::error::Error for JsonTooLong {}

impl crate::js::QuoteSink for Writer {
    #[inline]
    fn ascii(&mut self, text: &[u8]) {
        self.out.extend_from_slice(text);
    }

    #[inline]
    fn char(&mut self, ch: char) {
        let mut buffer = [0u8; 4];
        self.out.extend_from_slice(ch.encode_utf8(&mut buffer).as_bytes());
    }
}

impl Writer {
    fn into_string(self) -> String {
        String::from_utf8(self.out).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }

    fn append_to(&self, out: &mut String) {
        out.push_str(&String::from_utf8_lossy(&self.out));
    }

    fn string(&mut self, text: &Str) {
        crate::js::quote(self, text);
    }

    /// Writes `root`; false, writing nothing, for `undefined`. Containers are walked with an
    /// explicit stack, so any depth is safe. Stops once the text passes the limit: a value can
    /// hold one container many times over, so its text can be exponentially longer than the
    /// memory it takes.
    fn value(&mut self, root: &Value) -> Result<bool, JsonTooLong> {
        /// A container being written, and how far.
        enum Open<'v> {
            Array {
                elements: &'v [Value],
                next: usize,
            },
            Object {
                object: &'v Object,
                next: usize,
                first: bool,
            },
        }
        if root.is_undefined() {
            return Ok(false);
        }
        let mut stack: Vec<Open<'_>> = Vec::new();
        let mut pending = Some(root);
        loop {
            if self.out.len() > self.limit {
                return Err(JsonTooLong { limit: self.limit });
            }
            match pending.take() {
                Some(Value::Array(elements)) => {
                    self.out.push(b'[');
                    stack.push(Open::Array {
                        elements: elements.as_slice(),
                        next: 0,
                    });
                }
                Some(Value::Object(object)) => {
                    self.out.push(b'{');
                    stack.push(Open::Object {
                        object,
                        next: 0,
                        first: true,
                    });
                }
                Some(leaf) => self.leaf(leaf),
                None => {}
            }
            let Some(top) = stack.last_mut() else {
                return if self.out.len() > self.limit {
                    Err(JsonTooLong { limit: self.limit })
                } else {
                    Ok(true)
                };
            };
            match top {
                Open::Array { elements, next } => {
                    let Some(element) = elements.get(*next) else {
                        self.out.push(b']');
                        stack.pop();
                        continue;
                    };
                    if *next > 0 {
                        self.out.push(b',');
                    }
                    *next += 1;
                    if element.is_undefined() {
                        self.out.extend_from_slice(b"null");
                    } else {
                        pending = Some(element);
                    }
                }
                Open::Object { object, next, first } => {
                    let object: &Object = object;
                    let values = object.value_slice();
                    while values.get(*next).is_some_and(Value::is_undefined) {
                        *next += 1;
                    }
                    let (Some(value), Some(key)) = (values.get(*next), object.key_list().get(*next)) else {
                        self.out.push(b'}');
                        stack.pop();
                        continue;
                    };
                    if !*first {
                        self.out.push(b',');
                    }
                    *first = false;
                    *next += 1;
                    match key.ascii_bytes() {
                        // Nothing in a plain key needs escaping.
                        Some(bytes) if object.key_list().is_plain() => {
                            self.out.push(b'"');
                            self.out.extend_from_slice(bytes);
                            self.out.extend_from_slice(b"\":");
                        }
                        _ => {
                            self.string(key);
                            self.out.push(b':');
                        }
                    }
                    pending = Some(value);
                }
            }
        }
    }

    /// Writes a value that is not a container (and not `undefined`).
    fn leaf(&mut self, value: &Value) {
        match value {
            Value::Null | Value::Undefined | Value::Array(_) | Value::Object(_) => self.out.extend_from_slice(b"null"),
            Value::Bool(flag) => self.out.extend_from_slice(if *flag { b"true" } else { b"false" }),
            Value::Number(number) if number.is_finite() => write_js_number_into(*number, &mut self.out),
            Value::Number(_) => self.out.extend_from_slice(b"null"),
            Value::String(text) => self.string(text),
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
    ///
    /// The text can be far longer than the value's memory (`[x, x]` nested thirty deep is two
    /// to the thirtieth copies of `x`): where the value is untrusted, write it with
    /// [`Value::to_json_string_within`].
    pub fn to_json_string(&self) -> Option<String> {
        self.to_json_string_within(usize::MAX).unwrap_or_default()
    }

    /// [`Value::to_json_string`], stopping as soon as the text is longer than `max_bytes`.
    ///
    /// # Errors
    ///
    /// [`JsonTooLong`] when the text would be longer than `max_bytes`; the work done is then in
    /// proportion to `max_bytes`, not to the text.
    pub fn to_json_string_within(&self, max_bytes: usize) -> Result<Option<String>, JsonTooLong> {
        let mut writer = Writer {
            out: Vec::new(),
            limit: max_bytes,
        };
        Ok(writer.value(self)?.then(|| writer.into_string()))
    }

    /// Appends the value as `JSON.stringify` would; returns false, writing nothing, for
    /// `undefined`. Unbounded, as [`Value::to_json_string`].
    pub fn write_json(&self, out: &mut String) -> bool {
        let mut writer = Writer::default();
        let written = writer.value(self).unwrap_or_default();
        writer.append_to(out);
        written
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

#[cfg(test)]
mod fast_path_tests {
    use super::*;
    use proptest::prelude::*;

    /// Keys as they appear in JSON text (already escaped where needed): plain ones, array
    /// indices, escapes, wide characters, and one long enough to skip the key cache.
    const KEYS: [&str; 18] = [
        "a",
        "b",
        "price",
        "priced",
        "category",
        "fifteen_chars_x",
        "sixteen_chars_xx",
        "name",
        "0",
        "7",
        "10",
        "01",
        "a\\\"b",
        "\\u0061",
        "caf\u{e9}",
        "tab\\t",
        "a_key_long_enough_to_skip_the_key_cache_entirely",
        "",
    ];

    const LEAVES: [&str; 12] = [
        "1",
        "-7",
        "2.5",
        "1e3",
        "0.1",
        "-12.50",
        "123456789012345678",
        "5e-324",
        "true",
        "null",
        "\"x\"",
        "\"\\u00e9\"",
    ];

    #[derive(Clone, Debug)]
    enum Change {
        Same,
        DropLast,
        AddKey(usize),
        RepeatFirst,
        Swap,
    }

    fn change() -> impl Strategy<Value = Change> {
        prop_oneof![
            6 => Just(Change::Same),
            1 => Just(Change::DropLast),
            1 => (0..KEYS.len()).prop_map(Change::AddKey),
            1 => Just(Change::RepeatFirst),
            1 => Just(Change::Swap),
        ]
    }

    /// Writes an object with `template`'s keys, changed by `change`, and leaf values picked by
    /// `seed`; `nested` puts an object of the next template under one key.
    fn write_object(
        templates: &[Vec<usize>],
        which: usize,
        change: &Change,
        seed: usize,
        nested: bool,
        out: &mut String,
    ) {
        let mut keys = templates[which % templates.len()].clone();
        match change {
            Change::Same => {}
            Change::DropLast => {
                keys.pop();
            }
            Change::AddKey(key) => keys.push(*key),
            Change::RepeatFirst => {
                if let Some(&first) = keys.first() {
                    keys.push(first);
                }
            }
            Change::Swap => {
                if keys.len() >= 2 {
                    keys.swap(0, 1);
                }
            }
        }
        out.push('{');
        for (idx, key) in keys.iter().enumerate() {
            if idx > 0 {
                out.push_str(if seed.is_multiple_of(3) { " , " } else { "," });
            }
            out.push('"');
            out.push_str(KEYS[*key]);
            out.push_str(if seed.is_multiple_of(5) { "\" : " } else { "\":" });
            if nested && idx == keys.len() / 2 {
                write_object(templates, which + 1, &Change::Same, seed + idx, false, out);
            } else if (seed + idx).is_multiple_of(7) {
                out.push_str("[1,{\"a\":2},[]]");
            } else {
                out.push_str(LEAVES[(seed + idx * 5) % LEAVES.len()]);
            }
        }
        out.push('}');
    }

    fn document() -> impl Strategy<Value = String> {
        let templates = prop::collection::vec(prop::collection::vec(0..KEYS.len(), 0..8), 1..4);
        let rows = prop::collection::vec((0..4usize, change(), 0..1000usize, any::<bool>()), 0..24);
        (templates, rows).prop_map(|(templates, rows)| {
            let mut out = String::from("[");
            for (idx, (which, change, seed, nested)) in rows.iter().enumerate() {
                if idx > 0 {
                    out.push(',');
                }
                write_object(&templates, *which, change, *seed, *nested, &mut out);
            }
            out.push(']');
            out
        })
    }

    /// A decimal in JSON's grammar, with runs of digits long enough to leave the fast path.
    fn decimal() -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            "(0|[1-9][0-9]{0,24})",
            prop::option::of("[0-9]{1,25}"),
            prop::option::of(-400..400i32),
        )
            .prop_map(|(negative, int, frac, exp)| {
                let mut text = String::new();
                if negative {
                    text.push('-');
                }
                text.push_str(&int);
                if let Some(frac) = frac {
                    text.push('.');
                    text.push_str(&frac);
                }
                if let Some(exp) = exp {
                    text.push_str(&format!("e{exp}"));
                }
                text
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1_000))]

        /// Objects that share key lists, or break the reader's guess of them, read as
        /// serde_json (a reader with no such guesses) reads them.
        #[test]
        fn shared_shapes_read_like_serde_json(text in document()) {
            let reference = serde_json::from_str::<serde_json::Value>(&text).map(|json| Value::from(&json));
            let read = parse_json(&text);
            prop_assert_eq!(read.as_ref().ok(), reference.as_ref().ok(), "{}", text);
            if let Ok(value) = read {
                let written = value.to_json_string().unwrap_or_default();
                prop_assert_eq!(parse_json(&written).ok(), Some(value));
            }
        }

        #[test]
        fn numbers_read_correctly_rounded(text in decimal()) {
            let expected: f64 = text.parse().unwrap_or(f64::NAN);
            let read = parse_json(&text).ok().and_then(|value| value.as_number());
            prop_assert_eq!(read.map(f64::to_bits), Some(expected.to_bits()), "{}", text);
        }

        #[test]
        fn doubles_read_back_exactly(number in any::<f64>().prop_filter("finite", |number| number.is_finite())) {
            for text in [format!("{number}"), format!("{number:e}"), format!("{number:.3}")] {
                let expected: f64 = text.parse().unwrap_or(f64::NAN);
                let read = parse_json(&text).ok().and_then(|value| value.as_number());
                prop_assert_eq!(read.map(f64::to_bits), Some(expected.to_bits()), "{}", text);
            }
        }
    }

    /// The writer's string escaping, the plain way: character by character.
    fn reference_json_string(text: &Str) -> String {
        let mut out = String::from("\"");
        for decoded in char::decode_utf16(text.code_units()) {
            match decoded {
                Ok('"') => out.push_str("\\\""),
                Ok('\\') => out.push_str("\\\\"),
                Ok('\u{8}') => out.push_str("\\b"),
                Ok('\u{c}') => out.push_str("\\f"),
                Ok('\n') => out.push_str("\\n"),
                Ok('\r') => out.push_str("\\r"),
                Ok('\t') => out.push_str("\\t"),
                Ok(ch) if (ch as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", ch as u32)),
                Ok(ch) => out.push(ch),
                Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
            }
        }
        out.push('"');
        out
    }

    fn units() -> impl Strategy<Value = Vec<u16>> {
        let unit = prop_oneof![
            0u16..0x80,
            Just(0x22),
            Just(0x5C),
            0x80u16..0x800,
            0xD800u16..0xE000,
            any::<u16>()
        ];
        prop::collection::vec(unit, 0..40)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn strings_write_as_json_stringify_writes_them(units in units()) {
            let text = Str::from_utf16(&units);
            let mut out = String::from("x");
            write_json_string(&text, &mut out);
            prop_assert_eq!(&out[1..], reference_json_string(&text));
            prop_assert_eq!(Value::from(text.clone()).to_json_string(), Some(reference_json_string(&text)));
        }

        #[test]
        fn strings_read_back_as_written(units in units(), text in any::<String>()) {
            let original = Str::from_utf16(&units);
            let written = Value::from(original.clone()).to_json_string().unwrap_or_default();
            prop_assert_eq!(parse_json(&written).ok(), Some(Value::from(original)));
            // serde_json writes raw UTF-8 and its own choice of escapes.
            let quoted = serde_json::to_string(&text).unwrap_or_default();
            prop_assert_eq!(parse_json(&quoted).ok(), Some(Value::from(text.as_str())));
            let padded = format!("[{quoted}, {quoted}]");
            prop_assert_eq!(parse_json(&padded).ok(), Some(Value::from(vec![Value::from(text.as_str()); 2])));
        }

        #[test]
        fn numbers_write_as_write_js_number_writes_them(
            number in prop_oneof![
                any::<f64>(),
                any::<i64>().prop_map(|integer| integer as f64),
                (-100_000i32..100_000).prop_map(f64::from),
                Just(-0.0),
                Just(9_007_199_254_740_991.0),
                Just(-9_007_199_254_740_992.0),
                Just(1e21),
            ]
        ) {
            let expected = if number.is_finite() { crate::js_number_to_string(number) } else { "null".to_string() };
            prop_assert_eq!(Value::from(number).to_json_string(), Some(expected));
        }
    }

    #[test]
    fn keys_are_escaped_however_the_object_was_built() {
        let keys = ["plain", "a\"b", "back\\slash", "tab\t", "caf\u{e9}"];
        let mut built = Object::new();
        for key in keys {
            built.insert(Str::from(key), Value::Null);
        }
        let expected = r#"{"plain":null,"a\"b":null,"back\\slash":null,"tab\t":null,"café":null}"#;
        assert_eq!(Value::from(built.clone()).to_json_string().as_deref(), Some(expected));
        let collected: Object = keys.iter().map(|key| (Str::from(*key), Value::Null)).collect();
        assert_eq!(Value::from(collected).to_json_string().as_deref(), Some(expected));
        let mut grown = Object::new();
        grown.insert("plain".into(), Value::Null);
        let shared = grown.clone();
        grown.insert("a\"b".into(), Value::Null);
        assert_eq!(
            Value::from(grown).to_json_string().as_deref(),
            Some(r#"{"plain":null,"a\"b":null}"#)
        );
        assert_eq!(
            Value::from(shared).to_json_string().as_deref(),
            Some(r#"{"plain":null}"#)
        );
    }

    #[test]
    fn guessed_keys_match_only_what_they_decode_from() {
        // U+4141 is stored as the bytes "AA"; a guess must not take the text "AA" for it.
        let value = parse_json("[{\"\u{4141}\":1},{\"AA\":2}]").expect("valid");
        assert_eq!(value.to_json_string().as_deref(), Some("[{\"\u{4141}\":1},{\"AA\":2}]"));
        for text in ["[{\"a\\\"b\":1},{\"a\"b\":1}]", "[{\"tab\\t\":1},{\"tab\t\":1}]"] {
            assert_eq!(
                parse_json(text).map_err(|error| error.code()),
                Err("json-syntax"),
                "{text}"
            );
        }
    }

    #[test]
    fn rows_share_one_key_list() {
        let rows: Vec<String> = (0..60)
            .map(|idx| match idx % 3 {
                0 | 1 => format!(r#"{{"a":{idx},"b":{{"c":{idx}}}}}"#),
                _ => format!(r#"{{"b":{idx},"a":{idx}}}"#),
            })
            .collect();
        let value = parse_json(&format!("[{}]", rows.join(","))).expect("valid");
        let rows = value.as_array().expect("an array");
        let list = |idx: usize| rows[idx].as_object().expect("an object").key_list().clone();
        let inner = |idx: usize| {
            let nested = rows[idx]
                .as_object()
                .and_then(|row| row.get_str("b"))
                .and_then(Value::as_object);
            nested.expect("nested").key_list().clone()
        };
        for idx in 0..60 {
            let (first, nested) = match idx % 3 {
                0 | 1 => (0, Some(0)),
                _ => (2, None),
            };
            assert!(list(idx).ptr_eq(&list(first)), "row {idx}");
            if let Some(nested) = nested {
                assert!(inner(idx).ptr_eq(&inner(nested)), "row {idx}");
            }
        }
        assert!(!list(0).ptr_eq(&list(2)));
    }
}
