//! The interpreter: runs a checked [`Program`] against contexts, charging a [`Meter`].
//!
//! Every read goes through one membrane ([`Cx::read`]): own properties of plain data, array
//! and string indices and `length`. An object's inherited names are simply not there
//! (`({}).constructor` is `undefined`, as seed 004 specifies). On arrays, strings, numbers and
//! booleans, a name JavaScript would answer with a method or a prototype is refused; any other
//! missing key reads as `undefined`, as in JavaScript. Calls keep receiver and method together and dispatch on the
//! allow-list tables; a method is never a value.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

use writ_core::js::{self, LooseEquality};
use writ_core::{Array, HintedKey, Meter, Object, Str, Value};

use crate::answer;
use crate::ast::{
    Arg, BinaryOp, Call, Callee, Element, Expr, Lambda, LogicalOp, Member, MethodKey, Pattern, Program, Prop, PropKey,
    Property, UnaryOp,
};
use crate::builtins::{array, date, global, json, math, number, object, string};
use crate::coerce::{self, describe, to_number, to_string};
use crate::error::{Error, Result};
use crate::ops;
use crate::tables::{ArrayMethod, Global, MathConstant, NumberConstant, NumberMethod, Static, StringMethod};

/// Steps are charged per 16 characters read or written.
pub(crate) const CHARS_PER_STEP: usize = 16;

/// From how many units on building one string or array is charged in time before it runs.
const BULK_WORK: usize = 1 << 16;
/// What building one code unit of a string costs at most (measured: about 3 ns a unit for a
/// string of a billion, its memory touched for the first time).
const STRING_UNIT_NANOS: u64 = 4;
/// What building one item of an array costs at most: a copy that bumps a shared count, and
/// its drop later.
const ARRAY_ITEM_NANOS: u64 = 30;

/// Free names whose resolution an evaluation remembers; later ones are looked up each time.
const NAME_CACHE: usize = 8;

/// The deepest value that may go to or come from a host function.
pub(crate) const MAX_RESULT_DEPTH: usize = 256;

/// An arrow parameter's value: owned, or borrowed from data that outlives the evaluation
/// (an item of a context's array), which spares a reference count per item.
#[derive(Clone, Default)]
enum Slot<'r> {
    #[default]
    Empty,
    Owned(Value),
    Borrowed(&'r Value),
}

impl<'r> Slot<'r> {
    #[inline]
    fn get(&self) -> &Value {
        match self {
            Slot::Empty => &Value::Undefined,
            Slot::Owned(value) => value,
            Slot::Borrowed(value) => value,
        }
    }
}

/// What a free name resolved to.
#[derive(Clone, Copy)]
enum Binding<'r> {
    Value(&'r Value),
    Global(Global),
}

/// One evaluation's state: its meter, its contexts, and the frames of the arrows running.
pub(crate) struct Cx<'r> {
    /// The budget of this evaluation.
    pub(crate) meter: Meter,
    program: &'r Program,
    contexts: &'r [&'r Object],
    /// Free names resolved so far; a `Cell`, so that reads through `&self` fill it too.
    names: [Cell<Option<Binding<'r>>>; NAME_CACHE],
    /// Arrow parameters, a frame per running arrow; `slots[..top]` is live.
    slots: Vec<Slot<'r>>,
    /// The array a built-in is walking, when it is data the evaluation borrows (a context's,
    /// or read from one): its items bind to a callback's parameter by reference.
    shared: Option<&'r Array>,
    top: usize,
    bases: Vec<usize>,
    /// The objects `Object.groupBy` made in this evaluation, which have no prototype, by
    /// identity. Each is held here, so no other object can take its address while the
    /// evaluation runs; what leaves the evaluation is plain JSON, and forgets the mark. Its
    /// hasher is fixed: a map with a random one reads thread-local keys at every evaluation.
    null_prototype: HashMap<usize, Object, BuildHasherDefault<DefaultHasher>>,
}

/// A function a built-in may call back: an arrow written as its callback, or a one-argument
/// global standing in for one (`rows.filter(Boolean)`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Callback<'r> {
    /// A written arrow.
    Lambda(&'r Lambda),
    /// A callable global, called with the first argument alone.
    Global(Global),
}

impl Callback<'_> {
    /// How many of the arguments a built-in offers the callback actually reads, so that a
    /// built-in need not build the rest.
    pub(crate) fn arity(&self) -> usize {
        match self {
            Callback::Lambda(lambda) => lambda.params.len(),
            Callback::Global(_) => 1,
        }
    }
}

/// The evaluated arguments of a built-in call.
pub(crate) struct Args<'a, 'r> {
    /// The argument values in order, spread arguments expanded. The callback's position
    /// holds `undefined` when [`Args::callback`] is set.
    pub(crate) values: &'a [Value],
    /// The callback, when one was written where the built-in takes it.
    pub(crate) callback: Option<Callback<'r>>,
    /// The built-in's name, for messages (`map`, `Math.max`).
    pub(crate) name: &'static str,
}

impl<'r> Args<'_, 'r> {
    /// How many arguments were passed (a missing argument is not `undefined` for every
    /// built-in: `toSpliced` tells them apart).
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// Argument `index`, or `undefined` when it was not passed.
    pub(crate) fn get(&self, index: usize) -> &Value {
        self.values.get(index).unwrap_or(&Value::Undefined)
    }

    /// The callback, or the error JavaScript raises when the argument is not a function.
    pub(crate) fn callback(&self, index: usize) -> Result<Callback<'r>> {
        match self.callback {
            Some(callback) => Ok(callback),
            None => Err(Error::type_error(format!(
                "{} is not a function: \"{}\" takes a callback, as in rows.{}(r => …)",
                describe(self.get(index)),
                self.name,
                self.name
            ))),
        }
    }
}

/// What a result position produced: a value, or a host call for the evaluator to make.
pub(crate) enum Completion {
    /// The expression's value.
    Value(Value),
    /// The expression's result is this host function's answer to this argument.
    HostCall {
        /// Index into the evaluator's functions.
        function: u32,
        /// The argument; `None` for `f()`.
        argument: Option<Value>,
    },
}

/// A property key after conversion.
enum Key<'k> {
    Index(u32),
    Name(&'k Str),
}

/// What a receiver evaluated to: a namespace global or a value.
enum Receiver {
    Namespace(Global),
    Value(Value),
    /// An optional link met a nullish value: the chain ends with `undefined`.
    ShortCircuit,
}

/// The names JavaScript finds on `Object.prototype`: reading one reaches past plain data.
const OBJECT_PROTO: &[&str] = &[
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// `Array.prototype`'s own names, `length` aside.
const ARRAY_PROTO: &[&str] = &[
    "at",
    "concat",
    "constructor",
    "copyWithin",
    "entries",
    "every",
    "fill",
    "filter",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "flat",
    "flatMap",
    "forEach",
    "includes",
    "indexOf",
    "join",
    "keys",
    "lastIndexOf",
    "map",
    "pop",
    "push",
    "reduce",
    "reduceRight",
    "reverse",
    "shift",
    "slice",
    "some",
    "sort",
    "splice",
    "toLocaleString",
    "toReversed",
    "toSorted",
    "toSpliced",
    "toString",
    "unshift",
    "values",
    "with",
];

/// `String.prototype`'s own names, `length` aside.
const STRING_PROTO: &[&str] = &[
    "anchor",
    "at",
    "big",
    "blink",
    "bold",
    "charAt",
    "charCodeAt",
    "codePointAt",
    "concat",
    "constructor",
    "endsWith",
    "fixed",
    "fontcolor",
    "fontsize",
    "includes",
    "indexOf",
    "isWellFormed",
    "italics",
    "lastIndexOf",
    "link",
    "localeCompare",
    "match",
    "matchAll",
    "normalize",
    "padEnd",
    "padStart",
    "repeat",
    "replace",
    "replaceAll",
    "search",
    "slice",
    "small",
    "split",
    "startsWith",
    "strike",
    "sub",
    "substr",
    "substring",
    "sup",
    "toLocaleLowerCase",
    "toLocaleUpperCase",
    "toLowerCase",
    "toString",
    "toUpperCase",
    "toWellFormed",
    "trim",
    "trimEnd",
    "trimLeft",
    "trimRight",
    "trimStart",
    "valueOf",
];

/// `Number.prototype`'s own names.
const NUMBER_PROTO: &[&str] = &[
    "constructor",
    "toExponential",
    "toFixed",
    "toLocaleString",
    "toPrecision",
    "toString",
    "valueOf",
];

/// `Boolean.prototype`'s own names.
const BOOLEAN_PROTO: &[&str] = &["constructor", "toString", "valueOf"];

fn names_has(names: &[&str], key: &Str) -> bool {
    key.as_ascii_str().is_some_and(|key| names.contains(&key))
}

/// Arguments held on the stack for the common short call.
const INLINE_ARGS: usize = 4;

impl<'r> Cx<'r> {
    /// Starts an evaluation of `program` over `contexts` (searched last to first).
    pub(crate) fn new(meter: Meter, program: &'r Program, contexts: &'r [&'r Object]) -> Cx<'r> {
        Cx {
            meter,
            program,
            contexts,
            names: [const { Cell::new(None) }; NAME_CACHE],
            slots: Vec::new(),
            shared: None,
            top: 0,
            bases: Vec::new(),
            null_prototype: HashMap::default(),
        }
    }

    /// Marks `object` as having no prototype, as `Object.groupBy`'s answer has none.
    pub(crate) fn mark_null_prototype(&mut self, object: &Object) {
        self.null_prototype.insert(object.identity(), object.clone());
    }

    /// Whether `object` has no prototype: it came from `Object.groupBy` in this evaluation.
    pub(crate) fn is_null_prototype(&self, object: &Object) -> bool {
        !self.null_prototype.is_empty() && self.null_prototype.contains_key(&object.identity())
    }

    /// Charges `n` steps.
    #[inline]
    pub(crate) fn steps(&mut self, n: u64) -> Result<()> {
        self.meter.steps(n).map_err(Error::from)
    }

    /// Charges reading `len` characters: a step per 16.
    #[inline]
    pub(crate) fn text(&mut self, len: usize) -> Result<()> {
        self.steps(len.div_ceil(CHARS_PER_STEP) as u64)
    }

    /// Charges building a string of `len` characters, before it is built: the string cap, the
    /// total allocation, `1 + len/16` steps, and for a long one its time ([`Cx::reserve_time`]).
    #[inline]
    pub(crate) fn string(&mut self, len: usize) -> Result<()> {
        self.meter.charge_string(len)?;
        self.steps(1 + len.div_ceil(CHARS_PER_STEP) as u64)?;
        self.reserve_time(len, STRING_UNIT_NANOS)
    }

    /// Charges building an array of `len` items, before it is built: the array cap, the total
    /// allocation, `1 + len` steps, and for a long one its time ([`Cx::reserve_time`]).
    #[inline]
    pub(crate) fn array(&mut self, len: usize) -> Result<()> {
        self.meter.charge_array(len)?;
        self.steps(1 + len as u64)?;
        self.reserve_time(len, ARRAY_ITEM_NANOS)
    }

    /// Work of `units` at about `nanos` each that cannot stop halfway (one string or array built
    /// at once): when it is large, it fails now if it would not end before the deadline, so
    /// that with caps the host raised one `+`, `repeat` or `padStart` cannot run seconds past it.
    #[inline]
    fn reserve_time(&mut self, units: usize, nanos: u64) -> Result<()> {
        if units < BULK_WORK {
            return Ok(());
        }
        let work = std::time::Duration::from_nanos((units as u64).saturating_mul(nanos));
        self.meter.reserve_time(work).map_err(Error::from)
    }

    /// Reads the clock now: after building something expensive, such as a locale formatter.
    pub(crate) fn check_clock(&mut self) -> Result<()> {
        self.meter.check_clock().map_err(Error::from)
    }

    /// Calls `callback` with `args`, moving them into its parameters (extra arguments are
    /// ignored, missing ones are `undefined`), and charges the arrow's node count.
    pub(crate) fn call(&mut self, callback: Callback<'r>, args: &mut [Value]) -> Result<Value> {
        match callback {
            Callback::Global(function) => {
                let values = args.get(..1).unwrap_or(&[]);
                global::call(
                    self,
                    function,
                    &Args {
                        values,
                        callback: None,
                        name: function.name(),
                    },
                )
            }
            Callback::Lambda(lambda) => {
                let base = self.enter(lambda)?;
                let result = self.run_lambda(lambda, args);
                self.leave(base);
                result
            }
        }
    }

    /// Charges an arrow's node count and opens its frame.
    #[inline]
    fn enter(&mut self, lambda: &'r Lambda) -> Result<usize> {
        self.steps(u64::from(lambda.node_count))?;
        // The slot stack keeps what earlier calls left above `top`, so a callback run once per
        // item neither grows nor shrinks it: binding overwrites.
        let base = self.top;
        let end = base + usize::from(lambda.frame_size);
        if self.slots.len() < end {
            self.slots.resize(end, Slot::Empty);
        } else if !lambda.simple {
            // Defaults and patterns may read a slot before binding it: start clean.
            self.slots[base..end].fill(Slot::Empty);
        }
        self.top = end;
        self.bases.push(base);
        Ok(base)
    }

    #[inline]
    fn leave(&mut self, base: usize) {
        self.bases.pop();
        self.top = base;
    }

    fn run_lambda(&mut self, lambda: &'r Lambda, args: &mut [Value]) -> Result<Value> {
        self.run_params(lambda, 0, args)?;
        self.eval(&lambda.body)
    }

    /// Binds the parameters after the item, `(index, array)`, when the arrow has them.
    #[inline]
    fn rest_params(&mut self, lambda: &'r Lambda, first: usize, index: usize, array: &Value) -> Result<()> {
        match lambda.params.len().saturating_sub(first) {
            0 => Ok(()),
            1 => self.run_params(lambda, first, &mut [Value::Number(index as f64)]),
            _ => self.run_params(lambda, first, &mut [Value::Number(index as f64), array.clone()]),
        }
    }

    /// Binds the parameters from `first` on to `args` (moved out), `undefined` past its end.
    fn run_params(&mut self, lambda: &'r Lambda, first: usize, args: &mut [Value]) -> Result<()> {
        for (idx, param) in lambda.params.iter().enumerate().skip(first) {
            let value = args
                .get_mut(idx - first)
                .map(std::mem::take)
                .unwrap_or(Value::Undefined);
            match param {
                Pattern::Slot(slot) => self.bind_slot(*slot, value),
                pattern => self.bind(pattern, value)?,
            }
        }
        Ok(())
    }

    /// The callback's arrow when its parameters are plain names and it reads at least `min` of
    /// them: such an arrow can run over a whole array in one frame.
    pub(crate) fn plain_lambda(&self, callback: Callback<'r>, min: usize) -> Option<&'r Lambda> {
        match callback {
            Callback::Lambda(lambda) if lambda.simple && lambda.params.len() >= min => Some(lambda),
            _ => None,
        }
    }

    /// Runs an arrow of plain parameters ([`Cx::plain_lambda`]) over each item as an array
    /// method calls it, `(item, index, array)`, in one frame rebound per item, each invocation
    /// still charged the arrow's node count; hands `visit` each item's index and answer, and
    /// stops when it answers false. Items of a shared array bind by reference.
    pub(crate) fn each_with(
        &mut self,
        lambda: &'r Lambda,
        this: &Array,
        this_value: &Value,
        mut visit: impl FnMut(usize, Value) -> bool,
    ) -> Result<()> {
        let shared = self
            .shared
            .filter(|shared| std::ptr::eq(shared.as_slice(), this.as_slice()));
        let slot_of = |position: usize| match lambda.params.get(position) {
            Some(Pattern::Slot(slot)) => Some(*slot),
            _ => None,
        };
        let (item_slot, index_slot, array_slot) = (slot_of(0), slot_of(1), slot_of(2));
        let base = self.enter(lambda)?;
        let mut result = Ok(());
        for (index, item) in this.iter().enumerate() {
            if index > 0
                && let Err(error) = self.steps(u64::from(lambda.node_count))
            {
                result = Err(error);
                break;
            }
            if let Some(slot) = item_slot {
                let bound = match shared.and_then(|shared| shared.get(index)) {
                    Some(element) => Slot::Borrowed(element),
                    None => Slot::Owned(item.clone()),
                };
                self.set_slot(slot, bound);
            }
            if let Some(slot) = index_slot {
                self.bind_slot(slot, Value::Number(index as f64));
            }
            if let Some(slot) = array_slot {
                self.bind_slot(slot, this_value.clone());
            }
            match self.eval(&lambda.body) {
                Ok(answer) => {
                    if !visit(index, answer) {
                        break;
                    }
                }
                Err(error) => {
                    result = Err(error);
                    break;
                }
            }
        }
        self.leave(base);
        result
    }

    /// `reduce` from item `from` on with an arrow of plain parameters ([`Cx::plain_lambda`]):
    /// one frame for the whole walk, rebound per item, each invocation still charged the arrow's
    /// node count. Items of a shared array bind by reference.
    pub(crate) fn reduce_with(
        &mut self,
        lambda: &'r Lambda,
        mut accumulator: Value,
        this: &Array,
        this_value: &Value,
        from: usize,
    ) -> Result<Value> {
        if from >= this.len() {
            return Ok(accumulator);
        }
        let shared = self
            .shared
            .filter(|shared| std::ptr::eq(shared.as_slice(), this.as_slice()));
        let slots: Vec<u16> = lambda
            .params
            .iter()
            .filter_map(|param| match param {
                Pattern::Slot(slot) => Some(*slot),
                _ => None,
            })
            .collect();
        let (acc_slot, item_slot) = match slots.as_slice() {
            [acc, item, ..] => (usize::from(*acc), usize::from(*item)),
            _ => return Err(Error::guardrail("a reduce callback without two plain parameters")),
        };
        let base = self.enter(lambda)?;
        let mut result = Ok(());
        for index in from..this.len() {
            if index > from
                && let Err(error) = self.steps(u64::from(lambda.node_count))
            {
                result = Err(error);
                break;
            }
            let item = match shared.and_then(|shared| shared.get(index)) {
                Some(element) => Slot::Borrowed(element),
                None => Slot::Owned(this.get(index).cloned().unwrap_or(Value::Undefined)),
            };
            if let Ok([acc, item_at]) = self.slots.get_disjoint_mut([base + acc_slot, base + item_slot]) {
                *acc = Slot::Owned(std::mem::take(&mut accumulator));
                *item_at = item;
            }
            if let Some(&slot) = slots.get(2) {
                self.bind_slot(slot, Value::Number(index as f64));
            }
            if let Some(&slot) = slots.get(3) {
                self.bind_slot(slot, this_value.clone());
            }
            match self.eval(&lambda.body) {
                Ok(value) => accumulator = value,
                Err(error) => {
                    result = Err(error);
                    break;
                }
            }
        }
        self.leave(base);
        result.map(|()| accumulator)
    }

    /// Calls `callback` as `reduce` does: `(accumulator, item, index, array)`, building only
    /// the arguments the callback reads.
    pub(crate) fn call_reduce(
        &mut self,
        callback: Callback<'r>,
        accumulator: Value,
        item: &Value,
        index: usize,
        array: &Value,
    ) -> Result<Value> {
        if let (Callback::Lambda(lambda), Some(shared)) = (callback, self.shared)
            && let Some(element) = shared.get(index)
            && std::ptr::eq(element, item)
            && let [first, Pattern::Slot(slot), ..] = &*lambda.params
        {
            // The item is the shared array's own: bind it by reference.
            let base = self.enter(lambda)?;
            let bound = match first {
                Pattern::Slot(first) => {
                    self.bind_slot(*first, accumulator);
                    Ok(())
                }
                pattern => self.bind(pattern, accumulator),
            };
            self.set_slot(*slot, Slot::Borrowed(element));
            let result = bound
                .and_then(|()| self.rest_params(lambda, 2, index, array))
                .and_then(|()| self.eval(&lambda.body));
            self.leave(base);
            return result;
        }
        match callback.arity() {
            0 => self.call(callback, &mut []),
            1 => self.call(callback, &mut [accumulator]),
            2 => self.call(callback, &mut [accumulator, item.clone()]),
            3 => self.call(callback, &mut [accumulator, item.clone(), Value::Number(index as f64)]),
            _ => self.call(
                callback,
                &mut [accumulator, item.clone(), Value::Number(index as f64), array.clone()],
            ),
        }
    }

    /// Calls `callback` as an array method does: `(item, index, array)`, building only the
    /// arguments the callback reads.
    pub(crate) fn call_item(
        &mut self,
        callback: Callback<'r>,
        item: &Value,
        index: usize,
        array: &Value,
    ) -> Result<Value> {
        if let (Callback::Lambda(lambda), Some(shared)) = (callback, self.shared)
            && let Some(element) = shared.get(index)
            && std::ptr::eq(element, item)
            && let Some(Pattern::Slot(slot)) = lambda.params.first()
        {
            // The item is the shared array's own: bind it by reference.
            let base = self.enter(lambda)?;
            self.set_slot(*slot, Slot::Borrowed(element));
            let result = self
                .rest_params(lambda, 1, index, array)
                .and_then(|()| self.eval(&lambda.body));
            self.leave(base);
            return result;
        }
        match callback.arity() {
            0 => self.call(callback, &mut []),
            1 => self.call(callback, &mut [item.clone()]),
            2 => self.call(callback, &mut [item.clone(), Value::Number(index as f64)]),
            _ => self.call(
                callback,
                &mut [item.clone(), Value::Number(index as f64), array.clone()],
            ),
        }
    }

    // ------------------------------------------------------------------ entry

    /// Runs the program: charges its node count and evaluates the root as a result position.
    ///
    /// A result of any depth may leave: writ-core drops and writes values without recursion.
    /// What goes to a host function is checked for depth there, because JSON Schema
    /// validation recurses. The answer, or a host call's argument, is charged for the text it
    /// will be written as ([`answer::charge`]) while the evaluation's meter still runs.
    #[inline]
    pub(crate) fn run(&mut self) -> Result<Completion> {
        self.steps(u64::from(self.program.node_count))?;
        // The result is handed on as it came, not taken apart and wrapped again: this runs once
        // per evaluation, and most evaluations are a few dozen steps.
        let completion = self.result(&self.program.root);
        if let Ok(
            Completion::Value(value)
            | Completion::HostCall {
                argument: Some(value), ..
            },
        ) = &completion
        {
            answer::charge(&mut self.meter, value)?;
        }
        completion
    }

    /// Evaluates a result position: where a host call may stand.
    fn result(&mut self, expr: &'r Expr) -> Result<Completion> {
        match expr {
            Expr::HostCall(call) => {
                let argument = match &call.argument {
                    Some(argument) => Some(self.eval(argument)?),
                    None => None,
                };
                Ok(Completion::HostCall {
                    function: call.function,
                    argument,
                })
            }
            Expr::Conditional(parts) => {
                let [test, yes, no] = &**parts;
                if self.eval(test)?.is_truthy() {
                    self.result(yes)
                } else {
                    self.result(no)
                }
            }
            Expr::Logical(op, sides) => {
                let [left, right] = &**sides;
                let left = self.eval(left)?;
                let short = match op {
                    LogicalOp::And => !left.is_truthy(),
                    LogicalOp::Or => left.is_truthy(),
                    LogicalOp::Coalesce => !matches!(left, Value::Null | Value::Undefined),
                };
                if short {
                    Ok(Completion::Value(left))
                } else {
                    self.result(right)
                }
            }
            other => Ok(Completion::Value(self.eval(other)?)),
        }
    }

    // ------------------------------------------------------------------ names

    fn free(&self, index: u32) -> Result<Binding<'r>> {
        let slot = index as usize;
        let cache = self.names.get(slot);
        if let Some(binding) = cache.and_then(Cell::get) {
            return Ok(binding);
        }
        let name = self
            .program
            .free_names
            .get(slot)
            .ok_or_else(|| Error::guardrail("a name index out of range"))?;
        let binding = self.lookup(name)?;
        if let Some(cache) = cache {
            cache.set(Some(binding));
        }
        Ok(binding)
    }

    fn lookup(&self, name: &HintedKey) -> Result<Binding<'r>> {
        for context in self.contexts.iter().rev() {
            if let Some(value) = context.get_hinted(name) {
                return Ok(Binding::Value(value));
            }
        }
        if let Some(global) = name.key().as_ascii_str().and_then(Global::from_name) {
            return Ok(Binding::Global(global));
        }
        Err(self.unknown_name(name.key()))
    }

    #[cold]
    fn unknown_name(&self, name: &Str) -> Error {
        let text = name.to_string_lossy();
        let mut known: Vec<String> = Vec::new();
        for context in self.contexts {
            known.extend(context.keys().map(|key| key.to_string_lossy().into_owned()));
        }
        known.extend(Global::ALL.iter().map(|global| global.name().to_owned()));
        let hint = match writ_core::closest_name(&text, known.iter().map(String::as_str)) {
            Some(close) => format!(" — did you mean \"{close}\"?"),
            None => String::from(": pass it in a context, or write a literal"),
        };
        Error::unknown_reference(format!("\"{text}\" is not available in expressions{hint}"))
    }

    fn local(&self, depth: u16, slot: u16) -> &Value {
        self.bases
            .get(usize::from(depth))
            .and_then(|base| self.slots.get(base + usize::from(slot)))
            .map_or(&Value::Undefined, Slot::get)
    }

    /// What a path expression names when it is data borrowed for the whole evaluation: a
    /// context's value, a parameter bound by reference, or static reads of those.
    fn peek_shared(&self, expr: &'r Expr) -> Option<&'r Value> {
        match expr {
            Expr::Free(index) => match self.free(*index) {
                Ok(Binding::Value(value)) => Some(value),
                _ => None,
            },
            Expr::Local(local) => match self
                .bases
                .get(usize::from(local.depth))
                .and_then(|base| self.slots.get(base + usize::from(local.slot)))
            {
                Some(Slot::Borrowed(value)) => Some(*value),
                _ => None,
            },
            Expr::Member(member) if !member.optional => match (&member.property, self.peek_shared(&member.object)?) {
                (Property::Named(name), Value::Object(fields)) => fields.get_hinted(name),
                (Property::Index(index), Value::Array(items)) => items.get(*index as usize),
                _ => None,
            },
            _ => None,
        }
    }

    fn global_value(global: Global) -> Result<Value> {
        match global {
            Global::Undefined => Ok(Value::Undefined),
            Global::NaN => Ok(Value::Number(f64::NAN)),
            Global::Infinity => Ok(Value::Number(f64::INFINITY)),
            Global::Math | Global::Json => Err(Error::guardrail(format!(
                "\"{}\" is a namespace: use its members, as {}.{}(…); it cannot be used as a value",
                global.name(),
                global.name(),
                if global == Global::Math { "max" } else { "stringify" }
            ))),
            other => Err(Error::guardrail(format!(
                "\"{0}\" is a function: call it, as {0}(x), or pass it as a callback, as items.map({0}); it cannot \
                 be used as a value",
                other.name()
            ))),
        }
    }

    // ------------------------------------------------------------------ expressions

    /// Evaluates an expression to a value.
    pub(crate) fn eval(&mut self, expr: &'r Expr) -> Result<Value> {
        match expr {
            Expr::Const(value) => Ok(value.clone()),
            Expr::Local(local) => Ok(self.local(local.depth, local.slot).clone()),
            Expr::Uninitialized(name) => Err(Error::reference_error(format!(
                "Cannot access '{}' before initialization: a default value can read only the parameters before \
                 its own, as in (a, b = a) => b",
                name.to_string_lossy()
            ))),
            Expr::Free(index) => match self.free(*index)? {
                Binding::Value(value) => Ok(value.clone()),
                Binding::Global(global) => Self::global_value(global),
            },
            Expr::Member(member) => {
                if let Some(value) = self.peek(expr) {
                    return Ok(value.clone());
                }
                Ok(self.member(member)?.unwrap_or(Value::Undefined))
            }
            Expr::Call(call) => match self.call_expr(call)? {
                Some(value) => Ok(value),
                None => Ok(Value::Undefined),
            },
            Expr::Chain(inner) => {
                let value = match &**inner {
                    Expr::Member(member) => self.member(member)?,
                    Expr::Call(call) => self.call_expr(call)?,
                    other => Some(self.eval(other)?),
                };
                Ok(value.unwrap_or(Value::Undefined))
            }
            Expr::Binary(op, sides) => {
                let [left, right] = &**sides;
                // Operands that are plain reads compare and combine where they live.
                if let Some(a) = self.peek(left) {
                    match (a, self.peek(right)) {
                        (Value::Number(a), Some(Value::Number(b))) => return Ok(number_op(*op, *a, *b)),
                        (a, Some(b)) if matches!(op, BinaryOp::StrictEq) => {
                            return Ok(Value::Bool(ops::strict_equals(a, b)));
                        }
                        (a, Some(b)) if matches!(op, BinaryOp::StrictNe) => {
                            return Ok(Value::Bool(!ops::strict_equals(a, b)));
                        }
                        (Value::Number(a), None) => {
                            let a = *a;
                            return match self.eval(right)? {
                                Value::Number(b) => Ok(number_op(*op, a, b)),
                                right => self.binary(*op, &Value::Number(a), &right),
                            };
                        }
                        _ => {}
                    }
                }
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                // Matched by value: two numbers leave nothing behind to drop.
                match (left, right) {
                    (Value::Number(a), Value::Number(b)) => Ok(number_op(*op, a, b)),
                    (left, right) => self.binary(*op, &left, &right),
                }
            }
            Expr::Logical(op, sides) => {
                let [left, right] = &**sides;
                let left = self.eval(left)?;
                let short = match op {
                    LogicalOp::And => !left.is_truthy(),
                    LogicalOp::Or => left.is_truthy(),
                    LogicalOp::Coalesce => !matches!(left, Value::Null | Value::Undefined),
                };
                if short { Ok(left) } else { self.eval(right) }
            }
            Expr::Conditional(parts) => {
                let [test, yes, no] = &**parts;
                if self.eval(test)?.is_truthy() {
                    self.eval(yes)
                } else {
                    self.eval(no)
                }
            }
            Expr::Unary(op, operand) => self.unary(*op, operand),
            Expr::Template(template) => {
                let mut text = coerce::TextBuilder::with_capacity(32);
                for (idx, quasi) in template.quasis.iter().enumerate() {
                    text.push(quasi);
                    if let Some(expr) = template.exprs.get(idx) {
                        match self.peek(expr) {
                            Some(Value::String(part)) => text.push(part),
                            Some(Value::Number(n)) => text.push_number(*n),
                            _ => {
                                let value = self.eval(expr)?;
                                match &value {
                                    Value::String(part) => text.push(part),
                                    Value::Number(n) => text.push_number(*n),
                                    other => {
                                        let part = to_string(self, other)?;
                                        text.push(&part);
                                    }
                                }
                            }
                        }
                        // Checked as it grows, so many long parts cannot build past the cap.
                        self.meter.check_string_length(text.len())?;
                    }
                }
                self.string(text.len())?;
                Ok(Value::String(text.finish()))
            }
            Expr::Array(elements) => self.array_literal(elements),
            Expr::Object(props) => self.object_literal(props),
            Expr::Record(record) => {
                let mut buffer = ArgBuffer::new();
                for value in &record.values {
                    let value = self.eval(value)?;
                    buffer.push(value);
                }
                Ok(Value::Object(if buffer.heap.is_empty() {
                    record.shape.build(buffer.inline.into_iter().take(buffer.len))
                } else {
                    record.shape.build(buffer.heap.into_iter())
                }))
            }
            Expr::HostCall(_) => Err(Error::guardrail(
                "a host function's call must be the result itself: the whole expression, a branch of ?:, or the \
                 right side of ??, || or &&",
            )),
        }
    }

    /// The value a path expression names, borrowed where it lives (a parameter's slot, a
    /// context), when reading it needs no conversion, no charge and no error: the hot path of
    /// `r.price` and `row.user.name`. `None` sends the caller down the general path, which
    /// gives the same answer the slow way.
    fn peek(&self, expr: &'r Expr) -> Option<&Value> {
        match expr {
            Expr::Const(value) => Some(value),
            Expr::Local(local) => self
                .bases
                .get(usize::from(local.depth))
                .and_then(|base| self.slots.get(base + usize::from(local.slot)))
                .map(Slot::get),
            Expr::Free(index) => match self.free(*index) {
                Ok(Binding::Value(value)) => Some(value),
                _ => None,
            },
            Expr::Member(member) if !member.optional => match (&member.property, self.peek(&member.object)?) {
                (Property::Named(name), Value::Object(fields)) => fields.get_hinted(name),
                (Property::Index(index), Value::Array(items)) => items.get(*index as usize),
                _ => None,
            },
            _ => None,
        }
    }

    fn unary(&mut self, op: UnaryOp, operand: &'r Expr) -> Result<Value> {
        match op {
            UnaryOp::Not => Ok(Value::Bool(!self.eval(operand)?.is_truthy())),
            UnaryOp::Neg => {
                let value = self.eval(operand)?;
                Ok(Value::Number(-to_number(self, &value)?))
            }
            UnaryOp::Plus => {
                let value = self.eval(operand)?;
                Ok(Value::Number(to_number(self, &value)?))
            }
            UnaryOp::Typeof => {
                if let Expr::Free(index) = operand {
                    return Ok(Value::from(match self.free(*index)? {
                        Binding::Value(value) => coerce::type_of(value),
                        Binding::Global(global) => global.type_of(),
                    }));
                }
                let value = self.eval(operand)?;
                Ok(Value::from(coerce::type_of(&value)))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, left: &Value, right: &Value) -> Result<Value> {
        if let (Value::Number(a), Value::Number(b)) = (left, right) {
            return Ok(number_op(op, *a, *b));
        }
        match op {
            BinaryOp::Add => self.add(left, right),
            BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem | BinaryOp::Exp => {
                let a = to_number(self, left)?;
                let b = to_number(self, right)?;
                Ok(Value::Number(match op {
                    BinaryOp::Sub => a - b,
                    BinaryOp::Mul => a * b,
                    BinaryOp::Div => a / b,
                    BinaryOp::Rem => a % b,
                    _ => ops::js_pow(a, b),
                }))
            }
            BinaryOp::StrictEq => Ok(Value::Bool(ops::strict_equals(left, right))),
            BinaryOp::StrictNe => Ok(Value::Bool(!ops::strict_equals(left, right))),
            BinaryOp::LooseEq => Ok(Value::Bool(self.loose_equals(left, right)?)),
            BinaryOp::LooseNe => Ok(Value::Bool(!self.loose_equals(left, right)?)),
            BinaryOp::Lt => self.compare(left, right, false, |o| o == Some(std::cmp::Ordering::Less)),
            BinaryOp::Gt => self.compare(left, right, true, |o| o == Some(std::cmp::Ordering::Less)),
            BinaryOp::Le => self.compare(left, right, true, |o| o.is_some_and(|o| o != std::cmp::Ordering::Less)),
            BinaryOp::Ge => self.compare(left, right, false, |o| o.is_some_and(|o| o != std::cmp::Ordering::Less)),
        }
    }

    /// JavaScript's `ToPrimitive` ([`coerce::to_primitive`]).
    fn primitive(&mut self, value: &Value) -> Result<Value> {
        coerce::to_primitive(self, value)
    }

    fn add(&mut self, left: &Value, right: &Value) -> Result<Value> {
        let left = self.primitive(left)?;
        let right = self.primitive(right)?;
        if matches!(left, Value::String(_)) || matches!(right, Value::String(_)) {
            let a = to_string(self, &left)?;
            let b = to_string(self, &right)?;
            let len = a.len_utf16().saturating_add(b.len_utf16());
            self.string(len)?;
            return Ok(Value::String(a.concat(&b)));
        }
        let a = to_number(self, &left)?;
        let b = to_number(self, &right)?;
        Ok(Value::Number(a + b))
    }

    /// The abstract relational comparison: `left < right` as an ordering of the primitives,
    /// `None` when a NaN makes it undefined. `swap` compares `right` with `left` instead,
    /// converting in source order as JavaScript does.
    fn compare(
        &mut self,
        left: &Value,
        right: &Value,
        swap: bool,
        answer: impl Fn(Option<std::cmp::Ordering>) -> bool,
    ) -> Result<Value> {
        let (first, second) = if swap { (right, left) } else { (left, right) };
        let (a, b) = if swap {
            let b = self.primitive(second)?;
            (self.primitive(first)?, b)
        } else {
            let a = self.primitive(first)?;
            (a, self.primitive(second)?)
        };
        if let (Value::String(x), Value::String(y)) = (&a, &b) {
            self.text(x.len_utf16().min(y.len_utf16()))?;
            return Ok(Value::Bool(answer(Some(x.cmp(y)))));
        }
        let x = to_number(self, &a)?;
        let y = to_number(self, &b)?;
        Ok(Value::Bool(answer(x.partial_cmp(&y))))
    }

    /// `==`: the abstract equality of ECMA-262 over writ values.
    fn loose_equals(&mut self, left: &Value, right: &Value) -> Result<bool> {
        js::loose_equals(self, left, right)
    }

    // ------------------------------------------------------------------ reads

    /// Evaluates a member read; `None` when an optional link short-circuits the chain.
    fn member(&mut self, member: &'r Member) -> Result<Option<Value>> {
        let object = match self.receiver(&member.object)? {
            Receiver::ShortCircuit => return Ok(None),
            Receiver::Namespace(global) => {
                let name = match &member.property {
                    Property::Named(name) => name.key().clone(),
                    Property::Index(index) => coerce::number_to_str(f64::from(*index)),
                    Property::Computed(key) => {
                        let key = self.eval(key)?;
                        self.property_key(&key)?
                    }
                };
                return self.namespace_member(global, &name).map(Some);
            }
            Receiver::Value(value) => value,
        };
        if member.optional && matches!(object, Value::Null | Value::Undefined) {
            return Ok(None);
        }
        let value = match &member.property {
            Property::Named(name) => match &object {
                // Own data or nothing, as `read` says.
                Value::Object(fields) => fields.get_hinted(name).cloned().unwrap_or(Value::Undefined),
                _ => self.read(&object, Key::Name(name.key()))?,
            },
            Property::Index(index) => self.read(&object, Key::Index(*index))?,
            Property::Computed(key) => {
                let key = self.eval(key)?;
                self.read_computed(&object, &key)?
            }
        };
        Ok(Some(value))
    }

    /// Evaluates the receiver of a member read or method call, continuing an optional chain
    /// through nested links and recognising namespace globals.
    fn receiver(&mut self, expr: &'r Expr) -> Result<Receiver> {
        match expr {
            Expr::Free(index) => match self.free(*index)? {
                Binding::Value(value) => Ok(Receiver::Value(value.clone())),
                Binding::Global(global) => match global {
                    Global::Undefined | Global::NaN | Global::Infinity => {
                        Ok(Receiver::Value(Self::global_value(global)?))
                    }
                    namespace => Ok(Receiver::Namespace(namespace)),
                },
            },
            Expr::Member(member) => Ok(match self.member(member)? {
                Some(value) => Receiver::Value(value),
                None => Receiver::ShortCircuit,
            }),
            Expr::Call(call) => Ok(match self.call_expr(call)? {
                Some(value) => Receiver::Value(value),
                None => Receiver::ShortCircuit,
            }),
            other => Ok(Receiver::Value(self.eval(other)?)),
        }
    }

    fn namespace_member(&mut self, global: Global, name: &Str) -> Result<Value> {
        let text = name.to_string_lossy();
        let constant = match global {
            Global::Math => MathConstant::from_name(&text).map(MathConstant::value),
            Global::Number => NumberConstant::from_name(&text).map(NumberConstant::value),
            _ => None,
        };
        if let Some(value) = constant {
            return Ok(Value::Number(value));
        }
        if Static::lookup(global, &text).is_some() {
            return Err(Error::guardrail(format!(
                "\"{0}.{text}\" is a function: call it, as {0}.{text}(…); it cannot be read as a value",
                global.name()
            )));
        }
        Err(Error::guardrail(format!(
            "\"{}.{text}\" is not available in expressions{}",
            global.name(),
            match global {
                Global::Math => ". Math has the constants PI, E, LN2, LN10, LOG2E, LOG10E, SQRT1_2, SQRT2",
                Global::Number =>
                    ". Number has the constants MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, MAX_VALUE, \
                                   MIN_VALUE, EPSILON, POSITIVE_INFINITY, NEGATIVE_INFINITY, NaN",
                _ => "",
            }
        )))
    }

    /// Converts a computed key: numbers and strings pass, booleans, null and undefined read as
    /// their names, arrays and objects as their string forms, as JavaScript's ToPropertyKey.
    fn property_key(&mut self, key: &Value) -> Result<Str> {
        match key {
            Value::String(text) => Ok(text.clone()),
            other => to_string(self, other),
        }
    }

    fn read_computed(&mut self, object: &Value, key: &Value) -> Result<Value> {
        if let Value::Number(n) = key
            && *n >= 0.0
            && n.fract() == 0.0
            && *n < 4294967295.0
        {
            return self.read(object, Key::Index(*n as u32));
        }
        if matches!(object, Value::Null | Value::Undefined) {
            let name = self.property_key(key)?;
            return self.read(object, Key::Name(&name));
        }
        let name = self.property_key(key)?;
        match writ_core::js::array_index(&name) {
            Some(index) => self.read(object, Key::Index(index)),
            None => self.read(object, Key::Name(&name)),
        }
    }

    /// The membrane: every property read of the language comes through here.
    fn read(&mut self, object: &Value, key: Key<'_>) -> Result<Value> {
        match object {
            Value::Object(fields) => {
                let found = match key {
                    Key::Name(name) => fields.get(name),
                    Key::Index(index) => fields.get(&coerce::number_to_str(f64::from(index))),
                };
                // Own data or nothing: an inherited name (`constructor`, `__proto__`,
                // `toString`) is simply not there, as seed 004 specifies.
                Ok(found.cloned().unwrap_or(Value::Undefined))
            }
            Value::Array(items) => match key {
                Key::Index(index) => Ok(items.get(index as usize).cloned().unwrap_or(Value::Undefined)),
                Key::Name(name) if name.eq_str("length") => Ok(Value::Number(items.len() as f64)),
                Key::Name(name) if names_has(ARRAY_PROTO, name) || names_has(OBJECT_PROTO, name) => {
                    Err(prototype_read("an array", name))
                }
                Key::Name(_) => Ok(Value::Undefined),
            },
            Value::String(text) => match key {
                Key::Index(index) => Ok(text
                    .code_unit(index as usize)
                    .map_or(Value::Undefined, |unit| Value::String(Str::from_utf16(&[unit])))),
                Key::Name(name) if name.eq_str("length") => Ok(Value::Number(text.len_utf16() as f64)),
                Key::Name(name) if names_has(STRING_PROTO, name) || names_has(OBJECT_PROTO, name) => {
                    Err(prototype_read("a string", name))
                }
                Key::Name(_) => Ok(Value::Undefined),
            },
            Value::Number(_) => match key {
                Key::Name(name) if names_has(NUMBER_PROTO, name) || names_has(OBJECT_PROTO, name) => {
                    Err(prototype_read("a number", name))
                }
                _ => Ok(Value::Undefined),
            },
            Value::Bool(_) => match key {
                Key::Name(name) if names_has(BOOLEAN_PROTO, name) || names_has(OBJECT_PROTO, name) => {
                    Err(prototype_read("a boolean", name))
                }
                _ => Ok(Value::Undefined),
            },
            Value::Null | Value::Undefined => {
                let shown = match key {
                    Key::Index(index) => index.to_string(),
                    Key::Name(name) => name.to_string_lossy().into_owned(),
                };
                Err(Error::type_error(format!(
                    "Cannot read properties of {} (reading '{shown}'): guard the read with ?. as in a?.b, or give \
                     a default with ??",
                    if matches!(object, Value::Null) {
                        "null"
                    } else {
                        "undefined"
                    }
                )))
            }
        }
    }

    // ------------------------------------------------------------------ calls

    /// Evaluates a call; `None` when an optional link short-circuits the chain.
    fn call_expr(&mut self, call: &'r Call) -> Result<Option<Value>> {
        match &call.callee {
            Callee::Method {
                receiver,
                method,
                optional,
            } => {
                let shared = match self.peek_shared(receiver) {
                    Some(Value::Array(items)) => Some(items),
                    _ => None,
                };
                let receiver = match self.receiver(receiver)? {
                    Receiver::ShortCircuit => return Ok(None),
                    other => other,
                };
                match receiver {
                    Receiver::Namespace(global) => {
                        let function = match method {
                            MethodKey::Named(name) => match name.statik {
                                Some(function) if Static::lookup(global, &name.text.to_string_lossy()).is_some() => {
                                    Some(function)
                                }
                                _ => Static::lookup(global, &name.text.to_string_lossy()),
                            },
                            MethodKey::Computed(key) => {
                                let key = self.eval(key)?;
                                let key = self.property_key(&key)?;
                                Static::lookup(global, &key.to_string_lossy())
                            }
                        };
                        let Some(function) = function else {
                            let shown = match method {
                                MethodKey::Named(name) => name.text.to_string_lossy().into_owned(),
                                MethodKey::Computed(_) => String::from("(computed)"),
                            };
                            return Err(namespace_call_refused(global, &shown));
                        };
                        self.call_static(function, &call.args).map(Some)
                    }
                    Receiver::Value(value) => {
                        if *optional && matches!(value, Value::Null | Value::Undefined) {
                            return Ok(None);
                        }
                        self.call_method(&value, shared, method, &call.args).map(Some)
                    }
                    Receiver::ShortCircuit => Ok(None),
                }
            }
            Callee::Free(index) => match self.free(*index)? {
                Binding::Global(global) if global.is_callable() => {
                    let mut buffer = ArgBuffer::new();
                    let (values, callback) = self.arguments(&call.args, None, &mut buffer)?;
                    global::call(
                        self,
                        global,
                        &Args {
                            values,
                            callback,
                            name: global.name(),
                        },
                    )
                    .map(Some)
                }
                Binding::Global(global) => Err(Error::guardrail(format!(
                    "\"{}\" cannot be called: the callable globals are Number, String, Boolean, parseInt, \
                     parseFloat, isNaN, isFinite, encodeURIComponent and decodeURIComponent",
                    global.name()
                ))),
                Binding::Value(value) => {
                    let name = self
                        .program
                        .free_names
                        .get(*index as usize)
                        .map(|name| name.key().clone())
                        .unwrap_or_default();
                    Err(Error::type_error(format!(
                        "{} is not a function ({} holds {}): only methods, callable globals and host functions \
                         can be called",
                        name.to_string_lossy(),
                        name.to_string_lossy(),
                        describe(value)
                    )))
                }
            },
            Callee::Value(expr) => {
                let value = self.eval(expr)?;
                Err(Error::type_error(format!(
                    "{} is not a function: only methods, callable globals and host functions can be called",
                    describe(&value)
                )))
            }
        }
    }

    /// Evaluates call arguments into `buffer`, expanding spreads and setting the callback
    /// aside when `callback_at` names its position.
    fn arguments<'b>(
        &mut self,
        args: &'r [Arg],
        callback_at: Option<usize>,
        buffer: &'b mut ArgBuffer,
    ) -> Result<(&'b [Value], Option<Callback<'r>>)> {
        let mut callback = None;
        for (position, arg) in args.iter().enumerate() {
            match arg {
                Arg::Value(expr) => {
                    let value = self.eval(expr)?;
                    buffer.push(value);
                }
                Arg::Spread(expr) => {
                    let value = self.eval(expr)?;
                    self.spread_into(&value, buffer)?;
                }
                Arg::Lambda(lambda) => {
                    if callback_at == Some(position) {
                        callback = Some(Callback::Lambda(lambda));
                    } else {
                        return Err(Error::guardrail(
                            "A function can only be written as a method's callback, as in rows.map(r => r.name)",
                        ));
                    }
                    buffer.push(Value::Undefined);
                }
                Arg::GlobalCallback(index) => match self.free(*index)? {
                    Binding::Global(global) if global.is_callback() && callback_at == Some(position) => {
                        callback = Some(Callback::Global(global));
                        buffer.push(Value::Undefined);
                    }
                    Binding::Global(global) => return Err(Self::global_value(global).unwrap_err_or_guardrail()),
                    Binding::Value(value) => buffer.push(value.clone()),
                },
            }
        }
        Ok((buffer.as_slice(), callback))
    }

    fn spread_into(&mut self, value: &Value, buffer: &mut ArgBuffer) -> Result<()> {
        match value {
            Value::Array(items) => {
                self.steps(items.len() as u64)?;
                for item in items.iter() {
                    buffer.push(item.clone());
                }
                Ok(())
            }
            Value::String(text) => {
                for point in code_points(self, text)? {
                    buffer.push(point);
                }
                Ok(())
            }
            other => Err(Error::type_error(format!(
                "{} is not iterable: only arrays and strings can be spread into a call or an array",
                describe(other)
            ))),
        }
    }

    fn call_static(&mut self, function: Static, args: &'r [Arg]) -> Result<Value> {
        let mut buffer = ArgBuffer::new();
        let (values, callback) = self.arguments(args, function.callback_argument(), &mut buffer)?;
        match function {
            Static::Math(f) => math::call(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::Json(f) => json::call(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::Object(f) => object::call(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::Array(f) => array::call_static(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::Number(f) => global::call_number(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::String(f) => string::call_static(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
            Static::Date(f) => date::call(
                self,
                f,
                &Args {
                    values,
                    callback,
                    name: f.name(),
                },
            ),
        }
    }

    /// `shared` is the receiver again when it is data borrowed for the whole evaluation.
    fn call_method(
        &mut self,
        receiver: &Value,
        shared: Option<&'r Array>,
        method: &'r MethodKey,
        args: &'r [Arg],
    ) -> Result<Value> {
        let computed;
        let (text, array_method, string_method, number_method) = match method {
            MethodKey::Named(name) => (&name.text, name.array, name.string, name.number),
            MethodKey::Computed(key) => {
                let key = self.eval(key)?;
                computed = self.property_key(&key)?;
                let text = computed.to_string_lossy();
                (
                    &computed,
                    ArrayMethod::from_name(&text),
                    StringMethod::from_name(&text),
                    NumberMethod::from_name(&text),
                )
            }
        };
        match receiver {
            Value::Array(items) => {
                let Some(method) = array_method else {
                    return Err(self.no_method(receiver, text, ARRAY_PROTO, "an array"));
                };
                let mut buffer = ArgBuffer::new();
                let (values, callback) = self.arguments(args, method.callback_argument(), &mut buffer)?;
                let outer = std::mem::replace(&mut self.shared, shared);
                let result = array::call(
                    self,
                    items,
                    receiver,
                    method,
                    &Args {
                        values,
                        callback,
                        name: method.name(),
                    },
                );
                self.shared = outer;
                result
            }
            Value::String(text_value) => {
                let Some(method) = string_method else {
                    return Err(self.no_method(receiver, text, STRING_PROTO, "a string"));
                };
                let mut buffer = ArgBuffer::new();
                let (values, callback) = self.arguments(args, None, &mut buffer)?;
                string::call(
                    self,
                    text_value,
                    method,
                    &Args {
                        values,
                        callback,
                        name: method.name(),
                    },
                )
            }
            Value::Number(n) => {
                let Some(method) = number_method else {
                    return Err(self.no_method(receiver, text, NUMBER_PROTO, "a number"));
                };
                let mut buffer = ArgBuffer::new();
                let (values, callback) = self.arguments(args, None, &mut buffer)?;
                number::call(
                    self,
                    *n,
                    method,
                    &Args {
                        values,
                        callback,
                        name: method.name(),
                    },
                )
            }
            Value::Bool(_) => Err(self.no_method(receiver, text, BOOLEAN_PROTO, "a boolean")),
            Value::Object(fields) => {
                if let Some(value) = fields.get(text) {
                    return Err(Error::type_error(format!(
                        "\"{}\" holds {}, which is not a function: an object's own data cannot be called",
                        text.to_string_lossy(),
                        describe(value)
                    )));
                }
                Err(self.no_method(receiver, text, &[], "an object"))
            }
            Value::Null | Value::Undefined => Err(Error::type_error(format!(
                "Cannot read properties of {} (reading '{}'): guard the call with ?. as in a?.{}(…)",
                if matches!(receiver, Value::Null) {
                    "null"
                } else {
                    "undefined"
                },
                text.to_string_lossy(),
                text.to_string_lossy()
            ))),
        }
    }

    /// The error for a method the receiver's kind does not have in the language: a
    /// guardrail when JavaScript has it (`push`, `sort`, `forEach`, …), the TypeError
    /// JavaScript raises otherwise.
    #[cold]
    fn no_method(&self, receiver: &Value, name: &Str, proto: &[&str], kind: &str) -> Error {
        let text = name.to_string_lossy();
        if names_has(proto, name) || names_has(OBJECT_PROTO, name) {
            let hint = match &*text {
                "push" | "pop" | "shift" | "unshift" | "splice" | "fill" | "copyWithin" => {
                    ": expressions do not change data — build a new array with concat, toSpliced, with or spread"
                }
                "sort" => ": expressions do not change data — use toSorted",
                "reverse" => ": expressions do not change data — use toReversed",
                "forEach" => ": a callback has no effect to run — use map, filter or reduce",
                "keys" | "values" | "entries" => {
                    ": iterators are not in the language — use Object.keys(…), \
                                                  Object.values(…) or Object.entries(…)"
                }
                "match" | "matchAll" | "search" => {
                    ": regular expressions are not in the language — use includes, \
                                                     indexOf, startsWith or split"
                }
                "substr" => ": use slice or substring",
                "trimLeft" => ": use trimStart",
                "trimRight" => ": use trimEnd",
                _ => "",
            };
            return Error::guardrail(format!("\"{text}\" is not an available method on {kind}{hint}"));
        }
        let _ = receiver;
        Error::type_error(format!("{text} is not a function: {kind} has no method \"{text}\""))
    }

    // ------------------------------------------------------------------ literals

    fn array_literal(&mut self, elements: &'r [Element]) -> Result<Value> {
        let mut buffer = ArgBuffer::new();
        for element in elements {
            match element {
                Element::Item(expr) => {
                    let value = self.eval(expr)?;
                    buffer.push(value);
                }
                Element::Spread(expr) => {
                    let value = self.eval(expr)?;
                    self.spread_into(&value, &mut buffer)?;
                }
            }
        }
        let items = buffer.into_vec();
        self.array(items.len())?;
        Ok(Value::Array(Array::from(items)))
    }

    fn object_literal(&mut self, props: &'r [Prop]) -> Result<Value> {
        let mut object = Object::with_capacity(props.len());
        for prop in props {
            match prop {
                Prop::Init(key, value) => {
                    let key = match key {
                        PropKey::Static(name) => name.clone(),
                        PropKey::Computed(expr) => {
                            let key = self.eval(expr)?;
                            self.property_key(&key)?
                        }
                    };
                    let value = self.eval(value)?;
                    object.insert(key, value);
                }
                Prop::Spread(expr) => {
                    let value = self.eval(expr)?;
                    self.spread_object(&mut object, &value)?;
                }
            }
        }
        Ok(Value::Object(object))
    }

    fn spread_object(&mut self, object: &mut Object, value: &Value) -> Result<()> {
        match value {
            Value::Object(source) => {
                self.steps(source.len() as u64)?;
                for (key, value) in source.iter() {
                    object.insert(key.clone(), value.clone());
                }
            }
            Value::Array(items) => {
                self.steps(items.len() as u64)?;
                for (index, item) in items.iter().enumerate() {
                    object.insert(coerce::number_to_str(index as f64), item.clone());
                }
            }
            Value::String(text) => {
                self.steps(text.len_utf16() as u64)?;
                for index in 0..text.len_utf16() {
                    if let Some(unit) = text.code_unit(index) {
                        object.insert(
                            coerce::number_to_str(index as f64),
                            Value::String(Str::from_utf16(&[unit])),
                        );
                    }
                }
            }
            Value::Null | Value::Undefined | Value::Number(_) | Value::Bool(_) => {}
        }
        Ok(())
    }

    // ------------------------------------------------------------------ patterns

    fn bind(&mut self, pattern: &'r Pattern, value: Value) -> Result<()> {
        match pattern {
            Pattern::Slot(slot) => {
                self.bind_slot(*slot, value);
                Ok(())
            }
            Pattern::Default(target, default) => {
                let value = if value.is_undefined() {
                    self.eval(default)?
                } else {
                    value
                };
                self.bind(target, value)
            }
            Pattern::Object { props, rest } => {
                if matches!(value, Value::Null | Value::Undefined) {
                    return Err(Error::type_error(format!(
                        "Cannot destructure {} as it is {}: give the parameter a default, as ({{ a }} = {{}}) => a",
                        describe(&value),
                        describe(&value)
                    )));
                }
                let mut taken: Vec<Str> = Vec::new();
                for prop in props.iter() {
                    let key = match &prop.key {
                        PropKey::Static(name) => name.clone(),
                        PropKey::Computed(expr) => {
                            let key = self.eval(expr)?;
                            self.property_key(&key)?
                        }
                    };
                    let field = match writ_core::js::array_index(&key) {
                        Some(index) => self.read(&value, Key::Index(index))?,
                        None => self.read(&value, Key::Name(&key))?,
                    };
                    if rest.is_some() {
                        taken.push(key);
                    }
                    self.bind(&prop.value, field)?;
                }
                if let Some(slot) = rest {
                    let mut remaining = Object::new();
                    let mut scratch = Object::new();
                    self.spread_object(&mut scratch, &value)?;
                    for (key, field) in scratch.iter() {
                        if !taken.contains(key) {
                            remaining.insert(key.clone(), field.clone());
                        }
                    }
                    self.bind_slot(*slot, Value::Object(remaining));
                }
                Ok(())
            }
            Pattern::Array { items, rest } => {
                let elements: Vec<Value> = match &value {
                    Value::Array(array) => array.as_slice().to_vec(),
                    Value::String(text) => code_points(self, text)?,
                    other => {
                        return Err(Error::type_error(format!(
                            "{} is not iterable: only arrays and strings can be destructured with [ ]",
                            describe(other)
                        )));
                    }
                };
                self.steps(items.len() as u64)?;
                for (index, item) in items.iter().enumerate() {
                    if let Some(item) = item {
                        let element = elements.get(index).cloned().unwrap_or(Value::Undefined);
                        self.bind(item, element)?;
                    }
                }
                if let Some(rest) = rest {
                    let remaining: Vec<Value> = elements.get(items.len()..).map(<[Value]>::to_vec).unwrap_or_default();
                    self.array(remaining.len())?;
                    self.bind(rest, Value::Array(Array::from(remaining)))?;
                }
                Ok(())
            }
        }
    }
}

/// A binary operator on two numbers: no conversion, nothing to charge.
#[inline]
fn number_op(op: BinaryOp, a: f64, b: f64) -> Value {
    match op {
        BinaryOp::Add => Value::Number(a + b),
        BinaryOp::Sub => Value::Number(a - b),
        BinaryOp::Mul => Value::Number(a * b),
        BinaryOp::Div => Value::Number(a / b),
        BinaryOp::Rem => Value::Number(a % b),
        BinaryOp::Exp => Value::Number(ops::js_pow(a, b)),
        BinaryOp::LooseEq | BinaryOp::StrictEq => Value::Bool(a == b),
        BinaryOp::LooseNe | BinaryOp::StrictNe => Value::Bool(a != b),
        BinaryOp::Lt => Value::Bool(a < b),
        BinaryOp::Le => Value::Bool(a <= b),
        BinaryOp::Gt => Value::Bool(a > b),
        BinaryOp::Ge => Value::Bool(a >= b),
    }
}

impl<'r> Cx<'r> {
    fn bind_slot(&mut self, slot: u16, value: Value) {
        self.set_slot(slot, Slot::Owned(value));
    }

    fn set_slot(&mut self, slot: u16, value: Slot<'r>) {
        let base = self.bases.last().copied().unwrap_or(0);
        if let Some(target) = self.slots.get_mut(base + usize::from(slot)) {
            *target = value;
        }
    }
}

trait UnwrapErrOrGuardrail {
    fn unwrap_err_or_guardrail(self) -> Error;
}

impl UnwrapErrOrGuardrail for Result<Value> {
    fn unwrap_err_or_guardrail(self) -> Error {
        match self {
            Err(error) => error,
            Ok(_) => Error::guardrail("only a global that takes one argument can be passed as a callback"),
        }
    }
}

#[cold]
fn prototype_read(kind: &str, name: &Str) -> Error {
    let text = name.to_string_lossy();
    Error::guardrail(format!(
        "\"{text}\" is not readable on {kind}: expressions read only own data{}",
        if text != "constructor"
            && (ARRAY_PROTO.contains(&&*text) || STRING_PROTO.contains(&&*text) || NUMBER_PROTO.contains(&&*text))
        {
            format!(" — call it as a method, as x.{text}(…)")
        } else {
            String::new()
        }
    ))
}

#[cold]
fn namespace_call_refused(global: Global, name: &str) -> Error {
    let hint = match (global, name) {
        (Global::Math, "random") | (Global::Date, "now") => String::from(
            ": the same data gives the same result — a random value or the time comes from a host function",
        ),
        _ => format!(": {} has {}", global.name(), Static::names_of(global).join(", ")),
    };
    Error::guardrail(format!("\"{}.{name}\" is not available{hint}", global.name()))
}

/// The code points of a string as JavaScript iterates it (a lone surrogate alone), each a
/// string: counted first, so that the array is charged before any of it is built.
pub(crate) fn code_points(cx: &mut Cx<'_>, text: &Str) -> Result<Vec<Value>> {
    let units: Vec<u16> = text.code_units().collect();
    cx.text(units.len())?;
    let count = units.len() - pair_count(&units);
    cx.array(count)?;
    let mut points = room(count)?;
    let mut idx = 0;
    while idx < units.len() {
        let width = point_width(&units, idx);
        points.push(Value::String(Str::from_utf16(&units[idx..idx + width])));
        idx += width;
    }
    Ok(points)
}

/// The first code point of a non-empty string, as a string.
pub(crate) fn first_code_point(text: &Str) -> Str {
    let units: Vec<u16> = text.code_units().take(2).collect();
    let width = point_width(&units, 0).min(units.len());
    Str::from_utf16(&units[..width])
}

/// The number of surrogate pairs in `units`.
fn pair_count(units: &[u16]) -> usize {
    let mut pairs = 0;
    let mut idx = 0;
    while idx < units.len() {
        let width = point_width(units, idx);
        pairs += width - 1;
        idx += width;
    }
    pairs
}

/// 2 at the start of a surrogate pair, else 1.
fn point_width(units: &[u16], idx: usize) -> usize {
    let pair = units.get(idx).is_some_and(|unit| (0xD800..0xDC00).contains(unit))
        && units.get(idx + 1).is_some_and(|next| (0xDC00..0xE000).contains(next));
    if pair { 2 } else { 1 }
}

/// An empty vector with room for `len` items, asked of the allocator fallibly: with caps the
/// host raised, a request can pass every limit and still be more than the machine can give,
/// and that is a budget error, not an abort.
pub(crate) fn room<T>(len: usize) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        Error::budget(format!(
            "cannot allocate room for {len} items: the machine has less memory than the limits allow — lower \
             maxArrayLength or build a smaller array"
        ))
    })?;
    Ok(out)
}

/// Refuses a host function's argument or output nested deeper than [`MAX_RESULT_DEPTH`],
/// without recursion.
pub(crate) fn check_result_depth(value: &Value, label: &str) -> Result<()> {
    if !value.is_container() {
        return Ok(());
    }
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        if depth > MAX_RESULT_DEPTH {
            return Err(Error::guardrail(format!(
                "{label} nests deeper than {MAX_RESULT_DEPTH} levels, which cannot leave an expression"
            )));
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().filter(|v| v.is_container()).map(|v| (v, depth + 1))),
            Value::Object(fields) => stack.extend(fields.values().filter(|v| v.is_container()).map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// Call arguments: on the stack up to [`INLINE_ARGS`], on the heap past that.
struct ArgBuffer {
    inline: [Value; INLINE_ARGS],
    len: usize,
    heap: Vec<Value>,
}

impl ArgBuffer {
    fn new() -> ArgBuffer {
        ArgBuffer {
            inline: [const { Value::Undefined }; INLINE_ARGS],
            len: 0,
            heap: Vec::new(),
        }
    }

    fn push(&mut self, value: Value) {
        if self.heap.is_empty() && self.len < INLINE_ARGS {
            self.inline[self.len] = value;
            self.len += 1;
            return;
        }
        if self.heap.is_empty() {
            self.heap
                .extend(self.inline.iter_mut().take(self.len).map(std::mem::take));
        }
        self.heap.push(value);
    }

    fn as_slice(&self) -> &[Value] {
        if self.heap.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }

    fn into_vec(mut self) -> Vec<Value> {
        if self.heap.is_empty() {
            self.inline.iter_mut().take(self.len).map(std::mem::take).collect()
        } else {
            std::mem::take(&mut self.heap)
        }
    }
}

/// `==` reads text and converts arrays and objects as the rest of the interpreter does.
impl LooseEquality for Cx<'_> {
    type Error = Error;

    fn read_text(&mut self, len: usize) -> Result<()> {
        self.text(len)
    }

    fn to_primitive(&mut self, value: &Value) -> Result<Value> {
        self.primitive(value)
    }
}
