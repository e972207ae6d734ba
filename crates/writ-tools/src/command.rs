//! `CommandTool`: an inline tool that runs a command once per call.
//!
//! The arguments go to the child as one JSON object on stdin, and the result is the JSON value
//! it prints on stdout. The idempotency key is in the environment (`WRIT_IDEMPOTENCY_KEY`).
//! A non-zero exit is the call's failure, with the tail of stderr in the message. stdout and
//! stderr are each read up to [`MAX_OUTPUT_BYTES`]; past that the child is killed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::{BoxFuture, IDEMPOTENCY_KEY_ENV, Tool, ToolCall, ToolError, ToolSpec};

/// The most a command tool may print on stdout, and on stderr: 16 MiB each.
pub const MAX_OUTPUT_BYTES: usize = 16 << 20;

/// How much of stderr a failure's message quotes (its end, where the error usually is).
const STDERR_TAIL_BYTES: usize = 2048;

/// An inline tool from a manifest's `tools`: one child process per call.
#[derive(Clone, Debug)]
pub struct CommandTool {
    spec: ToolSpec,
    program: PathBuf,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    dir: PathBuf,
}

impl CommandTool {
    /// A tool declared by `spec` that runs `program` with `args` in the working directory
    /// `dir`, with `env` added to writ's own environment.
    pub fn new(
        spec: ToolSpec,
        program: PathBuf,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        dir: PathBuf,
    ) -> CommandTool {
        CommandTool {
            spec,
            program,
            args,
            env,
            dir,
        }
    }

    async fn run(&self, call: ToolCall) -> Result<Value, ToolError> {
        let name = &self.spec.name;
        let input = Value::Object(call.args).to_string();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .current_dir(&self.dir)
            .envs(&self.env)
            .env(IDEMPOTENCY_KEY_ENV, &call.idempotency_key)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A cancelled call (its future dropped, a timeout) leaves no child behind.
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| {
                ToolError::unavailable(format!(
                    "the command of tool \"{name}\" ({}) cannot start: {error}; check the manifest's \"command\"",
                    self.program.display()
                ))
            })?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(ToolError::failed(format!(
                "the pipes to tool \"{name}\" were not set up"
            )));
        };
        let write = async move {
            // A tool that exits without reading its input closes the pipe; that is its business,
            // and its exit status says how the call went.
            let _ = stdin.write_all(input.as_bytes()).await;
            drop(stdin);
            Ok::<(), ToolError>(())
        };
        let outputs = tokio::try_join!(
            write,
            read_bounded(stdout, name, "stdout"),
            read_bounded(stderr, name, "stderr")
        );
        let ((), stdout, stderr) = match outputs {
            Ok(outputs) => outputs,
            Err(error) => {
                let _ = child.start_kill();
                return Err(error);
            }
        };
        let status = child
            .wait()
            .await
            .map_err(|error| ToolError::failed(format!("cannot learn how tool \"{name}\" exited: {error}")))?;
        if !status.success() {
            return Err(ToolError::failed(format!(
                "tool \"{name}\" {}{}",
                describe_exit(status),
                stderr_tail(&stderr)
            )));
        }
        serde_json::from_slice(&stdout).map_err(|error| {
            let shown = String::from_utf8_lossy(&stdout[..stdout.len().min(200)]).into_owned();
            let ellipsis = if stdout.len() > 200 { "…" } else { "" };
            ToolError::failed(format!(
                "tool \"{name}\" printed output that is not JSON ({error}): {shown:?}{ellipsis}; \
                 a command tool prints exactly one JSON value on stdout{}",
                stderr_tail(&stderr)
            ))
        })
    }
}

impl Tool for CommandTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, call: ToolCall) -> BoxFuture<'_, Result<Value, ToolError>> {
        Box::pin(self.run(call))
    }
}

/// Reads `pipe` to its end, refusing past [`MAX_OUTPUT_BYTES`].
async fn read_bounded(pipe: impl AsyncRead + Unpin, name: &str, which: &str) -> Result<Vec<u8>, ToolError> {
    let mut bytes = Vec::new();
    let limit = MAX_OUTPUT_BYTES as u64;
    pipe.take(limit + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|error| ToolError::failed(format!("cannot read the {which} of tool \"{name}\": {error}")))?;
    if bytes.len() as u64 > limit {
        return Err(ToolError::failed(format!(
            "tool \"{name}\" printed more than {} MiB on {which}, the most writ reads; it was stopped. \
             Make the tool answer less (write large data to a file and answer its path)",
            MAX_OUTPUT_BYTES >> 20
        )));
    }
    Ok(bytes)
}

fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    format!("ended abnormally ({status})")
}

/// "; stderr ends: …" with the last lines of stderr, or nothing when stderr is empty.
fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim_end();
    if text.is_empty() {
        return String::new();
    }
    let mut start = text.len().saturating_sub(STDERR_TAIL_BYTES);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let mut out = String::from("; stderr ends: ");
    if start > 0 {
        out.push('…');
    }
    let _ = write!(out, "{}", &text[start..]);
    out
}
