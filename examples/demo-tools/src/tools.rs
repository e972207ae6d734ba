//! The demo tools over one served directory: their declarations and what each call does.
//!
//! Paths in arguments look absolute (`/reports/q3`) and name places inside the served
//! directory; `..` is refused, and so is a symbolic link that leads out of it.
//! `append_line` and `send_message` change files, and remember each call's idempotency key in
//! `/.idempotency.jsonl`, so a repeated attempt of the same call answers what the first did
//! and changes nothing.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Map, Value, json};

/// The most `read_file` reads.
const MAX_READ_BYTES: u64 = 1 << 20;

/// The file the outbox of `send_message` is.
const OUTBOX: &str = "outbox.jsonl";

/// The file the idempotency keys of changing calls are remembered in.
const LEDGER: &str = ".idempotency.jsonl";

/// A tool's declaration, as `tools/list` answers it.
pub(crate) struct Declaration {
    /// The tool's name.
    pub(crate) name: &'static str,
    /// What it does.
    pub(crate) description: &'static str,
    /// The JSON Schema of its arguments.
    pub(crate) input: Value,
    /// The JSON Schema of its result.
    pub(crate) output: Value,
}

/// Every tool the server offers.
pub(crate) fn declarations() -> Vec<Declaration> {
    let path = json!({"type": "string", "minLength": 1, "maxLength": 1024});
    let object = |properties: Value, required: &[&str]| json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false});
    vec![
        Declaration {
            name: "list_files",
            description: "Lists a directory: how many entries it has and their names (directories end in /).",
            input: object(json!({"dir": path}), &["dir"]),
            output: object(
                json!({
                    "dir": {"type": "string"},
                    "count": {"type": "integer", "minimum": 0},
                    "names": {"type": "string", "description": "the entries' names, comma-separated"},
                    "entries": {"type": "array", "items": {"type": "string"}},
                }),
                &["dir", "count", "names", "entries"],
            ),
        },
        Declaration {
            name: "read_file",
            description: "Reads a UTF-8 text file of at most 1 MiB.",
            input: object(json!({"path": path}), &["path"]),
            output: object(
                json!({"path": {"type": "string"}, "text": {"type": "string"}, "bytes": {"type": "integer", "minimum": 0}}),
                &["path", "text", "bytes"],
            ),
        },
        Declaration {
            name: "resolve_path",
            description: "Resolves a path a person typed against a root, refusing anything outside the root \
                          or that does not exist; the answer's `path` is safe to hand to the other tools.",
            input: object(json!({"path": path, "root": path}), &["path"]),
            output: object(
                json!({
                    "path": {"type": "string"},
                    "requested": {"type": "string"},
                    "kind": {"enum": ["file", "directory"]},
                }),
                &["path", "requested", "kind"],
            ),
        },
        Declaration {
            name: "append_line",
            description: "Appends a line (or lines) of text to a file, creating it and its directories if needed.",
            input: object(
                json!({"file": path, "line": {"type": "string", "maxLength": 1_048_576}}),
                &["file", "line"],
            ),
            output: object(
                json!({"file": {"type": "string"}, "appended": {"type": "integer", "minimum": 0}, "repeated": {"type": "boolean"}}),
                &["file", "appended", "repeated"],
            ),
        },
        Declaration {
            name: "send_message",
            description: "Sends a message: appends it to the outbox (/outbox.jsonl).",
            input: object(
                json!({"to": {"type": "string", "minLength": 1, "maxLength": 320}, "text": {"type": "string", "maxLength": 65536}}),
                &["to", "text"],
            ),
            output: object(
                json!({"id": {"type": "string"}, "to": {"type": "string"}, "repeated": {"type": "boolean"}}),
                &["id", "to", "repeated"],
            ),
        },
        Declaration {
            name: "classify_ticket",
            description: "Classifies a ticket's severity by keywords: the given text, or else the newest line of \
                          /tickets/<queue>.txt. critical: outage, down, breach, data loss, security; \
                          high: error, fail, broken, urgent, cannot; otherwise low.",
            input: object(
                json!({
                    "queue": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                    "text": {"type": "string", "maxLength": 65536},
                }),
                &["queue"],
            ),
            output: object(
                json!({
                    "queue": {"type": "string"},
                    "ticket": {"type": "string"},
                    "severity": {"enum": ["low", "high", "critical"]},
                    "keyword": {"type": ["string", "null"]},
                }),
                &["queue", "ticket", "severity", "keyword"],
            ),
        },
    ]
}

/// The served directory and the lock that orders the calls that change it.
pub(crate) struct Demo {
    root: PathBuf,
    writing: Mutex<()>,
}

impl Demo {
    /// Serves `root`, which must be a directory.
    pub(crate) fn new(root: &Path) -> Result<Demo, String> {
        let root = root
            .canonicalize()
            .map_err(|error| format!("cannot serve {}: {error}", root.display()))?;
        if !root.is_dir() {
            return Err(format!("cannot serve {}: it is not a directory", root.display()));
        }
        Ok(Demo {
            root,
            writing: Mutex::new(()),
        })
    }

    /// Runs the tool `name` over `args`; `key` is the call's idempotency key, if it sent one.
    /// An `Err` is the tool's failure, worded for the person who reads it.
    pub(crate) fn call(&self, name: &str, args: &Map<String, Value>, key: Option<&str>) -> Result<Value, String> {
        match name {
            "list_files" => self.list_files(string(args, "dir")?),
            "read_file" => self.read_file(string(args, "path")?),
            "resolve_path" => self.resolve_path(string(args, "path")?, optional(args, "root")?.unwrap_or("/")),
            "append_line" => self.once(key, || self.append_line(string(args, "file")?, string(args, "line")?)),
            "send_message" => self.once(key, || self.send_message(string(args, "to")?, string(args, "text")?)),
            "classify_ticket" => self.classify_ticket(string(args, "queue")?, optional(args, "text")?),
            _ => Err(format!("there is no tool \"{name}\"")),
        }
    }

    fn list_files(&self, dir: &str) -> Result<Value, String> {
        let (shown, path) = self.resolve(dir)?;
        let listing = fs::read_dir(&path).map_err(|error| format!("cannot list {shown}: {error}"))?;
        let mut entries = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|error| format!("cannot list {shown}: {error}"))?;
            let mut name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                name.push('/');
            }
            entries.push(name);
        }
        entries.sort();
        Ok(json!({"dir": shown, "count": entries.len(), "names": entries.join(", "), "entries": entries}))
    }

    fn read_file(&self, path: &str) -> Result<Value, String> {
        let (shown, full) = self.resolve(path)?;
        let metadata = fs::metadata(&full).map_err(|error| format!("cannot read {shown}: {error}"))?;
        if !metadata.is_file() {
            return Err(format!("{shown} is not a file"));
        }
        if metadata.len() > MAX_READ_BYTES {
            return Err(format!(
                "{shown} is {} bytes, more than the 1 MiB read_file reads",
                metadata.len()
            ));
        }
        let bytes = fs::read(&full).map_err(|error| format!("cannot read {shown}: {error}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
        Ok(json!({"path": shown, "bytes": text.len(), "text": text}))
    }

    fn resolve_path(&self, requested: &str, root: &str) -> Result<Value, String> {
        let (root_shown, _) = self.resolve(root)?;
        // A path from the top must still lie inside the root; a relative one is taken from it.
        let joined = if requested.starts_with('/') {
            requested.to_string()
        } else {
            format!("{root_shown}/{requested}")
        };
        let (shown, full) = self.resolve(&joined)?;
        let inside = root_shown == "/" || shown == root_shown || shown.starts_with(&format!("{root_shown}/"));
        if !inside {
            return Err(format!("{requested:?} is outside {root_shown}; name a place inside it"));
        }
        let metadata = fs::metadata(&full).map_err(|_| format!("{shown} does not exist"))?;
        let kind = if metadata.is_dir() { "directory" } else { "file" };
        Ok(json!({"path": shown, "requested": requested, "kind": kind}))
    }

    fn append_line(&self, file: &str, line: &str) -> Result<Value, String> {
        let (shown, full) = self.resolve(file)?;
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(|error| format!("cannot create the directory of {shown}: {error}"))?;
            // The directories just made may have met a link on the way; check again.
            self.resolve(file)?;
        }
        let mut text = line.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        append(&full, &text).map_err(|error| format!("cannot append to {shown}: {error}"))?;
        Ok(json!({"file": shown, "appended": text.len(), "repeated": false}))
    }

    fn send_message(&self, to: &str, text: &str) -> Result<Value, String> {
        let outbox = self.root.join(OUTBOX);
        let sent = fs::read_to_string(&outbox)
            .map(|text| text.lines().count())
            .unwrap_or(0);
        let id = format!("msg-{}", sent + 1);
        let record = json!({"id": id, "to": to, "text": text});
        append(&outbox, &format!("{record}\n")).map_err(|error| format!("cannot write the outbox: {error}"))?;
        Ok(json!({"id": id, "to": to, "repeated": false}))
    }

    fn classify_ticket(&self, queue: &str, text: Option<&str>) -> Result<Value, String> {
        if queue.is_empty()
            || queue.len() > 64
            || !queue
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
        {
            return Err(format!("{queue:?} is not a queue name (letters, digits, _ and -)"));
        }
        let ticket = match text {
            Some(text) => text.to_string(),
            None => {
                let file = format!("/tickets/{queue}.txt");
                let read = self.read_file(&file)?;
                read["text"]
                    .as_str()
                    .and_then(|text| text.lines().rev().find(|line| !line.trim().is_empty()))
                    .map(str::to_string)
                    .ok_or_else(|| format!("the queue {queue} has no tickets ({file} is empty)"))?
            }
        };
        let (severity, keyword) = classify(&ticket);
        Ok(json!({"queue": queue, "ticket": ticket, "severity": severity, "keyword": keyword}))
    }

    /// Runs a call that changes files at most once per idempotency key: a key seen before
    /// answers the first call's result, marked `"repeated": true`.
    fn once(&self, key: Option<&str>, change: impl FnOnce() -> Result<Value, String>) -> Result<Value, String> {
        let _writing = self
            .writing
            .lock()
            .map_err(|_| "an earlier call failed while writing".to_string())?;
        let ledger = self.root.join(LEDGER);
        if let Some(key) = key {
            let seen = fs::read_to_string(&ledger).unwrap_or_default();
            for line in seen.lines() {
                let Ok(record) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                if record["key"] == key {
                    let mut result = record["result"].clone();
                    result["repeated"] = Value::Bool(true);
                    return Ok(result);
                }
            }
        }
        let result = change()?;
        if let Some(key) = key {
            let record = json!({"key": key, "result": result});
            append(&ledger, &format!("{record}\n")).map_err(|error| format!("cannot record the call: {error}"))?;
        }
        Ok(result)
    }

    /// Where `path` is inside the served directory: its tidy absolute-looking form and its
    /// place on disk. `..` is refused, and so is anything a symbolic link takes outside.
    fn resolve(&self, path: &str) -> Result<(String, PathBuf), String> {
        let mut segments = Vec::new();
        for segment in path.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    return Err(format!(
                        "{path:?} climbs out with \"..\", which is refused; name a path inside the served directory, such as /reports/q3"
                    ));
                }
                segment if segment.contains('\0') => return Err(format!("{path:?} contains a NUL character")),
                segment => segments.push(segment),
            }
        }
        let shown = format!("/{}", segments.join("/"));
        let full = segments
            .iter()
            .fold(self.root.clone(), |full, segment| full.join(segment));
        // The nearest part of the path that exists must, once links are followed, still be
        // inside the root.
        let mut existing = full.as_path();
        while !existing.exists() {
            match existing.parent() {
                Some(parent) => existing = parent,
                None => break,
            }
        }
        let real = existing
            .canonicalize()
            .map_err(|error| format!("cannot resolve {shown}: {error}"))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "{shown} leads outside the served directory through a link, which is refused"
            ));
        }
        Ok((shown, full))
    }
}

/// The severity keyword rules: the first rule with a keyword in the text decides.
fn classify(ticket: &str) -> (&'static str, Option<&'static str>) {
    const RULES: [(&str, &[&str]); 2] = [
        ("critical", &["outage", "down", "breach", "data loss", "security"]),
        ("high", &["error", "fail", "broken", "urgent", "cannot"]),
    ];
    let lowered = ticket.to_lowercase();
    for (severity, keywords) in RULES {
        if let Some(keyword) = keywords.iter().find(|keyword| lowered.contains(*keyword)) {
            return (severity, Some(keyword));
        }
    }
    ("low", None)
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?
        .write_all(text.as_bytes())
}

fn string<'a>(args: &'a Map<String, Value>, name: &str) -> Result<&'a str, String> {
    optional(args, name)?.ok_or_else(|| format!("the argument \"{name}\" is missing"))
}

fn optional<'a>(args: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match args.get(name) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(format!("the argument \"{name}\" is a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::classify;

    #[test]
    fn the_first_rule_with_a_keyword_decides() {
        assert_eq!(
            classify("Checkout is DOWN and payments fail"),
            ("critical", Some("down"))
        );
        assert_eq!(classify("Export fails with an error"), ("high", Some("error")));
        assert_eq!(classify("Please add a dark theme"), ("low", None));
    }
}
