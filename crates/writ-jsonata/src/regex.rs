//! Regular expressions in JavaScript syntax, matched in linear time.

/// A compiled regular expression.
#[derive(Debug)]
pub struct Pattern {}
