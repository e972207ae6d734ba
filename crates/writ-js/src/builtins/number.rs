//! Number methods.

use writ_core::Value;

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::NumberMethod;

/// Runs `this.method(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, this: f64, method: NumberMethod, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, this, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", method.name())))
}
