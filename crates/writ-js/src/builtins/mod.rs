//! The built-in methods and statics, one module per receiver kind or namespace.
//!
//! Every built-in charges the meter before it builds its result (the string or array caps,
//! the total allocation) and for each item it walks; work that cannot be stopped halfway is
//! charged its worst case first.

pub(crate) mod array;
pub(crate) mod date;
pub(crate) mod global;
pub(crate) mod json;
pub(crate) mod math;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod string;
