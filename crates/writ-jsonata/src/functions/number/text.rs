//! JavaScript's string operations over UTF-16 code units, with their exact edge behaviour
//! (clamping, swapped bounds, negative offsets, empty separators), for the picture-string code
//! that jsonata-js writes with `indexOf`, `substring`, `slice`, `substr` and `split`.

/// `haystack.indexOf(needle, from)`: an empty needle is found at `from` (clamped).
pub(in crate::functions) fn index_of(haystack: &[u16], needle: &[u16], from: usize) -> Option<usize> {
    let from = from.min(haystack.len());
    let rest = haystack.get(from..)?;
    match needle {
        [] => Some(from),
        [unit] => rest.iter().position(|u| u == unit).map(|i| i + from),
        _ => matches(rest, needle).next().map(|i| i + from),
    }
}

/// `haystack.lastIndexOf(needle)`: an empty needle is found at the end.
pub(in crate::functions) fn last_index_of(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    match needle {
        [] => Some(haystack.len()),
        [unit] => haystack.iter().rposition(|u| u == unit),
        _ => matches(haystack, needle).last(),
    }
}

/// Where `needle` (two units or more) occurs in `haystack`, overlaps included, found by
/// Knuth–Morris–Pratt in time linear in both: pictures and their options are untrusted, and
/// a naive search is quadratic.
fn matches<'a>(haystack: &'a [u16], needle: &'a [u16]) -> impl Iterator<Item = usize> + 'a {
    // A needle longer than the haystack is not there: no table for it.
    let haystack = if needle.len() > haystack.len() { &[] } else { haystack };
    // `fallback[k]`: the longest proper border of `needle[..=k]`.
    let mut fallback = vec![0usize; if haystack.is_empty() { 0 } else { needle.len() }];
    let mut k = 0;
    for i in 1..fallback.len() {
        while k > 0 && needle[i] != needle[k] {
            k = fallback[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fallback[i] = k;
    }
    let mut matched = 0;
    haystack.iter().enumerate().filter_map(move |(i, unit)| {
        while matched > 0 && needle[matched] != *unit {
            matched = fallback[matched - 1];
        }
        if needle[matched] == *unit {
            matched += 1;
        }
        (matched == needle.len()).then(|| {
            matched = fallback[matched - 1];
            i + 1 - needle.len()
        })
    })
}

/// `haystack.indexOf(needle) !== -1`.
pub(in crate::functions) fn contains(haystack: &[u16], needle: &[u16]) -> bool {
    index_of(haystack, needle, 0).is_some()
}

/// `s.charAt(i)`: one unit, or nothing past either end (`i` may be negative).
pub(in crate::functions) fn char_at(s: &[u16], i: i64) -> &[u16] {
    match usize::try_from(i) {
        Ok(i) if i < s.len() => &s[i..=i],
        _ => &[],
    }
}

/// `s.substring(a, b)`: both clamped to the string, swapped when out of order.
pub(in crate::functions) fn substring(s: &[u16], a: i64, b: i64) -> &[u16] {
    let len = s.len() as i64;
    let (a, b) = (a.clamp(0, len) as usize, b.clamp(0, len) as usize);
    &s[a.min(b)..a.max(b)]
}

/// `s.slice(a, b)`: negative offsets count from the end; an empty result when `a >= b`.
pub(in crate::functions) fn slice(s: &[u16], a: i64, b: i64) -> &[u16] {
    let len = s.len() as i64;
    let resolve = |i: i64| if i < 0 { (len + i).max(0) } else { i.min(len) } as usize;
    let (a, b) = (resolve(a), resolve(b));
    if a < b { &s[a..b] } else { &[] }
}

/// `s.substr(start)` followed by the part before it, as `s.substr(0, start)`: where jsonata-js
/// inserts a separator at `start`, which may be negative or past the end.
pub(in crate::functions) fn insert_at(s: &[u16], start: i64, insert: &[u16]) -> Vec<u16> {
    let len = s.len() as i64;
    // `substr(0, start)`: a non-positive length is empty.
    let head = &s[..start.clamp(0, len) as usize];
    // `substr(start)`: a negative start counts from the end.
    let from = if start < 0 {
        (len + start).max(0)
    } else {
        start.min(len)
    } as usize;
    let mut out = Vec::with_capacity(head.len() + insert.len() + s.len() - from);
    out.extend_from_slice(head);
    out.extend_from_slice(insert);
    out.extend_from_slice(&s[from..]);
    out
}

/// `s.split(separator)` with a string separator: an empty separator splits into units (and
/// an empty string into nothing).
pub(in crate::functions) fn split<'a>(s: &'a [u16], separator: &[u16]) -> Vec<&'a [u16]> {
    if separator.is_empty() {
        return s.chunks(1).collect();
    }
    let mut parts = Vec::new();
    let mut start = 0;
    while let Some(at) = index_of(s, separator, start) {
        parts.push(&s[start..at]);
        start = at + separator.len();
    }
    parts.push(&s[start..]);
    parts
}

/// `s.split(separator).join(with)`: every occurrence replaced.
pub(in crate::functions) fn replace_all(s: &[u16], separator: &[u16], with: &[u16]) -> Vec<u16> {
    split(s, separator).join(with)
}

/// `s.replace(pattern, replacement)` with a string pattern: the first occurrence only, and
/// the replacement's `$$`, `$&`, `` $` `` and `$'` patterns expanded.
pub(in crate::functions) fn replace_first(s: &[u16], pattern: &[u16], replacement: &[u16]) -> Vec<u16> {
    let Some(at) = index_of(s, pattern, 0) else {
        return s.to_vec();
    };
    let end = at + pattern.len();
    let mut out = s[..at].to_vec();
    let mut i = 0;
    while let Some(&unit) = replacement.get(i) {
        let next = replacement.get(i + 1).copied();
        match (unit, next) {
            (0x24, Some(0x24)) => out.push(0x24),
            (0x24, Some(0x26)) => out.extend_from_slice(pattern),
            (0x24, Some(0x60)) => out.extend_from_slice(&s[..at]),
            (0x24, Some(0x27)) => out.extend_from_slice(&s[end..]),
            _ => {
                out.push(unit);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    out.extend_from_slice(&s[end..]);
    out
}

/// The code points of `s` as `Array.from(s)` yields them: pairs joined, lone surrogates alone.
pub(in crate::functions) fn code_points(s: &[u16]) -> Vec<u32> {
    char::decode_utf16(s.iter().copied())
        .map(|r| r.map_or_else(|lone| u32::from(lone.unpaired_surrogate()), u32::from))
        .collect()
}

/// `String.fromCodePoint(cp)` appended to `out` (`cp` at most 0x10FFFF).
pub(in crate::functions) fn push_code_point(out: &mut Vec<u16>, cp: u32) {
    match char::from_u32(cp) {
        Some(c) => {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
        }
        // A lone surrogate is its own unit.
        None => out.push(cp as u16),
    }
}

/// `s` as UTF-16 units.
pub(in crate::functions) fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// ASCII letters upper-cased, everything else kept (`toUpperCase` on text that is ASCII).
pub(in crate::functions) fn ascii_upper(s: &[u16]) -> Vec<u16> {
    s.iter()
        .map(|&u| if (0x61..=0x7A).contains(&u) { u - 0x20 } else { u })
        .collect()
}

/// ASCII letters lower-cased, everything else kept.
pub(in crate::functions) fn ascii_lower(s: &[u16]) -> Vec<u16> {
    s.iter()
        .map(|&u| if (0x41..=0x5A).contains(&u) { u + 0x20 } else { u })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        units(s)
    }

    fn s(v: &[u16]) -> String {
        String::from_utf16_lossy(v)
    }

    #[test]
    fn search_like_javascript() {
        assert_eq!(index_of(&u("abcabc"), &u("c"), 3), Some(5));
        assert_eq!(index_of(&u("abc"), &u(""), 9), Some(3));
        assert_eq!(index_of(&u("abc"), &u("d"), 0), None);
        assert_eq!(last_index_of(&u("abcabc"), &u("b")), Some(4));
        assert_eq!(last_index_of(&u("abc"), &u("")), Some(3));
        assert_eq!(index_of(&u("aaab"), &u("aab"), 0), Some(1));
        assert_eq!(index_of(&u("abababc"), &u("ababc"), 1), Some(2));
        assert_eq!(index_of(&u("abababc"), &u("ababc"), 3), None);
        assert_eq!(last_index_of(&u("aaaa"), &u("aa")), Some(2));
        assert_eq!(last_index_of(&u("abcab"), &u("ab")), Some(3));
        assert_eq!(index_of(&u("ab"), &u("abc"), 0), None);
    }

    #[test]
    fn cut_like_javascript() {
        let text = u("hello");
        assert_eq!(s(substring(&text, 4, 1)), "ell");
        assert_eq!(s(substring(&text, -3, 2)), "he");
        assert_eq!(s(slice(&text, -3, 5)), "llo");
        assert_eq!(s(slice(&text, 0, -1)), "hell");
        assert_eq!(s(slice(&text, 3, 1)), "");
        assert_eq!(s(char_at(&text, -1)), "");
        assert_eq!(s(char_at(&text, 1)), "e");
        // "12".substr(0, -1) + "," + "12".substr(-1)
        assert_eq!(s(&insert_at(&u("12"), -1, &u(","))), ",2");
        assert_eq!(s(&insert_at(&u("12"), -4, &u(","))), ",12");
        assert_eq!(s(&insert_at(&u("1234"), 1, &u(","))), "1,234");
    }

    #[test]
    fn split_and_replace_like_javascript() {
        assert_eq!(split(&u("a;b;;c"), &u(";")).len(), 4);
        assert_eq!(split(&u("abc"), &u("")).len(), 3);
        assert!(split(&u(""), &u("")).is_empty());
        assert_eq!(split(&u(""), &u(";")).len(), 1);
        assert_eq!(s(&replace_all(&u("a]]b]]"), &u("]]"), &u("]"))), "a]b]");
        assert_eq!(s(&replace_first(&u("1.5.5"), &u("."), &u(","))), "1,5.5");
        assert_eq!(
            s(&replace_first(&u("1.5"), &u("."), &u("[$&|$$|$`|$']"))),
            "1[.|$|1|5]5"
        );
    }

    #[test]
    fn code_points_keep_lone_surrogates() {
        let text = vec![0x31, 0xD83D, 0xDE00, 0xD800];
        assert_eq!(code_points(&text), vec![0x31, 0x1F600, 0xD800]);
        let mut out = Vec::new();
        push_code_point(&mut out, 0x1F600);
        push_code_point(&mut out, 0xDC00);
        assert_eq!(out, vec![0xD83D, 0xDE00, 0xDC00]);
    }
}
