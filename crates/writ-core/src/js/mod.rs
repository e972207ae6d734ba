//! JavaScript's own semantics that more than one engine needs; no parser, no dialect.
//!
//! Every engine in writ answers as a JavaScript engine would, because every original behind
//! its languages (the JS subset, jsonata-js, jexl-js) runs on V8. The conversions and
//! formats below are the pieces of ECMA-262 (and, where the specification leaves a choice, of
//! V8) that two or more engines call: each is written once, here, and pinned against node 20
//! by `tests/js_semantics.jsonl`.
//!
//! - [`is_space`]: WhiteSpace and LineTerminator, as `trim`, `\s` and `StringToNumber` read
//!   them.
//! - [`string_to_number`] and [`utf16_to_number`]: `StringToNumber` (`Number(text)`, `+text`),
//!   correctly rounded in every radix; [`parse_int`]: `parseInt(text, radix)` with V8's digits.
//! - [`array_index`]: whether a property key is a canonical array index.
//! - [`to_fixed`], [`to_exponential`], [`to_precision`], [`to_radix_string`]: the digits
//!   `Number.prototype` writes, rounded from the double's exact binary value.
//! - [`loose_equals`]: `==` (IsLooselyEqual), over an engine's own [`LooseEquality`] (its
//!   `ToPrimitive` and its metering).
//! - [`quote`]: a string as `JSON.stringify` writes it, into any [`QuoteSink`].
//!
//! None of it reads a dialect's syntax: the inputs are values and the text inside them.

mod equality;
mod format;
mod quote;
mod text;
mod to_number;

pub use equality::{LooseEquality, loose_equals};
pub use format::{to_exponential, to_fixed, to_precision, to_radix_string};
pub use quote::{QuoteSink, quote};
pub use text::{array_index, is_space};
pub use to_number::{parse_int, string_to_number, utf16_to_number};
