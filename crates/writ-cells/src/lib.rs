//! writ-cells: the predicate cells that decide `branch` and `select` nodes.
//!
//! A plan's `branch` and `select` nodes carry a predicate and name the cell that interprets it.
//! This crate holds the seam every cell implements ([`PredicateEvaluator`]), the [`Registry`] a
//! host wires cells into (nothing is wired by default), and the cells themselves.
//!
//! Every cell reads a plain-data snapshot ([`PredicateContext`]), has no clock and no randomness
//! (the same snapshot always gives the same verdict, so a resumed run may decide again), and
//! turns every fault into the node's negative verdict plus a recorded [`Fault`].
//!
//! [`structured`] is the language of the structured cell: a closed tree of `{path, op, value}`
//! leaves composed with `all`, `any` and `not`. It terminates by construction, reads its data
//! through checked [`writ_core::Path`]s, and charges a [`writ_core::Meter`] for every node and
//! every element it compares.
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

mod registry;
mod seam;
pub mod structured;

pub use registry::Registry;
pub use seam::{
    CellError, CellFuture, Decision, Evaluation, Fault, FaultKind, FrameRef, OutputTable, PredicateContext,
    PredicateEvaluator, PredicateNode, Verdict,
};
