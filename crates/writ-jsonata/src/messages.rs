//! What each error code says.

use crate::error::Error;

/// The message for `error`.
pub(crate) fn describe(error: &Error) -> String {
    error.detail.clone().unwrap_or_else(|| error.code.to_string())
}
