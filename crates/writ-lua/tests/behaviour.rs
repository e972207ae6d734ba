//! What a user of the sandbox relies on: status after load, marshalling both ways, errors with
//! their codes and positions, isolation between evaluations, determinism over fresh VMs.

use std::time::Duration;

use writ_core::{Object, Str, Value, parse_json};
use writ_lua::{DEFAULT_LIMITS, Guarantee, LuaLimits, Sandbox, Status, outcome};

/// A sandbox with the default limits.
fn sandbox() -> Sandbox {
    Sandbox::new(DEFAULT_LIMITS).expect("sandbox builds")
}

/// Parses a JSON test value.
fn json(text: &str) -> Value {
    parse_json(text).expect("test JSON parses")
}

/// Evaluates `source` over `context` and writes the answer as JSON ("undefined" for nil).
fn answer(sandbox: &Sandbox, source: &str, context: &Value) -> String {
    match sandbox.evaluate(source, context) {
        Ok(Value::Undefined) => "undefined".to_owned(),
        Ok(value) => value.to_json_string().expect("answer encodes"),
        Err(error) => panic!("{source}: {error}"),
    }
}

/// The code of the error `source` fails with.
fn code(sandbox: &Sandbox, source: &str, context: &Value) -> &'static str {
    match sandbox.evaluate(source, context) {
        Ok(value) => panic!("{source}: expected an error, got {value:?}"),
        Err(error) => error.code().as_str(),
    }
}

#[test]
fn status_after_load_reports_every_bound_verified() {
    let limits = LuaLimits {
        instruction_limit: 123_456,
        memory_ceiling_bytes: 8 << 20,
        timeout: Duration::from_millis(750),
    };
    let status = Sandbox::new(limits).expect("sandbox builds").status();
    assert_eq!(
        status,
        Status {
            guarantee: Guarantee::Full,
            instruction_limit: Some(123_456),
            memory_ceiling_bytes: Some(8 << 20),
            timeout_ms: Some(750),
        }
    );
    assert_eq!(sandbox().status().timeout_ms, Some(1000));
}

#[test]
fn sandbox_is_send_and_sync_and_serves_threads_at_once() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Sandbox>();
    let sandbox = sandbox();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let sandbox = &sandbox;
            scope.spawn(move || {
                for i in 0..200 {
                    let context = json(&format!(r#"{{"t": {t}, "i": {i}}}"#));
                    assert_eq!(
                        answer(sandbox, "return ctx.t * 1000 + ctx.i", &context),
                        format!("{}", t * 1000 + i)
                    );
                }
            });
        }
    });
}

#[test]
fn context_crosses_into_lua_as_tables_strings_numbers_and_booleans() {
    let sandbox = sandbox();
    let context = json(
        r#"{"order": {"total": 149.5, "paid": true, "tags": ["a", "b", "c"], "note": null},
            "name": "Zoë ✓", "count": 3, "ctx:key": {"nested": [[1, 2], [3]]}}"#,
    );
    let probes = [
        ("return ctx.order.total", "149.5"),
        ("return ctx.order.paid", "true"),
        ("return #ctx.order.tags", "3"),
        ("return ctx.order.tags[1] .. ctx.order.tags[3]", r#""ac""#),
        ("return ctx.order.note == nil", "true"),
        ("return ctx.missing == nil", "true"),
        ("return type(ctx.count)", r#""number""#),
        ("return ctx.count == 3", "true"),
        ("return ctx.name", r#""Zoë ✓""#),
        ("return #ctx.name", "8"),
        ("return utf8.len(ctx.name)", "5"),
        ("return ctx['ctx:key'].nested[1][2] + ctx['ctx:key'].nested[2][1]", "5"),
    ];
    for (source, expected) in probes {
        assert_eq!(answer(&sandbox, source, &context), expected, "{source}");
    }
}

#[test]
fn null_in_an_array_leaves_a_hole_and_undefined_context_is_nil() {
    let sandbox = sandbox();
    let context = json(r#"{"a": [1, null, 3]}"#);
    assert_eq!(
        answer(&sandbox, "return ctx.a[2] == nil and ctx.a[3] == 3", &context),
        "true"
    );
    assert_eq!(answer(&sandbox, "return ctx == nil", &Value::Undefined), "true");
    assert_eq!(answer(&sandbox, "return ctx == nil", &Value::Null), "true");
}

#[test]
fn lone_surrogates_in_context_strings_become_replacement_characters() {
    let sandbox = sandbox();
    let text = Str::from_utf16(&[0x61, 0xD800, 0x62]);
    let context = Value::Object(Object::from_entries(vec![(Str::from("s"), Value::String(text))]));
    assert_eq!(answer(&sandbox, "return ctx.s", &context), "\"a\u{FFFD}b\"");
    assert_eq!(answer(&sandbox, "return #ctx.s", &context), "5");
}

#[test]
fn answers_cross_back_as_values() {
    let sandbox = sandbox();
    let probes = [
        ("return nil", "undefined"),
        ("return", "undefined"),
        ("local x = 1", "undefined"),
        ("return 1, 2", "1"),
        ("return 0.1 + 0.2", "0.30000000000000004"),
        ("return 2^53 + 1", "9007199254740992"),
        ("return 'text'", r#""text""#),
        ("return '\\255ok'", "\"\u{FFFD}ok\""),
        ("return true", "true"),
        ("return {1, 'two', false}", r#"[1,"two",false]"#),
        ("return {}", "[]"),
        (
            "return {zeta = 1, alpha = {beta = 2}, mid = {}}",
            r#"{"alpha":{"beta":2},"mid":[],"zeta":1}"#,
        ),
        ("return {[1.0] = 'a', [2] = 'b'}", r#"["a","b"]"#),
        ("local t = {1} return {t, t}", "[[1],[1]]"),
        ("return 0/0", "null"),
        ("return math.huge", "null"),
        ("return -math.huge", "null"),
    ];
    for (source, expected) in probes {
        assert_eq!(answer(&sandbox, source, &Value::Undefined), expected, "{source}");
    }
    let nan = sandbox.evaluate("return 0/0", &Value::Undefined).expect("answers");
    assert!(matches!(nan, Value::Number(n) if n.is_nan()));
}

#[test]
fn tables_without_a_json_form_are_unrepresentable() {
    let sandbox = sandbox();
    for source in [
        "return {1, 2, x = 3}",
        "return {[1] = 'a', [3] = 'c'}",
        "return {[0] = 'zero'}",
        "return {[1.5] = 'half'}",
        "return {[true] = 1}",
        "local t = {} t[1] = t return t",
        "return {f = function() end}",
        "return coroutine.create(function() end)",
        "local t = {} for _ = 1, 600 do t = {t} end return t",
    ] {
        assert_eq!(
            code(&sandbox, source, &Value::Undefined),
            "lua-unrepresentable",
            "{source}"
        );
    }
    let error = sandbox
        .evaluate("return {1, 2, x = 3}", &Value::Undefined)
        .expect_err("refused");
    assert!(error.message().contains("string (\"x\")"), "{}", error.message());
}

#[test]
fn context_nested_too_deep_or_too_large_is_refused_before_the_chunk_runs() {
    let sandbox = sandbox();
    let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    let deep = writ_core::parse_json_with_depth(&deep, 1000).expect("deep JSON parses");
    assert_eq!(code(&sandbox, "return 1", &deep), "lua-unrepresentable");
    let small = LuaLimits {
        memory_ceiling_bytes: 1 << 20,
        ..DEFAULT_LIMITS
    };
    let big = Value::String(Str::from("x".repeat(2 << 20).as_str()));
    let error = sandbox.evaluate_with("return 1", &big, &small).expect_err("refused");
    assert_eq!(error.code().as_str(), "lua-memory");
    assert_eq!(answer(&sandbox, "return #ctx", &big), format!("{}", 2 << 20));
}

#[test]
fn errors_carry_their_code_lua_text_and_position() {
    let sandbox = sandbox();
    let cases = [
        ("return 1 +", "lua-syntax", "chunk:1:"),
        ("error('boom')", "lua-runtime", "chunk:1: boom"),
        ("local x = nil\nreturn x.field", "lua-runtime", "chunk:2:"),
        ("return missing_function()", "lua-runtime", "chunk:1:"),
        ("error({})", "lua-runtime", "raised a table"),
        ("error('x', 0)", "lua-runtime", "x"),
    ];
    for (source, expected_code, text) in cases {
        let error = sandbox.evaluate(source, &Value::Undefined).expect_err(source);
        assert_eq!(error.code().as_str(), expected_code, "{source}: {error}");
        assert!(error.message().contains(text), "{source}: {error}");
        assert_eq!(
            error.to_string(),
            format!("{}: {}", error.code().as_str(), error.message())
        );
    }
    let long = sandbox
        .evaluate("error(('x'):rep(1e6), 0)", &Value::Undefined)
        .expect_err("fails");
    assert!(long.message().len() < 2000, "{} bytes", long.message().len());
}

#[test]
fn library_errors_name_the_chunks_line_not_the_preludes() {
    let sandbox = sandbox();
    for (source, message) in [
        (
            "local x = 1\nreturn string.find('a', '%')",
            "chunk:2: malformed pattern (ends with '%')",
        ),
        (
            "local x = 1\nreturn ('a'):find('[a')",
            "chunk:2: malformed pattern (missing ']')",
        ),
        (
            "local x = 1\nreturn string.format('%y', 1)",
            "chunk:2: invalid option '%y' to 'format'",
        ),
        (
            "local t = {3, 'x', 1}\ntable.sort(t) return t",
            "chunk:2: attempt to compare string < number",
        ),
        // An error a chunk's own comparator raises keeps the comparator's line.
        (
            "table.sort({3, 1}, function(a, b)\nreturn a.x < b end)",
            "chunk:2: attempt to index number with 'x'",
        ),
    ] {
        let error = sandbox.evaluate(source, &Value::Undefined).expect_err(source);
        assert_eq!(error.message(), message, "{source}");
    }
    // Caught by the chunk, the same errors carry no position at all: nothing of writ's
    // prelude shows through, so an answer cannot change when the prelude does.
    for (source, message) in [
        (
            "return select(2, pcall(string.find, 'a', '%'))",
            "malformed pattern (ends with '%')",
        ),
        (
            "return select(2, pcall(function() return ('a'):find('[a') end))",
            "malformed pattern (missing ']')",
        ),
        (
            "return select(2, pcall(table.sort, {3, 'x', 1}))",
            "attempt to compare string < number",
        ),
    ] {
        assert_eq!(
            answer(&sandbox, source, &Value::Undefined),
            format!("{message:?}"),
            "{source}"
        );
    }
}

#[test]
fn pcall_still_catches_ordinary_errors() {
    let sandbox = sandbox();
    let source = "local ok, e = pcall(error, 'nope', 0) return {ok, e}";
    assert_eq!(answer(&sandbox, source, &Value::Undefined), r#"[false,"nope"]"#);
    let source = "local ok, e = xpcall(function() error('in', 0) end, function(m) return 'handled ' .. m end) return e";
    assert_eq!(answer(&sandbox, source, &Value::Undefined), r#""handled in""#);
    let source = "local co = coroutine.create(function() error('c', 0) end) return {coroutine.resume(co)}";
    assert_eq!(answer(&sandbox, source, &Value::Undefined), r#"[false,"c"]"#);
}

#[test]
fn check_compiles_without_running_and_refuses_bytecode() {
    let sandbox = sandbox();
    assert!(sandbox.check("while true do end").is_ok());
    assert_eq!(
        sandbox.check("return (").expect_err("syntax").code().as_str(),
        "lua-syntax"
    );
    assert_eq!(
        sandbox.check("\u{1b}Lua\u{54}").expect_err("bytecode").code().as_str(),
        "lua-bytecode-refused"
    );
    let bytecode = mlua::chunk::Compiler::new().compile("return 1").expect("compiles");
    let text = String::from_utf8_lossy(&bytecode);
    assert_eq!(
        sandbox.check(&text).expect_err("bytecode").code().as_str(),
        "lua-bytecode-refused"
    );
    assert_eq!(code(&sandbox, &text, &Value::Undefined), "lua-bytecode-refused");
    let huge = format!("return {}", "1 + ".repeat(20_000) + "1");
    assert_eq!(
        sandbox.check(&huge).expect_err("too long").code().as_str(),
        "lua-syntax"
    );
}

#[test]
fn deeply_nested_source_is_a_syntax_error_on_a_small_stack() {
    let nested = format!("return {}1{}", "(".repeat(5000), ")".repeat(5000));
    let tables = format!("return {}{}", "{".repeat(5000), "}".repeat(5000));
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let sandbox = sandbox();
            assert_eq!(code(&sandbox, &nested, &Value::Undefined), "lua-syntax");
            assert_eq!(code(&sandbox, &tables, &Value::Undefined), "lua-syntax");
            let recursion = "local function f() return pcall(f) end return f()";
            assert!(sandbox.evaluate(recursion, &Value::Undefined).is_err());
            let sorting =
                "local function f() local t = {2, 1} table.sort(t, function(a, b) f() return a < b end) end f()";
            assert_eq!(code(&sandbox, sorting, &Value::Undefined), "lua-stack");
            let wrapped = "local function f() coroutine.wrap(f)() end f()";
            assert_eq!(code(&sandbox, wrapped, &Value::Undefined), "lua-stack");
        })
        .expect("thread starts")
        .join()
        .expect("no stack overflow");
}

#[test]
fn each_bound_has_its_code() {
    let sandbox = sandbox();
    let counted = LuaLimits {
        instruction_limit: 1000,
        ..DEFAULT_LIMITS
    };
    let under = "local n = 0 for i = 1, 900 do n = n + i end return n";
    assert_eq!(
        sandbox.evaluate_with(under, &Value::Undefined, &counted),
        Ok(Value::Number(405_450.0))
    );
    let over = "local n = 0 for i = 1, 1100 do n = n + i end return n";
    assert_eq!(
        sandbox
            .evaluate_with(over, &Value::Undefined, &counted)
            .expect_err("over")
            .code()
            .as_str(),
        "lua-instruction-limit"
    );
    let small = LuaLimits {
        memory_ceiling_bytes: 1 << 20,
        ..DEFAULT_LIMITS
    };
    let big = "return #('x'):rep(2e6)";
    assert_eq!(
        sandbox
            .evaluate_with(big, &Value::Undefined, &small)
            .expect_err("memory")
            .code()
            .as_str(),
        "lua-memory"
    );
    assert_eq!(answer(&sandbox, big, &Value::Undefined), "2000000");
    let quick = LuaLimits {
        timeout: Duration::from_millis(30),
        instruction_limit: u64::MAX,
        ..DEFAULT_LIMITS
    };
    let slow = "while true do end";
    assert_eq!(
        sandbox
            .evaluate_with(slow, &Value::Undefined, &quick)
            .expect_err("timeout")
            .code()
            .as_str(),
        "lua-timeout"
    );
    let error = sandbox
        .evaluate_with(slow, &Value::Undefined, &quick)
        .expect_err("timeout");
    assert!(error.message().contains("30 ms"), "{error}");
}

#[test]
fn nothing_a_chunk_does_reaches_the_next_evaluation() {
    let sandbox = sandbox();
    let context = json(r#"{"list": [1, 2, 3]}"#);
    // Several rounds, so that every pooled VM serves a writer and then a reader.
    for _ in 0..20 {
        assert_eq!(
            answer(
                &sandbox,
                "leaked = 'yes' ctx.list[1] = 99 ctx.extra = 1 return leaked",
                &context
            ),
            r#""yes""#
        );
        assert_eq!(answer(&sandbox, "return leaked", &context), "undefined");
        assert_eq!(answer(&sandbox, "return {ctx.list[1], ctx.extra}", &context), "[1]");
        assert_eq!(
            code(&sandbox, "string.upper = function() return 'pwned' end", &context),
            "lua-runtime"
        );
        assert_eq!(code(&sandbox, "table.insert(table, 1)", &context), "lua-runtime");
        assert_eq!(answer(&sandbox, "return ('a'):upper()", &context), r#""A""#);
        assert_eq!(
            answer(
                &sandbox,
                "string = {upper = function() return 'local' end} return string.upper('a')",
                &context
            ),
            r#""local""#
        );
        assert_eq!(answer(&sandbox, "return string.upper('a')", &context), r#""A""#);
    }
    assert_eq!(json(r#"{"list": [1, 2, 3]}"#), context, "the host's value is untouched");
}

#[test]
fn a_vm_that_hit_a_bound_is_replaced_and_the_sandbox_carries_on() {
    let sandbox = sandbox();
    let quick = LuaLimits {
        timeout: Duration::from_millis(20),
        ..DEFAULT_LIMITS
    };
    for _ in 0..10 {
        let caught = "local t = {} pcall(function() for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end end) return #t";
        let error = sandbox
            .evaluate_with(caught, &Value::Undefined, &quick)
            .expect_err("bound");
        assert!(
            matches!(
                error.code().as_str(),
                "lua-memory" | "lua-timeout" | "lua-instruction-limit"
            ),
            "{error}"
        );
        assert_eq!(answer(&sandbox, "return 6 * 7", &Value::Undefined), "42");
    }
}

#[test]
fn the_same_chunk_and_context_answer_the_same_in_a_thousand_fresh_vms() {
    let sandbox = sandbox();
    let fields: Vec<String> = (0..40)
        .map(|i| format!(r#""key{}": {}"#, (i * 7919) % 1000, i))
        .collect();
    let context = json(&format!("{{{}}}", fields.join(",")));
    let source = "
        local keys = {}
        for k, v in pairs(ctx) do keys[#keys + 1] = k .. '=' .. tostring(v) end
        local mixed = {10, 20, 30, alpha = 1, [7] = 'seven', beta = true, [2.5] = 'x'}
        for k in pairs(mixed) do keys[#keys + 1] = tostring(k) end
        local seen = {}
        for word in ('the quick brown fox jumps over the lazy dog'):gmatch('%a+') do seen[word] = #word end
        for k, v in next, seen do keys[#keys + 1] = k .. v end
        keys[#keys + 1] = string.format('%.17g|%s|%q', math.pi / 3, tostring({}), 'q')
        return table.concat(keys, ',')";
    // A chunk that spends its budget discards the VM it ran on, and the pool hands out the
    // VM it got back last: so each probe below runs on a VM built just for it.
    let spend = LuaLimits {
        instruction_limit: 10,
        ..DEFAULT_LIMITS
    };
    let first = answer(&sandbox, source, &context);
    for _ in 0..1000 {
        assert_eq!(
            code_with(&sandbox, "while true do end", &spend),
            "lua-instruction-limit"
        );
        assert_eq!(answer(&sandbox, source, &context), first);
    }
    // And the same in VMs that have served other chunks in between.
    for i in 0..200 {
        answer(
            &sandbox,
            &format!("local t = {{}} for j = 1, {i} do t['k' .. j] = j end return #t"),
            &context,
        );
        assert_eq!(answer(&sandbox, source, &context), first);
    }
}

/// The code of the error `source` fails with under `limits`.
fn code_with(sandbox: &Sandbox, source: &str, limits: &LuaLimits) -> &'static str {
    sandbox
        .evaluate_with(source, &Value::Undefined, limits)
        .expect_err(source)
        .code()
        .as_str()
}

#[test]
fn no_clock_and_no_randomness_are_reachable() {
    let sandbox = sandbox();
    for source in [
        "return os",
        "return math.random",
        "return math.randomseed",
        "return collectgarbage",
        "return gcinfo",
    ] {
        assert_eq!(answer(&sandbox, source, &Value::Undefined), "undefined", "{source}");
    }
    assert_eq!(answer(&sandbox, "return math.noise == nil", &Value::Undefined), "false");
}

#[test]
fn outcome_is_the_cli_envelope() {
    let sandbox = sandbox();
    let context = json(r#"{"n": 2}"#);
    assert_eq!(
        outcome(&sandbox, "return {n = ctx.n * 2}", &context).to_envelope(),
        r#"{"ok":true,"value":{"n":4}}"#
    );
    assert_eq!(
        outcome(&sandbox, "return nil", &context).to_envelope(),
        r#"{"ok":true,"undefined":true}"#
    );
    let failed = outcome(&sandbox, "error('bad', 0)", &context).to_envelope();
    assert_eq!(failed, r#"{"ok":false,"error":{"code":"lua-runtime","message":"bad"}}"#);
}

#[test]
fn plain_find_over_a_long_subject_answers_as_luau_does() {
    let sandbox = sandbox();
    let context = json(&format!(r#"{{"s": "{}needle{}"}}"#, "a".repeat(3000), "b".repeat(3000)));
    let probes = [
        ("return {ctx.s:find('needle')}", "[3001,3006]"),
        ("return {string.find(ctx.s, 'needle', 1, true)}", "[3001,3006]"),
        ("return {ctx.s:find('needle', 3002, true)}", "[]"),
        ("return {ctx.s:find('needle', -3006, true)}", "[3001,3006]"),
        ("return {ctx.s:find('', 10, true)}", "[10,9]"),
        ("return {ctx.s:find('x', #ctx.s + 2, true)}", "[]"),
        ("return {ctx.s:find('ne+dle')}", "[3001,3006]"),
        ("return {ctx.s:find('a.b', 1, true)}", "[]"),
    ];
    for (source, expected) in probes {
        assert_eq!(answer(&sandbox, source, &context), expected, "{source}");
    }
}

#[test]
fn find_answers_as_luau_does_for_every_kind_of_pattern_and_start() {
    // writ's string.find jumps to the first place a pattern's literal first byte stands before
    // matching; the answers, captures and errors must be Luau's own. Plain Luau is the oracle.
    let plain = mlua::Lua::new_with(mlua::StdLib::STRING | mlua::StdLib::TABLE, mlua::LuaOptions::default())
        .expect("plain Luau builds");
    let sandbox = sandbox();
    let source = "local r = table.pack(pcall(string.find, ctx.s, ctx.p, ctx.i)) \
                  local out = {} for k = 1, r.n do out[k] = tostring(r[k]) end return table.concat(out, ' ')";
    let oracle = plain.load(source).into_function().expect("oracle chunk compiles");
    let subjects = [
        String::new(),
        "abc".to_owned(),
        "aaa".to_owned(),
        "Re: invoice INV-20391 for the March shipment, INV-7".to_owned(),
        "xx%yy]z)a*b+c-d?e$".to_owned(),
        format!("{}ab{}", "b".repeat(1500), "a".repeat(10)),
    ];
    let patterns = [
        "a", "b", "I", "INV", "INV%-%d+", "a+", "a*b", "a-b", "a?b", "ab?", "ab*", "x", "$", "a$", "^a", "%d", "[ab]",
        "(a)(b)", "a()", "aa", "a%", "a[", "a(", "%", "", "]", "]z", ")", "z)", "*", "y%]", "e%$", "c-d", "(b)(%a+)",
    ];
    let starts = ["null", "1", "2", "3", "-1", "-3", "0", "1600", "100000", "\"2\""];
    let mut compared = 0;
    for s in &subjects {
        for p in patterns {
            for i in starts {
                let context = json(&format!(r#"{{"s": {s:?}, "p": {p:?}, "i": {i}}}"#));
                let ctx = plain.create_table().expect("ctx table");
                ctx.raw_set("s", s.as_str()).expect("s");
                ctx.raw_set("p", p).expect("p");
                match i {
                    "null" => {}
                    "\"2\"" => ctx.raw_set("i", "2").expect("i"),
                    number => ctx
                        .raw_set("i", number.parse::<f64>().expect("start parses"))
                        .expect("i"),
                }
                plain.globals().raw_set("ctx", ctx).expect("ctx");
                let expected: String = oracle.call(()).expect("oracle runs");
                let got = match sandbox.evaluate(source, &context).expect("sandbox runs") {
                    Value::String(text) => text.to_string_lossy().into_owned(),
                    other => panic!("find({s:?}, {p:?}, {i}) answered {other:?}"),
                };
                // A pattern error the chunk catches itself reads exactly as Luau's own: no line
                // of writ's prelude, which is compiled without line information, shows through.
                assert_eq!(got, expected, "find({s:?}, {p:?}, {i})");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, subjects.len() * patterns.len() * starts.len());
}

#[test]
fn luaus_own_type_errors_are_told_from_errors_the_chunk_raises() {
    let sandbox = sandbox();
    for (source, message) in [
        ("local t = nil\nreturn t.x", "chunk:2: attempt to index nil with 'x'"),
        ("local f = nil\nreturn f()", "chunk:2: attempt to call a nil value"),
        ("return 1 < 'x'", "chunk:1: attempt to compare number < string"),
        (
            "return {} + 1",
            "chunk:1: attempt to perform arithmetic (add) on table and number",
        ),
        ("return 'a' .. {}", "chunk:1: attempt to concatenate string with table"),
        ("return #5", "chunk:1: attempt to get length of a number value"),
        ("for _ in 5 do end", "chunk:1: attempt to iterate over a number value"),
        (
            "local t = {1, 'x'}\ntable.sort(t) return t",
            "chunk:2: attempt to compare string < number",
        ),
        (
            "return string.rep(5, {})",
            "chunk:1: invalid argument #2 to 'rep' (number expected, got table)",
        ),
    ] {
        let error = sandbox.evaluate(source, &Value::Undefined).expect_err(source);
        assert_eq!(
            (error.code().as_str(), error.message()),
            ("lua-runtime", message),
            "{source}"
        );
        // A call of nil is most often a function the sandbox does not provide, not a type error.
        let type_error = !message.contains("invalid argument") && !message.contains("attempt to call");
        assert_eq!(error.is_type_error(), type_error, "{source}");
    }
    for source in [
        "error('attempt to index nil with x')",
        "error('attempt to call a nil value', 0)",
        "local ok, e = pcall(function() return nil .. 'x' end) error(e, 0)",
    ] {
        let error = sandbox.evaluate(source, &Value::Undefined).expect_err(source);
        assert_eq!(error.code().as_str(), "lua-runtime", "{source}");
        assert!(!error.is_type_error(), "{source}: {}", error.message());
    }
}

#[test]
fn an_answer_of_shared_tables_is_held_to_the_memory_ceiling_written_out() {
    let sandbox = sandbox();
    // Written out, a table doubled `levels` times is 2^(levels + 1) - 1 tables of 16 bytes.
    let doubled = |levels: u32| format!("local t = {{}} for i = 1, {levels} do t = {{t, t}} end return t");
    let small = LuaLimits {
        memory_ceiling_bytes: 1 << 20,
        ..DEFAULT_LIMITS
    };
    let at = sandbox
        .evaluate_with(&doubled(15), &Value::Undefined, &small)
        .expect("16 * (2^16 - 1) bytes fit in 1 MiB");
    assert_eq!(at.to_json_string().map(|text| text.len()), Some(5 * (1 << 15) - 3));
    let over = sandbox
        .evaluate_with(&doubled(16), &Value::Undefined, &small)
        .expect_err("16 * (2^17 - 1) bytes do not");
    assert_eq!(over.code().as_str(), "lua-memory");
    assert!(over.message().contains("answer"), "{over}");
    // With no instruction limit, a doubling the VM holds in a few kilobytes stops at the
    // ceiling, not at the clock, and within its timeout.
    let raised = LuaLimits {
        instruction_limit: u64::MAX,
        timeout: Duration::from_secs(2),
        ..DEFAULT_LIMITS
    };
    let started = std::time::Instant::now();
    let error = sandbox
        .evaluate_with(&doubled(60), &Value::Undefined, &raised)
        .expect_err("2^61 tables");
    assert_eq!(error.code().as_str(), "lua-memory");
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    // A table returned twice is still written twice.
    assert_eq!(
        answer(&sandbox, "local t = {a = {1}} return {t, t, {t}}", &Value::Undefined),
        r#"[{"a":[1]},{"a":[1]},[{"a":[1]}]]"#
    );
}
