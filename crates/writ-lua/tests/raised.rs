//! One Luau operation cannot be interrupted, so under a memory ceiling a host has raised it could
//! run for seconds past the timeout. Each is charged in time before it runs — what it allocates
//! by the time cap on the VM's memory, what a table function walks by its item count — and
//! stops with `lua-timeout` within the timeout plus a generous margin.

use std::time::{Duration, Instant};

use writ_core::Value;
use writ_lua::{LuaLimits, Sandbox};

/// The timeout every case runs under.
const TIMEOUT: Duration = Duration::from_millis(100);

/// How far past the timeout a case may end (a debug build on a busy machine).
const GRACE: Duration = Duration::from_millis(150);

/// A ceiling no case reaches: time must stop each of them.
const RAISED: LuaLimits = LuaLimits {
    instruction_limit: 1 << 40,
    memory_ceiling_bytes: 4 << 30,
    timeout: TIMEOUT,
};

/// Each took 0.4–1.4 s past the 100 ms timeout in a debug build before the charge.
const CASES: &[&str] = &[
    "return #string.rep('ab', 2^28)",
    "return #string.rep('x', 2^29)",
    "local s = ('x'):rep(2^25) while true do s = s .. s end",
    "local s = ('ab'):rep(2^24) return #(s .. s .. s .. s .. s .. s .. s .. s)",
    "local s = ('ab'):rep(2^24) return #string.format('%s%s%s%s%s%s%s%s', s, s, s, s, s, s, s, s)",
    "local s = ('ab'):rep(2^24) return #table.concat({s, s, s, s, s, s, s, s})",
    "local s = ('ab'):rep(2^24) while true do s = s:rep(2) end",
    "local s = ('ab'):rep(2^24) while true do s = s:gsub('a', 'aaaa') end",
    "local s = ('ab'):rep(2^24) while true do s = s:upper() .. s:lower() end",
    "return #table.create(2e7, 'x')",
    "local t = table.create(3e6, 'x') local n = 0 for _ = 1, 100 do n += #table.concat(t) end return n",
    "local t = table.create(3e6, 'x') local u = {} for _ = 1, 100 do table.move(t, 1, #t, 1, u) end return #u",
    "local t = table.create(3e6, 'x') for _ = 1, 100 do table.find(t, 'y') end return 1",
    // Written out, this answer is about 100 MB: its writing is charged in time before the
    // host starts it (before, it answered at once and left seconds of writing to the host).
    "local t = true for _ = 1, 22 do t = {a = t, b = t} end return t",
];

#[test]
fn one_operation_a_host_let_grow_stops_at_the_timeout() {
    let sandbox = Sandbox::new(RAISED).expect("sandbox builds");
    let mut failures = Vec::new();
    for source in CASES {
        let started = Instant::now();
        let result = sandbox.evaluate(source, &Value::Null);
        let elapsed = started.elapsed();
        match result {
            Err(e) if e.code().as_str() == "lua-timeout" && elapsed <= TIMEOUT + GRACE => {}
            other => failures.push(format!("{source}: {other:?} after {elapsed:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let after = sandbox
        .evaluate("return 1 + 1", &Value::Null)
        .expect("the sandbox still answers");
    assert_eq!(after, Value::from(2.0));
}

#[test]
fn work_that_fits_the_time_left_still_runs() {
    let limits = LuaLimits {
        timeout: Duration::from_millis(2000),
        ..RAISED
    };
    let sandbox = Sandbox::new(limits).expect("sandbox builds");
    let cases = [
        ("return #string.rep('ab', 2^24)", 33_554_432.0),
        ("local s = ('x'):rep(2^24) return #(s .. s)", 33_554_432.0),
        (
            "local t = table.create(2e5, 'ab') return #table.concat(t, ',')",
            599_999.0,
        ),
        (
            "local t = table.create(2e5, 1) return #table.move(t, 1, #t, 2)",
            200_001.0,
        ),
        (
            "local t = table.create(2e5, 1) t[#t] = 2 return table.find(t, 2)",
            200_000.0,
        ),
    ];
    for (source, expected) in cases {
        let answer = sandbox.evaluate(source, &Value::Null);
        assert_eq!(answer.ok(), Some(Value::from(expected)), "{source}");
    }
}
