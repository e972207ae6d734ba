//! Regular expressions in JavaScript syntax, matched in linear time.
//!
//! JSONata's `/…/flags` literals are JavaScript regular expressions without the `u` flag: they
//! see text as UTF-16 code units, `\d \w \s \b` are the ASCII/JavaScript classes, and `i`
//! compares characters by their single-unit uppercase. The `regex` crate matches in time linear
//! in the text, but over Unicode scalar values and with its own classes and case folding, so a
//! pattern is translated rather than passed through:
//!
//! - The engine never sees a surrogate: the text is handed over one scalar per code unit, a
//!   surrogate unit (paired or not) becoming a private-use scalar of the top plane
//!   ([`SURROGATE_BASE`]). Every code unit is then exactly one engine character, so `.` takes
//!   half of an astral character as JavaScript's does, a UTF-16 index is a character count,
//!   and an astral character in the pattern is two atoms, as it is for JavaScript.
//! - Every class (`.`, `\w`, `[^…]`, a literal under `i`) is computed here as a set of code
//!   units and written out as explicit ranges, so the engine's Unicode classes and case folding
//!   never apply.
//! - `^`/`$` under `m` honour JavaScript's four line terminators (see [`Lines`]).
//!
//! Lookaround and backreferences have no linear-time form and are refused when the pattern is
//! compiled, with U1004.
//!
//! Two rules of JavaScript's backtracking matcher have no counterpart in the engine, and the
//! results differ where they apply: a group inside a repeated group keeps what it captured in an
//! earlier iteration (JavaScript clears it at each one, so `((a)|b)+` on `ab` leaves group 2
//! undefined there), and an iteration past the minimum that matches the empty string is
//! accepted (JavaScript rejects it, so `(|a)+` on `a` takes the `a` there).

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::{Arc, LazyLock};

use writ_core::Str;

use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::function::Function;
use crate::value::Val;

/// Where the engine sees code unit 0xD800; units 0xD800..=0xDFFF follow in order. Text never
/// holds a scalar of this block itself: an astral character arrives as two surrogate units.
const SURROGATE_BASE: u32 = 0x10_F000;

/// JavaScript's line terminators: what `.` does not match and where `^`/`$` match under `m`.
const LINE_TERMINATORS: [u16; 4] = [0x0A, 0x0D, 0x2028, 0x2029];

/// The deepest group nesting a pattern may have (the engine's own nest limit is 250, and each
/// group here may add a level for its quantifier).
const MAX_GROUP_DEPTH: usize = 100;

/// The largest compiled program the engine may build for one pattern, in bytes.
const MAX_PROGRAM_SIZE: usize = 4 << 20;

/// The most work (code units visited) the `i` flag's case closure may do for one pattern.
const MAX_CLOSURE_WORK: usize = 4_000_000;

/// Steps charged per match found, on top of the text the search went over.
const MATCH_STEPS: u64 = 1;

/// Sorted, disjoint, non-adjacent inclusive ranges of code units.
type Ranges = Vec<(u16, u16)>;

/// A compiled regular expression.
#[derive(Debug)]
pub struct Pattern {
    /// The pattern as written between the slashes.
    source: String,
    /// The flags as written (`i`, `m`), which only the tests read.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests"))]
    flags: String,
    /// The translated pattern.
    regex: regex::Regex,
    /// How the text's line terminators are shown to the engine.
    lines: Lines,
}

/// How a subject's line terminators are presented to the engine.
///
/// The engine's multi-line `^`/`$` know `\n` only (or `\r` and `\n` in its CRLF mode), where
/// JavaScript's know `\n`, `\r`, U+2028 and U+2029.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lines {
    /// Every code unit as itself. Exact whenever `^`/`$` are not multi-line; multi-line
    /// anchors then run in CRLF mode, which differs from JavaScript only at U+2028/U+2029
    /// and between the `\r` and `\n` of a CRLF.
    AsIs,
    /// All four terminators shown as `\n`: exact for multi-line anchors, and chosen when every
    /// class of the pattern holds all four terminators or none of them, so no atom can tell
    /// them apart.
    Unified,
}

/// One match, in UTF-16 indices into the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Match {
    /// Where the match starts.
    pub start: usize,
    /// Where it ends (exclusive).
    pub end: usize,
    /// Each capturing group's span, `None` where the group took no part.
    pub groups: Vec<Option<(usize, usize)>>,
}

impl Match {
    /// The captured text of each group, `Undefined` where the group took no part (as
    /// JavaScript's `exec` leaves it).
    pub(crate) fn group_values(&self, cx: &mut Cx<'_>, text: &Str) -> Result<Vec<Val>> {
        let mut values = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            values.push(match group {
                Some((start, end)) => {
                    cx.charge_string(end - start)?;
                    Val::String(text.slice(*start, *end))
                }
                None => Val::Undefined,
            });
        }
        Ok(values)
    }
}

/// A text prepared once for any number of searches with one pattern: the engine's view of it
/// and the way back from the engine's byte offsets to UTF-16 indices.
pub(crate) struct Subject {
    /// The text.
    text: Str,
    /// One engine character per code unit, as UTF-8.
    haystack: String,
    /// The byte offset of each code unit and one past the last; `None` when every unit is one
    /// byte, so offsets and indices agree.
    offsets: Option<Vec<usize>>,
}

impl Subject {
    /// The engine's view of `text` for a pattern that shows line terminators as `lines` says.
    fn new(text: &Str, lines: Lines) -> Subject {
        if let Some(ascii) = text.as_ascii_str() {
            let haystack = match lines {
                Lines::Unified => ascii.replace('\r', "\n"),
                Lines::AsIs => ascii.to_owned(),
            };
            return Subject {
                text: text.clone(),
                haystack,
                offsets: None,
            };
        }
        let mut haystack = String::with_capacity(text.len_utf16() * 3);
        let mut offsets = Vec::with_capacity(text.len_utf16() + 1);
        for unit in text.code_units() {
            offsets.push(haystack.len());
            let unit = match lines {
                Lines::Unified if LINE_TERMINATORS.contains(&unit) => 0x0A,
                _ => unit,
            };
            haystack.push(engine_char(unit));
        }
        offsets.push(haystack.len());
        Subject {
            text: text.clone(),
            haystack,
            offsets: Some(offsets),
        }
    }

    /// The text this subject was made from.
    pub(crate) fn text(&self) -> &Str {
        &self.text
    }

    /// Its length in UTF-16 code units.
    pub(crate) fn len(&self) -> usize {
        self.text.len_utf16()
    }

    /// The text as the engine searches it.
    fn haystack(&self) -> &str {
        &self.haystack
    }

    /// The byte offset of code unit `index` (which is at most the length).
    fn byte(&self, index: usize) -> usize {
        match &self.offsets {
            Some(offsets) => offsets.get(index).copied().unwrap_or(self.haystack().len()),
            None => index,
        }
    }

    /// The code-unit index of byte offset `byte`, which the engine only reports at character
    /// boundaries.
    fn index(&self, byte: usize) -> usize {
        match &self.offsets {
            Some(offsets) => offsets.partition_point(|&offset| offset < byte),
            None => byte,
        }
    }
}

/// The scalar the engine sees for code unit `unit`.
fn engine_char(unit: u16) -> char {
    let scalar = match unit {
        0xD800..=0xDFFF => SURROGATE_BASE + u32::from(unit - 0xD800),
        _ => u32::from(unit),
    };
    char::from_u32(scalar).unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl Pattern {
    /// Compiles `source` (the text between the slashes) with `flags` (any of `i`, `m`; JSONata
    /// always searches globally, so there is no `g` to give).
    ///
    /// # Errors
    ///
    /// S0301 for an empty pattern; S0303 for a pattern JavaScript itself rejects (with the
    /// reason in the detail); U1004 for lookaround and backreferences, which no linear-time
    /// engine can match, and for patterns too large to compile.
    pub fn new(source: &str, flags: &str) -> Result<Pattern> {
        if source.is_empty() {
            return Err(Error::new(Code::S0301));
        }
        let mut ignore_case = false;
        let mut multiline = false;
        for flag in flags.chars() {
            match flag {
                'i' => ignore_case = true,
                'm' => multiline = true,
                'g' => {}
                other => return Err(syntax(source, &format!("unknown flag '{other}'"))),
            }
        }
        let units: Vec<u16> = source.encode_utf16().collect();
        let (captures, named) = prescan(&units);
        let mut translator = Translator {
            source,
            units: &units,
            pos: 0,
            ignore_case,
            multiline,
            captures,
            named,
            names: Vec::new(),
            out: String::with_capacity(units.len() * 2),
            lines_distinguished: false,
            multiline_anchor: false,
            closures: HashMap::new(),
            closure_work: 0,
        };
        translator.disjunction(0)?;
        if translator.pos < units.len() {
            return Err(syntax(source, "unmatched ')'"));
        }
        let lines = if translator.multiline_anchor && !translator.lines_distinguished {
            Lines::Unified
        } else {
            Lines::AsIs
        };
        let translated = if translator.multiline_anchor && lines == Lines::AsIs {
            format!("(?R){}", translator.out)
        } else {
            translator.out
        };
        let regex = regex::RegexBuilder::new(&translated)
            .size_limit(MAX_PROGRAM_SIZE)
            .dfa_size_limit(MAX_PROGRAM_SIZE)
            .build()
            .map_err(|error| match error {
                regex::Error::CompiledTooBig(_) => unsupported(
                    source,
                    "it is too large to compile (a counted repetition such as {1000000} multiplies the pattern); \
                     use a smaller count or a simpler pattern",
                ),
                other => unsupported(source, &format!("it cannot be compiled ({other})")),
            })?;
        Ok(Pattern {
            source: source.to_owned(),
            flags: flags.to_owned(),
            regex,
            lines,
        })
    }

    /// The pattern as written between the slashes.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The flags as written after the closing slash.
    #[cfg(test)]
    pub fn flags(&self) -> &str {
        &self.flags
    }

    /// Prepares `text` for searching, charging the conversion and one full scan of the text,
    /// which covers the searches of a left-to-right loop over it (each takes up where the
    /// last match ended).
    pub(crate) fn subject(&self, cx: &mut Cx<'_>, text: &Str) -> Result<Subject> {
        cx.steps(2 * text.len_utf16() as u64 + 1)?;
        Ok(Subject::new(text, self.lines))
    }

    /// The first match at or after UTF-16 index `start`, groups included.
    pub(crate) fn find_at(&self, cx: &mut Cx<'_>, subject: &Subject, start: usize) -> Result<Option<Match>> {
        let found = self.search(subject, start);
        if let Some(found) = &found {
            cx.steps(MATCH_STEPS + (found.end - start.min(found.end)) as u64 + found.groups.len() as u64)?;
        }
        Ok(found)
    }

    /// Whether the pattern matches anywhere in the text (no groups are collected).
    pub(crate) fn is_match(&self, subject: &Subject) -> bool {
        self.regex.is_match(subject.haystack())
    }

    /// The first match at or after `start`, groups included: the search itself, uncharged.
    fn search(&self, subject: &Subject, start: usize) -> Option<Match> {
        if start > subject.len() {
            return None;
        }
        if self.regex.captures_len() == 1 {
            // No groups: the engine's fastest search finds the span alone.
            let whole = self.regex.find_at(subject.haystack(), subject.byte(start))?;
            return Some(Match {
                start: subject.index(whole.start()),
                end: subject.index(whole.end()),
                groups: Vec::new(),
            });
        }
        let mut locations = self.regex.capture_locations();
        let whole = self
            .regex
            .captures_read_at(&mut locations, subject.haystack(), subject.byte(start))?;
        let groups = (1..locations.len())
            .map(|group| {
                locations
                    .get(group)
                    .map(|(from, to)| (subject.index(from), subject.index(to)))
            })
            .collect();
        Some(Match {
            start: subject.index(whole.start()),
            end: subject.index(whole.end()),
            groups,
        })
    }
}

/// What a call of a regex function value does: `/re/(text)` or `/re/(text, from)` gives the
/// first match at or after `from` as `{match, start, end, groups, next}`, or undefined.
///
/// A match's `next` is this same function with the text, the match's end and a `true` third
/// argument bound: that form is the `next` step, which gives undefined at the end of the text
/// and refuses (D1004) a pattern that matches the empty string there, since it would never
/// move on. The evaluator calls this for `Function::Regex`, with a partial application's bound
/// arguments filled in.
pub(crate) fn apply_regex(cx: &mut Cx<'_>, pattern: &Arc<Pattern>, args: &[Val]) -> Result<Val> {
    let text = js_string(args.first().unwrap_or(&Val::Undefined));
    let Some(text) = text else { return Ok(Val::Undefined) };
    let is_next = matches!(args.get(2), Some(Val::Bool(true)));
    let from = args.get(1).and_then(Val::as_number).unwrap_or(0.0);
    if is_next {
        let from = if from.is_nan() || from < 0.0 { 0 } else { from as usize };
        if from >= text.len_utf16() {
            return Ok(Val::Undefined);
        }
        let subject = pattern.subject(cx, &text)?;
        return match pattern.find_at(cx, &subject, from)? {
            Some(found) if found.start == found.end => Err(zero_length(pattern)),
            Some(found) => match_record(cx, pattern, &subject, &found),
            None => Ok(Val::Undefined),
        };
    }
    // `lastIndex` as `exec` reads it: an integer, negative counting as 0, past the end failing.
    let from = if from.is_nan() || from < 0.0 { 0.0 } else { from.trunc() };
    if from > text.len_utf16() as f64 {
        return Ok(Val::Undefined);
    }
    call_regex(cx, pattern, &text, from as usize)
}

/// The match object for the first match at or after `from` in `text`, or undefined.
pub(crate) fn call_regex(cx: &mut Cx<'_>, pattern: &Arc<Pattern>, text: &Str, from: usize) -> Result<Val> {
    let subject = pattern.subject(cx, text)?;
    match pattern.find_at(cx, &subject, from)? {
        Some(found) => match_record(cx, pattern, &subject, &found),
        None => Ok(Val::Undefined),
    }
}

/// `{match, start, end, groups, next}` for `found`: what a regex function value returns, and
/// what `$replace` hands a replacement function.
pub(crate) fn match_record(cx: &mut Cx<'_>, pattern: &Arc<Pattern>, subject: &Subject, found: &Match) -> Result<Val> {
    let text = subject.text();
    cx.charge_string(found.end - found.start)?;
    let matched = text.slice(found.start, found.end);
    let groups = found.group_values(cx, text)?;
    cx.charge_array(groups.len())?;
    let next = Function::Partial {
        function: Rc::new(Function::Regex(Arc::clone(pattern))),
        args: vec![
            Some(Val::String(text.clone())),
            Some(Val::Number(found.end as f64)),
            Some(Val::Bool(true)),
        ],
    };
    Ok(Val::record(vec![
        (Str::from("match"), Val::String(matched)),
        (Str::from("start"), Val::Number(found.start as f64)),
        (Str::from("end"), Val::Number(found.end as f64)),
        (Str::from("groups"), Val::array(groups)),
        (Str::from("next"), Val::Function(Rc::new(next))),
    ]))
}

/// D1004: the pattern matched the empty string where a loop over its matches needs it to move
/// on.
pub(crate) fn zero_length(pattern: &Pattern) -> Error {
    Error::new(Code::D1004).with_value(json_text(pattern.source()))
}

/// The text JavaScript's `exec` would search for `value` (it converts its argument to a
/// string); `None` for values whose conversion JSONata could not print (containers,
/// functions), for which the call gives undefined.
fn js_string(value: &Val) -> Option<Str> {
    Some(match value {
        Val::String(text) => text.clone(),
        Val::Undefined => Str::from("undefined"),
        Val::Null => Str::from("null"),
        Val::Bool(b) => Str::from(if *b { "true" } else { "false" }),
        Val::Number(n) => Str::from(writ_core::js_number_to_string(*n)),
        _ => return None,
    })
}

/// `text` as a JSON string literal, for error values.
fn json_text(text: &str) -> String {
    let mut out = String::new();
    writ_core::write_json_string(&Str::from(text), &mut out);
    out
}

/// S0303: a pattern JavaScript rejects.
fn syntax(source: &str, reason: &str) -> Error {
    Error::new(Code::S0303)
        .with_value(json_text(source))
        .with_detail(format!("Invalid regular expression /{source}/: {reason}"))
}

/// U1004: a pattern writ will not run.
fn unsupported(source: &str, reason: &str) -> Error {
    Error::new(Code::U1004)
        .with_value(json_text(source))
        .with_detail(format!("The regular expression /{source}/ is not supported: {reason}"))
}

/// Counts the capturing groups of `units` and notes whether any is named, as JavaScript does
/// before parsing (a `\1` is a backreference only if group 1 exists anywhere, and `\k` means a
/// named reference only in a pattern with named groups).
fn prescan(units: &[u16]) -> (usize, bool) {
    let mut captures = 0;
    let mut named = false;
    let mut in_class = false;
    let mut idx = 0;
    while let Some(&unit) = units.get(idx) {
        match unit {
            0x5C => idx += 1, // `\`: skip what it escapes
            0x5B => in_class = true,
            0x5D => in_class = false,
            0x28 if !in_class => {
                if units.get(idx + 1) != Some(&u16::from(b'?')) {
                    captures += 1;
                } else if units.get(idx + 2) == Some(&u16::from(b'<'))
                    && !matches!(units.get(idx + 3).copied(), Some(0x3D | 0x21))
                {
                    captures += 1;
                    named = true;
                }
            }
            _ => {}
        }
        idx += 1;
    }
    (captures, named)
}

/// The `i` flag's comparison: JavaScript's Canonicalize for non-Unicode patterns, precomputed
/// for every code unit, and the classes of units that compare equal.
struct CaseTable {
    /// Each unit's canonical form: its uppercase when that is a single unit and does not turn a
    /// non-ASCII unit into an ASCII one; otherwise the unit itself.
    canon: Vec<u16>,
    /// The units whose class has more than one member, in order.
    cased: Vec<u16>,
    /// The members of each class with more than one, by canonical form.
    members: BTreeMap<u16, Vec<u16>>,
}

/// Blocks of code units with no case mapping at all (CJK ideographs, Hangul syllables, Yi,
/// surrogates, private use), skipped when the case table is built.
const UNCASED: [(u16, u16); 5] = [
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA000, 0xA48F),
    (0xAC00, 0xD7A3),
    (0xD800, 0xF8FF),
];

/// The case table, built on first use of the `i` flag.
static CASE: LazyLock<CaseTable> = LazyLock::new(|| {
    let mut canon: Vec<u16> = (0..=u16::MAX).collect();
    // A class with two members or more holds a unit that is not its own canonical form.
    let mut members: BTreeMap<u16, Vec<u16>> = BTreeMap::new();
    for unit in 0..=u16::MAX {
        if UNCASED.iter().any(|&(start, end)| (start..=end).contains(&unit)) {
            continue;
        }
        let form = canonicalize(unit);
        if form != unit {
            if let Some(slot) = canon.get_mut(usize::from(unit)) {
                *slot = form;
            }
            members.entry(form).or_default().push(unit);
        }
    }
    for (&form, units) in &mut members {
        if canon.get(usize::from(form)) == Some(&form) {
            units.push(form);
        }
        units.sort_unstable();
    }
    let mut cased: Vec<u16> = members.values().flatten().copied().collect();
    cased.sort_unstable();
    cased.dedup();
    CaseTable { canon, cased, members }
});

/// JavaScript's Canonicalize(ch) for a pattern without the `u` flag.
fn canonicalize(unit: u16) -> u16 {
    let Some(ch) = char::from_u32(u32::from(unit)) else {
        return unit;
    };
    let mut upper = ch.to_uppercase();
    let (Some(first), None) = (upper.next(), upper.next()) else {
        return unit;
    };
    match u16::try_from(u32::from(first)) {
        Ok(form) if !(unit >= 0x80 && form < 0x80) => form,
        _ => unit,
    }
}

/// Sorts and merges `ranges` into the canonical form.
fn normalize(mut ranges: Vec<(u16, u16)>) -> Ranges {
    ranges.sort_unstable();
    let mut merged: Ranges = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if u32::from(start) <= u32::from(last.1) + 1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Every code unit not in `ranges`.
fn complement(ranges: &Ranges) -> Ranges {
    let mut out = Vec::with_capacity(ranges.len() + 1);
    let mut next: u32 = 0;
    for &(start, end) in ranges {
        if u32::from(start) > next {
            out.push((next as u16, start - 1));
        }
        next = u32::from(end) + 1;
    }
    if next <= 0xFFFF {
        out.push((next as u16, 0xFFFF));
    }
    out
}

/// Whether `unit` is in `ranges`.
fn contains(ranges: &Ranges, unit: u16) -> bool {
    let idx = ranges.partition_point(|&(_, end)| end < unit);
    ranges.get(idx).is_some_and(|&(start, _)| start <= unit)
}

/// `\d`.
fn digits() -> Ranges {
    vec![(0x30, 0x39)]
}

/// `\w`: ASCII letters, digits and `_` (also under `i`: no other unit canonicalizes to one).
fn word() -> Ranges {
    vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
}

/// `\s`: JavaScript's WhiteSpace and LineTerminator.
fn space() -> Ranges {
    normalize(vec![
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

/// `.`: anything but a line terminator.
fn dot() -> Ranges {
    complement(&normalize(LINE_TERMINATORS.iter().map(|&unit| (unit, unit)).collect()))
}

/// One item of a character class: a single unit (which may start or end a range) or a class
/// escape such as `\d` (which may not).
enum ClassAtom {
    /// One code unit.
    Unit(u16),
    /// A class escape's set.
    Set(Ranges),
}

/// The pattern parser, writing the engine's pattern as it goes.
struct Translator<'a> {
    /// The pattern as written, for errors.
    source: &'a str,
    /// The pattern as UTF-16 code units, as JavaScript parses it.
    units: &'a [u16],
    /// The next unit to read.
    pos: usize,
    /// The `i` flag.
    ignore_case: bool,
    /// The `m` flag.
    multiline: bool,
    /// How many capturing groups the whole pattern has.
    captures: usize,
    /// Whether it has named groups.
    named: bool,
    /// The group names seen so far (duplicates are an error).
    names: Vec<Vec<u16>>,
    /// The engine's pattern.
    out: String,
    /// Some class holds some line terminators but not all (see [`Lines::Unified`]).
    lines_distinguished: bool,
    /// A `^` or `$` under `m` was written.
    multiline_anchor: bool,
    /// Case closures already computed, by class.
    closures: HashMap<Ranges, Ranges>,
    /// Work done on case closures so far.
    closure_work: usize,
}

impl Translator<'_> {
    /// The unit at the read position plus `ahead`.
    fn peek_at(&self, ahead: usize) -> Option<u16> {
        self.units.get(self.pos + ahead).copied()
    }

    /// The unit at the read position.
    fn peek(&self) -> Option<u16> {
        self.peek_at(0)
    }

    /// Whether the unit at the read position is `ch`.
    fn at(&self, ch: u8) -> bool {
        self.peek() == Some(u16::from(ch))
    }

    /// Reads `ch` if it is next.
    fn eat(&mut self, ch: u8) -> bool {
        let found = self.at(ch);
        if found {
            self.pos += 1;
        }
        found
    }

    /// A JavaScript syntax error about this pattern.
    fn syntax(&self, reason: &str) -> Error {
        syntax(self.source, reason)
    }

    /// `Alternative ('|' Alternative)*`.
    fn disjunction(&mut self, depth: usize) -> Result<()> {
        loop {
            while let Some(unit) = self.peek() {
                if unit == u16::from(b'|') || unit == u16::from(b')') {
                    break;
                }
                self.term(depth)?;
            }
            if !self.eat(b'|') {
                return Ok(());
            }
            self.out.push('|');
        }
    }

    /// One assertion, or one atom with its quantifier.
    fn term(&mut self, depth: usize) -> Result<()> {
        let Some(unit) = self.peek() else { return Ok(()) };
        match u8::try_from(unit).unwrap_or(0) {
            b'^' => {
                self.pos += 1;
                self.anchor("(?m:^)", "\\A");
                return self.refuse_quantifier();
            }
            b'$' => {
                self.pos += 1;
                self.anchor("(?m:$)", "\\z");
                return self.refuse_quantifier();
            }
            b'\\' if matches!(self.peek_at(1), Some(0x62 | 0x42)) => {
                let boundary = self.peek_at(1) == Some(0x62);
                self.pos += 2;
                self.out.push_str(if boundary { "(?-u:\\b)" } else { "(?-u:\\B)" });
                return self.refuse_quantifier();
            }
            b'(' => self.group(depth)?,
            b'*' | b'+' | b'?' => return Err(self.syntax("nothing to repeat")),
            b'{' if self.braced_quantifier()?.is_some() => return Err(self.syntax("nothing to repeat")),
            b'.' => {
                self.pos += 1;
                self.emit_set(dot())?;
            }
            b'[' => {
                self.pos += 1;
                let set = self.class()?;
                self.emit_set(set)?;
            }
            b'\\' => {
                self.pos += 1;
                self.atom_escape()?;
            }
            _ => {
                self.pos += 1;
                self.emit_unit(unit)?;
            }
        }
        self.quantifier()
    }

    /// `^` or `$`: `multi` under `m`, `single` otherwise.
    fn anchor(&mut self, multi: &str, single: &str) {
        if self.multiline {
            self.multiline_anchor = true;
            self.out.push_str(multi);
        } else {
            self.out.push_str(single);
        }
    }

    /// JavaScript's error for a quantifier after an assertion.
    fn refuse_quantifier(&mut self) -> Result<()> {
        let quantified = match self.peek().and_then(|unit| u8::try_from(unit).ok()) {
            Some(b'*' | b'+' | b'?') => true,
            Some(b'{') => self.braced_quantifier()?.is_some(),
            _ => false,
        };
        if quantified {
            Err(self.syntax("nothing to repeat"))
        } else {
            Ok(())
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at the read position, without reading it: `(n, m, length)`,
    /// or `None` when the brace is a literal (as it is in JavaScript when no quantifier
    /// follows).
    fn braced_quantifier(&self) -> Result<Option<(u64, Option<u64>, usize)>> {
        let mut idx = self.pos + 1;
        let digits = |idx: &mut usize| {
            let start = *idx;
            let mut value: u64 = 0;
            while let Some(digit) = self
                .units
                .get(*idx)
                .and_then(|&unit| char::from_u32(u32::from(unit))?.to_digit(10))
            {
                value = value.saturating_mul(10).saturating_add(u64::from(digit));
                *idx += 1;
            }
            (*idx > start).then_some(value)
        };
        let Some(min) = digits(&mut idx) else { return Ok(None) };
        let max = if self.units.get(idx) == Some(&u16::from(b',')) {
            idx += 1;
            digits(&mut idx)
        } else {
            Some(min)
        };
        if self.units.get(idx) != Some(&u16::from(b'}')) {
            return Ok(None);
        }
        if max.is_some_and(|max| max < min) {
            return Err(self.syntax("numbers out of order in {} quantifier"));
        }
        Ok(Some((min, max, idx + 1 - self.pos)))
    }

    /// An optional quantifier after an atom.
    fn quantifier(&mut self) -> Result<()> {
        let (min, max) = match self.peek().and_then(|unit| u8::try_from(unit).ok()) {
            Some(b'*') => {
                self.pos += 1;
                (0, None)
            }
            Some(b'+') => {
                self.pos += 1;
                (1, None)
            }
            Some(b'?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some(b'{') => match self.braced_quantifier()? {
                Some((min, max, length)) => {
                    self.pos += length;
                    (min, max)
                }
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        // The engine counts in u32; a count beyond it could never compile anyway.
        let clamp = |count: u64| count.min(u64::from(u32::MAX));
        match max {
            None if min == 0 => self.out.push('*'),
            None if min == 1 => self.out.push('+'),
            Some(1) if min == 0 => self.out.push('?'),
            None => self.out.push_str(&format!("{{{},}}", clamp(min))),
            Some(max) => self.out.push_str(&format!("{{{},{}}}", clamp(min), clamp(max))),
        }
        if self.eat(b'?') {
            self.out.push('?');
        }
        Ok(())
    }

    /// A group, from its `(`.
    fn group(&mut self, depth: usize) -> Result<()> {
        if depth >= MAX_GROUP_DEPTH {
            return Err(unsupported(
                self.source,
                &format!("its groups nest more than {MAX_GROUP_DEPTH} deep"),
            ));
        }
        self.pos += 1;
        if self.eat(b'?') {
            match self.peek().and_then(|unit| u8::try_from(unit).ok()) {
                Some(b':') => {
                    self.pos += 1;
                    self.out.push_str("(?:");
                }
                Some(b'=' | b'!') => return Err(self.lookaround("lookahead (?=…) and (?!…)")),
                Some(b'<') if matches!(self.peek_at(1), Some(0x3D | 0x21)) => {
                    return Err(self.lookaround("lookbehind (?<=…) and (?<!…)"));
                }
                Some(b'<') => {
                    self.pos += 1;
                    self.group_name()?;
                    self.out.push('(');
                }
                _ => return Err(self.syntax("invalid group")),
            }
        } else {
            self.out.push('(');
        }
        self.disjunction(depth + 1)?;
        if !self.eat(b')') {
            return Err(self.syntax("unterminated group"));
        }
        self.out.push(')');
        Ok(())
    }

    /// U1004 for lookaround.
    fn lookaround(&self, what: &str) -> Error {
        unsupported(
            self.source,
            &format!(
                "{what} cannot be matched in linear time; instead, match the wider text with a group around \
                 the part you want, and test the rest with a second $match or $contains"
            ),
        )
    }

    /// A group name after `(?<`, through its `>`.
    fn group_name(&mut self) -> Result<()> {
        let name = self.name()?;
        if self.names.contains(&name) {
            return Err(self.syntax("duplicate capture group name"));
        }
        self.names.push(name);
        Ok(())
    }

    /// An identifier and its closing `>`.
    fn name(&mut self) -> Result<Vec<u16>> {
        let start = self.pos;
        while let Some(unit) = self.peek() {
            if unit == u16::from(b'>') {
                break;
            }
            let ch = char::from_u32(u32::from(unit)).unwrap_or('\u{0}');
            let valid = ch == '$' || ch == '_' || ch.is_alphabetic() || (self.pos > start && ch.is_alphanumeric());
            if !valid {
                return Err(self.syntax("invalid capture group name"));
            }
            self.pos += 1;
        }
        if self.pos == start || !self.eat(b'>') {
            return Err(self.syntax("invalid capture group name"));
        }
        Ok(self.units.get(start..self.pos - 1).unwrap_or_default().to_vec())
    }

    /// An escape outside a class, after its `\`.
    fn atom_escape(&mut self) -> Result<()> {
        let Some(unit) = self.peek() else {
            return Err(self.syntax("\\ at end of pattern"));
        };
        let ch = u8::try_from(unit).unwrap_or(0);
        match ch {
            b'd' | b'D' | b's' | b'S' | b'w' | b'W' => {
                self.pos += 1;
                self.emit_set(class_escape(ch))
            }
            b'1'..=b'9' => {
                let mut idx = self.pos;
                let mut value: u64 = 0;
                while let Some(digit) = self.units.get(idx).filter(|&&unit| (0x30..=0x39).contains(&unit)) {
                    value = value.saturating_mul(10).saturating_add(u64::from(digit - 0x30));
                    idx += 1;
                }
                if value <= self.captures as u64 {
                    return Err(self.backreference());
                }
                let unit = if ch <= b'7' {
                    self.legacy_octal()
                } else {
                    self.pos += 1;
                    unit
                };
                self.emit_unit(unit)
            }
            b'k' if self.named => {
                self.pos += 1;
                if self.eat(b'<') && self.name().is_ok() {
                    return Err(self.backreference());
                }
                Err(self.syntax("invalid named reference"))
            }
            _ => {
                let unit = self.character_escape();
                self.emit_unit(unit)
            }
        }
    }

    /// U1004 for backreferences.
    fn backreference(&self) -> Error {
        unsupported(
            self.source,
            "backreferences (\\1, \\k<name>) cannot be matched in linear time; capture both parts as groups \
             and compare them with = instead",
        )
    }

    /// An escape that stands for one code unit (a control escape, `\cX`, octal, `\xHH`,
    /// `\uHHHH`, or the character itself), from the unit after the `\`.
    fn character_escape(&mut self) -> u16 {
        let Some(unit) = self.peek() else {
            return u16::from(b'\\');
        };
        let value = match u8::try_from(unit).unwrap_or(0) {
            b'0'..=b'7' => return self.legacy_octal(),
            b'c' => match self
                .peek_at(1)
                .filter(|&letter| u8::try_from(letter).is_ok_and(|b| b.is_ascii_alphabetic()))
            {
                Some(letter) => {
                    self.pos += 2;
                    return letter % 32;
                }
                // A lone `\c` is a backslash; the `c` is read again after it.
                None => return u16::from(b'\\'),
            },
            b'x' => {
                self.pos += 1;
                return self.hex(2).unwrap_or(unit);
            }
            b'u' => {
                self.pos += 1;
                return self.hex(4).unwrap_or(unit);
            }
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'v' => 0x0B,
            _ => unit,
        };
        self.pos += 1;
        value
    }

    /// `count` hex digits, read only if all are there.
    fn hex(&mut self, count: usize) -> Option<u16> {
        let mut value: u16 = 0;
        for ahead in 0..count {
            let digit = char::from_u32(u32::from(self.peek_at(ahead)?))?.to_digit(16)?;
            value = value * 16 + digit as u16;
        }
        self.pos += count;
        Some(value)
    }

    /// A legacy octal escape (`\0`, `\12`, `\377`) from its first digit: up to three octal
    /// digits, as long as the value stays below 0o400.
    fn legacy_octal(&mut self) -> u16 {
        let octal = |unit: Option<u16>| unit.filter(|unit| (0x30..=0x37).contains(unit)).map(|unit| unit - 0x30);
        let Some(first) = octal(self.peek()) else { return 0 };
        self.pos += 1;
        let mut value = first;
        let more = if first <= 3 { 2 } else { 1 };
        for _ in 0..more {
            match octal(self.peek()) {
                Some(digit) => {
                    value = value * 8 + digit;
                    self.pos += 1;
                }
                None => break,
            }
        }
        value
    }

    /// A character class after its `[`, through its `]`, as the set of units it matches.
    fn class(&mut self) -> Result<Ranges> {
        let negate = self.eat(b'^');
        let mut ranges = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.syntax("unterminated character class")),
                Some(0x5D) => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let first = self.class_atom()?;
            let is_range = self.at(b'-') && self.peek_at(1).is_some_and(|unit| unit != 0x5D);
            if !is_range {
                push_atom(&mut ranges, first);
                continue;
            }
            self.pos += 1;
            let last = self.class_atom()?;
            match (first, last) {
                (ClassAtom::Unit(from), ClassAtom::Unit(to)) => {
                    if from > to {
                        return Err(self.syntax("range out of order in character class"));
                    }
                    ranges.push((from, to));
                }
                (first, last) => {
                    // A class escape cannot bound a range: both ends and the `-` are members.
                    push_atom(&mut ranges, first);
                    ranges.push((0x2D, 0x2D));
                    push_atom(&mut ranges, last);
                }
            }
        }
        let ranges = self.fold_case(normalize(ranges))?;
        Ok(if negate { complement(&ranges) } else { ranges })
    }

    /// One class member.
    fn class_atom(&mut self) -> Result<ClassAtom> {
        let Some(unit) = self.peek() else {
            return Err(self.syntax("unterminated character class"));
        };
        self.pos += 1;
        if unit != u16::from(b'\\') {
            return Ok(ClassAtom::Unit(unit));
        }
        let Some(escaped) = self.peek() else {
            return Err(self.syntax("\\ at end of pattern"));
        };
        let ch = u8::try_from(escaped).unwrap_or(0);
        Ok(match ch {
            b'd' | b'D' | b's' | b'S' | b'w' | b'W' => {
                self.pos += 1;
                ClassAtom::Set(class_escape(ch))
            }
            b'b' => {
                self.pos += 1;
                ClassAtom::Unit(0x08)
            }
            b'8' | b'9' | b'-' => {
                self.pos += 1;
                ClassAtom::Unit(escaped)
            }
            b'k' if self.named => return Err(self.syntax("invalid escape")),
            b'c' => match self.peek_at(1).and_then(|next| u8::try_from(next).ok()) {
                Some(next) if next.is_ascii_alphanumeric() || next == b'_' => {
                    self.pos += 2;
                    ClassAtom::Unit(u16::from(next) % 32)
                }
                // A lone `\c` in a class is a backslash; the `c` is read again as a member.
                _ => ClassAtom::Unit(u16::from(b'\\')),
            },
            _ => ClassAtom::Unit(self.character_escape()),
        })
    }

    /// Under `i`, every unit that compares equal to a member of `ranges`.
    fn fold_case(&mut self, ranges: Ranges) -> Result<Ranges> {
        if !self.ignore_case {
            return Ok(ranges);
        }
        if let Some(folded) = self.closures.get(&ranges) {
            return Ok(folded.clone());
        }
        let table = &*CASE;
        let mut folded = ranges.clone();
        for &(start, end) in &ranges {
            let from = table.cased.partition_point(|&unit| unit < start);
            let to = table.cased.partition_point(|&unit| unit <= end);
            for &unit in table.cased.get(from..to).unwrap_or_default() {
                let form = table.canon.get(usize::from(unit)).copied().unwrap_or(unit);
                let members = table.members.get(&form).map(Vec::as_slice).unwrap_or_default();
                self.closure_work += 1 + members.len();
                folded.extend(members.iter().map(|&member| (member, member)));
            }
            if self.closure_work > MAX_CLOSURE_WORK {
                return Err(unsupported(
                    self.source,
                    "its case-insensitive classes are too large to compile",
                ));
            }
        }
        let folded = normalize(folded);
        self.closures.insert(ranges, folded.clone());
        Ok(folded)
    }

    /// A literal unit (under `i`, every unit that compares equal to it).
    fn emit_unit(&mut self, unit: u16) -> Result<()> {
        let set = self.fold_case(vec![(unit, unit)])?;
        self.emit_set(set)
    }

    /// A class, written as explicit ranges of engine characters.
    fn emit_set(&mut self, ranges: Ranges) -> Result<()> {
        let terminators = LINE_TERMINATORS.iter().filter(|&&unit| contains(&ranges, unit)).count();
        if terminators != 0 && terminators != LINE_TERMINATORS.len() {
            self.lines_distinguished = true;
        }
        match ranges.as_slice() {
            [] => self.out.push_str("[^\\x{0}-\\x{10FFFF}]"),
            [(start, end)] if start == end => push_engine_char(&mut self.out, *start),
            _ => {
                self.out.push('[');
                for &(start, end) in &ranges {
                    // Split where the engine's view jumps: surrogates live at SURROGATE_BASE.
                    for (from, to) in [
                        (start, end.min(0xD7FF)),
                        (start.max(0xD800), end.min(0xDFFF)),
                        (start.max(0xE000), end),
                    ] {
                        if from > to {
                            continue;
                        }
                        push_engine_char(&mut self.out, from);
                        if to > from {
                            self.out.push('-');
                            push_engine_char(&mut self.out, to);
                        }
                    }
                }
                self.out.push(']');
            }
        }
        Ok(())
    }
}

/// Adds a class member to a class's ranges.
fn push_atom(ranges: &mut Vec<(u16, u16)>, atom: ClassAtom) {
    match atom {
        ClassAtom::Unit(unit) => ranges.push((unit, unit)),
        ClassAtom::Set(set) => ranges.extend(set),
    }
}

/// `\d \D \s \S \w \W`.
fn class_escape(ch: u8) -> Ranges {
    match ch {
        b'd' => digits(),
        b'D' => complement(&digits()),
        b's' => space(),
        b'S' => complement(&space()),
        b'w' => word(),
        _ => complement(&word()),
    }
}

/// Writes the engine character for `unit` as a pattern literal.
fn push_engine_char(out: &mut String, unit: u16) {
    if u8::try_from(unit).is_ok_and(|byte| byte.is_ascii_alphanumeric()) {
        out.push(char::from(unit as u8));
    } else {
        out.push_str(&format!("\\x{{{:X}}}", u32::from(engine_char(unit))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every match of `source` with `flags` over `text`, left to right as JSONata's `$match`
    /// walks them, as `(start, end, groups)` in UTF-16 indices.
    fn matches(source: &str, flags: &str, text: &str) -> Vec<(usize, usize, Vec<Option<String>>)> {
        let pattern = Pattern::new(source, flags).expect("compiles");
        let text = Str::from(text);
        let subject = Subject::new(&text, pattern.lines);
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(found) = pattern.search(&subject, from) {
            let groups = found
                .groups
                .iter()
                .map(|group| group.map(|(a, b)| text.slice(a, b).to_string_lossy().into_owned()))
                .collect();
            out.push((found.start, found.end, groups));
            if found.end == found.start || found.end >= text.len_utf16() {
                break;
            }
            from = found.end;
        }
        out
    }

    /// The spans of the matches.
    fn spans(source: &str, flags: &str, text: &str) -> Vec<(usize, usize)> {
        matches(source, flags, text)
            .into_iter()
            .map(|(start, end, _)| (start, end))
            .collect()
    }

    /// The first match's text, decoded from UTF-16 units.
    fn first(source: &str, flags: &str, text: &[u16]) -> Option<Vec<u16>> {
        let pattern = Pattern::new(source, flags).expect("compiles");
        let text = Str::from_utf16(text);
        let subject = Subject::new(&text, pattern.lines);
        pattern
            .search(&subject, 0)
            .map(|found| text.slice(found.start, found.end).to_utf16())
    }

    fn code(source: &str, flags: &str) -> &'static str {
        Pattern::new(source, flags).expect_err("refused").code().as_str()
    }

    #[test]
    fn basic_matching_and_groups() {
        assert_eq!(spans("b+", "", "ababbxabbcc"), [(1, 2), (3, 5), (7, 9)]);
        assert_eq!(
            matches("(ab)|(a)", "", "abcd"),
            [(0, 2, vec![Some("ab".to_owned()), None])]
        );
        assert_eq!(
            matches("(?<year>\\d{4})-(\\d\\d)", "", "on 2024-05!")[0].2,
            [Some("2024".to_owned()), Some("05".to_owned())]
        );
        assert_eq!(spans("a.*?a", "", "abracadabra"), [(0, 4), (5, 8)]);
        assert_eq!(spans("A+?", "", "AAAA"), [(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(spans("(?:ab){2}", "", "abababab"), [(0, 4), (4, 8)]);
    }

    #[test]
    fn indices_are_utf16_units_around_astral_characters() {
        // 😀 is two units: the match after it starts at 3, not 2.
        assert_eq!(spans("b", "", "a😀b"), [(3, 4)]);
        // `.` takes one unit, so half of the emoji, as JavaScript without `u` does.
        assert_eq!(first(".", "", &Str::from("😀").to_utf16()), Some(vec![0xD83D]));
        assert_eq!(spans("^.$", "", "😀"), []);
        assert_eq!(spans("^..$", "", "😀"), [(0, 2)]);
        // An astral literal in the pattern is two units; a quantifier takes the second only.
        assert_eq!(
            first("😀+", "", &[0xD83D, 0xDE00, 0xDE00, 0xDE00, 0x78]),
            Some(vec![0xD83D, 0xDE00, 0xDE00, 0xDE00])
        );
        // Lone surrogates in the text are matched by escapes and by negated classes.
        assert_eq!(first("\\uD83D", "", &[0x61, 0xD83D, 0x62]), Some(vec![0xD83D]));
        assert_eq!(first("[^a]", "", &[0x61, 0xDC00]), Some(vec![0xDC00]));
        assert_eq!(
            first("[\\uD800-\\uDFFF]+", "", &Str::from("x😀y").to_utf16()),
            Some(vec![0xD83D, 0xDE00])
        );
        assert_eq!(spans("é", "", "aé😀é"), [(1, 2), (4, 5)]);
    }

    #[test]
    fn classes_are_javascripts() {
        // \d and \w are ASCII only; \s includes U+FEFF, NBSP and the Unicode spaces.
        assert_eq!(spans("\\d+", "", "٣42"), [(1, 3)]);
        assert_eq!(spans("\\w+", "", "héllo"), [(0, 1), (2, 5)]);
        assert_eq!(
            spans("\\s", "", "a\u{FEFF}b\u{A0}c\u{2003}d\u{85}"),
            [(1, 2), (3, 4), (5, 6)]
        );
        assert_eq!(spans("\\S+", "", "a\u{3000}bc"), [(0, 1), (2, 4)]);
        assert_eq!(spans("[\\s\\S]+", "", "a\nb"), [(0, 3)]);
        assert_eq!(spans("[^]+", "", "a\nb"), [(0, 3)]);
        assert_eq!(spans("[]", "", "abc"), []);
        assert_eq!(spans("[\\d-z]+", "", "1-z"), [(0, 3)]);
        assert_eq!(spans("[a-]+", "", "a-b"), [(0, 2)]);
        assert_eq!(spans("[\\b]", "", "a\u{8}"), [(1, 2)]);
        assert_eq!(spans("[\\w.]+", "", "a.b c"), [(0, 3), (4, 5)]);
        assert_eq!(spans("[^\\W_]+", "", "ab_c"), [(0, 2), (3, 4)]);
    }

    #[test]
    fn dot_and_line_terminators() {
        assert_eq!(
            spans(".+", "", "ab\ncd\re\u{2028}f\u{2029}g\u{85}h"),
            [(0, 2), (3, 5), (6, 7), (8, 9), (10, 13)]
        );
    }

    #[test]
    fn anchors_with_and_without_multiline() {
        assert_eq!(spans("^a", "", "a\na"), [(0, 1)]);
        assert_eq!(
            spans("^a", "m", "a\na\ra\u{2028}a\u{2029}a"),
            [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
        );
        assert_eq!(spans("a$", "m", "a\na\ra\u{2028}a"), [(0, 1), (2, 3), (4, 5), (6, 7)]);
        // `$` without `m` is the very end only, not before a final newline.
        assert_eq!(spans("a$", "", "a\n"), []);
        // JavaScript's `^` matches between `\r` and `\n`.
        assert_eq!(spans("^$", "m", "a\r\nb").first(), Some(&(2, 2)));
        // A literal terminator in the pattern falls back to CRLF mode, still exact here.
        assert_eq!(spans("^b\\n", "m", "a\nb\nc"), [(2, 4)]);
        assert_eq!(spans("^b\\r?$", "m", "a\rb\rc"), [(2, 3)]);
        // A search from a later index does not see `^` there.
        let pattern = Pattern::new("^a", "").expect("compiles");
        let subject = Subject::new(&Str::from("aa"), pattern.lines);
        assert_eq!(pattern.search(&subject, 1), None);
    }

    #[test]
    fn word_boundaries_are_ascii() {
        assert_eq!(
            spans("\\b\\w+\\b", "", "héllo wörld"),
            [(0, 1), (2, 5), (6, 7), (8, 11)]
        );
        assert_eq!(spans("\\Bb", "", "ab b"), [(1, 2)]);
        assert_eq!(spans("F\\b", "", "68F today 7Fx"), [(2, 3)]);
    }

    #[test]
    fn case_insensitive_is_javascripts_uppercase_comparison() {
        assert_eq!(spans("hat", "i", "Bowler HAT, hAt"), [(7, 10), (12, 15)]);
        // ſ uppercases to ASCII S and K (Kelvin) is its own uppercase: neither equals s/k.
        assert_eq!(spans("s", "i", "ſSs"), [(1, 2), (2, 3)]);
        assert_eq!(spans("k", "i", "\u{212A}Kk"), [(1, 2), (2, 3)]);
        // σ, ς and Σ all uppercase to Σ.
        assert_eq!(spans("σ+", "i", "ΣσςS"), [(0, 3)]);
        // ß uppercases to two letters, so it only matches itself.
        assert_eq!(spans("ß", "i", "ßSSẞ"), [(0, 1)]);
        assert_eq!(spans("[a-c]+", "i", "xAbCd"), [(1, 4)]);
        assert_eq!(spans("[^a]+", "i", "aAbB"), [(2, 4)]);
        assert_eq!(spans("\\w+", "i", "ſK\u{212A}k"), [(1, 2), (3, 4)]);
        assert_eq!(spans("é", "i", "É"), [(0, 1)]);
    }

    #[test]
    fn escapes() {
        assert_eq!(spans("\\x41\\u0042", "", "xAB"), [(1, 3)]);
        assert_eq!(spans("\\cJ", "", "a\nb"), [(1, 2)]);
        assert_eq!(spans("\\/", "", "a/b"), [(1, 2)]);
        assert_eq!(spans("\\.", "", "a.b"), [(1, 2)]);
        // Annex B: `\x` without hex digits is `x`, `\u{41}` is `u` repeated 41 times.
        assert_eq!(spans("\\xg", "", "axg"), [(1, 3)]);
        assert_eq!(spans("\\u{2}", "", "uuu"), [(0, 2)]);
        // Octal escapes, and `\8` with no groups to refer to.
        assert_eq!(spans("\\101", "", "xA"), [(1, 2)]);
        assert_eq!(spans("\\0", "", "a\u{0}"), [(1, 2)]);
        assert_eq!(spans("\\8", "", "a8"), [(1, 2)]);
        assert_eq!(spans("(a)\\2", "", "a\u{2}"), [(0, 2)]);
        // A lone `\c` is a backslash followed by `c`.
        assert_eq!(spans("\\c", "", "a\\c"), [(1, 3)]);
        assert_eq!(spans("[\\c1]", "", "\u{11}"), [(0, 1)]);
        // `\k` is a plain `k` in a pattern without named groups.
        assert_eq!(spans("\\k", "", "k"), [(0, 1)]);
    }

    #[test]
    fn braces_and_brackets_are_literal_where_javascript_allows() {
        assert_eq!(spans("a{", "", "a{"), [(0, 2)]);
        assert_eq!(spans("a{,2}", "", "a{,2}"), [(0, 5)]);
        assert_eq!(spans("]", "", "a]"), [(1, 2)]);
        assert_eq!(spans("}", "", "}"), [(0, 1)]);
        assert_eq!(spans("a{2,3}", "", "aaaa"), [(0, 3)]);
        assert_eq!(spans("a{2,}?", "", "aaaa"), [(0, 2), (2, 4)]);
    }

    #[test]
    fn invalid_patterns_are_javascripts_syntax_errors() {
        assert_eq!(code("", ""), "S0301");
        for source in [
            "a{2,1}",
            "[b-a]",
            "*a",
            "a**",
            "a|?",
            "{2}",
            "(",
            "a)",
            "(?x)",
            "^*",
            "\\b+",
            "[a",
            "\\",
            "(?<1>a)",
            "(?<a>x)(?<a>y)",
        ] {
            assert_eq!(code(source, ""), "S0303", "{source}");
        }
        assert_eq!(code("a", "g2"), "S0303");
    }

    #[test]
    fn lookaround_and_backreferences_are_refused() {
        for source in [
            "a(?=b)",
            "a(?!b)",
            "(?<=a)b",
            "(?<!a)b",
            "(a)\\1",
            "\\1(a)",
            "(?<n>a)\\k<n>",
        ] {
            let error = Pattern::new(source, "").expect_err("refused");
            assert_eq!(error.details().code.as_str(), "U1004", "{source}");
            assert!(
                error
                    .details()
                    .detail
                    .as_deref()
                    .is_some_and(|detail| detail.contains("instead")),
                "{source}"
            );
        }
    }

    #[test]
    fn oversized_patterns_are_refused() {
        assert_eq!(code("a{1000000}", ""), "U1004");
        assert_eq!(code(&"(".repeat(200), ""), "U1004");
        let deep = format!("{}a{}", "(?:".repeat(150), ")".repeat(150));
        assert_eq!(code(&deep, ""), "U1004");
    }

    #[test]
    fn flags_and_source_are_kept() {
        let pattern = Pattern::new("a/b", "im").expect("compiles");
        assert_eq!(pattern.source(), "a/b");
        assert_eq!(pattern.flags(), "im");
        assert_eq!(matches("(a)(?:b)(?<c>c)", "", "abc")[0].2.len(), 2);
    }

    #[test]
    fn canonicalize_follows_javascript() {
        assert_eq!(canonicalize(u16::from(b'a')), u16::from(b'A'));
        assert_eq!(canonicalize(0x17F), 0x17F); // ſ → S would cross into ASCII
        assert_eq!(canonicalize(0xDF), 0xDF); // ß → SS is two units
        assert_eq!(canonicalize(0x3C2), 0x3A3); // ς → Σ
        assert_eq!(canonicalize(0xD800), 0xD800);
    }

    #[test]
    fn set_algebra() {
        assert_eq!(normalize(vec![(5, 6), (1, 2), (3, 3)]), [(1, 3), (5, 6)]);
        assert_eq!(complement(&vec![(0, 9), (20, 0xFFFF)]), [(10, 19)]);
        assert_eq!(complement(&Vec::new()), [(0, 0xFFFF)]);
        assert!(contains(&vec![(1, 3), (5, 6)], 5));
        assert!(!contains(&vec![(1, 3), (5, 6)], 4));
    }
}
