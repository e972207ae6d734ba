//! writ-bench: runs the same workloads in writ and in its peers (node, and jlens-core for the
//! JSONata workloads), in fresh processes, and prints the median time of each side and writ's
//! ratio to each peer per workload.
//!
//! `writ-bench [options]` is the harness (see `--help`); `writ-bench worker [--side jlens]
//! <workload> <data-file> <samples>` times one workload in this process, as
//! `bench/peers/node.mjs` does for node.

mod data;
mod flow;
mod harness;
mod jexl;
mod jsonata;
mod lua;
mod run;
mod stats;
mod worker;
mod workloads;

use std::process::ExitCode;

// The allocator the `writ` binary ships with, so the figures are writ as users run it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("worker") => worker::run(&args[1..]),
        Some("--help" | "-h") => {
            println!("{}", harness::USAGE);
            Ok(())
        }
        _ => harness::Options::parse(&args).and_then(|options| harness::run(&options)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("writ-bench: {message}");
            ExitCode::FAILURE
        }
    }
}
