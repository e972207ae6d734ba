//! Durable runs through a `Journal`: a run resumed from any prefix of what another run
//! recorded gives the same output and makes only the calls and model calls the prefix lacks.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use writ_core::{Object, Value, parse_json};
use writ_flow::{Effects, Error, Journal, Output, RunOptions, Workflow, Workflows, run, run_durable};

/// Counts the calls and model calls it answers.
#[derive(Default)]
struct Counting {
    calls: AtomicUsize,
    models: AtomicUsize,
}

impl Effects for Counting {
    fn call(&self, _: &str, _: &str, op: &str, args: &Object, key: &str) -> Result<(Value, f64), Error> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let mut result = Object::new();
        result.insert("op".into(), Value::from(op));
        result.insert("args".into(), Value::Object(args.clone()));
        result.insert("key".into(), Value::from(key));
        Ok((Value::Object(result), 1.0))
    }

    fn call_model(&self, _: &str, _: &str, input: &str) -> Result<(Output, f64), Error> {
        let n = self.models.fetch_add(1, Ordering::Relaxed);
        Ok((Output::text_output(format!("answer {n} to {}", input.len())), 1.0))
    }
}

/// A journal in memory: what a store would hold.
#[derive(Default, Clone)]
struct Memory {
    steps: BTreeMap<u64, (String, Output, f64, bool)>,
    entered: Vec<u64>,
    /// The calls recorded when the run started, as a store read back at a resume holds them.
    recorded_at_start: u64,
}

impl Memory {
    /// What a store holds after the first `kept` calls of this run, read back to resume.
    fn prefix(&self, kept: u64) -> Memory {
        let mut prefix = self.clone();
        prefix.steps.retain(|step, _| *step <= kept);
        prefix.recorded_at_start = prefix.steps.len() as u64;
        prefix
    }
}

impl Journal for Memory {
    fn replayed(&mut self, step: u64, node_id: &str) -> Result<Option<(Output, f64)>, Error> {
        Ok(self.steps.get(&step).map(|(node, output, cost, _)| {
            assert_eq!(node, node_id, "a replay reaches the same node at the same step");
            (output.clone(), *cost)
        }))
    }

    fn entered(&mut self, step: u64, _: &str) -> Result<(), Error> {
        self.entered.push(step);
        Ok(())
    }

    fn record(&mut self, step: u64, node_id: &str, output: &Output, cost: f64, effect: bool) -> Result<(), Error> {
        assert!(
            !effect || self.entered.contains(&step),
            "a call is entered before it completes"
        );
        self.steps
            .entry(step)
            .or_insert_with(|| (node_id.to_string(), output.clone(), cost, effect));
        Ok(())
    }

    fn recorded_calls(&self) -> u64 {
        self.recorded_at_start
    }

    fn flush(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

#[test]
fn a_run_resumed_from_any_prefix_repeats_no_recorded_call() {
    let document = parse_json(
        r#"{"version": 1, "root": {"kind": "sequence", "id": "main", "steps": [
            {"kind": "loop", "id": "rounds", "maxIterations": 3, "body": {"kind": "sequence", "id": "round", "steps": [
                {"kind": "callModel", "id": "ask", "instructions": "Answer."},
                {"kind": "call", "id": "send", "connection": "c", "op": "post", "args": {"text": {"$expr": "$"}}},
                {"kind": "compute", "id": "keep", "expr": "{'sent': key, 'draw': $random()}"}]}},
            {"kind": "compute", "id": "done", "expr": "[$steps.keep, $steps.send.args]"}]}}"#,
    )
    .unwrap();
    let workflow = Workflow::parse(&document).unwrap();
    let input = || Output::text_output(r#"{"start": true}"#);
    let options = |effects: Arc<Counting>| RunOptions {
        effects,
        ..RunOptions::default()
    };
    let plain = run(&workflow, &Workflows::new(), input(), &options(Arc::default())).unwrap();
    let first = Arc::new(Counting::default());
    let mut journal = Memory::default();
    let output = run_durable(
        &workflow,
        &Workflows::new(),
        input(),
        &options(first.clone()),
        &mut journal,
    )
    .unwrap();
    assert_eq!(output, plain, "a journal changes nothing a run gives");
    assert_eq!(
        (
            first.calls.load(Ordering::Relaxed),
            first.models.load(Ordering::Relaxed)
        ),
        (3, 3)
    );
    let total = journal.steps.len() as u64;
    for kept in 0..=total {
        let mut prefix = journal.prefix(kept);
        let recorded_effects = prefix.steps.values().filter(|(_, _, _, effect)| *effect).count();
        let resumed = Arc::new(Counting::default());
        // The model's answers count from where the first run's left off.
        let models = prefix.steps.values().filter(|(node, ..)| node == "ask").count();
        resumed.models.store(models, Ordering::Relaxed);
        let output = run_durable(
            &workflow,
            &Workflows::new(),
            input(),
            &options(resumed.clone()),
            &mut prefix,
        )
        .unwrap();
        assert_eq!(output, plain, "resumed after step {kept}");
        let made = resumed.calls.load(Ordering::Relaxed) + resumed.models.load(Ordering::Relaxed) - models;
        assert_eq!(
            made,
            6 - recorded_effects,
            "resumed after step {kept}: only the calls not recorded are made"
        );
        assert_eq!(prefix.steps.len() as u64, total);
    }
}

#[test]
fn a_resumed_run_does_not_emit_again_what_it_emitted_before_its_last_recorded_call() {
    let document = parse_json(
        r#"{"version": 1, "root": {"kind": "loop", "id": "rounds", "maxIterations": 3,
            "body": {"kind": "sequence", "id": "round", "steps": [
                {"kind": "call", "id": "send", "connection": "c", "op": "post", "args": {"n": {"$expr": "n"}},
                 "emitItems": {"onStart": "'start ' & $string(n)", "onDone": "'sent ' & $string(args.n)"}},
                {"kind": "compute", "id": "next", "expr": "{'n': $steps.send.args.n + 1}",
                 "emitItems": {"onDone": "'next ' & $string(n)"}}]}}}"#,
    )
    .unwrap();
    let workflow = Workflow::parse(&document).unwrap();
    let emitted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let options = || {
        let sink = emitted.clone();
        RunOptions {
            effects: Arc::new(Counting::default()),
            on_emit: Some(Arc::new(move |item: &writ_flow::Emitted| {
                sink.lock()
                    .unwrap()
                    .push(item.value.to_json_string().unwrap_or_default());
            })),
            ..RunOptions::default()
        }
    };
    let input = || Output::text_output(r#"{"n": 1}"#);
    let mut journal = Memory::default();
    run_durable(&workflow, &Workflows::new(), input(), &options(), &mut journal).unwrap();
    let all = std::mem::take(&mut *emitted.lock().unwrap());
    let text = |items: &[&str]| items.iter().map(|item| format!("{item:?}")).collect::<Vec<_>>();
    assert_eq!(
        all,
        text(&[
            "start 1", "sent 1", "next 2", "start 2", "sent 2", "next 3", "start 3", "sent 3", "next 4"
        ])
    );
    for kept in 0..=3u64 {
        let mut prefix = journal.prefix(kept);
        run_durable(&workflow, &Workflows::new(), input(), &options(), &mut prefix).unwrap();
        let again = std::mem::take(&mut *emitted.lock().unwrap());
        // From the last recorded call's own onDone on: it may not have been emitted.
        let from = match kept {
            0 => 0,
            kept => all.iter().position(|item| *item == format!("\"sent {kept}\"")).unwrap(),
        };
        assert_eq!(again, all[from..], "resumed after call {kept}");
    }
}
