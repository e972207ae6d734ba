//! writ-lua: sandboxed Lua for seed 000's lua cell, preempted in-process.
//!
//! The original lua cell runs wasmoon on the host's main thread and, when its hooks fail to stop
//! a chunk, kills the whole host process. This crate runs Luau (Roblox's Lua 5.1 dialect,
//! vendored through mlua 0.12.2, Luau 0.740) in the host process and stops every runaway
//! there: nothing is ever killed but the evaluation.
//!
//! ```
//! use writ_core::{parse_json, Value};
//! use writ_lua::{Sandbox, DEFAULT_LIMITS};
//!
//! let sandbox = Sandbox::new(DEFAULT_LIMITS)?;
//! let ctx = parse_json(r#"{"list_files:e2:e0": [{"json": {"count": 3}}]}"#).unwrap();
//! let answer = sandbox.evaluate("return ctx['list_files:e2:e0'][1].json.count > 0", &ctx)?;
//! assert_eq!(answer, Value::Bool(true));
//! let refused = sandbox.evaluate("while true do end", &ctx).unwrap_err();
//! assert_eq!(refused.code().as_str(), "lua-instruction-limit");
//! # Ok::<(), writ_lua::Error>(())
//! ```
//!
//! # What the sandbox guarantees
//!
//! * **Only what is allow-listed exists.** A chunk sees `ctx` and: `assert error ipairs next
//!   pairs pcall rawequal rawget rawlen select tonumber tostring type typeof unpack xpcall`,
//!   and the libraries `string` (without `pack`, `packsize`, `unpack`, `split`), `table`,
//!   `math` (without `random`, `randomseed`), `utf8` and `coroutine`. There is no `io`, `os`,
//!   `debug`, `require`, `package`, `load`, `loadstring`, `dofile`, `loadfile`,
//!   `string.dump`, `collectgarbage`, `gcinfo`, `getfenv`, `setfenv`, `getmetatable`,
//!   `setmetatable`, `rawset`, `newproxy`, `print`, `buffer`, `_G`, `_VERSION` or clock or
//!   random source: reading one gives nil, calling it is a `lua-runtime` error. The globals,
//!   every library and the string metatable are read-only (Luau's `sandbox` mode); a chunk's
//!   own global writes land in an environment table made for that evaluation alone.
//! * **Removed builtins stay removed.** Luau can run builtins such as `getmetatable` straight
//!   from the bytecode when an environment is marked "safe"; the chunk's environment never is,
//!   so every global read goes through the allow-list. Only writ's own wrappers (`pcall`,
//!   `tostring`, `string.find`…) run in a safe environment: Luau's library globals, which no
//!   chunk can reach and which nothing changes once the wrappers are made.
//! * **Bytecode never loads.** Luau has no script-side bytecode loader, and the host side
//!   refuses any source starting the way Lua or Luau bytecode does (`lua-bytecode-refused`);
//!   writ compiles the text itself and loads only the bytecode it produced.
//! * **Every runaway stops in-process**: within the timeout plus a few milliseconds (the
//!   adversarial suite, 101 cases, holds each to timeout + 50 ms), the host lives on, and a
//!   VM that crossed a bound is dropped, never reused.
//! * **No stack overflow**: Luau's parser and compiler run on a thread with a 16 MiB stack, and
//!   stop at its own nesting limit (1000) with `lua-syntax`; Lua recursion is bounded by
//!   Luau's stack limits (`lua-stack`), and the conversions both ways stop at
//!   [`MAX_DEPTH`] levels (`lua-unrepresentable`).
//! * **Nothing leaks between evaluations**: `ctx` is built afresh each time and the chunk's
//!   environment (which holds `ctx` and the chunk's own globals) is emptied after every
//!   evaluation; no chunk can name the environment, and the globals, the libraries and the
//!   string metatable are read-only, so nothing else a chunk touches outlives it. The host's
//!   `Value` is copied in, never shared.
//! * **Determinism**: the same chunk and context give the same answer in every VM. There is
//!   no clock and no randomness; Luau hashes strings with no per-state seed, so a table's
//!   iteration order over string, number and boolean keys depends only on what was inserted
//!   in what order; `tostring` and `string.format('%s')` print a table, function or thread
//!   as its type name rather than its address (and `%s` of one is an error); an error raised
//!   with a table reports the type, not the address; objects come back with sorted keys; there
//!   are no finalizers and no weak tables to observe the collector.
//! * **No table is laid out by address.** Luau places a table, function or thread used as a
//!   key by its address, so a table that holds (or once held) one is laid out differently in
//!   different VMs: its walk order, and which border `#` picks when it has holes, can change
//!   from one VM to the next. Before compiling, writ rewrites the chunk's source (within lines,
//!   so error lines stay the chunk's) so that every key stored by an assignment or a
//!   constructor (`t[k] = v`, `t[k] += v`, `t[a], u[b] = …`, `{[k] = v}`) passes through a
//!   check that refuses a table, function or thread (`lua-runtime`, naming the line); nothing
//!   else can add such a key (`rawset` and metatables are not allow-listed, the libraries add
//!   integer keys). Reading with one finds nothing.
//! * **Every walk over a table has one order.** `pairs`, `next`, `table.foreach` and every
//!   generic `for` loop visit keys in one fixed order: numbers ascending, then strings in byte
//!   order, then `false`, then `true`. Generalized iteration (`for k, v in t do`) walks a table
//!   natively, with nothing a sandbox could replace, so the rewrite passes each generic `for`
//!   loop's expression list through the prelude (`for k, v in t do` runs as
//!   `for k, v in __writ_iterate( t ) do`; iterator functions such as `string.gmatch` pass
//!   through untouched). Unlike hash order, the fixed order survives a Luau upgrade, so a run
//!   replayed on a later build walks its tables the same way. Names beginning `__writ_` are
//!   reserved (`lua-syntax`).

//! # Luau for chunk authors
//! # Luau for chunk authors
//!
//! Luau is Lua 5.1 with additions (`continue`, compound assignment such as `+=`, `//`, string
//! interpolation, `typeof`, generalized iteration `for k, v in t do`) and differences that
//! matter to a predicate: numbers are doubles only; `string.rep` takes no separator, and a
//! count beyond the 32-bit range gives the empty string; there is no `goto`; and there are no
//! proper tail calls, so an endless tail call overflows the stack (`lua-stack`).
//!
//! In writ, a table key is a string, a number or a boolean: to keep a set of tables, key it by
//! an id they carry. Walking a table visits its keys in the fixed order above, whichever way it
//! is written. The keys are taken when the walk starts: a key removed during the walk is skipped
//! and one added is not visited (Lua leaves both undefined). Ordering costs one budget unit
//! per key, plus the sort when the keys were not already in order (an array's always are):
//! Luau's C sort takes at most a few milliseconds' worth of keys at a time, and longer lists
//! are merged by Lua code the interrupt reaches. A walk written with `next` calls costs the
//! same as `pairs`: `next(t)` begins it with one scan, and its second step takes the keys in
//! order for the steps after; `next(t, k)` with a key the walk never held scans the table.
//!
//! # How each bound is enforced
//!
//! * **Instructions** ([`LuaLimits::instruction_limit`]). Luau has no instruction-count hook;
//!   its VM calls an *interrupt* at every loop back-edge, every call and every step of the
//!   pattern matcher (`find`, `match`, `gmatch`, `gsub`), in every coroutine. The budget counts
//!   those interrupt calls, plus one per value marshalled in or out and one per 64 bytes
//!   scanned by writ's plain `string.find`. A tight loop spends one unit per iteration; the
//!   default 10,000,000 units is about 0.3 s of tight looping on the reference machine. The
//!   interrupt's fast path is an atomic decrement; every 256 interrupts it charges the meter.
//! * **Stickiness.** Once a bound is crossed, every later interrupt fails again, and the
//!   allow-listed `pcall`, `xpcall`, `coroutine.resume` and `coroutine.close` re-raise a bound
//!   (a spent budget, the memory ceiling or a stack overflow) instead of returning it, and an
//!   `xpcall` handler is not run for one. A chunk can observe nothing past a bound, and if it
//!   somehow returns after crossing one, the bound is still the answer.
//! * **Time** ([`LuaLimits::timeout`], from the start of the evaluation, marshalling
//!   included). A process-wide thread keeps a coarse millisecond clock in an atomic while
//!   evaluations run (it parks when idle); the interrupt compares it with the deadline at
//!   every call, so the overshoot is one uninterruptible operation. Those are charged in time
//!   before they run: the VM's memory limit is also a time cap, the memory in use plus what
//!   one operation builds in half the time left (a mebibyte a millisecond), so a `string.rep`,
//!   `..`, `string.format`, `table.concat` or `table.create` that would end past the deadline
//!   is refused before it starts and answers `lua-timeout`, even under a ceiling a host has
//!   raised; `table.concat`, `table.move` and `table.find` over 65,536 items or more are
//!   charged for their items too. `table.sort` always sorts through a Lua comparator, so a sort
//!   is interruptible. The system clock is read before a timeout is declared.
//! * **Memory** ([`LuaLimits::memory_ceiling_bytes`]). mlua's allocator refuses any allocation
//!   past the VM's size when empty plus the ceiling, so `string.rep`, doubling concatenation,
//!   table growth and `table.concat` fail at the ceiling (`lua-memory`). The context counts
//!   toward it and is estimated before it is built. The ceiling counts garbage the incremental
//!   collector has not reclaimed yet (Luau has no emergency collection), so a chunk churning
//!   through temporaries of several megabytes can reach it sooner than its live data would.
//! * **Stack**. Luau raises "stack overflow" for deep Lua recursion and for more than 200
//!   nested C boundaries (pcall, metamethods, comparators); both are `lua-stack`.
//!
//! # What `status()` means
//!
//! [`Sandbox::new`] runs five canaries on the build it is linked into, each a chunk only one
//! bound can stop: an instruction-budget canary (`while true do end` under a budget of 10,000),
//! a coroutine canary (the same loop inside `coroutine.wrap`), a pcall canary (three
//! pcall-wrapped loops), a memory canary (a table fill under a 1 MiB ceiling) and a timeout
//! canary (a catastrophic pattern, `(('a'):rep(2e5) .. 'b'):find('.-.-.-c')`, under a 20 ms
//! timeout and no budget, which must stop within timeout + 50 ms). [`Sandbox::status`] reports
//! [`Guarantee::Full`] when all five held, and the configured limits; when one failed it
//! reports [`Guarantee::Partial`] and `None` for the bound that failed. It says what was
//! verified, not what was asked for.
//!
//! # Marshalling
//!
//! `ctx` is the context [`writ_core::Value`]: an object becomes a table with string keys, an
//! array a sequence from 1, a number a Luau number (Luau has only doubles), a string its
//! UTF-8 text (a lone UTF-16 surrogate becomes U+FFFD), a boolean a boolean, and `null` or
//! `undefined` becomes nil, so a null field reads as absent and a null array element leaves a
//! hole (`#` of `[1, null, 3]` may then be 1 or 3; index it explicitly).
//!
//! The answer is the chunk's first return value: nil or none is `Value::Undefined`; a table
//! whose keys are exactly 1..n an array; a table whose keys are all strings an object with
//! its keys sorted (a Lua table has no insertion order); the empty table the empty array; a
//! number a `Value::Number` (NaN and infinities stay, and JSON writes them as `null`); a string
//! its text, invalid UTF-8 becoming U+FFFD. Everything else is `lua-unrepresentable`: a
//! function, thread or userdata, a cyclic table, a table mixing key kinds or with keys that
//! are neither 1..n nor strings, and nesting past [`MAX_DEPTH`]. Both directions are charged
//! to the budget and depth-capped.
//!
//! # Speed
//!
//! A [`Sandbox`] keeps up to four VMs, each with a cache of compiled chunks (256 chunks or
//! 1 MiB of source; the chunk run last is found by one comparison, without hashing its
//! source). An evaluation takes a VM, builds `ctx` into the VM's environment (with the memory
//! limit lifted while it does, so mlua skips a protected call per value; the estimate above
//! bounds it), runs the cached chunk, converts the answer back, empties the environment and
//! returns the VM. Against plain mlua on the same Luau (no interrupt, no limits, the chunk
//! loaded once, `ctx` marshalled the same way), measured with `cargo bench -p writ-lua` on the
//! 2-core reference machine in one run (load average 2.4–2.9):
//!
//! | chunk | sandbox | plain mlua | ratio |
//! |---|---|---|---|
//! | field comparison (`ctx.order.total > 100 and ctx.order.customer.tier == 'gold'`) | 2.86 µs | 2.51 µs | 1.14× |
//! | loop summing 1,000 numbers of `ctx.values` | 128 µs | 108 µs | 1.18× |
//! | `string.find(ctx.subject, 'INV%-%d+')` | 1.41 µs | 1.02 µs | 1.38× |
//! | `pairs` over an object of 100 fields, summing them | 58.8 µs | 29.7 µs | 1.98× |
//!
//! The last row is the price of a fixed order rather than of the sandbox: plain Luau walks the
//! fields in hash order, writ gathers and sorts the 100 keys first.
//!
//! Two earlier runs of the first three rows at load about 5 measured 1.16× / 1.15×, 1.34× /
//! 1.20× and 1.44× / 1.53×, each back to back with the crate's previous version, which measured
//! 1.26× / 1.25×, 1.28× / 1.32× and 1.92× / 1.88× in the same runs; three more runs of the find
//! alone at load 5 measured 1.43×, 1.15×, 1.48× against 1.91×, 2.34×, 1.96×. The load moves
//! single figures by 20–30 %, so compare ratios from the same run. Counted by callgrind, which
//! load does not disturb,
//! the find costs 12,100 instructions an evaluation against plain mlua's 9,260 (1.31×; it was
//! 14,670, 1.58×), and an evaluation of `return true` 6,710 against 5,810 (1.16×).
//!
//! Where the time goes. Luau calls the interrupt at every loop iteration, call, return and
//! position the pattern matcher tries, and mlua's trampoline costs about 20 ns a call (a bare
//! loop: 6.6 ns an iteration in plain Luau, 27.7 ns with the trampoline alone, 29.9 ns in the
//! sandbox, so writ's own part is about 2 ns); it cannot be made cheaper without unsafe code,
//! and without it a loop could not be stopped. The loop pays it 1,000 times. Left to Luau, the
//! find would pay it at each of the 13 positions before `INV`; writ's `string.find` jumps to
//! the first occurrence of a pattern's literal first byte with a plain one-byte search (a
//! memchr, no interrupt) and starts matching there, so that find pays 7 interrupts, not 19. A
//! pattern that starts with a class (`%d`, `[A-Z]`, `.`), an anchor, a capture or an optional
//! item gets no jump and pays one interrupt per position tried, as before. What remains fixed
//! per evaluation, about 0.3 µs over plain mlua, is the pool's lock, the meter and the
//! deadline (two clock reads), the ceiling lifted and set, two readings of the heap's size,
//! emptying the environment and converting the answer; every mlua call among them takes
//! mlua's state lock.
//!
//! # Lua 5.4 or Luau: the measurements behind the choice
//!
//! Both flavours built through mlua 0.12.2 (`vendored`, `send`) in one scratch program on
//! this machine (2 cores, shared, load about 4), each runaway under a 1000 ms deadline, a
//! 64 MiB limit and a sticky budget (Lua 5.4: a global count hook every 1000 instructions,
//! 10,000 firings, deadline read in the hook; Luau: the interrupt, 10,000,000 calls, deadline
//! read at every call). "killed" means the chunk was still running when the harness killed
//! the process after 15 s.
//!
//! | probe | Lua 5.4.9 | Luau 0.740 |
//! |---|---|---|
//! | cold release build of mlua + the VM | 38 s | 124 s (C++) |
//! | `while true do end` | stopped, 54 ms | stopped, 679 ms (budget) |
//! | catastrophic `find` / `match` / `gsub` | killed (no hook runs inside C) | stopped at the budget (974 / 734 / 648 ms) |
//! | `string.rep('x', 3e7)` in a loop | killed (the hook fires once per ~200 iterations) | memory ceiling, 50 ms |
//! | `table.concat` of 2,000,000 strings in a loop | stopped after 8,222 ms | memory ceiling, 185 ms |
//! | `table.sort` with a looping comparator | stopped, 60 ms | stopped, 637 ms (budget) |
//! | `table.sort` (C comparator) of 300,000 strings in a loop | killed | stopped, 1,013 ms |
//! | `coroutine.wrap` loop | stopped, 39 ms (global hook only) | stopped, 637 ms (budget) |
//! | `pcall`-wrapped loop in a loop | killed (each firing is caught) | stopped, 680 ms (budget) |
//! | `load(string.dump(f))()` | runs the bytecode (42) | no `load`, no `string.dump` |
//! | call of a compiled predicate, no hook / with hook | 84 / 96 ns | 147 / 135 ns |
//!
//! (Budget timings are the 10,000,000-call budget running out, about 65 ns per call in that
//! harness; writ's interrupt is cheaper, see above.) Lua 5.4's hook cannot reach inside a C
//! function, so a pattern, a `string.rep`, a `table.concat` or a C-comparator sort runs to the
//! end, and a loop of them runs until the hook's next firing, seconds later: using Lua 5.4
//! would mean replacing the pattern functions and wrapping every library function that does
//! work in proportion to its arguments, and it would still load bytecode unless `load` were
//! removed. Luau interrupts inside pattern matching, covers coroutines with no extra hook, has
//! no script-side bytecode loader and makes the libraries read-only. Its costs are the longer
//! C++ build and a per-call overhead about 50 ns higher through mlua; neither matters next
//! to a bound that holds. **writ-lua uses Luau.**
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod engine;
mod error;
mod marshal;
mod rewrite;
mod sandbox;
mod ticker;
mod vm;

pub use engine::LIMIT_NAMES;
pub use error::{Code, Error};
pub use marshal::MAX_DEPTH;
pub use sandbox::{DEFAULT_LIMITS, Guarantee, LuaLimits, MAX_SOURCE_BYTES, Sandbox, Status};

use writ_core::{Outcome, Value};

/// Answers one CLI request: the chunk's first return value, or its error, as an [`Outcome`].
pub fn outcome(sandbox: &Sandbox, source: &str, context: &Value) -> Outcome {
    match sandbox.evaluate(source, context) {
        Ok(value) => Outcome::from(value),
        Err(error) => Outcome::error(error.code().as_str(), error.message()),
    }
}
