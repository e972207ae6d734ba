//! Function signatures (`<s-nn?:s>`): parsed once, checked on every call.
//!
//! jsonata-js turns a signature into a regular expression over one letter per argument and
//! matches the call against it. Here the same language is matched by a small table-driven
//! matcher that picks the same split of the arguments among the parameters as the JavaScript
//! regex engine does (greedy `?` and `+`, lazy `??` and `+?`), in time proportional to
//! parameters × arguments, so an expression's own lambda signature cannot make a call slow.

use crate::error::{Error, Result};
use crate::value::Val;

/// The kind letter of one value, as a bit: the alphabet the signature is matched over.
type Symbol = u8;

/// An array.
const ARRAY: Symbol = 0;
/// A string.
const STRING: Symbol = 1;
/// A number.
const NUMBER: Symbol = 2;
/// A boolean.
const BOOLEAN: Symbol = 3;
/// `null`.
const NULL: Symbol = 4;
/// A function.
const FUNCTION: Symbol = 5;
/// An object.
const OBJECT: Symbol = 6;
/// A missing (undefined) value: every type but `f` accepts it.
const MISSING: Symbol = 7;

/// The letters jsonata-js uses for the symbols, in symbol order.
const LETTERS: [u8; 8] = *b"asnblfom";

/// The bit of `symbol` in a [`Param`]'s class.
const fn bit(symbol: Symbol) -> u8 {
    1 << symbol
}

/// Every symbol (`x`, and what an array parameter accepts before wrapping).
const ANY: u8 = 0xff;
/// Every symbol but a function (`j`).
const JSON: u8 = ANY & !bit(FUNCTION);

/// How many times a parameter's class may repeat, and which count the matcher tries first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repeat {
    /// Exactly once.
    One,
    /// `?`: once if it can, else not at all.
    Optional,
    /// `??` (as `-?` or `?-` produce): not at all if it can, else once.
    OptionalLazy,
    /// `+`: as many as it can, at least once.
    Many,
    /// `+?`: as few as it can, at least once.
    ManyLazy,
}

impl Repeat {
    /// The repeat a run of `?`/`+` suffixes means, as a JavaScript regex reads it; `None` for a
    /// run JavaScript rejects ("nothing to repeat").
    fn from_suffix(suffix: &[u8]) -> Option<Repeat> {
        Some(match suffix {
            [] => Repeat::One,
            [b'?'] => Repeat::Optional,
            [b'?', b'?'] => Repeat::OptionalLazy,
            [b'+'] => Repeat::Many,
            [b'+', b'?'] => Repeat::ManyLazy,
            _ => return None,
        })
    }

    /// The fewest and most items it may take.
    fn bounds(self) -> (usize, usize) {
        match self {
            Repeat::One => (1, 1),
            Repeat::Optional | Repeat::OptionalLazy => (0, 1),
            Repeat::Many | Repeat::ManyLazy => (1, usize::MAX),
        }
    }

    /// Whether it tries the most items first.
    fn greedy(self) -> bool {
        matches!(self, Repeat::One | Repeat::Optional | Repeat::Many)
    }
}

/// What the context must be to stand in for a missing `-` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ContextTest {
    /// Any context (the class was already optional when `-` was written).
    Any,
    /// A context whose symbol is in this class.
    Class(u8),
    /// No context: a `-` written before any type, which jsonata-js tests against a pattern no
    /// single symbol matches.
    Never,
}

impl ContextTest {
    /// Whether a context of `symbol` passes.
    fn accepts(self, symbol: Symbol) -> bool {
        match self {
            ContextTest::Any => true,
            ContextTest::Class(class) => class & bit(symbol) != 0,
            ContextTest::Never => false,
        }
    }
}

/// One declared parameter.
#[derive(Debug, Clone)]
struct Param {
    /// The symbols it accepts, one bit each.
    class: u8,
    /// How many arguments it takes.
    repeat: Repeat,
    /// An array parameter (`a`): other values are wrapped into a one-item array.
    array: bool,
    /// `-`: the context stands in when the argument is missing.
    context: Option<ContextTest>,
    /// The type parameter after `a` or `f` (`n` in `a<n>`), as written.
    subtype: Option<Vec<u16>>,
}

/// A parsed signature.
#[derive(Debug, Clone)]
pub struct Signature {
    /// The parameters, in order.
    params: Vec<Param>,
}

/// A parameter while the signature is being read: jsonata-js lets `-`, `?` and `+` written
/// before the first type mark the parameter that type then starts.
#[derive(Default)]
struct Draft {
    /// The class, whether it is an array, and the type as jsonata-js names it (`a`, `(sf)`),
    /// once a type has been read.
    base: Option<(u8, bool, String)>,
    /// The `?`, `+` (and `?` for `-`) written after the type.
    suffix: Vec<u8>,
    /// Set by `-`.
    context: Option<ContextTest>,
    /// Set by `<…>` after `a` or `f`.
    subtype: Option<Vec<u16>>,
}

/// The most cells the matcher's table may hold (parameters × arguments): far beyond any real
/// call, and small enough that a hostile one stays cheap.
const MAX_CELLS: usize = 1 << 22;

impl Signature {
    /// Parses a signature written between `<` and `>` (both included).
    ///
    /// # Errors
    ///
    /// S0401 (a type parameter on a type other than `a` or `f`) and S0402 (a type parameter
    /// inside a choice, or a choice or suffix that jsonata-js's regex would reject), with the
    /// offset into `text` as the position.
    pub(crate) fn parse(text: &str) -> Result<Signature> {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut params: Vec<Draft> = Vec::new();
        let mut draft = Draft::default();
        let mut position = 1;
        while let Some(&unit) = units.get(position) {
            let letter = u8::try_from(unit).unwrap_or(0);
            if letter == b':' {
                break;
            }
            match letter {
                b's' | b'n' | b'b' | b'l' | b'o' => {
                    draft.start(bit(symbol_for(letter)) | bit(MISSING), false, letter, &mut params);
                }
                b'a' => draft.start(ANY, true, letter, &mut params),
                b'f' => draft.start(bit(FUNCTION), false, letter, &mut params),
                b'j' => draft.start(JSON, false, letter, &mut params),
                b'x' => draft.start(ANY, false, letter, &mut params),
                b'-' => {
                    let previous = params.last_mut().unwrap_or(&mut draft);
                    previous.context = Some(previous.context_test(position)?);
                    previous.suffix.push(b'?');
                }
                b'?' | b'+' => params.last_mut().unwrap_or(&mut draft).suffix.push(letter),
                b'(' => {
                    let end = closing(&units, position, b'(', b')');
                    let choice = String::from_utf16_lossy(units.get(position + 1..end).unwrap_or_default());
                    if choice.contains('<') {
                        return Err(Error::new("S0402").at(position).value(choice));
                    }
                    let Some(class) = choice_class(&choice) else {
                        let detail = format!("the choice ({choice}) in a signature may hold only type letters");
                        return Err(Error::new("S0402").at(position).value(choice).detail(detail));
                    };
                    draft.base = Some((class, false, format!("({choice})")));
                    draft.suffix.clear();
                    params.push(std::mem::take(&mut draft));
                    position = end;
                }
                b'<' => {
                    let previous = params.last_mut().unwrap_or(&mut draft);
                    match &previous.base {
                        Some((_, _, kind)) if kind == "a" || kind == "f" => {
                            let end = closing(&units, position, b'<', b'>');
                            previous.subtype = Some(units.get(position + 1..end).unwrap_or_default().to_vec());
                            position = end;
                        }
                        base => {
                            let mut error = Error::new("S0401").at(position);
                            if let Some((_, _, kind)) = base {
                                error = error.value(kind.clone());
                            }
                            return Err(error);
                        }
                    }
                }
                _ => {}
            }
            position += 1;
        }
        let params = params
            .into_iter()
            .map(|draft| {
                let repeat = Repeat::from_suffix(&draft.suffix).ok_or_else(|| bad_suffix(&draft.suffix, position))?;
                let (class, array, _) = draft.base.unwrap_or_default();
                Ok(Param { class, repeat, array, context: draft.context, subtype: draft.subtype })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Signature { params })
    }

    /// How many parameters it declares.
    pub(crate) fn arity(&self) -> usize {
        self.params.len()
    }

    /// Checks `args` against the signature: fills in the context where a parameter takes it
    /// (`-`), wraps a single value where an array is expected, and raises T0410/T0411/T0412.
    ///
    /// The result is what jsonata-js's `validate` returns, quirks included: a parameter that
    /// matched no argument and takes no context still takes the next argument in line.
    ///
    /// Checking `a<…>` looks at every item of such an argument once.
    pub(crate) fn validate(&self, args: Vec<Val>, context: &Val, name: &str) -> Result<Vec<Val>> {
        let symbols: Vec<Symbol> = args.iter().map(symbol_of).collect();
        let Some(spans) = self.split(&symbols)? else {
            let at = self.mismatch(&symbols)?;
            let mut error = Error::new("T0410").token(name).index(at + 1);
            if let Some(arg) = args.get(at) {
                error = error.value(describe(arg));
            }
            return Err(error);
        };
        let mut validated = Vec::with_capacity(self.params.len().max(args.len()));
        let mut next = 0;
        for (param, &(start, len)) in self.params.iter().zip(&spans) {
            if len == 0 {
                if let Some(test) = param.context {
                    if !test.accepts(symbol_of(context)) {
                        return Err(Error::new("T0411").token(name).index(next + 1).value(describe(context)));
                    }
                    validated.push(context.clone());
                } else {
                    validated.push(args.get(next).cloned().unwrap_or_default());
                    next += 1;
                }
                continue;
            }
            let matched = symbols.get(start..start + len).unwrap_or_default();
            for &single in matched {
                let arg = args.get(next).cloned().unwrap_or_default();
                validated.push(if param.array { param.as_array(arg, single, matched, next, name)? } else { arg });
                next += 1;
            }
        }
        Ok(validated)
    }

    /// For each parameter, the run of `symbols` it takes, as the anchored JavaScript regex
    /// would split them; `None` when the signature does not match.
    fn split(&self, symbols: &[Symbol]) -> Result<Option<Vec<(usize, usize)>>> {
        let table = self.table(symbols, self.params.len(), true)?;
        if !table.get(0, 0) {
            return Ok(None);
        }
        Ok(Some(self.walk(symbols, self.params.len(), &table)))
    }

    /// The index of the argument jsonata-js blames when the signature does not match: the
    /// length of the longest-matching prefix's match, taken as the regex engine takes it.
    fn mismatch(&self, symbols: &[Symbol]) -> Result<usize> {
        // The first prefix of parameters that matches no prefix of the arguments.
        let mut reach = vec![false; symbols.len() + 1];
        if let Some(start) = reach.first_mut() {
            *start = true;
        }
        let mut failing = None;
        for (count, param) in self.params.iter().enumerate() {
            reach = param.advance(&reach, symbols);
            if !reach.contains(&true) {
                failing = Some(count);
                break;
            }
        }
        let good = failing.unwrap_or(self.params.len());
        let table = self.table(symbols, good, false)?;
        Ok(self.walk(symbols, good, &table).iter().map(|&(_, len)| len).sum())
    }

    /// `ok(i, pos)`: whether parameters `i..count` can take `symbols[pos..]` (all of it when
    /// `anchored`, else any prefix of it).
    fn table(&self, symbols: &[Symbol], count: usize, anchored: bool) -> Result<Table> {
        let width = symbols.len() + 1;
        let cells = (count + 1).saturating_mul(width);
        if cells > MAX_CELLS {
            return Err(Error::new("U1001").value(MAX_CELLS.to_string()).detail(format!(
                "a call passes {} arguments to a signature of {} parameters: too many to check",
                symbols.len(),
                self.params.len()
            )));
        }
        let mut table = Table { width, cells: vec![false; cells] };
        for pos in 0..width {
            table.set(count, pos, !anchored || pos == symbols.len());
        }
        for (i, param) in self.params.iter().enumerate().take(count).rev() {
            let (min, max) = param.repeat.bounds();
            // Walking back, `run` counts how many symbols from `pos` on the class accepts, and
            // `reachable` lists (in decreasing order) the positions from which the rest goes on.
            let mut run = 0usize;
            let mut reachable: Vec<usize> = Vec::new();
            for pos in (0..width).rev() {
                let accepts = symbols.get(pos).is_some_and(|&s| param.class & bit(s) != 0);
                run = if accepts { run + 1 } else { 0 };
                if table.get(i + 1, pos) {
                    reachable.push(pos);
                }
                // Positions pos+min ..= pos+min(run, max) from which the rest matches.
                let hi = pos + run.min(max);
                let lo = pos + min;
                let ok = lo <= hi && first_at_least(&reachable, lo).is_some_and(|p| p <= hi);
                table.set(i, pos, ok);
            }
        }
        Ok(table)
    }

    /// The runs the regex engine would give the first `count` parameters, following `table`
    /// (which must say the whole walk succeeds from the start).
    fn walk(&self, symbols: &[Symbol], count: usize, table: &Table) -> Vec<(usize, usize)> {
        let mut spans = Vec::with_capacity(count);
        let mut pos = 0;
        for (i, param) in self.params.iter().enumerate().take(count) {
            let (min, max) = param.repeat.bounds();
            let rest = symbols.get(pos..).unwrap_or_default();
            let run = rest.iter().take_while(|&&s| param.class & bit(s) != 0).count();
            let hi = run.min(max);
            let pick = if param.repeat.greedy() {
                (min..=hi).rev().find(|&k| table.get(i + 1, pos + k))
            } else {
                (min..=hi).find(|&k| table.get(i + 1, pos + k))
            };
            let len = pick.unwrap_or(0);
            spans.push((pos, len));
            pos += len;
        }
        spans
    }
}

impl Draft {
    /// Starts the parameter a type letter names and pushes it: the type replaces whatever
    /// suffix came before it, but not a `-` context.
    fn start(&mut self, class: u8, array: bool, letter: u8, params: &mut Vec<Draft>) {
        self.base = Some((class, array, char::from(letter).to_string()));
        self.suffix.clear();
        params.push(std::mem::take(self));
    }

    /// The context test a `-` written now makes: jsonata-js compiles the parameter's pattern as
    /// it stands at that point and tests the context's symbol against it. Before any type the
    /// pattern is empty (it matches anything) or, once a suffix is written, a word no single
    /// symbol matches.
    fn context_test(&self, position: usize) -> Result<ContextTest> {
        let Some((class, _, _)) = self.base else {
            return Ok(if self.suffix.is_empty() { ContextTest::Any } else { ContextTest::Never });
        };
        match Repeat::from_suffix(&self.suffix) {
            Some(Repeat::Optional | Repeat::OptionalLazy) => Ok(ContextTest::Any),
            Some(_) => Ok(ContextTest::Class(class)),
            None => Err(bad_suffix(&self.suffix, position)),
        }
    }
}

impl Param {
    /// The positions reachable after this parameter from the positions in `from`.
    fn advance(&self, from: &[bool], symbols: &[Symbol]) -> Vec<bool> {
        let accepts = |pos: usize| symbols.get(pos).is_some_and(|&s| self.class & bit(s) != 0);
        let mut to = vec![false; from.len()];
        match self.repeat {
            Repeat::One | Repeat::Optional | Repeat::OptionalLazy => {
                let optional = self.repeat != Repeat::One;
                for (pos, &reached) in from.iter().enumerate() {
                    if reached && optional {
                        to[pos] = true;
                    }
                    if reached && accepts(pos) {
                        if let Some(next) = to.get_mut(pos + 1) {
                            *next = true;
                        }
                    }
                }
            }
            Repeat::Many | Repeat::ManyLazy => {
                // `open`: some reached position starts a run of accepted symbols that lasts
                // up to here, so every position up to the run's end is reachable.
                let mut open = false;
                for (pos, &reached) in from.iter().enumerate() {
                    to[pos] = open;
                    open = accepts(pos) && (open || reached);
                }
            }
        }
        to
    }

    /// An argument for an `a` parameter: checks `a<t>` item types (T0412) and wraps a value
    /// that is not an array.
    fn as_array(&self, arg: Val, single: Symbol, matched: &[Symbol], index: usize, name: &str) -> Result<Val> {
        if single == MISSING {
            return Ok(Val::Undefined);
        }
        if let Some(subtype) = &self.subtype {
            let fits = if single == ARRAY {
                match arg.as_array() {
                    Some(items) if !items.is_empty() => {
                        let first = items.get(0).map_or(MISSING, |item| symbol_of(&item));
                        subtype.first() == Some(&u16::from(letter_of(first)))
                            && items.iter().all(|item| symbol_of(&item) == first)
                    }
                    _ => true,
                }
            } else {
                matched.len() == subtype.len()
                    && matched.iter().zip(subtype).all(|(&s, &unit)| u16::from(letter_of(s)) == unit)
            };
            if !fits {
                let mut error = Error::new("T0412").token(name).index(index + 1).value(describe(&arg));
                if let Some(plural) = plural(subtype) {
                    error = error.value2(plural);
                }
                return Err(error);
            }
        }
        Ok(if single == ARRAY { arg } else { Val::array(vec![arg]) })
    }
}

/// A table of booleans indexed by (parameter, position).
struct Table {
    /// Positions per row.
    width: usize,
    /// The cells, row by row.
    cells: Vec<bool>,
}

impl Table {
    /// The cell at (`row`, `col`); false outside the table.
    fn get(&self, row: usize, col: usize) -> bool {
        col < self.width && self.cells.get(row * self.width + col).copied().unwrap_or(false)
    }

    /// Sets the cell at (`row`, `col`).
    fn set(&mut self, row: usize, col: usize, value: bool) {
        if let Some(cell) = self.cells.get_mut(row * self.width + col) {
            *cell = value;
        }
    }
}

/// In `descending` (positions in decreasing order), the smallest one at least `lo`.
fn first_at_least(descending: &[usize], lo: usize) -> Option<usize> {
    // The smallest value ≥ lo sits just before the first value < lo.
    let below = descending.partition_point(|&p| p >= lo);
    below.checked_sub(1).and_then(|i| descending.get(i).copied())
}

/// The index of the bracket closing the one opened at `start`, or `units.len()` when none
/// does (as jsonata-js's scan ends).
fn closing(units: &[u16], start: usize, open: u8, close: u8) -> usize {
    let mut depth = 1;
    let mut position = start;
    while position < units.len() {
        position += 1;
        match units.get(position) {
            Some(&unit) if unit == u16::from(close) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Some(&unit) if unit == u16::from(open) => depth += 1,
            _ => {}
        }
    }
    position
}

/// The class a choice `(…)` accepts: its letters and a missing value. jsonata-js pastes the
/// choice into a regex character class; characters that would mean something there other than
/// themselves (`\`, `]`, a leading `^`, a range `-`) are refused rather than reinterpreted.
fn choice_class(choice: &str) -> Option<u8> {
    let mut class = bit(MISSING);
    for (i, c) in choice.chars().enumerate() {
        match c {
            '\\' | ']' => return None,
            '^' if i == 0 => return None,
            '-' if i > 0 => return None,
            _ => {
                if let Ok(letter) = u8::try_from(c) {
                    if LETTERS.contains(&letter) {
                        class |= bit(symbol_for(letter));
                    }
                }
            }
        }
    }
    Some(class)
}

/// The symbol a type letter stands for (one of [`LETTERS`]).
fn symbol_for(letter: u8) -> Symbol {
    LETTERS.iter().position(|&l| l == letter).map_or(MISSING, |i| i as Symbol)
}

/// The letter of `symbol`.
fn letter_of(symbol: Symbol) -> u8 {
    LETTERS.get(usize::from(symbol)).copied().unwrap_or(b'm')
}

/// The error for a run of `?`/`+` that jsonata-js's regex rejects.
fn bad_suffix(suffix: &[u8], position: usize) -> Error {
    let written = String::from_utf8_lossy(suffix).into_owned();
    Error::new("S0402").at(position).value(written.clone()).detail(format!(
        "the modifiers {written} cannot follow one another in a signature: write at most one of ? or +, and - once"
    ))
}

/// The plural jsonata-js names an `a<t>` item type by in T0412.
fn plural(subtype: &[u16]) -> Option<&'static str> {
    Some(match subtype {
        [unit] => match u8::try_from(*unit).ok()? {
            b'a' => "arrays",
            b'b' => "booleans",
            b'f' => "functions",
            b'n' => "numbers",
            b'o' => "objects",
            b's' => "strings",
            _ => return None,
        },
        _ => return None,
    })
}

/// The symbol of a value, as jsonata-js's `getSymbol` gives it.
fn symbol_of(value: &Val) -> Symbol {
    match value {
        Val::Undefined => MISSING,
        Val::Null => NULL,
        Val::Bool(_) => BOOLEAN,
        Val::Number(_) => NUMBER,
        Val::String(_) => STRING,
        Val::Array(_) | Val::List(..) => ARRAY,
        Val::Object(_) | Val::Record(_) => OBJECT,
        Val::Function(_) => FUNCTION,
    }
}

/// A short JSON rendering of a value for an error: the start of its JSON text, cut at a
/// fixed length so that a huge argument costs nothing to report.
fn describe(value: &Val) -> String {
    let mut out = String::new();
    let complete = write_short(value, &mut out);
    if !complete {
        out.push('…');
    }
    out
}

/// How much of a value's JSON an error shows.
const DESCRIBE_WIDTH: usize = 60;

/// Writes `value` as JSON into `out` until `out` reaches [`DESCRIBE_WIDTH`]; false when cut.
/// Every level writes at least one character, so the recursion is as shallow as the width.
fn write_short(value: &Val, out: &mut String) -> bool {
    if out.len() >= DESCRIBE_WIDTH {
        return false;
    }
    match value {
        Val::Undefined => out.push_str("undefined"),
        Val::Function(_) => out.push_str("a function"),
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Number(n) => writ_core::write_js_number(*n, out),
        Val::String(s) => {
            let room = DESCRIBE_WIDTH.saturating_sub(out.len());
            if s.len_utf16() > room {
                writ_core::write_json_string(&s.slice(0, room), out);
                return false;
            }
            writ_core::write_json_string(s, out);
        }
        Val::Array(_) | Val::List(..) => {
            out.push('[');
            for (i, item) in value.as_array().into_iter().flat_map(|items| items.iter()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_short(&item, out) {
                    return false;
                }
            }
            out.push(']');
        }
        Val::Object(_) | Val::Record(_) => {
            out.push('{');
            for (i, (key, item)) in value.as_object().into_iter().flat_map(|o| o.entries()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() >= DESCRIBE_WIDTH {
                    return false;
                }
                writ_core::write_json_string(&key, out);
                out.push(':');
                if !write_short(&item, out) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    out.len() <= DESCRIBE_WIDTH
}

