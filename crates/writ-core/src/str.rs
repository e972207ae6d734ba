//! `Str`: an immutable, shared string of UTF-16 code units, as JavaScript sees strings.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use triomphe::ThinArc;

/// An immutable, reference-counted string of UTF-16 code units.
///
/// JavaScript strings are sequences of UTF-16 code units and may hold lone surrogates, which a Rust
/// `String` cannot. `Str` stores each string in one of two canonical forms:
///
/// - **ASCII**: every code unit is below 0x80, stored one byte per unit. Length, indexing and
///   slicing are byte operations, and the bytes are also valid UTF-8, so the string reads as a
///   `&str` for free. Most keys and most data are ASCII.
/// - **Wide**: any other string, stored as UTF-16 code units (two bytes each, little-endian).
///   Length and indexing stay O(1); a lone surrogate is just a code unit.
///
/// The form is a function of the content, so two equal strings always have the same form, and
/// equality and hashing compare bytes. Ordering (`Ord`) is UTF-16 code-unit order, the order of
/// JavaScript's `<` and of the default `Array.prototype.sort`, which differs from Rust's `str`
/// order when an astral character meets U+E000..U+FFFF.
///
/// A `Str` is one pointer wide and cloning it is a reference-count increment.
///
/// # Example
///
/// ```
/// use writ_core::Str;
///
/// let s = Str::from("h\u{e9}llo \u{1F600}");
/// assert_eq!(s.len_utf16(), 8); // the emoji is a surrogate pair
/// assert_eq!(s.code_unit(1), Some(0xE9));
/// let lone = s.slice(6, 7); // half of the pair
/// assert!(!lone.is_well_formed());
/// assert_eq!(lone.to_string_lossy(), "\u{FFFD}");
/// ```
#[derive(Clone)]
pub struct Str(ThinArc<u64, u8>);

/// The form a string's bytes are in, read from its header word.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Ascii,
    /// UTF-16 code units; `well_formed` is false when a lone surrogate is present.
    Wide {
        well_formed: bool,
    },
}

/// Header bit of a wide string; never set for ASCII, whose header bytes are all below 0x80.
const WIDE: u64 = 1 << 63;
/// Header bit of a wide string without lone surrogates.
const WELL_FORMED: u64 = 1 << 62;

/// The header word of the ASCII string `bytes`: its length (capped at 255) in the low byte and
/// its first seven bytes above. Object lookups compare it before any bytes, and for a key of up
/// to seven bytes it is the whole key, so one integer comparison decides.
#[inline]
pub(crate) fn ascii_tag(bytes: &[u8]) -> u64 {
    prefix_tag(bytes, bytes.len())
}

/// [`ascii_tag`] of an ASCII string of `len` bytes that starts with `prefix` (which holds at
/// least its first seven bytes, or all of them).
#[inline]
fn prefix_tag(prefix: &[u8], len: usize) -> u64 {
    let mut head = [0u8; 8];
    let n = prefix.len().min(7);
    head[1..=n].copy_from_slice(&prefix[..n]);
    head[0] = len.min(255) as u8;
    u64::from_le_bytes(head)
}

/// True when `tag` (of any string) holds the whole string: ASCII of at most seven bytes. Such a
/// string equals another exactly when their tags are equal.
#[inline]
pub(crate) fn tag_is_whole(tag: u64) -> bool {
    tag & WIDE == 0 && tag & 0xFF <= 7
}

/// The header word of a wide string: length and first three code units, the form bits on top.
fn wide_tag(units: &[u16], well_formed: bool) -> u64 {
    wide_prefix_tag(units.iter().copied(), units.len(), well_formed)
}

/// [`wide_tag`] of a wide string of `len` code units that starts with `prefix`.
pub(crate) fn wide_prefix_tag(prefix: impl Iterator<Item = u16>, len: usize, well_formed: bool) -> u64 {
    let mut tag = len.min(255) as u64 | WIDE;
    for (idx, unit) in prefix.take(3).enumerate() {
        tag |= u64::from(unit) << (8 + 16 * idx);
    }
    if well_formed {
        tag |= WELL_FORMED;
    }
    tag
}

const _: () = assert!(std::mem::size_of::<Str>() == 8);

fn is_lead(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

fn is_trail(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

fn units_well_formed(units: &[u16]) -> bool {
    let mut idx = 0;
    while idx < units.len() {
        let unit = units[idx];
        if is_lead(unit) {
            if idx + 1 < units.len() && is_trail(units[idx + 1]) {
                idx += 2;
                continue;
            }
            return false;
        }
        if is_trail(unit) {
            return false;
        }
        idx += 1;
    }
    true
}

impl Str {
    /// The empty string; shared, so creating it does not allocate.
    pub fn empty() -> Str {
        static EMPTY: OnceLock<Str> = OnceLock::new();
        EMPTY
            .get_or_init(|| Str(ThinArc::from_header_and_slice(ascii_tag(&[]), &[])))
            .clone()
    }

    /// Makes a string from ASCII bytes.
    ///
    /// Returns `None` when a byte is 0x80 or above.
    pub fn from_ascii(bytes: &[u8]) -> Option<Str> {
        if !bytes.is_ascii() {
            return None;
        }
        if bytes.is_empty() {
            return Some(Str::empty());
        }
        Some(Str(ThinArc::from_header_and_slice(ascii_tag(bytes), bytes)))
    }

    /// Makes a string from UTF-16 code units, lone surrogates included.
    pub fn from_utf16(units: &[u16]) -> Str {
        if units.iter().all(|&unit| unit < 0x80) {
            if units.is_empty() {
                return Str::empty();
            }
            let mut head = [0u8; 7];
            for (byte, &unit) in head.iter_mut().zip(units) {
                *byte = unit as u8;
            }
            let tag = prefix_tag(&head[..units.len().min(7)], units.len());
            return Str(ThinArc::from_header_and_iter(tag, units.iter().map(|&unit| unit as u8)));
        }
        let tag = wide_tag(units, units_well_formed(units));
        // Bytes laid out first and copied in one go: `ThinArc` fills from an iterator an item
        // at a time.
        let mut bytes = [0u8; 128];
        if let Some(short) = bytes.get_mut(..units.len() * 2) {
            for (pair, unit) in short.chunks_exact_mut(2).zip(units) {
                pair.copy_from_slice(&unit.to_le_bytes());
            }
            return Str(ThinArc::from_header_and_slice(tag, short));
        }
        let bytes: Vec<u8> = units.iter().flat_map(|unit| unit.to_le_bytes()).collect();
        Str(ThinArc::from_header_and_slice(tag, &bytes))
    }

    #[inline]
    fn form(&self) -> Form {
        let tag = self.tag();
        if tag & WIDE == 0 {
            Form::Ascii
        } else {
            Form::Wide {
                well_formed: tag & WELL_FORMED != 0,
            }
        }
    }

    /// A summary of the content that equal strings share: see [`ascii_tag`]. For a wide string
    /// it holds the length and the first three code units, with the top bit set.
    #[inline]
    pub(crate) fn tag(&self) -> u64 {
        self.0.header.header
    }

    /// The stored bytes: the characters of an ASCII string, little-endian code units of a wide one.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0.slice
    }

    /// The number of UTF-16 code units: JavaScript's `length`.
    #[inline]
    pub fn len_utf16(&self) -> usize {
        match self.form() {
            Form::Ascii => self.bytes().len(),
            Form::Wide { .. } => self.bytes().len() / 2,
        }
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// True when every code unit is ASCII.
    #[inline]
    pub fn is_ascii(&self) -> bool {
        self.tag() & WIDE == 0
    }

    /// True when the string holds no lone surrogate: JavaScript's `isWellFormed()`.
    pub fn is_well_formed(&self) -> bool {
        match self.form() {
            Form::Ascii => true,
            Form::Wide { well_formed } => well_formed,
        }
    }

    /// The code unit at `idx`, or `None` past the end: JavaScript's `charCodeAt`.
    #[inline]
    pub fn code_unit(&self, idx: usize) -> Option<u16> {
        let bytes = self.bytes();
        match self.form() {
            Form::Ascii => bytes.get(idx).map(|&byte| u16::from(byte)),
            Form::Wide { .. } => {
                let at = idx.checked_mul(2)?;
                Some(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
            }
        }
    }

    /// The code units in order.
    pub fn code_units(&self) -> CodeUnits<'_> {
        match self.form() {
            Form::Ascii => CodeUnits::Ascii(self.bytes().iter()),
            Form::Wide { .. } => CodeUnits::Wide(self.bytes().chunks_exact(2)),
        }
    }

    /// The string as `&str` when it is ASCII, without copying.
    #[inline]
    pub fn as_ascii_str(&self) -> Option<&str> {
        match self.form() {
            // ASCII bytes are always valid UTF-8, so this never fails.
            Form::Ascii => std::str::from_utf8(self.bytes()).ok(),
            Form::Wide { .. } => None,
        }
    }

    /// The bytes of an ASCII string, without the UTF-8 check [`Str::as_ascii_str`] makes.
    #[inline]
    pub fn ascii_bytes(&self) -> Option<&[u8]> {
        match self.form() {
            Form::Ascii => Some(self.bytes()),
            Form::Wide { .. } => None,
        }
    }

    /// The string as UTF-8, with each lone surrogate replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        if let Some(text) = self.as_ascii_str() {
            return Cow::Borrowed(text);
        }
        Cow::Owned(
            char::decode_utf16(self.code_units())
                .map(|decoded| decoded.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect(),
        )
    }

    /// The string as UTF-8, or `None` when it holds a lone surrogate.
    pub fn to_str(&self) -> Option<Cow<'_, str>> {
        if self.is_well_formed() {
            Some(self.to_string_lossy())
        } else {
            None
        }
    }

    /// Copies the code units into a vector.
    pub fn to_utf16(&self) -> Vec<u16> {
        self.code_units().collect()
    }

    /// The code units from `start` to `end` (exclusive), clamped to the string.
    ///
    /// Like JavaScript's `slice` with non-negative indices, this may split a surrogate pair.
    pub fn slice(&self, start: usize, end: usize) -> Str {
        let len = self.len_utf16();
        let end = end.min(len);
        let start = start.min(end);
        if start == 0 && end == len {
            return self.clone();
        }
        match self.form() {
            Form::Ascii => Str::from_ascii(&self.bytes()[start..end]).unwrap_or_else(Str::empty),
            Form::Wide { .. } => {
                // Straight from the stored bytes: the cost is the slice's length, not its offset.
                let units: Vec<u16> = self.bytes()[start * 2..end * 2]
                    .chunks_exact(2)
                    .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
                    .collect();
                Str::from_utf16(&units)
            }
        }
    }

    /// `self` followed by `other`: JavaScript's `+` on strings.
    ///
    /// A lead surrogate at the end of `self` and a trail surrogate at the start of `other` join
    /// into one well-formed pair, as they do in JavaScript.
    pub fn concat(&self, other: &Str) -> Str {
        if other.is_empty() {
            return self.clone();
        }
        if self.is_empty() {
            return other.clone();
        }
        if self.is_ascii() && other.is_ascii() {
            let len = self.bytes().len() + other.bytes().len();
            let mut head = [0u8; 7];
            for (byte, &unit) in head.iter_mut().zip(self.bytes().iter().chain(other.bytes())) {
                *byte = unit;
            }
            let tag = prefix_tag(&head[..len.min(7)], len);
            return Str(ThinArc::from_header_and_iter(
                tag,
                KnownLength {
                    inner: self.bytes().iter().chain(other.bytes()).copied(),
                    remaining: len,
                },
            ));
        }
        let mut units = Vec::with_capacity(self.len_utf16() + other.len_utf16());
        units.extend(self.code_units());
        units.extend(other.code_units());
        Str::from_utf16(&units)
    }

    /// True when the string equals `text`.
    #[inline]
    pub fn eq_str(&self, text: &str) -> bool {
        match self.form() {
            Form::Ascii => self.bytes() == text.as_bytes(),
            Form::Wide { .. } => !text.is_ascii() && self.code_units().eq(text.encode_utf16()),
        }
    }

    /// True when both handles point at the same allocation.
    #[inline]
    pub fn ptr_eq(&self, other: &Str) -> bool {
        std::ptr::eq(&self.0.header, &other.0.header)
    }

    /// The address of the allocation this handle points at: equal for two handles exactly
    /// when [`Str::ptr_eq`] holds, while both are alive. For telling apart the strings a walk
    /// meets without comparing their text.
    #[inline]
    pub fn identity(&self) -> usize {
        std::ptr::from_ref(&self.0.header) as usize
    }
}

/// An iterator whose length is known up front, which `ThinArc` needs to allocate once.
struct KnownLength<I> {
    inner: I,
    remaining: usize,
}

impl<I: Iterator<Item = u8>> Iterator for KnownLength<I> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let byte = self.inner.next()?;
        self.remaining -= 1;
        Some(byte)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<I: Iterator<Item = u8>> ExactSizeIterator for KnownLength<I> {}

/// The code units of a [`Str`], in order.
#[derive(Clone, Debug)]
pub enum CodeUnits<'a> {
    /// Units of an ASCII string.
    #[doc(hidden)]
    Ascii(std::slice::Iter<'a, u8>),
    /// Units of a wide string.
    #[doc(hidden)]
    Wide(std::slice::ChunksExact<'a, u8>),
}

impl Iterator for CodeUnits<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        match self {
            CodeUnits::Ascii(bytes) => bytes.next().map(|&byte| u16::from(byte)),
            CodeUnits::Wide(pairs) => pairs.next().map(|pair| u16::from_le_bytes([pair[0], pair[1]])),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            CodeUnits::Ascii(bytes) => bytes.size_hint(),
            CodeUnits::Wide(pairs) => pairs.size_hint(),
        }
    }
}

impl ExactSizeIterator for CodeUnits<'_> {}

impl From<&str> for Str {
    fn from(text: &str) -> Str {
        if text.is_ascii() {
            return Str::from_ascii(text.as_bytes()).unwrap_or_else(Str::empty);
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        Str::from_utf16(&units)
    }
}

impl From<String> for Str {
    fn from(text: String) -> Str {
        Str::from(text.as_str())
    }
}

impl From<char> for Str {
    fn from(ch: char) -> Str {
        let mut buffer = [0u16; 2];
        Str::from_utf16(ch.encode_utf16(&mut buffer))
    }
}

impl PartialEq for Str {
    #[inline]
    fn eq(&self, other: &Str) -> bool {
        // Equal tags imply equal forms, and unequal tags unequal strings.
        self.ptr_eq(other) || (self.tag() == other.tag() && self.bytes() == other.bytes())
    }
}

impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The form is canonical, so equal strings have equal bytes and an equal form.
        state.write_u8(self.is_ascii() as u8);
        state.write(self.bytes());
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> Ordering {
        if self.is_ascii() && other.is_ascii() {
            return self.bytes().cmp(other.bytes());
        }
        self.code_units().cmp(other.code_units())
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Str {
    /// Writes the string as UTF-8, with each lone surrogate replaced by U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl fmt::Debug for Str {
    /// Writes the string as a JSON string literal, so lone surrogates stay visible.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        crate::json::write_json_string(self, &mut out);
        f.write_str(&out)
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_canonical() {
        let ascii = Str::from("abc");
        let via_units = Str::from_utf16(&[0x61, 0x62, 0x63]);
        assert!(ascii.is_ascii() && via_units.is_ascii());
        assert_eq!(ascii, via_units);
        let wide = Str::from("\u{e9}");
        assert!(!wide.is_ascii());
        assert_eq!(wide, Str::from_utf16(&[0xE9]));
    }

    #[test]
    fn utf16_view_counts_code_units() {
        let s = Str::from("a\u{1F600}b");
        assert_eq!(s.len_utf16(), 4);
        assert_eq!(s.code_unit(1), Some(0xD83D));
        assert_eq!(s.code_unit(2), Some(0xDE00));
        assert_eq!(s.code_unit(4), None);
        assert!(s.is_well_formed());
        let lead = s.slice(0, 2);
        assert!(!lead.is_well_formed());
        let trail = s.slice(2, 4);
        let joined = lead.concat(&trail);
        assert!(joined.is_well_formed());
        assert_eq!(joined, s);
    }

    #[test]
    fn order_is_utf16_code_unit_order() {
        let astral = Str::from("\u{1F600}");
        let private = Str::from("\u{E000}");
        // Rust's str order puts U+E000 first; JavaScript puts the surrogate pair first.
        assert!("\u{E000}" < "\u{1F600}");
        assert!(astral < private);
        let order = |a: &str, b: &str| Str::from(a).cmp(&Str::from(b));
        assert_eq!(order("a", "b"), Ordering::Less);
        assert_eq!(order("ab", "a"), Ordering::Greater);
        assert_eq!(order("Z", "\u{e9}"), Ordering::Less);
    }

    #[test]
    fn lossy_and_checked_views() {
        let lone = Str::from_utf16(&[0x61, 0xD800]);
        assert_eq!(lone.to_string_lossy(), "a\u{FFFD}");
        assert!(lone.to_str().is_none());
        assert_eq!(Str::from("\u{e9}t\u{e9}").to_str().as_deref(), Some("\u{e9}t\u{e9}"));
        assert!(Str::from("x").eq_str("x"));
        assert!(!Str::from("x").eq_str("\u{e9}"));
        assert!(Str::from("\u{e9}").eq_str("\u{e9}"));
    }
}

#[cfg(test)]
mod tag_tests {
    use super::*;
    use proptest::prelude::*;

    fn units() -> impl Strategy<Value = Vec<u16>> {
        prop_oneof![
            prop::collection::vec(0x20u16..0x7F, 0..300),
            prop::collection::vec(
                prop_oneof![0x20u16..0x7F, Just(0xE9), Just(0xD83D), Just(0xDE00), any::<u16>()],
                0..12
            ),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1_000))]

        /// However a string is made, equal content means an equal header word, which lookups
        /// and equality rely on.
        #[test]
        fn every_way_of_making_a_string_agrees(units in units(), split in any::<prop::sample::Index>()) {
            let direct = Str::from_utf16(&units);
            let at = split.index(units.len() + 1);
            let joined = Str::from_utf16(&units[..at]).concat(&Str::from_utf16(&units[at..]));
            let mut padded = vec![0x61];
            padded.extend_from_slice(&units);
            padded.push(0x62);
            let sliced = Str::from_utf16(&padded).slice(1, units.len() + 1);
            let mut made = vec![joined, sliced];
            if let Ok(text) = String::from_utf16(&units) {
                made.push(Str::from(text.as_str()));
                prop_assert!(direct.eq_str(&text));
            }
            if units.iter().all(|&unit| unit < 0x80) {
                let bytes: Vec<u8> = units.iter().map(|&unit| unit as u8).collect();
                made.extend(Str::from_ascii(&bytes));
                prop_assert_eq!(direct.tag(), ascii_tag(&bytes));
            }
            for other in &made {
                prop_assert_eq!(other.tag(), direct.tag());
                prop_assert_eq!(other, &direct);
                prop_assert_eq!(other.is_well_formed(), direct.is_well_formed());
            }
            prop_assert_eq!(direct.is_ascii(), units.iter().all(|&unit| unit < 0x80));
            prop_assert_eq!(direct.is_well_formed(), String::from_utf16(&units).is_ok());
            prop_assert_eq!(direct.to_utf16(), units);
        }

        #[test]
        fn a_whole_tag_decides_equality(a in "[a-c]{0,9}", b in "[a-c]{0,9}") {
            let (a, b) = (Str::from(a.as_str()), Str::from(b.as_str()));
            if tag_is_whole(a.tag()) {
                prop_assert_eq!(a.tag() == b.tag(), a == b);
            }
        }
    }
}
