//! Array methods and the `Array` statics.

use writ_core::{Array, Value};

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::{ArrayFn, ArrayMethod};

/// Runs `this.method(args)`; `this_value` is the same array as a value, for callbacks.
pub(crate) fn call(cx: &mut Cx<'_>, this: &Array, this_value: &Value, method: ArrayMethod, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, this, this_value, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", method.name())))
}

/// Runs `Array.function(args)`.
pub(crate) fn call_static(cx: &mut Cx<'_>, function: ArrayFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
