//! String built-ins.

use writ_core::Str;

use super::Builtin;
use crate::value::Val;

pub(super) const TABLE: &[Builtin] = &[];

/// `$string(value)`: JSONata's conversion to text.
pub(crate) fn to_string(value: &Val) -> Str {
    let _ = value;
    Str::empty()
}

/// The JSON text of `value` as `$string` writes it (numbers to 15 significant digits,
/// functions as `""`), pretty-printed when `pretty`.
pub(crate) fn stringify(value: &Val, pretty: bool) -> Str {
    let _ = (value, pretty);
    Str::empty()
}
