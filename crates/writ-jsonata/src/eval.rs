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
use crate::value::{ArrayView, Flags, Val, boolean, deep_equal, in_js_order};

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
/// What building one item of a list costs at most.
const ARRAY_ITEM_NANOS: u64 = 10;

/// How many numbers of a range are built between two reads of the clock.
const RANGE_PIECE: usize = 1 << 16;

/// Up to how many groups a group-by finds a key by scanning rather than hashing.
const GROUP_SCAN: usize = 8;

thread_local! {
    /// The name the input document is bound under (`$$`), made once per thread.
    static ROOT_NAME: Str = Str::from("$");
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
    parent: Option<Env>,
}

impl Drop for Frame {
    /// Closures bind values that hold closures: a chain as long as the evaluation made it,
    /// dropped on heap-grown stack segments.
    fn drop(&mut self) {
        let bindings = std::mem::take(self.bindings.get_mut());
        let parent = self.parent.take();
        if !bindings.is_empty() || parent.is_some() {
            crate::value::drop_deep((bindings, parent));
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
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }

    /// A scope inside this one binding every key of `tuple` (a tuple-stream item).
    fn with_tuple(&self, tuple: &Val) -> Env {
        let env = Env::child(Some(self));
        if let Val::Record(entries) = tuple {
            env.0.bindings.borrow_mut().extend(entries.iter().cloned());
        }
        env
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
                Kind::Path(steps) => self.field_chain(node, steps, input)?,
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
            Kind::Binary(op, lhs, rhs) => self.binary(node, *op, lhs, rhs, input, env)?,
            Kind::Negate(operand) => match self.eval(operand, input, env)? {
                Val::Undefined => Val::Undefined,
                Val::Number(n) => Val::Number(-n),
                other => return Err(Error::new("D1002").at(node.position).token("-").value(describe(&other))),
            },
            Kind::Array(items) => self.array_constructor(node, items, input, env)?,
            Kind::Object(pairs) => self.group(pairs, node.position, input.clone(), env)?,
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
        if let Some(value) = self.field_chain(node, steps, input)? {
            return Ok(value);
        }
        let first_is_variable = matches!(steps.first().map(|s| &s.kind), Some(Kind::Variable(_)));
        // The sequence a step runs over, as a value whose items are the step's inputs.
        let mut input_sequence = if input.is_array() && !first_is_variable {
            input.clone()
        } else {
            Val::sequence(vec![input.clone()])
        };
        let mut result = Val::Undefined;
        let mut tuples: Option<Vec<Val>> = None;
        let mut is_tuple_stream = false;
        let last = steps.len().saturating_sub(1);

        for (index, step) in steps.iter().enumerate() {
            if step.tuple {
                is_tuple_stream = true;
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

    /// A path of plain field names read through objects only (`a.b.c` over an object): the
    /// commonest path of all, answered without building sequences. `None` when the path or
    /// the data needs the general walk (an array on the way, marks on a step).
    fn field_chain(&mut self, node: &Node, steps: &[Node], input: &Val) -> Result<Option<Val>> {
        if node.group.is_some() || node.keep_singleton_array || node.tuple || !input.is_object() {
            return Ok(None);
        }
        if !steps
            .iter()
            .all(|step| matches!(step.kind, Kind::Name(_)) && is_plain_step(step))
        {
            return Ok(None);
        }
        // The first field is read where the input lives; only what is found is taken.
        let mut current: Option<Val> = None;
        for (index, step) in steps.iter().enumerate() {
            let Kind::Name(name) = &step.kind else { return Ok(None) };
            self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
            let from = current.as_ref().unwrap_or(input);
            let next = match from {
                Val::Object(object) => object.get(name).map(Val::from).unwrap_or_default(),
                Val::Record(_) => lookup_field(from, name),
                _ => return Ok(None),
            };
            if next.is_undefined() {
                return Ok(Some(Val::Undefined));
            }
            if next.is_array() && index + 1 < steps.len() {
                return Ok(None);
            }
            current = Some(next);
        }
        Ok(current)
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
                        let mut entries = vec![(Str::from(FOCUS_KEY), item)];
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
                .map(|item| Val::record(vec![(Str::from(FOCUS_KEY), item)]))
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
                            set_entry(&mut entries, key.clone(), v.clone());
                        }
                    }
                } else {
                    if let Some(focus_name) = &step.focus {
                        set_entry(&mut entries, focus_name.clone(), bound);
                        set_entry(&mut entries, Str::from(FOCUS_KEY), focus.clone());
                    } else {
                        set_entry(&mut entries, Str::from(FOCUS_KEY), bound);
                    }
                    if let Some(index) = &step.index {
                        set_entry(&mut entries, index.clone(), Val::Number(position as f64));
                    }
                    if let Some(label) = &step.ancestor {
                        set_entry(&mut entries, label.clone(), focus.clone());
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
                            set_entry(&mut Rc::make_mut(entries).0, name.clone(), Val::Number(position as f64));
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
        let mut result = Vec::with_capacity(items.len());
        for item in items {
            let value = self.eval(item, input, env)?;
            if value.is_undefined() {
                continue;
            }
            if matches!(item.kind, Kind::Array(_)) {
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
        self.charge_array(result.len())?;
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
        Ok(order.into_iter().map(|i| items[i].clone()).collect())
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
        let procedure = self.eval(&call.procedure, input, env)?;
        let name = procedure_name(&call.procedure);
        if procedure.is_undefined()
            && let Kind::Path(steps) = &call.procedure.kind
            && let Some(Kind::Name(first)) = steps.first().map(|s| &s.kind)
            && (env.lookup(first).is_some() || first.as_ascii_str().and_then(functions::lookup).is_some())
        {
            return Err(Error::new("T1005").at(node.position).token(first.to_string_lossy()));
        }
        let mut args = Vec::with_capacity(call.args.len() + 1);
        if let Some(applied) = applied {
            args.push(applied);
        }
        for arg in &call.args {
            args.push(self.eval(arg, input, env)?);
        }
        self.position = node.position;
        self.apply_function(&procedure, args, input, env).map_err(|mut error| {
            if error.position.is_none() {
                error.position = Some(node.position);
            }
            if error.token.is_none()
                && let Some(name) = &name
            {
                error.token = Some(name.clone());
            }
            error
        })
    }

    /// Calls a function value, running tail calls in a loop (JSONata's `apply`).
    fn apply_function(&mut self, procedure: &Val, args: Vec<Val>, input: &Val, env: &Env) -> Result<Val> {
        let mut result = self.apply_once(procedure, args, input, env, true)?;
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
            let name = procedure_name(&call.procedure);
            let position = lambda.body.position;
            result = self
                .apply_once(&next, next_args, input, env, true)
                .map_err(|mut error| {
                    if error.token.is_none()
                        && let Some(name) = &name
                    {
                        error.token = Some(name.clone());
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
                for (i, param) in lambda.params.iter().enumerate() {
                    frame.bind(param.clone(), args.get(i).cloned().unwrap_or_default());
                }
                let closure_input = closure_input.clone();
                let lambda = lambda.clone();
                self.eval(&lambda.body, &closure_input, &frame)
            }
            Function::Builtin(builtin) => {
                let args = if checked {
                    builtin.parsed_signature().validate(args, input, builtin.name)?
                } else {
                    args
                };
                let (saved_input, saved_env) = (std::mem::replace(&mut self.input, input.clone()), self.env.clone());
                self.env = env.clone();
                let result = (builtin.imp)(self, &args);
                self.input = saved_input;
                self.env = saved_env;
                result
            }
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
                    set_entry(&mut entries, key.clone(), item.clone());
                }
                entries.retain(|(key, _)| !edit.delete.contains(key));
            }
        }
        Ok(changed.then(|| make_object(entries)))
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
        Some(match self.op {
            BinaryOp::Equal => Ok(!lhs.is_undefined() && !rhs.is_undefined() && deep_equal(&lhs, &rhs)),
            BinaryOp::NotEqual => Ok(!lhs.is_undefined() && !rhs.is_undefined() && !deep_equal(&lhs, &rhs)),
            op => compare(op, &lhs, &rhs)
                .map(|verdict| matches!(verdict, Val::Bool(true)))
                .map_err(|error| error.at(self.position).token(op.symbol())),
        })
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

    /// The operand's value on `item`; `None` when a path meets an array.
    fn read(&self, item: &Value) -> Option<Val> {
        let steps = match self {
            Operand::Literal(value) => return Some(value.clone()),
            Operand::Field(steps) => steps,
        };
        let mut current = item;
        for (index, step) in steps.iter().enumerate() {
            let Kind::Name(name) = &step.kind else { return None };
            current = match current {
                Value::Object(object) => match object.get(name) {
                    Some(next) => next,
                    None => return Some(Val::Undefined),
                },
                Value::Array(_) => return None,
                _ => return Some(Val::Undefined),
            };
            if index + 1 < steps.len() && matches!(current, Value::Array(_)) {
                return None;
            }
        }
        match current {
            Value::Array(_) | Value::Undefined => None,
            other => Some(Val::from(other)),
        }
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

fn set_entry(entries: &mut Vec<(Str, Val)>, key: Str, value: Val) {
    match entries.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => entries.push((key, value)),
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
    use std::cmp::Ordering::*;
    let result = match (op, ordering) {
        (_, None) => false,
        (BinaryOp::Less, Some(o)) => o == Less,
        (BinaryOp::LessEqual, Some(o)) => o != Greater,
        (BinaryOp::Greater, Some(o)) => o == Greater,
        (_, Some(o)) => o != Less,
    };
    Ok(Val::Bool(result))
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
