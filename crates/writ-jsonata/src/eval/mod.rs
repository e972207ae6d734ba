//! The evaluator: walks the tree over [`Val`]s, charging a [`Meter`].
//!
//! The structure follows JSONata's own evaluation model, because the language's answers depend
//! on it: a path evaluates step by step over sequences, flattening what each step yields; a
//! step that binds (`@`, `#`) or that a `%` reaches back to turns the rest of the path into a
//! *tuple stream*, whose items carry their bindings along (kept here, as in jsonata-js, as
//! records with the item under `@`); a sequence of one item is that item unless kept.
//!
//! Every node evaluated charges a step and enters one level of depth; the recursion runs on a
//! stack that grows on the heap ([`stacker`]), so no expression or data can overflow the
//! thread's stack whatever depth limit the host sets.
//!
//! This module holds the core every construct shares: [`Cx`] (the meter, the host, the context a
//! built-in is called in) with its charges, [`Cx::eval`] and the dispatch over node kinds, and
//! variables. Each construct lives beside it, one module a seam of JSONata's own evaluator:
//!
//! - `env`: scopes ([`Env`]);
//! - `path`: paths, steps and tuple streams, `*` and `**` (the general walk);
//! - `walk`: field names walked over the input by reference (the fast walk);
//! - `filter`: `[predicate]` and its fast tests on data in place;
//! - `compare`: ordering, `in`'s identity, and order-by;
//! - `operators`: arithmetic, `&`, ranges and array constructors;
//! - `objects`: object constructors and group-by;
//! - `apply`: calls, tail calls, partial application and `~>`;
//! - `transform`: `| pattern | update, delete |`.
//!
//! The constructs call one another only through [`Cx::eval`] and a few helpers each exposes to
//! its siblings (`pub(super)`); only what built-ins and the parser need is `pub(crate)`.

mod apply;
mod compare;
mod env;
mod filter;
mod objects;
mod operators;
mod path;
mod quick;
mod transform;
mod walk;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use writ_core::{Host, Meter, Str, Value};

pub(crate) use self::env::Env;
use self::path::lookup_field;
pub(crate) use self::quick::QuickTest;
pub(crate) use self::walk::walkable;
use crate::ast::{BinaryOp, Kind, Node, Stage};
use crate::error::{Code, Error, Result};
use crate::function::Function;
use crate::functions::{self, Builtin};
use crate::value::{ArrayView, Flags, Val, boolean};

/// The nesting no evaluation may pass, whatever its depth limit: past it the heap-grown stack
/// would hold gigabytes.
const MAX_NESTING: u32 = 100_000;
/// Stack left before the evaluator moves to a fresh segment.
const RED_ZONE: usize = 128 * 1024;
/// The size of each fresh stack segment.
const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// From how many units on a built-in's piece of work is charged in time before it runs.
const BULK_WORK: u64 = 1 << 16;
/// What a step of a built-in's bulk work costs at most, for charging it in time.
const STEP_NANOS: u64 = 2;
/// What building one code unit of a string costs at most.
const STRING_UNIT_NANOS: u64 = 4;
/// What writing one value of an answer's JSON text costs at most (writ-core's writer took 28 ns
/// a value for the 2^25 small arrays of 24 levels of `[[$a], [$a]]`, release build).
const ANSWER_VALUE_NANOS: u64 = 40;
/// What writing one byte of an answer's JSON text costs at most, beyond its values.
const ANSWER_BYTE_NANOS: u64 = 1;
/// The most values an answer may hold, each place a shared one is written counted, for its
/// text to be bounded by a count instead of measured ([`crate::value::small_text_bound`]).
const SMALL_ANSWER_VALUES: u64 = 256;
/// What building one item of a list costs at most: copying it bumps a shared count (an atomic
/// update when the item is a string or container), and the list's items are dropped the same way
/// later. Measured at 25 ns an item for a list of a million shared strings built by doubling.
const ARRAY_ITEM_NANOS: u64 = 30;
/// What dropping one container of a deep copy costs at most, for reserving it in time (about
/// 130 ns, its items included, on the reference machine under load).
const DROP_NANOS: u64 = 250;
/// Containers a deep copy builds between two reservations of their drop.
const COPY_CHECK: u64 = 4096;
/// What dropping one item of a built list costs at most, for holding back the time it takes
/// after the evaluation (a shared count to decrement, or a free).
const ITEM_DROP_NANOS: u64 = 8;

thread_local! {
    /// The root scope the last evaluation on this thread left, emptied, for the next one: boxed,
    /// so that handing it over moves one pointer.
    static SPARE_ROOT: std::cell::Cell<Option<Box<RootScope>>> = const { std::cell::Cell::new(None) };
    /// Built-in functions as values, made once per thread and shared by every evaluation on it.
    static BUILTIN_VALUES: RefCell<HashMap<&'static str, Rc<Function>>> = RefCell::new(HashMap::new());
}

/// A tuple's key for its item.
const FOCUS_KEY: &str = "@";

/// What an evaluation carries: its meter, its host, and what a built-in needs to know about
/// the call it serves.
pub(crate) struct Cx<'a> {
    meter: &'a mut Meter,
    host: &'a dyn Host,
    now: Option<f64>,
    /// The context item of the current call (`$` where the built-in was called).
    pub(crate) input: Val,
    /// The scope the current call was made in (`$eval` evaluates there).
    pub(crate) env: Env,
    /// Where the current call is, for errors.
    pub(crate) position: usize,
    /// A tuple's key for its item, shared by every tuple the evaluation builds.
    focus: &'a Str,
    /// The input document, `$$` wherever no scope binds that name itself.
    root: &'a Val,
    /// The values of the object constructors being built, innermost last: a stack every
    /// constructor of the evaluation shares, so that building one allocates no list for them.
    pending: &'a mut Vec<Val>,
    /// Containers the evaluation's deep copies have built, for the time their drop takes.
    copied: u64,
    /// Items of lists built since their drop time was last held back.
    built: u64,
}

/// How long writing a text of `size` takes at most, in nanoseconds.
fn writing_nanos(size: crate::value::TextSize) -> u64 {
    size.values
        .saturating_mul(ANSWER_VALUE_NANOS)
        .saturating_add(size.bytes.saturating_mul(ANSWER_BYTE_NANOS))
}

/// The outermost scope of an evaluation, and the key its tuples hold their items under.
///
/// Making one costs two allocations and freeing it two frees, and the key a shared count's
/// update, as much as a small expression's own work: each thread keeps the one its last
/// evaluation left, emptied, and hands it to the next ([`RootScope::take`], [`RootScope::give_back`]).
struct RootScope {
    env: Env,
    focus: Str,
    /// Where object constructors hold their values while they build ([`Cx::pending`]).
    pending: Vec<Val>,
}

impl RootScope {
    /// The thread's spare root scope, or a new one when an evaluation is using it.
    fn take() -> Box<RootScope> {
        SPARE_ROOT.take().unwrap_or_else(|| {
            Box::new(RootScope {
                env: Env::child(None),
                focus: Str::from(FOCUS_KEY),
                pending: Vec::new(),
            })
        })
    }

    /// Unbinds what the evaluation bound at the top level (which frees a closure bound there
    /// that holds the scope itself) and keeps the scope for the thread's next evaluation, once
    /// nothing else holds it.
    fn give_back(mut self: Box<Self>) {
        self.env.unbind_all();
        if !self.pending.is_empty() {
            // What an evaluation that failed left there may hold closures, chains of scopes.
            let pending = &mut self.pending;
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || pending.clear());
        }
        if self.env.is_only_holder() {
            SPARE_ROOT.with(|spare| spare.set(Some(self)));
        }
    }
}

/// Evaluates `root` over `input` with `bindings` as its variables, charging `meter` and reading
/// the time and random numbers from `host`: the entry point behind every evaluation.
pub(crate) fn evaluate_root<'b>(
    root: &Node,
    input: &Value,
    bindings: impl Iterator<Item = (&'b Str, &'b Value)>,
    meter: &mut Meter,
    host: &dyn Host,
) -> Result<Value> {
    let mut scope = RootScope::take();
    for (name, value) in bindings {
        scope.env.bind(name.clone(), Val::from(value));
    }
    // The document is `$$` through `Cx::root` rather than a binding, which would copy it again.
    let document = Val::from(input);
    // A JSON array as the whole input is one item, not a sequence of them.
    let wrapped;
    let input = if document.is_array() {
        wrapped = Val::list(vec![document.clone()], Flags::SEQUENCE.with(Flags::OUTER_WRAPPER));
        &wrapped
    } else {
        &document
    };
    let mut cx = Cx {
        meter,
        host,
        now: None,
        input: Val::Undefined,
        env: scope.env.clone(),
        position: 0,
        focus: &scope.focus,
        root: &document,
        pending: &mut scope.pending,
        copied: 0,
        built: 0,
    };
    let answer = cx.eval(root, input, &scope.env).and_then(|result| cx.answer(result));
    // What a built-in left as the context item is most often nothing, dropped without a call.
    let Cx { input, env, .. } = cx;
    input.discard();
    drop(env);
    scope.give_back();
    answer
}

/// The items of a value taken as a sequence: an array's items, or the value alone.
fn items_of(value: &Val) -> ArrayView<'_> {
    match value.as_array() {
        Some(items) => items,
        None => ArrayView::Built(std::slice::from_ref(value)),
    }
}

/// JSONata's `append`: undefined is nothing, a non-array is one item, arrays concatenate.
fn append_into(target: &mut Vec<Val>, value: Val) {
    match value.as_array() {
        Some(items) => target.extend(items.iter()),
        None => {
            if !value.is_undefined() {
                target.push(value);
            }
        }
    }
}

impl<'a> Cx<'a> {
    fn budget<T>(&self, result: std::result::Result<T, writ_core::BudgetExceeded>) -> Result<T> {
        result.map_err(|e| Error::from(e).at(self.position))
    }

    /// Charges one step.
    pub(crate) fn step(&mut self) -> Result<()> {
        let charged = self.meter.step();
        self.budget(charged)
    }

    /// Charges `n` steps: a built-in's work over `n` items or characters, charged before it runs.
    /// A large charge is also charged in time: it fails now if that much work would not end
    /// before the deadline.
    #[inline]
    pub(crate) fn steps(&mut self, n: u64) -> Result<()> {
        let charged = self.meter.steps(n);
        self.budget(charged)?;
        self.reserve_time(n, STEP_NANOS)
    }

    /// Charges building a string of `len` code units, in length and in time.
    pub(crate) fn charge_string(&mut self, len: usize) -> Result<()> {
        let charged = self.meter.charge_string(len);
        self.budget(charged)?;
        self.reserve_time(len as u64, STRING_UNIT_NANOS)
    }

    /// Fails when a string of `len` code units would pass the string cap, charging nothing: for
    /// text built piece by piece and charged when it is done.
    pub(crate) fn check_string_length(&mut self, len: usize) -> Result<()> {
        let checked = self.meter.check_string_length(len);
        self.budget(checked)
    }

    /// Charges building a sequence or array of `len` items (D2015 past the sequence limit), in
    /// length and in time.
    ///
    /// The list is dropped some time later, an item at a time: once enough items were built,
    /// their drop is held back from the deadline ([`writ_core::Meter::hold_back`]). Lists
    /// already dropped still count, which only makes the evaluation stop earlier, and only one
    /// that builds a great deal.
    #[inline]
    pub(crate) fn charge_array(&mut self, len: usize) -> Result<()> {
        let charged = self.meter.charge_array(len);
        self.budget(charged)?;
        self.built = self.built.saturating_add(len as u64);
        if self.built >= BULK_WORK {
            let dropping = self.built.saturating_mul(ITEM_DROP_NANOS);
            self.meter.hold_back(std::time::Duration::from_nanos(dropping));
            self.built = 0;
        }
        self.reserve_time(len as u64, ARRAY_ITEM_NANOS)
    }

    /// Charges one container a deep copy (`$clone`, a transform's target) builds. A copy that
    /// stops at the deadline is dropped whole as the error leaves, a free a container that
    /// took about as long as it took to build, so every [`COPY_CHECK`] containers the time
    /// dropping them takes is held back from the deadline and the clock read: the copy stops
    /// while its drop still fits. Copies already dropped still count, as built lists do.
    pub(crate) fn charge_copied(&mut self) -> Result<()> {
        self.copied += 1;
        if self.copied.is_multiple_of(COPY_CHECK) {
            self.meter
                .hold_back(std::time::Duration::from_nanos(COPY_CHECK.saturating_mul(DROP_NANOS)));
            let checked = self.meter.check_clock();
            self.budget(checked)?;
        }
        Ok(())
    }

    /// Work of `units` at about `nanos` each that cannot stop halfway: when it is large, the
    /// time it takes is charged before it runs, so a timeout holds inside it.
    fn reserve_time(&mut self, units: u64, nanos: u64) -> Result<()> {
        if units < BULK_WORK {
            return Ok(());
        }
        let work = std::time::Duration::from_nanos(units.saturating_mul(nanos));
        let reserved = self.meter.reserve_time(work);
        self.budget(reserved)
    }

    /// `result` as the answer: writ-core data, converted under the budget, and charged in time
    /// for the writing of its JSON text, which is part of the evaluation. An answer whose text
    /// would pass [`writ_core::MAX_ANSWER_BYTES`] is refused (U1008) before anything is
    /// written: a value that holds one container many times over is exponentially longer
    /// written than in memory.
    #[inline]
    fn answer(&mut self, result: Val) -> Result<Value> {
        // A scalar is its own answer, with nothing to convert or measure: most answers are
        // tests' booleans, made here without the calls the rest takes.
        match result.scalar_value() {
            Some(scalar) => {
                result.discard();
                Ok(scalar)
            }
            None => self.built_answer(result),
        }
    }

    /// [`Cx::answer`] of anything but a number, a boolean, `null` or no value.
    #[inline(never)]
    fn built_answer(&mut self, result: Val) -> Result<Value> {
        let value = match result {
            // Functions are dropped, so the conversion always answers a value.
            Val::List(..) | Val::Record(_) => {
                crate::value::to_data(&result, crate::value::Functions::Drop, &mut |n| self.steps(n))?
                    .unwrap_or_default()
            }
            data => data.into_value(),
        };
        if !value.is_container() {
            return Ok(value);
        }
        let limit = writ_core::MAX_ANSWER_BYTES as u64;
        // A small answer is bounded by a quick count, which settles it when even the bound is
        // too short to charge: most answers are, and measuring them exactly would cost more
        // than the evaluation.
        if let Some(bound) = crate::value::small_text_bound(&value, SMALL_ANSWER_VALUES)
            && writing_nanos(bound) < BULK_WORK
        {
            return Ok(value);
        }
        let mut charge = |n| self.steps(n);
        match crate::value::json_len(&value, limit, &mut charge)? {
            Some(size) => {
                let writing = writing_nanos(size);
                if writing >= BULK_WORK {
                    let reserved = self.meter.reserve_time_after(std::time::Duration::from_nanos(writing));
                    self.budget(reserved)?;
                }
                Ok(value)
            }
            None => Err(Error::new(Code::U1008).with_value(limit.to_string())),
        }
    }

    /// Milliseconds since the epoch from the host, the same for the whole evaluation.
    pub(crate) fn now_millis(&mut self) -> f64 {
        *self.now.get_or_insert_with(|| self.host.now_millis())
    }

    /// A random number in `[0, 1)` from the host.
    pub(crate) fn random(&mut self) -> f64 {
        self.host.random()
    }

    /// Evaluates `source` over `input` in the caller's scope, under this evaluation's budget
    /// (`$eval`).
    pub(crate) fn eval_source(&mut self, source: &str, input: Val) -> Result<Val> {
        let root = crate::parse::parse(source).map_err(|error| Error::new(Code::D3120).with_value(error.message()))?;
        let env = self.env.clone();
        let input = if input.is_array() && !input.is_sequence() {
            Val::list(vec![input], Flags::SEQUENCE.with(Flags::OUTER_WRAPPER))
        } else {
            input
        };
        self.eval(&root, &input, &env).map_err(|error| {
            if error.code().as_str().starts_with('U') || matches!(error.code(), Code::D1011 | Code::D1012 | Code::D2015)
            {
                error
            } else {
                Error::new(Code::D3121).with_value(error.message())
            }
        })
    }

    /// The function value of built-in `builtin`.
    fn builtin(&mut self, builtin: &'static Builtin) -> Val {
        let function = BUILTIN_VALUES.with(|values| {
            values
                .borrow_mut()
                .entry(builtin.name)
                .or_insert_with(|| Rc::new(Function::Builtin(builtin)))
                .clone()
        });
        Val::Function(function)
    }

    /// Evaluates one node: JSONata's `evaluate`.
    pub(crate) fn eval(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        // Leaves (literals, variables, field paths through objects) answer without entering a
        // level: they cannot recurse, and they are most of what a predicate evaluates. Each
        // makes its value where it returns it, after its step is charged: a value made first
        // and moved out after the charge goes through a temporary copied field by field, and
        // the load that reads it back whole stalls. Every way out of here is a call in tail
        // position, so choosing one saves no registers.
        if node.predicate.is_empty() && node.group.is_none() {
            match &node.kind {
                Kind::Number(_) | Kind::String(_) | Kind::Bool(_) | Kind::Null => return self.literal(node),
                Kind::Variable(name) if !node.keep_array => return self.variable_leaf(node, name, input, env),
                Kind::Path(steps) if node.walkable => {
                    // One field of an object, the commonest path of all.
                    if let ([step], Val::Object(object)) = (steps.as_slice(), input)
                        && step.stages.is_empty()
                    {
                        return match &step.kind {
                            Kind::Name(name) => self.field_of(step, name, object, node.position),
                            _ => self.enter(node, input, env),
                        };
                    }
                    return self.walked(node, steps, input, env);
                }
                _ => {}
            }
        }
        self.enter(node, input, env)
    }

    /// A literal (a number, a string, a boolean or `null`) as a leaf.
    #[inline(never)]
    fn literal(&mut self, node: &Node) -> Result<Val> {
        self.leaf_step(node)?;
        Ok(match &node.kind {
            Kind::Number(n) => Val::Number(*n),
            Kind::String(text) => Val::String(text.clone()),
            Kind::Bool(b) => Val::Bool(*b),
            _ => Val::Null,
        })
    }

    /// A variable as a leaf.
    #[inline(never)]
    fn variable_leaf(&mut self, node: &Node, name: &Str, input: &Val, env: &Env) -> Result<Val> {
        self.leaf_step(node)?;
        Ok(self.variable(name, input, env))
    }

    /// Charges the step a leaf takes.
    #[inline(always)]
    fn leaf_step(&mut self, node: &Node) -> Result<()> {
        self.meter
            .step()
            .map_err(|exceeded| Error::from(exceeded).at(node.position))
    }

    /// A walkable path as a leaf, when the fast walk reads all of it; else entered.
    #[inline(never)]
    fn walked(&mut self, node: &Node, steps: &[Node], input: &Val, env: &Env) -> Result<Val> {
        match self.data_path(steps, 0, input, env, true)? {
            Some(walked) if walked.done => {
                self.leaf_step(node)?;
                Ok(walked.value)
            }
            _ => self.enter(node, input, env),
        }
    }

    /// Evaluates `node` one level deeper: every node but a leaf.
    #[inline(never)]
    fn enter(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        let entered = self.meter.enter();
        if let Err(exceeded) = entered {
            return Err(Error::from(exceeded).at(node.position));
        }
        if self.meter.depth() > MAX_NESTING {
            self.meter.leave();
            return Err(Error::new(Code::D1011)
                .with_value(MAX_NESTING.to_string())
                .at(node.position));
        }
        let result = match self.meter.step() {
            Ok(()) => stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.eval_entered(node, input, env)),
            Err(exceeded) => Err(Error::from(exceeded).at(node.position)),
        };
        self.meter.leave();
        result
    }

    /// An entered node's answer. An operator (but a range) or a constructor of written keys
    /// never answers a sequence: with no filter or group attached, its answer is the node's,
    /// made straight from here, without the general dispatch's frame (most of what a
    /// predicate enters is one).
    #[inline(always)]
    fn eval_entered(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        if node.predicate.is_empty() && node.group.is_none() {
            match &node.kind {
                Kind::Binary(op, lhs, rhs) if !matches!(op, BinaryOp::Range | BinaryOp::Concat) => {
                    return self.binary(node, *op, lhs, rhs, input, env);
                }
                Kind::Object(pairs)
                    if let Some(shape) = &node.shape
                        && !input.is_array() =>
                {
                    return self.written_object(pairs, shape, input, env);
                }
                _ => {}
            }
        }
        self.eval_node(node, input, env)
    }

    #[inline(never)]
    fn eval_node(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        let mut result = match &node.kind {
            Kind::Path(steps) => self.path(node, steps, input, env)?,
            Kind::Binary(BinaryOp::Concat, ..) => self.concat_chain(node, input, env)?,
            Kind::Binary(op, lhs, rhs) => self.binary(node, *op, lhs, rhs, input, env)?,
            Kind::Negate(operand) => match self.eval(operand, input, env)? {
                Val::Undefined => Val::Undefined,
                Val::Number(n) => Val::Number(-n),
                other => {
                    return Err(Error::new(Code::D1002)
                        .at(node.position)
                        .with_token("-")
                        .with_value(describe(&other)));
                }
            },
            Kind::Array(items) => self.array_constructor(node, items, input, env)?,
            Kind::Object(pairs) => match &node.shape {
                Some(shape) if !input.is_array() => self.written_object(pairs, shape, input, env)?,
                _ => self.group(pairs, node.position, input.clone(), env)?,
            },
            Kind::Name(name) => lookup_field(input, name.key()),
            Kind::String(s) => Val::String(s.clone()),
            Kind::Number(n) => Val::Number(*n),
            Kind::Bool(b) => Val::Bool(*b),
            Kind::Null => Val::Null,
            Kind::Wildcard => self.wildcard(input)?,
            Kind::Descendant => self.descendants(input)?,
            Kind::Parent(label) => env.lookup(label).unwrap_or_default(),
            Kind::Condition(condition, then, otherwise) => {
                let condition = self.eval(condition, input, env)?;
                if boolean(&condition) == Some(true) {
                    self.eval(then, input, env)?
                } else if let Some(otherwise) = otherwise {
                    self.eval(otherwise, input, env)?
                } else {
                    Val::Undefined
                }
            }
            Kind::Elvis(lhs, rhs) => {
                let value = self.eval(lhs, input, env)?;
                if boolean(&value) == Some(true) {
                    value
                } else {
                    self.eval(rhs, input, env)?
                }
            }
            Kind::Coalesce(lhs, rhs) => {
                let value = self.eval(lhs, input, env)?;
                if value.is_undefined() {
                    self.eval(rhs, input, env)?
                } else {
                    value
                }
            }
            Kind::Block(expressions) if !node.scoped => {
                let mut result = Val::Undefined;
                for expression in expressions {
                    result = self.eval(expression, input, env)?;
                }
                result
            }
            Kind::Block(expressions) => {
                let frame = Env::child(Some(env));
                let mut result = Val::Undefined;
                for expression in expressions {
                    result = self.eval(expression, input, &frame)?;
                }
                result
            }
            Kind::Bind(name, value) => {
                let value = self.eval(value, input, env)?;
                env.bind(name.clone(), value.clone());
                value
            }
            Kind::Regex(pattern) => Val::Function(Rc::new(Function::Regex(pattern.clone()))),
            Kind::Call(call) => self.call(node, call, None, input, env)?,
            Kind::Partial(call) => self.partial(node, call, input, env)?,
            Kind::Placeholder => Val::Undefined,
            Kind::Variable(name) => self.variable(name, input, env),
            Kind::Lambda(lambda) => Val::Function(Rc::new(Function::Lambda {
                lambda: lambda.clone(),
                env: env.clone(),
                input: input.clone(),
            })),
            Kind::Apply(lhs, rhs) => self.apply_operator(node, lhs, rhs, input, env)?,
            Kind::Transform(transform) => Val::Function(Rc::new(Function::Transform {
                transform: transform.clone(),
                env: env.clone(),
                position: node.position,
            })),
            Kind::Sort(_) => {
                // A sort is only ever a path step; alone it sorts its input.
                let input = input.clone();
                self.sort_step(node, &input, env)?
            }
        };

        for stage in &node.predicate {
            if let Stage::Filter(predicate, _) = stage {
                result = self.filter(predicate, result, env)?;
            }
        }
        if !matches!(node.kind, Kind::Path(_))
            && let Some(group) = &node.group
        {
            result = self.group(&group.pairs, group.position, result, env)?;
        }

        if let Val::List(items, flags) = &result
            && flags.has(Flags::SEQUENCE)
            && !flags.has(Flags::TUPLE_STREAM)
        {
            let flags = if node.keep_array {
                flags.with(Flags::KEEP_SINGLETON)
            } else {
                *flags
            };
            result = match items.len() {
                0 => Val::Undefined,
                1 if !flags.has(Flags::KEEP_SINGLETON) => items[0].clone(),
                _ => Val::List(items.clone(), flags),
            };
        }
        Ok(result)
    }

    fn variable(&mut self, name: &Str, input: &Val, env: &Env) -> Val {
        if name.is_empty() {
            if let Val::List(items, flags) = input
                && flags.has(Flags::OUTER_WRAPPER)
            {
                return items.first().cloned().unwrap_or_default();
            }
            return input.clone();
        }
        if let Some(value) = env.lookup(name) {
            return value;
        }
        if is_root_name(name) {
            return self.root.clone();
        }
        match name.as_ascii_str().and_then(functions::lookup) {
            Some(builtin) => self.builtin(builtin),
            None => Val::Undefined,
        }
    }
}

/// Whether `name` is `$$`'s (the variable `$` names), which reads the input document.
fn is_root_name(name: &Str) -> bool {
    name.eq_str("$")
}

/// A value as error messages show it: the start of its JSON, cut short, so that reporting a
/// huge value costs no more than a small one.
pub(crate) fn describe(value: &Val) -> String {
    crate::signature::describe(value)
}

fn write_number(n: f64) -> String {
    writ_core::js_number_to_string(n)
}

#[cfg(test)]
mod tests {
    use writ_core::{Str, Value};

    use crate::testing::eval;

    #[test]
    fn each_evaluation_starts_from_an_empty_root_scope() {
        // The thread's root scope is reused: what one evaluation bound at its top level, or was
        // given as bindings, must be gone for the next.
        assert_eq!(eval("$x := 5", ""), "5");
        assert_eq!(eval("$x", ""), "undefined");
        assert_eq!(eval("($f := function($n) { $n = 0 ? 0 : $f($n - 1) }; $f(3))", ""), "0");
        assert_eq!(eval("$f", ""), "undefined");
        let bindings = vec![(Str::from("given"), Value::from(1.0))];
        let expression = crate::Expression::compile("$given").unwrap();
        let options = crate::Options {
            bindings,
            ..crate::Options::default()
        };
        assert_eq!(expression.evaluate(&Value::Null, &options).unwrap(), Value::from(1.0));
        assert_eq!(eval("$given", ""), "undefined");
        assert_eq!(eval("$$ := 7", r#"{"a": 1}"#), "7");
        assert_eq!(eval("$$.a", r#"{"a": 1}"#), "1");
    }
}
