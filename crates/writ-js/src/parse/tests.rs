//! Tests of the front end: every refusal class with its reason and message, name resolution,
//! host-call rules, lone surrogates, node counts, and depth bombs on 2 MiB threads.

use writ_core::{Str, Value};

use super::{MAX_AST_DEPTH, ParseOptions, parse};
use crate::ast::{Arg, Callee, Element, Expr, Lambda, Local, MethodKey, Pattern, Program, Prop, PropKey, Property};
use crate::error::{Error, Reason};
use crate::tables::{ArrayFn, Global, MathFn, ObjectFn, Static};

/// The host functions of most tests: indices 0 and 1.
const HOSTS: &[&str] = &["getUser", "log"];

/// Options with a roomy source limit and [`HOSTS`].
fn options() -> ParseOptions<'static> {
    ParseOptions {
        max_source_length: 100_000,
        host_functions: HOSTS,
    }
}

/// Parses `source`, which must be accepted.
fn ok(source: &str) -> Program {
    match parse(source, &options()) {
        Ok(program) => program,
        Err(error) => panic!("{source:?} should parse, got {error:?}"),
    }
}

/// Parses `source`, which must be refused.
fn err(source: &str) -> Error {
    match parse(source, &options()) {
        Ok(program) => panic!("{source:?} should be refused, got {:?}", program.root),
        Err(error) => error,
    }
}

/// Asserts that `source` is refused for `reason` with a message containing `needle`.
fn refused(source: &str, reason: Reason, needle: &str) {
    let error = err(source);
    assert_eq!(error.reason(), reason, "{source:?}: {error:?}");
    assert!(
        error.message().contains(needle),
        "{source:?}: message {:?} lacks {needle:?}",
        error.message()
    );
}

/// Asserts a guardrail refusal whose message contains `needle`.
fn guardrail(source: &str, needle: &str) {
    refused(source, Reason::GuardrailViolation, needle);
}

/// The free names, as Rust strings.
fn names(program: &Program) -> Vec<String> {
    program
        .free_names
        .iter()
        .map(|name| name.key().to_string_lossy().into_owned())
        .collect()
}

/// The UTF-16 code units of `text`.
fn units(text: &Str) -> Vec<u16> {
    text.code_units().collect()
}

/// The string a constant holds.
fn as_string(expr: &Expr) -> &Str {
    match expr {
        Expr::Const(Value::String(text)) => text,
        other => panic!("expected a string constant, got {other:?}"),
    }
}

/// The call at the root, its callee and arguments.
fn root_call(program: &Program) -> (&Callee, &[Arg]) {
    match &program.root {
        Expr::Call(call) => (&call.callee, &call.args),
        other => panic!("expected a call, got {other:?}"),
    }
}

/// The first arrow among the root call's arguments.
fn first_lambda(program: &Program) -> &Lambda {
    let (_, args) = root_call(program);
    args.iter()
        .find_map(|arg| match arg {
            Arg::Lambda(lambda) => Some(lambda.as_ref()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no lambda in {args:?}"))
}

/// Blank and long sources are refused before parsing.
#[test]
fn blank_and_long_sources_are_refused_before_parsing() {
    for source in ["", "   ", "\n\t ", "\u{A0}\u{FEFF}\u{2028}"] {
        refused(source, Reason::ExpressionSyntax, "Expression is empty");
    }
    let short = ParseOptions {
        max_source_length: 5,
        host_functions: &[],
    };
    let error = parse("a + bcd", &short)
        .err()
        .unwrap_or_else(|| panic!("7 characters passed a limit of 5"));
    assert_eq!(error.reason(), Reason::ExpressionSyntax);
    assert_eq!(error.message(), "Expression is too long (7 characters; the limit is 5)");
    // Counted in UTF-16 code units: an emoji is two.
    assert!(parse("'é'", &short).is_ok());
    let error = parse("'😀😀'", &short)
        .err()
        .unwrap_or_else(|| panic!("6 units passed a limit of 5"));
    assert_eq!(error.message(), "Expression is too long (6 characters; the limit is 5)");
    assert!(parse("'😀'", &short).is_ok());
}

/// Syntax errors carry oxc message and position.
#[test]
fn syntax_errors_carry_oxc_message_and_position() {
    let error = err("1 +");
    assert_eq!(error.reason(), Reason::ExpressionSyntax);
    assert!(error.message().starts_with("Syntax error: "), "{error:?}");
    assert!(error.message().contains("line 1, column"), "{error:?}");
    let error = err("a\n  .b c");
    assert!(error.message().contains("line 2, column 6"), "{error:?}");
    for source in [
        "1); (2",
        "1), (2",
        "a b",
        "(a",
        "[1, 2",
        "'open",
        "a.",
        "{ a: }",
        "x => y =>",
    ] {
        refused(source, Reason::ExpressionSyntax, "Syntax error");
    }
}

/// One expression with objects and comments.
#[test]
fn one_expression_with_objects_and_comments() {
    assert!(matches!(ok("{ a: 1 }").root, Expr::Record(_)));
    assert!(matches!(ok("{}").root, Expr::Record(_)));
    assert!(matches!(ok("{ a: 1, ...b }").root, Expr::Object(_)));
    assert!(matches!(ok("a // trailing comment").root, Expr::Free(0)));
    assert!(matches!(ok("/* lead */ a /* trail */").root, Expr::Free(0)));
    assert!(matches!(ok("a\n// comment\n+ b").root, Expr::Binary(..)));
    guardrail("1, 2", "\"SequenceExpression\" is not part of the expression language");
}

/// Refused node types and operators.
#[test]
fn refused_node_types_and_operators() {
    guardrail(
        "new Date()",
        "\"new\" is not part of the expression language — every value is JSON",
    );
    guardrail(
        "a = 1",
        "\"AssignmentExpression\" is not part of the expression language — an expression computes",
    );
    guardrail("a += 1", "cannot assign");
    guardrail("({ a } = b)", "cannot assign");
    guardrail("a++", "\"UpdateExpression\"");
    guardrail("--a", "\"UpdateExpression\"");
    guardrail(
        "'a' in o",
        "\"in\" is not part of the expression language — to test for a key",
    );
    guardrail("a instanceof Array", "\"instanceof\"");
    for op in ["&", "|", "^", "<<", ">>", ">>>"] {
        guardrail(
            &format!("a {op} b"),
            &format!("\"{op}\" is not part of the expression language — bitwise"),
        );
    }
    guardrail("~a", "\"~\" is not part of the expression language — bitwise");
    guardrail(
        "void 0",
        "\"void\" is not part of the expression language — write undefined",
    );
    guardrail("delete a.b", "\"delete\" is not part of the expression language");
    guardrail("this", "\"ThisExpression\"");
    guardrail("this.a", "\"ThisExpression\"");
    guardrail("tag`x`", "\"TaggedTemplateExpression\"");
    guardrail("import('x')", "\"ImportExpression\"");
    guardrail("class {}", "\"ClassExpression\"");
    guardrail("(class A extends B {})", "\"ClassExpression\"");
    guardrail("await x", "\"AwaitExpression\"");
    guardrail("async x => await x", "\"AwaitExpression\"");
    guardrail("1n", "\"BigIntLiteral\"");
    guardrail("({ 1n: 2 })", "\"BigIntLiteral\"");
    guardrail("/ab+c/", "\"RegExpLiteral\"");
    guardrail("s.replace(/a/g, 'b')", "\"RegExpLiteral\"");
    guardrail("a ? /x/ : 1", "\"RegExpLiteral\"");
    guardrail(
        "[1, , 2]",
        "An array literal cannot skip an item — write undefined there",
    );
    guardrail("[, 1]", "cannot skip an item");
    guardrail(
        "f?.()",
        "An optional call \"?.()\" is not part of the expression language",
    );
    guardrail("a.b?.()", "optional call");
    guardrail("a?.b?.()", "optional call");
    guardrail("a as T", "\"as\" is TypeScript");
    guardrail("a satisfies T", "\"satisfies\" is TypeScript");
    guardrail("@dec x", "decorator");
    guardrail("a <!-- b", "\"<!--\" is not part of the expression language");
    guardrail("a-->b", "\"-->\" is not part of the expression language");
    guardrail(
        "function () { return 1 }",
        "\"FunctionExpression\" is not part of the expression language",
    );
    guardrail(
        "function () {}",
        "\"FunctionExpression\" is not part of the expression language",
    );
}

/// Object literal rules.
#[test]
fn object_literal_rules() {
    guardrail(
        "({ get a() { return 1 } })",
        "Methods, getters and setters are not part of the expression language",
    );
    guardrail(
        "({ a() {} })",
        "Methods, getters and setters are not part of the expression language",
    );
    guardrail(
        "({ __proto__: x })",
        "A written \"__proto__\" key is not part of the expression language",
    );
    guardrail("({ '__proto__': x })", "\"__proto__\"");
    guardrail("({ __proto__ })", "\"__proto__\"");
    let program = ok("({ ['__proto__']: x, a, 'b c': 1, 1.50: 2, 0x10: 3, 1e21: 4, ...rest })");
    let Expr::Object(props) = &program.root else {
        panic!("{:?}", program.root)
    };
    let keys: Vec<String> = props
        .iter()
        .filter_map(|prop| match prop {
            Prop::Init(PropKey::Static(key), _) => Some(key.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(keys, ["a", "b c", "1.5", "16", "1e+21"]);
    assert!(matches!(&props[0], Prop::Init(PropKey::Computed(_), Expr::Free(0))));
    assert!(matches!(&props[1], Prop::Init(_, Expr::Free(1))));
    assert!(matches!(props.last(), Some(Prop::Spread(Expr::Free(2)))));
    assert_eq!(names(&program), ["x", "a", "rest"]);
}

/// Arrows only as callbacks.
#[test]
fn arrows_only_as_callbacks() {
    let message = "A function can only be written as a method's callback, as in rows.map(r => r.name). Methods that \
                   take one: map, filter";
    guardrail("x => 1", message);
    guardrail("f(x => 1)", message);
    guardrail("rows[k](x => x)", message);
    guardrail("rows.slice(x => x)", message);
    guardrail("rows.map(1, x => x)", "Methods that take one");
    guardrail("({ f: x => x })", "Array.from, Object.groupBy");
    guardrail("rows.map((x = y => 1) => x)", message);
    guardrail(
        "rows.map(x => { return x })",
        "A callback's body must be an expression, not a block",
    );
    guardrail("rows.map(async r => r)", "A callback cannot be async");
    guardrail("rows.map((a, b, c, d, e, f) => a)", "at most 5 parameters");
    guardrail(
        "rows.map((...a) => a)",
        "A rest parameter (...args) is not part of the expression language",
    );
    refused(
        "rows.map((a, a) => a)",
        Reason::ExpressionSyntax,
        "duplicate parameter name \"a\"",
    );
    refused(
        "rows.map(({ a }, [a]) => a)",
        Reason::ExpressionSyntax,
        "duplicate parameter name",
    );

    assert_eq!(first_lambda(&ok("rows.map((a, b, c, d, e) => a)")).params.len(), 5);
    assert!(matches!(root_call(&ok("rows.filter(r => r.ok)")).1, [Arg::Lambda(_)]));
    assert!(matches!(
        root_call(&ok("rows['filter']((r) => r.ok)")).1,
        [Arg::Lambda(_)]
    ));
    assert!(matches!(
        root_call(&ok("rows.reduce((a, r) => a + r, 0)")).1,
        [Arg::Lambda(_), Arg::Value(_)]
    ));
    assert!(matches!(
        root_call(&ok("rows.toSorted(((a, b) => a - b))")).1,
        [Arg::Lambda(_)]
    ));
    let program = ok("rows?.map(r => r)");
    let Expr::Chain(inner) = &program.root else {
        panic!("{:?}", program.root)
    };
    let Expr::Call(call) = inner.as_ref() else {
        panic!("{inner:?}")
    };
    assert!(matches!(&call.callee, Callee::Method { optional: true, .. }));
    assert!(matches!(call.args.as_ref(), [Arg::Lambda(_)]));
}

/// Static callbacks and global callbacks.
#[test]
fn static_callbacks_and_global_callbacks() {
    let program = ok("Array.from({ length: 3 }, (_, i) => i)");
    let (callee, args) = root_call(&program);
    let Callee::Method {
        method: MethodKey::Named(method),
        ..
    } = callee
    else {
        panic!("{callee:?}")
    };
    assert_eq!(method.statik, Some(Static::Array(ArrayFn::From)));
    assert!(matches!(args, [Arg::Value(Expr::Record(_)), Arg::Lambda(_)]));
    let program = ok("Object.groupBy(rows, r => r.status)");
    let (callee, args) = root_call(&program);
    let Callee::Method {
        method: MethodKey::Named(method),
        ..
    } = callee
    else {
        panic!("{callee:?}")
    };
    assert_eq!(method.statik, Some(Static::Object(ObjectFn::GroupBy)));
    assert!(matches!(args, [Arg::Value(Expr::Free(_)), Arg::Lambda(_)]));

    let program = ok("rows.filter(Boolean)");
    assert!(matches!(root_call(&program).1, [Arg::GlobalCallback(1)]));
    assert_eq!(names(&program), ["rows", "Boolean"]);
    assert!(matches!(
        root_call(&ok("ids.map((Number))")).1,
        [Arg::GlobalCallback(1)]
    ));
    assert!(matches!(
        root_call(&ok("Array.from('12', String)")).1,
        [Arg::Value(_), Arg::GlobalCallback(_)]
    ));
    // A name that is not a global is a value; JavaScript decides at run time.
    assert!(matches!(root_call(&ok("rows.map(fn)")).1, [Arg::Value(Expr::Free(1))]));
    assert!(matches!(
        root_call(&ok("rows.map(undefined)")).1,
        [Arg::Value(Expr::Free(1))]
    ));
    // Outside the callback position a global is an ordinary value.
    assert!(matches!(
        root_call(&ok("rows.concat(Boolean)")).1,
        [Arg::Value(Expr::Free(1))]
    ));
    // A parameter named like a global is the parameter.
    let program = ok("rows.map(Boolean => xs.filter(Boolean))");
    let lambda = first_lambda(&program);
    let Expr::Call(call) = &lambda.body else {
        panic!("{:?}", lambda.body)
    };
    assert!(matches!(
        call.args.as_ref(),
        [Arg::Value(Expr::Local(Local { depth: 0, slot: 0 }))]
    ));
    for global in ["parseInt", "Math", "Date", "Array", "Object", "JSON"] {
        guardrail(
            &format!("rows.map({global})"),
            &format!("\"{global}\" cannot be passed as a callback — only a global that takes one argument can"),
        );
    }
}

/// Method names are checked.
#[test]
fn method_names_are_checked() {
    guardrail(
        "rows.push(1)",
        "\"push\" is not an available method — the language has no mutation",
    );
    guardrail("rows.sort()", "toSorted returns a sorted copy");
    guardrail("rows.reverse()", "toReversed");
    guardrail("rows.splice(0, 1)", "toSpliced");
    guardrail(
        "rows.forEach(r => r)",
        "\"forEach\" is not an available method — a callback has no effect",
    );
    guardrail("s.match('a')", "regular expressions are left out");
    guardrail("s.substr(1)", "use slice or substring");
    guardrail("f.call(null, 1)", "a function is never a value");
    guardrail("rows.mapp(r => r)", "did you mean map?");
    guardrail("rows[`push`](1)", "\"push\" is not an available method");
    guardrail("rows['push'](1)", "\"push\" is not an available method");
    // A computed name is looked up when the call runs.
    let program = ok("rows['pu' + 'sh'](1)");
    assert!(matches!(
        root_call(&program).0,
        Callee::Method {
            method: MethodKey::Computed(_),
            ..
        }
    ));
    // The union of all tables passes the parser; the receiver's type decides at run time.
    assert!(ok("[1].values()").root_is_call());
    let program = ok("s.at(-1)");
    let Callee::Method {
        method: MethodKey::Named(method),
        ..
    } = root_call(&program).0
    else {
        panic!()
    };
    assert!(method.array.is_some() && method.string.is_some() && method.number.is_none() && method.statik.is_none());
    assert_eq!(method.text.to_string_lossy(), "at");
}

/// Namespace statics are checked.
#[test]
fn namespace_statics_are_checked() {
    guardrail(
        "Math.random()",
        "\"Math.random\" is not available: random values and the time come from host functions",
    );
    guardrail(
        "Date.now()",
        "\"Date.now\" is not available: random values and the time come from host functions",
    );
    guardrail(
        "Math.flor(1.5)",
        "\"Math.flor\" is not available — did you mean Math.floor?",
    );
    guardrail(
        "JSON.zzz(1)",
        "\"JSON.zzz\" is not available — JSON has parse, stringify",
    );
    guardrail("Array.map(x => x)", "\"Array.map\" is not available");
    guardrail("(Math).random()", "\"Math.random\"");
    guardrail("Math['random']()", "\"Math.random\"");
    let program = ok("Math.max(a, 1)");
    let Callee::Method {
        receiver,
        method: MethodKey::Named(method),
        optional,
    } = root_call(&program).0
    else {
        panic!()
    };
    assert!(matches!(receiver, Expr::Free(0)));
    assert!(!optional);
    assert_eq!(method.statik, Some(Static::Math(MathFn::Max)));
    assert_eq!(names(&program), ["Math", "a"]);
    for source in [
        "Math.sumPrecise(xs)",
        "Math.f16round(1)",
        "Math.fround(1)",
        "Math.clz32(1)",
        "Math.imul(2, 3)",
    ] {
        ok(source);
    }
    // A parameter named like a namespace is not one.
    let program = ok("xs.map(Math => Math.map(x => x))");
    let lambda = first_lambda(&program);
    let Expr::Call(call) = &lambda.body else { panic!() };
    let Callee::Method {
        method: MethodKey::Named(method),
        ..
    } = &call.callee
    else {
        panic!()
    };
    assert_eq!(method.statik, None);
    // Boolean and the function globals have no statics: only the method union applies.
    guardrail("Boolean.foo()", "\"foo\" is not an available method");
}

/// Callees.
#[test]
fn callees() {
    guardrail(
        "Date()",
        "\"Date\" cannot be called — a date is an ISO string or a timestamp",
    );
    guardrail("Math(1)", "\"Math\" cannot be called");
    guardrail("JSON()", "\"JSON\" cannot be called");
    guardrail("Object(1)", "\"Object\" cannot be called");
    guardrail("Array(3)", "\"Array\" cannot be called");
    guardrail("undefined()", "\"undefined\" cannot be called — it is a value");
    guardrail("NaN()", "\"NaN\" cannot be called");
    guardrail("Infinity()", "\"Infinity\" cannot be called");
    assert!(matches!(root_call(&ok("Number('1')")).0, Callee::Free(0)));
    assert!(matches!(root_call(&ok("(parseInt)('1', 10)")).0, Callee::Free(0)));
    assert!(matches!(root_call(&ok("f(1)")).0, Callee::Free(0)));
    assert!(matches!(
        root_call(&ok("a[0](1)")).0,
        Callee::Method {
            method: MethodKey::Computed(_),
            ..
        }
    ));
    assert!(matches!(
        root_call(&ok("(a ? b : c)(1)")).0,
        Callee::Value(Expr::Conditional(_))
    ));
    let program = ok("rows.map(f => f(1))");
    let Expr::Call(call) = &first_lambda(&program).body else {
        panic!()
    };
    assert!(matches!(
        call.callee,
        Callee::Value(Expr::Local(Local { depth: 0, slot: 0 }))
    ));
    // A shadowed global may be called: the parameter is not the global.
    let program = ok("rows.map(Math => Math())");
    let Expr::Call(call) = &first_lambda(&program).body else {
        panic!()
    };
    assert!(matches!(call.callee, Callee::Value(Expr::Local(_))));
}

/// Free names in first appearance order.
#[test]
fn free_names_in_first_appearance_order() {
    let program = ok("b + a.c + b + Math.max(d, a) + `${e}` + f(g) + h?.[i] + { j, k: l }.k");
    assert_eq!(
        names(&program),
        ["b", "a", "Math", "d", "e", "f", "g", "h", "i", "j", "l"]
    );
    let program = ok("rows.map(r => r.x + y).filter(({ z = w }) => z) ?? NaN");
    assert_eq!(names(&program), ["rows", "y", "w", "NaN"]);
    let program = ok("cond ? getUser({ id }) : log()");
    assert_eq!(names(&program), ["cond", "getUser", "id", "log"]);
}

/// Parameters resolve to frame slots.
#[test]
fn parameters_resolve_to_frame_slots() {
    let program = ok("rows.map(r => xs.map(s => r + s + t))");
    let outer = first_lambda(&program);
    assert_eq!(outer.frame_size, 1);
    let Expr::Call(inner_call) = &outer.body else { panic!() };
    let Some(Arg::Lambda(inner)) = inner_call.args.first() else {
        panic!()
    };
    assert_eq!(inner.frame_size, 1);
    let Expr::Binary(_, sum) = &inner.body else {
        panic!("{:?}", inner.body)
    };
    let Expr::Binary(_, left) = &sum[0] else { panic!() };
    assert!(matches!(left[0], Expr::Local(Local { depth: 0, slot: 0 })));
    assert!(matches!(left[1], Expr::Local(Local { depth: 1, slot: 0 })));
    assert!(matches!(sum[1], Expr::Free(_)));
    assert_eq!(names(&program), ["rows", "xs", "t"]);

    // The innermost binding wins, and leaving an arrow unbinds its names.
    let program = ok("rows.map(r => xs.map(r => r)).concat(r)");
    assert_eq!(names(&program), ["rows", "xs", "r"]);

    let program = ok("rows.map(({ a, b: [c, d = a], ['k' + a]: e, ...rest }, i = a) => a + c + d + e + rest + i)");
    let lambda = first_lambda(&program);
    assert_eq!(lambda.frame_size, 6);
    let [
        Pattern::Object { props, rest: Some(4) },
        Pattern::Default(index, default),
    ] = lambda.params.as_ref()
    else {
        panic!("{:?}", lambda.params)
    };
    assert!(matches!(index.as_ref(), Pattern::Slot(5)));
    assert!(matches!(default.as_ref(), Expr::Local(Local { depth: 0, slot: 0 })));
    assert_eq!(props.len(), 3);
    assert!(matches!(props[0].value, Pattern::Slot(0)));
    let Pattern::Array { items, rest: None } = &props[1].value else {
        panic!()
    };
    assert!(matches!(items[0], Some(Pattern::Slot(1))));
    let Some(Pattern::Default(target, default)) = &items[1] else {
        panic!()
    };
    assert!(matches!(target.as_ref(), Pattern::Slot(2)));
    assert!(matches!(default.as_ref(), Expr::Local(Local { depth: 0, slot: 0 })));
    assert!(matches!(props[2].key, PropKey::Computed(_)));
    assert!(matches!(props[2].value, Pattern::Slot(3)));
    assert!(names(&program) == ["rows"]);

    let program = ok("rows.map(([a, , b, ...more]) => more)");
    let lambda = first_lambda(&program);
    let [
        Pattern::Array {
            items,
            rest: Some(rest),
        },
    ] = lambda.params.as_ref()
    else {
        panic!()
    };
    assert!(matches!(
        items.as_ref(),
        [Some(Pattern::Slot(0)), None, Some(Pattern::Slot(1))]
    ));
    assert!(matches!(rest.as_ref(), Pattern::Slot(2)));
    assert!(matches!(lambda.body, Expr::Local(Local { depth: 0, slot: 2 })));
}

/// Host function rules.
#[test]
fn host_function_rules() {
    let program = ok("getUser({ id: 7 })");
    let Expr::HostCall(call) = &program.root else {
        panic!("{:?}", program.root)
    };
    assert_eq!(call.function, 0);
    assert!(matches!(call.argument, Some(Expr::Record(_))));
    assert_eq!(&*program.host_calls, [0]);
    assert_eq!(names(&program), ["getUser"]);

    let program = ok("log()");
    let Expr::HostCall(call) = &program.root else { panic!() };
    assert!(call.function == 1 && call.argument.is_none());

    for source in [
        "cached ?? getUser()",
        "a && (b || getUser())",
        "(getUser())",
        "a ? getUser() : b ? log() : null",
        "a ? (x ?? getUser({ id: 1 })) : 0",
    ] {
        ok(source);
    }
    assert_eq!(&*ok("a ? log() : b ? getUser() : log()").host_calls, [1, 0]);

    let position = "its call must be the result itself, not part of one: the whole expression, a branch of ?:, or the \
                    right side of ??, || or &&";
    for source in [
        "getUser({ id: 7 }).name",
        "getUser() + 1",
        "[getUser()]",
        "({ a: getUser() })",
        "getUser() ?? x",
        "(a ? getUser() : 1) + 1",
        "f(getUser())",
        "`${getUser()}`",
        "!getUser()",
        "a ? getUser()?.x : 1",
        "getUser(getUser())",
    ] {
        guardrail(source, position);
    }
    let inside = "\"getUser\" is a host function: it cannot be called inside a callback. Call one function that \
                  returns everything";
    guardrail("ids.map(id => getUser({ id }))", inside);
    guardrail("ids.map((x = getUser()) => x)", inside);
    guardrail("ids.map(({ a = getUser() }) => a)", inside);
    guardrail(
        "getUser(1, 2)",
        "\"getUser\" takes a single argument — call it as getUser({ ... })",
    );
    guardrail(
        "getUser(...args)",
        "\"getUser\" cannot be called with a spread argument",
    );
    let value = "\"getUser\" is a host function — it can only be called, as getUser(...), not used as a value";
    for source in [
        "getUser",
        "ids.map(getUser)",
        "getUser.name",
        "[getUser]",
        "typeof getUser",
        "getUser.call(1)",
    ] {
        guardrail(source, value);
    }
    // A parameter shadows the host function.
    let program = ok("ids.map(getUser => getUser)");
    assert!(matches!(first_lambda(&program).body, Expr::Local(_)));
    assert!(program.host_calls.is_empty());
    let program = ok("ids.map(getUser => getUser(1))");
    let Expr::Call(call) = &first_lambda(&program).body else {
        panic!()
    };
    assert!(matches!(call.callee, Callee::Value(Expr::Local(_))));

    // Many host functions: found through the map.
    let many: Vec<String> = (0..20).map(|at| format!("tool{at}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let options = ParseOptions {
        max_source_length: 1000,
        host_functions: &many,
    };
    let program = parse("x ? tool17() : tool3({})", &options).unwrap_or_else(|error| panic!("{error:?}"));
    assert_eq!(&*program.host_calls, [17, 3]);
}

/// Member keys.
#[test]
fn member_keys() {
    /// The property a member read at the root reads.
    fn property(source: &str) -> Property {
        match ok(source).root {
            Expr::Member(member) => member.property,
            other => panic!("{source:?}: {other:?}"),
        }
    }
    assert!(matches!(property("a.b"), Property::Named(name) if name.key().eq_str("b")));
    assert!(matches!(property("a['b']"), Property::Named(name) if name.key().eq_str("b")));
    assert!(matches!(property("a[`b`]"), Property::Named(name) if name.key().eq_str("b")));
    assert!(matches!(property("a[('b')]"), Property::Named(name) if name.key().eq_str("b")));
    assert!(matches!(property("a['0']"), Property::Index(0)));
    assert!(matches!(property("a['17']"), Property::Index(17)));
    assert!(matches!(property("a['01']"), Property::Named(name) if name.key().eq_str("01")));
    assert!(matches!(property("a['4294967295']"), Property::Named(_)));
    assert!(matches!(property("a[0]"), Property::Index(0)));
    assert!(matches!(property("a[1e3]"), Property::Index(1000)));
    assert!(matches!(property("a[4294967294]"), Property::Index(4_294_967_294)));
    assert!(
        matches!(property("a[4294967295]"), Property::Computed(Expr::Const(Value::Number(n))) if n == 4294967295.0)
    );
    assert!(matches!(property("a[1.5]"), Property::Computed(Expr::Const(Value::Number(n))) if n == 1.5));
    assert!(matches!(property("a[-1]"), Property::Computed(Expr::Unary(..))));
    assert!(matches!(property("a[k]"), Property::Computed(Expr::Free(1))));
    assert!(matches!(property("a[`x${k}`]"), Property::Computed(Expr::Template(_))));
    let program = ok("a?.b.c");
    let Expr::Chain(inner) = &program.root else { panic!() };
    let Expr::Member(outer) = inner.as_ref() else { panic!() };
    assert!(!outer.optional);
    let Expr::Member(first) = &outer.object else { panic!() };
    assert!(first.optional);
}

/// String literals keep lone surrogates.
#[test]
fn string_literals_keep_lone_surrogates() {
    assert_eq!(units(as_string(&ok(r#""\uD800""#).root)), [0xD800]);
    assert_eq!(units(as_string(&ok(r#"'a\uDC00b'"#).root)), [0x61, 0xDC00, 0x62]);
    assert_eq!(units(as_string(&ok(r#""\u{D800}x""#).root)), [0xD800, 0x78]);
    // A real U+FFFD next to a lone surrogate stays itself.
    assert_eq!(
        units(as_string(&ok(r#""\uFFFD\uD800�""#).root)),
        [0xFFFD, 0xD800, 0xFFFD]
    );
    // A pair written as two escapes is one well-formed character.
    let pair = ok(r#""\uD83D\uDE00""#);
    assert_eq!(units(as_string(&pair.root)), [0xD83D, 0xDE00]);
    assert!(as_string(&pair.root).is_well_formed());
    assert_eq!(units(as_string(&ok(r#""\uD83D\u{DE00}""#).root)), [0xD83D, 0xDE00]);
    assert_eq!(as_string(&ok("'�'").root).to_string_lossy(), "\u{FFFD}");
    assert_eq!(as_string(&ok(r"'é\n\x41'").root).to_string_lossy(), "é\nA");

    let program = ok(r"`\uD800${x}\uDFFFz`");
    let Expr::Template(template) = &program.root else {
        panic!()
    };
    assert_eq!(units(&template.quasis[0]), [0xD800]);
    assert_eq!(units(&template.quasis[1]), [0xDFFF, 0x7A]);

    let program = ok(r#"({ "\uD800": 1, [k]: 2 })"#);
    let Expr::Object(props) = &program.root else { panic!() };
    let Prop::Init(PropKey::Static(key), _) = &props[0] else {
        panic!()
    };
    assert_eq!(units(key), [0xD800]);
    let program = ok(r#"a["\uDC01"]"#);
    let Expr::Member(member) = &program.root else { panic!() };
    let Property::Named(name) = &member.property else {
        panic!()
    };
    assert_eq!(units(name.key()), [0xDC01]);
}

/// Templates and literals.
#[test]
fn templates_and_literals() {
    let program = ok("`a${b}c${d}`");
    let Expr::Template(template) = &program.root else {
        panic!()
    };
    let quasis: Vec<String> = template
        .quasis
        .iter()
        .map(|q| q.to_string_lossy().into_owned())
        .collect();
    assert_eq!(quasis, ["a", "c", ""]);
    assert!(matches!(template.exprs.as_ref(), [Expr::Free(0), Expr::Free(1)]));
    assert!(matches!(ok("true").root, Expr::Const(Value::Bool(true))));
    assert!(matches!(ok("null").root, Expr::Const(Value::Null)));
    assert!(matches!(ok("0x1F").root, Expr::Const(Value::Number(n)) if n == 31.0));
    assert!(matches!(ok("1_000.5e-1").root, Expr::Const(Value::Number(n)) if n == 100.05));
    assert!(
        matches!(ok("[1, ...xs]").root, Expr::Array(ref items) if matches!(items.as_ref(), [Element::Item(_), Element::Spread(_)]))
    );
    assert!(matches!(
        ok("typeof nope").root,
        Expr::Unary(crate::ast::UnaryOp::Typeof, _)
    ));
    // Division is not a regular expression.
    assert!(matches!(ok("a / b / 2").root, Expr::Binary(..)));
    assert!(matches!(ok("(a) / 2").root, Expr::Binary(..)));
    assert!(matches!(
        ok("a[0] / 2 + `x` / 3 + 'y' / 4 + {}.a / 5").root,
        Expr::Binary(..)
    ));
    assert!(matches!(ok("x.typeof / 2").root, Expr::Binary(..)));
    assert!(ok("a ? .5 : 1").root_is_conditional());
    assert!(matches!(
        ok("({ class: 1, await: 2, typeof: 3, in: 4 }).class").root,
        Expr::Member(_)
    ));
}

/// Node counts.
#[test]
fn node_counts() {
    assert_eq!(ok("a").node_count, 1);
    assert_eq!(ok("a.b").node_count, 3);
    assert_eq!(ok("(((a)))").node_count, 1);
    assert_eq!(ok("1 + 2").node_count, 3);
    assert_eq!(ok("f(x)").node_count, 3);
    assert_eq!(ok("`a${b}c`").node_count, 4);
    assert_eq!(ok("[1, ...xs]").node_count, 4);
    assert_eq!(ok("({ a: 1, ...b })").node_count, 6);
    let program = ok("rows.map(r => r.x)");
    // Call, member, rows, map; arrow, r, member, r, x.
    assert_eq!(program.node_count, 9);
    assert_eq!(first_lambda(&program).node_count, 5);
    let program = ok("rows.map(({ a = 1 }) => a)");
    // Arrow, object pattern, property, key, default pattern, a, 1; body a.
    assert_eq!(first_lambda(&program).node_count, 8);
    assert!(program.node_count > first_lambda(&program).node_count);
}

/// Runs `f` on a thread with a 2 MiB stack, the size of a test thread, and returns its result;
/// a stack overflow would abort the whole test binary.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap_or_else(|error| panic!("cannot spawn: {error}"));
    handle.join().unwrap_or_else(|_| panic!("the parse thread panicked"))
}

/// Parses with a limit of a million characters on a 2 MiB stack.
fn parse_big(source: String) -> Result<(), Error> {
    on_small_stack(move || {
        let options = ParseOptions {
            max_source_length: 1_000_000,
            host_functions: &["tool"],
        };
        parse(&source, &options).map(|_| ())
    })
}

/// Asserts that `source` is refused as nesting too deep, without crashing the stack.
fn assert_too_deep(source: String) {
    let shown: String = source.chars().take(24).collect();
    match parse_big(source) {
        Err(error) => {
            assert_eq!(error.reason(), Reason::GuardrailViolation, "{shown:?}…: {error:?}");
            assert!(
                error.message().starts_with("Expression nests deeper than 100 levels"),
                "{shown:?}…: {error:?}"
            );
        }
        Ok(()) => panic!("{shown:?}… parsed"),
    }
}

/// Depth bombs are refused on a small stack.
#[test]
fn depth_bombs_are_refused_on_a_small_stack() {
    let n = 100_000;
    for (open, middle, close) in [
        ("(", "1", ")"),
        ("[", "1", "]"),
        ("{a:", "1", "}"),
        ("`${", "1", "}`"),
        ("f(", "1", ")"),
        ("a[", "0", "]"),
        ("!", "1", ""),
        ("-", "1", ""),
        ("+", "1", ""),
        ("~", "1", ""),
        ("typeof ", "1", ""),
        ("void ", "1", ""),
        ("new ", "X", ""),
        ("++", "a", ""),
        ("[...", "a", "]"),
        ("a?b:", "1", ""),
        ("a?", "1", ":1"),
        ("x=>", "1", ""),
        ("a=", "1", ""),
        ("a**", "1", ""),
        ("a||b&&c|d^e&f==g<h<<i+j*k**(", "1", ")"),
        ("([a=", "1", "])=>1"),
        ("(a=", "1", ")=>1"),
        ("yield ", "1", ""),
    ] {
        // As many levels as fit the source limit: far more than the stack could take.
        let times = n.min(990_000 / (open.len() + close.len()));
        assert_too_deep(format!("{}{middle}{}", open.repeat(times), close.repeat(times)));
    }
    // Unclosed openers, as an attacker would send them.
    for open in ["(", "[", "{a:", "`${", "!", "a?b:", "x=>", "((a)=>"] {
        assert_too_deep(open.repeat(n));
    }
}

/// Long flat chains are refused by depth not by the stack.
#[test]
fn long_flat_chains_are_refused_by_depth_not_by_the_stack() {
    let n = 100_000;
    for source in [
        format!("a{}", ".b".repeat(n)),
        format!("1{}", "+1".repeat(n)),
        format!("a{}", "?.b".repeat(n)),
        format!("f{}", "()".repeat(n)),
        format!("a{}", "[0]".repeat(n)),
        format!("a{}", " ?? a".repeat(n)),
        format!("a{}", "*b+c".repeat(n)),
        format!("s{}", ".at(0)".repeat(n)),
    ] {
        assert_too_deep(source);
    }
    // Wide is fine: a long flat list is not deep.
    let wide = format!("[{}]", vec!["a ? b : c"; n / 2].join(","));
    assert!(parse_big(wide).is_ok());
    let args = format!("Math.max({})", vec!["1"; n].join(","));
    assert!(parse_big(args).is_ok());
}

/// Tricks that hide nesting from a scan are refused.
#[test]
fn tricks_that_hide_nesting_from_a_scan_are_refused() {
    let n = 20_000;
    for (piece, needle) in [
        // A regular expression whose body closes brackets the parser never sees closed.
        ("(((((x=>{if(a)/)))))/;", "block"),
        (
            "function*(a=yield/)/+",
            "\"FunctionExpression\" is not part of the expression language",
        ),
        ("(async x=>await/)/+", "\"AwaitExpression\""),
        ("(/)/+", "\"RegExpLiteral\""),
        // A type after `as` or in a class heritage, whose `<…>` the bracket count cannot see.
        ("(a as A<", "TypeScript"),
        ("(class extends A<", "\"ClassExpression\""),
        // Legacy comments hide what follows them to the end of the line.
        ("(\n--> )\n", "\"-->\""),
        ("(<!-- )\n", "\"<!--\""),
        // Escaped and non-ASCII words could be read as keywords.
        ("(typ\\u0065of/)/+", "could divide"),
        ("(é/)/+", "could divide"),
    ] {
        let source = piece.repeat(n);
        let error = match parse_big(source) {
            Err(error) => error,
            Ok(()) => panic!("{piece:?} repeated parsed"),
        };
        assert_eq!(error.reason(), Reason::GuardrailViolation, "{piece:?}: {error:?}");
        assert!(error.message().contains(needle), "{piece:?}: {error:?}");
    }
    // Brackets inside strings, templates and comments are text.
    let text = format!(
        "['{}', \"{}\", `{}`, /* {} */ 1] // {}",
        "(".repeat(500),
        "[".repeat(500),
        "{".repeat(500),
        "(".repeat(500),
        "(".repeat(500)
    );
    assert!(parse_big(text).is_ok());
    // A string's line continuation and escaped quotes do not end it early.
    assert!(matches!(ok("'a\\\r\n(\\'(' + b").root, Expr::Binary(..)));
}

/// Nesting up to the limit parses on a small stack.
#[test]
fn nesting_up_to_the_limit_parses_on_a_small_stack() {
    // The worst constructs, each just inside the limit, on a 2 MiB stack.
    let depth = MAX_AST_DEPTH - 1;
    for (open, middle, close, times) in [
        ("(", "1", ")", depth),
        ("[", "1", "]", depth),
        ("({a:", "1", "})", depth / 2),
        ("`${", "1", "}`", depth),
        ("!", "1", "", depth),
        ("a?b:", "1", "", depth),
        ("a**", "1", "", depth),
        ("f(", "1", ")", depth / 2),
    ] {
        let source = format!("{}{middle}{}", open.repeat(times), close.repeat(times));
        let result = parse_big(source);
        assert!(result.is_ok(), "{open:?} x{times}: {result:?}");
    }
    // Precedence climbs inside brackets: a level per bracket and per rising operator.
    let source = format!("{}1{}", "(a??b+c*d**".repeat(19), ")".repeat(19));
    assert!(parse_big(source).is_ok());
    let source = format!("{}1{}", "(a||b&&c|d^e&f==g<h<<i+j*".repeat(9), ")".repeat(9));
    let result = parse_big(source);
    assert!(
        result.as_ref().is_err_and(|error| error.message().contains("bitwise")),
        "{result:?}"
    );
    // Callbacks nested in callbacks.
    let source = format!("{}x{}", "xs.map(x=>".repeat(40), ")".repeat(40));
    assert!(parse_big(source).is_ok());
    // Patterns nested in patterns.
    let source = format!("xs.map(({}a{}) => a)", "[{b:".repeat(24), "}]".repeat(24));
    assert!(parse_big(source).is_ok());
}

/// Shorthands for root checks inside `matches!`-heavy tests.
impl Program {
    /// Whether the root is a call.
    fn root_is_call(&self) -> bool {
        matches!(self.root, Expr::Call(_))
    }

    /// Whether the root is `?:`.
    fn root_is_conditional(&self) -> bool {
        matches!(self.root, Expr::Conditional(_))
    }
}

/// Globals are free names.
#[test]
fn globals_are_free_names() {
    let program = ok("[Math, JSON, undefined, NaN, Infinity, parseInt]");
    assert_eq!(
        names(&program),
        ["Math", "JSON", "undefined", "NaN", "Infinity", "parseInt"]
    );
    assert!(Global::from_name("Math").is_some());
}
