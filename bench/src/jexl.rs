//! The Jexl workloads' writ side: writ-jexl compiles each expression once (untimed) with its
//! default limits and evaluates it per iteration.
//!
//! jexl-js 2.3.0, the node side in `bench/peers/node.mjs`, compiles the same text once and calls
//! `evalSync` (its synchronous evaluation, the faster of its two). Both render results as
//! `JSON.stringify` does, so the check strings catch an engine that answers differently.

use std::hint::black_box;

use writ_core::{Object, Str, Value};
use writ_jexl::{Error, Expression, Jexl};

use crate::workloads::{Task, items, text_check};

/// The seed's filter, over `{ items }` of 200,000 items.
pub const FILTER: &str = "items[.age >= 30]";
/// A comparison, with each item as the context.
pub const COMPARE: &str = "age >= 30 && price < 50";
/// A nested ternary, with each item as the context.
pub const TERNARY: &str = "age > 60 ? \"senior\" : age > 30 ? \"adult\" : \"young\"";
/// A filter with `&&`, over `{ items }` of 1,000 items.
pub const FILTER_AND: &str = "items[.age >= 30 && .active]";

/// How many items the small workloads read from the front of `items-10k`.
const SMALL: usize = 1_000;

/// One evaluation's rendering: its JSON text, `undefined`, or `error <code>`.
fn render(result: &Result<Value, Error>) -> String {
    match result {
        Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_string()),
        Err(error) => format!("error {}", error.code()),
    }
}

/// Compiles `source` and evaluates it once over `context`, so a failing workload says so
/// untimed.
fn compile(source: &str, context: &Value) -> Result<Expression, String> {
    let expression = Jexl::new()
        .compile(source)
        .map_err(|error| format!("{source}: {error}"))?;
    expression
        .evaluate(context)
        .map_err(|error| format!("{source}: writ failed: {error}"))?;
    Ok(expression)
}

/// One expression over `{ items }`, once per iteration.
struct OverItems {
    /// The compiled expression.
    expression: Expression,
    /// `{ items }`.
    context: Value,
    /// The last iteration's answer.
    last: Result<Value, Error>,
}

impl Task for OverItems {
    fn iterate(&mut self) {
        self.last = self.expression.evaluate(black_box(&self.context));
    }

    fn check(&self) -> String {
        text_check(&render(&self.last))
    }
}

/// `source` over `{ items: <the first take items> }`.
fn over_items(text: &str, source: &str, take: usize) -> Result<Box<dyn Task>, String> {
    let mut items = items(text)?;
    items.truncate(take);
    let context = Value::from(Object::from_iter([(Str::from("items"), Value::from(items))]));
    let expression = compile(source, &context)?;
    Ok(Box::new(OverItems {
        expression,
        context,
        last: Ok(Value::Undefined),
    }))
}

/// The seed's filter over all the items.
pub fn load_filter(text: String) -> Result<Box<dyn Task>, String> {
    over_items(&text, FILTER, usize::MAX)
}

/// The `&&` filter over the first 1,000 items.
pub fn load_filter_and(text: String) -> Result<Box<dyn Task>, String> {
    over_items(&text, FILTER_AND, SMALL)
}

/// One expression evaluated once per item, with the item as the context: one iteration is
/// 1,000 evaluations, each under a fresh meter.
struct PerItem {
    /// The compiled expression.
    expression: Expression,
    /// The contexts, one item each.
    items: Vec<Value>,
    /// The last iteration's answers, one per item.
    results: Vec<Result<Value, Error>>,
}

impl Task for PerItem {
    fn iterate(&mut self) {
        for (item, result) in self.items.iter().zip(self.results.iter_mut()) {
            *result = self.expression.evaluate(black_box(item));
        }
    }

    fn check(&self) -> String {
        text_check(&self.results.iter().map(render).collect::<Vec<_>>().join("\n"))
    }
}

/// `source` over each of the first 1,000 items.
fn per_item(text: &str, source: &str) -> Result<Box<dyn Task>, String> {
    let mut items = items(text)?;
    items.truncate(SMALL);
    let expression = compile(source, items.first().unwrap_or(&Value::Undefined))?;
    let results = items.iter().map(|_| Ok(Value::Undefined)).collect();
    Ok(Box::new(PerItem {
        expression,
        items,
        results,
    }))
}

/// The comparison, per item.
pub fn load_compare(text: String) -> Result<Box<dyn Task>, String> {
    per_item(&text, COMPARE)
}

/// The ternary, per item.
pub fn load_ternary(text: String) -> Result<Box<dyn Task>, String> {
    per_item(&text, TERNARY)
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
    fn the_workloads_answer_as_jexl_does() {
        let items = r#"[{"age": 25, "price": 10, "active": true}, {"age": 70, "price": 60, "active": true},
                        {"age": 31, "price": 5, "active": false}]"#;
        let kept = r#"[{"age":70,"price":60,"active":true},{"age":31,"price":5,"active":false}]"#;
        assert_eq!(run(load_filter(items.to_string())), text_check(kept));
        assert_eq!(
            run(load_filter_and(items.to_string())),
            text_check(r#"[{"age":70,"price":60,"active":true}]"#)
        );
        assert_eq!(run(load_compare(items.to_string())), text_check("false\nfalse\ntrue"));
        assert_eq!(
            run(load_ternary(items.to_string())),
            text_check("\"young\"\n\"senior\"\n\"adult\"")
        );
    }
}
