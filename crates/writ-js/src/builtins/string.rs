//! String methods.

use writ_core::{Str, Value};

use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::{StringFn, StringMethod};

/// Runs `this.method(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, this: &Str, method: StringMethod, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, this, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", method.name())))
}

/// Runs `String.function(args)`.
pub(crate) fn call_static(cx: &mut Cx<'_>, function: StringFn, args: &Args<'_, '_>) -> Result<Value> {
    let _ = (cx, args);
    Err(Error::guardrail(format!("\"{}\" is not wired yet", function.name())))
}
