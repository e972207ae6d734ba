//! What the case files cannot say: the registry, determinism over many repetitions, the bare
//! node-id rule across cells, loading, and that garbage never panics.

use std::sync::Arc;

use proptest::prelude::*;
use writ_cells::{
    Decision, FaultKind, JexlCell, JsCell, JsonataCell, LuaCell, OutputTable, PredicateContext, PredicateEvaluator,
    PredicateNode, Registry, StructuredCell, Verdict,
};
use writ_core::{Object, Str, Value, block_on, parse_json};

/// A table as the cases read it: a fetch, a check on one branch, a node reached on two.
fn outputs() -> OutputTable {
    let mut outputs = OutputTable::new();
    outputs.insert(
        "fetch",
        "",
        [parse_json(r#"{"status": "ready", "count": 3, "items": [{"name": "ada", "age": 36}]}"#).unwrap()],
    );
    outputs.insert(
        "check",
        "e2:e0",
        [parse_json(r#"{"status": "amber", "score": 72}"#).unwrap()],
    );
    outputs.insert("n1", "e2:e0", [parse_json(r#"{"v": 1}"#).unwrap()]);
    outputs.insert("n1", "e2:e1", [parse_json(r#"{"v": 2}"#).unwrap()]);
    outputs
}

fn context(outputs: OutputTable) -> PredicateContext {
    PredicateContext {
        outputs,
        ..PredicateContext::default()
    }
}

/// Every cell with its defaults.
fn all_cells() -> Vec<Arc<dyn PredicateEvaluator>> {
    vec![
        Arc::new(StructuredCell::default()),
        Arc::new(JexlCell::default()),
        Arc::new(LuaCell::new(lua_limits())),
        Arc::new(JsCell::default()),
        Arc::new(JsonataCell::default()),
    ]
}

/// Lua limits with a short timeout, so runaway garbage stops quickly.
fn lua_limits() -> writ_lua::LuaLimits {
    writ_lua::LuaLimits {
        timeout: std::time::Duration::from_millis(200),
        ..writ_lua::DEFAULT_LIMITS
    }
}

/// For each cell, a select predicate over `check`'s status and the table it reads.
fn status_selects() -> Vec<(Arc<dyn PredicateEvaluator>, Value)> {
    let structured = parse_json(
        r#"{"green": {"path": "check:e2:e0.status", "op": "eq", "value": "green"},
            "amber": {"path": "check:e2:e0.status", "op": "eq", "value": "amber"},
            "red": {"any": []}}"#,
    )
    .unwrap();
    vec![
        (Arc::new(StructuredCell::default()), structured),
        (
            Arc::new(JexlCell::default()),
            Value::from("check.score > 90 ? 'green' : check.status"),
        ),
        (
            Arc::new(LuaCell::new(lua_limits())),
            Value::from("return ctx['check:e2:e0'][1].json.status"),
        ),
        (
            Arc::new(JsCell::default()),
            Value::from("check.score > 90 ? 'green' : check.status"),
        ),
        (
            Arc::new(JsonataCell::default()),
            Value::from("check.score > 90 ? 'green' : check.status"),
        ),
    ]
}

#[test]
fn every_cell_answers_to_its_id_and_validates_a_good_select() {
    let ids: Vec<String> = all_cells().iter().map(|cell| cell.id().to_string()).collect();
    assert_eq!(ids, ["structured", "jexl", "lua", "js", "jsonata"]);
    for (cell, predicate) in status_selects() {
        block_on(cell.load()).unwrap();
        let node = PredicateNode::select("route", cell.id(), &["green", "amber", "red"], predicate);
        block_on(cell.validate(&node)).unwrap_or_else(|error| panic!("{}: {error}", cell.id()));
    }
}

#[test]
fn the_same_snapshot_gives_the_same_verdict_a_thousand_times() {
    let context = context(outputs());
    for (cell, predicate) in status_selects() {
        let node = PredicateNode::select("route", cell.id(), &["green", "amber", "red"], predicate);
        for _ in 0..1_000 {
            let evaluation = block_on(cell.evaluate(&node, &context));
            assert_eq!(
                evaluation.verdict,
                Verdict::Select {
                    case: Some(Str::from("amber"))
                },
                "{}: {:?}",
                cell.id(),
                evaluation.fault
            );
        }
    }
}

#[test]
fn lua_decides_the_same_across_fresh_sandboxes() {
    // Iteration order over a table with string keys is where a VM's hash seed would show.
    let chunk = "local keys = '' for k in pairs(ctx['wide:'][1].json) do keys = keys .. k end return keys";
    let mut wide = Object::new();
    for idx in 0..15 {
        wide.insert(Str::from(format!("k{idx}").as_str()), Value::from(f64::from(idx)));
    }
    let mut table = OutputTable::new();
    table.insert("wide", "", [Value::Object(wide)]);
    let context = context(table);
    let node = PredicateNode::select("order", "lua", &["none"], Value::from(chunk));
    let mut seen: Option<Option<String>> = None;
    for _ in 0..20 {
        let cell = LuaCell::new(lua_limits());
        for _ in 0..50 {
            let evaluation = block_on(cell.evaluate(&node, &context));
            let fault = evaluation.fault.expect("the keys are not a case");
            assert_eq!(fault.kind, FaultKind::BadResult, "{fault}");
            let reported = Some(fault.message);
            match &seen {
                None => seen = Some(reported),
                Some(first) => assert_eq!(first, &reported, "pairs order differs between evaluations"),
            }
        }
    }
}

#[test]
fn nothing_is_wired_by_default() {
    let registry = Registry::new();
    assert_eq!(registry.ids().count(), 0);
    let node = PredicateNode::branch(
        "decide",
        "structured",
        parse_json(r#"{"path": "a:.b", "op": "truthy"}"#).unwrap(),
    );
    let refusal = block_on(registry.validate(&node)).expect_err("no cell is wired");
    assert_eq!(refusal.code, "cell-unwired");
    assert_eq!(refusal.node, Some(Str::from("decide")));
    assert!(
        refusal.message.contains("'decide'") && refusal.message.contains("'structured'"),
        "{refusal}"
    );
    let evaluation = block_on(registry.evaluate(&node, &context(outputs())));
    assert_eq!(evaluation.verdict, Verdict::Branch { matched: false });
    assert_eq!(evaluation.fault.map(|fault| fault.kind), Some(FaultKind::Unwired));
}

#[test]
fn a_registry_routes_each_node_to_the_cell_it_names_and_refuses_duplicates() {
    let mut registry = Registry::new();
    for cell in all_cells() {
        registry.register(cell).unwrap();
    }
    assert_eq!(
        registry.ids().collect::<Vec<_>>(),
        ["structured", "jexl", "lua", "js", "jsonata"]
    );
    let duplicate = registry.register(Arc::new(JsCell::default())).expect_err("js is wired");
    assert_eq!(duplicate.code, "cell-duplicate");
    block_on(registry.load_all()).unwrap();

    let context = context(outputs());
    for (evaluator, predicate) in [
        (
            "structured",
            parse_json(r#"{"path": "fetch:.count", "op": "gt", "value": 2}"#).unwrap(),
        ),
        ("jexl", Value::from("fetch.count > 2")),
        ("lua", Value::from("return ctx['fetch:'][1].json.count > 2")),
        ("js", Value::from("fetch.count > 2")),
        ("jsonata", Value::from("fetch.count > 2")),
    ] {
        let node = PredicateNode::branch("decide", evaluator, predicate);
        block_on(registry.validate(&node)).unwrap_or_else(|error| panic!("{evaluator}: {error}"));
        let evaluation = block_on(registry.evaluate(&node, &context));
        assert_eq!(
            evaluation.verdict,
            Verdict::Branch { matched: true },
            "{evaluator}: {:?}",
            evaluation.fault
        );
    }

    // A cell that is not wired is refused at freeze, naming the node, and faults at run time.
    let mut partial = Registry::new();
    partial.register(Arc::new(StructuredCell::default())).unwrap();
    let node = PredicateNode::branch("gate", "jexl", Value::from("fetch.count > 2"));
    let refusal = block_on(partial.validate(&node)).expect_err("jexl is not wired");
    assert_eq!(refusal.code, "cell-unwired");
    assert!(
        refusal.message.contains("'gate'") && refusal.message.contains("wired: structured"),
        "{refusal}"
    );
    let evaluation = block_on(partial.evaluate(&node, &context));
    assert_eq!(evaluation.verdict, Verdict::Branch { matched: false });
    assert_eq!(evaluation.fault.map(|fault| fault.kind), Some(FaultKind::Unwired));
}

#[test]
fn a_node_reached_on_two_branches_is_reachable_only_through_outputs() {
    let context = context(outputs());
    let decide = |evaluator: &str, source: &str| {
        let cell = all_cells().into_iter().find(|cell| cell.id() == evaluator).unwrap();
        block_on(cell.evaluate(
            &PredicateNode::branch("decide", evaluator, Value::from(source)),
            &context,
        ))
    };
    let holds = writ_cells::Evaluation::decided(Verdict::Branch { matched: true });
    // For js the middle source reads the other branch instead; its bare read is checked below.
    for (evaluator, unique, ambiguous, keyed) in [
        ("jexl", "fetch.count == 3", "n1 == null", "outputs['n1:e2:e1'].v == 2"),
        (
            "jsonata",
            "fetch.count = 3",
            "$not($exists(n1))",
            "outputs.`n1:e2:e1`.v = 2",
        ),
        (
            "js",
            "fetch.count === 3",
            "outputs['n1:e2:e0'].v === 1",
            "outputs['n1:e2:e1'].v === 2",
        ),
    ] {
        for source in [unique, ambiguous, keyed] {
            assert_eq!(decide(evaluator, source), holds, "{evaluator}: {source}");
        }
    }
    // In the js cell reading a name the scope lacks is an error, as every unknown name is in
    // writ's JavaScript subset.
    let evaluation = decide("js", "n1.v === 1");
    assert_eq!(evaluation.verdict, Verdict::Branch { matched: false });
    assert_eq!(
        evaluation.fault.map(|fault| fault.code),
        Some("unknown-reference".to_string())
    );
}

#[test]
fn load_is_idempotent_and_lua_reports_what_its_canaries_verified() {
    for cell in all_cells() {
        block_on(cell.load()).unwrap();
        block_on(cell.load()).unwrap();
    }
    let lua = LuaCell::new(lua_limits());
    let status = lua.status().unwrap();
    assert_eq!(status, lua.status().unwrap(), "one sandbox, built once");
    assert!(matches!(status.guarantee, writ_lua::Guarantee::Full), "{status:?}");
    assert_eq!(status.timeout_ms, Some(200));
}

/// Predicates no cell should accept, and some every cell should survive.
fn garbage_predicates() -> Vec<Value> {
    let mut garbage: Vec<Value> = [
        "",
        " ",
        "(",
        ")",
        "[",
        "{",
        "}",
        "\"",
        "'",
        "`",
        "\\",
        "\u{0}",
        "\u{1b}Lua",
        "===",
        "!",
        "?",
        ":",
        "|",
        "||",
        "&&",
        "..",
        "...",
        "$",
        "$$",
        "@",
        "#",
        "%",
        "^",
        "~>",
        "=>",
        "--",
        "--[[",
        "]]",
        "end",
        "function",
        "return",
        "while true do end",
        "while (true) {}",
        "for (;;) {}",
        "repeat until false",
        "\u{FFFD}",
        "😀",
        "a\u{2028}b",
        "ctx.",
        "outputs[",
        "outputs['",
        "n1:e2:e0",
        "1e999",
        "-",
        "0x",
        "9".repeat(400).as_str(),
    ]
    .iter()
    .map(|text| Value::from(*text))
    .collect();
    garbage.push(Value::from("(".repeat(100_000).as_str()));
    garbage.push(Value::from("[".repeat(100_000).as_str()));
    garbage.push(Value::from("!".repeat(100_000).as_str()));
    garbage.push(Value::from("a.".repeat(50_000).as_str()));
    garbage.push(Value::from("{".repeat(100_000).as_str()));
    for text in [
        "null",
        "true",
        "12",
        "[]",
        "[1, {\"path\": \"a\"}]",
        "{}",
        "{\"path\": 1}",
        "{\"path\": \"a:.b\", \"op\": \"eq\"}",
        "{\"all\": {}}",
        "{\"not\": []}",
        "{\"green\": 1}",
        "{\"path\": \"a:.__proto__\", \"op\": \"exists\"}",
    ] {
        garbage.push(parse_json(text).unwrap());
    }
    let mut deep = parse_json(r#"{"path": "a:.b", "op": "truthy"}"#).unwrap();
    for _ in 0..400 {
        deep = Value::Object(Object::from_entries(vec![(Str::from("not"), deep)]));
    }
    garbage.push(deep);
    garbage
}

/// Tables no real run would make.
fn garbage_tables() -> Vec<OutputTable> {
    let mut tables = vec![OutputTable::new(), outputs()];
    let mut odd = OutputTable::new();
    odd.insert("", "", [Value::Null]);
    odd.insert("__proto__", "", [Value::from("x")]);
    odd.insert("constructor", "e2:e0", [Value::Undefined, Value::from(1.0)]);
    odd.insert("😀", "", [parse_json("[[[[]]]]").unwrap()]);
    odd.insert("outputs", "", [parse_json(r#"{"outputs": {}}"#).unwrap()]);
    tables.push(odd);
    let mut deep = Value::Null;
    for _ in 0..10_000 {
        deep = Value::from(vec![deep]);
    }
    let mut nested = OutputTable::new();
    nested.insert("deep", "", [deep]);
    tables.push(nested);
    let mut wide = OutputTable::new();
    wide.insert("wide", "", (0..2_000).map(|idx| Value::from(f64::from(idx))));
    tables.push(wide);
    tables
}

#[test]
fn garbage_never_panics_and_every_fault_is_negative() {
    let cells = all_cells();
    let tables = garbage_tables();
    let nodes = |predicate: &Value, cell: &str| {
        [
            PredicateNode::branch("g", cell, predicate.clone()),
            PredicateNode::select("g", cell, &["a", "b"], predicate.clone()),
            PredicateNode::select("g", cell, &[], predicate.clone()),
        ]
    };
    for predicate in garbage_predicates() {
        for cell in &cells {
            for node in nodes(&predicate, cell.id()) {
                let _ = block_on(cell.validate(&node));
                for table in &tables {
                    let evaluation = block_on(cell.evaluate(&node, &context(table.clone())));
                    if let Some(fault) = &evaluation.fault {
                        assert_eq!(evaluation.verdict, node.negative(), "{}: {fault}", cell.id());
                        assert!(!fault.message.is_empty());
                    }
                    if let (Decision::Select { cases }, Verdict::Select { case: Some(case) }) =
                        (&node.decision, &evaluation.verdict)
                    {
                        assert!(cases.contains(case), "{}: a verdict names a declared case", cell.id());
                    }
                }
            }
        }
    }
}

/// Short sources over the characters the five dialects use.
fn arb_source() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("fetch"),
            Just("outputs"),
            Just("ctx"),
            Just("."),
            Just("["),
            Just("]"),
            Just("("),
            Just(")"),
            Just("'fetch:'"),
            Just("1"),
            Just("0"),
            Just(">"),
            Just("=="),
            Just("="),
            Just("?"),
            Just(":"),
            Just("|"),
            Just("&&"),
            Just("and"),
            Just("not"),
            Just("$"),
            Just("count"),
            Just("return "),
            Just(" "),
            Just("{"),
            Just("}"),
            Just("\""),
            Just("n1"),
            Just("!"),
            Just("-"),
            Just("+"),
            Just("[1]"),
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_source_gets_a_verdict(source in arb_source()) {
        let context = context(outputs());
        for cell in [
            Arc::new(JexlCell::default()) as Arc<dyn PredicateEvaluator>,
            Arc::new(JsCell::default()),
            Arc::new(JsonataCell::default()),
        ] {
            let node = PredicateNode::select("g", cell.id(), &["1", "ready"], Value::from(source.as_str()));
            let evaluation = block_on(cell.evaluate(&node, &context));
            if evaluation.fault.is_some() {
                prop_assert_eq!(evaluation.verdict, node.negative());
            }
        }
    }
}

#[test]
fn a_jexl_cell_calls_only_what_it_registers() {
    let jexl = writ_jexl::Jexl::new().with_standard_transforms(&["upper"]).unwrap();
    let cell = JexlCell::new(jexl)
        .with_function("pick", |args| Ok(args.first().cloned().unwrap_or_default()))
        .with_function("fail", |_| Err("the service is down".to_string()));
    let context = context(outputs());
    let branch = |source: &str| PredicateNode::branch("decide", "jexl", Value::from(source));

    let upper = branch("fetch.status|upper == 'READY' && pick(fetch.count) == 3");
    block_on(cell.validate(&upper)).unwrap();
    assert_eq!(
        block_on(cell.evaluate(&upper, &context)).verdict,
        Verdict::Branch { matched: true }
    );

    let lower = branch("fetch.status|lower == 'ready'");
    let refusal = block_on(cell.validate(&lower)).expect_err("lower is not registered");
    assert!(
        refusal.message.contains("transform 'lower'") && refusal.message.contains("registered: upper"),
        "{refusal}"
    );
    let evaluation = block_on(cell.evaluate(&lower, &context));
    assert_eq!(
        evaluation.fault.map(|fault| (fault.kind, fault.code)),
        Some((FaultKind::InvalidPredicate, "jexl-unknown-transform".to_string()))
    );

    let failing = branch("fail(fetch.count)");
    block_on(cell.validate(&failing)).unwrap();
    let evaluation = block_on(cell.evaluate(&failing, &context));
    assert_eq!(evaluation.verdict, Verdict::Branch { matched: false });
    let fault = evaluation.fault.expect("the function failed");
    assert_eq!(
        (fault.kind, fault.code.as_str()),
        (FaultKind::Runtime, "jexl-transform")
    );
    assert!(fault.message.contains("the service is down"), "{fault}");

    // A function registered on the engine itself is known at freeze as well; one registered
    // nowhere is refused there, naming what the cell knows.
    let direct = JexlCell::new(writ_jexl::Jexl::new().with_function("known", |_| Ok(Value::Null)));
    block_on(direct.validate(&branch("known()"))).expect("registered on the engine");
    let refusal = block_on(direct.validate(&branch("hidden()"))).expect_err("registered nowhere");
    assert!(
        refusal.message.contains("function 'hidden'") && refusal.message.contains("known"),
        "{refusal}"
    );
}

#[test]
fn a_runaway_lua_predicate_stops_within_its_timeout() {
    let cell = LuaCell::new(writ_lua::LuaLimits {
        instruction_limit: u64::MAX,
        timeout: std::time::Duration::from_millis(200),
        ..writ_lua::DEFAULT_LIMITS
    });
    block_on(cell.load()).unwrap();
    let node = PredicateNode::branch("spin", "lua", Value::from("while true do end"));
    let started = std::time::Instant::now();
    let evaluation = block_on(cell.evaluate(&node, &context(outputs())));
    let elapsed = started.elapsed();
    assert_eq!(evaluation.verdict, Verdict::Branch { matched: false });
    assert_eq!(
        evaluation.fault.map(|fault| fault.code),
        Some("lua-timeout".to_string())
    );
    assert!(
        elapsed < std::time::Duration::from_millis(250),
        "stopped after {elapsed:?}"
    );
    // The cell lives on and decides the next frame.
    let next = PredicateNode::branch("next", "lua", Value::from("return ctx['fetch:'][1].json.count == 3"));
    assert_eq!(
        block_on(cell.evaluate(&next, &context(outputs()))).verdict,
        Verdict::Branch { matched: true }
    );
}
