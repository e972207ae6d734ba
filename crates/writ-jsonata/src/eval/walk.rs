//! The walk over input data by reference: runs of plain field names (and the filters on them
//! that [`super::filter`]'s fast tests can decide) read where the document lives, borrowing
//! rather than building a sequence per step, as jsonata-js's `evaluateStep` and `lookup` would
//! answer them.
//!
//! Its own module because it is an optimisation with its own invariants: the parser marks the
//! nodes it may take (`walkable`), and everything it answers must be what [`super::path`]'s
//! general walk answers; the tests below pin both against jsonata-js.

use writ_core::{HintedKey, Object, Str, Value};

use super::filter::Test;
use super::{Cx, Env, RED_ZONE, STACK_SEGMENT};
use crate::ast::{Kind, Node, Stage};
use crate::error::{Error, Result};
use crate::value::{Flags, Val, boolean};

impl Cx<'_> {
    /// The leading steps of a path that are plain field names (after a variable, if the path
    /// starts with one), walked over input data by reference: each step gathers borrows of the
    /// document, and only what the last of them reaches is taken out of it, so no sequence is
    /// built and no reference count is touched on the way. The steps follow jsonata-js's
    /// `evaluateStep` and `lookup` exactly (an array a field holds is flattened into the step's
    /// items, a lookup over an array flattens one level and then unwraps a single item, and a
    /// last step that yields one array yields that array as it is).
    ///
    /// `None` when the path does not start on data or has no such steps: the general walk
    /// answers. Otherwise the value reached and how many steps it took; when it took them all
    /// (or nothing is left to read) the value is the path's result, unwrapped as `eval` leaves
    /// a sequence when `unwrap` is set, and otherwise the next step's input sequence.
    pub(super) fn data_path(
        &mut self,
        steps: &[Node],
        start: usize,
        input: &Val,
        env: &Env,
        unwrap: bool,
    ) -> Result<Option<Walked>> {
        // `$name.field…`: the walk reads the variable's value where it is bound.
        if start == 0
            && let Some(step) = steps.first()
            && let Kind::Variable(name) = &step.kind
            && !name.is_empty()
            && is_plain_step(step)
            && steps.get(1).is_some_and(is_walkable_step)
        {
            self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
            if let Some(walked) = env.with_value(name, |value| self.walk(steps, 1, value, env, unwrap)) {
                return walked;
            }
            if super::is_root_name(name) {
                let root = self.root;
                return self.walk(steps, 1, root, env, unwrap);
            }
        }
        // A path may start with a variable and `%` steps: each names one value, which the
        // walk starts from while there is one item for it to be named once.
        let mut first = start;
        let mut named: Option<Val> = None;
        if start == 0 {
            while let Some(step) = steps.get(first).filter(|step| is_anchor(step, first)) {
                let current = named.as_ref().unwrap_or(input);
                if matches!(step.kind, Kind::Parent(_)) && current.is_array() {
                    // Named once per item of an array: the general walk.
                    return Ok(None);
                }
                let value = self.eval(step, current, env)?;
                // An array constructor's list is one item of the step after it.
                if value.is_undefined() || value.flags().has(Flags::CONS) {
                    return Ok(None);
                }
                named = Some(value);
                first += 1;
            }
        }
        if !steps.get(first).is_some_and(is_walkable_step) {
            return Ok(None);
        }
        self.walk(steps, first, named.as_ref().unwrap_or(input), env, unwrap)
    }

    /// [`Cx::data_path`] from step `first` on, over `from`.
    fn walk(&mut self, steps: &[Node], first: usize, from: &Val, env: &Env, unwrap: bool) -> Result<Option<Walked>> {
        if from.flags().has(Flags::CONS) {
            // An array constructor's list is one item of the step after it.
            return Ok(None);
        }
        let mut reached = match from {
            Val::Object(object) => Reached::Object(object),
            Val::Array(array) => Reached::Array(array),
            Val::List(items, flags) if !flags.has(Flags::TUPLE_STREAM) && items.iter().all(is_data_item) => {
                Reached::Vals(items)
            }
            _ => return Ok(None),
        };
        let mut taken = first;
        for step in steps.iter().skip(first) {
            let Kind::Name(name) = &step.kind else { break };
            let name = name.key();
            if !step.walkable {
                break;
            }
            if !step.stages.is_empty() {
                let Some(tests) = field_filters(step) else { break };
                reached = self.filtered_step(&reached, name, &tests, env, step.position)?;
                taken += 1;
                if reached.is_empty() {
                    break;
                }
                continue;
            }
            let next = match &reached {
                Reached::Object(object) => {
                    self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
                    self.one_field(object.get(name), step.position)?
                }
                Reached::One(value) => {
                    self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
                    let found = match value {
                        Value::Object(object) => object.get(name),
                        _ => None,
                    };
                    self.one_field(found, step.position)?
                }
                Reached::Array(array) => {
                    self.steps(array.len() as u64).map_err(|e| e.at(step.position))?;
                    self.gather(array.as_slice().iter(), name, step.position)?
                }
                Reached::Items(items) => {
                    self.steps(items.len() as u64).map_err(|e| e.at(step.position))?;
                    self.gather(items.iter().copied(), name, step.position)?
                }
                Reached::Vals(items) => {
                    self.steps(items.len() as u64).map_err(|e| e.at(step.position))?;
                    let mut gathered = Gathering::default();
                    for item in items.iter() {
                        match item {
                            Val::Object(object) => gathered.field(object.get(name)),
                            Val::Array(array) => gathered.array_lookup(array.as_slice(), name),
                            _ => {}
                        }
                    }
                    self.gathered(gathered, step.position)?
                }
            };
            reached = next;
            taken += 1;
            if reached.is_empty() {
                break;
            }
        }
        let done = taken == steps.len() || reached.is_empty();
        let value = match reached {
            // A last step that yields one array yields it as it stands; an empty array before
            // the last step ends the path with nothing.
            Reached::Array(array) if taken == steps.len() || !array.is_empty() => Val::Array(array.clone()),
            Reached::Array(_) if unwrap => Val::Undefined,
            Reached::Array(_) => Val::sequence(Vec::new()),
            Reached::Object(object) => Val::sequence(vec![Val::Object(object.clone())]),
            Reached::Vals(items) => Val::sequence(items.to_vec()),
            Reached::One(value) if done && unwrap => Val::from(value),
            Reached::One(value) => Val::sequence(vec![Val::from(value)]),
            Reached::Items(items) if done && unwrap && items.len() <= 1 => {
                items.first().map(|item| Val::from(*item)).unwrap_or_default()
            }
            Reached::Items(items) => Val::sequence(items.into_iter().map(Val::from).collect()),
        };
        Ok(Some(Walked {
            value,
            steps: taken,
            done,
        }))
    }

    /// A field step with filters (`items[price > 50]`) over input data: each input's value
    /// filtered as jsonata-js filters it (an array's items, or the value alone, missing
    /// included), the comparisons read where the items live, and only references kept.
    fn filtered_step<'v>(
        &mut self,
        reached: &Reached<'v>,
        name: &Str,
        tests: &[(Test<'_>, &Node)],
        env: &Env,
        position: usize,
    ) -> Result<Reached<'v>> {
        let mut kept = Vec::new();
        match reached {
            Reached::Object(object) => {
                self.meter.step().map_err(|e| Error::from(e).at(position))?;
                self.filter_found(Found::field(object.get(name)), tests, env, &mut kept)?;
            }
            Reached::One(value) => {
                self.meter.step().map_err(|e| Error::from(e).at(position))?;
                self.filter_found(Found::item(value, name), tests, env, &mut kept)?;
            }
            Reached::Array(array) => {
                self.steps(array.len() as u64).map_err(|e| e.at(position))?;
                for item in array.as_slice() {
                    self.filter_found(Found::item(item, name), tests, env, &mut kept)?;
                }
            }
            Reached::Items(items) => {
                self.steps(items.len() as u64).map_err(|e| e.at(position))?;
                for item in items {
                    self.filter_found(Found::item(item, name), tests, env, &mut kept)?;
                }
            }
            Reached::Vals(items) => {
                self.steps(items.len() as u64).map_err(|e| e.at(position))?;
                for item in items.iter() {
                    let found = match item {
                        Val::Object(object) => Found::field(object.get(name)),
                        Val::Array(array) => Found::lookup(array.as_slice(), name),
                        _ => Found::field(None),
                    };
                    self.filter_found(found, tests, env, &mut kept)?;
                }
            }
        }
        self.charge_array(kept.len()).map_err(|e| e.at(position))?;
        Ok(Reached::Items(kept))
    }

    /// Keeps the items of `found` that pass every filter, in order.
    fn filter_found<'v>(
        &mut self,
        found: Found<'v>,
        tests: &[(Test<'_>, &Node)],
        env: &Env,
        kept: &mut Vec<&'v Value>,
    ) -> Result<()> {
        let start = kept.len();
        match found {
            Found::One(value) => kept.push(value),
            Found::Items(items) => kept.extend(items),
            Found::Sequence(items) => kept.extend(items),
        }
        for (test, predicate) in tests {
            let mut passed = start;
            for at in start..kept.len() {
                let item = kept[at];
                self.steps(test.cost()).map_err(|e| e.at(predicate.position))?;
                let verdict = match test.test(item, self.meter) {
                    Some(verdict) => verdict?,
                    None => {
                        let verdict = self.eval(predicate, &Val::from(item), env)?;
                        boolean(&verdict) == Some(true)
                    }
                };
                if verdict {
                    kept[passed] = item;
                    passed += 1;
                }
            }
            kept.truncate(passed);
        }
        Ok(())
    }

    /// A path of one field step (`name`, with nothing attached) over an object, as
    /// [`Cx::data_path`] answers it: the value found (an array as it stands), or none. The path
    /// is a leaf at `position`, charged its step here, after the field step's, so the value is
    /// made where it is returned.
    pub(super) fn field_of(&mut self, step: &Node, name: &HintedKey, object: &Object, position: usize) -> Result<Val> {
        self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
        let found = match object.get_hinted(name) {
            None | Some(Value::Undefined) => None,
            Some(found) => {
                if !matches!(found, Value::Array(_)) {
                    self.charge_array(1).map_err(|e| e.at(step.position))?;
                }
                Some(found)
            }
        };
        self.meter.step().map_err(|e| Error::from(e).at(position))?;
        Ok(match found {
            Some(found) => Val::from(found),
            None => Val::Undefined,
        })
    }

    /// What a field step over one object reaches: nothing, the array found as it stands, or
    /// the one value found.
    fn one_field<'v>(&mut self, found: Option<&'v Value>, position: usize) -> Result<Reached<'v>> {
        Ok(match found {
            None | Some(Value::Undefined) => Reached::Items(Vec::new()),
            Some(Value::Array(array)) => Reached::Array(array),
            Some(value) => {
                self.charge_array(1).map_err(|e| e.at(position))?;
                Reached::One(value)
            }
        })
    }

    /// What a field step over several items of the input reaches.
    fn gather<'v>(
        &mut self,
        items: impl Iterator<Item = &'v Value>,
        name: &Str,
        position: usize,
    ) -> Result<Reached<'v>> {
        let mut gathered = Gathering::default();
        for item in items {
            gathered.item(item, name);
        }
        self.gathered(gathered, position)
    }

    /// What a field step reaches once its inputs are gathered: one array found alone as it
    /// stands, else the items found (charged as the sequence they make).
    fn gathered<'v>(&mut self, gathered: Gathering<'v>, position: usize) -> Result<Reached<'v>> {
        Ok(match gathered.array {
            Some(array) if gathered.results == 1 => Reached::Array(array),
            _ => {
                self.charge_array(gathered.items.len()).map_err(|e| e.at(position))?;
                Reached::Items(gathered.items)
            }
        })
    }
}

/// Whether the evaluator may walk `node` over the input by reference (a node's `walkable` mark);
/// the parser asks once, when the node and its children are complete.
pub(crate) fn walkable(node: &Node) -> bool {
    match &node.kind {
        Kind::Name(_) => is_field_step(node) || field_filters(node).is_some(),
        Kind::Path(steps) => is_field_path(node, steps),
        _ => false,
    }
}

/// Whether a step is a field name with nothing attached but filters a walk can test.
pub(super) fn is_walkable_step(step: &Node) -> bool {
    step.walkable && matches!(step.kind, Kind::Name(_))
}

/// Whether a step is a field name with nothing attached.
fn is_field_step(step: &Node) -> bool {
    matches!(step.kind, Kind::Name(_)) && is_plain_step(step)
}

/// Whether a path is field names (after a variable and `%` steps, if it starts with them)
/// with nothing attached to the path or its steps: what [`Cx::data_path`] can answer whole.
fn is_field_path(node: &Node, steps: &[Node]) -> bool {
    let anchors = steps
        .iter()
        .enumerate()
        .take_while(|(index, step)| is_anchor(step, *index))
        .count();
    let names = steps.get(anchors..).unwrap_or_default();
    !(node.group.is_some() || node.keep_singleton_array || node.tuple || node.keep_array || names.is_empty())
        && names.iter().all(is_walkable_step)
}

/// Whether the step at `index` of a path names one value whatever its input (a variable
/// first, or `%`), with nothing attached.
fn is_anchor(step: &Node, index: usize) -> bool {
    let named = match step.kind {
        Kind::Variable(_) => index == 0,
        Kind::Parent(_) => true,
        _ => false,
    };
    named && is_plain_step(step)
}

/// Whether a step is a bare field name with nothing attached.
pub(super) fn is_plain_step(step: &Node) -> bool {
    step.predicate.is_empty()
        && step.stages.is_empty()
        && step.group.is_none()
        && step.focus.is_none()
        && step.index.is_none()
        && !step.tuple
        && step.ancestor.is_none()
        && !step.keep_array
        && !step.cons_array
}

/// The filters of a field step that has only filters attached, when each is a comparison a
/// walk can test on the data in place.
fn field_filters(step: &Node) -> Option<Vec<(Test<'_>, &Node)>> {
    let marks = !step.predicate.is_empty()
        || step.group.is_some()
        || step.focus.is_some()
        || step.index.is_some()
        || step.tuple
        || step.ancestor.is_some()
        || step.keep_array
        || step.cons_array;
    if marks || step.stages.is_empty() {
        return None;
    }
    step.stages
        .iter()
        .map(|stage| match stage {
            Stage::Filter(predicate, _) => Some((Test::of(predicate)?, predicate)),
            Stage::Index(..) => None,
        })
        .collect()
}

/// Whether a built sequence's item can be read by a walk over the data: an object or array of
/// the input, or a value whose fields are all missing.
fn is_data_item(item: &Val) -> bool {
    !matches!(item, Val::List(..) | Val::Record(_) | Val::Function(_))
}

/// jsonata-js's `lookup` of `name` through the items of an input array, by reference: each
/// item's field (arrays flattened one level), nested arrays looked through in turn.
fn lookup_data<'v>(items: &'v [Value], name: &Str, found: &mut Vec<&'v Value>) {
    for item in items {
        match item {
            Value::Object(object) => match object.get(name) {
                None | Some(Value::Undefined) => {}
                Some(Value::Array(array)) => found.extend(array.as_slice()),
                Some(value) => found.push(value),
            },
            Value::Array(inner) => {
                // A nested array's lookup is a sequence: its items are appended as they are.
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || lookup_data(inner.as_slice(), name, found));
            }
            _ => {}
        }
    }
}

/// What [`Cx::data_path`] walked.
pub(super) struct Walked {
    /// The path's result, or the next step's input sequence.
    pub(super) value: Val,
    /// How many steps it took.
    pub(super) steps: usize,
    /// Whether the value is the path's result.
    pub(super) done: bool,
}

/// The items a walk over input data has reached: the next step's inputs.
enum Reached<'v> {
    /// The input object alone.
    Object(&'v Object),
    /// One value of the input that is not an array.
    One(&'v Value),
    /// The items of one array of the input, as it stands.
    Array(&'v writ_core::Array),
    /// Items gathered by reference.
    Items(Vec<&'v Value>),
    /// The items of a sequence the evaluation built, each an object or array of the input or
    /// a value with no fields.
    Vals(&'v [Val]),
}

impl Reached<'_> {
    /// Whether nothing is left to read.
    fn is_empty(&self) -> bool {
        match self {
            Reached::Object(_) | Reached::One(_) => false,
            Reached::Array(array) => array.is_empty(),
            Reached::Items(items) => items.is_empty(),
            Reached::Vals(items) => items.is_empty(),
        }
    }
}

/// What one field step gathers over input data, as jsonata-js's `evaluateStep` collects it.
#[derive(Default)]
struct Gathering<'v> {
    /// The step's items, flattened.
    items: Vec<&'v Value>,
    /// How many inputs gave a value (`evaluateStep`'s unflattened result length).
    results: usize,
    /// The first input's value, when it is an array: with no other result, the step yields it
    /// as it stands.
    array: Option<&'v writ_core::Array>,
}

impl<'v> Gathering<'v> {
    /// Gathers `name` of one input item: an object's field, or a lookup through an array.
    fn item(&mut self, item: &'v Value, name: &Str) {
        match item {
            Value::Object(object) => self.field(object.get(name)),
            Value::Array(array) => self.array_lookup(array.as_slice(), name),
            _ => {}
        }
    }

    /// Gathers `name` looked up through an input item that is an array: a sequence, unwrapped
    /// when it holds one value.
    fn array_lookup(&mut self, items: &'v [Value], name: &Str) {
        let mut found = Vec::new();
        lookup_data(items, name, &mut found);
        match found.as_slice() {
            [] => {}
            [one] => self.field(Some(one)),
            _ => {
                self.results += 1;
                self.items.extend(found);
            }
        }
    }

    /// Gathers one value found (an array's items are flattened into the step).
    fn field(&mut self, found: Option<&'v Value>) {
        match found {
            None | Some(Value::Undefined) => {}
            Some(Value::Array(array)) => {
                self.results += 1;
                if self.results == 1 {
                    self.array = Some(array);
                }
                self.items.extend(array.as_slice());
            }
            Some(value) => {
                self.results += 1;
                self.items.push(value);
            }
        }
    }
}

/// A field step's value for one input, as its filters see it.
enum Found<'v> {
    /// One value (missing is [`Value::Undefined`], which a filter still sees).
    One(&'v Value),
    /// The items of an array found.
    Items(&'v [Value]),
    /// The sequence a lookup through an array made.
    Sequence(Vec<&'v Value>),
}

/// What a field that is missing reads as, where a reference is wanted.
static MISSING: Value = Value::Undefined;

impl<'v> Found<'v> {
    /// An object's field.
    fn field(found: Option<&'v Value>) -> Found<'v> {
        match found {
            Some(Value::Array(array)) => Found::Items(array.as_slice()),
            Some(value) => Found::One(value),
            None => Found::One(&MISSING),
        }
    }

    /// The field of one input item: an object's, or a lookup through an array (a sequence,
    /// unwrapped when it holds one value).
    fn item(item: &'v Value, name: &Str) -> Found<'v> {
        match item {
            Value::Object(object) => Found::field(object.get(name)),
            Value::Array(array) => Found::lookup(array.as_slice(), name),
            _ => Found::field(None),
        }
    }

    /// A lookup through an array's items.
    fn lookup(items: &'v [Value], name: &Str) -> Found<'v> {
        let mut found = Vec::new();
        lookup_data(items, name, &mut found);
        match found.as_slice() {
            [] => Found::field(None),
            [one] => Found::field(Some(one)),
            _ => Found::Sequence(found),
        }
    }
}
#[cfg(test)]
mod tests {
    use crate::testing::eval;

    /// Paths over input data, which the evaluator walks by reference, against the answers
    /// jsonata 2.2.2 gives in node: nested arrays, missing fields, an array found alone at the
    /// end, filters that meet missing values, paths after a variable or a sort, written
    /// objects and `&` chains.
    #[test]
    fn paths_over_data_answer_as_jsonata_js() {
        let data = r#"{"a": {"b": [1, [2, 3], {"c": 4}], "e": [], "f": [[{"g": 1}, {"g": [2, 3]}], [{"g": 4}]], "s": "x"}, "rows": [{"v": 1, "t": "p"}, {"v": 5, "t": ""}, {"t": "q"}, {"v": [7, 8], "t": "r"}, 9, [{"v": 10, "t": "s"}]], "one": [{"x": [1, 2]}], "nest": [[1, 2], [3, [4]]]}"#;
        let cases: &[(&str, &str)] = &[
            ("a.b", r#"[1,[2,3],{"c":4}]"#),
            ("a.b.c", r#"4"#),
            ("a.e", r#"[]"#),
            ("a.e.x", r#"undefined"#),
            ("a.f", r#"[[{"g":1},{"g":[2,3]}],[{"g":4}]]"#),
            ("a.f.g", r#"[1,2,3,4]"#),
            ("a.s.x", r#"undefined"#),
            ("a.missing.x", r#"undefined"#),
            ("rows.v", r#"[1,5,7,8,10]"#),
            ("rows.t", r#"["p","","q","r","s"]"#),
            ("rows[v > 2].t", r#"T2010"#),
            ("rows[t != ''].v", r#"[1,7,8,10]"#),
            ("rows[1 = 1].v", r#"[1,5,7,8,10]"#),
            ("rows[v = 7].t", r#"undefined"#),
            ("rows[t = 'q' or v < 2].t", r#"T2010"#),
            ("rows[v > 2][t != ''].t", r#"T2010"#),
            ("one.x", r#"[1,2]"#),
            ("one[x = 1].x", r#"undefined"#),
            ("nest.v", r#"undefined"#),
            ("($r := rows; $r.v)", r#"[1,5,7,8,10]"#),
            ("($r := rows; $r[v > 1].t)", r#"T2010"#),
            ("($o := a; $o.f.g)", r#"[1,2,3,4]"#),
            ("($n := [1,2]; $n.x)", r#"undefined"#),
            ("rows^(t).t", r#"["","p","q","r","s"]"#),
            ("rows^(>t)[v > 0].v", r#"T2010"#),
            ("a.f[g = 1].g", r#"undefined"#),
            ("a.f[g > 1].g", r#"T2010"#),
            ("rows[v].t", r#"undefined"#),
            ("$count(rows[t != 'p' and t != ''].v)", r#"3"#),
            ("rows.v[]", r#"[1,5,7,8,10]"#),
            ("{'k': a.s, 'm': a.missing}", r#"{"k":"x"}"#),
            ("{'k': a.s}", r#"{"k":"x"}"#),
            (
                "rows.{'t': t, 'v': v}",
                r#"[{"t":"p","v":1},{"t":"","v":5},{"t":"q"},{"t":"r","v":[7,8]},{},{"t":"s","v":10}]"#,
            ),
            ("a.b & '-' & a.s & 1.5 & true", r#""[1,[2,3],{\"c\":4}]-x1.5true""#),
            ("rows[0].t & rows[2].v & 'z'", r#""pz""#),
        ];
        for (expr, expected) in cases {
            assert_eq!(eval(expr, data), *expected, "{expr}");
        }
    }

    /// `%` steps and filtered steps over the suite's dataset5, against jsonata 2.2.2 in node.
    #[test]
    fn parents_and_filters_over_data_answer_as_jsonata_js() {
        let data = include_str!("../../tests/jsonata-suite/datasets/dataset5.json");
        let cases: &[(&str, &str)] = &[
            (
                "Account.Order.Product.{'p': %.OrderID, 'g': %.%.`Account Name`}",
                r#"[{"p":"order103","g":"Firefly"},{"p":"order103","g":"Firefly"},{"p":"order104","g":"Firefly"},{"p":"order104","g":"Firefly"}]"#,
            ),
            (
                "Account.Order.Product.Description.(%.Price & ' ' & %.%.OrderID)",
                r#"["34.45 order103","21.67 order103","34.45 order104","107.99 order104"]"#,
            ),
            (
                "Account.Order.(Product.%.OrderID)",
                r#"["order103","order103","order104","order104"]"#,
            ),
            (
                "Account.Order.Product.[%.%.`Account Name`, %.OrderID]",
                r#"["Firefly","order103","Firefly","order103","Firefly","order104","Firefly","order104"]"#,
            ),
            (
                "Account.Order.Product[%.OrderID = 'order104'].SKU",
                r#"["040657863","0406654603"]"#,
            ),
            ("Account.Order.Product.(%.%.%.`Account Name`)", r#"undefined"#),
            ("$sum(Account.Order.Product[Price > 30].Quantity)", r#"7"#),
            (
                "Account.Order.Product[Description.Colour = 'Purple'].Price",
                r#"[34.45,34.45]"#,
            ),
            ("Account.Order[Product.Price > 100].OrderID", r#"T2010"#),
        ];
        for (expr, expected) in cases {
            assert_eq!(eval(expr, data), *expected, "{expr}");
        }
    }
}
