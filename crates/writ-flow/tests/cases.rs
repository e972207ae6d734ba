//! The workflow case corpus: every file in `testdata/cases/` is an array of cases (a document,
//! its named workflows, an input and what the run gives: an output, an error code, or the
//! checker's issues), run by this one harness. The harness also checks that the corpus covers
//! every node kind, predicate kind and code, and that every document that runs is valid under
//! the published JSON Schema.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use writ_core::{Clock, FixedHost, Host, Object, Value};
use writ_flow::{
    Code, Effects, Emitted, Error, NODE_KINDS, Output, PREDICATE_KINDS, RunLimits, RunOptions, Workflow, Workflows,
    check, run,
};

/// A host whose monotonic clock moves `tick` forward at every read, so duration limits and
/// timeouts are tested without sleeping.
#[derive(Debug)]
struct TickingHost {
    fixed: FixedHost,
    start: Instant,
    tick: Duration,
    reads: AtomicU64,
}

impl Clock for TickingHost {
    fn now(&self) -> Instant {
        let reads = self.reads.fetch_add(1, Ordering::Relaxed);
        self.start + self.tick * u32::try_from(reads).unwrap_or(u32::MAX)
    }
}

impl Host for TickingHost {
    fn now_millis(&self) -> f64 {
        self.fixed.now_millis()
    }

    fn random(&self) -> f64 {
        self.fixed.random()
    }
}

/// Tools and a model from the case: `tools` maps connection → op → `"echo"` (the result is
/// `{"connection", "op", "args", "key"}`), `{"result": …}`, or `{"fail": code}`; `model` is the
/// answers in order.
struct CaseEffects {
    tools: Object,
    model: Mutex<VecDeque<Value>>,
}

impl Effects for CaseEffects {
    fn call(&self, node: &str, connection: &str, op: &str, args: &Object, key: &str) -> Result<(Value, f64), Error> {
        let Some(spec) = self
            .tools
            .get_str(connection)
            .and_then(|ops| ops.as_object())
            .and_then(|ops| ops.get_str(op))
        else {
            return Err(Error::new(
                Code::UnknownConnection,
                format!("call node '{node}': no op '{op}' on connection '{connection}'"),
            ));
        };
        if spec.as_str().is_some_and(|text| text.eq_str("echo")) {
            let mut result = Object::new();
            result.insert("connection".into(), Value::from(connection));
            result.insert("op".into(), Value::from(op));
            result.insert("args".into(), Value::Object(args.clone()));
            result.insert("key".into(), Value::from(key));
            return Ok((Value::Object(result), 1.0));
        }
        let spec = spec.as_object().expect("a tool spec is \"echo\" or an object");
        if let Some(result) = spec.get_str("result") {
            return Ok((result.clone(), 1.0));
        }
        let code = spec.get_str("fail").and_then(Value::as_str).expect("result or fail");
        let code: &'static str = Box::leak(code.to_string_lossy().into_owned().into_boxed_str());
        Err(Error::new(Code::Tool(code), format!("call node '{node}' failed")))
    }

    fn call_model(&self, node: &str, instructions: &str, input: &str) -> Result<(Output, f64), Error> {
        let mut answers = self.model.lock().unwrap();
        match answers.pop_front() {
            Some(Value::String(text)) if text.eq_str("$echo") => {
                Ok((Output::text_output(format!("{instructions} | {input}")), 1.0))
            }
            Some(answer) => Ok((Output::from_value(answer).expect("a JSON answer"), 1.0)),
            None => writ_flow::NoEffects.call_model(node, instructions, input),
        }
    }
}

struct Case {
    file: String,
    id: String,
    json: Value,
}

fn field<'a>(case: &'a Value, name: &str) -> Option<&'a Value> {
    case.as_object().and_then(|object| object.get_str(name))
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.to_string_lossy().into_owned(),
        other => other.to_json_string().unwrap_or_default(),
    }
}

fn load() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the cases directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    let mut ids = BTreeSet::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let json = writ_core::parse_json(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|error| panic!("{name}: {error:?}"));
        for case in json
            .as_array()
            .unwrap_or_else(|| panic!("{name} is an array of cases"))
            .iter()
        {
            let id = text(field(case, "id").unwrap_or_else(|| panic!("{name}: a case without an id")));
            assert!(ids.insert(id.clone()), "case id {id} is used twice");
            cases.push(Case {
                file: name.clone(),
                id,
                json: case.clone(),
            });
        }
    }
    cases
}

/// Runs one case; returns a description of the mismatch, if any.
fn run_case(case: &Case, emitted: &Arc<Mutex<Vec<Emitted>>>) -> Result<(), String> {
    let json = &case.json;
    let document = field(json, "document").ok_or("no document")?;
    let mut workflows = Workflows::new();
    if let Some(Value::Object(named)) = field(json, "workflows") {
        for (name, document) in named.iter() {
            let workflow = Workflow::parse(document)
                .map_err(|issues| format!("named workflow {}: {issues:?}", name.to_string_lossy()))?;
            workflows.insert(name.to_string_lossy().into_owned(), workflow);
        }
    }
    let expect = field(json, "expect").ok_or("no expect")?;
    let issues = check(document, &workflows);
    if let Some(Value::Array(expected)) = field(expect, "issues") {
        let found: Vec<String> = issues
            .iter()
            .map(|issue| format!("{} {}", issue.code, issue.path))
            .collect();
        let wanted: Vec<String> = expected
            .iter()
            .map(|issue| {
                format!(
                    "{} {}",
                    text(field(issue, "code").unwrap()),
                    text(field(issue, "path").unwrap())
                )
            })
            .collect();
        if found != wanted {
            return Err(format!("issues: expected {wanted:?}, found {found:?} ({issues:?})"));
        }
        if let Some(Value::String(fragment)) = field(expect, "message") {
            let fragment = fragment.to_string_lossy();
            if !issues.iter().any(|issue| issue.message.contains(fragment.as_ref())) {
                return Err(format!("no issue message contains {fragment:?}: {issues:?}"));
            }
        }
        return Ok(());
    }
    if !issues.is_empty() {
        return Err(format!("the document was refused: {issues:?}"));
    }
    let workflow = Workflow::parse(document).map_err(|issues| format!("{issues:?}"))?;
    let mut options = RunOptions::default();
    if let Some(limits) = field(json, "limits") {
        match RunLimits::from_json(limits) {
            Ok(limits) => options.limits = limits,
            Err(error) => return compare_error(expect, &error),
        }
    }
    if let Some(host) = field(json, "host") {
        let number = |name: &str| field(host, name).and_then(Value::as_number).unwrap_or(0.0);
        options.host = Arc::new(TickingHost {
            fixed: FixedHost::new(number("now"), number("seed") as u64),
            start: Instant::now(),
            tick: Duration::from_millis(number("tickMs") as u64),
            reads: AtomicU64::new(0),
        });
    }
    if let Some(Value::Array(events)) = field(json, "events") {
        options.events = events.iter().cloned().collect();
    }
    if let Some(Value::Object(answers)) = field(json, "answers") {
        options.answers = answers.clone();
    }
    let tools = match field(json, "tools") {
        Some(Value::Object(tools)) => tools.clone(),
        _ => Object::new(),
    };
    let model = match field(json, "model") {
        Some(Value::Array(answers)) => answers.iter().cloned().collect(),
        _ => VecDeque::new(),
    };
    options.effects = Arc::new(CaseEffects {
        tools,
        model: Mutex::new(model),
    });
    let sink = Arc::clone(emitted);
    options.on_emit = Some(Arc::new(move |item: &Emitted| sink.lock().unwrap().push(item.clone())));
    let input = match field(json, "input") {
        Some(Value::String(text)) => Output::text_output(text.clone()),
        Some(other) => Output::from_value(other.clone()).ok_or("an input without JSON text")?,
        None => Output::text_output(""),
    };
    let result = run(&workflow, &workflows, input, &options);
    if let Some(Value::Array(expected)) = field(expect, "emitted") {
        let found: Vec<String> = emitted.lock().unwrap().iter().map(describe_emitted).collect();
        let wanted: Vec<String> = expected.iter().map(text).collect();
        if found != wanted {
            return Err(format!("emitted: expected {wanted:?}, found {found:?}"));
        }
    }
    match (result, field(expect, "output")) {
        (Ok(output), Some(wanted)) => {
            let found = output.text().to_string_lossy().into_owned();
            let wanted = text(wanted);
            if found == wanted {
                Ok(())
            } else {
                Err(format!("output: expected {wanted}, found {found}"))
            }
        }
        (Ok(output), None) => Err(format!(
            "expected an error, the run gave {}",
            output.text().to_string_lossy()
        )),
        (Err(error), _) => compare_error(expect, &error),
    }
}

fn describe_emitted(item: &Emitted) -> String {
    let value = item.value.to_json_string().unwrap_or_default();
    match &item.item {
        Some(name) => format!("{} {} {name} {value}", item.node, item.hook.as_str()),
        None => format!("{} {} {value}", item.node, item.hook.as_str()),
    }
}

fn compare_error(expect: &Value, error: &Error) -> Result<(), String> {
    let Some(code) = field(expect, "error") else {
        return Err(format!("unexpected error {error}"));
    };
    if text(code) != error.code() {
        return Err(format!("expected error {}, found {error}", text(code)));
    }
    if let Some(Value::String(fragment)) = field(expect, "message") {
        let fragment = fragment.to_string_lossy();
        if !error.message().contains(fragment.as_ref()) {
            return Err(format!("the message does not contain {fragment:?}: {error}"));
        }
    }
    Ok(())
}

/// Every kind and code named anywhere in the corpus's documents and expectations.
fn coverage(cases: &[Case]) -> (BTreeSet<String>, BTreeSet<String>, BTreeSet<String>) {
    let (mut nodes, mut predicates, mut codes) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for case in cases {
        let expect = field(&case.json, "expect").unwrap();
        if let Some(code) = field(expect, "error") {
            codes.insert(text(code));
        }
        if let Some(Value::Array(issues)) = field(expect, "issues") {
            codes.extend(issues.iter().map(|issue| text(field(issue, "code").unwrap())));
        }
        let mut pending = vec![case.json.clone()];
        while let Some(value) = pending.pop() {
            match &value {
                Value::Object(object) => {
                    if let Some(Value::String(kind)) = object.get_str("kind") {
                        let kind = kind.to_string_lossy().into_owned();
                        if object.get_str("id").is_some() {
                            nodes.insert(kind);
                        } else {
                            predicates.insert(kind);
                        }
                    }
                    pending.extend(object.values().cloned());
                }
                Value::Array(items) => pending.extend(items.iter().cloned()),
                _ => {}
            }
        }
    }
    (nodes, predicates, codes)
}

#[test]
fn the_corpus_passes() {
    let cases = load();
    let mut failures = Vec::new();
    for case in &cases {
        let emitted = Arc::new(Mutex::new(Vec::new()));
        if let Err(problem) = run_case(case, &emitted) {
            failures.push(format!("{} {}: {problem}", case.file, case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(cases.len() >= 60, "the corpus has {} cases", cases.len());
}

#[test]
fn the_corpus_covers_every_kind_and_code() {
    let cases = load();
    let (nodes, predicates, codes) = coverage(&cases);
    for kind in NODE_KINDS {
        assert!(nodes.contains(*kind), "no case has a {kind} node");
    }
    for kind in PREDICATE_KINDS {
        assert!(predicates.contains(*kind), "no case has a {kind} predicate");
    }
    let all = [
        Code::ExpressionFailed,
        Code::ExpressionLimitExceeded,
        Code::InvalidExpressionLimits,
        Code::WorkflowRecursionLimit,
        Code::UnsupportedVersion,
        Code::UnknownField,
        Code::MissingField,
        Code::InvalidField,
        Code::UnknownNodeKind,
        Code::UnknownPredicateKind,
        Code::DuplicateNodeId,
        Code::UnknownWorkflow,
        Code::InvalidExpression,
        Code::UnboundedLoop,
        Code::UnknownConnection,
        Code::NoEvent,
        Code::NoAnswer,
        Code::NoModel,
    ];
    for code in all {
        assert!(codes.contains(code.as_str()), "no case expects {code}");
    }
}

/// Every document the corpus runs is valid under the published schema, and every document the
/// checker refuses for its shape (not for what only the checker sees) is invalid under it.
#[test]
fn the_schema_agrees_with_the_checker() {
    let schema: serde_json::Value = serde_json::from_str(writ_flow::WORKFLOW_SCHEMA).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let checker_only = [
        "duplicate-node-id",
        "invalid-expression",
        "unknown-workflow",
        "unbounded-loop",
    ];
    let mut problems = Vec::new();
    let mut seen = BTreeMap::from([(true, 0), (false, 0)]);
    for case in load() {
        let document = field(&case.json, "document").unwrap().to_serde_json();
        let expect = field(&case.json, "expect").unwrap();
        let refused = match field(expect, "issues") {
            Some(Value::Array(issues)) => {
                let codes: Vec<String> = issues.iter().map(|issue| text(field(issue, "code").unwrap())).collect();
                if codes.iter().all(|code| checker_only.contains(&code.as_str())) {
                    continue;
                }
                true
            }
            _ => false,
        };
        let valid = validator.is_valid(&document);
        *seen.get_mut(&refused).unwrap() += 1;
        if valid == refused {
            problems.push(format!(
                "{}: the checker {} it, the schema {} it",
                case.id,
                if refused { "refuses" } else { "accepts" },
                if valid { "accepts" } else { "refuses" }
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        seen[&true] >= 10 && seen[&false] >= 30,
        "too few documents compared: {seen:?}"
    );
}
