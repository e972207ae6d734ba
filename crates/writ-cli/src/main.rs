//! `writ`: the command line over writ's engines.
//!
//! Only this crate knows argv, stdout, exit codes and JSON Lines framing; the engines below it
//! take values and limits and return [`writ_core::Outcome`]s.

#![forbid(unsafe_code)]

mod eval;
mod flow;
mod manifest;
mod plan;
mod run;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Many small, short-lived allocations a step: see ARCHITECTURE.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Run what a language model wrote — expressions, predicates, plans, workflows — checked
/// before it runs, bounded while it runs, deterministic where it decides.
#[derive(Parser, Debug)]
#[command(name = "writ", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate one expression, or a batch of them as JSON Lines.
    ///
    /// Each answer is one line of JSON:
    /// {"ok":true,"value":…}, {"ok":true,"undefined":true}, or
    /// {"ok":false,"error":{"code":…,"message":…}}.
    Eval(eval::EvalArgs),
    /// Check, digest and render plans; import, freeze, approve and clone them in a store.
    Plan(plan::PlanArgs),
    /// Start, resume, show and list runs of approved plans.
    Run(run::RunArgs),
    /// Check and run JSON workflow documents.
    Flow(flow::FlowArgs),
}

/// How the process ends. Only `main` turns this into an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExitStatus {
    /// The command ran and succeeded; in batch mode, every line was answered.
    Success,
    /// The command ran and the answer is a failure (a single evaluation returned an error).
    Failure,
    /// A usage or environment error: bad flags, an unreadable file, malformed input.
    Error,
}

/// An error that stops a command before it can answer; printed to stderr, exit status 2.
#[derive(Debug)]
struct UsageError(String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Eval(args) => eval::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Run(args) => run::run(args),
        Command::Flow(args) => flow::run(args),
    };
    let status = status.unwrap_or_else(|error| {
        if error.is_broken_pipe() {
            // The reader went away (`writ … | head`); stop quietly.
            return ExitStatus::Success;
        }
        let _ = writeln!(std::io::stderr(), "writ: {error}");
        ExitStatus::Error
    });
    match status {
        ExitStatus::Success => ExitCode::SUCCESS,
        ExitStatus::Failure => ExitCode::from(1),
        ExitStatus::Error => ExitCode::from(2),
    }
}

/// Why a command stopped without an answer.
#[derive(Debug)]
enum CommandError {
    Usage(UsageError),
    Io(std::io::Error),
}

impl CommandError {
    fn is_broken_pipe(&self) -> bool {
        matches!(self, CommandError::Io(error) if error.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Usage(error) => write!(f, "{error}"),
            CommandError::Io(error) => write!(f, "could not write the output: {error}"),
        }
    }
}

impl From<UsageError> for CommandError {
    fn from(error: UsageError) -> CommandError {
        CommandError::Usage(error)
    }
}

impl From<std::io::Error> for CommandError {
    fn from(error: std::io::Error) -> CommandError {
        CommandError::Io(error)
    }
}
