//! JavaScript white space and array-index keys.

use crate::Str;

/// Whether `unit` is JavaScript white space or a line terminator (ECMA-262's WhiteSpace and
/// LineTerminator): what `String.prototype.trim` removes, what `\s` matches, and what
/// `StringToNumber` and `parseInt` skip.
///
/// U+180E (Mongolian vowel separator), U+0085 (next line) and U+200B (zero width space) are
/// not in the set.
#[inline]
pub fn is_space(unit: u16) -> bool {
    match unit {
        0x09..=0x0D | 0x20 => true,
        0..=0x9F => false,
        _ => matches!(
            unit,
            0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF
        ),
    }
}

/// The array index `key` spells canonically (`"0"`, `"17"`, `"4294967294"`; not `"01"`,
/// `"-0"`, `"+1"` or `"4294967295"`), if it spells one: an array index is an integer from 0 to
/// 2^32 - 2 whose `String` is the key.
#[inline]
pub fn array_index(key: &Str) -> Option<u32> {
    let bytes = key.ascii_bytes()?;
    if bytes.is_empty() || bytes.len() > 10 || (bytes.len() > 1 && bytes[0] == b'0') {
        return None;
    }
    let mut number: u64 = 0;
    for &byte in bytes {
        if !byte.is_ascii_digit() {
            return None;
        }
        number = number * 10 + u64::from(byte - b'0');
    }
    // 2^32 - 1 is a valid length, not an index.
    if number < u64::from(u32::MAX) {
        Some(number as u32)
    } else {
        None
    }
}
