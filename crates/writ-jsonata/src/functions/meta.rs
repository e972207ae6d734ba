//! `$eval` and `$clone`: the built-ins that reach back into the evaluator.

use super::Builtin;
use crate::error::{Error, Result};
use crate::eval::Cx;
use crate::value::Val;

pub(super) const TABLE: &[Builtin] = &[
    Builtin { name: "eval", signature: "<sx?:x>", imp: eval },
    Builtin { name: "clone", signature: "<(oa)-:o>", imp: clone },
];

/// `$eval(expr, context?)`: parses and evaluates `expr` under this evaluation's budget, in the
/// caller's scope, over `context` or the caller's context.
fn eval(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(Val::String(source)) = args.first() else { return Ok(Val::Undefined) };
    let input = match args.get(1) {
        Some(context) if !context.is_undefined() => context.clone(),
        _ => cx.input.clone(),
    };
    let source = source.to_string_lossy().into_owned();
    cx.charge_string(source.len())?;
    cx.eval_source(&source, input)
}

/// `$clone(value)`: a deep copy, through JSON as jsonata-js makes it (functions become `""`,
/// undefined fields vanish).
fn clone(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(value) = args.first() else { return Ok(Val::Undefined) };
    if value.is_undefined() {
        return Ok(Val::Undefined);
    }
    let text = super::stringify(cx, value, false)?;
    cx.steps(text.len_utf16() as u64)?;
    let text = text.to_string_lossy();
    let parsed = writ_core::parse_json(&text).map_err(|e| Error::new("D3001").detail(e.to_string()))?;
    Ok(Val::from(parsed))
}
