//! The callable globals (`Number`, `String`, `Boolean`, `parseInt`, `parseFloat`, `isNaN`,
//! `isFinite`, `encodeURIComponent`, `decodeURIComponent`) and the `Number` statics.

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::{Global, NumberFn};

/// Runs the callable global `function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: Global, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}

/// Runs `Number.function(args)`.
pub(crate) fn call_number(cx: &mut Cx<'_>, function: NumberFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
