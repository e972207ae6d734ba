//! writ-cells: the predicate cells that decide `branch` and `select` nodes.
//!
//! A plan's `branch` and `select` nodes carry a predicate and name the cell that interprets it.
//! This crate holds the seam every cell implements ([`PredicateEvaluator`]), the [`Registry`] a
//! host wires cells into (nothing is wired by default: a node naming a cell the registry lacks
//! is refused at freeze, naming the node), and the five cells.
//!
//! Every cell reads a plain-data snapshot of the frame's [`OutputTable`] (built per evaluation;
//! [`writ_core::Value`] holds nothing but data, so no predicate reaches a method, a getter or a
//! prototype through it), has no clock and no randomness (the same snapshot always gives the
//! same verdict, so a resumed run may decide again), and turns every fault into the node's
//! negative verdict — a branch does not match, a select takes its default — plus a recorded
//! [`Fault`]. Nothing a predicate does panics, overflows the stack or outlives its budget.
//!
//! # The cells
//!
//! | id | predicate | reads | branch matches when | select's case |
//! |---|---|---|---|---|
//! | `structured` ([`StructuredCell`]) | JSON: `{path, op, value}` leaves under `all`/`any`/`not`; a select's is a record from each case to its predicate | [`OutputTable::merged`]: `fetch:e2:e0.status` | the predicate holds | the first case, in `cases` order, whose entry holds |
//! | `jexl` ([`JexlCell`]) | Jexl 2.3 source | [`OutputTable::expression_scope`] as the context | the result is JavaScript-truthy | the result names it |
//! | `js` ([`JsCell`]) | one expression of writ's JavaScript subset (seed 004), no host functions | [`OutputTable::expression_scope`] as the context | the result is JavaScript-truthy | the result names it |
//! | `jsonata` ([`JsonataCell`]) | JSONata 2.2.2 source | [`OutputTable::expression_scope`] as the input document | `$boolean` of the result is true (no result is false; an array holds when some member does) | the result names it |
//! | `lua` ([`LuaCell`]) | a Lua chunk (source text) that returns the verdict | global `ctx` = [`OutputTable::to_value`]: items unmerged, `ctx['fetch:'][1].json.count` | Lua truthiness: only `nil` and `false` fail, `0` and `""` hold | a returned string names it |
//!
//! The expression scope holds every output under `outputs['nodeId:branchKey']` (JSONata:
//! ``outputs.`check:e2:e0`.status``) and, as a shorthand, under its bare node id when that id is
//! an identifier and the node ran on exactly one branch. A node reached on two branches is
//! ambiguous, so its bare id is absent (`n1 == null` in jexl; an unknown name in the js cell)
//! and only `outputs[...]` reaches it.
//!
//! A select's result names a case: a string equal to a label; in jexl, js and JSONata a number
//! or boolean is written as JavaScript's `String()` writes it (`3` names `"3"`); in Lua only a
//! string does. `null`, `undefined` or `nil` takes the default with no fault; anything else, or
//! a label that is not a case, takes the default with a [`FaultKind::BadResult`] fault that says
//! what came back and lists the cases.
//!
//! # Freeze
//!
//! [`PredicateEvaluator::validate`] refuses, with `predicate-invalid`, naming the node and
//! saying what to write: a select without cases or with a repeated label (every cell); a
//! structured predicate that does not parse, or a select record missing a case or holding an
//! entry for a label that is not one (a typo, with the nearest case suggested); an expression
//! cell's predicate that is not source text, or does not compile; in jexl, `===`/`!==` or a
//! `ctx.` prefix (by name, with what to write) and a transform or function the cell does not
//! register; in Lua, an empty chunk or precompiled bytecode.
//!
//! # Faults
//!
//! | kind | structured | jexl | js | jsonata | lua |
//! |---|---|---|---|---|---|
//! | [`FaultKind::InvalidPredicate`] | does not parse (a forbidden or empty path segment, an unknown op), a select entry missing | syntax, dialect, unregistered transform or function | `expression-syntax`, `guardrail-violation` | S codes, U1004 | `lua-syntax`, `lua-bytecode-refused` |
//! | [`FaultKind::TypeMismatch`] | never: values of different kinds compare false | a read from `undefined` or `null` | a JavaScript `TypeError` (a read from null, a call of a non-function, a spread of a non-iterable: `writ_js::Error::thrown`) | T codes | Luau's own `attempt to index`, `compare`, `perform arithmetic`, `concatenate`, `get length`, `iterate` (`writ_lua::Error::is_type_error`) |
//! | [`FaultKind::BudgetExceeded`] | steps, time, depth | `budget-exceeded` | `budget-exceeded` | D1011, D1012, D2014, D2015, U1001, U1003, U1006, U1007 | `lua-instruction-limit`, `lua-timeout`, `lua-memory`, `lua-stack` |
//! | [`FaultKind::Runtime`] | never | a registered transform or function failed | every other runtime error, an unknown name | every other D code | `error()` (whatever its text), a call of a missing function, every other `lua-runtime` |
//! | [`FaultKind::BadResult`] | never | a select's result names no case | the same | the same | the same, and `lua-unrepresentable` |
//!
//! A fault keeps the engine's own code ([`Fault::code`]) beside its kind.
//!
//! # Limits
//!
//! | cell | default | built with |
//! |---|---|---|
//! | structured | 1,000,000 steps, 100 ms ([`structured::DEFAULT_LIMITS`]); nesting at most 256 | [`StructuredCell::new`]`(Limits)` |
//! | jexl | 10,000,000 steps, 1 s, depth 500, strings and arrays of 10,000,000 ([`writ_jexl::DEFAULT_LIMITS`]) | [`JexlCell::new`]`(Jexl)`: the engine carries its transforms, functions and limits |
//! | js | 1,000,000 steps, 100 ms, strings of 1,000,000, arrays of 100,000, 10,000,000 units allocated; sources of 1,000 characters | [`JsCell::new`]`(writ_js::Budget)` |
//! | jsonata | 1 s, depth 5,000, 100,000,000 steps, sequences of 10,000,000 | [`JsonataCell::new`]`(JsonataLimits)` |
//! | lua | 10,000,000 instruction units, 64 MiB, 1 s ([`writ_lua::DEFAULT_LIMITS`]) | [`LuaCell::new`]`(LuaLimits)` |
//!
//! Each cell compiles a source once and keeps it (with a compile failure) in a bounded cache of
//! [`CACHE_CAPACITY`] entries, oldest out first, so a node decided on every frame is parsed
//! once; the lua cell leaves this to its sandbox, which caches its chunks.
//!
//! The lua cell's [`load`](PredicateEvaluator::load) builds its [`writ_lua::Sandbox`], whose
//! canaries check on this build that the instruction budget, the memory ceiling and the
//! timeout each stop a runaway (inside coroutines, past `pcall`, inside a catastrophic pattern);
//! [`LuaCell::status`] reports what they verified, not what was asked for. A runaway chunk is
//! stopped in-process and the host lives on: unlike the original, nothing kills the process.
//!
//! # A JavaScript cell
//!
//! The seed refuses a JavaScript cell, because a JavaScript engine cannot be preempted: a
//! guest's `while (true) {}` owns the thread, and a timeout raced against it only reports the
//! overrun while the loop runs on. writ's JavaScript subset is not such an engine. It is a
//! budgeted interpreter of one expression — no statements, no loops but the built-ins' own,
//! functions only as callbacks — and every evaluation is charged steps, time and allocation as
//! it runs and stopped in-process the moment it crosses a bound. So the `js` cell promises what
//! the seed's could not: every predicate ends within its budget, and the host keeps running.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//!
//! use writ_cells::{JsCell, OutputTable, PredicateContext, PredicateNode, Registry, StructuredCell, Verdict};
//! use writ_core::{Str, Value, block_on, parse_json};
//!
//! let mut registry = Registry::new();
//! registry.register(Arc::new(StructuredCell::default()))?;
//! registry.register(Arc::new(JsCell::default()))?;
//!
//! let gate = PredicateNode::branch("gate", "structured", parse_json(
//!     r#"{"all": [{"path": "fetch:e2:e0.count", "op": "gt", "value": 0},
//!                {"not": {"path": "fetch:e2:e0.flags", "op": "contains", "value": "hold"}}]}"#,
//! )?);
//! let route = PredicateNode::select("route", "js", &["small", "large"], Value::from(
//!     "fetch.count > 100 ? 'large' : 'small'",
//! ));
//! block_on(registry.validate(&gate))?;
//! block_on(registry.validate(&route))?;
//!
//! let mut outputs = OutputTable::new();
//! outputs.insert("fetch", "e2:e0", [parse_json(r#"{"count": 250, "flags": ["gift"]}"#)?]);
//! let context = PredicateContext { outputs, ..PredicateContext::default() };
//! assert_eq!(block_on(registry.evaluate(&gate, &context)).verdict, Verdict::Branch { matched: true });
//! assert_eq!(
//!     block_on(registry.evaluate(&route, &context)).verdict,
//!     Verdict::Select { case: Some(Str::from("large")) },
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cells;
mod registry;
mod seam;
pub mod structured;

pub use cells::{CACHE_CAPACITY, JexlCell, JsCell, JsonataCell, LuaCell, StructuredCell};
pub use registry::Registry;
pub use seam::{
    CellError, CellFuture, Decision, Evaluation, Fault, FaultKind, FrameRef, OutputTable, PredicateContext,
    PredicateEvaluator, PredicateNode, Verdict,
};
