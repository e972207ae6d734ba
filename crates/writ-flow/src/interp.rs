//! The interpreter: runs a checked workflow over an input, node by node.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use writ_core::{Host, Limits, Meter, Object, Str, Value, meter_clock};

use crate::document::{Arg, Kind, Node, Predicate, RouteTest};
use crate::expr::Expr;
use crate::limits::meter_limits;
use crate::{Code, Emitted, Error, Hook, Journal, Output, RunOptions, Workflow, Workflows};

/// The bindings of an expression that binds nothing, shared by every run: making an empty
/// object allocates, and a run of a small workflow is little more than its evaluations.
static NO_BINDINGS: LazyLock<Object> = LazyLock::new(Object::new);

/// Runs `workflow` over `input`, recording each completed node in `journal` and taking the
/// calls and model calls it recorded from it.
pub(crate) fn run<'a>(
    workflow: &'a Workflow,
    workflows: &'a Workflows,
    input: Output,
    options: &'a RunOptions,
    journal: Option<&'a mut (dyn Journal + 'a)>,
) -> Result<Output, Error> {
    let limits = meter_limits(&options.limits.expression);
    let mut runner = Runner {
        options,
        journal,
        workflows,
        meter: None,
        limits,
        depth: 0,
        cost: 0.0,
        events_used: vec![false; options.events.len()],
        completed: 0,
    };
    let mut frame = Frame::new(workflow);
    let output = runner.exec(&workflow.root, input, &mut frame, None)?;
    if let Some(journal) = runner.journal.as_mut() {
        journal.flush()?;
    }
    Ok(output)
}

/// The outputs of the nodes of one workflow invocation that have completed, by id, in the order
/// they first completed: what `$steps` reads.
struct Frame {
    entries: Vec<(Str, Output)>,
    // A node records its output each time it completes (each iteration of a loop body), so the
    // lookup is on every node's path: a fast hash, not a keyed one (ids come from the document).
    index: HashMap<Str, usize, foldhash::fast::FixedState>,
    /// Whether an expression of the workflow can read `$steps`; when none can, nothing is kept.
    kept: bool,
}

impl Frame {
    /// The frame of an invocation of `workflow`, nothing completed yet.
    fn new(workflow: &Workflow) -> Frame {
        Frame {
            entries: Vec::new(),
            index: HashMap::default(),
            kept: workflow.reads_steps,
        }
    }

    fn record(&mut self, id: &Str, output: &Output) {
        if !self.kept {
            return;
        }
        match self.index.get(id) {
            Some(&idx) => self.entries[idx].1 = output.clone(),
            None => {
                self.index.insert(id.clone(), self.entries.len());
                self.entries.push((id.clone(), output.clone()));
            }
        }
    }

    /// `$steps`: each output read the same way as an input.
    fn steps(&self) -> Value {
        Value::Object(
            self.entries
                .iter()
                .map(|(id, output)| (id.clone(), output.data()))
                .collect(),
        )
    }
}

/// The run's meter, fresh for an evaluation under `limits`: made on the first, restarted after.
fn fresh_meter<'m>(meter: &'m mut Option<Meter>, limits: &Limits, options: &RunOptions) -> &'m mut Meter {
    match meter {
        Some(meter) => {
            meter.restart_at_first_check(limits);
            meter
        }
        None => meter.insert(Meter::starting_at_first_check(limits, meter_clock(&options.host))),
    }
}

struct Runner<'a> {
    options: &'a RunOptions,
    journal: Option<&'a mut (dyn Journal + 'a)>,
    workflows: &'a Workflows,
    /// The meter of the evaluation running now: one a run, made at its first evaluation and
    /// restarted for each later one rather than made again, which would hand it the host's
    /// clock again each time.
    meter: Option<Meter>,
    limits: Limits,
    depth: u32,
    /// What the run has spent: each call and model call adds what the effects report.
    cost: f64,
    events_used: Vec<bool>,
    /// Nodes completed so far. A node's step number is its place in the order of completion,
    /// which a replay repeats; a call or model call completes right after it starts, so its
    /// step number is known when it starts (the idempotency key, the journal's lookup).
    completed: u64,
}

impl Runner<'_> {
    /// The bindings `expr` reads, `$steps` and `$item`, for an expression that reads either.
    fn bindings(&self, expr: &Expr, frame: &Frame, item: Option<&Str>) -> Object {
        let mut bindings = Object::new();
        if expr.reads_steps() {
            bindings.insert(Str::from("steps"), frame.steps());
        }
        if let Some(item) = item {
            bindings.insert(Str::from("item"), Value::String(item.clone()));
        }
        bindings
    }

    /// Runs `evaluation` of `expr` with the bindings it reads and the run's meter, fresh.
    #[inline(always)]
    fn evaluation<T>(
        &mut self,
        expr: &Expr,
        frame: &Frame,
        item: Option<&Str>,
        evaluation: impl FnOnce(&Object, &mut Meter, &dyn Host) -> T,
    ) -> T {
        let options = self.options;
        if !expr.reads_steps() && item.is_none() {
            // Most expressions bind nothing: they borrow one empty object, made once a process.
            let meter = fresh_meter(&mut self.meter, &self.limits, options);
            return evaluation(&NO_BINDINGS, meter, options.host.as_ref());
        }
        let bindings = self.bindings(expr, frame, item);
        let meter = fresh_meter(&mut self.meter, &self.limits, options);
        evaluation(&bindings, meter, options.host.as_ref())
    }

    fn evaluate(&mut self, expr: &Expr, input: &Value, frame: &Frame, item: Option<&Str>) -> Result<Value, Error> {
        self.evaluation(expr, frame, item, |bindings, meter, host| {
            expr.evaluate(input, bindings, meter, host)
        })
    }

    fn test(&mut self, expr: &Expr, input: &Value, frame: &Frame, item: Option<&Str>) -> Result<bool, Error> {
        // A test of fields and literals reads no bindings and needs no meter.
        if let Some(verdict) = expr.quick_test(input, &self.limits) {
            return verdict;
        }
        self.evaluation(expr, frame, item, |bindings, meter, host| {
            expr.test(input, bindings, meter, host)
        })
    }

    fn exec(&mut self, node: &Node, input: Output, frame: &mut Frame, item: Option<&Str>) -> Result<Output, Error> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.exec_inner(node, input, frame, item))
    }

    fn exec_inner(
        &mut self,
        node: &Node,
        input: Output,
        frame: &mut Frame,
        item: Option<&Str>,
    ) -> Result<Output, Error> {
        if self
            .options
            .interrupt
            .as_ref()
            .is_some_and(|interrupt| interrupt.is_raised())
        {
            return Err(Error::new(
                Code::RunAborted,
                format!(
                    "the run was stopped before node '{}'; run it again to start over",
                    node.id.to_string_lossy()
                ),
            ));
        }
        if let Some(emit) = &node.emit
            && let Some(on_start) = &emit.on_start
        {
            let value = self.evaluate(on_start, input.read(), frame, item)?;
            self.emit(node, Hook::OnStart, emit.item.as_ref(), value);
        }
        let output = match &node.kind {
            Kind::Compute { expr } => {
                let value = self.evaluate(expr, input.read(), frame, item)?;
                Output::from_value(value).ok_or_else(|| {
                    Error::new(
                        Code::ExpressionFailed,
                        format!(
                            "{}: the expression gave no value, so the node has no output; give it a value in every case, \
                             as in `x ? x : null` or `{{'found': $exists(x)}}`",
                            expr.site()
                        ),
                    )
                })?
            }
            Kind::Sequence { steps } => {
                let mut current = input;
                for step in steps {
                    current = self.exec(step, current, frame, item)?;
                }
                current
            }
            Kind::Conditional { routes, default } => {
                let mut chosen = None;
                for route in routes {
                    let passed = match &route.test {
                        RouteTest::Match(needle) => input.text().to_string_lossy().contains(needle.as_str()),
                        RouteTest::Expr(expr) => self.test(expr, input.read(), frame, item)?,
                    };
                    if passed {
                        chosen = Some(&route.target);
                        break;
                    }
                }
                match chosen.or(default.as_deref()) {
                    Some(target) => self.exec(target, input, frame, item)?,
                    // No route passed and there is no default: the input passes through.
                    None => input,
                }
            }
            Kind::Loop {
                body,
                until,
                max_iterations,
            } => {
                let started = self.options.host.now();
                let cost_at_start = self.cost;
                let mut current = input;
                let mut iterations: u64 = 0;
                loop {
                    current = self.exec(body, current, frame, item)?;
                    iterations += 1;
                    if let Some(until) = until
                        && self.holds(until, &current, started, cost_at_start, frame, item)?
                    {
                        break;
                    }
                    if max_iterations.is_some_and(|max| iterations >= max) {
                        break;
                    }
                }
                current
            }
            Kind::Subflow { reference } => self.subflow(node, reference, input)?,
            Kind::CallModel { instructions } => {
                let step = self.completed + 1;
                let (output, cost) = match self.replayed(step, node)? {
                    Some(replayed) => replayed,
                    None => {
                        self.entered(step, node)?;
                        let answered = self.options.effects.call_model(
                            &node.id.to_string_lossy(),
                            instructions,
                            &input.text().to_string_lossy(),
                        )?;
                        self.completed += 1;
                        self.record(step, node, &answered.0, answered.1, true)?;
                        answered
                    }
                };
                self.cost += cost;
                output
            }
            Kind::Call { connection, op, args } => {
                let data = input.data();
                let connection = match self.resolve(connection, &data, frame, item)? {
                    Value::String(name) => name.to_string_lossy().into_owned(),
                    other => {
                        return Err(Error::new(
                            Code::ExpressionFailed,
                            format!(
                                "the connection of call node '{}' gave {}, not a connection name; give a string such as $item",
                                node.id.to_string_lossy(),
                                other.kind().described()
                            ),
                        ));
                    }
                };
                let args = match self.resolve(args, &data, frame, item)? {
                    Value::Object(args) => args,
                    _ => Object::new(),
                };
                let step = self.completed + 1;
                let (output, cost) = match self.replayed(step, node)? {
                    Some(replayed) => replayed,
                    None => {
                        self.entered(step, node)?;
                        let key = format!("{}/{step}/{}", self.options.run_id, node.id.to_string_lossy());
                        let (result, cost) =
                            self.options
                                .effects
                                .call(&node.id.to_string_lossy(), &connection, op, &args, &key)?;
                        let output = Output::from_value(result).unwrap_or_else(|| Output::text_output("null"));
                        self.completed += 1;
                        self.record(step, node, &output, cost, true)?;
                        (output, cost)
                    }
                };
                self.cost += cost;
                output
            }
            Kind::Wait { filter } => self.wait(node, filter.as_ref(), &input, frame, item)?,
            Kind::Decide => match self.options.answers.get(&node.id) {
                Some(answer) => Output::from_value(answer.clone()).unwrap_or_else(|| Output::text_output("")),
                None => {
                    let id = node.id.to_string_lossy();
                    return Err(Error::new(
                        Code::NoAnswer,
                        format!(
                            "decide node '{id}' has no answer; give one keyed by its id, as {{\"{id}\": …}} in --answers"
                        ),
                    ));
                }
            },
            Kind::FanOut { connections, body } => {
                let mut outputs = Vec::with_capacity(connections.len());
                for connection in connections {
                    let output = self.exec(body, input.clone(), frame, Some(connection))?;
                    outputs.push(output.data());
                }
                Output::from_value(Value::from(outputs)).unwrap_or_else(|| Output::text_output("[]"))
            }
        };
        frame.record(&node.id, &output);
        if let Some(emit) = &node.emit
            && let Some(on_done) = &emit.on_done
        {
            let value = self.evaluate(on_done, output.read(), frame, item)?;
            self.emit(node, Hook::OnDone, emit.item.as_ref(), value);
        }
        Ok(output)
    }

    /// The output and cost the journal recorded for step `step`, when this run is a replay that
    /// has not yet passed what was recorded.
    fn replayed(&mut self, step: u64, node: &Node) -> Result<Option<(Output, f64)>, Error> {
        let Some(journal) = self.journal.as_mut() else {
            return Ok(None);
        };
        let replayed = journal.replayed(step, &node.id.to_string_lossy())?;
        if replayed.is_some() {
            self.completed += 1;
        }
        Ok(replayed)
    }

    fn entered(&mut self, step: u64, node: &Node) -> Result<(), Error> {
        match self.journal.as_mut() {
            Some(journal) => journal.entered(step, &node.id.to_string_lossy()),
            None => Ok(()),
        }
    }

    fn record(&mut self, step: u64, node: &Node, output: &Output, cost: f64, effect: bool) -> Result<(), Error> {
        match self.journal.as_mut() {
            Some(journal) => journal.record(step, &node.id.to_string_lossy(), output, cost, effect),
            None => Ok(()),
        }
    }

    fn emit(&self, node: &Node, hook: Hook, item: Option<&Str>, value: Value) {
        if self
            .journal
            .as_ref()
            .is_some_and(|journal| self.completed < journal.recorded_calls())
        {
            // Replayed: emitted before the run stopped.
            return;
        }
        // No value emits nothing.
        let value = match (item, Output::from_value(value)) {
            (_, None) => return,
            (Some(_), Some(output)) => output.to_value(),
            (None, Some(output)) => Value::String(output.text()),
        };
        if let Some(sink) = &self.options.on_emit {
            sink(&Emitted {
                node: node.id.to_string_lossy().into_owned(),
                hook,
                item: item.map(|item| item.to_string_lossy().into_owned()),
                value,
            });
        }
    }

    fn holds(
        &mut self,
        predicate: &Predicate,
        output: &Output,
        started: Instant,
        cost_at_start: f64,
        frame: &Frame,
        item: Option<&Str>,
    ) -> Result<bool, Error> {
        Ok(match predicate {
            Predicate::Expr(expr) => self.test(expr, output.read(), frame, item)?,
            Predicate::Any(predicates) => {
                for predicate in predicates {
                    if self.holds(predicate, output, started, cost_at_start, frame, item)? {
                        return Ok(true);
                    }
                }
                false
            }
            Predicate::All(predicates) => {
                for predicate in predicates {
                    if !self.holds(predicate, output, started, cost_at_start, frame, item)? {
                        return Ok(false);
                    }
                }
                true
            }
            Predicate::MaxDuration(duration) => self.options.host.now().saturating_duration_since(started) >= *duration,
            Predicate::MaxCost(cost) => self.cost - cost_at_start >= *cost,
        })
    }

    fn subflow(&mut self, node: &Node, reference: &str, input: Output) -> Result<Output, Error> {
        let next = self.depth + 1;
        if let Some(max) = self.options.limits.max_recursion_depth
            && next > max
        {
            return Err(Error::new(
                Code::WorkflowRecursionLimit,
                format!(
                    "subflow node '{}' would call '{reference}' at depth {next}, past maxRecursionDepth {max}; \
                         make the recursion reach its base case sooner, or raise maxRecursionDepth",
                    node.id.to_string_lossy()
                ),
            ));
        }
        let Some(workflow) = self.workflows.get(reference) else {
            let names: Vec<&str> = self.workflows.names().collect();
            return Err(Error::new(
                Code::UnknownWorkflow,
                format!(
                    "subflow node '{}' calls '{reference}', which is not a named workflow; the named workflows are {}",
                    node.id.to_string_lossy(),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        };
        let root = Arc::clone(&workflow.root);
        self.depth = next;
        let mut frame = Frame::new(workflow);
        let result = self.exec(&root, input, &mut frame, None);
        self.depth -= 1;
        result
    }

    fn wait(
        &mut self,
        node: &Node,
        filter: Option<&Expr>,
        input: &Output,
        frame: &Frame,
        item: Option<&Str>,
    ) -> Result<Output, Error> {
        let data = input.data();
        for (idx, event) in self.options.events.iter().enumerate() {
            if self.events_used[idx] {
                continue;
            }
            let accepted = match filter {
                None => true,
                Some(filter) => {
                    let mut read = Object::new();
                    read.insert(Str::from("event"), event.clone());
                    read.insert(Str::from("input"), data.clone());
                    self.test(filter, &Value::Object(read), frame, item)?
                }
            };
            if accepted {
                self.events_used[idx] = true;
                return Ok(Output::from_value(event.clone()).unwrap_or_else(|| Output::text_output("")));
            }
        }
        let left = self.events_used.iter().filter(|used| !**used).count();
        Err(Error::new(
            Code::NoEvent,
            format!(
                "wait node '{}' found no event its filter accepts among the {left} events not yet taken; \
                 give the event in --events (JSON Lines, in arrival order) or loosen the filter",
                node.id.to_string_lossy()
            ),
        ))
    }

    /// A call's connection or arguments, with each `{"$expr": …}` evaluated over `input`;
    /// an expression with no value leaves its key out (in an array: null), as JSON.stringify
    /// writes `undefined`.
    fn resolve(&mut self, arg: &Arg, input: &Value, frame: &Frame, item: Option<&Str>) -> Result<Value, Error> {
        Ok(match arg {
            Arg::Literal(value) => value.clone(),
            Arg::Expr(expr) => self.evaluate(expr, input, frame, item)?,
            Arg::Object(fields) => {
                let mut object = Object::with_capacity(fields.len());
                for (key, arg) in fields {
                    let value = self.resolve(arg, input, frame, item)?;
                    if !value.is_undefined() {
                        object.insert(key.clone(), value);
                    }
                }
                Value::Object(object)
            }
            Arg::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for arg in items {
                    let value = self.resolve(arg, input, frame, item)?;
                    values.push(if value.is_undefined() { Value::Null } else { value });
                }
                Value::from(values)
            }
        })
    }
}
