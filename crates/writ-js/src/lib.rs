//! writ-js: the JavaScript-subset expression language of seed 004.
//!
//! One JavaScript expression over JSON data: allow-listed grammar, globals and methods; reads
//! of own properties of plain data only; a step, time and allocation budget on every
//! evaluation; host functions with input and output schemas.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answer;
mod ast;
mod builtins;
mod coerce;
mod engine;
mod error;
mod evaluator;
mod host;
mod interp;
mod locale;
mod ops;
mod parse;
mod tables;

pub use engine::LIMIT_NAMES;
pub use error::{Error, Reason, Result, Thrown};
pub use evaluator::{
    Budget, Compiled, DEFAULT_MAX_SOURCE_LENGTH, Evaluator, EvaluatorBuilder, PARSE_CACHE_SIZE, Validation, outcome,
};
pub use host::{HostFunction, HostFuture};

/// Every name of the language's allow-lists, as an expression writes it: methods as `.trim(`,
/// statics as `Math.max(`, constants as `Math.PI`, callable globals as `parseInt(` and the
/// others bare (`undefined`), and the globals a callback position accepts also as
/// `(Boolean)`. For tools that check coverage of the language or offer completions.
///
/// ```
/// let names = writ_js::written_names();
/// assert!(names.iter().any(|name| name == ".toFixed("));
/// assert!(names.iter().any(|name| name == "Math.PI"));
/// ```
pub fn written_names() -> Vec<String> {
    use tables::{
        ArrayFn, ArrayMethod, DateFn, Global, JsonFn, MathConstant, MathFn, NumberConstant, NumberFn, NumberMethod,
        ObjectFn, StringFn, StringMethod,
    };
    let mut names = Vec::new();
    let methods = ArrayMethod::ALL.iter().map(|method| method.name());
    let methods = methods.chain(StringMethod::ALL.iter().map(|method| method.name()));
    let methods = methods.chain(NumberMethod::ALL.iter().map(|method| method.name()));
    names.extend(methods.map(|name| format!(".{name}(")));
    let statics = [
        ("Math", MathFn::ALL.iter().map(|f| f.name()).collect::<Vec<_>>()),
        ("JSON", JsonFn::ALL.iter().map(|f| f.name()).collect()),
        ("Object", ObjectFn::ALL.iter().map(|f| f.name()).collect()),
        ("Array", ArrayFn::ALL.iter().map(|f| f.name()).collect()),
        ("Number", NumberFn::ALL.iter().map(|f| f.name()).collect()),
        ("String", StringFn::ALL.iter().map(|f| f.name()).collect()),
        ("Date", DateFn::ALL.iter().map(|f| f.name()).collect()),
    ];
    for (namespace, functions) in statics {
        names.extend(functions.into_iter().map(|name| format!("{namespace}.{name}(")));
    }
    names.extend(MathConstant::ALL.iter().map(|c| format!("Math.{}", c.name())));
    names.extend(NumberConstant::ALL.iter().map(|c| format!("Number.{}", c.name())));
    for global in Global::ALL {
        if global.is_callable() {
            names.push(format!("{}(", global.name()));
        } else {
            names.push(global.name().to_owned());
        }
        if global.is_callback() {
            names.push(format!("({})", global.name()));
        }
    }
    names
}
