//! writ-core: the vocabulary every writ engine shares.
//!
//! - [`Value`]: JSON plus `undefined`, shared by reference count, with strings of UTF-16 code
//!   units ([`Str`]) and objects in JavaScript's key order ([`Object`]).
//! - JSON text in and out with `JSON.parse` / `JSON.stringify` semantics ([`parse_json`],
//!   [`Value::to_json_string`]), and JavaScript's number-to-string ([`write_js_number`]).
//! - [`Limits`] and [`Meter`]: the one budget model that every evaluation of every language is
//!   charged against.
//! - [`js`]: JavaScript's own semantics that more than one engine needs (`StringToNumber`,
//!   `parseInt`, white space, array indices, `toFixed` and the other number formats, `==`,
//!   `JSON.stringify`'s quoting); no parser, no dialect.
//! - [`Path`]: checked path reads that refuse prototype names at every segment.
//! - [`Outcome`]: the answer of one evaluation and its JSON envelope.
//! - The engine seam every language implements: [`Engine`] compiles a [`Source`] into a
//!   [`Program`] that evaluates under the caller's [`Meter`] and [`Host`]; failures are
//!   [`Diagnostic`]s; [`apply_limits`] maps a language's limit names onto [`Limits`].
//! - [`Host`]: the only source of wall-clock time, monotonic time and randomness, with hosts that
//!   stand still ([`FixedHost`]), record ([`RecordingHost`]) and replay ([`ReplayingHost`]).
//! - [`FifoCache`]: the bounded, thread-safe cache (oldest entry out first) every engine keeps
//!   its parsed programs, compiled chunks and formatters in.
//! - Canonical JSON (RFC 8785) of a value, for idempotency keys and event hashes
//!   ([`Value::to_canonical_json`]).
//!
//! writ-core knows no language: it has no parser for any expression dialect, and it does no I/O
//! of its own (the meter reads a [`Clock`] the host supplies).
//!
//! # Example
//!
//! ```
//! use writ_core::{Limits, Meter, Path, Value, parse_json};
//!
//! let rows = parse_json(r#"[{"name": "Mug", "stock": 4}, {"name": "Kettle", "stock": 0}]"#)?;
//! let stock = Path::parse_dotted("stock")?;
//! let mut meter = Meter::new(&Limits { steps: Some(1_000), ..Limits::UNLIMITED });
//! let mut in_stock = Vec::new();
//! for row in rows.as_array().into_iter().flat_map(|rows| rows.iter()) {
//!     meter.step()?;
//!     if stock.read(row).as_number().is_some_and(|count| count > 0.0) {
//!         in_stock.push(row.clone()); // a reference-count increment, not a copy
//!     }
//! }
//! assert_eq!(Value::from(in_stock).to_json_string().unwrap(), r#"[{"name":"Mug","stock":4}]"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod block_on;
mod budget;
mod cache;
mod canonical;
pub mod date;
mod diagnostic;
mod engine;
mod host;
pub mod js;
mod json;
pub mod math;
mod number;
mod object;
mod outcome;
mod pace;
mod path;
mod serde_impl;
mod str;
mod suggest;
mod value;

pub use block_on::block_on;
pub use budget::{Bound, BudgetExceeded, Clock, DEFAULT_CHECK_INTERVAL, Interrupt, Limits, Meter, SystemClock};
pub use cache::FifoCache;
pub use canonical::CanonicalError;
pub use diagnostic::{Category, Diagnostic, ErrorCode, Span};
pub use engine::{Amounts, Engine, LimitField, LimitName, Program, SOURCE_NOT_TEXT, Source, Validation, apply_limits};
pub use host::{FixedHost, Host, HostRead, RecordingHost, ReplayingHost, SystemHost, meter_clock};
pub use json::{DEFAULT_MAX_JSON_DEPTH, JsonError, JsonTooLong, parse_json, parse_json_with_depth, write_json_string};
pub use number::{js_number_to_string, write_js_number};
pub use object::{HintedKey, Object, Shape};
pub use outcome::{ANSWER_TOO_LARGE, EnvelopeError, MAX_ANSWER_BYTES, Outcome};
pub use pace::{MAX_PACE, paced};
pub use path::{FORBIDDEN_SEGMENTS, Path, PathError};
pub use str::{CodeUnits, Str};
pub use suggest::closest_name;
pub use value::{Array, Value, ValueKind};
