//! Fuzz target: Lua tables built by doubling (`t = {t, t}` and kin: forty levels hold 2^40
//! leaves in a few kilobytes) go through a fuzz-chosen walk — returned, compared, written out,
//! sorted, concatenated, grown — under a 50 ms timeout, with either a tight budget and a 1 MiB
//! ceiling or the budget off and a ceiling a host raised to 1 GiB (where only the clock and
//! the time cap on memory stop a single operation). Each evaluation must end within the
//! timeout plus 50 ms, its answer written within the timeout plus 2 s (writing runs at the
//! instrumented build's speed), hold at most 256 MiB more than before outside the VM's own
//! ceiling, and answer a value whose text fits the answer bound, or one of the bound codes;
//! never panic.

#![no_main]

#[path = "common/mod.rs"]
mod common;

use std::sync::OnceLock;
use std::time::Duration;

use common::{Counting, Picks};
use libfuzzer_sys::fuzz_target;
use writ_core::{MAX_ANSWER_BYTES, Value};
use writ_lua::{LuaLimits, Sandbox};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TIMEOUT: Duration = Duration::from_millis(50);
const MARGIN: Duration = Duration::from_millis(50);
/// How far past the deadline the answer may be written by: writing runs outside the
/// evaluation, at the speed of a build slowed by coverage instrumentation, which the engines'
/// charges for writing (made for a plain build) do not foresee.
const WRITING: Duration = Duration::from_millis(2000);
/// Beyond what the VM may hold under its ceiling.
const MEMORY_BOUND: usize = 256 << 20;

/// One doubling step of `t`.
const SHAPES: &[&str] = &["{t, t}", "{a = t, b = t}", "{t, {t}}", "{t, 'ab', t}", "{t, k = {t}}"];

const LEAVES: &[&str] = &["1", "'xy'", "{}", "{k = 'v'}", "{1, 2}", "true", "('é'):rep(40)"];

/// What is done with the doubled `t` (and its leaf `x`).
const WALKS: &[&str] = &[
    "return t",
    "return {t, t}",
    "return {a = t, b = {t}}",
    "local n = 0 local function walk(v) if type(v) == 'table' then for _, w in pairs(v) do walk(w) end else n = n + 1 end end walk(t) return n",
    "local function s(v) if type(v) == 'table' then local p = {} for i, w in ipairs(v) do p[i] = s(w) end return '[' .. table.concat(p, ',') .. ']' end return tostring(v) end return #s(t)",
    "local function eq(a, b) if type(a) ~= 'table' then return a == b end for k, v in pairs(a) do if not eq(v, b[k]) then return false end end return true end return eq(t, t)",
    "local l = {} for i = 1, 2 ^ 20 do l[i] = t end table.sort(l, function(a, b) return #a < #b end) return #l",
    "local s = tostring(x) for i = 1, 40 do s = s .. s end return #s",
    "return string.rep(tostring(x), 2 ^ 40)",
    "return #string.rep(tostring(x), 2 ^ 26)",
    "local p = {} for i = 1, 2 ^ 20 do p[i] = tostring(x) end return table.concat(p):len()",
    "local s = ('ab'):rep(2 ^ 20) while true do s = s .. s end",
    "local s = ('ab'):rep(2 ^ 20) while true do s = string.format('%s%s', s, s) end",
    "local s = ('ab'):rep(2 ^ 20) while true do s = table.concat({s, s, s}) end",
    "local s = ('ab'):rep(2 ^ 20) while true do s = s:gsub('a', 'aa') end",
    "local s = ('ab'):rep(2 ^ 20) while true do s = s:upper() .. s end",
    "local l = table.create(2 ^ 22, t) return #table.concat(table.create(#l, 'x'))",
    "local l = table.create(2 ^ 22, t) local m = {} table.move(l, 1, #l, 1, m) return #m",
    "local l = table.create(2 ^ 22, x) return table.find(l, {})",
    "return {t = t, n = #t, s = tostring(t)}",
    "local g = {} for i = 1, 2 ^ 16 do g[#g + 1] = {t} end return #g",
];

fn sandbox(raised: bool) -> &'static Sandbox {
    static TIGHT: OnceLock<Sandbox> = OnceLock::new();
    static RAISED: OnceLock<Sandbox> = OnceLock::new();
    if raised {
        RAISED.get_or_init(|| {
            Sandbox::new(LuaLimits {
                instruction_limit: u64::MAX,
                memory_ceiling_bytes: 1 << 30,
                timeout: TIMEOUT,
            })
            .expect("the sandbox builds")
        })
    } else {
        TIGHT.get_or_init(|| {
            Sandbox::new(LuaLimits {
                instruction_limit: 1_000_000,
                memory_ceiling_bytes: 1 << 20,
                timeout: TIMEOUT,
            })
            .expect("the sandbox builds")
        })
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut picks = Picks::new(bytes);
    let shape = picks.one(SHAPES);
    let leaf = picks.one(LEAVES);
    let levels = picks.pick(48);
    let walk = picks.one(WALKS);
    let raised = picks.pick(2) == 1;
    let source = format!("local x = {leaf} local t = x for i = 1, {levels} do t = {shape} end {walk}");
    let sandbox = sandbox(raised);
    let ceiling = if raised { 1 << 30 } else { 1 << 20 };
    let run = common::timed(
        || sandbox.evaluate(&source, &Value::Undefined),
        |answer| {
            answer
                .as_ref()
                .map(|value| {
                    value
                        .to_json_string_within(MAX_ANSWER_BYTES)
                        .map(|t| t.map(|t| t.len()))
                })
                .map_err(|error| (error.code().as_str(), error.to_string()))
        },
        TIMEOUT + MARGIN,
        TIMEOUT + WRITING,
    );
    assert!(
        run.evaluated < TIMEOUT + MARGIN,
        "{source} (raised: {raised}) answered after {:?}",
        run.evaluated
    );
    assert!(
        run.total < TIMEOUT + WRITING,
        "{source} (raised: {raised}) was written by {:?}",
        run.total
    );
    assert!(
        run.peak < ceiling + MEMORY_BOUND,
        "{source} (raised: {raised}) held {} MiB",
        run.peak >> 20
    );
    let written = run.written;
    match written {
        Ok(Ok(_)) => {}
        Ok(Err(_)) => panic!("{source} answered a value too long to write"),
        Err((code, message)) => assert!(
            [
                "lua-memory",
                "lua-timeout",
                "lua-instruction-limit",
                "lua-stack",
                "lua-unrepresentable",
                "lua-runtime"
            ]
            .contains(&code),
            "{source}: {message}"
        ),
    }
});
