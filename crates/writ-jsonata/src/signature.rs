//! Function signatures (`<s-nn?:s>`): parsed once, checked on every call.
//!
//! jsonata-js turns a signature into a regular expression over one letter per argument and
//! matches the call against it. Here the same language is matched by a small table-driven
//! matcher that picks the same split of the arguments among the parameters as the JavaScript
//! regex engine does (greedy `?` and `+`, lazy `??` and `+?`), in time proportional to
//! parameters × arguments, so an expression's own lambda signature cannot make a call slow.

use crate::error::{Code, Error, Result};
use crate::value::{ArrayView, Val};

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
                    let units_of_choice = units.get(position + 1..end).unwrap_or_default();
                    let choice = String::from_utf16_lossy(units_of_choice);
                    if choice.contains('<') {
                        return Err(Error::new(Code::S0402).at(position).with_value(choice));
                    }
                    let Some(class) = choice_class(units_of_choice) else {
                        let detail = format!("the choice ({choice}) in a signature may hold only type letters");
                        return Err(Error::new(Code::S0402)
                            .at(position)
                            .with_value(choice)
                            .with_detail(detail));
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
                            let mut error = Error::new(Code::S0401).at(position);
                            if let Some((_, _, kind)) = base {
                                error = error.with_value(kind.clone());
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
                Ok(Param {
                    class,
                    repeat,
                    array,
                    context: draft.context,
                    subtype: draft.subtype,
                })
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
        // The common call: one argument per parameter, each of a type its parameter takes.
        // The match is then the one the general matcher would find, without building tables.
        // Trailing optional parameters may be left out (`$formatNumber(n, picture)`): the
        // greedy first split the regex tries then matches, and the parameters left out take
        // nothing.
        let given = args.len();
        if self.params.get(given..).is_some_and(|rest| {
            rest.iter()
                .all(|param| matches!(param.repeat, Repeat::Optional | Repeat::OptionalLazy) && param.context.is_none())
        }) && self.params.iter().zip(&args).all(|(param, arg)| {
            let symbol = symbol_of(arg);
            symbol != MISSING
                && matches!(param.repeat, Repeat::One | Repeat::Optional)
                && param.class & bit(symbol) != 0
        }) {
            let mut validated = args;
            for (index, (param, arg)) in self.params.iter().zip(validated.iter_mut()).enumerate() {
                if param.array {
                    let symbol = symbol_of(arg);
                    *arg = param.as_array(std::mem::take(arg), symbol, &[symbol], index, name)?;
                }
            }
            validated.resize(self.params.len(), Val::Undefined);
            return Ok(validated);
        }
        let symbols: Vec<Symbol> = args.iter().map(symbol_of).collect();
        let Some(spans) = self.split(&symbols)? else {
            let at = self.mismatch(&symbols)?;
            let mut error = Error::new(Code::T0410).with_token(name).with_index(at + 1);
            if let Some(arg) = args.get(at) {
                error = error.with_value(describe(arg));
            }
            return Err(error);
        };
        let mut validated = Vec::with_capacity(self.params.len().max(args.len()));
        let mut next = 0;
        for (param, &(start, len)) in self.params.iter().zip(&spans) {
            if len == 0 {
                if let Some(test) = param.context {
                    if !test.accepts(symbol_of(context)) {
                        return Err(Error::new(Code::T0411)
                            .with_token(name)
                            .with_index(next + 1)
                            .with_value(describe(context)));
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
                validated.push(if param.array {
                    param.as_array(arg, single, matched, next, name)?
                } else {
                    arg
                });
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
            return Err(Error::new(Code::U1001)
                .with_value(MAX_CELLS.to_string())
                .with_detail(format!(
                    "a call passes {} arguments to a signature of {} parameters: too many to check",
                    symbols.len(),
                    self.params.len()
                )));
        }
        let mut table = Table {
            width,
            cells: vec![false; cells],
        };
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
            return Ok(if self.suffix.is_empty() {
                ContextTest::Any
            } else {
                ContextTest::Never
            });
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
                    if reached
                        && accepts(pos)
                        && let Some(next) = to.get_mut(pos + 1)
                    {
                        *next = true;
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
                // The items' kinds are read where they are, without taking each item out.
                let first_fits = |first: Symbol| subtype.first() == Some(&u16::from(letter_of(first)));
                match arg.as_array() {
                    Some(ArrayView::Data(items)) => all_of_one_kind(items, symbol_of_value, first_fits),
                    Some(ArrayView::Built(items)) => all_of_one_kind(items, symbol_of, first_fits),
                    None => true,
                }
            } else {
                matched.len() == subtype.len()
                    && matched
                        .iter()
                        .zip(subtype)
                        .all(|(&s, &unit)| u16::from(letter_of(s)) == unit)
            };
            if !fits {
                let mut error = Error::new(Code::T0412)
                    .with_token(name)
                    .with_index(index + 1)
                    .with_value(describe(&arg));
                if let Some(plural) = plural(subtype) {
                    error = error.with_value2(plural);
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

/// The class a choice `(…)` accepts. jsonata-js pastes the choice into the regex character
/// class `[choice m]`, so it is read as JavaScript reads a class: a leading `^` negates it and
/// `x-y` is a range (JavaScript rejects one out of order, and so does this). A `\` or `]`,
/// which would change the pattern's structure rather than the class, is refused.
fn choice_class(choice: &[u16]) -> Option<u8> {
    let mut content: Vec<u16> = choice.to_vec();
    content.push(u16::from(b'm'));
    let negated = content.first() == Some(&u16::from(b'^'));
    let items = content.get(usize::from(negated)..).unwrap_or_default();
    if items.iter().any(|&u| u == u16::from(b'\\') || u == u16::from(b']')) {
        return None;
    }
    let mut ranges: Vec<(u16, u16)> = Vec::new();
    let mut i = 0;
    while let Some(&low) = items.get(i) {
        match (items.get(i + 1), items.get(i + 2)) {
            (Some(&dash), Some(&high)) if dash == u16::from(b'-') => {
                if low > high {
                    return None;
                }
                ranges.push((low, high));
                i += 3;
            }
            _ => {
                ranges.push((low, low));
                i += 1;
            }
        }
    }
    let mut class = 0;
    for (symbol, &letter) in LETTERS.iter().enumerate() {
        let unit = u16::from(letter);
        if ranges.iter().any(|&(low, high)| (low..=high).contains(&unit)) != negated {
            class |= bit(symbol as Symbol);
        }
    }
    Some(class)
}

/// The symbol a type letter stands for (one of [`LETTERS`]).
fn symbol_for(letter: u8) -> Symbol {
    LETTERS
        .iter()
        .position(|&l| l == letter)
        .map_or(MISSING, |i| i as Symbol)
}

/// The letter of `symbol`.
fn letter_of(symbol: Symbol) -> u8 {
    LETTERS.get(usize::from(symbol)).copied().unwrap_or(b'm')
}

/// The error for a run of `?`/`+` that jsonata-js's regex rejects.
fn bad_suffix(suffix: &[u8], position: usize) -> Error {
    let written = String::from_utf8_lossy(suffix).into_owned();
    Error::new(Code::S0402)
        .at(position)
        .with_value(written.clone())
        .with_detail(format!(
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
/// Whether `items` are all of the first one's kind and that kind fits (an empty array fits).
fn all_of_one_kind<T>(items: &[T], kind: fn(&T) -> Symbol, first_fits: impl Fn(Symbol) -> bool) -> bool {
    match items.split_first() {
        None => true,
        Some((first, rest)) => {
            let first = kind(first);
            first_fits(first) && rest.iter().all(|item| kind(item) == first)
        }
    }
}

/// The kind letter of a value of the input, as [`symbol_of`] reads it once taken.
fn symbol_of_value(value: &writ_core::Value) -> Symbol {
    use writ_core::Value;
    match value {
        Value::Undefined => MISSING,
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

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
pub(crate) fn describe(value: &Val) -> String {
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

#[cfg(test)]
mod tests {
    //! [`CASES`] was made by calling, in jsonata-js 2.2.2, a lambda of five parameters with each
    //! signature on each argument list (`λ($a,…,$e)<sig>{{"0": $a, …}}(args)` over the context)
    //! and writing down what the lambda saw, or the error's code and argument index.
    use std::rc::Rc;

    use serde_json::{Value as Json, json};
    use writ_core::Value;

    use super::Signature;
    use crate::function::Function;
    use crate::value::Val;

    /// A value from a test spec: JSON, or `{"$u":1}` for undefined, `{"$f":1}` for a function.
    fn val(spec: &Json) -> Val {
        match spec {
            Json::Object(map) if map.contains_key("$u") => Val::Undefined,
            Json::Object(map) if map.contains_key("$f") => {
                let string = crate::functions::lookup("string").expect("$string exists");
                Val::Function(Rc::new(Function::Builtin(string)))
            }
            other => Val::from(serde_json::from_value::<Value>(other.clone()).expect("JSON")),
        }
    }

    /// What a lambda of five parameters sees of `validated`: `U` for undefined, `F` for a
    /// function, else the value.
    fn seen(validated: &[Val]) -> Json {
        Json::Object(
            (0..5)
                .map(|i| {
                    let seen = match validated.get(i) {
                        None | Some(Val::Undefined) => json!("U"),
                        Some(Val::Function(_)) => json!("F"),
                        Some(v) => serde_json::to_value(v.to_value()).expect("JSON"),
                    };
                    (i.to_string(), seen)
                })
                .collect(),
        )
    }

    /// Runs one case: the signature over the args and context; what jsonata-js's lambda would
    /// see, or the error's code and index.
    fn run(sig: &str, args: &Json, ctx: &Json) -> Json {
        let signature = Signature::parse(sig).expect("parses");
        let args: Vec<Val> = args.as_array().expect("args").iter().map(val).collect();
        match signature.validate(args, &val(ctx), "lambda") {
            Ok(validated) => json!({ "result": seen(&validated) }),
            Err(e) => json!({ "error": { "code": e.details().code.as_str(), "index": e.details().index } }),
        }
    }

    #[test]
    fn validation_matches_jsonata_js() {
        let mut disagreements = Vec::new();
        for line in CASES.lines().filter(|l| !l.is_empty()) {
            let case: Json = serde_json::from_str(line).expect("JSON");
            let got = run(case["sig"].as_str().expect("sig"), &case["args"], &case["ctx"]);
            let want = match case.get("result") {
                Some(result) => json!({ "result": result }),
                None => json!({ "error": case["error"] }),
            };
            if got != want {
                disagreements.push(format!("{line}\n  writ: {got}"));
            }
        }
        assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    }

    #[test]
    fn context_arrays_and_quirks() {
        let ctx = Val::from("ctx");
        let s = |text: &str| Val::from(text);
        // `-` takes the context when the argument is missing.
        let substring = Signature::parse("<s-nn?:s>").expect("parses");
        let got = substring
            .validate(vec![Val::Number(1.0)], &ctx, "substring")
            .expect("valid");
        assert!(matches!(&got[..], [Val::String(c), Val::Number(_), Val::Undefined] if c.eq_str("ctx")));
        // ... unless the context is the wrong type.
        let e = substring
            .validate(vec![Val::Number(1.0)], &Val::Number(2.0), "substring")
            .expect_err("T0411");
        assert_eq!(
            (
                e.details().code.as_str(),
                e.details().index,
                e.details().token.as_deref()
            ),
            ("T0411", Some(1), Some("substring"))
        );
        // A single value where an array is expected is wrapped into one.
        let got = Signature::parse("<a<n>:n>")
            .expect("parses")
            .validate(vec![Val::Number(3.0)], &ctx, "sum");
        assert!(matches!(&got.expect("valid")[..], [Val::List(items, _)] if items.len() == 1));
        // Mixed item types in a typed array: T0412, naming the type.
        let mixed = Val::array(vec![Val::Number(1.0), s("a")]);
        let e = Signature::parse("<a<n>:n>")
            .expect("parses")
            .validate(vec![mixed], &ctx, "sum")
            .expect_err("T0412");
        assert_eq!(
            (
                e.details().code.as_str(),
                e.details().index,
                e.details().value2.as_deref()
            ),
            ("T0412", Some(1), Some("numbers"))
        );
        // The argument blamed is the one after the longest match.
        let e = substring
            .validate(vec![s("a"), s("b")], &ctx, "substring")
            .expect_err("T0410");
        assert_eq!(
            (
                e.details().code.as_str(),
                e.details().index,
                e.details().value.as_deref()
            ),
            ("T0410", Some(2), Some("\"b\""))
        );
        // A parameter that matched nothing and takes no context still takes the next argument,
        // as in jsonata-js: `<n?s>("x")` binds "x" to the first parameter.
        let got = Signature::parse("<n?s>")
            .expect("parses")
            .validate(vec![s("x")], &ctx, "f")
            .expect("valid");
        assert!(matches!(&got[..], [Val::String(x), Val::Undefined] if x.eq_str("x")));
    }

    #[test]
    fn arity_counts_declared_parameters() {
        let arity = |text: &str| Signature::parse(text).expect("parses").arity();
        assert_eq!(arity("<s-nn?:s>"), 3);
        assert_eq!(arity("<af>"), 2);
        assert_eq!(arity("<a+>"), 1);
        assert_eq!(arity("<:n>"), 0);
        assert_eq!(arity("<s-f<s:o>n?:a<o>>"), 3);
        assert_eq!(arity("<s-(sf)(sf)n?:s>"), 4);
        // `u` means nothing to jsonata-js 2.2.2's signature reader.
        assert_eq!(arity("<u>"), 0);
    }

    #[test]
    fn signature_errors() {
        let e = Signature::parse("<s<s>>").expect_err("S0401");
        assert_eq!(
            (
                e.details().code.as_str(),
                e.details().position,
                e.details().value.as_deref()
            ),
            ("S0401", Some(2), Some("s"))
        );
        let e = Signature::parse("<(sa<n>)>").expect_err("S0402");
        assert_eq!(
            (
                e.details().code.as_str(),
                e.details().position,
                e.details().value.as_deref()
            ),
            ("S0402", Some(1), Some("sa<n>"))
        );
        // What JavaScript's regex would reject is refused too.
        assert_eq!(
            Signature::parse("<n?+>").expect_err("bad suffix").code().as_str(),
            "S0402"
        );
        assert_eq!(
            Signature::parse("<(s-n)>")
                .expect_err("range out of order")
                .code()
                .as_str(),
            "S0402"
        );
        assert_eq!(
            Signature::parse("<(s]n)>")
                .expect_err("class closed early")
                .code()
                .as_str(),
            "S0402"
        );
        // A choice is a JavaScript character class: ranges and negation as JavaScript reads them.
        let accepts = |text: &str, arg: Val| {
            Signature::parse(text)
                .expect("parses")
                .validate(vec![arg], &Val::Null, "f")
        };
        assert!(accepts("<(a-c)>", Val::Bool(true)).is_ok());
        assert!(accepts("<(a-c)>", Val::Number(1.0)).is_err());
        assert!(accepts("<(^s)>", Val::Number(1.0)).is_ok());
        assert!(accepts("<(^s)>", Val::from("s")).is_err());
        // Every built-in signature parses.
        for text in [
            "<x-b?:s>",
            "<s-f<s:o>n?:a<o>>",
            "<afj?:j>",
            "<o-f?:o>",
            "<n-s?s?:s>",
            "<(oa)-:o>",
            "<bs?:x>",
        ] {
            assert!(Signature::parse(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn matching_many_arguments_stays_fast_and_bounded() {
        let ctx = Val::Undefined;
        let many: Vec<Val> = (0..100_000).map(|i| Val::Number(f64::from(i))).collect();
        let plus = Signature::parse("<n+s?n?>").expect("parses");
        // The greedy `n+` takes every number; the two optional parameters each add an undefined.
        assert_eq!(plus.validate(many.clone(), &ctx, "f").expect("valid").len(), 100_002);
        // A lazy repeat before a greedy one: the split the regex engine would pick.
        let lazy = Signature::parse("<n+?n+>").expect("parses");
        let got = lazy.validate(many[..3].to_vec(), &ctx, "f").expect("valid");
        assert_eq!(got.len(), 3);
        // A long signature against many arguments is refused rather than slow.
        let long = format!("<{}>", "n?".repeat(1_000));
        let e = Signature::parse(&long)
            .expect("parses")
            .validate(many, &ctx, "f")
            .expect_err("too big");
        assert_eq!(e.details().code.as_str(), "U1001");
    }

    #[test]
    fn errors_show_a_short_value() {
        let huge = Val::array((0..100_000).map(|i| Val::Number(f64::from(i))).collect());
        let e = Signature::parse("<s>")
            .expect("parses")
            .validate(vec![huge], &Val::Undefined, "f")
            .expect_err("T0410");
        let shown = e.details().value.clone().expect("a value");
        assert!(
            shown.starts_with("[0,1,2") && shown.ends_with('…') && shown.len() < 100,
            "{shown}"
        );
    }

    /// jsonata-js 2.2.2's outcomes, one JSON object per line (`sig`, `args`, `ctx`, and `result` or
    /// `error`); `{"$u":1}` is undefined and `{"$f":1}` a function.
    const CASES: &str = r##"{"sig":"<s-nn?:s>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<s-nn?:s>","args":[1],"ctx":"ctx","result":{"0":"ctx","1":1,"2":"U","3":"U","4":"U"}}
{"sig":"<s-nn?:s>","args":[1],"ctx":5,"error":{"code":"T0411","index":1}}
{"sig":"<a<n>:n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<n>:n>","args":[1],"ctx":"ctx","result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>:n>","args":["s"],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<af>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<af>","args":["s",{"$f":1}],"ctx":"ctx","result":{"0":["s"],"1":"F","2":"U","3":"U","4":"U"}}
{"sig":"<x-b?:s>","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<x-b?:s>","args":[1,2],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<a+>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a+>","args":[1],"ctx":"ctx","result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n?s>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n?s>","args":["s"],"ctx":"ctx","result":{"0":"s","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<nn+:a>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<nn+:a>","args":[1,2],"ctx":"ctx","result":{"0":1,"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<n+s-:a<n>>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n+s-:a<n>>","args":[1],"ctx":"ctx","result":{"0":1,"1":"ctx","2":"U","3":"U","4":"U"}}
{"sig":"<n+s-:a<n>>","args":[1],"ctx":5,"error":{"code":"T0411","index":2}}
{"sig":"<a<n>+:o>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<n>+:o>","args":[1],"ctx":"ctx","result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>+:o>","args":["s"],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<s?n+:a<n>>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<s?n+:a<n>>","args":[1],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<(sf)>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<(sf)>","args":["s"],"ctx":"ctx","result":{"0":"s","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<(ns)-:n>","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<(ns)-:n>","args":[],"ctx":[1],"error":{"code":"T0411","index":1}}
{"sig":"<(ns)-:n>","args":[1,2],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<-s?>","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<-s?>","args":[1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<?-s?>","args":[],"ctx":"ctx","error":{"code":"T0411","index":1}}
{"sig":"<?-s?>","args":[1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<?-s?>","args":["s"],"ctx":"ctx","result":{"0":"s","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n-->","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n-->","args":["s"],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<s>s?:s>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<s>s?:s>","args":[1],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a<s>s?:s>","args":["s"],"ctx":"ctx","result":{"0":["s"],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<afj?:j>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<afj?:j>","args":["s",{"$f":1}],"ctx":"ctx","result":{"0":["s"],"1":"F","2":"U","3":"U","4":"U"}}
{"sig":"<o-f?:o>","args":[],"ctx":"ctx","error":{"code":"T0411","index":1}}
{"sig":"<o-f?:o>","args":[],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<o-f?:o>","args":[1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<x-s:x>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<x-s:x>","args":["s"],"ctx":"ctx","result":{"0":"ctx","1":"s","2":"U","3":"U","4":"U"}}
{"sig":"<xx:a>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<xx:a>","args":[1,2],"ctx":"ctx","result":{"0":1,"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<s-(sf)(sf)n?:s>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<s-(sf)(sf)n?:s>","args":["s",{"$f":1}],"ctx":"ctx","result":{"0":"ctx","1":"s","2":"F","3":"U","4":"U"}}
{"sig":"<s-(sf)(sf)n?:s>","args":["s",{"$f":1}],"ctx":5,"error":{"code":"T0411","index":1}}
{"sig":"<n+?n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n+?n>","args":[1,2],"ctx":"ctx","result":{"0":1,"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<n??n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n??n>","args":[1],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a>","args":[1],"ctx":"ctx","result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<j>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<j>","args":[1],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<f>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<f>","args":[{"$f":1}],"ctx":"ctx","result":{"0":"F","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<l>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<l>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<b>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<b>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<o>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<o>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<s->","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<s->","args":[],"ctx":5,"error":{"code":"T0411","index":1}}
{"sig":"<s->","args":[1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<o>:o>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<o>:o>","args":[1],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a<o>:o>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<a>>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<a>>","args":[1],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a<a>>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<>>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<>>","args":[1],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a<>>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a-n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a-n>","args":[1],"ctx":"ctx","result":{"0":"ctx","1":1,"2":"U","3":"U","4":"U"}}
{"sig":"<a?a?>","args":[],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a?a?>","args":["s",1,2],"ctx":"ctx","error":{"code":"T0410","index":3}}
{"sig":"<x+>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<x+>","args":[1],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<j+n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<j+n>","args":[1,2],"ctx":"ctx","result":{"0":1,"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<n?n?n>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n?n?n>","args":[1],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<s+?s>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<s+?s>","args":["s","s","s"],"ctx":"ctx","result":{"0":"s","1":"s","2":"s","3":"U","4":"U"}}
{"sig":"<a<n>->","args":[],"ctx":"ctx","result":{"0":"ctx","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>->","args":["s"],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a<n>->","args":[1,2],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<u>","args":[],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<u>","args":[1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<ab+>","args":[],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<ab+>","args":[1,{"$u":1}],"ctx":"ctx","result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<f>","args":[[1,"a"]],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<s-nn?:s>","args":["s",1],"ctx":[1],"result":{"0":"s","1":1,"2":"U","3":"U","4":"U"}}
{"sig":"<x-b?:s>","args":[[1,2],{"$f":1},1],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<a+>","args":["s","s","s"],"ctx":[1],"result":{"0":["s"],"1":["s"],"2":["s"],"3":"U","4":"U"}}
{"sig":"<b>","args":["s",1,2],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<>>","args":[{"k":1}],"ctx":{"$u":1},"error":{"code":"T0412","index":1}}
{"sig":"<l>","args":[],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<a<s>s?:s>","args":[null],"ctx":{"$u":1},"error":{"code":"T0412","index":1}}
{"sig":"<x-b?:s>","args":[[1,"a"]],"ctx":{"$u":1},"result":{"0":[1,"a"],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<l>","args":[{"k":1},{"$f":1}],"ctx":[1],"error":{"code":"T0410","index":1}}
{"sig":"<s?n+:a<n>>","args":[1],"ctx":{"$u":1},"result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n?n?n>","args":[[1,"a"]],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<o>","args":[],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<u>","args":[],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<afj?:j>","args":[1,2],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<af>","args":[1,{"$u":1}],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<(ns)-:n>","args":[[1,2],{"$f":1},1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<n>+:o>","args":[{"k":1}],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<af>","args":[[{"k":1}]],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<a<s>s?:s>","args":[[1,2]],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<a-n>","args":[1,{"$u":1}],"ctx":5,"result":{"0":[1],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<j>","args":[{"$u":1},1],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<n-->","args":["s",1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<n>->","args":["s",1],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<x+>","args":["s"],"ctx":5,"result":{"0":"s","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<u>","args":[{"k":1}],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<x-s:x>","args":[[1,2]],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<s-nn?:s>","args":["s",{"$f":1}],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<a<s>s?:s>","args":[{"$u":1}],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n?n?n>","args":[[1,2],[1,2]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<ab+>","args":[[{"k":1}]],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<j+n>","args":[[[1]]],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<n+s-:a<n>>","args":[1,2],"ctx":[1],"error":{"code":"T0411","index":3}}
{"sig":"<nn+:a>","args":[true],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<s-(sf)(sf)n?:s>","args":[[1,"a"]],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<x-s:x>","args":["s",1,2],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<xx:a>","args":["s",{"$u":1},{"$u":1}],"ctx":"ctx","error":{"code":"T0410","index":3}}
{"sig":"<j+n>","args":[true],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<a-n>","args":[1,2],"ctx":{"$u":1},"result":{"0":[1],"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<ab+>","args":[{"$u":1}],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<n-->","args":["s","s","s"],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<u>","args":["s",{"$f":1}],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<a?a?>","args":[{"$u":1}],"ctx":5,"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>+:o>","args":[[1,2],[1,2]],"ctx":5,"result":{"0":[1,2],"1":[1,2],"2":"U","3":"U","4":"U"}}
{"sig":"<a<s>s?:s>","args":[1,2,"s"],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<n-->","args":[[[1]]],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<n-->","args":[1,2,1,2],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a>","args":["s"],"ctx":{"$u":1},"result":{"0":["s"],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n-->","args":[1,2],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<x+>","args":[[1,"a"]],"ctx":"ctx","result":{"0":[1,"a"],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<j>","args":[],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<a-n>","args":[{"$u":1}],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<af>","args":[{"$u":1},1],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<n??n>","args":[null],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<x-b?:s>","args":[1,2,1,2],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<(ns)-:n>","args":["s",1],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<-s?>","args":[[[1]]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<o>","args":["s",{"$f":1}],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n-->","args":["s",{"$u":1},{"$u":1}],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<a<a>>","args":[[[1]]],"ctx":"ctx","result":{"0":[[1]],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>->","args":[[1,2],[1,2]],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<a+>","args":[[1,2],{"$f":1}],"ctx":[1],"result":{"0":[1,2],"1":[null],"2":"U","3":"U","4":"U"}}
{"sig":"<n-->","args":[[1,2]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<nn+:a>","args":[{"$u":1},1],"ctx":{"$u":1},"result":{"0":"U","1":1,"2":"U","3":"U","4":"U"}}
{"sig":"<a?a?>","args":[[1,2]],"ctx":{"$u":1},"result":{"0":[1,2],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<x-s:x>","args":[{"$u":1}],"ctx":5,"result":{"0":5,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<?-s?>","args":[[1,"a"]],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<(ns)-:n>","args":[{"$u":1},1],"ctx":{"$u":1},"error":{"code":"T0410","index":2}}
{"sig":"<b>","args":[1],"ctx":[1],"error":{"code":"T0410","index":1}}
{"sig":"<a?a?>","args":["s",{"$f":1}],"ctx":[1],"result":{"0":["s"],"1":[null],"2":"U","3":"U","4":"U"}}
{"sig":"<(ns)-:n>","args":[[1,2],[1,2]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<xx:a>","args":[[1,2],[1,2]],"ctx":5,"result":{"0":[1,2],"1":[1,2],"2":"U","3":"U","4":"U"}}
{"sig":"<a<n>:n>","args":[{"$u":1}],"ctx":[1],"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<s-nn?:s>","args":[true],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a<n>+:o>","args":[{"k":1}],"ctx":5,"error":{"code":"T0412","index":1}}
{"sig":"<u>","args":[1,2],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<n?s>","args":[[[1]]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a>","args":[[[1]]],"ctx":{"$u":1},"result":{"0":[[1]],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n?n?n>","args":[],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<(ns)-:n>","args":[1,2,1,2],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<a+>","args":[{"$u":1}],"ctx":"ctx","result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n?s>","args":[1,2],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<n-->","args":[[1,2],{"$f":1},1],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<s+?s>","args":["s",1],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<b>","args":[[1,2]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<a>","args":[{"$u":1}],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a<n>->","args":[{"$u":1}],"ctx":{"$u":1},"result":{"0":"U","1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a+>","args":[[{"k":1}]],"ctx":5,"result":{"0":[{"k":1}],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<b>","args":[1,2,"s"],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n??n>","args":[[1,2],{"$f":1}],"ctx":[1],"error":{"code":"T0410","index":1}}
{"sig":"<x+>","args":[{"k":1},{"$f":1}],"ctx":{"$u":1},"result":{"0":{"k":1},"1":"F","2":"U","3":"U","4":"U"}}
{"sig":"<a<o>:o>","args":[[1,2]],"ctx":"ctx","error":{"code":"T0412","index":1}}
{"sig":"<ab+>","args":["s",1],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<af>","args":["s",1,2],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<a<>>","args":[[1,2],{"$f":1},1],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<(ns)-:n>","args":[1,{"$u":1}],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<o>","args":["s"],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<s?n+:a<n>>","args":[],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<a<n>+:o>","args":[[1,2],[1,2]],"ctx":"ctx","result":{"0":[1,2],"1":[1,2],"2":"U","3":"U","4":"U"}}
{"sig":"<a<n>:n>","args":[1,2,1,2],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<n+s-:a<n>>","args":[1,2],"ctx":5,"error":{"code":"T0411","index":3}}
{"sig":"<x-b?:s>","args":[[{"k":1}]],"ctx":{"$u":1},"result":{"0":[{"k":1}],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<a+>","args":[null],"ctx":"ctx","result":{"0":[null],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<s?n+:a<n>>","args":["s"],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<af>","args":[[1,2],{"$f":1}],"ctx":{"$u":1},"result":{"0":[1,2],"1":"F","2":"U","3":"U","4":"U"}}
{"sig":"<-s?>","args":[[{"k":1}]],"ctx":5,"error":{"code":"T0410","index":1}}
{"sig":"<o-f?:o>","args":[[1,2]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<n+?n>","args":[true],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<ab+>","args":[{"k":1},{"$f":1}],"ctx":5,"error":{"code":"T0410","index":2}}
{"sig":"<s-nn?:s>","args":[{"$u":1},1],"ctx":[1],"result":{"0":"U","1":1,"2":"U","3":"U","4":"U"}}
{"sig":"<s?n+:a<n>>","args":[["a"]],"ctx":"ctx","error":{"code":"T0410","index":1}}
{"sig":"<-s?>","args":[[1,2]],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<a>","args":[true],"ctx":5,"result":{"0":[true],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<n??n>","args":[1,2],"ctx":5,"result":{"0":1,"1":2,"2":"U","3":"U","4":"U"}}
{"sig":"<xx:a>","args":[["a"]],"ctx":"ctx","error":{"code":"T0410","index":2}}
{"sig":"<n??n>","args":[[[1]]],"ctx":{"$u":1},"error":{"code":"T0410","index":1}}
{"sig":"<afj?:j>","args":[[{"k":1}]],"ctx":[1],"error":{"code":"T0410","index":2}}
{"sig":"<n?n?n>","args":[1,{"$u":1}],"ctx":5,"result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<x+>","args":[[{"k":1}]],"ctx":[1],"result":{"0":[{"k":1}],"1":"U","2":"U","3":"U","4":"U"}}
{"sig":"<x-s:x>","args":[1,{"$u":1}],"ctx":"ctx","result":{"0":1,"1":"U","2":"U","3":"U","4":"U"}}
"##;
}
