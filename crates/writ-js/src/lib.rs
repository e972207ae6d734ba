//! writ-js: the JavaScript-subset expression language of seed 004.
//!
//! One JavaScript expression over JSON data: allow-listed grammar, globals and methods; reads
//! of own properties of plain data only; a step, time and allocation budget on every
//! evaluation; host functions with input and output schemas.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod ast;
mod builtins;
mod coerce;
mod error;
mod evaluator;
mod host;
mod interp;
mod locale;
mod ops;
pub mod parse;
pub mod tables;

pub use error::{Error, Reason, Result, Thrown};
pub use evaluator::{
    Budget, Compiled, DEFAULT_MAX_SOURCE_LENGTH, Evaluator, EvaluatorBuilder, PARSE_CACHE_SIZE, Validation, outcome,
};
pub use host::{HostFunction, HostFuture};
