//! writ-testkit: what every engine's tests share.
//!
//! - [`oracle`]: runs cases through the reference implementations (node, jsonata 2.2.2,
//!   jexl 2.3.0) and reads back their result envelopes.
//! - [`corpus`]: the corpus case format — one JSON Lines file per suite, each line a batch
//!   request plus its `id` and expected answer —, the one `check` that compares an answer
//!   with its expectation, and `Corpus`, the runner of every engine's differential corpus
//!   (writ against the pins, node against the pins, the corpus's shape and coverage).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod corpus;
pub mod oracle;
