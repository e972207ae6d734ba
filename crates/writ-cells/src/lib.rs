//! writ-cells: the predicate cells that decide `branch` and `select` nodes.
//!
//! Today this crate holds the structured cell's language: a closed tree of `{path, op, value}`
//! leaves composed with `all`, `any` and `not` ([`structured::Predicate`]). It terminates by
//! construction, reads its data through checked [`writ_core::Path`]s, and charges a
//! [`writ_core::Meter`] for every node and every element it compares.
//!
//! The cells over the expression engines (jexl, lua, JSONata, the JS subset) and the
//! evaluator seam that plans call join this crate as those engines land.
//!
//! # Example
//!
//! ```
//! use writ_cells::structured::Predicate;
//! use writ_core::{Limits, Meter, parse_json};
//!
//! let predicate = Predicate::parse(&parse_json(
//!     r#"{"all": [{"path": "order.total", "op": "gt", "value": 100},
//!                {"not": {"path": "order.flags", "op": "contains", "value": "hold"}}]}"#,
//! )?)?;
//! let data = parse_json(r#"{"order": {"total": 250, "flags": ["gift"]}}"#)?;
//! let mut meter = Meter::new(&Limits { steps: Some(1_000), ..Limits::UNLIMITED });
//! assert!(predicate.evaluate(&data, &mut meter)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod structured;
