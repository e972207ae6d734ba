//! Workflow runs killed with SIGKILL at random points resume without repeating a completed
//! call: over 60 trials, `writ flow run --store` is killed somewhere in its run, then
//! `writ flow resume` finishes it. The tool keeps an effect log keyed by idempotency key and
//! an invocation log; every trial must end with exactly the clean run's effects, the run's own
//! view of what it sent (including the `$random()` it drew) equal to what the tool received,
//! and at most one repeated invocation (the call in flight when the kill landed).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::{Value as Json, json};

const CALLS: usize = 6;

const TOOL: &str = r#"import json, os, sys
args = json.load(sys.stdin)
key = os.environ.get("WRIT_IDEMPOTENCY_KEY", "")
with open("invocations.jsonl", "a") as log:
    log.write(json.dumps({"key": key, "args": args}) + "\n")
seen = set()
if os.path.exists("effects.jsonl"):
    with open("effects.jsonl") as effects:
        seen = {json.loads(line)["key"] for line in effects if line.strip()}
if key not in seen:
    with open("effects.jsonl", "a") as effects:
        effects.write(json.dumps({"key": key, "args": args}) + "\n")
print(json.dumps({"key": key, "repeated": key in seen}))
"#;

fn workflow() -> Json {
    json!({"version": 1, "root": {"kind": "sequence", "id": "main", "steps": [
        {"kind": "loop", "id": "calls", "maxIterations": CALLS, "body": {"kind": "sequence", "id": "one", "steps": [
            {"kind": "compute", "id": "draw", "expr": "{'i': i + 1, 'r': $random(), 'sent': sent}"},
            {"kind": "call", "id": "send", "connection": "tools", "op": "record",
             "args": {"i": {"$expr": "i"}, "r": {"$expr": "r"}}},
            {"kind": "compute", "id": "keep",
             "expr": "{'i': $steps.draw.i, 'sent': $append($steps.draw.sent, [{'i': $steps.draw.i, 'r': $steps.draw.r, 'key': key}])}"}]}},
        {"kind": "compute", "id": "done", "expr": "sent"}]}})
}

fn manifest() -> Json {
    json!({"tools": {"record": {"description": "records a call once per key", "inputSchema": {"type": "object"},
                                "command": ["python3", "tool.py"]}}})
}

fn writ(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("writ runs")
}

fn run_args() -> Vec<&'static str> {
    vec![
        "flow",
        "run",
        "flow.json",
        "--tools",
        "tools.json",
        "--store",
        "runs.db",
        "--run-id",
        "r1",
        "--input",
        r#"{"i": 0, "sent": []}"#,
        "--json",
    ]
}

fn lines(path: &Path) -> Vec<Json> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn trial_dir(root: &Path, trial: usize) -> PathBuf {
    let dir = root.join(format!("trial-{trial}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tool.py"), TOOL).unwrap();
    std::fs::write(dir.join("tools.json"), manifest().to_string()).unwrap();
    std::fs::write(dir.join("flow.json"), workflow().to_string()).unwrap();
    dir
}

/// Checks a finished trial: the run's answer, the effects, the invocations.
fn check_trial(dir: &Path, answer: &Json, kills: usize) {
    assert_eq!(answer["ok"], true, "{answer}");
    let sent: Json = serde_json::from_str(answer["output"].as_str().expect("output text")).unwrap();
    let sent = sent.as_array().expect("what the run sent");
    assert_eq!(sent.len(), CALLS, "{sent:?}");
    let effects = lines(&dir.join("effects.jsonl"));
    assert_eq!(effects.len(), CALLS, "each call took effect once: {effects:?}");
    for (idx, (entry, effect)) in sent.iter().zip(&effects).enumerate() {
        assert_eq!(entry["i"], json!(idx + 1));
        assert_eq!(entry["key"], effect["key"], "the run's key is the one that took effect");
        assert_eq!(entry["i"], effect["args"]["i"]);
        assert_eq!(
            entry["r"], effect["args"]["r"],
            "the replayed $random() is the one sent"
        );
    }
    let invocations = lines(&dir.join("invocations.jsonl"));
    assert!(
        invocations.len() <= CALLS + kills,
        "completed calls were not made again: {} invocations after {kills} kill(s)",
        invocations.len()
    );
}

#[test]
fn workflow_runs_killed_at_random_points_resume_without_repeating_completed_calls() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("flow-crash");
    // A clean run first: how long a run takes, to spread the kills over it.
    let dir = trial_dir(&root, 0);
    let started = std::time::Instant::now();
    let output = writ(&dir, &run_args());
    let clean = started.elapsed();
    let answer: Json = serde_json::from_slice(&output.stdout).expect("a JSON answer");
    check_trial(&dir, &answer, 0);

    let trials = 60;
    let mut killed_mid_run = 0;
    // A deterministic spread of kill times over the clean run's length and a little past it.
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for trial in 1..=trials {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let span = clean.as_micros() as u64 * 11 / 10 + 1;
        let delay = Duration::from_micros(state % span);
        let dir = trial_dir(&root, trial);
        let mut child = Command::new(env!("CARGO_BIN_EXE_writ"))
            .args(run_args())
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("writ starts");
        std::thread::sleep(delay);
        // SIGKILL: nothing of the process gets to clean up.
        let _ = child.kill();
        let finished = child.wait_with_output().expect("writ ends");
        let answer = if finished.status.code() == Some(0) {
            // The kill landed after the run ended.
            serde_json::from_slice(&finished.stdout).expect("a JSON answer")
        } else {
            killed_mid_run += 1;
            let resumed = writ(
                &dir,
                &[
                    "flow",
                    "resume",
                    "r1",
                    "--tools",
                    "tools.json",
                    "--store",
                    "runs.db",
                    "--json",
                ],
            );
            if resumed.status.code() == Some(2) && String::from_utf8_lossy(&resumed.stderr).contains("no workflow run")
            {
                // Killed before the run was stored: nothing ran, so it starts again.
                assert!(lines(&dir.join("invocations.jsonl")).is_empty());
                serde_json::from_slice(&writ(&dir, &run_args()).stdout).expect("a JSON answer")
            } else {
                serde_json::from_slice(&resumed.stdout)
                    .unwrap_or_else(|_| panic!("trial {trial}: {}", String::from_utf8_lossy(&resumed.stderr)))
            }
        };
        check_trial(&dir, &answer, 1);
        // A finished run resumed again answers the same, and calls nothing.
        let before = lines(&dir.join("invocations.jsonl")).len();
        let again = writ(
            &dir,
            &[
                "flow",
                "resume",
                "r1",
                "--tools",
                "tools.json",
                "--store",
                "runs.db",
                "--json",
            ],
        );
        assert_eq!(serde_json::from_slice::<Json>(&again.stdout).unwrap(), answer);
        assert_eq!(lines(&dir.join("invocations.jsonl")).len(), before);
    }
    assert!(
        killed_mid_run >= trials / 2,
        "only {killed_mid_run} of {trials} kills landed mid-run"
    );
}

/// A second process cannot drive a run that a live one drives: its resume is refused with
/// `run_in_use`, and the call in flight is made once.
#[test]
fn a_run_driven_by_a_live_process_is_not_resumed_beside_it() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("flow-lease");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let slow = "import json, sys, time\nopen('invocations.jsonl', 'a').write('{}\\n')\ntime.sleep(3)\nprint(json.dumps({'done': True}))\n";
    std::fs::write(root.join("tool.py"), slow).unwrap();
    std::fs::write(root.join("tools.json"), manifest().to_string()).unwrap();
    let flow = json!({"version": 1, "root": {"kind": "call", "id": "send", "connection": "tools", "op": "record",
                                             "args": {"i": 1}}});
    std::fs::write(root.join("flow.json"), flow.to_string()).unwrap();
    let first = Command::new(env!("CARGO_BIN_EXE_writ"))
        .args(run_args())
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("writ starts");
    // The call is in flight once the tool has logged it.
    let waited = std::time::Instant::now();
    while lines(&root.join("invocations.jsonl")).is_empty() {
        assert!(waited.elapsed() < Duration::from_secs(30), "the tool never ran");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = writ(
        &root,
        &["flow", "resume", "r1", "--tools", "tools.json", "--store", "runs.db"],
    );
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert!(said.contains("run_in_use"), "{said}");
    let first = first.wait_with_output().expect("writ ends");
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let answer: Json = serde_json::from_slice(&first.stdout).expect("a JSON answer");
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(lines(&root.join("invocations.jsonl")).len(), 1);
    // Once the first process has finished, the run is free: a resume answers its output.
    let again = writ(&root, &["flow", "resume", "r1", "--store", "runs.db", "--json"]);
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(serde_json::from_slice::<Json>(&again.stdout).unwrap(), answer);
}
