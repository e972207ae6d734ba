//! The Lua workloads' writ side: one `writ_lua::Sandbox` with its default limits, built
//! untimed, and `Sandbox::evaluate` per evaluation, as writ's lua cell runs a chunk.
//!
//! The node side in `bench/peers/node.mjs` runs wasmoon 1.16.0 (Lua 5.4 in WebAssembly), the
//! engine of seed 000's original lua cell. Both render each answer the same way (a verdict as
//! `1` or `0`, a number as its JSON text), so the check strings catch an engine that answers
//! differently.

use std::hint::black_box;

use writ_core::{Object, Str, Value};
use writ_lua::{DEFAULT_LIMITS, Error, Sandbox};

use crate::workloads::{Task, items, text_check};

/// The branch predicate, over a ctx holding one `fetch:` item as the original cell builds it.
pub const PREDICATE: &str = "return ctx['fetch:'][1].json.age >= 30 and ctx['fetch:'][1].json.price < 50";
/// A loop summing `ctx.values`.
pub const SUM: &str = "local s = 0 for i = 1, #ctx.values do s = s + ctx.values[i] end return s";

/// How many items `lua/predicate/fresh-vm` decides per iteration: node builds an engine for each.
const FRESH: usize = 100;
/// How many items `lua/predicate/warm-vm` decides per iteration, and how many prices
/// `lua/loop/sum-1k` sums.
const WARM: usize = 1_000;

/// An object of `fields`.
fn object(fields: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
    Value::from(Object::from_iter(
        fields.into_iter().map(|(key, value)| (Str::from(key), value)),
    ))
}

/// The sandbox, after one untimed evaluation of `source` over `context`, so that a failing
/// workload says so before any timing.
fn sandbox(source: &str, context: &Value) -> Result<Sandbox, String> {
    let sandbox = Sandbox::new(DEFAULT_LIMITS).map_err(|error| format!("cannot build the sandbox: {error}"))?;
    sandbox
        .evaluate(source, context)
        .map_err(|error| format!("{source}: writ failed: {error}"))?;
    Ok(sandbox)
}

/// A verdict as the check spells it: `1` for true, `0` for false, `?` for anything else (a
/// non-boolean answer or an error), which no correct run gives.
fn verdict(result: &Result<Value, Error>) -> char {
    match result {
        Ok(Value::Bool(true)) => '1',
        Ok(Value::Bool(false)) => '0',
        _ => '?',
    }
}

/// `<true verdicts>:<text_check of the verdicts, one character each>`.
fn verdicts_check(results: &[Result<Value, Error>]) -> String {
    let verdicts: String = results.iter().map(verdict).collect();
    let trues = verdicts.chars().filter(|&verdict| verdict == '1').count();
    format!("{trues}:{}", text_check(&verdicts))
}

/// The predicate over each item's own ctx `{"fetch:": [{"json": item}]}`.
struct Predicate {
    /// The sandbox every evaluation runs in.
    sandbox: Sandbox,
    /// One ctx per item, built untimed.
    contexts: Vec<Value>,
    /// The last iteration's answers, one per item.
    results: Vec<Result<Value, Error>>,
}

impl Task for Predicate {
    fn iterate(&mut self) {
        for (context, result) in self.contexts.iter().zip(self.results.iter_mut()) {
            *result = self.sandbox.evaluate(PREDICATE, black_box(context));
        }
    }

    fn check(&self) -> String {
        verdicts_check(&self.results)
    }
}

/// The predicate over each of the first `take` items.
fn predicate(text: &str, take: usize) -> Result<Box<dyn Task>, String> {
    let mut items = items(text)?;
    items.truncate(take);
    let contexts: Vec<Value> = items
        .into_iter()
        .map(|item| object([("fetch:", Value::from(vec![object([("json", item)])]))]))
        .collect();
    let first = contexts.first().ok_or("the items file is empty")?;
    let sandbox = sandbox(PREDICATE, first)?;
    let results = contexts.iter().map(|_| Ok(Value::Undefined)).collect();
    Ok(Box::new(Predicate {
        sandbox,
        contexts,
        results,
    }))
}

/// `lua/predicate/fresh-vm`: 100 items per iteration (node builds an engine for each).
pub fn load_fresh(text: String) -> Result<Box<dyn Task>, String> {
    predicate(&text, FRESH)
}

/// `lua/predicate/warm-vm`: 1,000 items per iteration.
pub fn load_warm(text: String) -> Result<Box<dyn Task>, String> {
    predicate(&text, WARM)
}

/// The sum loop over `{ values }`, once per iteration.
struct SumLoop {
    /// The sandbox.
    sandbox: Sandbox,
    /// `{ values: [the prices] }`.
    context: Value,
    /// The last iteration's answer.
    last: Result<Value, Error>,
}

impl Task for SumLoop {
    fn iterate(&mut self) {
        self.last = self.sandbox.evaluate(SUM, black_box(&self.context));
    }

    /// The sum's JSON number text (as `JSON.stringify` writes it), or `error <code>`.
    fn check(&self) -> String {
        match &self.last {
            Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_string()),
            Err(error) => format!("error {}", error.code()),
        }
    }
}

/// `lua/loop/sum-1k`: the prices of the first 1,000 items. Prices rather than `numbers-100k`,
/// whose integral doubles beyond 2^63 wasmoon 1.16 hands Lua 5.4 as wrapped 64-bit integers.
pub fn load_sum(text: String) -> Result<Box<dyn Task>, String> {
    let mut items = items(&text)?;
    items.truncate(WARM);
    let values = items
        .iter()
        .map(|item| {
            item.as_object()
                .and_then(|item| item.get_str("price"))
                .filter(|price| price.as_number().is_some())
                .cloned()
                .ok_or_else(|| "an item has no numeric price".to_string())
        })
        .collect::<Result<Vec<Value>, String>>()?;
    let context = object([("values", Value::from(values))]);
    let sandbox = sandbox(SUM, &context)?;
    Ok(Box::new(SumLoop {
        sandbox,
        context,
        last: Ok(Value::Undefined),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(task: Result<Box<dyn Task>, String>) -> String {
        let mut task = task.expect("loads");
        task.iterate();
        task.check()
    }

    #[test]
    fn the_workloads_answer_as_lua_does() {
        let items = r#"[{"age": 25, "price": 10}, {"age": 70, "price": 60}, {"age": 31, "price": 5.5},
                        {"age": 30, "price": 49.25}]"#;
        let verdicts = format!("2:{}", text_check("0011"));
        assert_eq!(run(load_fresh(items.to_string())), verdicts);
        assert_eq!(run(load_warm(items.to_string())), verdicts);
        assert_eq!(run(load_sum(items.to_string())), "124.75");
    }

    #[test]
    fn a_failed_evaluation_shows_in_the_check() {
        let failed = Sandbox::new(DEFAULT_LIMITS)
            .expect("a sandbox")
            .evaluate("return ctx.missing.field", &Value::Null);
        assert_eq!(
            verdicts_check(&[Ok(Value::Bool(true)), failed]),
            format!("1:{}", text_check("1?"))
        );
    }

    #[test]
    fn an_item_without_a_price_is_refused_untimed() {
        let refused = load_sum(r#"[{"age": 25}]"#.to_string()).err();
        assert_eq!(refused.as_deref(), Some("an item has no numeric price"));
    }
}
