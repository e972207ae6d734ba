//! The parser: JSONata text to [`Node`], as jsonata-js 2.2.2 parses it.
//!
//! Three stages, as in jsonata-js: the tokenizer (`lexer`), the Pratt parser that builds a
//! raw tree (`pratt`), and the post-parse stage that turns it into the evaluator's tree
//! (`process`). Every error is the one jsonata-js raises first for the same text, with its
//! code, position and token.
//!
//! The text may come from anyone, so nesting is bounded: an expression whose tree would be
//! deeper than [`MAX_DEPTH`] levels is refused with U1001 before anything recurses that far,
//! and neither the parser nor anything that walks its tree can exhaust the stack.

mod lexer;
mod pratt;
mod process;

use crate::ast::Node;
use crate::error::Result;

/// The deepest an expression may nest: levels of the parsed tree (each bracket, operator,
/// call, lambda, conditional… is one), which is also how deep the evaluator recurses.
pub(crate) const MAX_DEPTH: usize = 500;

/// Parses `source` into a tree.
///
/// # Errors
///
/// JSONata's S-codes, with the position; U1001 when the expression nests deeper than
/// [`MAX_DEPTH`] levels.
pub(crate) fn parse(source: &str) -> Result<Node> {
    process::process(pratt::Parser::parse(source)?)
}

#[cfg(test)]
mod tests;
