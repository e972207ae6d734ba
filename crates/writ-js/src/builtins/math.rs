//! The `Math` functions.

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::MathFn;

/// Runs `Math.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: MathFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
