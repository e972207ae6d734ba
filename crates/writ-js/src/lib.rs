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
mod interp;
mod ops;
pub mod tables;

pub use error::{Error, Reason, Result};
