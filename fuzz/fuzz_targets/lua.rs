//! Fuzz target: any Luau chunk over any context gets an answer within its bounds — a value, or
//! an error with one of writ-lua's codes and a message — never a panic, never a stack overflow,
//! never an evaluation that outlives its timeout by more than 50 ms; and, unless a bound that
//! depends on the machine (time, memory) decided it, the same chunk over the same context gives
//! the same answer again, on whichever pooled VM runs it. This reaches writ's source rewrite
//! (loops and table keys), the prelude's wrappers, marshalling both ways and the error mapping.

#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use writ_core::{Value, parse_json_with_depth};
use writ_lua::{LuaLimits, Sandbox, outcome};

const TIMEOUT_MS: u64 = 50;

/// The codes an answer may carry.
const CODES: [&str; 9] = [
    "lua-syntax",
    "lua-bytecode-refused",
    "lua-runtime",
    "lua-stack",
    "lua-instruction-limit",
    "lua-timeout",
    "lua-memory",
    "lua-unrepresentable",
    "lua-sandbox",
];

/// One sandbox for the whole run, as a host keeps one: VMs are reused between inputs.
fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        // A 2 MiB ceiling, an eighth of what a host would give: the longest uninterruptible
        // library call (a search, a copy) is linear in the largest string the ceiling allows,
        // and coverage instrumentation slows writ's own linear-time search some tenfold; the
        // deadline is about where writ can stop, not about the instrumentation's speed.
        Sandbox::new(LuaLimits {
            instruction_limit: 200_000,
            memory_ceiling_bytes: 2 << 20,
            timeout: Duration::from_millis(TIMEOUT_MS),
        })
        .expect("the sandbox builds")
    })
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    // The chunk and the context, split at the first NUL.
    let (source, data) = text.split_once('\0').unwrap_or((text, "{}"));
    let context = parse_json_with_depth(data, 600).unwrap_or(Value::Null);
    let sandbox = sandbox();
    let started = Instant::now();
    let first = outcome(sandbox, source, &context);
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(TIMEOUT_MS + 50),
        "{source:?} ran {elapsed:?}, past its {TIMEOUT_MS} ms timeout by more than 50 ms"
    );
    if let writ_core::Outcome::Error { code, message } = &first {
        assert!(CODES.contains(&code.as_str()), "an unknown code: {code}: {message}");
        assert!(!message.is_empty(), "an error without a message: {code}");
        assert_ne!(code, "lua-sandbox", "{source:?}: {message}");
        if matches!(code.as_str(), "lua-timeout" | "lua-memory") {
            return;
        }
    }
    let second = outcome(sandbox, source, &context);
    let bound = matches!(&second, writ_core::Outcome::Error { code, .. } if code == "lua-timeout" || code == "lua-memory");
    assert!(bound || second == first, "{source:?} answered {first:?}, then {second:?}");
});
