//! One pooled Luau VM: the allow-listed globals, the interrupt that charges the evaluation's
//! meter, the compiled-chunk cache, and one evaluation from context in to answer out.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mlua::chunk::{ChunkMode, Compiler};
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value as LuaValue, VmState};
use writ_core::{FifoCache, Limits, Meter, Value};

use crate::LuaLimits;
use crate::error::{Code, Error, Stop};
use crate::marshal::{self, Builder, MAX_DEPTH};
use crate::rewrite::{self, RESERVED_PREFIX, Refusal};
use crate::ticker;

/// The trusted Luau that builds the allow-listed globals.
const PRELUDE: &str = include_str!("prelude.luau");

/// Compiled chunks a VM keeps, oldest out.
const CHUNK_CACHE: usize = 256;

/// Interrupts the fast path lets through between two visits to the meter, which charges
/// them, reads the system clock and checks the budget. The coarse clock ([`ticker`]) ends a
/// batch early when the deadline passes, so the batch only sets how often the budget is
/// settled and how loose the deadline becomes if the ticker thread lags.
const BATCH: u64 = 256;

/// The source bytes a VM's chunk cache may hold: compiled chunks live in the VM's heap and
/// would otherwise eat into the memory ceiling of the evaluations that follow.
const CACHE_BYTES: usize = 1 << 20;

/// The bytes one uninterruptible operation is taken to build per millisecond. Whatever Luau
/// does in one call — `string.rep`, `..`, `table.concat`, `string.format`, `gsub`, `upper`,
/// `table.create` — writes each byte it allocates at least once, into memory it has usually
/// not touched yet (about 1.5 ns a byte on the reference machine, page faults included), so
/// the allocator is where the worst case of any such operation is charged in time before it
/// runs: see [`Vm::cap`].
const BYTES_PER_MILLI: usize = 1 << 20;

/// What the interrupt, the prelude's `bound` and the host share during one evaluation.
struct Running {
    /// The evaluation's budget: a step per interrupt, per value marshalled, per 64 bytes a
    /// host function scans, and the deadline.
    meter: Meter,
    /// The instruction budget, to size each batch of fuel so the budget ends exactly.
    limit: u64,
    /// Fuel handed to the fast path at the last visit.
    granted: u64,
    /// The chunk reached the memory ceiling, whether or not it caught the error.
    memory: bool,
    /// The chunk overflowed Luau's stack, whether or not it caught the error.
    stack: bool,
    /// The VM's memory limit the ceiling sets (its size when empty plus the ceiling).
    ceiling: usize,
    /// The evaluation's deadline on the coarse clock.
    deadline: u64,
    /// The memory limit in force is the time cap, below the ceiling: an allocation refused now
    /// is one that would not finish before the deadline, so it answers a timeout.
    capped: bool,
}

/// Shared handle on the running evaluation's state.
type Shared = Arc<Mutex<Running>>;

/// Locks the shared state; a poisoned lock still holds a usable meter.
fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Running> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The interrupt's fast path, read and written without a lock: one evaluation runs on a VM
/// at a time, so the atomics only need to make the state shareable, not to order anything.
struct Gauge {
    /// Interrupts left before the next visit to the meter.
    fuel: AtomicU64,
    /// When, on the coarse clock, the interrupt next visits the meter whatever fuel is left:
    /// at the deadline, or earlier, when the time cap on memory is due to shrink.
    review: AtomicU64,
}

/// A Luau VM prepared for chunks.
pub(crate) struct Vm {
    /// The Luau state.
    lua: Lua,
    /// The evaluation state the interrupt and the host functions share.
    running: Shared,
    /// The interrupt's lock-free fast path.
    gauge: Arc<Gauge>,
    /// The environment every chunk runs in: it holds `ctx` and the chunk's own globals, reads
    /// everything else from the allow-listed globals, and is emptied after every evaluation.
    env: Table,
    /// The name `ctx`, made once so setting it each evaluation makes no string.
    ctx_key: mlua::LuaString,
    /// Bytes the VM holds with nothing running; the ceiling is counted above it.
    baseline: usize,
    /// Compiled chunks by source, each already bound to `env`: at most [`CHUNK_CACHE`] of
    /// them, from at most [`CACHE_BYTES`] of source.
    cache: FifoCache<String, Function>,
    /// The source of the chunk run last, and the chunk: a predicate evaluated again and again
    /// is found by one comparison instead of hashing its source. The buffer is reused.
    last_source: String,
    /// The chunk `last_source` compiled to, while it is also in `cache`.
    last: Option<Function>,
}

/// How an evaluation ended, for the pool: whether the VM may serve again.
pub(crate) struct Ran {
    /// The answer or the error.
    pub(crate) result: Result<Value, Error>,
    /// A bound was hit: the VM is dropped, never reused.
    pub(crate) discard: bool,
    /// The instruction budget the chunk spent (marshalling included).
    pub(crate) steps: u64,
}

impl Vm {
    /// Builds a VM: Luau's libraries, then the prelude's allow-list as the only globals, then
    /// Luau's sandbox mode, which makes the globals, every library and the string metatable
    /// read-only.
    pub(crate) fn new() -> Result<Vm, Error> {
        Vm::build().map_err(Error::sandbox)
    }

    /// [`Vm::new`] with mlua's errors.
    fn build() -> mlua::Result<Vm> {
        let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        let running: Shared = Arc::new(Mutex::new(Running {
            meter: Meter::new(&Limits::UNLIMITED),
            limit: u64::MAX,
            granted: 0,
            memory: false,
            stack: false,
            ceiling: 0,
            deadline: ticker::NEVER,
            capped: false,
        }));
        let gauge = Arc::new(Gauge {
            fuel: AtomicU64::new(0),
            review: AtomicU64::new(ticker::NEVER),
        });

        let (in_interrupt, gauge_in_interrupt) = (Arc::clone(&running), Arc::clone(&gauge));
        lua.set_interrupt(move |lua| {
            let fuel = gauge_in_interrupt.fuel.load(Ordering::Relaxed);
            if fuel > 0 && !ticker::reached(gauge_in_interrupt.review.load(Ordering::Relaxed)) {
                gauge_in_interrupt.fuel.store(fuel - 1, Ordering::Relaxed);
                return Ok(VmState::Continue);
            }
            refuel(lua, &in_interrupt, &gauge_in_interrupt)
        });

        let in_bound = Arc::clone(&running);
        let bound = lua.create_function(move |_, error: LuaValue| Ok(is_bound(&in_bound, &error)))?;
        let in_find = Arc::clone(&running);
        let plain_find = lua.create_function(move |_, args| plain_find(&in_find, args))?;
        let in_reserve = Arc::clone(&running);
        let reserve = lua.create_function(move |_, items: f64| reserve(&in_reserve, items))?;
        // The prelude's own functions run in the library globals, which no chunk can reach and
        // nothing changes after the prelude; marked safe, their calls to `type`, `select` and
        // `string.byte` run as Luau builtins, without a call or an interrupt each. Chunks run
        // in `env`, which is never marked safe.
        lua.globals().set_safeenv(true);
        let globals: Table = lua
            .load(PRELUDE)
            .set_name("=writ-prelude")
            .set_mode(ChunkMode::Text)
            .set_compiler(Compiler::new().set_debug_level(0))
            .call((bound, plain_find, reserve))?;
        lua.set_globals(globals.clone())?;
        lua.sandbox(true)?;

        let env_meta = lua.create_table()?;
        env_meta.raw_set("__index", globals)?;
        env_meta.raw_set("__metatable", false)?;
        env_meta.set_readonly(true);
        let env = lua.create_table()?;
        env.set_metatable(Some(env_meta))?;
        let ctx_key = lua.create_string("ctx")?;
        lua.gc_collect()?;
        let baseline = lua.used_memory();
        Ok(Vm {
            lua,
            running,
            gauge,
            env,
            ctx_key,
            baseline,
            cache: FifoCache::weighted(CHUNK_CACHE, CACHE_BYTES, |source: &String, _| source.len()),
            last_source: String::new(),
            last: None,
        })
    }

    /// Bytes the VM's heap holds now.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.lua.used_memory()
    }

    /// The compiled chunk for `source`, from the cache or compiled now.
    pub(crate) fn compile(&mut self, source: &str) -> Result<Function, Error> {
        let (function, built) = self.cache.get_or_try_insert_with(source, || {
            let bytecode = compile_text(source)?;
            let function = self
                .lua
                .load(&bytecode[..])
                .set_name("=chunk")
                .set_mode(ChunkMode::Binary)
                .into_function()
                .map_err(|e| Error::from_lua(&e, 0))?;
            function
                .set_environment(self.env.clone())
                .map_err(|e| Error::from_lua(&e, 0))?;
            Ok(function)
        })?;
        if built && !self.cache.contains_key(self.last_source.as_str()) {
            // The chunk run last made room for this one: it is not kept alive beside the cache.
            self.last = None;
        }
        Ok(function)
    }

    /// Runs `source` with global `ctx` = `context` under `limits`, in the VM's environment,
    /// which is emptied afterwards.
    pub(crate) fn run(&mut self, source: &str, context: &Value, limits: &LuaLimits) -> Ran {
        let meter_limits = Limits {
            steps: Some(limits.instruction_limit),
            time: Some(limits.timeout),
            max_depth: Some(MAX_DEPTH),
            check_interval: BATCH as u32,
            ..Limits::UNLIMITED
        };
        let fresh = Running {
            meter: Meter::new(&meter_limits),
            limit: limits.instruction_limit,
            granted: 0,
            memory: false,
            stack: false,
            ceiling: 0,
            deadline: ticker::deadline(limits.timeout),
            capped: false,
        };
        self.gauge.fuel.store(0, Ordering::Relaxed);
        self.gauge.review.store(fresh.deadline, Ordering::Relaxed);
        let ceiling = limits.memory_ceiling_bytes;

        let (answer, bound) = self.run_inner(source, context, ceiling, fresh);
        let steps = lock(&self.running).meter.steps_used();

        // A bound the chunk crossed decides the answer even if the chunk caught the error and
        // went on to return something.
        if let Some(error) = bound {
            return Ran {
                result: Err(error),
                discard: true,
                steps,
            };
        }
        // Emptying the environment makes it as good as new: nothing else a chunk could reach
        // outlives the evaluation (the globals, the libraries and the string metatable are
        // read-only, `ctx` is rebuilt every time, and no chunk can name the environment itself).
        let discard = matches!(&answer, Err(e) if matches!(e.code(), Code::Memory | Code::Stack | Code::Sandbox))
            || self.env.clear().is_err();
        if !discard && self.lua.used_memory() > self.baseline.saturating_add(ceiling / 4) {
            // Garbage left by this chunk would count against the next one's ceiling.
            if self.lua.gc_collect().is_err() {
                return Ran {
                    result: answer,
                    discard: true,
                    steps,
                };
            }
        }
        Ran {
            result: answer,
            discard,
            steps,
        }
    }

    /// Compiles, marshals, calls, converts back; returns the answer and the bound the chunk
    /// crossed, if any. Compiling (bounded by the source's length) and building the
    /// environment (bounded by [`Builder`]'s estimate) run with no memory limit, so mlua makes
    /// each table and string without a protected call; the ceiling is set from the VM's size
    /// once they are built and holds for everything the chunk does. The shared state is locked
    /// three times: to start the meter, to build `ctx` and hand out the first batch of fuel,
    /// and to convert the answer and read the bounds.
    fn run_inner(
        &mut self,
        source: &str,
        context: &Value,
        ceiling: usize,
        fresh: Running,
    ) -> (Result<Value, Error>, Option<Error>) {
        let mut running = lock(&self.running);
        *running = fresh;
        drop(running);
        let called = self.call(source, context, ceiling);
        let mut running = lock(&self.running);
        if matches!(&called, Err(e) if e.code() == Code::Memory) {
            out_of_memory(&mut running);
        }
        let answer = called.and_then(|first| {
            marshal::from_lua(&first, &mut running.meter, ceiling).map_err(|f| f.into_error(ceiling))
        });
        let bound = if let Some(exceeded) = running.meter.exceeded() {
            Some(Error::from_budget(exceeded))
        } else if running.memory {
            Some(Error::memory(ceiling))
        } else if running.stack {
            Some(Error::stack())
        } else {
            None
        };
        (answer, bound)
    }

    /// Builds `ctx`, sets the ceiling and calls the chunk, returning its first value.
    fn call(&mut self, source: &str, context: &Value, ceiling: usize) -> Result<LuaValue, Error> {
        self.lua.set_memory_limit(0).map_err(Error::sandbox)?;
        let function = match &self.last {
            Some(function) if self.last_source == source => function,
            _ => {
                let function = self.compile(source)?;
                self.last_source.clear();
                self.last_source.push_str(source);
                self.last.insert(function)
            }
        };
        {
            let mut running = lock(&self.running);
            let mut builder = Builder {
                lua: &self.lua,
                meter: &mut running.meter,
                room: ceiling,
            };
            let ctx = builder.convert(context).map_err(|f| f.into_error(ceiling))?;
            self.env
                .raw_set(&self.ctx_key, ctx)
                .map_err(|e| Error::from_lua(&e, ceiling))?;
            let used = self.lua.used_memory();
            if used > self.baseline.saturating_add(ceiling) {
                return Err(Error::memory(ceiling));
            }
            running.ceiling = self.baseline.saturating_add(ceiling);
            cap(&self.lua, &mut running, &self.gauge).map_err(Error::sandbox)?;
            // The fast path's first batch, sized by what marshalling left of the budget, so a
            // chunk that ends within it never reaches the slow path; the meter charges the
            // batch when the next one is asked for.
            let grant = BATCH.min(running.limit.saturating_sub(running.meter.steps_used()));
            running.granted = grant;
            self.gauge.fuel.store(grant, Ordering::Relaxed);
        }
        function.call(()).map_err(|e| Error::from_lua(&e, ceiling))
    }
}

/// Stack for the compiler thread. Luau's parser and compiler recurse once per level of
/// nesting up to its limit of 1000 levels, which needs more stack than a host thread may have;
/// the thread's stack is reserved, not touched, so its size costs address space only.
const COMPILE_STACK: usize = 16 << 20;

/// Compiles Luau source text to bytecode on a thread with a known, ample stack, so that no
/// nesting in the source can overflow the caller's stack. The bytecode is writ's own, never a
/// script's, and is loaded only into the VM that asked for it.
fn compile_text(source: &str) -> Result<Vec<u8>, Error> {
    match rewrite::instrument(source) {
        Ok(Cow::Borrowed(_)) => compile_on_thread(source),
        // A rewrite that does not compile means the original does not either (its own error is
        // the one to report) or the scanner lost its way; either way nothing runs.
        Ok(Cow::Owned(rewritten)) => compile_on_thread(&rewritten).or_else(|_| {
            compile_on_thread(source)?;
            Err(unfollowed())
        }),
        Err(Refusal::Reserved { line }) => Err(Error::new(
            Code::Syntax,
            format!(
                "chunk:{line}: names beginning `{RESERVED_PREFIX}` are reserved for the functions writ's rewrite of \
                 loops and table keys calls; choose another name"
            ),
        )),
        Err(Refusal::Unfollowed) => {
            compile_on_thread(source)?;
            Err(unfollowed())
        }
    }
}

/// The error for a chunk Luau compiles but whose loops writ could not find.
fn unfollowed() -> Error {
    Error::new(
        Code::Sandbox,
        "writ could not follow this chunk's blocks to rewrite its for-in loops and table keys, though Luau \
         compiles it; simplify the syntax around its loops and assignments and report the chunk as a bug",
    )
}

/// Compiles on a thread with [`COMPILE_STACK`] bytes of stack.
fn compile_on_thread(source: &str) -> Result<Vec<u8>, Error> {
    let compiled = std::thread::scope(|scope| {
        let compiler = std::thread::Builder::new()
            .name("writ-lua-compile".into())
            .stack_size(COMPILE_STACK)
            .spawn_scoped(scope, || Compiler::new().compile(source))
            .map_err(Error::sandbox)?;
        compiler
            .join()
            .map_err(|_| Error::sandbox("the Luau compiler thread failed"))
    })?;
    compiled.map_err(|error| match error {
        // Luau reports the position as ":line: message"; writ names the chunk as at run time.
        mlua::Error::SyntaxError { message, .. } => Error::new(
            Code::Syntax,
            format!(
                "chunk:{}; the chunk must be Luau source text",
                message.trim_start_matches(':')
            ),
        ),
        other => Error::from_lua(&other, 0),
    })
}

/// The interrupt's slow path: charges the interrupts the fast path let through, reads the
/// clock, and hands out the next batch, sized so the budget ends on its exact count. Once a
/// bound is crossed the fuel stays empty and every later interrupt fails again.
fn refuel(lua: &Lua, shared: &Shared, gauge: &Gauge) -> mlua::Result<VmState> {
    let mut running = lock(shared);
    let spent = running.granted.saturating_sub(gauge.fuel.load(Ordering::Relaxed)) + 1;
    running.granted = 0;
    gauge.fuel.store(0, Ordering::Relaxed);
    let charged = running.meter.steps(spent).and_then(|()| running.meter.check_clock());
    match charged {
        Ok(()) => {
            let grant = BATCH.min(running.limit.saturating_sub(running.meter.steps_used()));
            running.granted = grant;
            gauge.fuel.store(grant, Ordering::Relaxed);
            cap(lua, &mut running, gauge)?;
            Ok(VmState::Continue)
        }
        Err(exceeded) => Err(mlua::Error::external(Stop(exceeded))),
    }
}

/// Sets the VM's memory limit to the smaller of the ceiling and the time cap: the memory in
/// use plus what one operation builds ([`BYTES_PER_MILLI`], slowed by the pace the machine
/// has lately run charged work at, [`writ_core::paced`]) in half the time left. A single
/// Luau operation cannot be interrupted, but everything it builds it allocates, so one that
/// would run past the deadline is refused before it starts, and answers a timeout. The
/// interrupt's fast path comes back when that half has passed, to halve the cap again, so an
/// operation that starts before then has at least the time its cap allows. Without a coarse
/// clock the cap is left to the ceiling and the meter's own clock readings.
fn cap(lua: &Lua, running: &mut Running, gauge: &Gauge) -> mlua::Result<()> {
    let now = match ticker::now() {
        Some(now) if running.deadline != ticker::NEVER => now,
        _ => {
            running.capped = false;
            lua.set_memory_limit(running.ceiling)?;
            return Ok(());
        }
    };
    let half = running.deadline.saturating_sub(now) / 2;
    // On a machine running slower than the reference one lately, a millisecond builds less.
    let slowdown = writ_core::paced(Duration::from_millis(1)).as_micros().max(1000);
    let room =
        usize::try_from(u128::from(half.max(1)) * BYTES_PER_MILLI as u128 * 1000 / slowdown).unwrap_or(usize::MAX);
    let limit = lua.used_memory().saturating_add(room);
    running.capped = limit < running.ceiling;
    lua.set_memory_limit(limit.min(running.ceiling))?;
    let review = if half >= 1 { now + half } else { running.deadline };
    gauge.review.store(review, Ordering::Relaxed);
    Ok(())
}

/// Records an allocation the VM refused: past the ceiling it is the memory bound, under the
/// time cap the operation would not have finished in time, so the time bound.
fn out_of_memory(running: &mut Running) {
    if running.capped {
        // The cap stands for the deadline: the meter records it crossed, as if it had run.
        let _ = running.meter.reserve_time(Duration::MAX);
    } else {
        running.memory = true;
    }
}

/// Whether an error a chunk caught is one of the bounds, recording memory and stack bounds so
/// they stay crossed. A spent meter is a bound whatever error value the chunk holds.
fn is_bound(shared: &Shared, error: &LuaValue) -> bool {
    let mut running = lock(shared);
    if running.meter.exceeded().is_some() || running.memory || running.stack {
        return true;
    }
    let text = match error {
        LuaValue::String(s) => s.to_string_lossy(),
        LuaValue::Error(e) => {
            if let mlua::Error::MemoryError(_) = e.as_ref() {
                out_of_memory(&mut running);
                return true;
            }
            e.to_string()
        }
        _ => return false,
    };
    if text == "not enough memory" {
        out_of_memory(&mut running);
        true
    } else if text.contains("stack overflow") {
        running.stack = true;
        true
    } else {
        false
    }
}

/// The time one item costs a table function that walks items in C without allocating
/// (`table.concat`, `table.move`, `table.find`): about 20 ns on the reference machine.
const ITEM_NANOS: f64 = 25.0;

/// Charges a table function's walk over `items` items before it runs, as `plain_find` charges
/// its scan: a step per 64 items, and the walk's time, so one that would run past the
/// deadline stops before it starts.
fn reserve(shared: &Shared, items: f64) -> mlua::Result<()> {
    let items = if items.is_nan() { 0.0 } else { items.max(0.0) };
    let mut running = lock(shared);
    // `as` saturates: a count past u64 (or infinite) charges the most there is.
    let steps = 1 + (items / 64.0) as u64;
    let work = Duration::from_secs_f64((items * ITEM_NANOS / 1e9).min(1e9));
    running
        .meter
        .steps(steps)
        .and_then(|()| running.meter.reserve_time(work))
        .map_err(|e| mlua::Error::external(Stop(e)))
}

/// `string.find` for a plain pattern, in linear time, with Luau's argument rules: `init`
/// counts from 1, negative counts back from the end, past the end finds nothing. The scan is
/// charged before it runs, a step per 64 bytes of haystack and needle.
fn plain_find(
    shared: &Shared,
    (s, p, init): (mlua::LuaString, mlua::LuaString, Option<f64>),
) -> mlua::Result<mlua::MultiValue> {
    let haystack = s.as_bytes();
    let needle = p.as_bytes();
    let work = (haystack.len() + needle.len()) / 64;
    lock(shared)
        .meter
        .steps(1 + work as u64)
        .map_err(|e| mlua::Error::external(Stop(e)))?;
    let len = haystack.len() as i64;
    let mut start = init.map_or(1, |i| i as i64);
    if start < 0 {
        start = (start + len + 1).max(0);
    }
    if start < 1 {
        start = 1;
    } else if start > len + 1 {
        return Ok(mlua::MultiValue::from_iter([LuaValue::Nil]));
    }
    let from = usize::try_from(start - 1).unwrap_or(0);
    let found = haystack
        .get(from..)
        .and_then(|rest| memchr::memmem::find(rest, &needle));
    Ok(match found {
        Some(at) => {
            let first = (from + at + 1) as f64;
            let last = (from + at + needle.len()) as f64;
            mlua::MultiValue::from_iter([LuaValue::Number(first), LuaValue::Number(last)])
        }
        None => mlua::MultiValue::from_iter([LuaValue::Nil]),
    })
}
