//! writ-jexl: Jexl 2.3, the expression language of seed 000's jexl cell.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
