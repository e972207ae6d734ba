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

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use writ_core::{Meter, Object, Str, Value};

use crate::Options;
use crate::ast::{BinaryOp, Call, Kind, Node, SortTerm, Stage, Transform};
use crate::error::{Error, Result};
use crate::function::Function;
use crate::functions::{self, Builtin};
use crate::signature::Signature;
use crate::value::{ArrayView, Entries, Flags, Val, boolean, deep_equal, in_js_order};

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
/// What building one item of a list costs at most: copying it bumps a shared count (an atomic
/// update when the item is a string or container), and the list's items are dropped the same way
/// later. Measured at 25 ns an item for a list of a million shared strings built by doubling.
const ARRAY_ITEM_NANOS: u64 = 30;

/// How many numbers of a range are built between two reads of the clock.
const RANGE_PIECE: usize = 1 << 16;

/// Up to how many groups a group-by finds a key by scanning rather than hashing.
const GROUP_SCAN: usize = 8;

thread_local! {
    /// The name the input document is bound under (`$$`), made once per thread.
    static ROOT_NAME: Str = Str::from("$");
    /// A tuple's key for its item, made once per thread.
    static FOCUS_NAME: Str = Str::from(FOCUS_KEY);
    /// Built-in functions as values, made once per thread and shared by every evaluation on it.
    static BUILTIN_VALUES: RefCell<HashMap<&'static str, Rc<Function>>> = RefCell::new(HashMap::new());
}

/// A tuple's key for its item.
const FOCUS_KEY: &str = "@";

/// A scope: variable bindings and the scope it sits in.
#[derive(Clone)]
pub(crate) struct Env(Rc<Frame>);

/// One scope's bindings.
pub(crate) struct Frame {
    bindings: RefCell<Vec<(Str, Val)>>,
    /// A tuple-stream item whose keys are bound here too, shared rather than copied (bindings
    /// made in the scope later take precedence).
    tuple: Option<Rc<Entries>>,
    parent: Option<Env>,
}

impl Drop for Frame {
    /// Closures bind values that hold closures: a chain as long as the evaluation made it,
    /// dropped on heap-grown stack segments.
    fn drop(&mut self) {
        let bindings = std::mem::take(self.bindings.get_mut());
        let tuple = self.tuple.take();
        let parent = self.parent.take();
        if !bindings.is_empty() || tuple.is_some() || parent.is_some() {
            crate::value::drop_deep((bindings, tuple, parent));
        }
    }
}

impl Env {
    /// A scope with no bindings inside `parent`.
    pub(crate) fn child(parent: Option<&Env>) -> Env {
        Env::child_with_room(parent, 0)
    }

    /// A scope inside `parent` with room for `room` bindings (a call's parameters) made at once.
    fn child_with_room(parent: Option<&Env>, room: usize) -> Env {
        Env(Rc::new(Frame {
            bindings: RefCell::new(Vec::with_capacity(room)),
            tuple: None,
            parent: parent.cloned(),
        }))
    }

    /// Binds `name` in this scope (replacing an earlier binding of it here).
    pub(crate) fn bind(&self, name: Str, value: Val) {
        let mut bindings = self.0.bindings.borrow_mut();
        match bindings.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = value,
            None => bindings.push((name, value)),
        }
    }

    /// The value of `name` here or in an enclosing scope.
    pub(crate) fn lookup(&self, name: &Str) -> Option<Val> {
        let mut frame = &self.0;
        loop {
            if let Some((_, value)) = frame.bindings.borrow().iter().find(|(k, _)| k == name) {
                return Some(value.clone());
            }
            if let Some(tuple) = &frame.tuple
                && let Some((_, value)) = tuple.iter().find(|(k, _)| k == name)
            {
                return Some(value.clone());
            }
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }

    /// Runs `read` on the value of `name` where it is bound, here or in an enclosing scope;
    /// `None` when nothing binds it.
    pub(crate) fn with_value<R>(&self, name: &Str, read: impl FnOnce(&Val) -> R) -> Option<R> {
        let mut frame = &self.0;
        loop {
            let bindings = frame.bindings.try_borrow().ok()?;
            if let Some((_, value)) = bindings.iter().find(|(k, _)| k == name) {
                return Some(read(value));
            }
            drop(bindings);
            if let Some(tuple) = &frame.tuple
                && let Some((_, value)) = tuple.iter().find(|(k, _)| k == name)
            {
                return Some(read(value));
            }
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }

    /// A scope inside this one binding every key of `tuple` (a tuple-stream item).
    fn with_tuple(&self, tuple: &Val) -> Env {
        Env(Rc::new(Frame {
            bindings: RefCell::new(Vec::new()),
            tuple: match tuple {
                Val::Record(entries) => Some(entries.clone()),
                _ => None,
            },
            parent: Some(self.clone()),
        }))
    }
}

/// What an evaluation carries: its meter, its host, and what a built-in needs to know about
/// the call it serves.
pub(crate) struct Cx<'a> {
    meter: Meter,
    options: &'a Options,
    now: Option<f64>,
    /// The context item of the current call (`$` where the built-in was called).
    pub(crate) input: Val,
    /// The scope the current call was made in (`$eval` evaluates there).
    pub(crate) env: Env,
    /// Where the current call is, for errors.
    pub(crate) position: usize,
    /// A tuple's key for its item, shared by every tuple the evaluation builds.
    focus: Str,
}

/// Evaluates `root` over `input`: the entry point behind [`crate::Expression::evaluate`].
pub(crate) fn evaluate_root(root: &Node, input: &Value, options: &Options, meter: Meter) -> Result<Value> {
    let env = Env::child(None);
    for (name, value) in &options.bindings {
        env.bind(name.clone(), Val::from(value));
    }
    let input = Val::from(input);
    env.bind(ROOT_NAME.with(Str::clone), input.clone());
    // A JSON array as the whole input is one item, not a sequence of them.
    let input = if input.is_array() {
        Val::list(vec![input], Flags::SEQUENCE.with(Flags::OUTER_WRAPPER))
    } else {
        input
    };
    let mut cx = Cx {
        meter,
        options,
        now: None,
        input: Val::Undefined,
        env: env.clone(),
        position: 0,
        focus: FOCUS_NAME.with(Str::clone),
    };
    let result = cx.eval(root, &input, &env)?;
    Ok(result.to_value())
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

    /// Charges building a sequence or array of `len` items (D2015 past the sequence limit), in
    /// length and in time.
    pub(crate) fn charge_array(&mut self, len: usize) -> Result<()> {
        let charged = self.meter.charge_array(len);
        self.budget(charged)?;
        self.reserve_time(len as u64, ARRAY_ITEM_NANOS)
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

    /// Milliseconds since the epoch from the host, the same for the whole evaluation.
    pub(crate) fn now_millis(&mut self) -> f64 {
        *self.now.get_or_insert_with(|| self.options.host.now_millis())
    }

    /// A random number in `[0, 1)` from the host.
    pub(crate) fn random(&mut self) -> f64 {
        self.options.host.random()
    }

    /// Calls `function` with `args` (as a higher-order built-in calls its function argument).
    pub(crate) fn apply(&mut self, function: &Val, args: &[Val]) -> Result<Val> {
        let input = self.input.clone();
        let env = self.env.clone();
        let position = self.position;
        // jsonata-js calls a function argument with a null context.
        let result = self.apply_function(function, args.to_vec(), &Val::Null, &env);
        self.input = input;
        self.env = env;
        self.position = position;
        result
    }

    /// Evaluates `source` over `input` in the caller's scope, under this evaluation's budget
    /// (`$eval`).
    pub(crate) fn eval_source(&mut self, source: &str, input: Val) -> Result<Val> {
        let root = crate::parse::parse(source).map_err(|error| Error::new("D3120").value(error.message()))?;
        let env = self.env.clone();
        let input = if input.is_array() && !input.is_sequence() {
            Val::list(vec![input], Flags::SEQUENCE.with(Flags::OUTER_WRAPPER))
        } else {
            input
        };
        self.eval(&root, &input, &env).map_err(|error| {
            if error.code.starts_with('U') || matches!(error.code, "D1011" | "D1012" | "D2015") {
                error
            } else {
                Error::new("D3121").value(error.message())
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
        // level: they cannot recurse, and they are most of what a predicate evaluates.
        if node.predicate.is_empty() && node.group.is_none() {
            let leaf = match &node.kind {
                Kind::Number(n) => Some(Val::Number(*n)),
                Kind::String(text) => Some(Val::String(text.clone())),
                Kind::Bool(b) => Some(Val::Bool(*b)),
                Kind::Null => Some(Val::Null),
                Kind::Variable(name) if !node.keep_array => Some(self.variable(name, input, env)),
                Kind::Path(steps) if node.walkable => match (steps.as_slice(), input) {
                    // One field of an object, the commonest path of all.
                    ([step], Val::Object(object)) if step.stages.is_empty() => self.field_of(step, object)?,
                    _ => match self.data_path(steps, 0, input, env, true)? {
                        Some(walked) if walked.done => Some(walked.value),
                        _ => None,
                    },
                },
                _ => None,
            };
            if let Some(value) = leaf {
                self.meter.step().map_err(|e| Error::from(e).at(node.position))?;
                return Ok(value);
            }
        }
        let entered = self.meter.enter();
        if let Err(exceeded) = entered {
            return Err(Error::from(exceeded).at(node.position));
        }
        if self.meter.depth() > MAX_NESTING {
            self.meter.leave();
            return Err(Error::new("D1011").value(MAX_NESTING.to_string()).at(node.position));
        }
        let result = match self.meter.step() {
            Ok(()) => stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.eval_node(node, input, env)),
            Err(exceeded) => Err(Error::from(exceeded).at(node.position)),
        };
        self.meter.leave();
        result
    }

    fn eval_node(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        let mut result = match &node.kind {
            Kind::Path(steps) => self.path(node, steps, input, env)?,
            Kind::Binary(BinaryOp::Concat, ..) => self.concat_chain(node, input, env)?,
            Kind::Binary(op, lhs, rhs) => self.binary(node, *op, lhs, rhs, input, env)?,
            Kind::Negate(operand) => match self.eval(operand, input, env)? {
                Val::Undefined => Val::Undefined,
                Val::Number(n) => Val::Number(-n),
                other => return Err(Error::new("D1002").at(node.position).token("-").value(describe(&other))),
            },
            Kind::Array(items) => self.array_constructor(node, items, input, env)?,
            Kind::Object(pairs) => match &node.shape {
                Some(shape) if !input.is_array() => self.written_object(pairs, shape, input, env)?,
                _ => self.group(pairs, node.position, input.clone(), env)?,
            },
            Kind::Name(name) => lookup_field(input, name),
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
        match name.as_ascii_str().and_then(functions::lookup) {
            Some(builtin) => self.builtin(builtin),
            None => Val::Undefined,
        }
    }

    // ---- paths -------------------------------------------------------------------------

    fn path(&mut self, node: &Node, steps: &[Node], input: &Val, env: &Env) -> Result<Val> {
        let first_is_variable = matches!(steps.first().map(|s| &s.kind), Some(Kind::Variable(_)));
        // Runs of field names are walked over the data by reference, unless the path's result
        // is marked or grouped as a whole.
        let walkable = !(node.group.is_some() || node.keep_singleton_array || node.tuple);
        let unwrap = node.predicate.is_empty() && !node.keep_array;
        let mut start = 0;
        let mut input_sequence = None;
        if walkable && let Some(walked) = self.data_path(steps, 0, input, env, unwrap)? {
            if walked.done {
                return Ok(walked.value);
            }
            start = walked.steps;
            input_sequence = Some(walked.value);
        }
        // The sequence a step runs over, as a value whose items are the step's inputs.
        let mut input_sequence = match input_sequence {
            Some(walked) => walked,
            None if input.is_array() && !first_is_variable => input.clone(),
            None => Val::sequence(vec![input.clone()]),
        };
        let mut result = Val::Undefined;
        let mut tuples: Option<Vec<Val>> = None;
        let mut is_tuple_stream = false;
        let last = steps.len().saturating_sub(1);

        let mut index = start;
        while let Some(step) = steps.get(index) {
            if step.tuple {
                is_tuple_stream = true;
            }
            if walkable
                && index > start
                && !is_tuple_stream
                && is_walkable_step(step)
                && let Some(walked) = self.data_path(steps, index, &input_sequence, env, unwrap)?
            {
                if walked.done {
                    return Ok(walked.value);
                }
                index = walked.steps;
                result = walked.value;
                input_sequence = result.clone();
                continue;
            }
            if index == 0 && step.cons_array {
                result = self.eval(step, &input_sequence, env)?;
            } else if is_tuple_stream {
                tuples = Some(self.tuple_step(step, &input_sequence, tuples.take(), env)?);
            } else {
                result = self.path_step(step, &input_sequence, env, index == last)?;
            }
            if !is_tuple_stream && items_len(&result) == 0 {
                break;
            }
            if step.focus.is_none() {
                input_sequence = result.clone();
            }
            index += 1;
        }

        let mut stream = None;
        if is_tuple_stream {
            let tuples = tuples.unwrap_or_default();
            if node.group.is_some() {
                stream = Some(Val::list(tuples.clone(), Flags::SEQUENCE.with(Flags::TUPLE_STREAM)));
            }
            if node.tuple {
                result = Val::list(tuples, Flags::SEQUENCE.with(Flags::TUPLE_STREAM));
            } else {
                let mut items = Vec::with_capacity(tuples.len());
                for tuple in &tuples {
                    items.push(tuple_focus(tuple));
                }
                result = Val::sequence(items);
            }
        }

        if node.keep_singleton_array {
            result = match result {
                Val::List(items, flags) if flags.has(Flags::CONS) && !flags.has(Flags::SEQUENCE) => Val::list(
                    vec![Val::List(items, flags)],
                    Flags::SEQUENCE.with(Flags::KEEP_SINGLETON),
                ),
                Val::List(items, flags) => Val::List(items, flags.with(Flags::KEEP_SINGLETON)),
                // jsonata-js marks whatever the path gave; only arrays carry the mark.
                other => other,
            };
        }

        if let Some(group) = &node.group {
            let grouped = stream.unwrap_or(result);
            result = self.group(&group.pairs, group.position, grouped, env)?;
        }
        Ok(result)
    }

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
    fn data_path(
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
                let verdict = match test.test(item) {
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

    /// A path of one plain field step over an object, as [`Cx::data_path`] answers it: the
    /// value found (an array as it stands), or none; `None` when the step is not a field.
    fn field_of(&mut self, step: &Node, object: &Object) -> Result<Option<Val>> {
        let Kind::Name(name) = &step.kind else {
            return Ok(None);
        };
        self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
        Ok(Some(match object.get(name) {
            None | Some(Value::Undefined) => Val::Undefined,
            Some(found) => {
                if !matches!(found, Value::Array(_)) {
                    self.charge_array(1).map_err(|e| e.at(step.position))?;
                }
                Val::from(found)
            }
        }))
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

    /// One step over a sequence (JSONata's `evaluateStep`).
    fn path_step(&mut self, step: &Node, input: &Val, env: &Env, last: bool) -> Result<Val> {
        if let Kind::Sort(_) = step.kind {
            let mut result = self.sort_step(step, input, env)?;
            for stage in &step.stages {
                if let Stage::Filter(predicate, _) = stage {
                    result = self.filter(predicate, result, env)?;
                }
            }
            return Ok(result);
        }

        let items = items_of(input);
        let mut results: Vec<Val> = Vec::with_capacity(items.len().min(1024));
        if let (ArrayView::Data(values), Kind::Name(name)) = (items, &step.kind)
            && is_plain_step(step)
        {
            // A field of each object of an input array, read where the objects live.
            self.steps(values.len() as u64).map_err(|e| e.at(step.position))?;
            for value in values {
                let found = match value {
                    Value::Object(object) => object.get(name).map(Val::from).unwrap_or_default(),
                    Value::Array(_) => unwrap_sequence(lookup_field(&Val::from(value), name), false),
                    _ => continue,
                };
                if !found.is_undefined() {
                    results.push(found);
                }
            }
        } else {
            for item in items.iter() {
                let mut value = match &step.kind {
                    // The commonest step, without a trip through `eval`.
                    Kind::Name(name)
                        if step.predicate.is_empty() && step.group.is_none() && step.ancestor.is_none() =>
                    {
                        self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
                        unwrap_sequence(lookup_field(&item, name), step.keep_array)
                    }
                    _ => self.eval(step, &item, env)?,
                };
                for stage in &step.stages {
                    if let Stage::Filter(predicate, _) = stage {
                        value = self.filter(predicate, value, env)?;
                    }
                }
                if !value.is_undefined() {
                    results.push(value);
                }
            }
        }

        if last && results.len() == 1 && results[0].is_array() && !results[0].is_sequence() {
            return Ok(results.pop().unwrap_or_default());
        }
        if !last
            && results.len() == 1
            && results[0].is_array()
            && items_len(&results[0]) > 0
            && !results[0].flags().has(Flags::CONS)
        {
            // One array feeding the next step: its items are the next step's inputs as they
            // stand, so it is not copied into a sequence of the same items.
            return Ok(results.pop().unwrap_or_default());
        }
        if results
            .iter()
            .any(|value| value.is_array() && !value.flags().has(Flags::CONS))
        {
            let mut flattened = Vec::with_capacity(results.len());
            for value in results {
                match value.as_array() {
                    Some(inner) if !value.flags().has(Flags::CONS) => flattened.extend(inner.iter()),
                    _ => flattened.push(value),
                }
            }
            results = flattened;
        }
        self.charge_array(results.len())?;
        Ok(Val::sequence(results))
    }

    /// One step of a tuple stream (JSONata's `evaluateTupleStep`).
    fn tuple_step(&mut self, step: &Node, input: &Val, tuples: Option<Vec<Val>>, env: &Env) -> Result<Vec<Val>> {
        if let Kind::Sort(_) = step.kind {
            let mut result = match tuples {
                Some(tuples) => self.sort_items(step, tuples, true, env)?,
                None => {
                    let sorted = self.sort_items(step, items_of(input).to_vec(), false, env)?;
                    let mut result = Vec::with_capacity(sorted.len());
                    for (position, item) in sorted.into_iter().enumerate() {
                        let mut entries = vec![(self.focus.clone(), item)];
                        if let Some(index) = &step.index {
                            entries.push((index.clone(), Val::Number(position as f64)));
                        }
                        result.push(Val::record(entries));
                    }
                    result
                }
            };
            result = self.stages(&step.stages, result, env)?;
            return Ok(result);
        }

        let tuples = match tuples {
            Some(tuples) => tuples,
            None => items_of(input)
                .iter()
                .map(|item| Val::record(vec![(self.focus.clone(), item)]))
                .collect(),
        };
        let mut result = Vec::new();
        for tuple in &tuples {
            let step_env = env.with_tuple(tuple);
            let focus = tuple_focus(tuple);
            let value = self.eval(step, &focus, &step_env)?;
            if value.is_undefined() {
                continue;
            }
            let nested_tuples = value.flags().has(Flags::TUPLE_STREAM);
            let values = match value.as_array() {
                Some(items) => items.to_vec(),
                None => vec![value.clone()],
            };
            for (position, bound) in values.into_iter().enumerate() {
                let mut entries = match tuple {
                    Val::Record(entries) => entries.0.clone(),
                    _ => Vec::new(),
                };
                if nested_tuples {
                    if let Val::Record(inner) = &bound {
                        for (key, v) in inner.iter() {
                            set_entry(&mut entries, key, v.clone());
                        }
                    }
                } else {
                    if let Some(focus_name) = &step.focus {
                        set_entry(&mut entries, focus_name, bound);
                        set_entry(&mut entries, &self.focus, focus.clone());
                    } else {
                        set_entry(&mut entries, &self.focus, bound);
                    }
                    if let Some(index) = &step.index {
                        set_entry(&mut entries, index, Val::Number(position as f64));
                    }
                    if let Some(label) = &step.ancestor {
                        set_entry(&mut entries, label, focus.clone());
                    }
                }
                result.push(Val::record(entries));
            }
        }
        self.charge_array(result.len())?;
        self.stages(&step.stages, result, env)
    }

    /// Applies a step's stages to a tuple stream (JSONata's `evaluateStages`).
    fn stages(&mut self, stages: &[Stage], mut tuples: Vec<Val>, env: &Env) -> Result<Vec<Val>> {
        for stage in stages {
            match stage {
                Stage::Filter(predicate, _) => {
                    let stream = Val::list(tuples, Flags::SEQUENCE.with(Flags::TUPLE_STREAM));
                    tuples = match self.filter(predicate, stream, env)? {
                        Val::List(items, _) => match Rc::try_unwrap(items) {
                            Ok(mut owned) => std::mem::take(&mut owned.0),
                            Err(shared) => shared.0.clone(),
                        },
                        Val::Undefined => Vec::new(),
                        other => vec![other],
                    };
                }
                Stage::Index(name, _) => {
                    for (position, tuple) in tuples.iter_mut().enumerate() {
                        if let Val::Record(entries) = tuple {
                            set_entry(&mut Rc::make_mut(entries).0, name, Val::Number(position as f64));
                        }
                    }
                }
            }
        }
        Ok(tuples)
    }

    /// `[predicate]` over a value (JSONata's `evaluateFilter`).
    fn filter(&mut self, predicate: &Node, input: Val, env: &Env) -> Result<Val> {
        let tuple_stream = input.flags().has(Flags::TUPLE_STREAM);
        let flags = if tuple_stream {
            Flags::SEQUENCE.with(Flags::TUPLE_STREAM)
        } else {
            Flags::SEQUENCE
        };
        let items = items_of(&input);
        let mut results = Vec::new();
        if let Kind::Number(n) = predicate.kind {
            let mut index = n.floor();
            if index < 0.0 {
                index += items.len() as f64;
            }
            if index >= 0.0
                && let Some(item) = items.get(index as usize)
                && !item.is_undefined()
            {
                if item.is_array() {
                    return Ok(item);
                }
                results.push(item);
            }
            return Ok(Val::list(results, flags));
        }
        let len = items.len();
        if let Some(indices) = self.constant_indices(predicate, env)? {
            // `[[0..9]]`, `[[1, 3]]`: the same positions for every item, found once.
            let mut hits = vec![0u32; len];
            for n in indices {
                let mut index = n.floor();
                if index < 0.0 {
                    index += len as f64;
                }
                if index >= 0.0 && index < len as f64 {
                    hits[index as usize] += 1;
                }
            }
            for (position, item) in items.iter().enumerate() {
                for _ in 0..hits[position] {
                    results.push(item.clone());
                }
            }
            return Ok(Val::list(results, flags));
        }
        if let (ArrayView::Data(values), false) = (items, tuple_stream)
            && let Some(comparison) = Test::of(predicate)
        {
            // `[price > 50]` over an input array: the comparison reads each object where it
            // lives, and only the items kept are taken.
            for value in values {
                self.steps(comparison.cost()).map_err(|e| e.at(predicate.position))?;
                let verdict = match comparison.test(value) {
                    Some(verdict) => verdict?,
                    None => {
                        let item = Val::from(value);
                        let verdict = self.eval(predicate, &item, env)?;
                        boolean(&verdict) == Some(true)
                    }
                };
                if verdict {
                    results.push(Val::from(value));
                }
            }
            return Ok(Val::list(results, flags));
        }
        for (position, item) in items.iter().enumerate() {
            let verdict = if tuple_stream {
                let tuple_env = env.with_tuple(&item);
                self.eval(predicate, &tuple_focus(&item), &tuple_env)?
            } else {
                self.eval(predicate, &item, env)?
            };
            match &verdict {
                Val::Number(n) => {
                    if index_matches(*n, position, len) {
                        results.push(item);
                    }
                }
                _ if is_array_of_numbers(&verdict) => {
                    let numbers = verdict.as_array().expect("an array");
                    for n in numbers.iter() {
                        if let Val::Number(n) = n
                            && index_matches(n, position, len)
                        {
                            results.push(item.clone());
                        }
                    }
                }
                _ => {
                    if boolean(&verdict) == Some(true) {
                        results.push(item);
                    }
                }
            }
        }
        Ok(Val::list(results, flags))
    }

    /// The positions a predicate selects when it is an array of number literals and ranges
    /// between them (`[[0..9]]`), which select the same positions whatever the item.
    fn constant_indices(&mut self, predicate: &Node, env: &Env) -> Result<Option<Vec<f64>>> {
        let Kind::Array(items) = &predicate.kind else {
            return Ok(None);
        };
        let literal = |node: &Node| matches!(node.kind, Kind::Number(_)) && node.predicate.is_empty();
        let constant = predicate.predicate.is_empty()
            && predicate.group.is_none()
            && items.iter().all(|item| {
                item.predicate.is_empty()
                    && item.group.is_none()
                    && match &item.kind {
                        Kind::Number(_) => true,
                        Kind::Binary(BinaryOp::Range, lo, hi) => literal(lo) && literal(hi),
                        _ => false,
                    }
            });
        if !constant {
            return Ok(None);
        }
        let value = self.eval(predicate, &Val::Undefined, env)?;
        if !is_array_of_numbers(&value) {
            return Ok(None);
        }
        let numbers = value
            .as_array()
            .map(|items| items.iter().filter_map(|n| n.as_number()).collect());
        Ok(numbers)
    }

    // ---- operators ---------------------------------------------------------------------

    fn binary(&mut self, node: &Node, op: BinaryOp, lhs: &Node, rhs: &Node, input: &Val, env: &Env) -> Result<Val> {
        let left = self.eval(lhs, input, env)?;
        let fail = |error: Error| error.at(node.position).token(op.symbol());
        match op {
            BinaryOp::And => {
                let result = boolean(&left) == Some(true) && boolean(&self.eval(rhs, input, env)?) == Some(true);
                return Ok(Val::Bool(result));
            }
            BinaryOp::Or => {
                let result = boolean(&left) == Some(true) || boolean(&self.eval(rhs, input, env)?) == Some(true);
                return Ok(Val::Bool(result));
            }
            _ => {}
        }
        let right = self.eval(rhs, input, env)?;
        match op {
            BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo => {
                let l = numeric_operand(&left, "T2001").map_err(fail)?;
                let r = numeric_operand(&right, "T2002").map_err(fail)?;
                let (Some(l), Some(r)) = (l, r) else {
                    return Ok(Val::Undefined);
                };
                Ok(Val::Number(match op {
                    BinaryOp::Add => l + r,
                    BinaryOp::Subtract => l - r,
                    BinaryOp::Multiply => l * r,
                    BinaryOp::Divide => l / r,
                    _ => l % r,
                }))
            }
            BinaryOp::Equal | BinaryOp::NotEqual => {
                if left.is_undefined() || right.is_undefined() {
                    return Ok(Val::Bool(false));
                }
                let equal = deep_equal(&left, &right);
                Ok(Val::Bool(if op == BinaryOp::Equal { equal } else { !equal }))
            }
            BinaryOp::Less | BinaryOp::LessEqual | BinaryOp::Greater | BinaryOp::GreaterEqual => {
                compare(op, &left, &right).map_err(fail)
            }
            BinaryOp::Concat => {
                let mut text = Str::empty();
                if !left.is_undefined() {
                    text = functions::to_string(self, &left).map_err(fail)?;
                }
                if !right.is_undefined() {
                    let right = functions::to_string(self, &right).map_err(fail)?;
                    self.charge_string(text.len_utf16() + right.len_utf16()).map_err(fail)?;
                    text = text.concat(&right);
                }
                Ok(Val::String(text))
            }
            BinaryOp::Range => self.range(&left, &right).map_err(fail),
            BinaryOp::In => {
                if left.is_undefined() || right.is_undefined() {
                    return Ok(Val::Bool(false));
                }
                let found = items_of(&right).iter().any(|item| strict_equal(&item, &left));
                Ok(Val::Bool(found))
            }
            BinaryOp::And | BinaryOp::Or => unreachable!("handled above"),
        }
    }

    /// A chain of `&` (`a & b & c` nests to the left), joined in one piece: the operands are
    /// evaluated and converted in the order the nested operators take them, each operator
    /// charges what it would, and the text is built once rather than once per operator.
    fn concat_chain(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        let mut spine = vec![node];
        let mut leftmost = node;
        while let Kind::Binary(BinaryOp::Concat, lhs, _) = &leftmost.kind {
            let next: &Node = lhs;
            let plain = next.predicate.is_empty() && next.group.is_none() && !next.keep_array;
            if !(plain && matches!(next.kind, Kind::Binary(BinaryOp::Concat, ..))) {
                leftmost = next;
                break;
            }
            spine.push(next);
            leftmost = next;
        }
        // The operators taken here are nodes the tree walk would have entered.
        let inner = spine.len() as u64 - 1;
        self.meter.steps(inner).map_err(|e| Error::from(e).at(node.position))?;
        let mut pending = Some(self.eval(leftmost, input, env)?);
        let mut pieces: Vec<Str> = Vec::with_capacity(spine.len() + 1);
        let mut len = 0;
        for operator in spine.iter().rev() {
            let Kind::Binary(_, _, rhs) = &operator.kind else {
                continue;
            };
            let right = self.eval(rhs, input, env)?;
            let fail = |error: Error| error.at(operator.position).token("&");
            if let Some(left) = pending.take()
                && !left.is_undefined()
            {
                let text = functions::to_string(self, &left).map_err(fail)?;
                len += text.len_utf16();
                pieces.push(text);
            }
            if !right.is_undefined() {
                let text = functions::to_string(self, &right).map_err(fail)?;
                self.charge_string(len + text.len_utf16()).map_err(fail)?;
                len += text.len_utf16();
                pieces.push(text);
            }
        }
        Ok(Val::String(join_pieces(&pieces, len)))
    }

    fn range(&mut self, left: &Val, right: &Val) -> Result<Val> {
        let integer = |v: &Val, code: &'static str| match v {
            Val::Undefined => Ok(None),
            Val::Number(n) if n.fract() == 0.0 && n.is_finite() => Ok(Some(*n)),
            other => Err(Error::new(code).value(describe(other))),
        };
        let lo = integer(left, "T2003")?;
        let hi = integer(right, "T2004")?;
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Ok(Val::Undefined);
        };
        if lo > hi {
            return Ok(Val::Undefined);
        }
        let size = hi - lo + 1.0;
        if size > crate::MAX_RANGE as f64 {
            return Err(Error::new("D2014").value(write_number(size)));
        }
        let size = size as usize;
        self.charge_array(size)?;
        // Built in pieces with the clock read between them, so a timeout stops a range of
        // ten million numbers partway rather than after it.
        let mut items = Vec::with_capacity(size);
        let mut next = lo;
        while items.len() < size {
            let piece = (size - items.len()).min(RANGE_PIECE);
            self.steps(piece as u64)?;
            for _ in 0..piece {
                items.push(Val::Number(next));
                next += 1.0;
            }
        }
        Ok(Val::sequence(items))
    }

    fn array_constructor(&mut self, node: &Node, items: &[Node], input: &Val, env: &Env) -> Result<Val> {
        // The items are evaluated first and the list charged before it is built: flattening
        // copies every item of every list it holds, and a list doubled by each call of a
        // recursion would otherwise be copied in full before its size was ever checked.
        let mut values = Vec::with_capacity(items.len());
        let mut len = 0usize;
        for item in items {
            let value = self.eval(item, input, env)?;
            if value.is_undefined() {
                continue;
            }
            let nested = matches!(item.kind, Kind::Array(_));
            len = len.saturating_add(if nested {
                1
            } else {
                value.as_array().map_or(1, ArrayView::len)
            });
            values.push((nested, value));
        }
        self.charge_array(len)?;
        let mut result = Vec::with_capacity(len);
        for (nested, value) in values {
            if nested {
                result.push(value);
            } else if result.is_empty()
                && let Val::List(items, _) = value
            {
                // `[1..n]` and `[path]`: the list is taken over, not copied, when nothing
                // else holds it.
                result = match Rc::try_unwrap(items) {
                    Ok(mut owned) => std::mem::take(&mut owned.0),
                    Err(shared) => shared.0.clone(),
                };
            } else {
                append_into(&mut result, value);
            }
        }
        let flags = if node.cons_array { Flags::CONS } else { Flags::NONE };
        Ok(Val::list(result, flags))
    }

    fn wildcard(&mut self, input: &Val) -> Result<Val> {
        let mut input = input;
        let first;
        if let Val::List(items, flags) = input
            && flags.has(Flags::OUTER_WRAPPER)
            && !items.is_empty()
        {
            first = items[0].clone();
            input = &first;
        }
        let mut results = Vec::new();
        // An array's items are its values, as its indices are its keys.
        if let Some(items) = input.as_array() {
            self.steps(items.len() as u64)?;
            for value in items.iter() {
                if value.is_array() {
                    self.flatten_into(&value, &mut results)?;
                } else {
                    results.push(value);
                }
            }
        } else if let Some(object) = input.as_object() {
            self.steps(object.len() as u64)?;
            for (_, value) in object.entries() {
                if value.is_array() {
                    self.flatten_into(&value, &mut results)?;
                } else {
                    results.push(value);
                }
            }
        }
        self.charge_array(results.len())?;
        Ok(Val::sequence(results))
    }

    fn flatten_into(&mut self, value: &Val, out: &mut Vec<Val>) -> Result<()> {
        match value.as_array() {
            Some(items) => {
                self.steps(items.len() as u64)?;
                for item in items.iter() {
                    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.flatten_into(&item, out))?;
                }
                Ok(())
            }
            None => {
                out.push(value.clone());
                Ok(())
            }
        }
    }

    fn descendants(&mut self, input: &Val) -> Result<Val> {
        if input.is_undefined() {
            return Ok(Val::Undefined);
        }
        let mut results = Vec::new();
        self.recurse_descendants(input, &mut results)?;
        self.charge_array(results.len())?;
        Ok(if results.len() == 1 {
            results.pop().unwrap_or_default()
        } else {
            Val::sequence(results)
        })
    }

    fn recurse_descendants(&mut self, input: &Val, results: &mut Vec<Val>) -> Result<()> {
        self.step()?;
        if let Some(items) = input.as_array() {
            for item in items.iter() {
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.recurse_descendants(&item, results))?;
            }
            return Ok(());
        }
        results.push(input.clone());
        if let Some(object) = input.as_object() {
            for (_, value) in object.entries() {
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.recurse_descendants(&value, results))?;
            }
        }
        Ok(())
    }

    // ---- objects: group-by and constructors ---------------------------------------------

    /// `{…}` over one item with every key written as a distinct string: what
    /// [`Cx::group`] makes of it (each pair's value over the item, in order; a value that is
    /// undefined leaves its key out), built on the constructor's shared key list when every
    /// value is there.
    fn written_object(
        &mut self,
        pairs: &[(Node, Node)],
        shape: &writ_core::Shape,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        // The keys are literals: the step each would charge as a leaf.
        self.meter
            .steps(pairs.len() as u64)
            .map_err(|e| Error::from(e).at(pairs.first().map_or(0, |(key, _)| key.position)))?;
        let mut values = Vec::with_capacity(pairs.len());
        for (_, value) in pairs {
            values.push(self.eval(value, input, env)?);
        }
        if values
            .iter()
            .all(|value| !value.is_undefined() && !holds_function(value))
        {
            self.charge_array(values.len())?;
            return Ok(Val::Object(shape.build(values.iter().map(Val::to_value))));
        }
        let mut entries = Vec::with_capacity(pairs.len());
        for ((key, _), value) in pairs.iter().zip(values) {
            if let (Kind::String(key), false) = (&key.kind, value.is_undefined()) {
                entries.push((key.clone(), value));
            }
        }
        self.charge_array(entries.len())?;
        Ok(make_object(entries))
    }

    /// JSONata's `evaluateGroupExpression`, for `{…}` alone and for `expr{…}`.
    fn group(&mut self, pairs: &[(Node, Node)], position: usize, input: Val, env: &Env) -> Result<Val> {
        let reduce = input.flags().has(Flags::TUPLE_STREAM);
        let nothing = [Val::Undefined];
        let items = match input.as_array() {
            Some(items) if items.is_empty() && !reduce => ArrayView::Built(&nothing),
            Some(items) => items,
            None => ArrayView::Built(std::slice::from_ref(&input)),
        };

        // Keys in first-seen order, each with its pair and what it gathered. A few keys are
        // found by a scan; past that, by a map.
        let mut groups: Vec<(Str, usize, Gathered)> = Vec::new();
        let mut index: HashMap<Str, usize> = HashMap::new();
        for item in items.iter() {
            let tuple_env;
            let (context, item_env) = if reduce {
                tuple_env = env.with_tuple(&item);
                (tuple_focus(&item), &tuple_env)
            } else {
                (item.clone(), env)
            };
            for (pair_index, (key_node, _)) in pairs.iter().enumerate() {
                let key = self.eval(key_node, &context, item_env)?;
                let key = match key {
                    Val::Undefined => continue,
                    Val::String(key) => key,
                    other => return Err(Error::new("T1003").at(position).value(describe(&other))),
                };
                let found = if groups.len() <= GROUP_SCAN {
                    groups.iter().position(|(k, _, _)| *k == key)
                } else {
                    if index.is_empty() {
                        index.extend(groups.iter().enumerate().map(|(at, (k, _, _))| (k.clone(), at)));
                    }
                    index.get(&key).copied()
                };
                match found {
                    Some(at) => {
                        if groups[at].1 != pair_index {
                            return Err(Error::new("D1009").at(position).value(describe(&Val::String(key))));
                        }
                        groups[at].2.add(item.clone(), reduce);
                    }
                    None => {
                        // jsonata-js marks its function objects with these keys, so it refuses them.
                        if key.eq_str("_jsonata_lambda") || key.eq_str("_jsonata_function") {
                            return Err(Error::new("D1013").at(position).value(describe(&Val::String(key))));
                        }
                        if groups.len() >= GROUP_SCAN {
                            if index.is_empty() {
                                index.extend(groups.iter().enumerate().map(|(at, (k, _, _))| (k.clone(), at)));
                            }
                            index.insert(key.clone(), groups.len());
                        }
                        groups.push((key, pair_index, Gathered::One(item.clone())));
                    }
                }
            }
        }

        let mut entries: Vec<(Str, Val)> = Vec::with_capacity(groups.len());
        for (key, pair_index, gathered) in groups {
            let value_node = &pairs[pair_index].1;
            let value = if reduce {
                let tuple = gathered.reduce_tuples();
                let context = tuple_focus(&tuple);
                let mut bindings = match tuple {
                    Val::Record(entries) => entries.0.clone(),
                    _ => Vec::new(),
                };
                bindings.retain(|(k, _)| !k.eq_str(FOCUS_KEY));
                let tuple_env = env.with_tuple(&Val::record(bindings));
                self.eval(value_node, &context, &tuple_env)?
            } else {
                let context = gathered.into_value();
                self.eval(value_node, &context, env)?
            };
            if !value.is_undefined() {
                entries.push((key, value));
            }
        }
        self.charge_array(entries.len())?;
        Ok(make_object(entries))
    }

    // ---- order-by ----------------------------------------------------------------------

    fn sort_step(&mut self, step: &Node, input: &Val, env: &Env) -> Result<Val> {
        let tuple_stream = input.flags().has(Flags::TUPLE_STREAM);
        let items = items_of(input).to_vec();
        let sorted = self.sort_items(step, items, tuple_stream, env)?;
        let flags = if tuple_stream {
            Flags::SEQUENCE.with(Flags::TUPLE_STREAM)
        } else {
            Flags::SEQUENCE
        };
        Ok(Val::list(sorted, flags))
    }

    /// Sorts `items` by the sort step's terms: stable, as jsonata-js's merge sort. The first
    /// term's keys are evaluated for every item up front (a sort of two or more items compares
    /// each at least once); later terms only where a comparison ties, once per item. When the
    /// first keys are all numbers or all strings (or missing), the sort runs on them directly;
    /// otherwise it compares as jsonata-js does, raising T2007/T2008 where a comparison meets
    /// keys it cannot order.
    fn sort_items(&mut self, step: &Node, items: Vec<Val>, tuples: bool, env: &Env) -> Result<Vec<Val>> {
        let Kind::Sort(terms) = &step.kind else {
            return Ok(items);
        };
        if items.len() <= 1 || terms.is_empty() {
            return Ok(items);
        }
        let n = items.len();
        self.steps((n as u64) * u64::from(usize::BITS - n.leading_zeros()))?;
        let width = terms.len();
        let mut keys: Vec<Option<Val>> = vec![None; n * width];
        for item in 0..n {
            self.sort_key(&terms[0], &items, &mut keys, width, item, 0, tuples, env)?;
        }
        let first_keys = || {
            keys.iter()
                .step_by(width)
                .map(|key| key.as_ref().unwrap_or(&Val::Undefined))
        };
        let numbers = first_keys().all(|key| match key {
            Val::Undefined => true,
            Val::Number(x) => !x.is_nan(),
            _ => false,
        });
        let strings = first_keys().all(|key| matches!(key, Val::Undefined | Val::String(_)));
        let position = step.position;
        let mut order: Vec<usize> = (0..n).collect();
        if numbers || strings {
            let descending = terms[0].descending;
            order = functions::merge_sort_by(order, &mut |&a: &usize, &b: &usize| {
                // A step per comparison keeps the clock read while a long sort runs.
                self.meter.step().map_err(|e| Error::from(e).at(position))?;
                let (ka, kb) = (keys[a * width].as_ref(), keys[b * width].as_ref());
                let undefined_a = matches!(ka, Some(Val::Undefined) | None);
                let undefined_b = matches!(kb, Some(Val::Undefined) | None);
                let ordering = match (ka, kb) {
                    _ if undefined_a && undefined_b => std::cmp::Ordering::Equal,
                    _ if undefined_a => return Ok(true),
                    _ if undefined_b => return Ok(false),
                    (Some(Val::Number(x)), Some(Val::Number(y))) => {
                        x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal)
                    }
                    (Some(Val::String(x)), Some(Val::String(y))) => x.cmp(y),
                    _ => std::cmp::Ordering::Equal,
                };
                let ordering = if descending { ordering.reverse() } else { ordering };
                match ordering {
                    std::cmp::Ordering::Greater => Ok(true),
                    std::cmp::Ordering::Less => Ok(false),
                    std::cmp::Ordering::Equal if width == 1 => Ok(false),
                    std::cmp::Ordering::Equal => {
                        self.sort_after(&terms[1..], 1, &items, &mut keys, width, a, b, tuples, env, position)
                    }
                }
            })?;
        } else {
            order = functions::merge_sort_by(order, &mut |&a: &usize, &b: &usize| {
                self.sort_after(terms, 0, &items, &mut keys, width, a, b, tuples, env, position)
            })?;
        }
        // `order` holds each position once, so the items are moved into place, not copied.
        let mut items = items;
        Ok(order.into_iter().map(|i| std::mem::take(&mut items[i])).collect())
    }

    /// Whether item `a` sorts after item `b` by `terms` (the terms from index `offset` of the
    /// step's list), as jsonata-js's order-by comparator decides it.
    #[allow(clippy::too_many_arguments)]
    fn sort_after(
        &mut self,
        terms: &[SortTerm],
        offset: usize,
        items: &[Val],
        keys: &mut [Option<Val>],
        width: usize,
        a: usize,
        b: usize,
        tuples: bool,
        env: &Env,
        position: usize,
    ) -> Result<bool> {
        for (t, term) in terms.iter().enumerate() {
            let aa = self.sort_key(term, items, keys, width, a, offset + t, tuples, env)?;
            let bb = self.sort_key(term, items, keys, width, b, offset + t, tuples, env)?;
            let comp = match (&aa, &bb) {
                (Val::Undefined, Val::Undefined) => 0,
                (Val::Undefined, _) => 1,
                (_, Val::Undefined) => -1,
                (Val::Number(x), Val::Number(y)) => {
                    if x == y {
                        0
                    } else if x < y {
                        -1
                    } else {
                        1
                    }
                }
                (Val::String(x), Val::String(y)) => match x.cmp(y) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Greater => 1,
                },
                (Val::Number(_) | Val::String(_), Val::Number(_) | Val::String(_)) => {
                    return Err(Error::new("T2007")
                        .at(position)
                        .value(describe(&aa))
                        .value2(describe(&bb)));
                }
                _ => {
                    let bad = if matches!(aa, Val::Number(_) | Val::String(_)) {
                        &bb
                    } else {
                        &aa
                    };
                    return Err(Error::new("T2008").at(position).value(describe(bad)));
                }
            };
            // Undefined keys sort last whatever the direction; equal keys go to the next term.
            if comp == 0 {
                continue;
            }
            let undefined_involved = aa.is_undefined() || bb.is_undefined();
            let comp = if term.descending && !undefined_involved {
                -comp
            } else {
                comp
            };
            return Ok(comp == 1);
        }
        Ok(false)
    }

    /// Term `t`'s key of `item`, evaluated the first time it is asked for.
    #[allow(clippy::too_many_arguments)]
    fn sort_key(
        &mut self,
        term: &SortTerm,
        items: &[Val],
        keys: &mut [Option<Val>],
        width: usize,
        item: usize,
        t: usize,
        tuples: bool,
        env: &Env,
    ) -> Result<Val> {
        let slot = item * width + t;
        if let Some(key) = &keys[slot] {
            return Ok(key.clone());
        }
        let key = if tuples {
            let tuple_env = env.with_tuple(&items[item]);
            self.eval(&term.expression, &tuple_focus(&items[item]), &tuple_env)?
        } else {
            self.eval(&term.expression, &items[item], env)?
        };
        keys[slot] = Some(key.clone());
        Ok(key)
    }

    // ---- functions ---------------------------------------------------------------------

    /// A call: JSONata's `evaluateFunction`; `applied` is the left side of `~>`, the first
    /// argument.
    fn call(&mut self, node: &Node, call: &Call, applied: Option<Val>, input: &Val, env: &Env) -> Result<Val> {
        if let Some((builtin, signature)) = call.builtin
            && let Kind::Variable(name) = &call.procedure.kind
            && call.procedure.predicate.is_empty()
            && call.procedure.group.is_none()
            && !call.procedure.keep_array
            && env.lookup(name).is_none()
        {
            // A built-in called by its name: no function value is made for it.
            self.meter
                .step()
                .map_err(|e| Error::from(e).at(call.procedure.position))?;
            let args = self.arguments(call, applied, input, env)?;
            self.position = node.position;
            let result = self
                .apply_builtin(builtin, signature, args, input, env)
                .and_then(|result| self.run_thunks(result, input, env));
            return result.map_err(|mut error| {
                error.position.get_or_insert(node.position);
                error.token.get_or_insert_with(|| builtin.name.to_string());
                error
            });
        }
        let procedure = self.eval(&call.procedure, input, env)?;
        if procedure.is_undefined()
            && let Kind::Path(steps) = &call.procedure.kind
            && let Some(Kind::Name(first)) = steps.first().map(|s| &s.kind)
            && (env.lookup(first).is_some() || first.as_ascii_str().and_then(functions::lookup).is_some())
        {
            return Err(Error::new("T1005").at(node.position).token(first.to_string_lossy()));
        }
        let args = self.arguments(call, applied, input, env)?;
        self.position = node.position;
        self.apply_function(&procedure, args, input, env).map_err(|mut error| {
            if error.position.is_none() {
                error.position = Some(node.position);
            }
            if error.token.is_none() {
                error.token = procedure_name(&call.procedure);
            }
            error
        })
    }

    /// A call's arguments, evaluated in order after the left side of `~>`, if any.
    fn arguments(&mut self, call: &Call, applied: Option<Val>, input: &Val, env: &Env) -> Result<Vec<Val>> {
        let mut args = Vec::with_capacity(call.args.len() + 1);
        if let Some(applied) = applied {
            args.push(applied);
        }
        for arg in &call.args {
            args.push(self.eval(arg, input, env)?);
        }
        Ok(args)
    }

    /// Calls a function value, running tail calls in a loop (JSONata's `apply`).
    fn apply_function(&mut self, procedure: &Val, args: Vec<Val>, input: &Val, env: &Env) -> Result<Val> {
        let result = self.apply_once(procedure, args, input, env, true)?;
        self.run_thunks(result, input, env)
    }

    /// Runs the tail call a call's result stands for, and the one that stands for, and so on,
    /// in a loop rather than by recursion.
    fn run_thunks(&mut self, mut result: Val, input: &Val, env: &Env) -> Result<Val> {
        loop {
            let Val::Function(function) = &result else {
                return Ok(result);
            };
            let Function::Lambda {
                lambda,
                env: thunk_env,
                input: thunk_input,
            } = function.as_ref()
            else {
                return Ok(result);
            };
            if !lambda.thunk {
                return Ok(result);
            }
            if !matches!(lambda.body.kind, Kind::Call(_)) {
                return Ok(result);
            }
            let (lambda, thunk_env, thunk_input) = (lambda.clone(), thunk_env.clone(), thunk_input.clone());
            let Kind::Call(call) = &lambda.body.kind else {
                return Ok(result);
            };
            let next = self.eval(&call.procedure, &thunk_input, &thunk_env)?;
            let mut next_args = Vec::with_capacity(call.args.len());
            for arg in &call.args {
                next_args.push(self.eval(arg, &thunk_input, &thunk_env)?);
            }
            let position = lambda.body.position;
            result = self
                .apply_once(&next, next_args, input, env, true)
                .map_err(|mut error| {
                    if error.token.is_none() {
                        error.token = procedure_name(&call.procedure);
                    }
                    error.position.get_or_insert(position);
                    error
                })?;
        }
    }

    /// One call without the tail-call loop (JSONata's `applyInner`); `checked` runs the
    /// signature.
    fn apply_once(&mut self, procedure: &Val, args: Vec<Val>, input: &Val, env: &Env, checked: bool) -> Result<Val> {
        let Val::Function(function) = procedure else {
            return Err(Error::new("T1006"));
        };
        match function.as_ref() {
            Function::Lambda {
                lambda,
                env: closure,
                input: closure_input,
            } => {
                let args = match (&lambda.signature, checked) {
                    (Some(signature), true) => signature.validate(args, input, "lambda")?,
                    _ => args,
                };
                let frame = Env::child_with_room(Some(closure), lambda.params.len());
                let mut args = args.into_iter();
                for param in &lambda.params {
                    frame.bind(param.clone(), args.next().unwrap_or_default());
                }
                self.eval(&lambda.body, closure_input, &frame)
            }
            Function::Builtin(builtin) if checked => {
                self.apply_builtin(builtin, builtin.parsed_signature(), args, input, env)
            }
            Function::Builtin(builtin) => self.run_builtin(builtin, &args, input, env),
            Function::Partial { function, args: bound } => {
                let mut given = args.into_iter();
                let full: Vec<Val> = bound
                    .iter()
                    .map(|arg| arg.clone().unwrap_or_else(|| given.next().unwrap_or_default()))
                    .collect();
                let target = Val::Function(function.clone());
                // jsonata-js drops a lambda's signature when it partially applies it; a
                // built-in keeps its checks, which its implementation relies on.
                let checked = matches!(function.as_ref(), Function::Builtin(_));
                self.apply_once(&target, full, input, env, checked)
            }
            Function::Regex(pattern) => crate::regex::apply_regex(self, pattern, &args),
            Function::Chain(first, second) => {
                let first_arg = args.into_iter().next().unwrap_or_default();
                let value = self.apply_function(&Val::Function(first.clone()), vec![first_arg], input, env)?;
                self.apply_function(&Val::Function(second.clone()), vec![value], input, env)
            }
            Function::Transform {
                transform,
                env: closure,
                position,
            } => {
                let args = functions::transform_signature().validate(args, input, "transform")?;
                let (transform, closure, position) = (transform.clone(), closure.clone(), *position);
                self.transform(
                    &transform,
                    args.into_iter().next().unwrap_or_default(),
                    &closure,
                    position,
                )
            }
        }
    }

    /// Calls a built-in with its arguments checked against its signature.
    fn apply_builtin(
        &mut self,
        builtin: &'static Builtin,
        signature: &Signature,
        args: Vec<Val>,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        let args = signature.validate(args, input, builtin.name)?;
        self.run_builtin(builtin, &args, input, env)
    }

    /// Runs a built-in on checked arguments, with the call's context and scope at hand.
    fn run_builtin(&mut self, builtin: &'static Builtin, args: &[Val], input: &Val, env: &Env) -> Result<Val> {
        let saved_input = std::mem::replace(&mut self.input, input.clone());
        let saved_env = std::mem::replace(&mut self.env, env.clone());
        let result = (builtin.imp)(self, args);
        self.input = saved_input;
        self.env = saved_env;
        result
    }

    fn partial(&mut self, node: &Node, call: &Call, input: &Val, env: &Env) -> Result<Val> {
        let mut args = Vec::with_capacity(call.args.len());
        for arg in &call.args {
            args.push(match arg.kind {
                Kind::Placeholder => None,
                _ => Some(self.eval(arg, input, env)?),
            });
        }
        let procedure = self.eval(&call.procedure, input, env)?;
        let name = procedure_name(&call.procedure).unwrap_or_default();
        if procedure.is_undefined()
            && let Kind::Path(steps) = &call.procedure.kind
            && let Some(Kind::Name(first)) = steps.first().map(|s| &s.kind)
            && (env.lookup(first).is_some() || first.as_ascii_str().and_then(functions::lookup).is_some())
        {
            return Err(Error::new("T1007").at(node.position).token(first.to_string_lossy()));
        }
        let Val::Function(function) = procedure else {
            return Err(Error::new("T1008").at(node.position).token(name));
        };
        // Parameters past the written arguments are bound to nothing, not left open.
        let arity = function.arity();
        while args.len() < arity {
            args.push(Some(Val::Undefined));
        }
        Ok(Val::Function(Rc::new(Function::Partial { function, args })))
    }

    fn apply_operator(&mut self, node: &Node, lhs: &Node, rhs: &Node, input: &Val, env: &Env) -> Result<Val> {
        let left = self.eval(lhs, input, env)?;
        if let Kind::Call(call) = &rhs.kind {
            return self.call(rhs, call, Some(left), input, env);
        }
        let function = self.eval(rhs, input, env)?;
        let Val::Function(second) = &function else {
            return Err(Error::new("T2006").at(node.position).value(describe(&function)));
        };
        if let Val::Function(first) = &left {
            return Ok(Val::Function(Rc::new(Function::Chain(first.clone(), second.clone()))));
        }
        self.position = node.position;
        self.apply_function(&function, vec![left], input, env)
    }

    // ---- transform ---------------------------------------------------------------------

    /// Runs a transform on `target`: a deep copy of it with every object the pattern selects
    /// updated and pruned. Selected objects are found by identity in the copy, so the copy is
    /// made first (as jsonata-js's `$clone`) and rebuilt once, bottom up.
    fn transform(&mut self, transform: &Transform, target: Val, env: &Env, position: usize) -> Result<Val> {
        if target.is_undefined() {
            return Ok(Val::Undefined);
        }
        let cloned = match env.lookup(&Str::from("clone")) {
            Some(clone @ Val::Function(_)) => self.apply_function(&clone, vec![target], &Val::Undefined, env)?,
            Some(_) => return Err(Error::new("T2013").at(position)),
            None => {
                let clone = self.builtin(functions::lookup("clone").expect("$clone is built in"));
                self.apply_function(&clone, vec![target], &Val::Undefined, env)?
            }
        };
        let matches = self.eval(&transform.pattern, &cloned, env)?;
        if matches.is_undefined() {
            return Ok(cloned);
        }
        let mut edits: HashMap<usize, Vec<Edit>> = HashMap::new();
        for matched in items_of(&matches).iter() {
            let Some(id) = object_id(&matched) else { continue };
            let update = self.eval(&transform.update, &matched, env)?;
            let mut edit = Edit {
                update: Vec::new(),
                delete: Vec::new(),
            };
            if !update.is_undefined() {
                let Some(object) = update.as_object() else {
                    return Err(Error::new("T2011")
                        .at(transform.update.position)
                        .value(describe(&update)));
                };
                edit.update = object.entries().collect();
            }
            if let Some(delete) = &transform.delete {
                let deletions = self.eval(delete, &matched, env)?;
                if !deletions.is_undefined() {
                    let names = items_of(&deletions);
                    if names.iter().any(|name| !matches!(name, Val::String(_))) {
                        return Err(Error::new("T2012").at(delete.position).value(describe(&deletions)));
                    }
                    edit.delete = names.iter().filter_map(|name| name.as_str().cloned()).collect();
                }
            }
            edits.entry(id).or_default().push(edit);
        }
        if edits.is_empty() {
            return Ok(cloned);
        }
        Ok(self.rebuild(&cloned, &edits)?.unwrap_or(cloned))
    }

    /// `value` with the edits applied to the objects they name; `None` when nothing inside it
    /// is edited, so untouched parts of the copy are kept as they are, not rebuilt.
    fn rebuild(&mut self, value: &Val, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        match value {
            Val::Array(array) => return self.rebuild_array(array.as_slice(), edits),
            Val::Object(object) => return self.rebuild_object(object, edits),
            _ => {}
        }
        self.step()?;
        if let Some(items) = value.as_array() {
            let mut rebuilt: Option<Vec<Val>> = None;
            for (position, item) in items.iter().enumerate() {
                let changed = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild(&item, edits))?;
                if let Some(changed) = changed {
                    rebuilt
                        .get_or_insert_with(|| items.iter().take(position).collect())
                        .push(changed);
                } else if let Some(rebuilt) = &mut rebuilt {
                    rebuilt.push(item);
                }
            }
            return Ok(rebuilt.map(|items| Val::list(items, value.flags())));
        }
        let Some(object) = value.as_object() else {
            return Ok(None);
        };
        let mut entries = Vec::with_capacity(object.len());
        let mut changed = false;
        for (key, item) in object.entries() {
            match stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild(&item, edits))? {
                Some(rebuilt) => {
                    changed = true;
                    entries.push((key, rebuilt));
                }
                None => entries.push((key, item)),
            }
        }
        if let Some(id) = object_id(value)
            && let Some(edits) = edits.get(&id)
        {
            changed = true;
            for edit in edits {
                for (key, item) in &edit.update {
                    set_entry(&mut entries, key, item.clone());
                }
                entries.retain(|(key, _)| !edit.delete.contains(key));
            }
        }
        Ok(changed.then(|| make_object(entries)))
    }
}

impl Cx<'_> {
    /// [`Cx::rebuild`] of a writ-core value, read where it lives: only what is rebuilt is
    /// taken out of it.
    fn rebuild_data(&mut self, value: &Value, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        match value {
            Value::Array(array) => self.rebuild_array(array.as_slice(), edits),
            Value::Object(object) => self.rebuild_object(object, edits),
            _ => {
                self.step()?;
                Ok(None)
            }
        }
    }

    /// [`Cx::rebuild_data`] of an array's items.
    fn rebuild_array(&mut self, items: &[Value], edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        self.step()?;
        let mut rebuilt: Option<Vec<Val>> = None;
        for (position, item) in items.iter().enumerate() {
            let changed = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild_data(item, edits))?;
            match (changed, &mut rebuilt) {
                (Some(changed), None) => {
                    let mut list: Vec<Val> = items.iter().take(position).map(Val::from).collect();
                    list.push(changed);
                    rebuilt = Some(list);
                }
                (Some(changed), Some(list)) => list.push(changed),
                (None, Some(list)) => list.push(Val::from(item)),
                (None, None) => {}
            }
        }
        Ok(rebuilt.map(Val::array))
    }

    /// [`Cx::rebuild_data`] of an object: its entries are taken out only when a value inside
    /// changed or the object is edited itself.
    fn rebuild_object(&mut self, object: &Object, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        self.step()?;
        let mut changed: Vec<(usize, Val)> = Vec::new();
        for (position, item) in object.values().enumerate() {
            if let Some(rebuilt) = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild_data(item, edits))? {
                changed.push((position, rebuilt));
            }
        }
        let own = edits.get(&object.identity());
        if changed.is_empty() && own.is_none() {
            return Ok(None);
        }
        let mut entries: Vec<(Str, Val)> = object
            .iter()
            .map(|(key, item)| (key.clone(), Val::from(item)))
            .collect();
        for (position, rebuilt) in changed {
            if let Some(slot) = entries.get_mut(position) {
                slot.1 = rebuilt;
            }
        }
        for edit in own.into_iter().flatten() {
            for (key, item) in &edit.update {
                set_entry(&mut entries, key, item.clone());
            }
            entries.retain(|(key, _)| !edit.delete.contains(key));
        }
        Ok(Some(make_object(entries)))
    }
}

/// A predicate of the commonest forms — comparisons of field paths and literals, joined by
/// `and` and `or` — tested on input data in place.
enum Test<'a> {
    Compare(Comparison<'a>),
    And(Box<Test<'a>>, Box<Test<'a>>, u64),
    Or(Box<Test<'a>>, Box<Test<'a>>, u64),
}

impl<'a> Test<'a> {
    fn of(predicate: &'a Node) -> Option<Test<'a>> {
        if !predicate.predicate.is_empty() || predicate.group.is_some() || predicate.keep_array {
            return None;
        }
        match &predicate.kind {
            Kind::Binary(op @ (BinaryOp::And | BinaryOp::Or), lhs, rhs) => {
                let (lhs, rhs) = (Box::new(Test::of(lhs)?), Box::new(Test::of(rhs)?));
                let cost = 1 + lhs.cost() + rhs.cost();
                Some(if *op == BinaryOp::And {
                    Test::And(lhs, rhs, cost)
                } else {
                    Test::Or(lhs, rhs, cost)
                })
            }
            _ => Comparison::of(predicate).map(Test::Compare),
        }
    }

    /// The steps evaluating the predicate as a tree would charge, at most.
    fn cost(&self) -> u64 {
        match self {
            Test::Compare(comparison) => comparison.cost,
            Test::And(_, _, cost) | Test::Or(_, _, cost) => *cost,
        }
    }

    /// The verdict on `item`, or `None` when a path meets an array and the general walk must
    /// answer.
    fn test(&self, item: &Value) -> Option<Result<bool>> {
        match self {
            Test::Compare(comparison) => comparison.test(item),
            Test::And(lhs, rhs, _) => match lhs.test(item)? {
                Ok(true) => rhs.test(item),
                other => Some(other),
            },
            Test::Or(lhs, rhs, _) => match lhs.test(item)? {
                Ok(false) => rhs.test(item),
                other => Some(other),
            },
        }
    }
}

/// A field path compared with a literal or another field path (`price > 50`,
/// `status = 'open'`, `a.b != c`).
struct Comparison<'a> {
    op: BinaryOp,
    lhs: Operand<'a>,
    rhs: Operand<'a>,
    /// The steps evaluating the predicate as a tree would charge.
    cost: u64,
    /// Where the operator is, for errors.
    position: usize,
}

/// One side of a [`Comparison`].
enum Operand<'a> {
    Field(&'a [Node]),
    Literal(Val),
}

impl<'a> Comparison<'a> {
    fn of(predicate: &'a Node) -> Option<Comparison<'a>> {
        let Kind::Binary(op, lhs, rhs) = &predicate.kind else {
            return None;
        };
        let comparable = matches!(
            op,
            BinaryOp::Equal
                | BinaryOp::NotEqual
                | BinaryOp::Less
                | BinaryOp::LessEqual
                | BinaryOp::Greater
                | BinaryOp::GreaterEqual
        );
        if !comparable || !predicate.predicate.is_empty() || predicate.group.is_some() || predicate.keep_array {
            return None;
        }
        let (lhs, rhs) = (Operand::of(lhs)?, Operand::of(rhs)?);
        let cost = 1 + lhs.cost() + rhs.cost();
        Some(Comparison {
            op: *op,
            lhs,
            rhs,
            cost,
            position: predicate.position,
        })
    }

    /// The verdict on `item`, or `None` when a path meets an array and the general walk must
    /// answer.
    fn test(&self, item: &Value) -> Option<Result<bool>> {
        let lhs = self.lhs.read(item)?;
        let rhs = self.rhs.read(item)?;
        // Strings and numbers are compared where they are; anything else is taken out and
        // compared as the operator would.
        Some(
            match (self.op, lhs.as_str(), rhs.as_str(), lhs.as_number(), rhs.as_number()) {
                (BinaryOp::Equal | BinaryOp::NotEqual, Some(a), Some(b), _, _) => {
                    Ok((a == b) == (self.op == BinaryOp::Equal))
                }
                (BinaryOp::Equal | BinaryOp::NotEqual, _, _, Some(a), Some(b)) => {
                    Ok((a == b) == (self.op == BinaryOp::Equal))
                }
                (op, Some(a), Some(b), _, _) if op != BinaryOp::Equal && op != BinaryOp::NotEqual => {
                    Ok(ordered(op, Some(a.cmp(b))))
                }
                (op, _, _, Some(a), Some(b)) if op != BinaryOp::Equal && op != BinaryOp::NotEqual => {
                    Ok(ordered(op, a.partial_cmp(&b)))
                }
                _ => {
                    let (lhs, rhs) = (lhs.taken(), rhs.taken());
                    match self.op {
                        BinaryOp::Equal => Ok(!lhs.is_undefined() && !rhs.is_undefined() && deep_equal(&lhs, &rhs)),
                        BinaryOp::NotEqual => Ok(!lhs.is_undefined() && !rhs.is_undefined() && !deep_equal(&lhs, &rhs)),
                        op => compare(op, &lhs, &rhs)
                            .map(|verdict| matches!(verdict, Val::Bool(true)))
                            .map_err(|error| error.at(self.position).token(op.symbol())),
                    }
                }
            },
        )
    }
}

impl<'a> Operand<'a> {
    fn of(node: &'a Node) -> Option<Operand<'a>> {
        if !node.predicate.is_empty() || node.group.is_some() {
            return None;
        }
        match &node.kind {
            Kind::Number(n) => Some(Operand::Literal(Val::Number(*n))),
            Kind::String(text) => Some(Operand::Literal(Val::String(text.clone()))),
            Kind::Bool(b) => Some(Operand::Literal(Val::Bool(*b))),
            Kind::Null => Some(Operand::Literal(Val::Null)),
            Kind::Path(steps)
                if !node.keep_singleton_array
                    && !node.tuple
                    && steps
                        .iter()
                        .all(|step| matches!(step.kind, Kind::Name(_)) && is_plain_step(step)) =>
            {
                Some(Operand::Field(steps))
            }
            _ => None,
        }
    }

    fn cost(&self) -> u64 {
        match self {
            Operand::Field(steps) => steps.len() as u64,
            Operand::Literal(_) => 1,
        }
    }

    /// The operand's value on `item`, where it is; `None` when a path meets an array.
    fn read<'v>(&'v self, item: &'v Value) -> Option<Side<'v>> {
        let steps = match self {
            Operand::Literal(value) => return Some(Side::Literal(value)),
            Operand::Field(steps) => steps,
        };
        let mut current = item;
        for (index, step) in steps.iter().enumerate() {
            let Kind::Name(name) = &step.kind else { return None };
            current = match current {
                Value::Object(object) => match object.get(name) {
                    Some(next) => next,
                    None => return Some(Side::Missing),
                },
                Value::Array(_) => return None,
                _ => return Some(Side::Missing),
            };
            if index + 1 < steps.len() && matches!(current, Value::Array(_)) {
                return None;
            }
        }
        match current {
            Value::Array(_) | Value::Undefined => None,
            other => Some(Side::Data(other)),
        }
    }
}

/// One side of a [`Comparison`] as read: a value of the input or a literal, where it is.
enum Side<'v> {
    Data(&'v Value),
    Literal(&'v Val),
    Missing,
}

impl Side<'_> {
    /// The string, if the side is one.
    fn as_str(&self) -> Option<&Str> {
        match self {
            Side::Data(Value::String(text)) | Side::Literal(Val::String(text)) => Some(text),
            _ => None,
        }
    }

    /// The number, if the side is one.
    fn as_number(&self) -> Option<f64> {
        match self {
            Side::Data(Value::Number(n)) | Side::Literal(Val::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// The side as a value of its own.
    fn taken(&self) -> Val {
        match self {
            Side::Data(value) => Val::from(*value),
            Side::Literal(value) => (*value).clone(),
            Side::Missing => Val::Undefined,
        }
    }
}

/// The verdict of an ordering operator on two comparable values (`false` when unordered).
fn ordered(op: BinaryOp, ordering: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (op, ordering) {
        (_, None) => false,
        (BinaryOp::Less, Some(o)) => o == Less,
        (BinaryOp::LessEqual, Some(o)) => o != Greater,
        (BinaryOp::Greater, Some(o)) => o == Greater,
        (_, Some(o)) => o != Less,
    }
}

/// What one selected object gets in a transform.
struct Edit {
    update: Vec<(Str, Val)>,
    delete: Vec<Str>,
}

/// The identity of an object in a transform's copy.
fn object_id(value: &Val) -> Option<usize> {
    match value {
        Val::Object(object) => Some(object.identity()),
        Val::Record(entries) => Some(Rc::as_ptr(entries) as *const u8 as usize),
        _ => None,
    }
}

/// What a group gathered for one key: one item, or several appended.
enum Gathered {
    One(Val),
    Many(Vec<Val>),
}

impl Gathered {
    fn add(&mut self, item: Val, tuples: bool) {
        let list = match self {
            Gathered::One(first) => {
                let first = std::mem::take(first);
                let mut list = Vec::new();
                if tuples {
                    list.push(first);
                } else {
                    append_into(&mut list, first);
                }
                *self = Gathered::Many(list);
                match self {
                    Gathered::Many(list) => list,
                    Gathered::One(_) => unreachable!(),
                }
            }
            Gathered::Many(list) => list,
        };
        if tuples {
            list.push(item);
        } else {
            append_into(list, item);
        }
    }

    fn into_value(self) -> Val {
        match self {
            Gathered::One(item) => item,
            Gathered::Many(items) => Val::array(items),
        }
    }

    /// Merges gathered tuples into one: each key's values appended in order.
    fn reduce_tuples(self) -> Val {
        match self {
            Gathered::One(tuple) => tuple,
            Gathered::Many(tuples) => {
                let mut merged: Vec<(Str, Val)> = Vec::new();
                for (i, tuple) in tuples.iter().enumerate() {
                    let Val::Record(entries) = tuple else { continue };
                    for (key, value) in entries.iter() {
                        if i == 0 {
                            merged.push((key.clone(), value.clone()));
                            continue;
                        }
                        match merged.iter_mut().find(|(k, _)| k == key) {
                            Some(slot) => {
                                let mut list = Vec::new();
                                append_into(&mut list, std::mem::take(&mut slot.1));
                                append_into(&mut list, value.clone());
                                slot.1 = Val::array(list);
                            }
                            None => merged.push((key.clone(), value.clone())),
                        }
                    }
                }
                Val::record(merged)
            }
        }
    }
}

/// Builds an object value from entries in order: a writ-core object unless a value is a
/// function.
pub(crate) fn make_object(entries: Vec<(Str, Val)>) -> Val {
    if entries.iter().any(|(_, v)| holds_function(v)) {
        return Val::record(in_js_order(entries));
    }
    Val::Object(Object::from_entries(
        entries.into_iter().map(|(k, v)| (k, v.to_value())).collect(),
    ))
}

/// Whether a value is or holds a function (which writ-core values cannot).
fn holds_function(value: &Val) -> bool {
    match value {
        Val::Function(_) | Val::Record(_) => true,
        Val::List(items, _) => items.iter().any(holds_function),
        _ => false,
    }
}

/// Sets `key` in `entries`: in its place if it is there, else at the end.
fn set_entry(entries: &mut Vec<(Str, Val)>, key: &Str, value: Val) {
    match entries.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => entries.push((key.clone(), value)),
    }
}

/// `pieces` (`len` code units in all) as one string, copied once.
fn join_pieces(pieces: &[Str], len: usize) -> Str {
    match pieces {
        [] => Str::empty(),
        [one] => one.clone(),
        _ if pieces.iter().all(Str::is_ascii) => {
            let mut text = String::with_capacity(len);
            for piece in pieces {
                text.push_str(piece.as_ascii_str().unwrap_or_default());
            }
            Str::from(text)
        }
        _ => {
            let mut units = Vec::with_capacity(len);
            for piece in pieces {
                units.extend(piece.code_units());
            }
            Str::from_utf16(&units)
        }
    }
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

/// What [`Cx::data_path`] walked.
struct Walked {
    /// The path's result, or the next step's input sequence.
    value: Val,
    /// How many steps it took.
    steps: usize,
    /// Whether the value is the path's result.
    done: bool,
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
fn is_walkable_step(step: &Node) -> bool {
    step.walkable && matches!(step.kind, Kind::Name(_))
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

/// Whether a step is a bare field name with nothing attached.
fn is_plain_step(step: &Node) -> bool {
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

/// The item of a tuple.
fn tuple_focus(tuple: &Val) -> Val {
    match tuple {
        Val::Record(entries) => entries
            .iter()
            .find(|(k, _)| k.eq_str(FOCUS_KEY))
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        _ => Val::Undefined,
    }
}

fn items_len(value: &Val) -> usize {
    match value {
        Val::Undefined => 0,
        other => other.as_array().map_or(1, |items| items.len()),
    }
}

/// A sequence result as `eval` leaves it: none for empty, the item for one unless kept.
fn unwrap_sequence(value: Val, keep: bool) -> Val {
    match value {
        Val::List(items, flags) if flags.has(Flags::SEQUENCE) => {
            let flags = if keep { flags.with(Flags::KEEP_SINGLETON) } else { flags };
            match items.len() {
                0 => Val::Undefined,
                1 if !flags.has(Flags::KEEP_SINGLETON) => items[0].clone(),
                _ => Val::List(items, flags),
            }
        }
        other => other,
    }
}

/// A field of an object, or of each object in an array (JSONata's `lookup`).
fn lookup_field(input: &Val, name: &Str) -> Val {
    match input {
        Val::Object(object) => object.get(name).map(Val::from).unwrap_or_default(),
        Val::Record(entries) => entries
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        Val::Array(_) | Val::List(..) => {
            let items = input.as_array().expect("an array");
            let mut result = Vec::new();
            for item in items.iter() {
                let value = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || lookup_field(&item, name));
                match value.as_array() {
                    Some(inner) => result.extend(inner.iter()),
                    None => {
                        if !value.is_undefined() {
                            result.push(value);
                        }
                    }
                }
            }
            Val::sequence(result)
        }
        _ => Val::Undefined,
    }
}

fn numeric_operand(value: &Val, code: &'static str) -> Result<Option<f64>> {
    match value {
        Val::Undefined => Ok(None),
        Val::Number(n) if n.is_nan() => Err(Error::new(code).value(describe(value))),
        Val::Number(n) if n.is_infinite() => Err(Error::new("D1001").value(describe(value))),
        Val::Number(n) => Ok(Some(*n)),
        other => Err(Error::new(code).value(describe(other))),
    }
}

fn compare(op: BinaryOp, left: &Val, right: &Val) -> Result<Val> {
    let comparable = |v: &Val| matches!(v, Val::Undefined | Val::String(_) | Val::Number(_));
    if !comparable(left) || !comparable(right) {
        let bad = if matches!(left, Val::String(_) | Val::Number(_)) {
            right
        } else {
            left
        };
        return Err(Error::new("T2010").value(describe(bad)));
    }
    if left.is_undefined() || right.is_undefined() {
        return Ok(Val::Undefined);
    }
    let ordering = match (left, right) {
        (Val::Number(a), Val::Number(b)) => a.partial_cmp(b),
        (Val::String(a), Val::String(b)) => Some(a.cmp(b)),
        _ => return Err(Error::new("T2009").value(describe(left)).value2(describe(right))),
    };
    Ok(Val::Bool(ordered(op, ordering)))
}

/// JavaScript's `===` as `in` uses it: containers by identity.
fn strict_equal(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Number(x), Val::Number(y)) => x == y,
        (Val::String(x), Val::String(y)) => x == y,
        (Val::Array(x), Val::Array(y)) => x.ptr_eq(y),
        (Val::Object(x), Val::Object(y)) => x.ptr_eq(y),
        (Val::List(x, _), Val::List(y, _)) => Rc::ptr_eq(x, y),
        (Val::Record(x), Val::Record(y)) => Rc::ptr_eq(x, y),
        (Val::Function(x), Val::Function(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

fn is_array_of_numbers(value: &Val) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(|item| matches!(item, Val::Number(_))))
}

fn index_matches(n: f64, position: usize, len: usize) -> bool {
    let mut index = n.floor();
    if index < 0.0 {
        index += len as f64;
    }
    index == position as f64
}

fn procedure_name(procedure: &Node) -> Option<String> {
    match &procedure.kind {
        Kind::Path(steps) => match steps.first().map(|s| &s.kind) {
            Some(Kind::Name(name)) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        },
        Kind::Variable(name) => Some(name.to_string_lossy().into_owned()),
        _ => None,
    }
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
        let data = include_str!("../tests/jsonata-suite/datasets/dataset5.json");
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
