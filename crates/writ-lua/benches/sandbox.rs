//! What the sandbox costs over plain mlua: the same predicate chunks through
//! `Sandbox::evaluate` and through a bare Luau VM with no interrupt and no limits, the chunk
//! loaded once and `ctx` marshalled from the same `Value` on every call in both.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mlua::{Function, Lua, LuaOptions, StdLib, Value as LuaValue};
use writ_core::{Value, parse_json};
use writ_lua::{DEFAULT_LIMITS, Sandbox};

/// The chunks compared, each with its context.
fn chunks() -> Vec<(&'static str, &'static str, Value)> {
    let order = parse_json(
        r#"{"order": {"status": "paid", "total": 149.5, "currency": "EUR",
                      "customer": {"name": "Ada", "tier": "gold"}}}"#,
    )
    .expect("context parses");
    let numbers: Vec<String> = (0..1000).map(|i| format!("{}", i * 3 % 101)).collect();
    let values = parse_json(&format!(r#"{{"values": [{}]}}"#, numbers.join(","))).expect("context parses");
    let text = parse_json(
        r#"{"subject": "Re: invoice INV-20391 for the March shipment, please confirm the amount before Friday"}"#,
    )
    .expect("context parses");
    let fields: Vec<String> = (0..100).map(|i| format!(r#""field{i}": {}"#, i * 7 % 13)).collect();
    let record = parse_json(&format!(r#"{{"record": {{{}}}}}"#, fields.join(","))).expect("context parses");
    vec![
        (
            "pairs-100-fields",
            "local s = 0 for k, v in pairs(ctx.record) do s = s + v end return s",
            record,
        ),
        (
            "field-comparison",
            "return ctx.order.total > 100 and ctx.order.customer.tier == 'gold'",
            order,
        ),
        (
            "sum-1000-numbers",
            "local s = 0 for i = 1, #ctx.values do s = s + ctx.values[i] end return s",
            values,
        ),
        (
            "string-find",
            "return string.find(ctx.subject, 'INV%-%d+') ~= nil",
            text,
        ),
    ]
}

/// A Value as a Luau value, the way the sandbox converts `ctx` but with no meter.
fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Undefined | Value::Null => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Number(n) => LuaValue::Number(*n),
        Value::String(s) => LuaValue::String(lua.create_string(s.to_string_lossy().as_bytes())?),
        Value::Array(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.as_slice().iter().enumerate() {
                table.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(table)
        }
        Value::Object(object) => {
            let table = lua.create_table_with_capacity(0, object.len())?;
            for (key, item) in object.iter() {
                table.raw_set(lua.create_string(key.to_string_lossy().as_bytes())?, to_lua(lua, item)?)?;
            }
            LuaValue::Table(table)
        }
    })
}

/// A scalar answer back as a Value.
fn from_lua(value: LuaValue) -> Value {
    match value {
        LuaValue::Boolean(b) => Value::Bool(b),
        LuaValue::Number(n) => Value::Number(n),
        LuaValue::Integer(i) => Value::Number(i as f64),
        _ => Value::Undefined,
    }
}

/// Plain mlua: the chunk compiled once, a global `ctx` set before each call.
fn plain(lua: &Lua, chunk: &Function, context: &Value) -> Value {
    let ctx = to_lua(lua, context).expect("ctx converts");
    lua.globals().raw_set("ctx", ctx).expect("ctx is set");
    from_lua(chunk.call(()).expect("chunk runs"))
}

/// Each chunk through the sandbox and through plain mlua, side by side.
fn sandbox_vs_plain(c: &mut Criterion) {
    let sandbox = Sandbox::new(DEFAULT_LIMITS).expect("sandbox builds");
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default()).expect("plain VM builds");
    for (name, source, context) in chunks() {
        let chunk = lua.load(source).into_function().expect("chunk compiles");
        assert_eq!(
            sandbox.evaluate(source, &context).expect("sandbox runs the chunk"),
            plain(&lua, &chunk, &context),
            "{name}: both answer the same"
        );
        let mut group = c.benchmark_group(name);
        group.bench_function("sandbox", |b| {
            b.iter(|| sandbox.evaluate(black_box(source), black_box(&context)))
        });
        group.bench_function("plain-mlua", |b| b.iter(|| plain(&lua, &chunk, black_box(&context))));
        group.finish();
    }
}

criterion_group!(benches, sandbox_vs_plain);
criterion_main!(benches);
