//! `toLocaleUpperCase` and `toLocaleLowerCase`: ICU4X's case mapping, with V8's choice of language rules.

use icu::casemap::CaseMapper;
use icu::locale::LanguageIdentifier;
use writ_core::{Str, Value};

use crate::builtins::string::newer_than_node;
use crate::error::Result;
use crate::interp::Cx;

use super::tags::requested_locales;

/// How much text a case mapping maps before it reads the clock (at the next space).
const CHARS_PER_CASE_PIECE: usize = 8192;

/// `text.toLocaleUpperCase(locales)` (`upper`) or `text.toLocaleLowerCase(locales)`.
///
/// As in V8, only the first locale's language counts, and only Turkish, Azeri, Lithuanian and
/// Greek have rules of their own; every other language maps as `toUpperCase` does.
pub(crate) fn to_locale_case(cx: &mut Cx<'_>, text: &Str, locales: &Value, upper: bool) -> Result<Str> {
    let requested = requested_locales(cx, locales)?;
    cx.text(text.len_utf16())?;
    let language = requested.first().map_or("en", |locale| locale.id.language.as_str());
    let rules = match language {
        "tr" | "az" | "lt" | "el" => language
            .parse::<LanguageIdentifier>()
            .unwrap_or(LanguageIdentifier::UNKNOWN),
        _ => LanguageIdentifier::UNKNOWN,
    };
    let special = rules != LanguageIdentifier::UNKNOWN;
    if let Some(ascii) = text.as_ascii_str()
        && !special
    {
        // ASCII maps to ASCII, the same way in every language but Turkish and Azeri.
        let mapped = if upper {
            ascii.to_ascii_uppercase()
        } else {
            ascii.to_ascii_lowercase()
        };
        cx.string(mapped.len())?;
        return Ok(Str::from_ascii(mapped.as_bytes()).unwrap_or_default());
    }
    let units = text.to_utf16();
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mapper = CaseMapper::new();
    let map = |segment: &str| -> String {
        if upper {
            mapper.uppercase_to_string(segment, &rules).into_owned()
        } else {
            mapper.lowercase_to_string(segment, &rules).into_owned()
        }
    };
    let newer = |text: &str| text.chars().any(|c| newer_than_node(u32::from(c)));
    // Maps a run of characters node knows. A character that maps to one node does not know
    // (Unicode 18 gave some old letters a case pair) keeps its case there, as an uncased
    // boundary does.
    let map_run = |run: &str, out: &mut Vec<u16>| {
        let mapped = map(run);
        if !newer(&mapped) {
            out.extend(mapped.encode_utf16());
            return;
        }
        let mut piece = String::new();
        let mut buffer = [0u8; 4];
        for c in run.chars() {
            if newer(&map(c.encode_utf8(&mut buffer))) {
                out.extend(map(&piece).encode_utf16());
                piece.clear();
                let mut pair = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut pair));
            } else {
                piece.push(c);
            }
        }
        out.extend(map(&piece).encode_utf16());
    };
    let mut segment = String::new();
    let mut since_check = 0usize;
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            // A space is neither cased nor case-ignorable: no casing context crosses it, so the
            // text before it can be mapped now, and the clock read, in long text.
            Ok(' ') if since_check >= CHARS_PER_CASE_PIECE => {
                map_run(&segment, &mut out);
                segment.clear();
                out.push(u16::from(b' '));
                since_check = 0;
                cx.check_clock()?;
                cx.meter.check_string_length(out.len())?;
            }
            Ok(c) if !newer_than_node(u32::from(c)) => {
                segment.push(c);
                since_check += 1;
            }
            // What node's Unicode does not have has no case there, and breaks the casing
            // context as a lone surrogate or the end of the text does: it is copied as it is.
            Ok(c) => {
                map_run(&segment, &mut out);
                segment.clear();
                let mut pair = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut pair));
            }
            Err(lone) => {
                map_run(&segment, &mut out);
                segment.clear();
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    map_run(&segment, &mut out);
    cx.string(out.len())?;
    Ok(Str::from_utf16(&out))
}
