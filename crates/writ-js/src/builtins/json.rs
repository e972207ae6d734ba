//! The `JSON` functions.

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::JsonFn;

/// Runs `JSON.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: JsonFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
