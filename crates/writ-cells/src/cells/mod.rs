//! The five cells, and what they share: the cache of compiled predicates, the checks every
//! cell makes at freeze, and the rule that turns an expression's result into a verdict.

mod expression;
mod jexl;
mod js;
mod jsonata;
mod lua;
mod structured;

use std::borrow::Borrow;
use std::convert::Infallible;
use std::hash::Hash;
use std::sync::Arc;

use writ_core::{FifoCache, Str, Value, js_number_to_string};

use crate::seam::{CellError, Decision, Evaluation, Fault, FaultKind, PredicateNode, Verdict};

pub use jexl::JexlCell;
pub use js::JsCell;
pub use jsonata::JsonataCell;
pub use lua::LuaCell;
pub use structured::StructuredCell;

/// How many compiled predicates each cell keeps; past it the oldest is dropped first. A plan
/// holds a few dozen predicates, so a cell serving several plans at once still parses each
/// source once.
pub const CACHE_CAPACITY: usize = 256;

/// What compiling one predicate gave: the compiled form, or the fault every frame reports.
/// Failures are kept too, so a broken node reached by many frames is diagnosed once.
pub(crate) type Compiled<T> = Arc<Result<T, Fault>>;

/// The entry under `key` in `cache`, compiling it first if it is not there (a failure is kept
/// like a success). Compiling happens outside the cache's lock: two threads may both compile a
/// new source, and the first to finish is kept.
pub(crate) fn get_or_compile<K, Q, T>(
    cache: &FifoCache<K, Compiled<T>>,
    key: &Q,
    compile: impl FnOnce() -> Result<T, Fault>,
) -> Compiled<T>
where
    K: Hash + Eq + Clone + Borrow<Q>,
    Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
{
    let Ok((compiled, _)) = cache.get_or_try_insert_with(key, || Ok::<_, Infallible>(Arc::new(compile())));
    compiled
}

/// Refuses a select whose `cases` are empty or repeat a label: each case names one outgoing
/// route, so an empty list routes nowhere and a repeated label is a typo.
pub(crate) fn check_cases(cell: &str, node: &PredicateNode) -> Result<(), CellError> {
    let Decision::Select { cases } = &node.decision else {
        return Ok(());
    };
    if cases.is_empty() {
        return Err(CellError::invalid(
            node,
            format!(
                "{cell} cell: select node '{}' declares no cases; list the labels it chooses between, \
                 e.g. \"cases\": [\"green\", \"red\"]",
                node.id
            ),
        ));
    }
    let mut seen = std::collections::HashSet::with_capacity(cases.len());
    for case in cases {
        if !seen.insert(case) {
            return Err(CellError::invalid(
                node,
                format!(
                    "{cell} cell: select node '{}' declares the case '{case}' twice; list each label once",
                    node.id
                ),
            ));
        }
    }
    Ok(())
}

/// The predicate's source text, or a refusal that says what an expression cell takes.
pub(crate) fn source_text<'n>(cell: &str, node: &'n PredicateNode, example: &str) -> Result<&'n Str, CellError> {
    match &node.predicate {
        Value::String(source) => Ok(source),
        other => Err(CellError::invalid(
            node,
            format!(
                "{cell} cell: node '{}' needs its predicate to be source text, such as {example}, but it is {}; \
                 write the expression as a string, or name the 'structured' cell for a {{path, op, value}} tree",
                node.id,
                other.kind().described()
            ),
        )),
    }
}

/// The fault of a spent budget, in writ's words.
pub(crate) fn budget_fault(code: &str, message: impl std::fmt::Display) -> Fault {
    Fault::new(
        FaultKind::BudgetExceeded,
        code,
        format!("{message} (simplify the predicate, or raise the cell's limits)"),
    )
}

/// The case a select's result names in the jexl, js and JSONata cells: a string is the label, a
/// number or boolean is written as JavaScript's `String()` writes it, and null or undefined (no
/// case) takes the default without a fault.
pub(crate) fn coerced_label(value: &Value) -> Result<Option<Str>, ()> {
    match value {
        Value::String(label) => Ok(Some(label.clone())),
        Value::Number(number) => Ok(Some(Str::from(js_number_to_string(*number).as_str()))),
        Value::Bool(flag) => Ok(Some(Str::from(if *flag { "true" } else { "false" }))),
        Value::Null | Value::Undefined => Ok(None),
        Value::Array(_) | Value::Object(_) => Err(()),
    }
}

/// The select verdict for a result that named `label` (or, `Err`, named nothing a label can
/// be): the label when it is one of the cases, else the default with a [`FaultKind::BadResult`]
/// fault that says what came back and lists the cases.
pub(crate) fn select_verdict(
    node: &PredicateNode,
    cases: &[Str],
    returned: &Value,
    label: Result<Option<Str>, ()>,
) -> Evaluation {
    let label = match label {
        Ok(None) => return Evaluation::decided(Verdict::Select { case: None }),
        Ok(Some(label)) => label,
        Err(()) => {
            return Evaluation::faulted(
                node,
                bad_result(node, cases, &format!("{}, which names no case", describe(returned))),
            );
        }
    };
    if cases.contains(&label) {
        return Evaluation::decided(Verdict::Select { case: Some(label) });
    }
    let nearest = writ_core::closest_name(
        &label.to_string_lossy(),
        cases.iter().filter_map(|case| case.as_ascii_str()),
    )
    .map(|nearest| format!(" (did you mean '{nearest}'?)"))
    .unwrap_or_default();
    Evaluation::faulted(
        node,
        bad_result(
            node,
            cases,
            &format!(
                "{}, which is not one of its cases{nearest}",
                match returned {
                    Value::String(_) => format!("'{}'", shortened(&label)),
                    other => format!("{} (the label '{label}')", describe(other)),
                }
            ),
        ),
    )
}

/// A [`FaultKind::BadResult`] fault for a select whose predicate returned `what`.
fn bad_result(node: &PredicateNode, cases: &[Str], what: &str) -> Fault {
    Fault::new(
        FaultKind::BadResult,
        FaultKind::BadResult.code(),
        format!(
            "select node '{}' took its default: the predicate returned {what}; return one of {}, \
             or nothing for the default",
            node.id,
            case_list(cases)
        ),
    )
}

/// The cases as a message lists them: `'green', 'amber', 'red'`.
pub(crate) fn case_list(cases: &[Str]) -> String {
    cases
        .iter()
        .map(|case| format!("'{case}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A returned value as a message names it, without writing out a large one.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::String(text) => format!("the string '{}'", shortened(text)),
        Value::Number(number) => format!("the number {}", js_number_to_string(*number)),
        Value::Bool(flag) => format!("{flag}"),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(object) => format!("an object with {} keys", object.len()),
        Value::Null | Value::Undefined => value.kind().described().to_string(),
    }
}

/// At most the first 60 code units of `text`, marked when cut.
fn shortened(text: &Str) -> String {
    const SHOWN: usize = 60;
    if text.len_utf16() <= SHOWN {
        text.to_string_lossy().into_owned()
    } else {
        format!("{}…", text.slice(0, SHOWN).to_string_lossy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compile_failure_is_kept_like_a_success() {
        let cache: FifoCache<String, Compiled<u32>> = FifoCache::new(CACHE_CAPACITY);
        let mut compiles = 0;
        for _ in 0..3 {
            let compiled = get_or_compile(&cache, "1 +", || {
                compiles += 1;
                Err(Fault::new(FaultKind::InvalidPredicate, "test-syntax", "unexpected end"))
            });
            assert_eq!(
                compiled.as_ref().as_ref().err().map(|fault| fault.code.as_str()),
                Some("test-syntax")
            );
        }
        assert_eq!(compiles, 1, "the failure is diagnosed once");
        assert_eq!(*get_or_compile(&cache, "1", || Ok(1)), Ok(1));
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn labels_are_written_as_javascript_writes_them() {
        for (value, label) in [
            (Value::from(3.0), Some("3")),
            (Value::from(0.1 + 0.2), Some("0.30000000000000004")),
            (Value::from(-0.0), Some("0")),
            (Value::from(1e21), Some("1e+21")),
            (Value::Bool(false), Some("false")),
            (Value::from("amber"), Some("amber")),
            (Value::Null, None),
            (Value::Undefined, None),
        ] {
            assert_eq!(coerced_label(&value), Ok(label.map(Str::from)), "{value:?}");
        }
        assert_eq!(coerced_label(&Value::from(vec![Value::from("amber")])), Err(()));
    }
}
