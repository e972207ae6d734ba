//! Runs the whole harness on tiny data against node (jlens-core for the JSONata workloads,
//! LangGraph for the plan runtime's) and checks every workload's report line.
//!
//! Node is required, with jsonata-js, jexl and wasmoon installed in oracle/, and LangGraph in
//! bench/peers/.venv (the README's test command installs both): without them the harness fails,
//! and so does this test.

use std::process::Command;

use writ_core::{Value, parse_json};

const WORKLOADS: [&str; 38] = [
    "json/parse/items-20k",
    "json/stringify/items-20k",
    "value/filter-sum/items-200k",
    "number/to-string/100k",
    "js/check/simple",
    "js/member/read",
    "js/template/two",
    "js/object/literal",
    "js/filter/rows-1k",
    "js/map/rows-1k",
    "js/reduce/rows-1k",
    "js/table/rows-1k-x5",
    "js/filter/rows-200k",
    "jexl/filter/items-200k",
    "jexl/compare/items-1k",
    "jexl/ternary/items-1k",
    "jexl/filter-and/items-1k",
    "lua/predicate/fresh-vm",
    "lua/predicate/warm-vm",
    "lua/loop/sum-1k",
    "jsonata/filter-sum/items-200k",
    "jsonata/group-sum/items-200k",
    "jsonata/order-by/items-10k",
    "jsonata/order-by/items-200k",
    "jsonata/suite/sum-path",
    "jsonata/suite/group-by",
    "jsonata/suite/map",
    "jsonata/suite/join-strings",
    "jsonata/suite/order-by",
    "jsonata/suite/predicate",
    "jsonata/suite/parent",
    "jsonata/suite/format-number",
    "jsonata/suite/transform",
    "jsonata/suite/self-join",
    "run/chain-200/memory",
    "run/chain-200/sqlite",
    "flow/compute-loop/100k",
    "flow/routing/items-10k",
];

/// The workloads node does not run (jsonata-js runs out of memory on them at full size; the
/// plan runtime's peer is LangGraph).
const WITHOUT_NODE: [&str; 3] = [
    "jsonata/order-by/items-200k",
    "run/chain-200/memory",
    "run/chain-200/sqlite",
];

#[test]
fn every_workload_runs_on_both_sides_and_agrees() {
    let data_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-data-test");
    let output = Command::new(env!("CARGO_BIN_EXE_writ-bench"))
        .args([
            "--runs",
            "1",
            "--samples",
            "1",
            "--scale",
            "0.01",
            "--json",
            "--data-dir",
        ])
        .arg(&data_dir)
        .output()
        .expect("writ-bench starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "writ-bench failed ({}); node and the LangGraph peer must be installed:\n{stderr}{stdout}",
        output.status
    );

    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| parse_json(line).unwrap_or_else(|error| panic!("not JSON: {line:?}: {error}")))
        .collect();
    for name in WORKLOADS {
        let line = lines
            .iter()
            .find(|line| {
                field(line, "workload")
                    .and_then(Value::as_str)
                    .is_some_and(|text| text.eq_str(name))
            })
            .unwrap_or_else(|| panic!("{name} is missing from:\n{stdout}"));
        let number = |key: &str| field(line, key).and_then(Value::as_number).unwrap_or(f64::NAN);
        let check = |key: &str| field(line, key).and_then(Value::as_str);
        assert!(number("writ_median_ns") > 0.0, "{name}: writ median in {line}");
        let writ_check = check("writ_check");
        assert!(
            writ_check.is_some_and(|check| !check.is_empty()),
            "{name}: writ check in {line}"
        );
        if WITHOUT_NODE.contains(&name) {
            assert!(
                field(line, "node_not_run").is_some(),
                "{name}: the reason node skips it in {line}"
            );
            assert!(
                matches!(field(line, "peer_median_ns"), Some(Value::Null)),
                "{name}: {line}"
            );
        } else {
            assert!(number("peer_median_ns") > 0.0, "{name}: peer median in {line}");
            assert!(
                number("ratio").is_finite() && number("ratio") > 0.0,
                "{name}: ratio in {line}"
            );
            assert_eq!(writ_check, check("peer_check"), "{name}: checks in {line}");
        }
        if name.starts_with("jsonata/") {
            assert!(number("jlens_median_ns") > 0.0, "{name}: jlens median in {line}");
            assert!(number("jlens_ratio") > 0.0, "{name}: jlens ratio in {line}");
            assert_eq!(writ_check, check("jlens_check"), "{name}: jlens check in {line}");
        } else {
            assert!(
                field(line, "jlens_median_ns").is_none(),
                "{name}: no jlens side in {line}"
            );
        }
        if name.starts_with("run/") {
            assert!(
                number("langgraph_median_ns") > 0.0,
                "{name}: LangGraph median in {line}"
            );
            assert!(number("langgraph_ratio") > 0.0, "{name}: LangGraph ratio in {line}");
            assert_eq!(
                writ_check,
                check("langgraph_check"),
                "{name}: LangGraph check in {line}"
            );
            assert_eq!(
                writ_check.map(|check| check.to_string_lossy().into_owned()),
                Some("steps:200".to_owned()),
                "{name}: every step settled in {line}"
            );
        } else {
            assert!(
                field(line, "langgraph_median_ns").is_none(),
                "{name}: no LangGraph side in {line}"
            );
        }
        assert_eq!(
            field(line, "checks_agree").and_then(Value::as_bool),
            Some(true),
            "{name}: {line}"
        );
    }
}

fn field<'a>(line: &'a Value, key: &str) -> Option<&'a Value> {
    line.as_object()?.get_str(key)
}
