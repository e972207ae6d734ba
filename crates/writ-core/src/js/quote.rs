//! A string as `JSON.stringify` quotes it.

use crate::Str;
use crate::json::plain_run;

/// Where [`quote`] writes: a byte buffer, a buffer of UTF-16 code units, or a counter.
pub trait QuoteSink {
    /// ASCII text: the quotes, an escape, or a run of characters that need none.
    fn ascii(&mut self, text: &[u8]);

    /// One character that needs no escape and is not ASCII (never a lone surrogate: those are
    /// escaped).
    fn char(&mut self, ch: char);
}

/// Writes `text` as a JSON string literal, quoted and escaped exactly as the well-formed
/// `JSON.stringify` does: `"` and `\` with a backslash, control characters as `\b`, `\f`, `\n`,
/// `\r`, `\t` or `\u00xx`, lone surrogates as `\udxxx` (lowercase), and everything else as it
/// is.
///
/// ```
/// use writ_core::Str;
/// use writ_core::js::{QuoteSink, quote};
///
/// struct Text(String);
/// impl QuoteSink for Text {
///     fn ascii(&mut self, text: &[u8]) {
///         self.0.extend(text.iter().map(|&byte| char::from(byte)));
///     }
///     fn char(&mut self, ch: char) {
///         self.0.push(ch);
///     }
/// }
///
/// let mut out = Text(String::new());
/// quote(&mut out, &Str::from_utf16(&[0x61, 0x0A, 0xD800, 0xE9]));
/// assert_eq!(out.0, r#""a\n\ud800é""#);
/// ```
#[inline]
pub fn quote<S: QuoteSink + ?Sized>(sink: &mut S, text: &Str) {
    sink.ascii(b"\"");
    if let Some(mut rest) = text.ascii_bytes() {
        loop {
            let run = plain_run(rest);
            sink.ascii(&rest[..run]);
            let Some(&byte) = rest.get(run) else { break };
            escape(sink, u16::from(byte));
            rest = &rest[run + 1..];
        }
    } else {
        let mut units = text.code_units();
        while let Some(unit) = units.next() {
            let code_point = match unit {
                0x20..=0x7F if unit != 0x22 && unit != 0x5C => {
                    sink.ascii(&[unit as u8]);
                    continue;
                }
                0xD800..=0xDBFF => match units.clone().next() {
                    Some(trail @ 0xDC00..=0xDFFF) => {
                        units.next();
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(trail) - 0xDC00)
                    }
                    _ => {
                        escape(sink, unit);
                        continue;
                    }
                },
                0x80..=0xD7FF | 0xE000..=0xFFFF => u32::from(unit),
                _ => {
                    // Control characters, `"`, `\` and lone trail surrogates.
                    escape(sink, unit);
                    continue;
                }
            };
            if let Some(ch) = char::from_u32(code_point) {
                sink.char(ch);
            }
        }
    }
    sink.ascii(b"\"");
}

/// The escape of one code unit: `"`, `\`, a control character or a lone surrogate.
fn escape<S: QuoteSink + ?Sized>(sink: &mut S, unit: u16) {
    let short: &[u8] = match unit {
        0x22 => b"\\\"",
        0x5C => b"\\\\",
        0x08 => b"\\b",
        0x0C => b"\\f",
        0x0A => b"\\n",
        0x0D => b"\\r",
        0x09 => b"\\t",
        _ => {
            /// Hex digits, lowercase as JavaScript writes them.
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let digit = |shift: u16| HEX[usize::from((unit >> shift) & 0xF)];
            sink.ascii(&[b'\\', b'u', digit(12), digit(8), digit(4), digit(0)]);
            return;
        }
    };
    sink.ascii(short);
}
