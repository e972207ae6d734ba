//! `Sandbox`: the pool of VMs, the canaries that decide `status()`, and the evaluation entry
//! points.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use writ_core::{Bound, BudgetExceeded, Meter, Value};

use crate::error::{Code, Error};
use crate::vm::{Ran, Vm};

/// The longest source accepted, in bytes. Compiling cannot be interrupted, so its worst case is
/// bounded before it starts: at this size Luau compiles in well under a millisecond.
pub const MAX_SOURCE_BYTES: usize = 64 * 1024;

/// VMs kept warm between evaluations.
const POOL_SIZE: usize = 4;

/// The bounds of one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LuaLimits {
    /// The instruction budget, in Luau's equivalent of instructions: interrupt calls, not VM
    /// instructions (Luau has no instruction count). Luau interrupts at every loop iteration,
    /// every function call and every pattern-matching step, and each one costs one unit, as do
    /// each value marshalled in and out and each 64 bytes writ's plain `string.find` scans.
    pub instruction_limit: u64,
    /// The most bytes the VM may hold beyond what the empty sandbox holds: the context, the
    /// chunk's data, and garbage the collector has not reclaimed yet.
    pub memory_ceiling_bytes: usize,
    /// Wall-clock time from the start of the evaluation (marshalling included).
    pub timeout: Duration,
}

/// 10,000,000 interrupt calls (about 0.3 s of a tight loop on the reference machine), 64 MiB,
/// 1000 ms.
pub const DEFAULT_LIMITS: LuaLimits = LuaLimits {
    instruction_limit: 10_000_000,
    memory_ceiling_bytes: 64 * 1024 * 1024,
    timeout: Duration::from_millis(1000),
};

/// Whether every bound was verified on this build when the sandbox was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// Every canary held: the instruction budget, the memory ceiling and the timeout stop
    /// runaways, inside coroutines and past pcall.
    Full,
    /// At least one canary failed; the bounds it tested read `None` in [`Status`].
    Partial,
}

/// What the canaries verified, not what was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// [`Guarantee::Full`] when every canary held.
    pub guarantee: Guarantee,
    /// The instruction budget, if the budget, coroutine and pcall canaries stopped their loops.
    pub instruction_limit: Option<u64>,
    /// The memory ceiling, if the memory canary hit it.
    pub memory_ceiling_bytes: Option<usize>,
    /// The timeout in milliseconds, if the timeout canary stopped a catastrophic pattern.
    pub timeout_ms: Option<u64>,
}

/// A sandbox for one cell: its limits, its VM pool (each VM with its compiled chunks) and what
/// its canaries verified. `Send + Sync` and cheap to clone (clones share the pool): evaluations
/// from several threads each take a VM.
#[derive(Clone)]
pub struct Sandbox {
    shared: Arc<Shared>,
}

/// What clones of a [`Sandbox`] share.
struct Shared {
    /// The limits `evaluate` runs under.
    limits: LuaLimits,
    /// VMs that ended their last evaluation cleanly, last returned first.
    #[expect(
        clippy::vec_box,
        reason = "a VM is a few hundred bytes, moved out of and back into the pool at every evaluation; boxed, \
                  each move copies a pointer"
    )]
    pool: Mutex<Vec<Box<Vm>>>,
    /// What the canaries verified.
    status: Status,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.shared.limits)
            .field("status", &self.shared.status)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Builds the sandbox and runs the canary probes that verify, on this build, that each bound
    /// holds: an instruction-budget canary, a memory-ceiling canary, a timeout canary inside a
    /// catastrophic pattern, a coroutine canary and a pcall canary.
    ///
    /// # Errors
    ///
    /// `lua-sandbox` if no VM can be built.
    pub fn new(limits: LuaLimits) -> Result<Sandbox, Error> {
        let mut sandbox = Sandbox {
            shared: Arc::new(Shared {
                limits,
                pool: Mutex::new(Vec::new()),
                status: Status {
                    guarantee: Guarantee::Partial,
                    instruction_limit: None,
                    memory_ceiling_bytes: None,
                    timeout_ms: None,
                },
            }),
        };
        let status = sandbox.run_canaries()?;
        if let Some(shared) = Arc::get_mut(&mut sandbox.shared) {
            shared.status = status;
        }
        Ok(sandbox)
    }

    /// Probes each bound with a chunk that only that bound can stop.
    fn run_canaries(&self) -> Result<Status, Error> {
        let counted = LuaLimits {
            instruction_limit: 10_000,
            memory_ceiling_bytes: 64 << 20,
            timeout: LONG,
        };
        let budget = self.probe("while true do end", &counted, Code::InstructionLimit)?;
        let coroutine = self.probe(
            "coroutine.wrap(function() while true do end end)()",
            &counted,
            Code::InstructionLimit,
        )?;
        let pcall = self.probe(
            "for _ = 1, 3 do pcall(function() while true do end end) end return 'escaped'",
            &counted,
            Code::InstructionLimit,
        )?;
        let small = LuaLimits {
            instruction_limit: u64::MAX,
            memory_ceiling_bytes: 1 << 20,
            timeout: LONG,
        };
        let memory = self.probe("local t = {} for i = 1, 1e7 do t[i] = i end", &small, Code::Memory)?;
        let timeout = Duration::from_millis(20);
        let timed = LuaLimits {
            instruction_limit: u64::MAX,
            memory_ceiling_bytes: 64 << 20,
            timeout,
        };
        let started = Instant::now();
        let timed_out = self.probe("return (('a'):rep(2e5) .. 'b'):find('.-.-.-c')", &timed, Code::Timeout)?
            && started.elapsed() < timeout + Duration::from_millis(50);

        let instructions = budget && coroutine && pcall;
        Ok(Status {
            guarantee: if instructions && memory && timed_out {
                Guarantee::Full
            } else {
                Guarantee::Partial
            },
            instruction_limit: instructions.then_some(self.shared.limits.instruction_limit),
            memory_ceiling_bytes: memory.then_some(self.shared.limits.memory_ceiling_bytes),
            timeout_ms: timed_out.then(|| u64::try_from(self.shared.limits.timeout.as_millis()).unwrap_or(u64::MAX)),
        })
    }

    /// Whether `source` under `limits` fails with `code`.
    fn probe(&self, source: &str, limits: &LuaLimits, code: Code) -> Result<bool, Error> {
        match self.evaluate_with(source, &Value::Undefined, limits) {
            Err(e) if e.code() == Code::Sandbox => Err(e),
            Err(e) => Ok(e.code() == code),
            Ok(_) => Ok(false),
        }
    }

    /// What the canaries verified.
    pub fn status(&self) -> Status {
        self.shared.status
    }

    /// The limits evaluations run under by default.
    pub fn limits(&self) -> &LuaLimits {
        &self.shared.limits
    }

    /// Compiles `source` (text only: bytecode refused) without running it.
    ///
    /// # Errors
    ///
    /// `lua-bytecode-refused`, `lua-syntax`, or `lua-sandbox`.
    pub fn check(&self, source: &str) -> Result<(), Error> {
        screen(source)?;
        let mut vm = self.take()?;
        let result = vm.compile(source).map(drop);
        self.give_back(vm);
        result
    }

    /// Runs the chunk with global `ctx` = `context`, returning its first return value converted
    /// back to a Value (nil or no value → `Value::Undefined`), under the sandbox's limits.
    ///
    /// # Errors
    ///
    /// Any of [`Error`]'s codes.
    pub fn evaluate(&self, source: &str, context: &Value) -> Result<Value, Error> {
        self.evaluate_with(source, context, &self.shared.limits)
    }

    /// [`Sandbox::evaluate`] under `limits` instead of the sandbox's own.
    ///
    /// # Errors
    ///
    /// Any of [`Error`]'s codes.
    pub fn evaluate_with(&self, source: &str, context: &Value, limits: &LuaLimits) -> Result<Value, Error> {
        screen(source)?;
        let mut vm = self.take()?;
        let Ran { result, discard, .. } = vm.run(source, context, limits);
        if discard {
            retire(vm);
        } else {
            self.give_back(vm);
        }
        result
    }

    /// Runs the chunk with global `ctx` = `context` under the caller's `meter`: the chunk gets
    /// the steps and the time the meter has left, and the steps it spent are charged back, so
    /// a budget shared between several evaluations holds across this one too. The memory
    /// ceiling is `memory_ceiling_bytes`, which no meter counts.
    ///
    /// # Errors
    ///
    /// Any of [`Error`]'s codes; after a bound, the meter fails from then on too.
    pub fn evaluate_metered(
        &self,
        source: &str,
        context: &Value,
        meter: &mut Meter,
        memory_ceiling_bytes: usize,
    ) -> Result<Value, Error> {
        meter.check_clock().map_err(Error::from_budget)?;
        let spent_before = meter.steps_used();
        let limits = LuaLimits {
            instruction_limit: meter.steps_left().unwrap_or(u64::MAX),
            memory_ceiling_bytes,
            timeout: meter.time_left().unwrap_or(Duration::MAX),
        };
        screen(source)?;
        let mut vm = self.take()?;
        let Ran { result, discard, steps } = vm.run(source, context, &limits);
        if discard {
            retire(vm);
        } else {
            self.give_back(vm);
        }
        let charged = meter.steps(steps);
        if let Err(error) = &result {
            let bound = match error.code().as_str() {
                "lua-instruction-limit" => Some(Bound::Steps),
                "lua-timeout" => Some(Bound::Time),
                "lua-memory" => Some(Bound::Memory),
                _ => None,
            };
            if let Some(bound) = bound {
                let limit = match bound {
                    Bound::Steps => spent_before.saturating_add(limits.instruction_limit),
                    Bound::Time => u64::try_from(limits.timeout.as_millis()).unwrap_or(u64::MAX),
                    _ => memory_ceiling_bytes as u64,
                };
                meter.record_exceeded(BudgetExceeded { bound, limit });
            }
        } else if let Err(exceeded) = charged {
            return Err(Error::from_budget(exceeded));
        }
        result
    }

    /// A VM from the pool, or a new one.
    fn take(&self) -> Result<Box<Vm>, Error> {
        let pooled = self.shared.pool.lock().unwrap_or_else(PoisonError::into_inner).pop();
        match pooled {
            Some(vm) => Ok(vm),
            None => Vm::new().map(Box::new),
        }
    }

    /// Returns a VM that ended cleanly to the pool, if there is room.
    fn give_back(&self, vm: Box<Vm>) {
        let mut pool = self.shared.pool.lock().unwrap_or_else(PoisonError::into_inner);
        if pool.len() < POOL_SIZE {
            pool.push(vm);
        }
    }
}

/// A VM whose heap is at least this large is freed on a thread of its own.
const HEAVY_VM_BYTES: usize = 4 << 20;

/// Drops a VM that crossed a bound. Freeing a heap the size of the memory ceiling takes
/// milliseconds, which belong to no evaluation: a heavy VM is freed on a short-lived thread
/// so the answer is not held back (if the thread cannot start, the VM is freed here).
fn retire(vm: Box<Vm>) {
    if vm.heap_bytes() >= HEAVY_VM_BYTES {
        let _ = std::thread::Builder::new()
            .name("writ-lua-free".into())
            .spawn(move || drop(vm));
    }
}

/// A timeout long enough that only the bound a canary tests can stop it.
const LONG: Duration = Duration::from_secs(10);

/// Whether `source` starts the way bytecode does: Lua 5.x's signature begins with ESC, and a
/// Luau blob with its version byte (3 to 14, or 100) followed by its types version (1 to 3).
/// Source text never starts with a control character other than whitespace, so any such
/// start among the first two bytes is refused.
fn looks_like_bytecode(source: &str) -> bool {
    let control = |b: u8| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let bytes = source.as_bytes();
    bytes.first().is_some_and(|&b| control(b)) || bytes.get(1).is_some_and(|&b| control(b))
}

/// Refuses bytecode and oversized sources before anything compiles.
fn screen(source: &str) -> Result<(), Error> {
    if looks_like_bytecode(source) {
        return Err(Error::new(
            Code::BytecodeRefused,
            "the chunk looks like precompiled bytecode, which is refused: the bytecode loader is not a security \
             boundary; supply Luau source text",
        ));
    }
    if source.len() > MAX_SOURCE_BYTES {
        return Err(Error::new(
            Code::Syntax,
            format!(
                "the chunk is {} bytes, more than the {MAX_SOURCE_BYTES} a predicate may have; shorten it",
                source.len()
            ),
        ));
    }
    Ok(())
}
