//! The parser's tests: trees compared with jsonata-js's (in a canonical form both sides can
//! produce), every error code, and the depth bounds.
//!
//! [`FIXTURES`] was made by running jsonata-js 2.2.2's parser (`jsonata(expr).ast()`) over
//! every expression of the suite's parent-operator group and over expressions written to reach
//! each construct and error, and writing each tree in the canonical form [`canon`] writes.

use serde_json::{Map, Value as Json, json};

use super::{MAX_DEPTH, parse};
use crate::ast::{BinaryOp, Kind, Node, Stage};

/// The canonical form of a tree, as [`FIXTURES`] holds jsonata-js's: node types and fields
/// under jsonata-js's names (`?:` and `??`, which jsonata-js rewrites into conditions, as
/// `elvis` and `coalesce`), positions, and every mark the post-parse stage sets.
fn canon(node: &Node) -> Json {
    let mut o = Map::new();
    let mut put = |k: &str, v: Json| {
        o.insert(k.to_owned(), v);
    };
    let ty = match &node.kind {
        Kind::Path(_) => "path",
        Kind::Binary(..) => "binary",
        Kind::Negate(_) | Kind::Array(_) | Kind::Object(_) => "unary",
        Kind::Name(_) => "name",
        Kind::String(_) => "string",
        Kind::Number(_) => "number",
        Kind::Bool(_) | Kind::Null => "value",
        Kind::Wildcard => "wildcard",
        Kind::Descendant => "descendant",
        Kind::Parent(_) => "parent",
        Kind::Condition(..) => "condition",
        Kind::Elvis(..) => "elvis",
        Kind::Coalesce(..) => "coalesce",
        Kind::Block(_) => "block",
        Kind::Bind(..) => "bind",
        Kind::Regex(_) => "regex",
        Kind::Call(_) => "function",
        Kind::Partial(_) => "partial",
        Kind::Placeholder => "operator",
        Kind::Variable(_) => "variable",
        Kind::Lambda(_) => "lambda",
        Kind::Apply(..) => "apply",
        Kind::Transform(_) => "transform",
        Kind::Sort(_) => "sort",
    };
    put("type", json!(ty));
    if !matches!(node.kind, Kind::Path(_) | Kind::Parent(_)) {
        put("pos", json!(node.position));
    }
    let all = |nodes: &[Node]| Json::Array(nodes.iter().map(canon).collect());
    let pairs = |pairs: &[(Node, Node)]| Json::Array(pairs.iter().map(|(k, v)| json!([canon(k), canon(v)])).collect());
    match &node.kind {
        Kind::Path(steps) => put("steps", all(steps)),
        Kind::Name(name) => put("value", json!(name.key().to_string_lossy())),
        Kind::String(s) | Kind::Variable(s) => put("value", json!(s.to_string_lossy())),
        Kind::Number(n) => put("value", number(*n)),
        Kind::Bool(b) => put("value", json!(b)),
        Kind::Null => put("value", Json::Null),
        Kind::Parent(label) => put("label", json!(label.to_string_lossy())),
        Kind::Binary(op, l, r) => {
            put("op", json!(op.symbol()));
            put("lhs", canon(l));
            put("rhs", canon(r));
        }
        Kind::Negate(e) => {
            put("op", json!("-"));
            put("expr", canon(e));
        }
        Kind::Array(items) => {
            put("op", json!("["));
            put("items", all(items));
        }
        Kind::Object(kv) => {
            put("op", json!("{"));
            put("pairs", pairs(kv));
        }
        Kind::Call(call) | Kind::Partial(call) => {
            put("procedure", canon(&call.procedure));
            put("args", all(&call.args));
        }
        Kind::Placeholder => put("value", json!("?")),
        Kind::Lambda(lambda) => {
            put(
                "params",
                json!(lambda.params.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>()),
            );
            if lambda.signature.is_some() {
                put("signature", json!(true));
            }
            put("body", canon(&lambda.body));
            if lambda.thunk {
                put("thunk", json!(true));
            }
        }
        Kind::Condition(c, t, e) => {
            put("cond", canon(c));
            put("then", canon(t));
            if let Some(e) = e {
                put("else", canon(e));
            }
        }
        Kind::Elvis(l, r) | Kind::Coalesce(l, r) | Kind::Apply(l, r) => {
            put("lhs", canon(l));
            put("rhs", canon(r));
        }
        Kind::Transform(t) => {
            put("pattern", canon(&t.pattern));
            put("update", canon(&t.update));
            if let Some(d) = &t.delete {
                put("delete", canon(d));
            }
        }
        Kind::Block(exprs) => put("exprs", all(exprs)),
        Kind::Bind(name, rhs) => {
            put("name", json!(name.to_string_lossy()));
            put("rhs", canon(rhs));
        }
        Kind::Sort(terms) => put(
            "terms",
            Json::Array(
                terms
                    .iter()
                    .map(|t| json!({"desc": t.descending, "expr": canon(&t.expression)}))
                    .collect(),
            ),
        ),
        Kind::Wildcard | Kind::Descendant | Kind::Regex(_) => {}
    }
    let stages = |stages: &[Stage]| {
        Json::Array(
            stages
                .iter()
                .map(|s| match s {
                    Stage::Filter(e, p) => json!({"filter": canon(e), "pos": p}),
                    Stage::Index(name, p) => json!({"index": name.to_string_lossy(), "pos": p}),
                })
                .collect(),
        )
    };
    if !node.predicate.is_empty() {
        put("predicate", stages(&node.predicate));
    }
    if !node.stages.is_empty() {
        put("stages", stages(&node.stages));
    }
    if let Some(group) = &node.group {
        put("group", json!({"pairs": pairs(&group.pairs), "pos": group.position}));
    }
    if let Some(focus) = &node.focus {
        put("focus", json!(focus.to_string_lossy()));
    }
    if let Some(index) = &node.index {
        put("index", json!(index.to_string_lossy()));
    }
    if node.tuple {
        put("tuple", json!(true));
    }
    if let Some(label) = &node.ancestor {
        put("ancestor", json!(label.to_string_lossy()));
    }
    if node.keep_array {
        put("keepArray", json!(true));
    }
    if node.cons_array {
        put("consarray", json!(true));
    }
    if node.keep_singleton_array {
        put("keepSingletonArray", json!(true));
    }
    Json::Object(o)
}

/// A number as `JSON.stringify` writes it: integers without a fraction, `-0` as `0`.
fn number(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// Renames `%` labels by first appearance (keys in sorted order), as the node script does:
/// the numbering is an implementation detail, which steps share a label is not.
fn relabel(value: Json) -> Json {
    fn walk(value: Json, names: &mut Vec<String>) -> Json {
        match value {
            Json::Array(items) => Json::Array(items.into_iter().map(|v| walk(v, names)).collect()),
            Json::Object(map) => {
                let mut out = Map::new();
                let mut entries: Vec<(String, Json)> = map.into_iter().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                for (k, v) in entries {
                    let v = match (k.as_str(), v) {
                        ("label" | "ancestor", Json::String(label)) => {
                            let i = names.iter().position(|n| *n == label).unwrap_or_else(|| {
                                names.push(label);
                                names.len() - 1
                            });
                            Json::String(format!("L{i}"))
                        }
                        (_, v) => walk(v, names),
                    };
                    out.insert(k, v);
                }
                Json::Object(out)
            }
            other => other,
        }
    }
    walk(value, &mut Vec::new())
}

/// The canonical form of what `source` parses to (or its error's code, position and token).
fn outcome(source: &str) -> Json {
    match parse(source) {
        Ok(node) => json!({"ast": relabel(canon(&node))}),
        Err(e) => {
            json!({"error": {"code": e.details().code.as_str(), "position": e.details().position, "token": e.details().token, "value": e.details().value}})
        }
    }
}

/// Compares `source`'s outcome with jsonata-js's from a fixture line; `None` when they agree.
fn disagreement(line: &str) -> Option<String> {
    let case: Json = serde_json::from_str(line).expect("a fixture line is JSON");
    let source = case["expr"].as_str().expect("a fixture names its expression");
    let got = outcome(source);
    let same = match (case.get("ast"), got.get("ast")) {
        (Some(js), Some(writ)) => js == writ,
        (None, None) => {
            let (js, writ) = (&case["error"], &got["error"]);
            let token = js["token"]
                .as_str()
                .map_or_else(|| js["token"].to_string(), str::to_owned);
            js["code"] == writ["code"]
                && (js["position"].is_null() || js["position"] == writ["position"])
                // A regex token is an object to jsonata-js: not comparable.
                && (js["token"].is_null() || js["token"].is_object() || writ["token"].as_str() == Some(token.as_str()))
        }
        _ => false,
    };
    (!same).then(|| format!("{source}\n  jsonata-js: {line}\n  writ:       {got}"))
}

#[test]
fn trees_and_errors_match_jsonata_js() {
    let disagreements: Vec<String> = FIXTURES
        .lines()
        .filter(|l| !l.is_empty())
        .filter_map(disagreement)
        .collect();
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(FIXTURES.lines().count() > 200);
}

/// Parses `source`, expecting an error: its code, position and token.
fn error(source: &str) -> (&'static str, Option<usize>, Option<String>) {
    let e = parse(source).expect_err(source);
    (
        e.details().code.as_str(),
        e.details().position,
        e.details().token.clone(),
    )
}

#[test]
fn every_syntax_error_code() {
    let cases: &[(&str, &str, Option<usize>, Option<&str>)] = &[
        ("\"abc", "S0101", Some(4), None),
        ("1e999", "S0102", Some(0), Some("1e999")),
        ("\"\\q\"", "S0103", Some(2), Some("q")),
        ("\"\\u00G1\"", "S0104", Some(2), None),
        ("`abc", "S0105", Some(4), None),
        ("1 /* open", "S0106", Some(2), None),
        ("1 2", "S0201", Some(3), Some("2")),
        ("f(1 2)", "S0202", Some(5), Some("2")),
        ("(1", "S0203", Some(2), Some("(end)")),
        ("a ! b", "S0204", Some(3), Some("!")),
        ("1 +", "S0207", Some(3), Some("(end)")),
        ("function(a){1}", "S0208", Some(10), Some("a")),
        ("$x{'a': 1}[0]", "S0209", Some(11), None),
        ("a{'x': 1}{'y': 2}", "S0210", Some(10), None),
        (")", "S0211", Some(1), Some(")")),
        ("a := 1", "S0212", Some(1), Some("a")),
        ("a.1", "S0213", Some(3), None),
        ("a@b", "S0214", Some(3), Some("@")),
        ("a#b", "S0214", Some(3), Some("#")),
        ("a[0]@$x", "S0215", Some(5), None),
        ("a^(b)@$x", "S0216", Some(6), None),
        ("%", "S0217", Some(1), Some("parent")),
        ("a.$x.%", "S0217", Some(4), Some("variable")),
        ("//", "S0301", Some(1), None),
        ("/ab", "S0302", Some(3), None),
        ("function($x)<n<n>>{$x}", "S0401", Some(15), None),
        ("function($x)<(sa<n>)>{$x}", "S0402", Some(14), None),
    ];
    for &(source, code, position, token) in cases {
        let (got_code, got_position, got_token) = error(source);
        assert_eq!(
            (got_code, got_position, got_token.as_deref()),
            (code, position, token),
            "{source}"
        );
    }
}

#[test]
fn the_suite_checks_these_tokens() {
    assert_eq!(error("Account.Order@o.Product").2.as_deref(), Some("@"));
    assert_eq!(error("Account.Order@$o#i.Product").2.as_deref(), Some("#"));
    let signature = parse("function($x)<n<n>>{$x}").expect_err("S0401");
    assert_eq!(signature.details().value.as_deref(), Some("n"));
    assert_eq!(
        parse("function($a, 1){1}")
            .expect_err("S0208")
            .details()
            .value
            .as_deref(),
        Some("2")
    );
    let expected = parse("f(1 2)").expect_err("S0202");
    assert_eq!(expected.details().value.as_deref(), Some(")"));
}

#[test]
fn strings_keep_lone_surrogates_and_positions_count_utf16_units() {
    let Kind::String(s) = parse(r#""\ud83d\ude00\ud800""#).expect("parses").kind else {
        panic!("a string")
    };
    assert_eq!(s.to_utf16(), vec![0xd83d, 0xde00, 0xd800]);
    // An astral character is two units, as in JavaScript.
    let node = parse("'😀' & x").expect("parses");
    assert_eq!(node.position, 6);
    let Kind::Binary(_, _, rhs) = node.kind else {
        panic!("a binary")
    };
    let Kind::Path(steps) = rhs.kind else { panic!("a path") };
    assert_eq!(steps[0].position, 8);
}

#[test]
fn names_variables_and_keywords() {
    let Kind::Path(steps) = parse("`a b`.and.or.in").expect("parses").kind else {
        panic!("a path")
    };
    let names: Vec<String> = steps
        .iter()
        .map(|s| match &s.kind {
            Kind::Name(n) => n.key().to_string_lossy().into_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["a b", "and", "or", "in"]);
    assert!(matches!(parse("$").expect("parses").kind, Kind::Variable(v) if v.is_empty()));
    assert!(matches!(parse("$$").expect("parses").kind, Kind::Variable(v) if v.eq_str("$")));
    // Form feed is not whitespace to jsonata-js: it is part of a name.
    assert!(matches!(&parse("a\u{c}b").expect("parses").kind, Kind::Path(steps) if steps.len() == 1));
}

#[test]
fn regex_literals_are_compiled_once_and_slash_after_an_operand_divides() {
    let Kind::Call(call) = parse("$match(s, /a+b/i)").expect("parses").kind else {
        panic!("a call")
    };
    assert!(matches!(call.args[1].kind, Kind::Regex(_)));
    assert!(matches!(
        parse("a / 2").expect("parses").kind,
        Kind::Binary(BinaryOp::Divide, ..)
    ));
    assert_eq!(error("/a/ii").0, "S0303");
    // After `[]` jsonata-js reads a regex, so this one is not closed.
    assert_eq!(error("a[]/2").0, "S0302");
}

#[test]
fn unary_minus_folds_into_number_literals() {
    assert!(matches!(parse("-1").expect("parses").kind, Kind::Number(n) if n == -1.0));
    assert!(matches!(parse("--1").expect("parses").kind, Kind::Number(n) if n == 1.0));
    assert!(matches!(parse("-a").expect("parses").kind, Kind::Negate(_)));
}

#[test]
fn tail_calls_in_lambdas_become_thunks() {
    let Kind::Lambda(lambda) = parse("function($n){ $n = 0 ? 1 : $f($n - 1) }").expect("parses").kind else {
        panic!("a lambda")
    };
    let Kind::Condition(_, then, otherwise) = &lambda.body.kind else {
        panic!("a condition")
    };
    assert!(matches!(then.kind, Kind::Number(_)));
    let otherwise = otherwise.as_ref().expect("an else");
    let Kind::Lambda(thunk) = &otherwise.kind else {
        panic!("a thunk")
    };
    assert!(thunk.thunk && thunk.params.is_empty() && matches!(thunk.body.kind, Kind::Call(_)));
    // Not in tail position, or filtered: no thunk.
    let Kind::Lambda(lambda) = parse("function($n){ $f($n)[0] }").expect("parses").kind else {
        panic!("a lambda")
    };
    assert!(matches!(lambda.body.kind, Kind::Call(_)));
    // The right side of `?:` and `??` is in tail position; the left side is not.
    let Kind::Lambda(lambda) = parse("function(){ $f() ?: $g() }").expect("parses").kind else {
        panic!("a lambda")
    };
    let Kind::Elvis(lhs, rhs) = &lambda.body.kind else {
        panic!("elvis")
    };
    assert!(matches!(lhs.kind, Kind::Call(_)));
    assert!(matches!(&rhs.kind, Kind::Lambda(l) if l.thunk));
}

#[test]
fn parent_labels_are_shared_by_every_percent_that_reaches_a_step() {
    // Both `%` name `Product`'s item: one label, on the step and on both.
    let node = parse("Account.Order.Product.{'a': %.OrderID, 'b': %.OrderID}").expect("parses");
    let Kind::Path(steps) = &node.kind else {
        panic!("a path")
    };
    let label = steps[2].ancestor.clone().expect("Product is an ancestor");
    assert!(steps[2].tuple && steps[1].ancestor.is_none());
    let Kind::Object(pairs) = &steps[3].kind else {
        panic!("an object")
    };
    for (_, value) in pairs {
        let Kind::Path(inner) = &value.kind else {
            panic!("a path")
        };
        assert!(matches!(&inner[0].kind, Kind::Parent(l) if *l == label));
    }
}

#[test]
fn long_flat_paths_blocks_and_arrays_are_not_deep() {
    let source = vec!["a"; 100_000].join(".");
    let Kind::Path(steps) = parse(&source).expect("parses").kind else {
        panic!("a path")
    };
    assert_eq!(steps.len(), 100_000);
    let block = format!("({})", vec!["1"; 100_000].join(";"));
    assert!(matches!(parse(&block).expect("parses").kind, Kind::Block(e) if e.len() == 100_000));
    let array = format!("[{}]", vec!["1"; 100_000].join(","));
    assert!(matches!(parse(&array).expect("parses").kind, Kind::Array(e) if e.len() == 100_000));
}

/// Runs `f` on a thread with a 2 MiB stack, as a host might.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawns")
        .join()
        .expect("no overflow");
}

/// `open` repeated `n` times, then `middle`, then `close` repeated `n` times.
fn nest(open: &str, middle: &str, close: &str, n: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * n + middle.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(middle);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

/// Every way to nest deeply, `n` levels deep.
fn deep_inputs(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("parentheses", nest("(", "1", ")", n)),
        ("arrays", nest("[", "1", "]", n)),
        ("objects", nest("{'a':", "1", "}", n)),
        ("unary minus", nest("-", "a", "", n)),
        ("sum chain", vec!["1"; n + 1].join("+")),
        ("concat chain", vec!["'a'"; n + 1].join("&")),
        ("apply chain", vec!["$f"; n + 1].join("~>")),
        ("calls", nest("$f(", "1", ")", n)),
        ("lambdas", nest("function($x){", "1", "}", n)),
        ("conditionals", nest("a ? ", "1", " : 2", n)),
        ("elvis", vec!["a"; n + 1].join("?:")),
        ("coalesce", vec!["a"; n + 1].join("??")),
        ("bindings", nest("$a := ", "1", "", n)),
        ("predicates", nest("a[", "1", "]", n)),
        ("filter chain", format!("a{}", "[0]".repeat(n))),
        ("sort chain", format!("a{}", "^(b)".repeat(n))),
        ("groups", nest("a{'k':", "1", "}", n)),
        ("transforms", nest("|a|", "{}", "|", n)),
        ("blocks in paths", nest("a.(", "b", ")", n)),
        ("tail calls", nest("function(){$f(", "1", ")}", n)),
        ("parents in predicates", nest("a[%.", "b", "]", n)),
    ]
}

#[test]
fn nesting_100_000_deep_is_refused_on_a_small_stack() {
    on_small_stack(|| {
        for (kind, source) in deep_inputs(100_000) {
            let e = parse(&source).expect_err(kind);
            assert_eq!(e.details().code.as_str(), "U1001", "{kind}");
            assert_eq!(e.details().value.as_deref(), Some("500"), "{kind}");
        }
    });
}

#[test]
fn nesting_within_the_bound_parses_on_a_small_stack() {
    on_small_stack(|| {
        for (kind, source) in deep_inputs(MAX_DEPTH / 4) {
            assert!(parse(&source).is_ok(), "{kind}: {:?}", parse(&source).err());
        }
        // Near the bound, whether the tree is refused depends on how many levels each kind of
        // nesting adds, but nothing overflows.
        for (kind, source) in deep_inputs(MAX_DEPTH - 10) {
            if let Err(e) = parse(&source) {
                assert_eq!(e.details().code.as_str(), "U1001", "{kind}");
            }
        }
        // The bound is on the tree: just under it parses, just over it does not.
        assert!(parse(&nest("(", "1", ")", MAX_DEPTH - 1)).is_ok());
        assert_eq!(
            parse(&nest("(", "1", ")", MAX_DEPTH))
                .expect_err("too deep")
                .code()
                .as_str(),
            "U1001"
        );
    });
}

#[test]
fn long_chains_of_parent_operators_are_bounded() {
    on_small_stack(|| {
        // Each `%` walks back over every `%` before it: refused before it gets slow.
        let source = format!("{}.{}", vec!["a"; 3_000].join("."), vec!["%"; 3_000].join("."));
        assert_eq!(parse(&source).expect_err("too many").code().as_str(), "U1001");
        let source = format!("{}.{}", vec!["a"; 100].join("."), vec!["%"; 100].join("."));
        assert!(parse(&source).is_ok());
    });
}

/// jsonata-js 2.2.2's outcomes, one JSON object per line (`expr`, and `ast` or `error`).
const FIXTURES: &str = r##"{"expr":"{'hello': 'world'}.% ","error":{"code":"S0217","position":1,"token":"unary"}}
{"expr":"%","error":{"code":"S0217","token":"parent"}}
{"expr":"%()","ast":{"args":[],"pos":2,"procedure":{"label":"L0","type":"parent"},"type":"function"}}
{"expr":"%(1)","ast":{"args":[{"pos":3,"type":"number","value":1}],"pos":2,"procedure":{"label":"L0","type":"parent"},"type":"function"}}
{"expr":"%%","error":{"code":"S0207","position":2,"token":"(end)"}}
{"expr":"(%)","error":{"code":"S0217","position":1,"token":"block"}}
{"expr":"(%%)","error":{"code":"S0211","position":4,"token":")"}}
{"expr":"library.loans.%%","error":{"code":"S0207","position":16,"token":"(end)"}}
{"expr":"$.%","error":{"code":"S0217","position":1,"token":"variable"}}
{"expr":"$$.%","error":{"code":"S0217","position":2,"token":"variable"}}
{"expr":"library.loans.%.%.%","error":{"code":"S0217","token":"path"}}
{"expr":"library.%%%","error":{"code":"S0217","position":10,"token":"binary"}}
{"expr":"library.(%%%)","ast":{"steps":[{"ancestor":"L0","pos":7,"tuple":true,"type":"name","value":"library"},{"exprs":[{"lhs":{"label":"L0","type":"parent"},"op":"%","pos":11,"rhs":{"label":"L0","type":"parent"},"type":"binary"}],"pos":9,"type":"block"}],"type":"path"}}
{"expr":"library.(%% %)","ast":{"steps":[{"ancestor":"L0","pos":7,"tuple":true,"type":"name","value":"library"},{"exprs":[{"lhs":{"label":"L0","type":"parent"},"op":"%","pos":11,"rhs":{"label":"L0","type":"parent"},"type":"binary"}],"pos":9,"type":"block"}],"type":"path"}}
{"expr":"library.(% %%)","ast":{"steps":[{"ancestor":"L0","pos":7,"tuple":true,"type":"name","value":"library"},{"exprs":[{"lhs":{"label":"L0","type":"parent"},"op":"%","pos":12,"rhs":{"label":"L0","type":"parent"},"type":"binary"}],"pos":9,"type":"block"}],"type":"path"}}
{"expr":"library.(% % %)","ast":{"steps":[{"ancestor":"L0","pos":7,"tuple":true,"type":"name","value":"library"},{"exprs":[{"lhs":{"label":"L0","type":"parent"},"op":"%","pos":12,"rhs":{"label":"L0","type":"parent"},"type":"binary"}],"pos":9,"type":"block"}],"type":"path"}}
{"expr":"Account.Order.Product.[`Product Name`, %.OrderID]","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"consarray":true,"items":[{"steps":[{"pos":37,"type":"name","value":"Product Name"}],"type":"path"},{"steps":[{"label":"L0","type":"parent"},{"pos":48,"type":"name","value":"OrderID"}],"type":"path"}],"op":"[","pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.{ `Product Name`: [Quantity, %.OrderID] }","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"op":"{","pairs":[[{"steps":[{"pos":38,"type":"name","value":"Product Name"}],"type":"path"},{"items":[{"steps":[{"pos":49,"type":"name","value":"Quantity"}],"type":"path"},{"steps":[{"label":"L0","type":"parent"},{"pos":60,"type":"name","value":"OrderID"}],"type":"path"}],"op":"[","pos":41,"type":"unary"}]],"pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.{ `Product Name`: [Quantity, (%.OrderID)] }","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"op":"{","pairs":[[{"steps":[{"pos":38,"type":"name","value":"Product Name"}],"type":"path"},{"items":[{"steps":[{"pos":49,"type":"name","value":"Quantity"}],"type":"path"},{"exprs":[{"steps":[{"label":"L0","type":"parent"},{"pos":61,"type":"name","value":"OrderID"}],"type":"path"}],"pos":52,"type":"block"}],"op":"[","pos":41,"type":"unary"}]],"pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product[%.OrderID='order104'].SKU","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"stages":[{"filter":{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":31,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":32,"rhs":{"pos":42,"type":"string","value":"order104"},"type":"binary"},"pos":22}],"tuple":true,"type":"name","value":"Product"},{"pos":47,"type":"name","value":"SKU"}],"type":"path"}}
{"expr":"Account.Order.Product[%.%.`Account Name`='Firefly'].SKU","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"ancestor":"L0","pos":13,"tuple":true,"type":"name","value":"Order"},{"ancestor":"L1","pos":21,"stages":[{"filter":{"lhs":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":40,"type":"name","value":"Account Name"}],"type":"path"},"op":"=","pos":41,"rhs":{"pos":50,"type":"string","value":"Firefly"},"type":"binary"},"pos":22}],"tuple":true,"type":"name","value":"Product"},{"pos":55,"type":"name","value":"SKU"}],"type":"path"}}
{"expr":"Account.Order.Product.Price[%.%.OrderID='order103']","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"ancestor":"L1","pos":27,"stages":[{"filter":{"lhs":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":39,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":40,"rhs":{"pos":50,"type":"string","value":"order103"},"type":"binary"},"pos":28}],"tuple":true,"type":"name","value":"Price"}],"type":"path"}}
{"expr":"Account.Order.Product.Price.%[%.OrderID='order103'].SKU","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"ancestor":"L1","pos":27,"tuple":true,"type":"name","value":"Price"},{"label":"L1","stages":[{"filter":{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":39,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":40,"rhs":{"pos":50,"type":"string","value":"order103"},"type":"binary"},"pos":30}],"type":"parent"},{"pos":55,"type":"name","value":"SKU"}],"type":"path"}}
{"expr":"Account.Order.Product[%.OrderID='order104'][%.%.`Account Name`='Firefly'].SKU","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"ancestor":"L0","pos":13,"tuple":true,"type":"name","value":"Order"},{"ancestor":"L1","pos":21,"stages":[{"filter":{"lhs":{"steps":[{"label":"L1","type":"parent"},{"pos":31,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":32,"rhs":{"pos":42,"type":"string","value":"order104"},"type":"binary"},"pos":22},{"filter":{"lhs":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":62,"type":"name","value":"Account Name"}],"type":"path"},"op":"=","pos":63,"rhs":{"pos":72,"type":"string","value":"Firefly"},"type":"binary"},"pos":44}],"tuple":true,"type":"name","value":"Product"},{"pos":77,"type":"name","value":"SKU"}],"type":"path"}}
{"expr":"(Account.Order.Product)[%.OrderID='order104'].SKU","ast":{"steps":[{"exprs":[{"steps":[{"pos":8,"type":"name","value":"Account"},{"pos":14,"type":"name","value":"Order"},{"ancestor":"L0","pos":22,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":1,"predicate":[{"filter":{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":33,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":34,"rhs":{"pos":44,"type":"string","value":"order104"},"type":"binary"},"pos":24}],"tuple":true,"type":"block"},{"pos":49,"type":"name","value":"SKU"}],"type":"path"}}
{"expr":"Account.Order.Product.{ %.OrderID: Price * Quantity }","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"op":"{","pairs":[[{"steps":[{"label":"L0","type":"parent"},{"pos":33,"type":"name","value":"OrderID"}],"type":"path"},{"lhs":{"steps":[{"pos":40,"type":"name","value":"Price"}],"type":"path"},"op":"*","pos":42,"rhs":{"steps":[{"pos":51,"type":"name","value":"Quantity"}],"type":"path"},"type":"binary"}]],"pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.().%","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"ancestor":"L0","pos":13,"tuple":true,"type":"name","value":"Order"},{"exprs":[],"pos":15,"type":"block"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"Account.Order.Product.SKU^(%.Price)","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"pos":21,"type":"name","value":"Product"},{"ancestor":"L0","pos":25,"tuple":true,"type":"name","value":"SKU"},{"pos":26,"terms":[{"desc":false,"expr":{"steps":[{"label":"L0","type":"parent"},{"pos":34,"type":"name","value":"Price"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"Account.Order.Product.SKU^(%.Price, >%.%.OrderID)","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"ancestor":"L1","pos":25,"tuple":true,"type":"name","value":"SKU"},{"pos":26,"terms":[{"desc":false,"expr":{"steps":[{"label":"L1","type":"parent"},{"pos":34,"type":"name","value":"Price"}],"type":"path"}},{"desc":true,"expr":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":48,"type":"name","value":"OrderID"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"Account.Order.Product.Description.{ 'Colour': Colour, 'Total': %.Price * %.Quantity }","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"pos":21,"type":"name","value":"Product"},{"ancestor":"L0","pos":33,"tuple":true,"type":"name","value":"Description"},{"op":"{","pairs":[[{"pos":44,"type":"string","value":"Colour"},{"steps":[{"pos":52,"type":"name","value":"Colour"}],"type":"path"}],[{"pos":61,"type":"string","value":"Total"},{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":70,"type":"name","value":"Price"}],"type":"path"},"op":"*","pos":72,"rhs":{"steps":[{"label":"L0","type":"parent"},{"pos":83,"type":"name","value":"Quantity"}],"type":"path"},"type":"binary"}]],"pos":35,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.Description.{ 'Item': Colour & ' ' & %.`Product Name`, 'Discounted': (%.%.OrderID = 'order103') ? %.Price / 2 : %.Price }","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"ancestor":"L1","pos":33,"tuple":true,"type":"name","value":"Description"},{"op":"{","pairs":[[{"pos":42,"type":"string","value":"Item"},{"lhs":{"lhs":{"steps":[{"pos":50,"type":"name","value":"Colour"}],"type":"path"},"op":"&","pos":52,"rhs":{"pos":56,"type":"string","value":" "},"type":"binary"},"op":"&","pos":58,"rhs":{"steps":[{"label":"L1","type":"parent"},{"pos":75,"type":"name","value":"Product Name"}],"type":"path"},"type":"binary"}],[{"pos":89,"type":"string","value":"Discounted"},{"cond":{"exprs":[{"lhs":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":103,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":105,"rhs":{"pos":116,"type":"string","value":"order103"},"type":"binary"}],"pos":92,"type":"block"},"else":{"steps":[{"label":"L1","type":"parent"},{"pos":141,"type":"name","value":"Price"}],"type":"path"},"pos":119,"then":{"lhs":{"steps":[{"label":"L1","type":"parent"},{"pos":127,"type":"name","value":"Price"}],"type":"path"},"op":"/","pos":129,"rhs":{"pos":131,"type":"number","value":2},"type":"binary"},"type":"condition"}]],"pos":35,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.( $parent := %; %.OrderID )","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"exprs":[{"name":"parent","pos":34,"rhs":{"label":"L0","type":"parent"},"type":"bind"},{"steps":[{"label":"L0","type":"parent"},{"pos":47,"type":"name","value":"OrderID"}],"type":"path"}],"pos":23,"type":"block"}],"type":"path"}}
{"expr":"Account.Order.Product.( $parent := %; $parent.OrderID )","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"exprs":[{"name":"parent","pos":34,"rhs":{"label":"L0","type":"parent"},"type":"bind"},{"steps":[{"pos":45,"type":"variable","value":"parent"},{"pos":53,"type":"name","value":"OrderID"}],"type":"path"}],"pos":23,"type":"block"}],"type":"path"}}
{"expr":"library.loans@$L.books@$B[$L.isbn=$B.isbn].{ 'book': $B.title, 'parent': $keys(%) }","ast":{"steps":[{"pos":7,"type":"name","value":"library"},{"ancestor":"L0","focus":"L","pos":13,"tuple":true,"type":"name","value":"loans"},{"focus":"B","pos":22,"stages":[{"filter":{"lhs":{"steps":[{"pos":28,"type":"variable","value":"L"},{"pos":33,"type":"name","value":"isbn"}],"type":"path"},"op":"=","pos":34,"rhs":{"steps":[{"pos":36,"type":"variable","value":"B"},{"pos":41,"type":"name","value":"isbn"}],"type":"path"},"type":"binary"},"pos":26}],"tuple":true,"type":"name","value":"books"},{"op":"{","pairs":[[{"pos":51,"type":"string","value":"book"},{"steps":[{"pos":55,"type":"variable","value":"B"},{"pos":61,"type":"name","value":"title"}],"type":"path"}],[{"pos":71,"type":"string","value":"parent"},{"args":[{"label":"L0","type":"parent"}],"pos":79,"procedure":{"pos":78,"type":"variable","value":"keys"},"type":"function"}]],"pos":44,"type":"unary"}],"type":"path"}}
{"expr":"library.loans@$L.books@$B[$L.isbn=$B.isbn].customers[id=$L.customer].{ 'book': $B.title, 'customer': name, 'parent': $keys(%) }","ast":{"steps":[{"pos":7,"type":"name","value":"library"},{"focus":"L","pos":13,"tuple":true,"type":"name","value":"loans"},{"focus":"B","pos":22,"stages":[{"filter":{"lhs":{"steps":[{"pos":28,"type":"variable","value":"L"},{"pos":33,"type":"name","value":"isbn"}],"type":"path"},"op":"=","pos":34,"rhs":{"steps":[{"pos":36,"type":"variable","value":"B"},{"pos":41,"type":"name","value":"isbn"}],"type":"path"},"type":"binary"},"pos":26}],"tuple":true,"type":"name","value":"books"},{"ancestor":"L0","pos":52,"stages":[{"filter":{"lhs":{"steps":[{"pos":55,"type":"name","value":"id"}],"type":"path"},"op":"=","pos":56,"rhs":{"steps":[{"pos":58,"type":"variable","value":"L"},{"pos":67,"type":"name","value":"customer"}],"type":"path"},"type":"binary"},"pos":53}],"tuple":true,"type":"name","value":"customers"},{"op":"{","pairs":[[{"pos":77,"type":"string","value":"book"},{"steps":[{"pos":81,"type":"variable","value":"B"},{"pos":87,"type":"name","value":"title"}],"type":"path"}],[{"pos":99,"type":"string","value":"customer"},{"steps":[{"pos":105,"type":"name","value":"name"}],"type":"path"}],[{"pos":115,"type":"string","value":"parent"},{"args":[{"label":"L0","type":"parent"}],"pos":123,"procedure":{"pos":122,"type":"variable","value":"keys"},"type":"function"}]],"pos":70,"type":"unary"}],"type":"path"}}
{"expr":"library.loans@$L.books@$B[$L.isbn=$B.isbn].customers[id=$L.customer].{ 'book': $B.title, 'customer': name, 'parent': $keys(%.%) }","ast":{"steps":[{"pos":7,"type":"name","value":"library"},{"ancestor":"L0","focus":"L","pos":13,"tuple":true,"type":"name","value":"loans"},{"focus":"B","pos":22,"stages":[{"filter":{"lhs":{"steps":[{"pos":28,"type":"variable","value":"L"},{"pos":33,"type":"name","value":"isbn"}],"type":"path"},"op":"=","pos":34,"rhs":{"steps":[{"pos":36,"type":"variable","value":"B"},{"pos":41,"type":"name","value":"isbn"}],"type":"path"},"type":"binary"},"pos":26}],"tuple":true,"type":"name","value":"books"},{"ancestor":"L1","pos":52,"stages":[{"filter":{"lhs":{"steps":[{"pos":55,"type":"name","value":"id"}],"type":"path"},"op":"=","pos":56,"rhs":{"steps":[{"pos":58,"type":"variable","value":"L"},{"pos":67,"type":"name","value":"customer"}],"type":"path"},"type":"binary"},"pos":53}],"tuple":true,"type":"name","value":"customers"},{"op":"{","pairs":[[{"pos":77,"type":"string","value":"book"},{"steps":[{"pos":81,"type":"variable","value":"B"},{"pos":87,"type":"name","value":"title"}],"type":"path"}],[{"pos":99,"type":"string","value":"customer"},{"steps":[{"pos":105,"type":"name","value":"name"}],"type":"path"}],[{"pos":115,"type":"string","value":"parent"},{"args":[{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"}],"type":"path"}],"pos":123,"procedure":{"pos":122,"type":"variable","value":"keys"},"type":"function"}]],"pos":70,"type":"unary"}],"type":"path"}}
{"expr":"library.loans@$L.books@$B[$L.isbn=$B.isbn].customers@$C[$C.id=$L.customer].{ 'book': $B.title, 'customer': $C.name, 'grandparent': $keys(%.%) }","ast":{"steps":[{"ancestor":"L0","pos":7,"tuple":true,"type":"name","value":"library"},{"ancestor":"L1","focus":"L","pos":13,"tuple":true,"type":"name","value":"loans"},{"focus":"B","pos":22,"stages":[{"filter":{"lhs":{"steps":[{"pos":28,"type":"variable","value":"L"},{"pos":33,"type":"name","value":"isbn"}],"type":"path"},"op":"=","pos":34,"rhs":{"steps":[{"pos":36,"type":"variable","value":"B"},{"pos":41,"type":"name","value":"isbn"}],"type":"path"},"type":"binary"},"pos":26}],"tuple":true,"type":"name","value":"books"},{"focus":"C","pos":52,"stages":[{"filter":{"lhs":{"steps":[{"pos":58,"type":"variable","value":"C"},{"pos":61,"type":"name","value":"id"}],"type":"path"},"op":"=","pos":62,"rhs":{"steps":[{"pos":64,"type":"variable","value":"L"},{"pos":73,"type":"name","value":"customer"}],"type":"path"},"type":"binary"},"pos":56}],"tuple":true,"type":"name","value":"customers"},{"op":"{","pairs":[[{"pos":83,"type":"string","value":"book"},{"steps":[{"pos":87,"type":"variable","value":"B"},{"pos":93,"type":"name","value":"title"}],"type":"path"}],[{"pos":105,"type":"string","value":"customer"},{"steps":[{"pos":109,"type":"variable","value":"C"},{"pos":114,"type":"name","value":"name"}],"type":"path"}],[{"pos":129,"type":"string","value":"grandparent"},{"args":[{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"}],"type":"path"}],"pos":137,"procedure":{"pos":136,"type":"variable","value":"keys"},"type":"function"}]],"pos":76,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.{\n  \"order\": %.OrderID,\n  \"Product\": `Product Name`,\n  \"Weight\": Description.Weight\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"pos":13,"type":"name","value":"Order"},{"ancestor":"L0","pos":21,"tuple":true,"type":"name","value":"Product"},{"op":"{","pairs":[[{"pos":33,"type":"string","value":"order"},{"steps":[{"label":"L0","type":"parent"},{"pos":44,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":57,"type":"string","value":"Product"},{"steps":[{"pos":73,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":85,"type":"string","value":"Weight"},{"steps":[{"pos":98,"type":"name","value":"Description"},{"pos":105,"type":"name","value":"Weight"}],"type":"path"}]],"pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.(Order.Product).{\n  \"order\": %.OrderID,\n  \"Product\": `Product Name`,\n  \"Weight\": Description.Weight\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"exprs":[{"steps":[{"pos":14,"type":"name","value":"Order"},{"ancestor":"L0","pos":22,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":9,"tuple":true,"type":"block"},{"op":"{","pairs":[[{"pos":35,"type":"string","value":"order"},{"steps":[{"label":"L0","type":"parent"},{"pos":46,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":59,"type":"string","value":"Product"},{"steps":[{"pos":75,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":87,"type":"string","value":"Weight"},{"steps":[{"pos":100,"type":"name","value":"Description"},{"pos":107,"type":"name","value":"Weight"}],"type":"path"}]],"pos":25,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.Product.{\n  'Product': `Product Name`,\n  'Order': %.OrderID,\n  'Account': %.%.`Account Name`\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"ancestor":"L0","pos":13,"tuple":true,"type":"name","value":"Order"},{"ancestor":"L1","pos":21,"tuple":true,"type":"name","value":"Product"},{"op":"{","pairs":[[{"pos":35,"type":"string","value":"Product"},{"steps":[{"pos":51,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":62,"type":"string","value":"Order"},{"steps":[{"label":"L1","type":"parent"},{"pos":73,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":86,"type":"string","value":"Account"},{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":106,"type":"name","value":"Account Name"}],"type":"path"}]],"pos":23,"type":"unary"}],"type":"path"}}
{"expr":"Account.Order.(Product).{\n  'Product': `Product Name`,\n  'Order': %.OrderID,\n  'Account': %.%.`Account Name`\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"ancestor":"L0","pos":13,"tuple":true,"type":"name","value":"Order"},{"exprs":[{"steps":[{"ancestor":"L1","pos":22,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":15,"tuple":true,"type":"block"},{"op":"{","pairs":[[{"pos":37,"type":"string","value":"Product"},{"steps":[{"pos":53,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":64,"type":"string","value":"Order"},{"steps":[{"label":"L1","type":"parent"},{"pos":75,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":88,"type":"string","value":"Account"},{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":108,"type":"name","value":"Account Name"}],"type":"path"}]],"pos":25,"type":"unary"}],"type":"path"}}
{"expr":"Account.(Order.(Product)).{\n  'Product': `Product Name`,\n  'Order': %.OrderID,\n  'Account': %.%.`Account Name`\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"exprs":[{"steps":[{"ancestor":"L0","pos":14,"tuple":true,"type":"name","value":"Order"},{"exprs":[{"steps":[{"ancestor":"L1","pos":23,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":16,"tuple":true,"type":"block"}],"tuple":true,"type":"path"}],"pos":9,"tuple":true,"type":"block"},{"op":"{","pairs":[[{"pos":39,"type":"string","value":"Product"},{"steps":[{"pos":55,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":66,"type":"string","value":"Order"},{"steps":[{"label":"L1","type":"parent"},{"pos":77,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":90,"type":"string","value":"Account"},{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":110,"type":"name","value":"Account Name"}],"type":"path"}]],"pos":27,"type":"unary"}],"type":"path"}}
{"expr":"Account.(Order).(Product).{\n  'Product': `Product Name`,\n  'Order': %.OrderID,\n  'Account': %.%.`Account Name`\n}\n","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"exprs":[{"steps":[{"ancestor":"L0","pos":14,"tuple":true,"type":"name","value":"Order"}],"tuple":true,"type":"path"}],"pos":9,"tuple":true,"type":"block"},{"exprs":[{"steps":[{"ancestor":"L1","pos":24,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":17,"tuple":true,"type":"block"},{"op":"{","pairs":[[{"pos":39,"type":"string","value":"Product"},{"steps":[{"pos":55,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":66,"type":"string","value":"Order"},{"steps":[{"label":"L1","type":"parent"},{"pos":77,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":90,"type":"string","value":"Account"},{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":110,"type":"name","value":"Account Name"}],"type":"path"}]],"pos":27,"type":"unary"}],"type":"path"}}
{"expr":"(Account.Order).(Product).{\n  'Product': `Product Name`,\n  'Order': %.OrderID,\n  'Account': %.%.`Account Name`\n}\n","ast":{"steps":[{"exprs":[{"steps":[{"pos":8,"type":"name","value":"Account"},{"ancestor":"L0","pos":14,"tuple":true,"type":"name","value":"Order"}],"tuple":true,"type":"path"}],"pos":1,"tuple":true,"type":"block"},{"exprs":[{"steps":[{"ancestor":"L1","pos":24,"tuple":true,"type":"name","value":"Product"}],"tuple":true,"type":"path"}],"pos":17,"tuple":true,"type":"block"},{"op":"{","pairs":[[{"pos":39,"type":"string","value":"Product"},{"steps":[{"pos":55,"type":"name","value":"Product Name"}],"type":"path"}],[{"pos":66,"type":"string","value":"Order"},{"steps":[{"label":"L1","type":"parent"},{"pos":77,"type":"name","value":"OrderID"}],"type":"path"}],[{"pos":90,"type":"string","value":"Account"},{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":110,"type":"name","value":"Account Name"}],"type":"path"}]],"pos":27,"type":"unary"}],"type":"path"}}
{"expr":"a[0][1][]","ast":{"keepArray":true,"keepSingletonArray":true,"steps":[{"keepArray":true,"pos":1,"stages":[{"filter":{"pos":3,"type":"number","value":0},"pos":2},{"filter":{"pos":6,"type":"number","value":1},"pos":5}],"type":"name","value":"a"}],"type":"path"}}
{"expr":"a[]","ast":{"keepArray":true,"keepSingletonArray":true,"steps":[{"keepArray":true,"pos":1,"type":"name","value":"a"}],"type":"path"}}
{"expr":"a.b[]","ast":{"keepSingletonArray":true,"steps":[{"pos":1,"type":"name","value":"a"},{"keepArray":true,"pos":3,"type":"name","value":"b"}],"type":"path"}}
{"expr":"(a.b)[]","ast":{"exprs":[{"steps":[{"pos":2,"type":"name","value":"a"},{"pos":4,"type":"name","value":"b"}],"type":"path"}],"keepArray":true,"pos":1,"type":"block"}}
{"expr":"a@$x[]","ast":{"keepArray":true,"steps":[{"focus":"x","keepArray":true,"pos":1,"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"a@$x.b@$y.%","ast":{"steps":[{"ancestor":"L0","focus":"x","pos":1,"tuple":true,"type":"name","value":"a"},{"focus":"y","pos":6,"tuple":true,"type":"name","value":"b"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.b.%.%","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"tuple":true,"type":"name","value":"b"},{"label":"L1","type":"parent"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.b.%[%.x]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"tuple":true,"type":"name","value":"b"},{"label":"L1","stages":[{"filter":{"steps":[{"label":"L0","type":"parent"},{"pos":9,"type":"name","value":"x"}],"type":"path"},"pos":6}],"type":"parent"}],"type":"path"}}
{"expr":"c.a[%.%.x]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"c"},{"ancestor":"L1","pos":3,"stages":[{"filter":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":9,"type":"name","value":"x"}],"type":"path"},"pos":4}],"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"a[%.%.x].b","ast":{"steps":[{"ancestor":"L0","pos":1,"stages":[{"filter":{"steps":[{"label":"L0","type":"parent"},{"label":"L1","type":"parent"},{"pos":7,"type":"name","value":"x"}],"type":"path"},"pos":2}],"tuple":true,"type":"name","value":"a"},{"pos":10,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a[%.%.x]","ast":{"steps":[{"ancestor":"L0","pos":1,"stages":[{"filter":{"steps":[{"label":"L0","type":"parent"},{"label":"L1","type":"parent"},{"pos":7,"type":"name","value":"x"}],"type":"path"},"pos":2}],"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"%.a","error":{"code":"S0217","token":"path"}}
{"expr":"a.%","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.(%.b ?? %.c)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"b"}],"type":"path"},"pos":9,"rhs":{"steps":[{"label":"L0","type":"parent"},{"pos":13,"type":"name","value":"c"}],"type":"path"},"type":"coalesce"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.(%.b ?: %.c)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"b"}],"type":"path"},"pos":9,"rhs":{"steps":[{"label":"L0","type":"parent"},{"pos":13,"type":"name","value":"c"}],"type":"path"},"type":"elvis"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.b.(%.x ?: %.y).c","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"tuple":true,"type":"name","value":"b"},{"exprs":[{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":8,"type":"name","value":"x"}],"type":"path"},"pos":11,"rhs":{"steps":[{"label":"L0","type":"parent"},{"pos":15,"type":"name","value":"y"}],"type":"path"},"type":"elvis"}],"pos":5,"type":"block"},{"pos":18,"type":"name","value":"c"}],"type":"path"}}
{"expr":"x ?: y ?: z","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"x"}],"type":"path"},"pos":4,"rhs":{"lhs":{"steps":[{"pos":6,"type":"name","value":"y"}],"type":"path"},"pos":9,"rhs":{"steps":[{"pos":11,"type":"name","value":"z"}],"type":"path"},"type":"elvis"},"type":"elvis"}}
{"expr":"x ?? y ?? z","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"x"}],"type":"path"},"pos":4,"rhs":{"lhs":{"steps":[{"pos":6,"type":"name","value":"y"}],"type":"path"},"pos":9,"rhs":{"steps":[{"pos":11,"type":"name","value":"z"}],"type":"path"},"type":"coalesce"},"type":"coalesce"}}
{"expr":"function(){ $f() ?: 1 }","ast":{"body":{"lhs":{"args":[],"pos":15,"procedure":{"pos":14,"type":"variable","value":"f"},"type":"function"},"pos":19,"rhs":{"pos":21,"type":"number","value":1},"type":"elvis"},"params":[],"pos":9,"type":"lambda"}}
{"expr":"function(){ 1 ?: $f() }","ast":{"body":{"lhs":{"pos":13,"type":"number","value":1},"pos":16,"rhs":{"body":{"args":[],"pos":20,"procedure":{"pos":19,"type":"variable","value":"f"},"type":"function"},"params":[],"pos":20,"thunk":true,"type":"lambda"},"type":"elvis"},"params":[],"pos":9,"type":"lambda"}}
{"expr":"function(){ 1 ?? $f() }","ast":{"body":{"lhs":{"pos":13,"type":"number","value":1},"pos":16,"rhs":{"body":{"args":[],"pos":20,"procedure":{"pos":19,"type":"variable","value":"f"},"type":"function"},"params":[],"pos":20,"thunk":true,"type":"lambda"},"type":"coalesce"},"params":[],"pos":9,"type":"lambda"}}
{"expr":"function(){ $f() ?? 1 }","ast":{"body":{"lhs":{"args":[],"pos":15,"procedure":{"pos":14,"type":"variable","value":"f"},"type":"function"},"pos":19,"rhs":{"pos":21,"type":"number","value":1},"type":"coalesce"},"params":[],"pos":9,"type":"lambda"}}
{"expr":"function($n){ $n = 0 ? 1 : $f($n - 1) }","ast":{"body":{"cond":{"lhs":{"pos":16,"type":"variable","value":"n"},"op":"=","pos":18,"rhs":{"pos":20,"type":"number","value":0},"type":"binary"},"else":{"body":{"args":[{"lhs":{"pos":32,"type":"variable","value":"n"},"op":"-","pos":34,"rhs":{"pos":36,"type":"number","value":1},"type":"binary"}],"pos":30,"procedure":{"pos":29,"type":"variable","value":"f"},"type":"function"},"params":[],"pos":30,"thunk":true,"type":"lambda"},"pos":22,"then":{"pos":24,"type":"number","value":1},"type":"condition"},"params":["n"],"pos":9,"type":"lambda"}}
{"expr":"function($n){ ($a := 1; $f($n)) }","ast":{"body":{"exprs":[{"name":"a","pos":20,"rhs":{"pos":22,"type":"number","value":1},"type":"bind"},{"body":{"args":[{"pos":29,"type":"variable","value":"n"}],"pos":27,"procedure":{"pos":26,"type":"variable","value":"f"},"type":"function"},"params":[],"pos":27,"thunk":true,"type":"lambda"}],"pos":15,"type":"block"},"params":["n"],"pos":9,"type":"lambda"}}
{"expr":"function($n){ $f($n)[0] }","ast":{"body":{"args":[{"pos":19,"type":"variable","value":"n"}],"pos":17,"predicate":[{"filter":{"pos":22,"type":"number","value":0},"pos":21}],"procedure":{"pos":16,"type":"variable","value":"f"},"type":"function"},"params":["n"],"pos":9,"type":"lambda"}}
{"expr":"function($n){ $f($n).a }","ast":{"body":{"steps":[{"args":[{"pos":19,"type":"variable","value":"n"}],"pos":17,"procedure":{"pos":16,"type":"variable","value":"f"},"type":"function"},{"pos":22,"type":"name","value":"a"}],"type":"path"},"params":["n"],"pos":9,"type":"lambda"}}
{"expr":"function($n){ $f($n){\"a\": 1} }","ast":{"body":{"body":{"args":[{"pos":19,"type":"variable","value":"n"}],"group":{"pairs":[[{"pos":24,"type":"string","value":"a"},{"pos":27,"type":"number","value":1}]],"pos":21},"pos":17,"procedure":{"pos":16,"type":"variable","value":"f"},"type":"function"},"params":[],"pos":17,"thunk":true,"type":"lambda"},"params":["n"],"pos":9,"type":"lambda"}}
{"expr":"function(?){1}","error":{"code":"S0208","position":10,"token":"?","value":1}}
{"expr":"function($a.b){1}","error":{"code":"S0208","position":12,"token":".","value":1}}
{"expr":"function(a){1}","error":{"code":"S0208","position":10,"token":"a","value":1}}
{"expr":"function($a, 1){1}","error":{"code":"S0208","position":14,"token":1,"value":2}}
{"expr":"λ($x)<n:n>{$x}","ast":{"body":{"pos":13,"type":"variable","value":"x"},"params":["x"],"pos":2,"signature":true,"type":"lambda"}}
{"expr":"function($x)<a<n>>{$x}","ast":{"body":{"pos":21,"type":"variable","value":"x"},"params":["x"],"pos":9,"signature":true,"type":"lambda"}}
{"expr":"function($x)<n<n>>{$x}","error":{"code":"S0401","position":15,"value":"n"}}
{"expr":"function($x)<(sa<n>)>{$x}","error":{"code":"S0402","position":14,"value":"sa<n>"}}
{"expr":"function($x)<n>{$x}(1)","ast":{"args":[{"pos":21,"type":"number","value":1}],"pos":20,"procedure":{"body":{"pos":18,"type":"variable","value":"x"},"params":["x"],"pos":9,"signature":true,"type":"lambda"},"type":"function"}}
{"expr":"function($x)<n{$x}","error":{"code":"S0202","position":15,"token":"{","value":">"}}
{"expr":"function($x)<n","error":{"code":"S0203","position":14,"token":"(end)","value":">"}}
{"expr":"-1","ast":{"pos":2,"type":"number","value":-1}}
{"expr":"--1","ast":{"pos":3,"type":"number","value":1}}
{"expr":"-a","ast":{"expr":{"steps":[{"pos":2,"type":"name","value":"a"}],"type":"path"},"op":"-","pos":1,"type":"unary"}}
{"expr":"-\"s\"","ast":{"expr":{"pos":4,"type":"string","value":"s"},"op":"-","pos":1,"type":"unary"}}
{"expr":"-(1)","ast":{"expr":{"exprs":[{"pos":3,"type":"number","value":1}],"pos":2,"type":"block"},"op":"-","pos":1,"type":"unary"}}
{"expr":"-1[0]","ast":{"pos":2,"predicate":[{"filter":{"pos":4,"type":"number","value":0},"pos":3}],"type":"number","value":-1}}
{"expr":"a.-1","error":{"code":"S0213","position":4,"value":-1}}
{"expr":"a.1","error":{"code":"S0213","position":3,"value":1}}
{"expr":"a.true","error":{"code":"S0213","position":6,"value":true}}
{"expr":"a.null","error":{"code":"S0213","position":6,"value":null}}
{"expr":"a.\"b\"","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"pos":5,"type":"name","value":"b"}],"type":"path"}}
{"expr":"\"b\".a","ast":{"steps":[{"pos":3,"type":"name","value":"b"},{"pos":5,"type":"name","value":"a"}],"type":"path"}}
{"expr":"\"a\"","ast":{"pos":3,"type":"string","value":"a"}}
{"expr":"1.a","error":{"code":"S0213","position":1,"value":1}}
{"expr":"a.b{\"x\": 1}","ast":{"group":{"pairs":[[{"pos":7,"type":"string","value":"x"},{"pos":10,"type":"number","value":1}]],"pos":4},"steps":[{"pos":1,"type":"name","value":"a"},{"pos":3,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a{\"x\":1}{\"y\":2}","error":{"code":"S0210","position":9}}
{"expr":"$x{\"a\":1}[0]","error":{"code":"S0209","position":10}}
{"expr":"a{\"a\":1}[0]","ast":{"group":{"pairs":[[{"pos":5,"type":"string","value":"a"},{"pos":7,"type":"number","value":1}]],"pos":2},"steps":[{"pos":1,"stages":[{"filter":{"pos":10,"type":"number","value":0},"pos":9}],"type":"name","value":"a"}],"type":"path"}}
{"expr":"a^(b)","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"pos":2,"terms":[{"desc":false,"expr":{"steps":[{"pos":4,"type":"name","value":"b"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"a^(>b, <c)","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"pos":2,"terms":[{"desc":true,"expr":{"steps":[{"pos":5,"type":"name","value":"b"}],"type":"path"}},{"desc":false,"expr":{"steps":[{"pos":9,"type":"name","value":"c"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"a.b^(c).d","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"pos":3,"type":"name","value":"b"},{"pos":4,"terms":[{"desc":false,"expr":{"steps":[{"pos":6,"type":"name","value":"c"}],"type":"path"}}],"type":"sort"},{"pos":9,"type":"name","value":"d"}],"type":"path"}}
{"expr":"a^(b)@$x","error":{"code":"S0216","position":6}}
{"expr":"a[0]@$x","error":{"code":"S0215","position":5}}
{"expr":"a#$i","ast":{"steps":[{"index":"i","pos":1,"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"a#$i[0]","ast":{"steps":[{"index":"i","pos":1,"stages":[{"filter":{"pos":6,"type":"number","value":0},"pos":5}],"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"a[0]#$i","ast":{"steps":[{"pos":1,"stages":[{"filter":{"pos":3,"type":"number","value":0},"pos":2},{"index":"i","pos":5}],"tuple":true,"type":"name","value":"a"}],"type":"path"}}
{"expr":"$x#$i","ast":{"steps":[{"index":"i","pos":2,"tuple":true,"type":"variable","value":"x"}],"type":"path"}}
{"expr":"$x[0]#$i","ast":{"steps":[{"pos":2,"stages":[{"filter":{"pos":4,"type":"number","value":0},"pos":3},{"index":"i","pos":6}],"tuple":true,"type":"variable","value":"x"}],"type":"path"}}
{"expr":"a@b","error":{"code":"S0214","position":3,"token":"@"}}
{"expr":"a#b","error":{"code":"S0214","position":3,"token":"#"}}
{"expr":"a@$x#$i.b","ast":{"steps":[{"focus":"x","index":"i","pos":1,"tuple":true,"type":"name","value":"a"},{"pos":9,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a.b@$x.c@$y.d[%.e]","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"focus":"x","pos":3,"tuple":true,"type":"name","value":"b"},{"focus":"y","pos":8,"tuple":true,"type":"name","value":"c"},{"ancestor":"L0","pos":13,"stages":[{"filter":{"steps":[{"label":"L0","type":"parent"},{"pos":17,"type":"name","value":"e"}],"type":"path"},"pos":14}],"tuple":true,"type":"name","value":"d"}],"type":"path"}}
{"expr":"Account.Order@$o.Product[%.OrderID = 'order103']","ast":{"steps":[{"pos":7,"type":"name","value":"Account"},{"focus":"o","pos":13,"tuple":true,"type":"name","value":"Order"},{"ancestor":"L0","pos":24,"stages":[{"filter":{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":34,"type":"name","value":"OrderID"}],"type":"path"},"op":"=","pos":36,"rhs":{"pos":47,"type":"string","value":"order103"},"type":"binary"},"pos":25}],"tuple":true,"type":"name","value":"Product"}],"type":"path"}}
{"expr":"a := 1","error":{"code":"S0212","position":1,"token":"a"}}
{"expr":"[1..5]","ast":{"items":[{"lhs":{"pos":2,"type":"number","value":1},"op":"..","pos":4,"rhs":{"pos":5,"type":"number","value":5},"type":"binary"}],"op":"[","pos":1,"type":"unary"}}
{"expr":"[1..5, 7]","ast":{"items":[{"lhs":{"pos":2,"type":"number","value":1},"op":"..","pos":4,"rhs":{"pos":5,"type":"number","value":5},"type":"binary"},{"pos":8,"type":"number","value":7}],"op":"[","pos":1,"type":"unary"}}
{"expr":"1..5","error":{"code":"S0201","position":3,"token":".."}}
{"expr":"[]","ast":{"items":[],"op":"[","pos":1,"type":"unary"}}
{"expr":"{}","ast":{"op":"{","pairs":[],"pos":1,"type":"unary"}}
{"expr":"(1;;2)","error":{"code":"S0211","position":4,"token":";"}}
{"expr":"| a | {\"b\": 1} |","ast":{"pattern":{"steps":[{"pos":3,"type":"name","value":"a"}],"type":"path"},"pos":1,"type":"transform","update":{"op":"{","pairs":[[{"pos":10,"type":"string","value":"b"},{"pos":13,"type":"number","value":1}]],"pos":7,"type":"unary"}}}
{"expr":"| a | {\"b\": 1}, [\"c\"] |","ast":{"delete":{"items":[{"pos":20,"type":"string","value":"c"}],"op":"[","pos":17,"type":"unary"},"pattern":{"steps":[{"pos":3,"type":"name","value":"a"}],"type":"path"},"pos":1,"type":"transform","update":{"op":"{","pairs":[[{"pos":10,"type":"string","value":"b"},{"pos":13,"type":"number","value":1}]],"pos":7,"type":"unary"}}}
{"expr":"| a | {\"b\": 1}, [\"c\"]","error":{"code":"S0203","position":21,"token":"(end)","value":"|"}}
{"expr":"a ~> $f","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":4,"rhs":{"pos":7,"type":"variable","value":"f"},"type":"apply"}}
{"expr":"a[] ~> $f","ast":{"keepArray":true,"lhs":{"keepArray":true,"keepSingletonArray":true,"steps":[{"keepArray":true,"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":6,"rhs":{"pos":9,"type":"variable","value":"f"},"type":"apply"}}
{"expr":"$f ~> $g[]","ast":{"keepArray":true,"lhs":{"pos":2,"type":"variable","value":"f"},"pos":5,"rhs":{"keepArray":true,"pos":8,"type":"variable","value":"g"},"type":"apply"}}
{"expr":"//","error":{"code":"S0301","position":1}}
{"expr":"/ab","error":{"code":"S0302","position":3}}
{"expr":"a[]/2","error":{"code":"S0302","position":5}}
{"expr":"/* unclosed","error":{"code":"S0106","position":0}}
{"expr":"\"abc","error":{"code":"S0101","position":4}}
{"expr":"\"\\u0041\\u00e9\"","ast":{"pos":14,"type":"string","value":"Aé"}}
{"expr":"\"\\uD83D\\uDE00\"","ast":{"pos":14,"type":"string","value":"😀"}}
{"expr":"\"\\q\"","error":{"code":"S0103","position":2,"token":"q"}}
{"expr":"\"\\u00G1\"","error":{"code":"S0104","position":2}}
{"expr":"\"\\u12","error":{"code":"S0101","position":7}}
{"expr":"\"\\","error":{"code":"S0103","position":2,"token":""}}
{"expr":"`unclosed","error":{"code":"S0105","position":9}}
{"expr":"1e999","error":{"code":"S0102","position":0,"token":"1e999"}}
{"expr":"00","error":{"code":"S0201","position":2,"token":0}}
{"expr":"1.","error":{"code":"S0207","position":2,"token":"(end)"}}
{"expr":".5","error":{"code":"S0211","position":1,"token":"."}}
{"expr":"a!b","error":{"code":"S0204","position":2,"token":"!"}}
{"expr":"a ! b","error":{"code":"S0204","position":3,"token":"!"}}
{"expr":"a~b","error":{"code":"S0204","position":2,"token":"~"}}
{"expr":"a ~ b","error":{"code":"S0204","position":3,"token":"~"}}
{"expr":"a ~> ","error":{"code":"S0207","position":5,"token":"(end)"}}
{"expr":"1 +","error":{"code":"S0207","position":3,"token":"(end)"}}
{"expr":"(","error":{"code":"S0203","position":1,"token":"(end)","value":")"}}
{"expr":")","error":{"code":"S0211","position":1,"token":")"}}
{"expr":"]","error":{"code":"S0211","position":1,"token":"]"}}
{"expr":"+","error":{"code":"S0211","position":1,"token":"+"}}
{"expr":"a ** b","error":{"code":"S0201","position":4,"token":"**"}}
{"expr":"{\"a\": %}","error":{"code":"S0217","position":1,"token":"unary"}}
{"expr":"a.{\"a\": %.b}","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"op":"{","pairs":[[{"pos":6,"type":"string","value":"a"},{"steps":[{"label":"L0","type":"parent"},{"pos":11,"type":"name","value":"b"}],"type":"path"}]],"pos":3,"type":"unary"}],"type":"path"}}
{"expr":"a.(b; %.c)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"steps":[{"pos":4,"type":"name","value":"b"}],"type":"path"},{"steps":[{"label":"L0","type":"parent"},{"pos":9,"type":"name","value":"c"}],"type":"path"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.b[%.c][%.d]","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"stages":[{"filter":{"steps":[{"label":"L0","type":"parent"},{"pos":7,"type":"name","value":"c"}],"type":"path"},"pos":4},{"filter":{"steps":[{"label":"L0","type":"parent"},{"pos":12,"type":"name","value":"d"}],"type":"path"},"pos":9}],"tuple":true,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a.b[%.%.c][%.%.d]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"stages":[{"filter":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":9,"type":"name","value":"c"}],"type":"path"},"pos":4},{"filter":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":16,"type":"name","value":"d"}],"type":"path"},"pos":11}],"tuple":true,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a.b.c[%.%.d]","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"tuple":true,"type":"name","value":"b"},{"ancestor":"L1","pos":5,"stages":[{"filter":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":11,"type":"name","value":"d"}],"type":"path"},"pos":6}],"tuple":true,"type":"name","value":"c"}],"type":"path"}}
{"expr":"a.b.c[%.%.%.d]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"tuple":true,"type":"name","value":"b"},{"ancestor":"L2","pos":5,"stages":[{"filter":{"steps":[{"label":"L2","type":"parent"},{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":13,"type":"name","value":"d"}],"type":"path"},"pos":6}],"tuple":true,"type":"name","value":"c"}],"type":"path"}}
{"expr":"a.b.c.(%.%.%.d)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"tuple":true,"type":"name","value":"b"},{"ancestor":"L2","pos":5,"tuple":true,"type":"name","value":"c"},{"exprs":[{"steps":[{"label":"L2","type":"parent"},{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":14,"type":"name","value":"d"}],"type":"path"}],"pos":7,"type":"block"}],"type":"path"}}
{"expr":"a.$f(%)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"args":[{"label":"L0","type":"parent"}],"pos":5,"procedure":{"pos":4,"type":"variable","value":"f"},"type":"function"}],"type":"path"}}
{"expr":"a.$f(%.x)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"args":[{"steps":[{"label":"L0","type":"parent"},{"pos":8,"type":"name","value":"x"}],"type":"path"}],"pos":5,"procedure":{"pos":4,"type":"variable","value":"f"},"type":"function"}],"type":"path"}}
{"expr":"a.(%.x ~> $f)","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"lhs":{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"x"}],"type":"path"},"pos":9,"rhs":{"pos":12,"type":"variable","value":"f"},"type":"apply"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.(% + 1)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"lhs":{"label":"L0","type":"parent"},"op":"+","pos":6,"rhs":{"pos":8,"type":"number","value":1},"type":"binary"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.[%]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"consarray":true,"items":[{"label":"L0","type":"parent"}],"op":"[","pos":3,"type":"unary"}],"type":"path"}}
{"expr":"a.{%: 1}","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"op":"{","pairs":[[{"label":"L0","type":"parent"},{"pos":7,"type":"number","value":1}]],"pos":3,"type":"unary"}],"type":"path"}}
{"expr":"a.(-%)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"expr":{"label":"L0","type":"parent"},"op":"-","pos":4,"type":"unary"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.(%.x ? 1 : 2)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"cond":{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"x"}],"type":"path"},"else":{"pos":14,"type":"number","value":2},"pos":8,"then":{"pos":10,"type":"number","value":1},"type":"condition"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.($x := %)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"exprs":[{"name":"x","pos":8,"rhs":{"label":"L0","type":"parent"},"type":"bind"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.(function(){%})","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"body":{"label":"L0","type":"parent"},"params":[],"pos":12,"type":"lambda"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.(| % | {} |)","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"pattern":{"label":"L0","type":"parent"},"pos":4,"type":"transform","update":{"op":"{","pairs":[],"pos":10,"type":"unary"}}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"a.%.b","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"label":"L0","type":"parent"},{"pos":5,"type":"name","value":"b"}],"type":"path"}}
{"expr":"a.%.%.b","error":{"code":"S0217","token":"path"}}
{"expr":"a.b.%.c.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"tuple":true,"type":"name","value":"b"},{"label":"L0","type":"parent"},{"ancestor":"L1","pos":7,"tuple":true,"type":"name","value":"c"},{"label":"L1","type":"parent"}],"type":"path"}}
{"expr":"a.b@$x.c.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"focus":"x","pos":3,"tuple":true,"type":"name","value":"b"},{"ancestor":"L0","pos":8,"tuple":true,"type":"name","value":"c"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.b@$x.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","focus":"x","pos":3,"tuple":true,"type":"name","value":"b"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a@$x.b@$y.c@$z.%.%","error":{"code":"S0217","token":"path"}}
{"expr":"a.b#$i.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","index":"i","pos":3,"tuple":true,"type":"name","value":"b"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.*.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"tuple":true,"type":"wildcard"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.**.%","error":{"code":"S0217","position":4,"token":"descendant"}}
{"expr":"a.$.%","error":{"code":"S0217","position":3,"token":"variable"}}
{"expr":"a.$x.%","error":{"code":"S0217","position":4,"token":"variable"}}
{"expr":"a.\"b\".%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":5,"tuple":true,"type":"name","value":"b"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.(b).%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"steps":[{"ancestor":"L0","pos":4,"tuple":true,"type":"name","value":"b"}],"tuple":true,"type":"path"}],"pos":3,"tuple":true,"type":"block"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.(b.c).%.%","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"steps":[{"ancestor":"L0","pos":4,"tuple":true,"type":"name","value":"b"},{"ancestor":"L1","pos":6,"tuple":true,"type":"name","value":"c"}],"tuple":true,"type":"path"}],"pos":3,"tuple":true,"type":"block"},{"label":"L1","type":"parent"},{"label":"L0","type":"parent"}],"type":"path"}}
{"expr":"a.([1]).%","error":{"code":"S0217","position":4,"token":"unary"}}
{"expr":"a.^(%.b)","error":{"code":"S0211","position":3,"token":"^"}}
{"expr":"a^(%.b)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"pos":2,"terms":[{"desc":false,"expr":{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"b"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"a.b^(%.c)","ast":{"steps":[{"pos":1,"type":"name","value":"a"},{"ancestor":"L0","pos":3,"tuple":true,"type":"name","value":"b"},{"pos":4,"terms":[{"desc":false,"expr":{"steps":[{"label":"L0","type":"parent"},{"pos":8,"type":"name","value":"c"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"a.b^(%.%.c)","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"a"},{"ancestor":"L1","pos":3,"tuple":true,"type":"name","value":"b"},{"pos":4,"terms":[{"desc":false,"expr":{"steps":[{"label":"L1","type":"parent"},{"label":"L0","type":"parent"},{"pos":10,"type":"name","value":"c"}],"type":"path"}}],"type":"sort"}],"type":"path"}}
{"expr":"a.b{%.c: 1}","ast":{"group":{"pairs":[[{"steps":[{"label":"L0","type":"parent"},{"pos":7,"type":"name","value":"c"}],"type":"path"},{"pos":10,"type":"number","value":1}]],"pos":4},"steps":[{"pos":1,"type":"name","value":"a"},{"pos":3,"type":"name","value":"b"}],"type":"path"}}
{"expr":"function($x){$x}(1)","ast":{"args":[{"pos":18,"type":"number","value":1}],"pos":17,"procedure":{"body":{"pos":15,"type":"variable","value":"x"},"params":["x"],"pos":9,"type":"lambda"},"type":"function"}}
{"expr":"$x.function($y){$y}","ast":{"steps":[{"pos":2,"type":"variable","value":"x"},{"body":{"pos":18,"type":"variable","value":"y"},"params":["y"],"pos":12,"type":"lambda"}],"type":"path"}}
{"expr":"a ?: b ? c : d","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":4,"rhs":{"cond":{"steps":[{"pos":6,"type":"name","value":"b"}],"type":"path"},"else":{"steps":[{"pos":14,"type":"name","value":"d"}],"type":"path"},"pos":8,"then":{"steps":[{"pos":10,"type":"name","value":"c"}],"type":"path"},"type":"condition"},"type":"elvis"}}
{"expr":"a ? b ?: c : d","ast":{"cond":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"else":{"steps":[{"pos":14,"type":"name","value":"d"}],"type":"path"},"pos":3,"then":{"lhs":{"steps":[{"pos":5,"type":"name","value":"b"}],"type":"path"},"pos":8,"rhs":{"steps":[{"pos":10,"type":"name","value":"c"}],"type":"path"},"type":"elvis"},"type":"condition"}}
{"expr":"a ?? b ? c : d","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":4,"rhs":{"cond":{"steps":[{"pos":6,"type":"name","value":"b"}],"type":"path"},"else":{"steps":[{"pos":14,"type":"name","value":"d"}],"type":"path"},"pos":8,"then":{"steps":[{"pos":10,"type":"name","value":"c"}],"type":"path"},"type":"condition"},"type":"coalesce"}}
{"expr":"a = b ?: c","ast":{"lhs":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"op":"=","pos":3,"rhs":{"steps":[{"pos":5,"type":"name","value":"b"}],"type":"path"},"type":"binary"},"pos":8,"rhs":{"steps":[{"pos":10,"type":"name","value":"c"}],"type":"path"},"type":"elvis"}}
{"expr":"a ?: b = c","ast":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":4,"rhs":{"lhs":{"steps":[{"pos":6,"type":"name","value":"b"}],"type":"path"},"op":"=","pos":8,"rhs":{"steps":[{"pos":10,"type":"name","value":"c"}],"type":"path"},"type":"binary"},"type":"elvis"}}
{"expr":"$x := a ?: b","ast":{"name":"x","pos":5,"rhs":{"lhs":{"steps":[{"pos":7,"type":"name","value":"a"}],"type":"path"},"pos":10,"rhs":{"steps":[{"pos":12,"type":"name","value":"b"}],"type":"path"},"type":"elvis"},"type":"bind"}}
{"expr":"a ~> $f ?: b","ast":{"lhs":{"lhs":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"pos":4,"rhs":{"pos":7,"type":"variable","value":"f"},"type":"apply"},"pos":10,"rhs":{"steps":[{"pos":12,"type":"name","value":"b"}],"type":"path"},"type":"elvis"}}
{"expr":"a[\"b\"]","ast":{"steps":[{"pos":1,"stages":[{"filter":{"pos":5,"type":"string","value":"b"},"pos":2}],"type":"name","value":"a"}],"type":"path"}}
{"expr":"a[b = \"c\"].d","ast":{"steps":[{"pos":1,"stages":[{"filter":{"lhs":{"steps":[{"pos":3,"type":"name","value":"b"}],"type":"path"},"op":"=","pos":5,"rhs":{"pos":9,"type":"string","value":"c"},"type":"binary"},"pos":2}],"type":"name","value":"a"},{"pos":12,"type":"name","value":"d"}],"type":"path"}}
{"expr":"λ($x){$x}","ast":{"body":{"pos":8,"type":"variable","value":"x"},"params":["x"],"pos":2,"type":"lambda"}}
{"expr":"function($x){ $x }(1)","ast":{"args":[{"pos":20,"type":"number","value":1}],"pos":19,"procedure":{"body":{"pos":16,"type":"variable","value":"x"},"params":["x"],"pos":9,"type":"lambda"},"type":"function"}}
{"expr":"(a)[]","ast":{"exprs":[{"steps":[{"pos":2,"type":"name","value":"a"}],"type":"path"}],"keepArray":true,"pos":1,"type":"block"}}
{"expr":"\"a\"[0]","ast":{"pos":3,"predicate":[{"filter":{"pos":5,"type":"number","value":0},"pos":4}],"type":"string","value":"a"}}
{"expr":"a.b{\"x\": 1}.c","ast":{"group":{"pairs":[[{"pos":7,"type":"string","value":"x"},{"pos":10,"type":"number","value":1}]],"pos":4},"steps":[{"pos":1,"type":"name","value":"a"},{"pos":3,"type":"name","value":"b"},{"pos":13,"type":"name","value":"c"}],"type":"path"}}
{"expr":"a{\"x\": 1}.c","ast":{"group":{"pairs":[[{"pos":5,"type":"string","value":"x"},{"pos":8,"type":"number","value":1}]],"pos":2},"steps":[{"pos":1,"type":"name","value":"a"},{"pos":11,"type":"name","value":"c"}],"type":"path"}}
{"expr":"a.(b){\"x\":1}","ast":{"group":{"pairs":[[{"pos":9,"type":"string","value":"x"},{"pos":11,"type":"number","value":1}]],"pos":6},"steps":[{"pos":1,"type":"name","value":"a"},{"exprs":[{"steps":[{"pos":4,"type":"name","value":"b"}],"type":"path"}],"pos":3,"type":"block"}],"type":"path"}}
{"expr":"$f(){\"a\":1}","ast":{"args":[],"group":{"pairs":[[{"pos":8,"type":"string","value":"a"},{"pos":10,"type":"number","value":1}]],"pos":5},"pos":3,"procedure":{"pos":2,"type":"variable","value":"f"},"type":"function"}}
{"expr":"a.b.c{\"k\": v}[0]","ast":{"group":{"pairs":[[{"pos":9,"type":"string","value":"k"},{"steps":[{"pos":12,"type":"name","value":"v"}],"type":"path"}]],"pos":6},"steps":[{"pos":1,"type":"name","value":"a"},{"pos":3,"type":"name","value":"b"},{"pos":5,"stages":[{"filter":{"pos":15,"type":"number","value":0},"pos":14}],"type":"name","value":"c"}],"type":"path"}}
{"expr":"a ? b : c{\"x\":1}","ast":{"cond":{"steps":[{"pos":1,"type":"name","value":"a"}],"type":"path"},"else":{"group":{"pairs":[[{"pos":13,"type":"string","value":"x"},{"pos":15,"type":"number","value":1}]],"pos":10},"steps":[{"pos":9,"type":"name","value":"c"}],"type":"path"},"pos":3,"then":{"steps":[{"pos":5,"type":"name","value":"b"}],"type":"path"},"type":"condition"}}
{"expr":"x.{\"a\": %.y}","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"x"},{"op":"{","pairs":[[{"pos":6,"type":"string","value":"a"},{"steps":[{"label":"L0","type":"parent"},{"pos":11,"type":"name","value":"y"}],"type":"path"}]],"pos":3,"type":"unary"}],"type":"path"}}
{"expr":"x.[%.y]","ast":{"steps":[{"ancestor":"L0","pos":1,"tuple":true,"type":"name","value":"x"},{"consarray":true,"items":[{"steps":[{"label":"L0","type":"parent"},{"pos":6,"type":"name","value":"y"}],"type":"path"}],"op":"[","pos":3,"type":"unary"}],"type":"path"}}
{"expr":"library.books#$i['Kernighan' in authors].{'title': title, 'index': $i }","ast":{"steps":[{"pos":7,"type":"name","value":"library"},{"index":"i","pos":13,"stages":[{"filter":{"lhs":{"pos":28,"type":"string","value":"Kernighan"},"op":"in","pos":31,"rhs":{"steps":[{"pos":39,"type":"name","value":"authors"}],"type":"path"},"type":"binary"},"pos":17}],"tuple":true,"type":"name","value":"books"},{"op":"{","pairs":[[{"pos":49,"type":"string","value":"title"},{"steps":[{"pos":56,"type":"name","value":"title"}],"type":"path"}],[{"pos":65,"type":"string","value":"index"},{"pos":69,"type":"variable","value":"i"}]],"pos":42,"type":"unary"}],"type":"path"}}
"##;
