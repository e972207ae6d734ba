//! Built-in functions.

use super::Builtin;

pub(super) const TABLE: &[Builtin] = &[];
