//! The `Evaluator`: built once with its host functions, source limit and budget; it parses
//! each source once (a bounded cache), and runs it any number of times.

use std::sync::Arc;
use std::time::Duration;

use writ_core::{Clock, FifoCache, Limits, Meter, Object, Outcome, Value, block_on};

use crate::ast::Program;
use crate::error::{Error, Result};
use crate::host::{HostFunction, name_fault};
use crate::interp::{Completion, Cx};
use crate::parse::{ParseOptions, parse};

/// The longest source an evaluator accepts by default, in UTF-16 code units.
pub const DEFAULT_MAX_SOURCE_LENGTH: usize = 1000;

/// How many parsed sources an evaluator keeps; the oldest is dropped first.
pub const PARSE_CACHE_SIZE: usize = 500;

/// What one evaluation may spend: seed 004's budget, with its defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Steps: each node evaluated, plus a step per item a built-in walks or builds and per
    /// 16 characters it reads or writes. Default 1,000,000.
    pub steps: u64,
    /// Milliseconds, checked every 2048 steps and after each locale formatter is built.
    /// Default 100.
    pub ms: u64,
    /// Characters (UTF-16 code units) in one string. Default 1,000,000.
    pub max_string_length: u64,
    /// Elements in one array. Default 100,000.
    pub max_array_length: u64,
    /// Characters and elements built in one evaluation, all told. Default 10,000,000.
    pub max_total_allocation: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 1_000_000,
            ms: 100,
            max_string_length: 1_000_000,
            max_array_length: 100_000,
            max_total_allocation: 10_000_000,
        }
    }
}

impl Budget {
    /// The budget as writ-core [`Limits`].
    pub fn limits(&self) -> Limits {
        Limits {
            steps: Some(self.steps),
            time: Some(Duration::from_millis(self.ms)),
            max_string_length: Some(self.max_string_length),
            max_array_length: Some(self.max_array_length),
            max_total_allocation: Some(self.max_total_allocation),
            max_depth: None,
            ..Limits::UNLIMITED
        }
    }
}

/// What [`Evaluator::validate`] learns without running the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// Every free name (not an arrow parameter), in order of first appearance, globals and
    /// host functions included.
    pub free_names: Vec<String>,
    /// The host functions the source calls, in order of first appearance.
    pub host_calls: Vec<String>,
}

/// An evaluation's answer as a result envelope carries it: `undefined` as no value, an error
/// with its reason's code.
pub fn outcome(result: Result<Value>) -> Outcome {
    match result {
        Ok(Value::Undefined) => Outcome::Undefined,
        Ok(value) => Outcome::Value(value),
        Err(error) => Outcome::error(error.reason().code(), error.message()),
    }
}

/// Everything a compiled expression needs besides its tree.
struct Shared {
    functions: Vec<HostFunction>,
    names: Vec<String>,
    max_source_length: usize,
    budget: Budget,
    limits: Limits,
    clock: Option<Arc<dyn Clock>>,
}

/// Runs expressions: create one and reuse it; it holds the parse cache.
///
/// ```
/// use writ_core::{Object, Value, parse_json};
/// use writ_js::Evaluator;
///
/// let evaluator = Evaluator::new();
/// let data = parse_json(r#"{"rows": [{"name": "Mug", "stock": 4}, {"name": "Kettle", "stock": 0}]}"#)?;
/// let context = data.as_object().unwrap();
/// let names = evaluator.eval("rows.filter(r => r.stock > 0).map(r => r.name).join(', ')", &[context])?;
/// assert_eq!(names, Value::from("Mug"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Evaluator {
    shared: Arc<Shared>,
    /// Parsed programs by source text, at most [`PARSE_CACHE_SIZE`], oldest out first.
    cache: FifoCache<String, Arc<Program>>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("functions", &self.shared.names)
            .field("max_source_length", &self.shared.max_source_length)
            .field("budget", &self.shared.budget)
            .finish_non_exhaustive()
    }
}

/// Configures an [`Evaluator`].
#[derive(Default)]
pub struct EvaluatorBuilder {
    functions: Vec<HostFunction>,
    max_source_length: Option<usize>,
    budget: Budget,
    clock: Option<Arc<dyn Clock>>,
}

impl EvaluatorBuilder {
    /// Binds a host function.
    pub fn function(mut self, function: HostFunction) -> EvaluatorBuilder {
        self.functions.push(function);
        self
    }

    /// Binds host functions.
    pub fn functions(mut self, functions: impl IntoIterator<Item = HostFunction>) -> EvaluatorBuilder {
        self.functions.extend(functions);
        self
    }

    /// The longest source accepted, in UTF-16 code units; longer is refused before parsing.
    pub fn max_source_length(mut self, length: usize) -> EvaluatorBuilder {
        self.max_source_length = Some(length);
        self
    }

    /// The budget of every evaluation.
    pub fn budget(mut self, budget: Budget) -> EvaluatorBuilder {
        self.budget = budget;
        self
    }

    /// The clock that bounds evaluation time (the system's monotonic clock by default).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> EvaluatorBuilder {
        self.clock = Some(clock);
        self
    }

    /// Builds the evaluator.
    ///
    /// # Errors
    ///
    /// `host-function` when a function's name is not a valid identifier, is reserved or a
    /// global, or is bound twice.
    pub fn build(self) -> Result<Evaluator> {
        let mut names: Vec<String> = Vec::with_capacity(self.functions.len());
        for function in &self.functions {
            if let Some(fault) = name_fault(function.name()) {
                return Err(Error::host_function(fault));
            }
            if names.iter().any(|name| name == function.name()) {
                return Err(Error::host_function(format!(
                    "\"{}\" is bound twice: each host function needs its own name",
                    function.name()
                )));
            }
            names.push(function.name().to_owned());
        }
        Ok(self.assemble(names))
    }

    fn assemble(self, names: Vec<String>) -> Evaluator {
        Evaluator {
            shared: Arc::new(Shared {
                functions: self.functions,
                names,
                max_source_length: self.max_source_length.unwrap_or(DEFAULT_MAX_SOURCE_LENGTH),
                budget: self.budget,
                limits: self.budget.limits(),
                clock: self.clock,
            }),
            cache: FifoCache::new(PARSE_CACHE_SIZE),
        }
    }
}

impl Evaluator {
    /// An evaluator with no host functions and the default limits.
    pub fn new() -> Evaluator {
        EvaluatorBuilder::default().assemble(Vec::new())
    }

    /// Configures an evaluator.
    pub fn builder() -> EvaluatorBuilder {
        EvaluatorBuilder::default()
    }

    /// The budget of every evaluation.
    pub fn budget(&self) -> Budget {
        self.shared.budget
    }

    /// The longest source accepted.
    pub fn max_source_length(&self) -> usize {
        self.shared.max_source_length
    }

    /// The bound host functions.
    pub fn functions(&self) -> &[HostFunction] {
        &self.shared.functions
    }

    /// Runs `source` over `contexts`: each is an object of names, and a later context shadows
    /// an earlier one. A host call in result position runs to completion on this thread; use
    /// [`Evaluator::eval_async`] to await it instead.
    ///
    /// # Errors
    ///
    /// Any [`Error`]: the source is refused, or fails, or exceeds its budget.
    pub fn eval(&self, source: &str, contexts: &[&Object]) -> Result<Value> {
        let program = self.program(source)?;
        run_blocking(&self.shared, &program, contexts)
    }

    /// [`Evaluator::eval`], awaiting a host function's answer instead of blocking on it.
    ///
    /// # Errors
    ///
    /// As [`Evaluator::eval`].
    pub async fn eval_async(&self, source: &str, contexts: &[&Object]) -> Result<Value> {
        let program = self.program(source)?;
        run(&self.shared, &program, contexts).await
    }

    /// Parses and checks `source` once, for running many times.
    ///
    /// # Errors
    ///
    /// The source is refused.
    pub fn compile(&self, source: &str) -> Result<Compiled> {
        Ok(Compiled {
            shared: Arc::clone(&self.shared),
            program: self.program(source)?,
        })
    }

    /// Checks `source` without running it, and says which names it reads and which host
    /// functions it calls.
    ///
    /// # Errors
    ///
    /// The source is refused.
    pub fn validate(&self, source: &str) -> Result<Validation> {
        let program = self.program(source)?;
        Ok(Validation {
            free_names: program
                .free_names
                .iter()
                .map(|name| name.key().to_string_lossy().into_owned())
                .collect(),
            host_calls: program
                .host_calls
                .iter()
                .filter_map(|&index| self.shared.names.get(index as usize).cloned())
                .collect(),
        })
    }

    fn program(&self, source: &str) -> Result<Arc<Program>> {
        self.program_within(source, self.shared.max_source_length)
    }

    /// The parsed program for `source`, refusing a source longer than `max_source_length`.
    pub(crate) fn program_within(&self, source: &str, max_source_length: usize) -> Result<Arc<Program>> {
        if max_source_length != self.shared.max_source_length {
            // The cache holds programs checked against the evaluator's own bound.
            crate::parse::check_size(source, max_source_length)?;
        }
        let (program, _) = self.cache.get_or_try_insert_with(source, || {
            let names: Vec<&str> = self.shared.names.iter().map(String::as_str).collect();
            parse(
                source,
                &ParseOptions {
                    max_source_length: max_source_length.max(self.shared.max_source_length),
                    host_functions: &names,
                },
            )
            .map(Arc::new)
        })?;
        Ok(program)
    }
}

/// A parsed, checked expression bound to its evaluator's functions and budget.
///
/// Cheap to clone and `Send + Sync`: run it from any thread, any number of times; each run
/// has a fresh budget.
#[derive(Clone)]
pub struct Compiled {
    shared: Arc<Shared>,
    program: Arc<Program>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("node_count", &self.program.node_count)
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// Runs the expression over `contexts` (a later one shadows an earlier one).
    ///
    /// # Errors
    ///
    /// The expression fails or exceeds its budget.
    pub fn eval(&self, contexts: &[&Object]) -> Result<Value> {
        run_blocking(&self.shared, &self.program, contexts)
    }

    /// [`Compiled::eval`], awaiting a host function's answer.
    ///
    /// # Errors
    ///
    /// As [`Compiled::eval`].
    pub async fn eval_async(&self, contexts: &[&Object]) -> Result<Value> {
        run(&self.shared, &self.program, contexts).await
    }

    /// Every free name the expression reads, in order of first appearance.
    pub fn free_names(&self) -> Vec<String> {
        self.program
            .free_names
            .iter()
            .map(|name| name.key().to_string_lossy().into_owned())
            .collect()
    }
}

fn evaluate(shared: &Shared, program: &Program, contexts: &[&Object]) -> Result<Completion> {
    let meter = Meter::starting_at_first_check(&shared.limits, shared.clock.clone());
    Cx::new(meter, program, contexts).run()
}

impl Compiled {
    /// Wraps a program parsed by `evaluator`.
    pub(crate) fn of(evaluator: &Evaluator, program: Arc<Program>) -> Compiled {
        Compiled {
            shared: Arc::clone(&evaluator.shared),
            program,
        }
    }

    /// The host-function names the program calls, in order of first appearance.
    pub(crate) fn host_call_names(&self) -> Vec<String> {
        self.program
            .host_calls
            .iter()
            .filter_map(|&index| self.shared.names.get(index as usize).cloned())
            .collect()
    }

    /// Runs over `contexts`, charging `meter` (the caller's budget) instead of a fresh one; a
    /// host call in result position runs to completion on this thread.
    pub(crate) fn eval_metered(&self, contexts: &[&Object], meter: &mut Meter) -> Result<Value> {
        // The interpreter owns its meter for the evaluation; the caller's is lent to it and
        // taken back, spent, afterwards.
        let lent = std::mem::replace(meter, Meter::new(&Limits::UNLIMITED));
        let mut cx = Cx::new(lent, &self.program, contexts);
        let completion = cx.run();
        *meter = cx.meter;
        match completion? {
            Completion::Value(value) => Ok(value),
            Completion::HostCall { function, argument } => {
                meter.check_clock()?;
                block_on(host(&self.shared, function)?.invoke(argument))
            }
        }
    }
}

async fn run(shared: &Shared, program: &Program, contexts: &[&Object]) -> Result<Value> {
    match evaluate(shared, program, contexts)? {
        Completion::Value(value) => Ok(value),
        Completion::HostCall { function, argument } => host(shared, function)?.invoke(argument).await,
    }
}

/// [`run`] on this thread: a host call, if the result is one, is awaited by parking.
fn run_blocking(shared: &Shared, program: &Program, contexts: &[&Object]) -> Result<Value> {
    match evaluate(shared, program, contexts)? {
        Completion::Value(value) => Ok(value),
        Completion::HostCall { function, argument } => block_on(host(shared, function)?.invoke(argument)),
    }
}

fn host(shared: &Shared, function: u32) -> Result<&HostFunction> {
    shared
        .functions
        .get(function as usize)
        .ok_or_else(|| Error::host_function("a host call to a function that is not bound"))
}
