//! Tables of shared subtables, built by doubling, then compared, sorted, concatenated,
//! stringified and returned under tight limits and with only the clock and the ceiling: every
//! chunk answers within its bounds or stops with one of the bound codes, within its timeout
//! plus a generous margin. (The fuzz target for this class, as a proptest: `cargo fuzz`
//! needs its own build of every dependency.)

use std::time::{Duration, Instant};

use proptest::prelude::*;
use writ_core::Value;
use writ_lua::{DEFAULT_LIMITS, LuaLimits, Sandbox};

/// How far past its timeout a chunk may run: generous, as in the adversarial suite's reruns.
const MARGIN: Duration = Duration::from_millis(1_000);

/// What is done with the doubled table `t` (and its leaf `x`).
const WALKS: &[&str] = &[
    "return t",
    "return {t, t}",
    "return {a = t, b = {t}}",
    "local n = 0 local function walk(v) if type(v) == 'table' then for _, w in ipairs(v) do walk(w) end else n = n + 1 end end walk(t) return n",
    "local function s(v) if type(v) == 'table' then local p = {} for i, w in ipairs(v) do p[i] = s(w) end return '[' .. table.concat(p, ',') .. ']' end return tostring(v) end return #s(t)",
    "local function eq(a, b) if type(a) ~= 'table' then return a == b end for i = 1, #a do if not eq(a[i], b[i]) then return false end end return true end return eq(t, t[1] and {t[1], t[1]} or t)",
    "local l = {} for i = 1, 2 ^ 20 do l[i] = t end table.sort(l, function(a, b) return #a < #b end) return #l",
    "local s = tostring(x) for i = 1, 40 do s = s .. s end return #s",
    "return string.rep(tostring(x), 2 ^ 40)",
    "local p = {} for i = 1, 2 ^ 20 do p[i] = tostring(x) end return table.concat(p):len()",
];

/// The first walks, which return the tables.
const RETURNS: usize = 3;

/// `{x, x}` doubled `levels` times over the leaf `x`, then `walk`.
fn chunk(levels: u32, leaf: &str, walk: &str) -> String {
    format!("local x = {leaf} local t = x for i = 1, {levels} do t = {{t, t}} end {walk}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_walk_over_doubled_tables_stays_within_its_bounds(
        levels in 0u32..48,
        leaf in prop::sample::select(vec!["1", "'xy'", "{}", "{k = 'v'}", "{1, 2}"]),
        walk in 0usize..WALKS.len(),
        tight in proptest::bool::ANY,
    ) {
        let limits = if tight {
            LuaLimits {
                instruction_limit: 1_000_000,
                memory_ceiling_bytes: 1 << 20,
                timeout: Duration::from_millis(50),
            }
        } else {
            LuaLimits {
                instruction_limit: u64::MAX,
                timeout: Duration::from_millis(200),
                ..DEFAULT_LIMITS
            }
        };
        let sandbox = Sandbox::new(limits).expect("sandbox builds");
        let source = chunk(levels, leaf, WALKS[walk]);
        let started = Instant::now();
        let answer = sandbox.evaluate(&source, &Value::Undefined);
        let took = started.elapsed();
        prop_assert!(took < limits.timeout + MARGIN, "{source}: {took:?}");
        match answer {
            Ok(value) => {
                let written = value.to_json_string().map_or(0, |text| text.len());
                prop_assert!(written <= limits.memory_ceiling_bytes, "{source}: {written} bytes");
            }
            // Returning the tables is cheap in the VM: only the answer's size can stop it.
            Err(error) if walk < RETURNS => prop_assert_eq!(error.code().as_str(), "lua-memory", "{}", source),
            Err(error) => prop_assert!(
                ["lua-memory", "lua-timeout", "lua-instruction-limit", "lua-stack", "lua-unrepresentable"]
                    .contains(&error.code().as_str()),
                "{source}: {error}"
            ),
        }
    }
}
