//! The `Date` functions.

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::DateFn;

/// Runs `Date.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: DateFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
