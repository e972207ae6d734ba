//! The parser: JSONata text to [`Node`].

use crate::ast::Node;
use crate::error::{Error, Result};

/// Parses `source` into a tree.
///
/// # Errors
///
/// JSONata's S-codes, with the position.
pub fn parse(source: &str) -> Result<Node> {
    let _ = source;
    Err(Error::new("S0201"))
}
