//! The JSONata workloads' Rust sides: writ-jsonata and jlens-core, each compiling the
//! expression once and evaluating it over an input converted beforehand (both untimed).
//!
//! jsonata-js, the third side, is in `bench/peers/node.mjs`; the three render their result as
//! JSON text the same way, so the check strings catch an engine that answers differently.

use std::hint::black_box;

use writ_core::{Object, Str, Value, parse_json};
use writ_jsonata::{Expression, JsonataLimits, Options};

use crate::workloads::{Task, text_check};

/// One JSONata workload: its expression, how the data file becomes its input, and writ's limits.
pub struct Query {
    /// The expression, identical in `bench/peers/node.mjs`.
    pub source: &'static str,
    /// When set, the input is `{ <key>: <the data file's value> }` (the generated item sets are
    /// bare arrays); otherwise the data file's value itself.
    pub wrap: Option<&'static str>,
    /// writ's limits: the defaults unless the workload needs more (each such case says why).
    pub limits: JsonataLimits,
}

impl Query {
    /// A query over the data file's value under `wrap`, at writ's default limits.
    const fn new(source: &'static str, wrap: Option<&'static str>) -> Query {
        Query {
            source,
            wrap,
            limits: DEFAULT_LIMITS,
        }
    }
}

/// writ's default limits (1 s, depth 5,000, 100,000,000 steps, sequences of 10,000,000).
const DEFAULT_LIMITS: JsonataLimits = JsonataLimits {
    timeout: Some(1_000),
    depth: Some(5_000),
    steps: Some(100_000_000),
    sequence: Some(10_000_000),
};

// The issue's three workloads over the generated items, as `{ items: [...] }`.

/// Filter and sum.
pub const FILTER_SUM: Query = Query::new("$sum(items[price > 50].price)", Some("items"));
/// Group by category and sum each group.
pub const GROUP_SUM: Query = Query::new("items{category: $sum(price)}", Some("items"));
/// Order by price, descending, and take the first ten names.
pub const ORDER_BY: Query = Query::new("items^(>price)[[0..9]].name", Some("items"));
/// [`ORDER_BY`] over 200,000 items, with a 10 s timeout: the sort takes about half of the
/// default second on this machine, so a busy moment would time it out rather than time it.
pub const ORDER_BY_LARGE: Query = Query {
    limits: JsonataLimits {
        timeout: Some(10_000),
        ..DEFAULT_LIMITS
    },
    ..ORDER_BY
};

// Expressions of the official suite, over its datasets (the case each comes from is named).

/// `function-sum/case000`, over dataset5: a path through Account/Order/Product.
pub const SUITE_SUM_PATH: Query = Query::new("$sum(Account.Order.Product.(Price * Quantity))", None);
/// `object-constructor/case015`, over dataset5: a group-by.
pub const SUITE_GROUP_BY: Query = Query::new("Account.Order{OrderID: $sum(Product.(Price*Quantity))}", None);
/// `hof-map/case004`, over dataset5: `$map` with a three-parameter lambda.
pub const SUITE_MAP: Query = Query::new(
    "Account.Order.Product ~> $map(λ($prod, $index, $arr) { $index+1 & \"/\" & $count($arr) & \": \" & $prod.\"Product Name\" })",
    None,
);
/// `joins/employee-map-reduce`, over employees: a join by `@` and a string join per group.
pub const SUITE_JOIN_STRINGS: Query = Query::new(
    "Employee@$e.Contact@$c[$c.ssn = $e.SSN]{ $e.(FirstName & ' ' & Surname): $join($c.Phone.number, ', ') }",
    None,
);
/// `sorting/case007`, over dataset5: an order-by on two keys.
pub const SUITE_ORDER_BY: Query = Query::new(
    "Account.Order.Product^(Quantity, >Description.Colour).Description.Colour",
    None,
);
/// `predicates/case003`, over dataset5: a predicate calling a function, then an index.
pub const SUITE_PREDICATE: Query = Query::new(
    "Account.Order.Product[$lowercase(Description.Colour) = \"purple\"][0].Price",
    None,
);
/// `parent-operator/parent.json`, over dataset5: `%` and `%.%` inside an object constructor.
pub const SUITE_PARENT: Query = Query::new(
    "Account.Order.Product.Description.{ 'Item': Colour & ' ' & %.`Product Name`, 'Discounted': (%.%.OrderID = 'order103') ? %.Price / 2 : %.Price }",
    None,
);
/// `$formatNumber` as the `function-formatNumber` cases use it (they take no dataset), over
/// dataset5's products.
pub const SUITE_FORMAT_NUMBER: Query = Query::new(
    "Account.Order.Product.$formatNumber(Price * Quantity, '#,##0.00')",
    None,
);
/// `transforms/case000`, over dataset5: a transform, which copies the input.
pub const SUITE_TRANSFORM: Query = Query::new(
    "$ ~> |Account.Order.Product|{\"Total\":Price*Quantity},[\"Description\", \"SKU\"]|",
    None,
);
/// `performance/case000`, over items: a filter over the whole input for each of its 256 items.
pub const SUITE_SELF_JOIN: Query = Query::new(
    "{\"items\": items.{\"foo\": \"bar\",\"count\": $count($$.items[text!=\"\" and text!=\"foo\"].row)}}",
    None,
);

/// The check of a result's JSON text, `undefined` for no result, or `error <code>`: the same
/// renderings `bench/peers/node.mjs` makes of jsonata-js's answers.
fn rendering_check(rendering: Option<String>) -> String {
    text_check(rendering.as_deref().unwrap_or("undefined"))
}

/// writ-jsonata's side.
struct WritTask {
    expression: Expression,
    input: Value,
    options: Options,
    last: writ_jsonata::Result<Value>,
}

/// Compiles `query` with writ and evaluates it once, so a failing workload says so untimed.
pub fn writ(text: String, query: &Query) -> Result<Box<dyn Task>, String> {
    let data = parse_json(&text).map_err(|error| format!("the data file is not JSON: {error}"))?;
    let input = match query.wrap {
        Some(key) => Value::from(Object::from_iter([(Str::from(key), data)])),
        None => data,
    };
    let expression = Expression::compile(query.source).map_err(|error| format!("{}: {error}", query.source))?;
    let options = Options {
        limits: query.limits,
        ..Options::default()
    };
    let last = expression.evaluate(&input, &options);
    if let Err(error) = &last {
        return Err(format!("{}: writ failed: {error}", query.source));
    }
    Ok(Box::new(WritTask {
        expression,
        input,
        options,
        last,
    }))
}

impl Task for WritTask {
    fn iterate(&mut self) {
        self.last = self.expression.evaluate(black_box(&self.input), &self.options);
    }

    fn check(&self) -> String {
        match &self.last {
            Ok(value) => rendering_check(value.to_json_string()),
            Err(error) => format!("error {}", error.code()),
        }
    }
}

/// jlens-core's side, over a `Document` converted once: its fastest path.
struct JlensTask {
    expression: jlens_core::Expression,
    document: jlens_core::Document,
    bindings: jlens_core::Bindings,
    options: jlens_core::Options,
    last: jlens_core::Result<Option<serde_json::Value>>,
}

/// Compiles `query` with jlens-core and evaluates it once, so a failing workload says so untimed.
pub fn jlens(text: String, query: &Query) -> Result<Box<dyn Task>, String> {
    let data: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| format!("the data file is not JSON: {error}"))?;
    let input = match query.wrap {
        Some(key) => serde_json::Value::Object(serde_json::Map::from_iter([(key.to_string(), data)])),
        None => data,
    };
    let expression =
        jlens_core::Expression::compile(query.source).map_err(|error| format!("{}: {error}", query.source))?;
    let document = jlens_core::Document::new(&input);
    let bindings = jlens_core::Bindings::new();
    // jlens's defaults: no timeout, its own depth and size limits.
    let options = jlens_core::Options::new();
    let last = expression.evaluate_document(&document, &bindings, &options);
    if let Err(error) = &last {
        return Err(format!("{}: jlens failed with {}: {error}", query.source, error.code()));
    }
    Ok(Box::new(JlensTask {
        expression,
        document,
        bindings,
        options,
        last,
    }))
}

impl Task for JlensTask {
    fn iterate(&mut self) {
        self.last = self
            .expression
            .evaluate_document(black_box(&self.document), &self.bindings, &self.options);
    }

    fn check(&self) -> String {
        match &self.last {
            // Rendered by writ, untimed, so all three sides write numbers and strings alike.
            Ok(result) => rendering_check(result.as_ref().and_then(|json| Value::from(json).to_json_string())),
            Err(error) => format!("error {}", error.code()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One side's loader: [`writ`] or [`jlens`].
    type Side = fn(String, &Query) -> Result<Box<dyn Task>, String>;

    fn run(load: Side, text: &str, query: &Query) -> String {
        let mut task = load(text.to_string(), query).expect("loads");
        task.iterate();
        task.check()
    }

    #[test]
    fn default_limits_are_writs_defaults() {
        assert_eq!(DEFAULT_LIMITS, JsonataLimits::default());
    }

    #[test]
    fn both_engines_answer_the_issue_workloads_alike() {
        let items = r#"[{"name":"a","category":"x","price":60.5},{"name":"b","category":"y","price":10},
                        {"name":"c","category":"x","price":70}]"#;
        assert_eq!(run(writ, items, &FILTER_SUM), text_check("130.5"));
        assert_eq!(run(writ, items, &GROUP_SUM), text_check(r#"{"x":130.5,"y":10}"#));
        assert_eq!(run(writ, items, &ORDER_BY), text_check(r#"["c","a","b"]"#));
        for query in [&FILTER_SUM, &GROUP_SUM, &ORDER_BY] {
            assert_eq!(run(jlens, items, query), run(writ, items, query), "{}", query.source);
        }
    }

    #[test]
    fn no_result_and_failures_show_in_the_check() {
        let none = Query::new("nothing", None);
        assert_eq!(run(writ, "{}", &none), text_check("undefined"));
        assert_eq!(run(jlens, "{}", &none), text_check("undefined"));
        let failing = Query::new("$number('x')", None);
        assert!(writ("{}".to_string(), &failing).is_err_and(|error| error.contains("D3030")));
        assert!(jlens("{}".to_string(), &failing).is_err_and(|error| error.contains("D3030")));
    }
}
