//! writ-plan: the plan IR of seed 002.
//!
//! A plan is the fold of an op log ([`Op`]) into a [`PlanView`]: nodes ([`Node`]) of six kinds,
//! edges ([`Edge`]) with handles, [`Bounds`], and provenance. Where a node stages a value — a
//! tool argument, a prompt part — it holds a [`StagedValue`]: JSON, a typed value JSON cannot
//! carry, or a reference ([`NodeRef`], [`ParamRef`]) that is an enum variant, never a record a
//! payload could imitate. The view has a lossless digest that approvals bind to, and freeze checks
//! it whole before anyone is asked to approve it.
//!
//! writ-plan is pure: it does no I/O of its own. Stores and the runtime sit above it.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod approval;
mod definition;
mod digest;
mod document;
mod fold;
mod freeze;
mod graph;
mod model;
mod ops;
mod render;
mod taint;
mod value;

pub use approval::{ApprovalRecord, ApprovalRefusal, authority_set};
pub use definition::{
    AuthorityClaim, BranchDefinition, CallDefinition, DeclaredField, Definition, EntryDefinition, FieldProblem,
    FieldType, OnIndeterminate, OnMissingValue, PromptPart, ReasonDefinition, SelectDefinition, Verb, valid_dot_path,
};
pub use digest::{digest, encode, encoded_len};
pub use document::{DOCUMENT_ACTOR, PlanSource, read_document};
pub use fold::{Folded, fold};
pub use freeze::{FreezeInputs, MAX_ROUTE_CHECKED_EDGES, MAX_ROUTE_CHECKED_NODES, check};
pub use graph::{Graph, ROUTE_CAP, RouteMismatch, Routes};
pub use model::{
    Bounds, DEFAULT_PLAN_BOUNDS, Edge, Handle, Node, NodeKind, PlanIssue, PlanView, Provenance, RAW_FIELDS, Severity,
    is_raw_field_path,
};
pub use ops::{Change, Op};
pub use render::{render_mermaid, render_prose};
pub use taint::{CHAIN_SHOWN, Sanitiser, Taint, TaintedArg};
pub use value::{
    BranchId, JoinSegment, MAX_WIRE_DEPTH, NodeRef, ParamRef, RouteSegment, Select, StagedValue, WireError,
};
