//! `$now()`, `$millis()` and `$random()` come from the run's host: a recording host keeps what
//! it handed out, and a replaying host gives a replayed run the same values.

use std::sync::Arc;

use writ_core::{FixedHost, RecordingHost, ReplayingHost, SystemHost, parse_json};
use writ_flow::{Output, RunOptions, Workflow, Workflows, run};

#[test]
fn a_replayed_run_reads_the_recorded_clock_and_random_numbers() {
    let document = parse_json(
        r#"{"version": 1, "root": {"kind": "loop", "id": "l", "maxIterations": 3,
            "body": {"kind": "compute", "id": "step", "expr": "{'draws': [draws, $random()], 'at': $millis(), 'now': $now()}"}}}"#,
    )
    .unwrap();
    let workflow = Workflow::parse(&document).unwrap();
    let recording = Arc::new(RecordingHost::new(SystemHost::default()));
    let first = run(
        &workflow,
        &Workflows::new(),
        Output::text_output(r#"{"draws": []}"#),
        &RunOptions {
            host: recording.clone(),
            ..RunOptions::default()
        },
    )
    .unwrap();
    let record = recording.reads();
    // JSONata reads the time once per evaluation ($now() and $millis() agree), and draws once.
    assert_eq!(record.len(), 6, "two reads in each of three iterations: {record:?}");
    let replaying = Arc::new(ReplayingHost::new(record, FixedHost::new(1.0, 99)));
    let second = run(
        &workflow,
        &Workflows::new(),
        Output::text_output(r#"{"draws": []}"#),
        &RunOptions {
            host: replaying.clone(),
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(first, second);
    assert!(!replaying.diverged());
    assert_eq!(replaying.replayed(), 6);
}
