//! The workloads' Rust sides: what one iteration does, and the check string its result gives.
//!
//! Each workload has a twin in `bench/peers/node.mjs` under the same name, and the JSONata
//! workloads a third side on jlens-core (`crate::jsonata`); every side must compute the same
//! check string from its result, or the harness refuses the figures.

use std::hint::black_box;

use writ_core::{Object, Str, Value, js_number_to_string, parse_json, write_js_number};
use writ_js::{Budget, Compiled, Evaluator};

use crate::data::{DataSet, Input};
use crate::{jexl, jsonata, lua, run};

/// Prepares a workload from the data file's text (untimed).
pub type Loader = fn(String) -> Result<Box<dyn Task>, String>;

/// One workload: its name, the data it reads, and how each side prepares it for timing.
pub struct Workload {
    /// `area/workload/size`, identical on every side.
    pub name: &'static str,
    /// The data file the worker is given.
    pub data: Input,
    /// writ's side.
    pub load: Loader,
    /// jlens-core's side, for the JSONata workloads.
    pub jlens: Option<Loader>,
    /// Whether LangGraph (`bench/peers/langgraph_peer.py`) runs it: the plan runtime's
    /// workloads.
    pub langgraph: bool,
    /// Why node does not run this workload, when it does not.
    pub without_node: Option<&'static str>,
}

impl Workload {
    /// A workload writ and node run.
    const fn pair(name: &'static str, data: DataSet, load: Loader) -> Workload {
        Workload {
            name,
            data: Input::Generated(data),
            load,
            jlens: None,
            langgraph: false,
            without_node: None,
        }
    }

    /// A JSONata workload writ, node and jlens-core run.
    const fn jsonata(name: &'static str, data: Input, load: Loader, jlens: Loader) -> Workload {
        Workload {
            name,
            data,
            load,
            jlens: Some(jlens),
            langgraph: false,
            without_node: None,
        }
    }

    /// A plan-runtime workload writ and LangGraph run; it reads no data (the smallest set is
    /// passed, as every worker takes a file).
    const fn run(name: &'static str, load: Loader) -> Workload {
        Workload {
            name,
            data: Input::Generated(DataSet::Rows1k),
            load,
            jlens: None,
            langgraph: true,
            without_node: Some("a plan runtime's workload: its peer is LangGraph"),
        }
    }
}

/// A [`Workload::jsonata`] evaluating `$query` over `$data`.
macro_rules! jsonata_workload {
    ($name:literal, $data:expr, $query:expr) => {
        Workload::jsonata(
            $name,
            $data,
            |text| jsonata::writ(text, &$query),
            |text| jsonata::jlens(text, &$query),
        )
    };
}

/// A prepared workload.
pub trait Task {
    /// Whether each iteration needs [`Task::prepare`] first (untimed); the worker then times
    /// iterations one by one instead of a sample at once.
    fn prepares(&self) -> bool {
        false
    }

    /// Makes what the next iteration uses up (a plan approved for its one run).
    fn prepare(&mut self) {}

    /// Runs one timed iteration, keeping its result for [`Task::check`].
    fn iterate(&mut self);

    /// The check string of the last iteration's result (untimed).
    fn check(&self) -> String;
}

/// Every workload, in the order the table lists them.
pub const WORKLOADS: &[Workload] = &[
    Workload::pair("json/parse/items-20k", DataSet::Items20k, load_parse),
    Workload::pair("json/stringify/items-20k", DataSet::Items20k, load_stringify),
    Workload::pair("value/filter-sum/items-200k", DataSet::Items200k, load_filter_sum),
    Workload::pair("number/to-string/100k", DataSet::Numbers100k, load_to_string),
    Workload::pair("js/check/simple", DataSet::Rows1k, |text| {
        load_scope(text, CHECK_SIMPLE)
    }),
    Workload::pair("js/member/read", DataSet::Rows1k, |text| load_scope(text, MEMBER_READ)),
    Workload::pair("js/template/two", DataSet::Rows1k, |text| {
        load_scope(text, TEMPLATE_TWO)
    }),
    Workload::pair("js/object/literal", DataSet::Rows1k, |text| {
        load_scope(text, OBJECT_LITERAL)
    }),
    Workload::pair("js/filter/rows-1k", DataSet::Rows1k, |text| {
        load_list(text, FILTER_ROWS)
    }),
    Workload::pair("js/map/rows-1k", DataSet::Rows1k, |text| load_list(text, MAP_ROWS)),
    Workload::pair("js/reduce/rows-1k", DataSet::Rows1k, |text| {
        load_list(text, REDUCE_ROWS)
    }),
    Workload::pair("js/table/rows-1k-x5", DataSet::Rows1k, load_table),
    Workload::pair("js/filter/rows-200k", DataSet::Rows200k, |text| {
        load_list(text, FILTER_COUNT_ROWS)
    }),
    Workload::pair("jexl/filter/items-200k", DataSet::Items200k, jexl::load_filter),
    Workload::pair("jexl/compare/items-1k", DataSet::Items10k, jexl::load_compare),
    Workload::pair("jexl/ternary/items-1k", DataSet::Items10k, jexl::load_ternary),
    Workload::pair("jexl/filter-and/items-1k", DataSet::Items10k, jexl::load_filter_and),
    Workload::pair("lua/predicate/fresh-vm", DataSet::Items10k, lua::load_fresh),
    Workload::pair("lua/predicate/warm-vm", DataSet::Items10k, lua::load_warm),
    Workload::pair("lua/loop/sum-1k", DataSet::Items10k, lua::load_sum),
    jsonata_workload!(
        "jsonata/filter-sum/items-200k",
        Input::Generated(DataSet::Items200k),
        jsonata::FILTER_SUM
    ),
    jsonata_workload!(
        "jsonata/group-sum/items-200k",
        Input::Generated(DataSet::Items200k),
        jsonata::GROUP_SUM
    ),
    jsonata_workload!(
        "jsonata/order-by/items-10k",
        Input::Generated(DataSet::Items10k),
        jsonata::ORDER_BY
    ),
    Workload {
        without_node: Some(
            "jsonata-js 2.2.2 runs out of memory sorting 200,000 items (and 50,000); see jsonata/order-by/items-10k",
        ),
        ..jsonata_workload!(
            "jsonata/order-by/items-200k",
            Input::Generated(DataSet::Items200k),
            jsonata::ORDER_BY_LARGE
        )
    },
    jsonata_workload!(
        "jsonata/suite/sum-path",
        Input::Suite("dataset5"),
        jsonata::SUITE_SUM_PATH
    ),
    jsonata_workload!(
        "jsonata/suite/group-by",
        Input::Suite("dataset5"),
        jsonata::SUITE_GROUP_BY
    ),
    jsonata_workload!("jsonata/suite/map", Input::Suite("dataset5"), jsonata::SUITE_MAP),
    jsonata_workload!(
        "jsonata/suite/join-strings",
        Input::Suite("employees"),
        jsonata::SUITE_JOIN_STRINGS
    ),
    jsonata_workload!(
        "jsonata/suite/order-by",
        Input::Suite("dataset5"),
        jsonata::SUITE_ORDER_BY
    ),
    jsonata_workload!(
        "jsonata/suite/predicate",
        Input::Suite("dataset5"),
        jsonata::SUITE_PREDICATE
    ),
    jsonata_workload!("jsonata/suite/parent", Input::Suite("dataset5"), jsonata::SUITE_PARENT),
    jsonata_workload!(
        "jsonata/suite/format-number",
        Input::Suite("dataset5"),
        jsonata::SUITE_FORMAT_NUMBER
    ),
    jsonata_workload!(
        "jsonata/suite/transform",
        Input::Suite("dataset5"),
        jsonata::SUITE_TRANSFORM
    ),
    jsonata_workload!(
        "jsonata/suite/self-join",
        Input::Suite("items"),
        jsonata::SUITE_SELF_JOIN
    ),
    Workload::run("run/chain-200/memory", |_| run::load_chain("memory", true)),
    Workload::run("run/chain-200/sqlite", |_| run::load_chain("sqlite", true)),
    Workload::run("run/chain-200-unsafe/sqlite", |_| run::load_chain("sqlite", false)),
    Workload::pair("flow/compute-loop/100k", DataSet::Items10k, crate::flow::load_loop),
    Workload::pair("flow/routing/items-10k", DataSet::Items10k, crate::flow::load_routing),
];

// The js workloads' expressions. `bench/peers/node.mjs` holds the same text; the check strings
// catch any drift between the two.

/// Over each row's scope `{ root: { count: qty, user: { id, name } } }`.
pub const CHECK_SIMPLE: &str = "root.count > 0";
/// Over each row's scope.
pub const MEMBER_READ: &str = "root.user.name";
/// Over each row's scope.
pub const TEMPLATE_TWO: &str = "`${root.user.name} has ${root.count} items`";
/// Over each row's scope.
pub const OBJECT_LITERAL: &str = "({ id: root.user.id, name: root.user.name, total: root.count * 2 })";
/// Over `{ rows }`.
pub const FILTER_ROWS: &str = "rows.filter(r => r.price > 50)";
/// Over `{ rows }`.
pub const MAP_ROWS: &str = "rows.map(r => r.price * r.qty)";
/// Over `{ rows }`.
pub const REDUCE_ROWS: &str = "rows.reduce((sum, r) => sum + r.price * r.qty, 0)";
/// Over `{ rows }`, 200,000 of them.
pub const FILTER_COUNT_ROWS: &str = "rows.filter(r => r.price > 50).length";
/// The table's five cells, each evaluated with the row itself as the context.
pub const TABLE: [&str; 5] = [
    "price * qty",
    "`${name} × ${qty}`",
    "status === \"open\" && qty > 0",
    "tags.length > 0 ? tags[0] : \"none\"",
    "({ id, total: price * qty, label: name })",
];

/// The js workloads' budget: uicast's benchmark budget (50M steps, 60 s), with room for the
/// 200,000-row filter's arrays.
pub const JS_BUDGET: Budget = Budget {
    steps: 50_000_000,
    ms: 60_000,
    max_string_length: 1_000_000,
    max_array_length: 1_000_000,
    max_total_allocation: 100_000_000,
};

/// The workload called `name`.
pub fn find(name: &str) -> Option<&'static Workload> {
    WORKLOADS.iter().find(|workload| workload.name == name)
}

/// 32-bit FNV-1a over `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash: u32, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// The data file's items, for workloads that read an items file as a list.
pub fn items(text: &str) -> Result<Vec<Value>, String> {
    let data = parse_json(text).map_err(|error| format!("the data file is not JSON: {error}"))?;
    data.as_array()
        .map(|items| items.to_vec())
        .ok_or_else(|| "the data file is not an array of items".to_string())
}

/// `<length in bytes>:<FNV-1a as 8 hex digits>`, the check of a text output.
pub fn text_check(text: &str) -> String {
    format!("{}:{:08x}", text.len(), fnv1a(text.as_bytes()))
}

fn parse(text: &str) -> Result<Value, String> {
    parse_json(text).map_err(|error| format!("the data file is not JSON: {error}"))
}

fn rows(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], |rows| rows.as_slice())
}

fn price(row: &Value) -> Option<f64> {
    row.as_object()?.get_str("price")?.as_number()
}

struct ParseTask {
    text: String,
    last: Value,
}

fn load_parse(text: String) -> Result<Box<dyn Task>, String> {
    parse(&text)?;
    Ok(Box::new(ParseTask {
        text,
        last: Value::Undefined,
    }))
}

impl Task for ParseTask {
    fn iterate(&mut self) {
        // Replacing the last result frees it inside the timing, as a collector would.
        self.last = parse_json(black_box(&self.text)).unwrap_or_default();
    }

    /// `<rows>:<sum of price in row order>`.
    fn check(&self) -> String {
        let rows = rows(&self.last);
        let sum = rows.iter().filter_map(price).fold(0.0, |sum, price| sum + price);
        format!("{}:{}", rows.len(), js_number_to_string(sum))
    }
}

struct StringifyTask {
    value: Value,
    last: String,
}

fn load_stringify(text: String) -> Result<Box<dyn Task>, String> {
    Ok(Box::new(StringifyTask {
        value: parse(&text)?,
        last: String::new(),
    }))
}

impl Task for StringifyTask {
    fn iterate(&mut self) {
        self.last = black_box(&self.value).to_json_string().unwrap_or_default();
    }

    fn check(&self) -> String {
        text_check(&self.last)
    }
}

struct FilterSumTask {
    items: Value,
    last: f64,
}

fn load_filter_sum(text: String) -> Result<Box<dyn Task>, String> {
    Ok(Box::new(FilterSumTask {
        items: parse(&text)?,
        last: 0.0,
    }))
}

impl Task for FilterSumTask {
    fn iterate(&mut self) {
        let mut sum = 0.0;
        for row in rows(black_box(&self.items)) {
            if let Some(price) = price(row)
                && price > 50.0
            {
                sum += price;
            }
        }
        self.last = black_box(sum);
    }

    fn check(&self) -> String {
        js_number_to_string(self.last)
    }
}

struct ToStringTask {
    numbers: Vec<f64>,
    out: String,
}

fn load_to_string(text: String) -> Result<Box<dyn Task>, String> {
    let numbers = rows(&parse(&text)?)
        .iter()
        .map(|number| number.as_number().ok_or("the numbers file holds a non-number"))
        .collect::<Result<Vec<f64>, _>>()?;
    Ok(Box::new(ToStringTask {
        numbers,
        out: String::new(),
    }))
}

impl Task for ToStringTask {
    fn iterate(&mut self) {
        self.out.clear();
        for (idx, &number) in black_box(&self.numbers).iter().enumerate() {
            if idx > 0 {
                self.out.push(',');
            }
            write_js_number(number, &mut self.out);
        }
        black_box(&self.out);
    }

    fn check(&self) -> String {
        text_check(&self.out)
    }
}

/// What one writ-js evaluation gave: the result's JSON text (`undefined` when it has none), or
/// the error's reason and message, so that a failure shows in the check instead of vanishing.
fn render(result: &Result<Value, writ_js::Error>) -> String {
    match result {
        Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_string()),
        Err(error) => format!("error {}: {error}", error.reason()),
    }
}

/// The check of many evaluations: [`text_check`] over their renderings, one per line.
fn results_check(results: &[Result<Value, writ_js::Error>]) -> String {
    text_check(&results.iter().map(render).collect::<Vec<_>>().join("\n"))
}

/// The row objects of a rows data set.
fn row_objects(text: &str) -> Result<Vec<Object>, String> {
    rows(&parse(text)?)
        .iter()
        .map(|row| {
            row.as_object()
                .cloned()
                .ok_or_else(|| "the rows file holds a non-object".to_string())
        })
        .collect()
}

/// Compiles `source` with [`JS_BUDGET`] and runs it once over `contexts`, so that a
/// workload that fails says so before any timing.
fn compile(source: &str, contexts: &[&Object]) -> Result<Compiled, String> {
    let evaluator = Evaluator::builder()
        .budget(JS_BUDGET)
        .build()
        .map_err(|error| format!("cannot build the evaluator: {error}"))?;
    let compiled = evaluator
        .compile(source)
        .map_err(|error| format!("{source}: {error}"))?;
    compiled.eval(contexts).map_err(|error| format!("{source}: {error}"))?;
    Ok(compiled)
}

fn object(fields: impl IntoIterator<Item = (&'static str, Value)>) -> Object {
    fields.into_iter().map(|(key, value)| (Str::from(key), value)).collect()
}

/// One small expression over a scope per row: 1,000 evaluations per iteration at scale 1.
struct ScopeTask {
    compiled: Compiled,
    scopes: Vec<Object>,
    results: Vec<Result<Value, writ_js::Error>>,
}

/// Each row's scope: `{ root: { count: qty, user: { id, name } } }`.
fn load_scope(text: String, source: &str) -> Result<Box<dyn Task>, String> {
    let scopes: Vec<Object> = row_objects(&text)?
        .iter()
        .map(|row| {
            let field = |key: &str| row.get_str(key).cloned().unwrap_or_default();
            let user = object([("id", field("id")), ("name", field("name"))]);
            let root = object([("count", field("qty")), ("user", Value::from(user))]);
            object([("root", Value::from(root))])
        })
        .collect();
    let first = scopes.first().ok_or("the rows file is empty")?;
    Ok(Box::new(ScopeTask {
        compiled: compile(source, &[first])?,
        results: Vec::with_capacity(scopes.len()),
        scopes,
    }))
}

impl Task for ScopeTask {
    fn iterate(&mut self) {
        self.results.clear();
        for scope in black_box(&self.scopes) {
            self.results.push(self.compiled.eval(&[scope]));
        }
    }

    /// [`text_check`] over the results' JSON, one per line.
    fn check(&self) -> String {
        results_check(&self.results)
    }
}

/// One expression over `{ rows }`: one evaluation per iteration.
struct ListTask {
    compiled: Compiled,
    context: Object,
    last: Result<Value, writ_js::Error>,
}

fn load_list(text: String, source: &str) -> Result<Box<dyn Task>, String> {
    let context = object([("rows", parse(&text)?)]);
    Ok(Box::new(ListTask {
        compiled: compile(source, &[&context])?,
        context,
        last: Ok(Value::Undefined),
    }))
}

impl Task for ListTask {
    fn iterate(&mut self) {
        self.last = self.compiled.eval(&[black_box(&self.context)]);
    }

    /// [`text_check`] over the result's JSON.
    fn check(&self) -> String {
        results_check(std::slice::from_ref(&self.last))
    }
}

/// The five [`TABLE`] cells of every row, the row itself as the context: 5,000 evaluations
/// per iteration at scale 1.
struct TableTask {
    cells: Vec<Compiled>,
    rows: Vec<Object>,
    results: Vec<Result<Value, writ_js::Error>>,
}

fn load_table(text: String) -> Result<Box<dyn Task>, String> {
    let rows = row_objects(&text)?;
    let first = rows.first().ok_or("the rows file is empty")?;
    let cells = TABLE
        .iter()
        .map(|source| compile(source, &[first]))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Box::new(TableTask {
        results: Vec::with_capacity(rows.len() * cells.len()),
        cells,
        rows,
    }))
}

impl Task for TableTask {
    fn iterate(&mut self) {
        self.results.clear();
        for row in black_box(&self.rows) {
            for cell in &self.cells {
                self.results.push(cell.eval(&[row]));
            }
        }
    }

    /// [`text_check`] over the results' JSON, row by row, one per line.
    fn check(&self) -> String {
        results_check(&self.results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
    }

    #[test]
    fn every_workload_checks_small_data() {
        for workload in WORKLOADS {
            let text = workload.data.text(0.0001).expect("readable data");
            let mut task = (workload.load)(text.clone()).expect("loads");
            if task.prepares() {
                task.prepare();
            }
            task.iterate();
            let check = task.check();
            assert!(!check.is_empty(), "{}", workload.name);
            if let Some(jlens) = workload.jlens {
                let mut task = jlens(text).expect("loads");
                task.iterate();
                assert_eq!(task.check(), check, "{}: jlens and writ disagree", workload.name);
            }
        }
    }

    #[test]
    fn js_results_render_as_json_text() {
        assert_eq!(render(&Ok(Value::from("a\"b"))), "\"a\\\"b\"");
        assert_eq!(render(&Ok(Value::Undefined)), "undefined");
        let failed = Evaluator::new().eval("nope", &[]);
        assert!(render(&failed).starts_with("error unknown-reference: "), "{failed:?}");
    }

    #[test]
    fn js_workloads_compute_what_javascript_computes() {
        // Two rows, worked out by hand: the checks node builds come from the same renderings.
        let text = r#"[{"id":1,"name":"Red Mug","price":60.5,"qty":2,"status":"open","tags":["sale"]},
                       {"id":2,"name":"Eco Lamp","price":10,"qty":0,"status":"sold","tags":[]}]"#;
        let run = |load: fn(String) -> Result<Box<dyn Task>, String>| {
            let mut task = load(text.to_string()).expect("loads");
            task.iterate();
            task.check()
        };
        let lines = |lines: &[&str]| text_check(&lines.join("\n"));
        let load = |name: &str| find(name).expect("a workload").load;
        assert_eq!(run(load("js/check/simple")), lines(&["true", "false"]));
        assert_eq!(run(load("js/member/read")), lines(&["\"Red Mug\"", "\"Eco Lamp\""]));
        assert_eq!(
            run(load("js/template/two")),
            lines(&["\"Red Mug has 2 items\"", "\"Eco Lamp has 0 items\""])
        );
        assert_eq!(
            run(load("js/object/literal")),
            lines(&[
                r#"{"id":1,"name":"Red Mug","total":4}"#,
                r#"{"id":2,"name":"Eco Lamp","total":0}"#
            ])
        );
        assert_eq!(
            run(load("js/filter/rows-1k")),
            lines(&[r#"[{"id":1,"name":"Red Mug","price":60.5,"qty":2,"status":"open","tags":["sale"]}]"#])
        );
        assert_eq!(run(load("js/map/rows-1k")), lines(&["[121,0]"]));
        assert_eq!(run(load("js/reduce/rows-1k")), lines(&["121"]));
        assert_eq!(run(load("js/filter/rows-200k")), lines(&["1"]));
        assert_eq!(
            run(load("js/table/rows-1k-x5")),
            lines(&[
                "121",
                "\"Red Mug × 2\"",
                "true",
                "\"sale\"",
                r#"{"id":1,"total":121,"label":"Red Mug"}"#,
                "0",
                "\"Eco Lamp × 0\"",
                "false",
                "\"none\"",
                r#"{"id":2,"total":0,"label":"Eco Lamp"}"#,
            ])
        );
    }
}
