//! The `JSON` functions: `JSON.parse(text)` and `JSON.stringify(value, null, space)`.
//!
//! `parse` reads with writ-core's JSON reader, which accepts exactly `JSON.parse`'s grammar
//! and nests at most [`DEFAULT_MAX_JSON_DEPTH`] levels with an explicit stack. `stringify` walks
//! the value twice without recursion: once to charge it and size the output (escapes and
//! indentation included), and, once the string is paid for, again to write it.

use std::borrow::Cow;
use std::fmt::Write as _;

use writ_core::js::{self, QuoteSink};
use writ_core::{DEFAULT_MAX_JSON_DEPTH, Str, Value, parse_json_with_depth, write_js_number};

use crate::coerce::{self, describe};
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::JsonFn;

/// The longest indentation `JSON.stringify` uses, as in JavaScript.
const MAX_GAP: usize = 10;

/// Runs `JSON.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: JsonFn, args: &Args<'_, '_>) -> Result<Value> {
    match function {
        // A reviver cannot be written (a function is never a value); any other second
        // argument is ignored, as JavaScript ignores it.
        JsonFn::Parse => parse(cx, args.get(0)),
        JsonFn::Stringify => stringify(cx, args),
    }
}

/// `JSON.parse(text)`: the text converted and charged, read, then what was built charged.
fn parse(cx: &mut Cx<'_>, text: &Value) -> Result<Value> {
    let text = coerce::to_string(cx, text)?;
    cx.text(text.len_utf16())?;
    let source = json_source(&text);
    let value = match parse_json_with_depth(&source, DEFAULT_MAX_JSON_DEPTH) {
        Ok(value) => value,
        Err(error) if error.code() == "json-too-deep" => {
            return Err(Error::guardrail(format!(
                "JSON.parse reads at most {DEFAULT_MAX_JSON_DEPTH} levels of nesting, and this text nests \
                 deeper: flatten the data before it reaches the expression"
            )));
        }
        Err(_) if text.is_empty() => {
            return Err(Error::json_syntax_error(
                "Unexpected end of JSON input: JSON.parse was given an empty string; guard it, as in \
                 text ? JSON.parse(text) : null",
            ));
        }
        Err(error) => {
            return Err(Error::json_syntax_error(format!(
                "{} is not valid JSON: {error}; JSON.parse takes JSON text such as '{{\"a\": [1, 2]}}'",
                describe(&Value::String(text.clone()))
            )));
        }
    };
    charge_parsed(cx, &value)?;
    Ok(value)
}

/// The text for writ-core's reader, which reads UTF-8. A lone surrogate inside a string
/// literal becomes a `\uXXXX` escape, which reads back as the same code unit; anywhere else it
/// is a syntax error in JavaScript, and U+FFFD keeps it one.
fn json_source(text: &Str) -> Cow<'_, str> {
    if let Some(ascii) = text.as_ascii_str() {
        return Cow::Borrowed(ascii);
    }
    if text.is_well_formed() {
        return text.to_string_lossy();
    }
    let mut out = String::with_capacity(text.len_utf16() + 16);
    let (mut in_string, mut escaped) = (false, false);
    for decoded in char::decode_utf16(text.code_units()) {
        match decoded {
            Ok(ch) => {
                if escaped {
                    escaped = false;
                } else if in_string && ch == '\\' {
                    escaped = true;
                } else if ch == '"' {
                    in_string = !in_string;
                }
                out.push(ch);
            }
            Err(lone) if in_string && !escaped => {
                let _ = write!(out, "\\u{:04x}", lone.unpaired_surrogate());
            }
            Err(_) => {
                escaped = false;
                out.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    Cow::Owned(out)
}

/// Charges what parsing built: every array against the array cap (and its items), every
/// object a step per key. Walks with an explicit stack.
fn charge_parsed(cx: &mut Cx<'_>, value: &Value) -> Result<()> {
    let mut stack: Vec<&Value> = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => {
                cx.array(items.len())?;
                stack.extend(items.iter().filter(|item| item.is_container()));
            }
            Value::Object(object) => {
                cx.steps(1 + object.len() as u64)?;
                cx.meter.charge_allocation(object.len() as u64)?;
                stack.extend(object.values().filter(|item| item.is_container()));
            }
            _ => {}
        }
    }
    Ok(())
}

/// `JSON.stringify(value, null, space)`: sized and charged first, then written.
fn stringify(cx: &mut Cx<'_>, args: &Args<'_, '_>) -> Result<Value> {
    if !matches!(args.get(1), Value::Undefined | Value::Null) {
        return Err(Error::guardrail(format!(
            "JSON.stringify takes no replacer in expressions: pass null, as in JSON.stringify(value, null, 2), \
             and pick the fields first (got {} as the replacer)",
            describe(args.get(1))
        )));
    }
    let gap = match args.get(2) {
        Value::Number(n) => {
            let width = coerce::integer_or_infinity(*n).min(MAX_GAP as f64);
            if width >= 1.0 {
                Str::from(" ".repeat(width as usize))
            } else {
                Str::empty()
            }
        }
        Value::String(text) => text.slice(0, MAX_GAP),
        _ => Str::empty(),
    };
    let value = args.get(0);
    if value.is_undefined() {
        return Ok(Value::Undefined);
    }
    let mut size = Size { cx: &mut *cx, len: 0 };
    walk(value, &gap, &mut size)?;
    let len = size.len;
    cx.string(len)?;
    let mut out = Out {
        units: Vec::with_capacity(len),
        number: String::new(),
    };
    walk(value, &gap, &mut out)?;
    Ok(Value::String(Str::from_utf16(&out.units)))
}

/// Where [`walk`] puts the JSON text: [`Size`] measures and charges it, [`Out`] writes it.
trait Sink: QuoteSink {
    /// A node is visited.
    fn node(&mut self) -> Result<()>;
    /// `len` characters of a string are read.
    fn read(&mut self, len: usize) -> Result<()>;
    /// A finite number, as JavaScript writes it.
    fn number(&mut self, n: f64);
    /// A line break and `depth` copies of the gap.
    fn indent(&mut self, gap: &Str, depth: usize);
}

/// Measures the output in UTF-16 units and charges the walk: a step per node, and a step per
/// 16 characters of each string and key.
struct Size<'c, 'r> {
    cx: &'c mut Cx<'r>,
    len: usize,
}

impl QuoteSink for Size<'_, '_> {
    fn ascii(&mut self, text: &[u8]) {
        self.len = self.len.saturating_add(text.len());
    }

    fn char(&mut self, ch: char) {
        self.len = self.len.saturating_add(ch.len_utf16());
    }
}

impl Sink for Size<'_, '_> {
    fn node(&mut self) -> Result<()> {
        self.cx.steps(1)
    }

    fn read(&mut self, len: usize) -> Result<()> {
        self.cx.text(len)
    }

    fn number(&mut self, n: f64) {
        self.len = self.len.saturating_add(coerce::number_to_str(n).len_utf16());
    }

    fn indent(&mut self, gap: &Str, depth: usize) {
        self.len = self
            .len
            .saturating_add(gap.len_utf16().saturating_mul(depth).saturating_add(1));
    }
}

/// Writes the output as UTF-16 code units.
struct Out {
    units: Vec<u16>,
    /// Scratch space for number text.
    number: String,
}

impl QuoteSink for Out {
    fn ascii(&mut self, text: &[u8]) {
        self.units.extend(text.iter().map(|&byte| u16::from(byte)));
    }

    fn char(&mut self, ch: char) {
        let mut buffer = [0u16; 2];
        self.units.extend_from_slice(ch.encode_utf16(&mut buffer));
    }
}

impl Sink for Out {
    fn node(&mut self) -> Result<()> {
        Ok(())
    }

    fn read(&mut self, _: usize) -> Result<()> {
        Ok(())
    }

    fn number(&mut self, n: f64) {
        self.number.clear();
        write_js_number(n, &mut self.number);
        self.units.extend(self.number.bytes().map(u16::from));
    }

    fn indent(&mut self, gap: &Str, depth: usize) {
        self.units.push(u16::from(b'\n'));
        for _ in 0..depth {
            self.units.extend(gap.code_units());
        }
    }
}

/// A container being written, and how far.
enum Frame<'v> {
    /// The items to write.
    Array { items: &'v [Value], next: usize },
    /// The members to write (those that are not `undefined`).
    Object {
        entries: Vec<(&'v Str, &'v Value)>,
        next: usize,
    },
}

/// Serializes `root` (not `undefined`) into `sink` as `JSON.stringify(root, null, gap)` does,
/// with an explicit stack, so any depth is safe.
fn walk(root: &Value, gap: &Str, sink: &mut impl Sink) -> Result<()> {
    let indented = !gap.is_empty();
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut pending = Some(root);
    loop {
        if let Some(value) = pending.take() {
            sink.node()?;
            match value {
                Value::Array(items) if items.is_empty() => sink.ascii(b"[]"),
                Value::Array(items) => {
                    sink.ascii(b"[");
                    stack.push(Frame::Array {
                        items: items.as_slice(),
                        next: 0,
                    });
                }
                Value::Object(object) => {
                    // `undefined` members are left out.
                    let entries: Vec<(&Str, &Value)> =
                        object.iter().filter(|(_, value)| !value.is_undefined()).collect();
                    if entries.is_empty() {
                        sink.ascii(b"{}");
                    } else {
                        sink.ascii(b"{");
                        stack.push(Frame::Object { entries, next: 0 });
                    }
                }
                Value::String(text) => {
                    sink.read(text.len_utf16())?;
                    js::quote(sink, text);
                }
                Value::Number(n) if n.is_finite() => sink.number(*n),
                Value::Bool(true) => sink.ascii(b"true"),
                Value::Bool(false) => sink.ascii(b"false"),
                // null, NaN and the infinities (undefined never gets here).
                _ => sink.ascii(b"null"),
            }
        }
        let depth = stack.len();
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        match top {
            Frame::Array { items, next } => match items.get(*next) {
                Some(item) => {
                    if *next > 0 {
                        sink.ascii(b",");
                    }
                    *next += 1;
                    if indented {
                        sink.indent(gap, depth);
                    }
                    if item.is_undefined() {
                        sink.node()?;
                        sink.ascii(b"null");
                    } else {
                        pending = Some(item);
                    }
                }
                None => {
                    if indented {
                        sink.indent(gap, depth - 1);
                    }
                    sink.ascii(b"]");
                    stack.pop();
                }
            },
            Frame::Object { entries, next } => match entries.get(*next) {
                Some(&(key, value)) => {
                    if *next > 0 {
                        sink.ascii(b",");
                    }
                    *next += 1;
                    if indented {
                        sink.indent(gap, depth);
                    }
                    sink.read(key.len_utf16())?;
                    js::quote(sink, key);
                    sink.ascii(if indented { b": " } else { b":" });
                    pending = Some(value);
                }
                None => {
                    if indented {
                        sink.indent(gap, depth - 1);
                    }
                    sink.ascii(b"}");
                    stack.pop();
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use writ_core::{Array, Limits, Meter, Object};

    use super::*;
    use crate::error::Reason;

    fn with_cx<T>(limits: Limits, f: impl FnOnce(&mut Cx<'_>) -> T) -> T {
        let program = crate::ast::Program::empty();
        let mut cx = Cx::new(Meter::new(&limits), &program, &[]);
        f(&mut cx)
    }

    fn run_with(limits: Limits, function: JsonFn, values: &[Value]) -> Result<Value> {
        with_cx(limits, |cx| {
            call(
                cx,
                function,
                &Args {
                    values,
                    callback: None,
                    name: function.name(),
                },
            )
        })
    }

    fn run(function: JsonFn, values: &[Value]) -> Result<Value> {
        run_with(
            Limits {
                steps: Some(10_000_000),
                ..Limits::UNLIMITED
            },
            function,
            values,
        )
    }

    fn parse_text(text: &str) -> Result<Value> {
        run(JsonFn::Parse, &[Value::from(text)])
    }

    fn stringify(values: &[Value]) -> String {
        match run(JsonFn::Stringify, values) {
            Ok(Value::String(text)) => text.to_string_lossy().into_owned(),
            other => format!("{other:?}"),
        }
    }

    fn json(text: &str) -> Value {
        writ_core::parse_json(text).unwrap_or(Value::Null)
    }

    #[test]
    fn stringify_writes_what_node_writes() {
        let value = json(r#"{"b":[1,"x",null,true,{}],"a":{"c":[[]]},"z":-0,"e":1e21,"s":1e-7}"#);
        let mut object = value.as_object().cloned().unwrap_or_default();
        object.insert("u".into(), Value::Undefined);
        object.insert("n".into(), Value::Number(f64::NAN));
        object.insert("i".into(), Value::Number(f64::NEG_INFINITY));
        let value = Value::Object(object);
        assert_eq!(
            stringify(&[value.clone(), Value::Null, Value::from("\t")]),
            "{\n\t\"b\": [\n\t\t1,\n\t\t\"x\",\n\t\tnull,\n\t\ttrue,\n\t\t{}\n\t],\n\t\"a\": {\n\t\t\"c\": [\n\t\t\t[]\n\t\t]\n\t},\n\t\"z\": 0,\n\t\"e\": 1e+21,\n\t\"s\": 1e-7,\n\t\"n\": null,\n\t\"i\": null\n}"
        );
        assert_eq!(
            stringify(&[value]),
            r#"{"b":[1,"x",null,true,{}],"a":{"c":[[]]},"z":0,"e":1e+21,"s":1e-7,"n":null,"i":null}"#
        );
        let mut inner = Object::new();
        inner.insert("a".into(), Value::Undefined);
        inner.insert("b".into(), Value::from(1.0));
        let list = Value::Array(Array::from(vec![Value::Undefined, Value::Object(inner)]));
        assert_eq!(
            stringify(&[list, Value::Undefined, Value::from(1.0)]),
            "[\n null,\n {\n  \"b\": 1\n }\n]"
        );
        assert_eq!(stringify(&[json(r#"{"2":1,"1":2,"a":3}"#)]), r#"{"1":2,"2":1,"a":3}"#);
        assert_eq!(
            stringify(&[json(r#"{"a":1}"#), Value::Null, Value::from(3.9)]),
            "{\n   \"a\": 1\n}"
        );
        assert_eq!(
            stringify(&[json(r#"{"a":1}"#), Value::Null, Value::from(20.0)]),
            format!("{{\n{}\"a\": 1\n}}", " ".repeat(10))
        );
        assert_eq!(
            stringify(&[json(r#"{"a":1}"#), Value::Null, Value::from("12345678901234")]),
            "{\n1234567890\"a\": 1\n}"
        );
        assert_eq!(
            stringify(&[json(r#"{"a":1}"#), Value::Null, Value::from("")]),
            r#"{"a":1}"#
        );
        assert_eq!(
            stringify(&[json(r#"{"a":1}"#), Value::Null, Value::Bool(true)]),
            r#"{"a":1}"#
        );
        assert_eq!(
            stringify(&[json("[[1,1,1]]"), Value::Null, Value::from(-1.0)]),
            "[[1,1,1]]"
        );
        assert_eq!(
            stringify(&[json(r#"{"a":[]}"#), Value::Null, Value::from(2.0)]),
            "{\n  \"a\": []\n}"
        );
        assert_eq!(
            stringify(&[Value::from("abc"), Value::Null, Value::from(2.0)]),
            "\"abc\""
        );
        assert_eq!(stringify(&[Value::Null]), "null");
        assert_eq!(run(JsonFn::Stringify, &[Value::Undefined]), Ok(Value::Undefined));
        assert_eq!(run(JsonFn::Stringify, &[]), Ok(Value::Undefined));
    }

    #[test]
    fn stringify_escapes_as_well_formed_json_stringify() {
        let units: Vec<u16> = "\u{1F600}"
            .encode_utf16()
            .chain([0xD800, u16::from(b'x'), 0xDC00])
            .collect();
        let mut text = units.clone();
        text.extend("\"\\/\u{8}\u{c}\n\r\t\u{1f}\u{7f}\u{2028}é".encode_utf16());
        let out = run(JsonFn::Stringify, &[Value::String(Str::from_utf16(&text))]).unwrap_or_default();
        let expected: Vec<u16> = "\"\u{1F600}\\ud800x\\udc00\\\"\\\\/\\b\\f\\n\\r\\t\\u001f\u{7f}\u{2028}é\""
            .encode_utf16()
            .collect();
        assert_eq!(out.as_str().map(Str::to_utf16), Some(expected));
        let mut key = Object::new();
        key.insert(Str::from_utf16(&[0xD800]), Value::from(1.0));
        assert_eq!(stringify(&[Value::Object(key)]), r#"{"\ud800":1}"#);
        // A gap is written as it is, lone surrogates and all.
        let gap = Value::String(Str::from_utf16(&[0xDBFF]));
        let out = run(JsonFn::Stringify, &[json("[1]"), Value::Null, gap]).unwrap_or_default();
        assert_eq!(
            out.as_str().map(Str::to_utf16),
            Some(vec![0x5B, 0x0A, 0xDBFF, 0x31, 0x0A, 0x5D])
        );
    }

    #[test]
    fn stringify_refuses_a_replacer() {
        for replacer in [json(r#"["a"]"#), Value::from(1.0), Value::from("a"), json("{}")] {
            let error = run(JsonFn::Stringify, &[json(r#"{"a":1}"#), replacer]).unwrap_err();
            assert_eq!(error.reason(), Reason::GuardrailViolation);
            assert!(error.message().contains("pass null"));
        }
    }

    #[test]
    fn stringify_is_charged_before_it_builds() {
        // 20 000 items of "xxxxxxxxxx": about 240 000 characters, over a 100 000 cap.
        let items: Vec<Value> = (0..20_000).map(|_| Value::from("xxxxxxxxxx")).collect();
        let value = Value::Array(Array::from(items));
        let limits = Limits {
            steps: Some(10_000_000),
            max_string_length: Some(100_000),
            ..Limits::UNLIMITED
        };
        let error = run_with(limits, JsonFn::Stringify, std::slice::from_ref(&value)).unwrap_err();
        assert_eq!(error.reason(), Reason::BudgetExceeded);
        // Indentation counts too: 40 levels of 10 spaces on every line.
        let mut deep = Value::from(1.0);
        for _ in 0..40 {
            deep = Value::Array(Array::from(vec![deep.clone(), deep]));
        }
        let limits = Limits {
            steps: Some(100_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, JsonFn::Stringify, &[deep]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
        // A step per node walked.
        let limits = Limits {
            steps: Some(15_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, JsonFn::Stringify, &[value]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
    }

    #[test]
    fn stringify_and_parse_survive_deep_nesting_on_a_small_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let mut deep = Value::Null;
                for _ in 0..100_000 {
                    deep = Value::Array(Array::from(vec![deep]));
                }
                // Indented, the output grows with the square of the depth: refused before it is built.
                let indented = run(JsonFn::Stringify, &[deep.clone(), Value::Null, Value::from(1.0)]);
                let flat = stringify(&[deep]);
                let parsed = parse_text(&"[".repeat(100_000));
                (
                    indented.map_err(|e| e.reason()),
                    flat.len(),
                    parsed.map_err(|e| e.reason()),
                )
            })
            .ok();
        let (indented, flat, parsed) =
            handle
                .and_then(|h| h.join().ok())
                .unwrap_or((Ok(Value::Null), 0, Ok(Value::Null)));
        assert_eq!(indented, Err(Reason::BudgetExceeded));
        assert_eq!(flat, 200_004);
        assert_eq!(parsed, Err(Reason::GuardrailViolation));
    }

    #[test]
    fn parse_reads_exactly_json() {
        assert_eq!(parse_text("1e400"), Ok(Value::Number(f64::INFINITY)));
        assert!(
            parse_text("-0")
                .ok()
                .and_then(|v| v.as_number())
                .is_some_and(|n| n == 0.0 && n.is_sign_negative())
        );
        assert_eq!(
            parse_text("123456789012345678901234567890"),
            Ok(Value::Number(1.2345678901234568e29))
        );
        assert_eq!(parse_text(" [1 , 2]\n"), Ok(json("[1,2]")));
        let object = parse_text(r#"{"__proto__":1,"a":2,"a":3,"1":0}"#).unwrap_or_default();
        let keys: Vec<String> = object
            .as_object()
            .map(|o| o.keys().map(|k| k.to_string()).collect())
            .unwrap_or_default();
        assert_eq!(keys, ["1", "__proto__", "a"]);
        assert_eq!(object.as_object().and_then(|o| o.get_str("a")), Some(&Value::from(3.0)));
        assert_eq!(
            parse_text(r#""\u00e9\ud800""#),
            Ok(Value::String(Str::from_utf16(&[0xE9, 0xD800])))
        );
        for bad in [
            "",
            "01",
            "1.",
            "[1,2,]",
            r#"{"a":1,}"#,
            "\"\t\"",
            "\u{feff}1",
            "undefined",
            "{",
            "'a'",
            "NaN",
            "[1]]",
        ] {
            let error = parse_text(bad).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime, "{bad:?}");
        }
        assert!(
            parse_text("abc")
                .unwrap_err()
                .message()
                .contains("\"abc\" is not valid JSON")
        );
    }

    #[test]
    fn parse_converts_its_argument_to_text() {
        assert_eq!(run(JsonFn::Parse, &[Value::Null]), Ok(Value::Null));
        assert_eq!(run(JsonFn::Parse, &[Value::from(12.0)]), Ok(Value::from(12.0)));
        assert_eq!(run(JsonFn::Parse, &[Value::Bool(true)]), Ok(Value::Bool(true)));
        assert_eq!(run(JsonFn::Parse, &[json("[1]")]), Ok(Value::from(1.0)));
        assert_eq!(run(JsonFn::Parse, &[]).unwrap_err().reason(), Reason::ExpressionRuntime);
        assert_eq!(
            run(JsonFn::Parse, &[json("{}")]).unwrap_err().reason(),
            Reason::ExpressionRuntime
        );
        // A second argument is ignored.
        assert_eq!(
            run(JsonFn::Parse, &[Value::from("[2]"), Value::from(5.0)]),
            Ok(json("[2]"))
        );
    }

    #[test]
    fn parse_keeps_lone_surrogates_in_strings() {
        // `"a\uD800b"` with the lone surrogate written raw inside the literal.
        let text: Vec<u16> = vec![0x22, 0x61, 0xD800, 0x62, 0x22];
        let parsed = run(JsonFn::Parse, &[Value::String(Str::from_utf16(&text))]);
        assert_eq!(parsed, Ok(Value::String(Str::from_utf16(&[0x61, 0xD800, 0x62]))));
        // After an escaped backslash it is still inside the string.
        let text: Vec<u16> = vec![0x5B, 0x22, 0x5C, 0x5C, 0xDC00, 0x22, 0x5D];
        let parsed = run(JsonFn::Parse, &[Value::String(Str::from_utf16(&text))]);
        let expected = Value::Array(Array::from(vec![Value::String(Str::from_utf16(&[0x5C, 0xDC00]))]));
        assert_eq!(parsed, Ok(expected));
        // Outside a string, or as an escape, it is a syntax error.
        for text in [vec![0xD800], vec![0x22, 0x5C, 0xD800, 0x22], vec![0x5B, 0xDBFF, 0x5D]] {
            let error = run(JsonFn::Parse, &[Value::String(Str::from_utf16(&text))]).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime);
        }
    }

    #[test]
    fn parse_is_charged_for_what_it_builds() {
        let text = format!("[{}]", vec!["0"; 2_000].join(","));
        let limits = Limits {
            steps: Some(10_000_000),
            max_array_length: Some(1_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, JsonFn::Parse, &[Value::from(text.as_str())])
                .unwrap_err()
                .reason(),
            Reason::BudgetExceeded
        );
        let nested = format!("[[{}]]", vec!["0"; 2_000].join(","));
        assert_eq!(
            run_with(limits, JsonFn::Parse, &[Value::from(nested.as_str())])
                .unwrap_err()
                .reason(),
            Reason::BudgetExceeded
        );
        let limits = Limits {
            steps: Some(1_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, JsonFn::Parse, &[Value::from(text.as_str())])
                .unwrap_err()
                .reason(),
            Reason::BudgetExceeded
        );
    }
}
