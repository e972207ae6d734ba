//! Address-free tables: no table, function or thread is ever stored as a key, every way a
//! chunk can walk a table visits its keys in one fixed order, and the source rewrite that
//! makes both hold leaves every chunk's meaning as plain Luau gives it.

use std::sync::LazyLock;

use proptest::prelude::*;
use writ_core::{Value, parse_json};
use writ_lua::{DEFAULT_LIMITS, LuaLimits, Sandbox};

/// A sandbox with the default limits.
fn sandbox() -> Sandbox {
    Sandbox::new(DEFAULT_LIMITS).expect("sandbox builds")
}

/// Evaluates `source` with no context and writes the answer as JSON.
fn answer(sandbox: &Sandbox, source: &str) -> String {
    match sandbox.evaluate(source, &Value::Undefined) {
        Ok(value) => value.to_json_string().expect("answer encodes"),
        Err(error) => panic!("{source}: {error}"),
    }
}

/// The error `source` fails with, as `code: message`.
fn failure(sandbox: &Sandbox, source: &str) -> String {
    match sandbox.evaluate(source, &Value::Undefined) {
        Ok(value) => panic!("{source}: expected an error, got {value:?}"),
        Err(error) => format!("{}: {}", error.code().as_str(), error.message()),
    }
}

/// Makes the pool hand the next evaluation a VM built just for it: a chunk that spends its
/// budget discards the VM it ran on.
fn fresh_vm_next(sandbox: &Sandbox) {
    let spend = LuaLimits {
        instruction_limit: 10,
        ..DEFAULT_LIMITS
    };
    let error = sandbox
        .evaluate_with("while true do end", &Value::Undefined, &spend)
        .expect_err("the loop spends its budget");
    assert_eq!(error.code().as_str(), "lua-instruction-limit");
}

/// A chunk that gathers keys through `walk`, a fragment naming the table `t` and appending
/// each key to `seen`, over a table with every kind of ordered key inserted out of order.
fn gather(walk: &str) -> String {
    format!(
        "local t = {{}}
        for _, k in {{'pear', 3, true, 'apple', -1.5, 'Zebra', 10, false, '', 2, 'apple2', 1}} do
            t[k] = 'v'
        end
        t[4] = nil
        local seen = {{}}
        {walk}
        return table.concat(seen, ' ')"
    )
}

#[test]
fn every_walk_visits_numbers_then_strings_in_byte_order_then_false_then_true() {
    let sandbox = sandbox();
    let order = r#""-1.5 1 2 3 10  Zebra apple apple2 pear false true""#;
    for walk in [
        "for k, v in pairs(t) do seen[#seen + 1] = tostring(k) end",
        "for k, v in t do seen[#seen + 1] = tostring(k) end",
        "for k, v in next, t do seen[#seen + 1] = tostring(k) end",
        "for k, v in next, t, nil do seen[#seen + 1] = tostring(k) end",
        "local k = next(t) while k ~= nil do seen[#seen + 1] = tostring(k) k = next(t, k) end",
        "table.foreach(t, function(k) seen[#seen + 1] = tostring(k) end)",
        "local f, s, c = pairs(t) local k = f(s, c) while k ~= nil do seen[#seen + 1] = tostring(k) k = f(s, k) end",
    ] {
        assert_eq!(answer(&sandbox, &gather(walk)), order, "{walk}");
    }
}

#[test]
fn arrays_walk_in_index_order_and_a_walk_sees_removals() {
    let sandbox = sandbox();
    assert_eq!(
        answer(
            &sandbox,
            "local a = {} for i = 200, 1, -1 do a[i] = i * 2 end
             local s = 0 local last = 0 local ordered = true
             for i, v in a do ordered = ordered and i == last + 1 and v == i * 2 last = i s += v end
             return {ordered, s}"
        ),
        "[true,40200]"
    );
    // A key removed during the walk is not visited; clearing the current key is allowed.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {a = 1, b = 2, c = 3, d = 4} local seen = {}
             for k in pairs(t) do seen[#seen + 1] = k t[k] = nil t.c = nil end
             return table.concat(seen) .. (next(t) == nil and ' empty' or ' not empty')"
        ),
        r#""abd empty""#
    );
    assert_eq!(answer(&sandbox, "return next({}) == nil"), "true");
    assert_eq!(answer(&sandbox, "return { next({z = 1, y = 2}) }"), r#"["y",2]"#);
    assert_eq!(
        answer(
            &sandbox,
            "return table.foreach({a = 1, b = 2}, function(k, v) if v == 2 then return k end end)"
        ),
        r#""b""#
    );
}

#[test]
fn a_walk_made_of_next_calls_costs_one_sort_not_a_scan_a_step() {
    let sandbox = sandbox();
    // 30,000 keys: a scan a step would be 900 million key visits, far past the default
    // instruction budget; one sort for the walk fits well inside it.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {} for i = 1, 30000 do t['k' .. i] = i end
             local n, sum, last, ordered = 0, 0, '', true
             local k, v = next(t)
             while k ~= nil do
                 ordered = ordered and k > last
                 n += 1 sum += v last = k
                 k, v = next(t, k)
             end
             return {n, sum, ordered}"
        ),
        "[30000,450015000,true]"
    );
    // A walk's keys are those the table held at its second step: a key added after that is
    // not visited, a removed one is skipped, and the next walk (from `next(t)`) sees both.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {a = 1, c = 3, e = 5}
             local seen = {}
             local k = next(t)
             while k ~= nil do
                 seen[#seen + 1] = k
                 if k == 'c' then t.d = 4 t.e = nil end
                 k = next(t, k)
             end
             seen[#seen + 1] = '|'
             k = next(t)
             while k ~= nil do seen[#seen + 1] = k k = next(t, k) end
             return table.concat(seen)"
        ),
        r#""ac|acd""#
    );
    // Starting from a key the walk never held asks the table itself.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {a = 1, c = 3} local _ = next(t, next(t)) t.b = 2 return {next(t, 'b')}"
        ),
        r#"["c",3]"#
    );
}

#[test]
fn a_table_function_or_thread_is_never_stored_as_a_key() {
    let sandbox = sandbox();
    for (store, kind) in [
        ("t[{}] = 1", "table"),
        ("t[type] = 1", "function"),
        ("t[coroutine.create(type)] = 1", "thread"),
        ("local u = {x = 1, [{}] = 2}", "table"),
        ("local k = {} t[k] += 1", "table"),
        ("t[{}], t.y = 1, 2", "table"),
        ("t.a[print or type] = 1", "function"),
    ] {
        let message = failure(&sandbox, &format!("local t = {{a = {{}}}}\n{store}"));
        assert_eq!(
            message,
            format!(
                "lua-runtime: chunk:2: a {kind} cannot be a table key in writ (Luau places such a key by its \
                 memory address, so the table would differ between runs); key by a string or a number, such as an id"
            ),
            "{store}"
        );
    }
    // Found by fuzzing: Luau ends a line comment at a carriage return, so the store after one
    // runs and must be checked like any other.
    assert!(
        failure(&sandbox, "local t = {} -- note\rt[{}] = 1 return 1")
            .starts_with("lua-runtime: chunk:1: a table cannot be a table key in writ"),
    );
    // Reading with such a key finds nothing; pcall sees the refusal like any error.
    assert_eq!(
        answer(
            &sandbox,
            "local t, k = {}, {} local stored = pcall(function() t[k] = 1 end) return {stored, t[k] == nil, next(t) == nil}"
        ),
        "[false,true,true]"
    );
    // Keys that are strings, numbers or booleans are stored as ever, however written.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {[1] = 'a', [true] = 'b', ['c'] = 'c'} t[2], t[false] = 'd', 'e' t['c'] ..= '!' \
             return t[1] .. t[true] .. t.c .. t[2] .. t[false]"
        ),
        r#""abc!de""#
    );
    assert_eq!(
        failure(&sandbox, "return next({}, {})"),
        "lua-runtime: chunk:1: bad argument #2 to 'next' (a table is never a table key in writ)"
    );
    // Walking anything but a table says what it needs, at the chunk's line.
    assert_eq!(
        failure(&sandbox, "local x = 1\nfor k in pairs(nil) do end"),
        "lua-runtime: chunk:2: bad argument #1 to 'pairs' (table expected, got nil)"
    );
}

#[test]
fn an_order_luau_would_take_from_addresses_is_the_same_in_every_fresh_vm() {
    let sandbox = sandbox();
    // The chunk tries to interleave table keys with the others, and removes keys again: only
    // the string and number keys ever land, and every walk of them is the same everywhere.
    let source = "
        local t = {}
        for i = 1, 64 do
            pcall(function() t[{}] = i end)
            t['k' .. (i * 37 % 64)] = i t[i * 1.5] = i
            if i % 5 == 0 then t['k' .. (i * 11 % 64)] = nil end
        end
        local seen = {}
        for k, v in t do seen[#seen + 1] = tostring(k) .. '=' .. v end
        for k, v in pairs(t) do seen[#seen + 1] = tostring(k) end
        return table.concat(seen, ',')";
    let first = answer(&sandbox, source);
    for _ in 0..200 {
        fresh_vm_next(&sandbox);
        assert_eq!(answer(&sandbox, source), first);
    }
}

#[test]
fn the_reserved_name_is_refused_and_a_walk_counts_against_the_budget() {
    let sandbox = sandbox();
    assert_eq!(
        failure(&sandbox, "local x = 1\n__writ_iterate = function(t) return next, t end"),
        "lua-syntax: chunk:2: names beginning `__writ_` are reserved for the functions writ's rewrite of loops and \
         table keys calls; choose another name"
    );
    assert_eq!(
        failure(&sandbox, "local t = {}\nt.__writ_key = 1")
            .split(':')
            .take(3)
            .collect::<Vec<_>>(),
        ["lua-syntax", " chunk", "2"]
    );
    assert!(sandbox.check("return '__writ_iterate'").is_ok());
    // Syntax errors in a chunk with loops are Luau's own, on the chunk's own lines.
    let message = failure(&sandbox, "for k in t do\nlocal = 1 end");
    assert!(message.starts_with("lua-syntax: chunk:2:"), "{message}");
    // Ordering a big table is paid for like any loop.
    let tight = LuaLimits {
        instruction_limit: 50_000,
        ..DEFAULT_LIMITS
    };
    let big =
        "local t = {} for i = 1, 20000 do t['k' .. i] = i end local n = 0 for k in pairs(t) do n += 1 end return n";
    assert_eq!(
        sandbox
            .evaluate_with(big, &Value::Undefined, &tight)
            .expect_err("the walk spends the budget")
            .code()
            .as_str(),
        "lua-instruction-limit"
    );
    assert_eq!(answer(&sandbox, big), "20000");
}

#[test]
fn context_objects_walk_in_key_order() {
    let sandbox = sandbox();
    let context = parse_json(r#"{"b": 1, "a": {"y": 2, "x": 3}, "c": [5, 6]}"#).expect("JSON parses");
    let answer = sandbox
        .evaluate(
            "local seen = {} for k, v in ctx do seen[#seen + 1] = k end
             for k, v in pairs(ctx.a) do seen[#seen + 1] = k .. v end
             for i, v in ctx.c do seen[#seen + 1] = i .. ':' .. v end
             return table.concat(seen, ' ')",
            &context,
        )
        .expect("walks");
    assert_eq!(answer, Value::from("a b c x3 y2 1:5 2:6"));
}

/// A Luau expression that always evaluates to a number, built from the constructs whose block
/// structure the loop rewrite has to follow. Every generic loop inside one walks an array or
/// a `gmatch`, whose order plain Luau fixes too, so the rewrite must not change the answer.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (0u8..10).prop_map(|n| n.to_string()),
        Just("acc".to_owned()),
        Just("#'for x in t do end'".to_owned()),
        Just("#[==[ end do ]] ]==]".to_owned()),
        Just("(0x10 + 1e1 + .5 // 1)".to_owned()),
    ];
    leaf.prop_recursive(4, 48, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(if {c} > 3 then {a} else {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("#`x{{{a}}}y{{ #{{{b}}} }}`")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("#{{{a}, {b}; k = {a}}}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(
                "(function() local s = 0 for _, v in {{{a}, {b}}} do s += v end return s end)()"
            )),
            inner
                .clone()
                .prop_map(|a| format!("(function() if {a} > 2 then return {a} end return 1 end)()")),
        ]
    })
}

/// A Luau statement that changes `acc`, nesting blocks of every kind.
fn statement() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        expression().prop_map(|e| format!("acc += {e}")),
        // Keys stored every way a chunk can store one.
        (expression(), expression()).prop_map(|(a, b)| format!(
            "local u = {{[1] = {a}, ['k'] = {b}}} u[2] = {a} u[2] += 1 u['k'] ..= '' acc += u[1] + u[2] + #u"
        )),
        (expression(), expression())
            .prop_map(|(a, b)| format!("local p, q = {{}}, {{ {{}} }} p[1], q[1][2] = {a}, {b} acc += p[1] + q[1][2]")),
        // An if expression with nothing to close it, the case a lexer can most easily misread.
        (expression(), expression(), expression())
            .prop_map(|(c, a, b)| format!("acc += if {c} > 3 then {a} elseif {c} < 1 then {b} else {a} + 1")),
    ];
    leaf.prop_recursive(3, 24, 3, |inner| {
        let block = prop::collection::vec(inner, 1..3).prop_map(|s| s.join("\n"));
        prop_oneof![
            (expression(), block.clone(), block.clone())
                .prop_map(|(c, a, b)| format!("if {c} > 4 then\n{a}\nelse if {c} > 2 then {b} end end")),
            (expression(), block.clone())
                .prop_map(|(e, b)| format!("for _, v in ipairs({{{e}, 2}}) do acc += v {b} end")),
            (expression(), block.clone()).prop_map(|(e, b)| format!("for i, v in {{{e}, 3}} do acc += i * v {b} end")),
            block
                .clone()
                .prop_map(|b| format!("for w in ('ab cd'):gmatch('%a+') --[[ do ]] do acc += #w {b} end")),
            block.clone().prop_map(|b| format!("for i = 1, 2 do {b} end")),
            block.clone().prop_map(|b| format!("do -- end\n{b} end")),
            block.clone().prop_map(|b| format!("repeat {b} until true")),
            block
                .clone()
                .prop_map(|b| format!("local function f(): number {b} return 0 end acc += f()")),
            block.prop_map(|b| format!("while acc < 0 do {b} end")),
        ]
    })
}

/// Runs `source` in plain Luau (all libraries, no sandbox, no rewrite) and gives its number.
fn plain_luau(lua: &mlua::Lua, source: &str) -> f64 {
    lua.load(source)
        .eval::<f64>()
        .unwrap_or_else(|e| panic!("plain Luau: {e}\n{source}"))
}

/// One sandbox for all generated cases.
static SANDBOX: LazyLock<Sandbox> = LazyLock::new(sandbox);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_loop_rewrite_keeps_every_chunk_meaning_what_plain_luau_says(
        statements in prop::collection::vec(statement(), 1..4)
    ) {
        let source = format!("local acc = 0\n{}\nreturn acc", statements.join("\n"));
        let expected = plain_luau(&mlua::Lua::new(), &source);
        prop_assert_eq!(SANDBOX.evaluate(&source, &Value::Undefined), Ok(Value::Number(expected)), "{}", source);
    }
}

#[test]
fn big_tables_sort_through_the_interruptible_path_in_the_same_order() {
    let sandbox = sandbox();
    // 6,000 fractional keys (well past the C sort's 2^16 comparisons) and 40 keys of 64 KiB
    // sharing a prefix (past its 2^24 bytes), each inserted out of order.
    assert_eq!(
        answer(
            &sandbox,
            "local t = {} for i = 6000, 1, -1 do t[(i * 7919 % 6000) + 0.5] = true end
             local last, ordered, n = -1, true, 0
             for k in t do ordered = ordered and k > last last = k n += 1 end
             return {ordered, n}"
        ),
        "[true,6000]"
    );
    assert_eq!(
        answer(
            &sandbox,
            "local t, long = {}, string.rep('x', 65536) for i = 40, 1, -1 do t[long .. string.char(64 + i)] = i end
             local seen = {} for k, v in pairs(t) do seen[#seen + 1] = v end
             return table.concat(seen, ',')"
        ),
        format!(r#""{}""#, (1..=40).map(|i| i.to_string()).collect::<Vec<_>>().join(","))
    );
}

#[test]
fn a_walk_over_a_huge_table_stops_at_the_deadline() {
    let sandbox = sandbox();
    let limits = LuaLimits {
        instruction_limit: u64::MAX,
        timeout: std::time::Duration::from_millis(100),
        ..DEFAULT_LIMITS
    };
    let started = std::time::Instant::now();
    let error = sandbox
        .evaluate_with(
            "local t = {} for i = 1, 300000 do t['key' .. (i * 7919 % 300000)] = i end
             while true do for k in pairs(t) do end end",
            &Value::Undefined,
            &limits,
        )
        .expect_err("the walks run past the deadline");
    assert_eq!(error.code().as_str(), "lua-timeout");
    assert!(
        started.elapsed() < std::time::Duration::from_millis(150),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_length_of_a_table_with_holes_and_table_keys_is_the_same_in_every_fresh_vm() {
    // `#` of a table with holes is any border, and Luau's choice follows the table's layout,
    // which a table key stored and removed would make depend on addresses (this chunk gave 2 in
    // one VM and 15 in another before keys were checked). It must come out the same everywhere.
    let sandbox = sandbox();
    let source = "local out, seed = {}, 7
        local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return (seed // 65536) % n end
        for round = 1, 60 do
            local t = {}
            for step = 1, 80 do
                local op = rnd(6)
                if op == 0 then pcall(function() t[{}] = step end)
                elseif op <= 3 then t[rnd(24) + 1] = step
                elseif op == 4 then t[rnd(24) + 1] = nil
                else t['s' .. rnd(20)] = step end
                out[#out + 1] = #t
            end
        end
        return table.concat(out, ',')";
    let first = answer(&sandbox, source);
    assert!(
        first
            .split(',')
            .any(|n| n.trim_matches('"').parse::<u32>().unwrap_or(0) > 5),
        "{first}"
    );
    for _ in 0..100 {
        fresh_vm_next(&sandbox);
        assert_eq!(answer(&sandbox, source), first);
    }
}
