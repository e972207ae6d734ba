//! The dialect linter: the two JavaScript habits models bring to Jexl, named, with the fix.
//!
//! It reads the lexer's elements, not the raw text, so a string that mentions `===` or `ctx.`
//! never trips it, and `a || b` is an operator, never a transform.

use crate::lexer::{ElementKind, elements};

/// A JavaScript habit found in a Jexl source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// `jexl-dialect-strict-equality` or `jexl-dialect-ctx-prefix`.
    pub code: &'static str,
    /// What is wrong and what to write instead.
    pub message: String,
    /// The byte offset of the mistake in the source.
    pub position: usize,
}

/// Finds the first JavaScript habit in `source`, if any:
///
/// - `jexl-dialect-strict-equality`: `===` or `!==`, which Jexl does not have;
/// - `jexl-dialect-ctx-prefix`: a name read through `ctx.`, when Jexl reads bare names from the
///   context.
///
/// ```
/// let lint = writ_jexl::lint("status === 'ready'").expect("a strict equality");
/// assert_eq!(lint.code, "jexl-dialect-strict-equality");
/// assert_eq!(lint.position, 7);
/// assert_eq!(writ_jexl::lint("note == 'a === b' || ok"), None);
/// ```
pub fn lint(source: &str) -> Option<Lint> {
    let elements = elements(source);
    let text = |idx: usize| {
        elements
            .get(idx)
            .and_then(|element| source.get(element.start..element.end))
            .unwrap_or("")
    };
    // The neighbours of each element, white space skipped.
    let significant: Vec<usize> = (0..elements.len())
        .filter(|&idx| {
            elements
                .get(idx)
                .is_some_and(|element| element.kind != ElementKind::Space)
        })
        .collect();
    for (place, &idx) in significant.iter().enumerate() {
        let Some(element) = elements.get(idx) else {
            continue;
        };
        let here = text(idx);
        if element.kind == ElementKind::Operator && (here == "==" || here == "!=") {
            // `===` splits into `==` and an unmatched `=` written right after it (`====` into
            // two `==`).
            let next = elements.get(idx + 1);
            if next.is_some_and(|next| next.kind != ElementKind::String && text(idx + 1).starts_with('=')) {
                let (written, meant) = if here == "==" { ("===", "==") } else { ("!==", "!=") };
                let what = if here == "==" { "equality" } else { "inequality" };
                return Some(Lint {
                    code: "jexl-dialect-strict-equality",
                    message: format!(
                        "'{written}' at byte {}: JEXL's {what} operator is '{meant}'; replace '{written}' with '{meant}'",
                        element.start
                    ),
                    position: element.start,
                });
            }
        }
        if element.kind == ElementKind::Identifier && here == "ctx" {
            let before = place
                .checked_sub(1)
                .and_then(|prev| significant.get(prev))
                .map(|&prev| text(prev));
            let after = significant.get(place + 1).map(|&next| text(next));
            if after == Some(".") && before != Some(".") {
                return Some(Lint {
                    code: "jexl-dialect-ctx-prefix",
                    message: format!(
                        "'ctx.' at byte {}: JEXL reads bare identifiers from the context; there is no 'ctx' object: \
                         write 'order.total' rather than 'ctx.order.total'",
                        element.start
                    ),
                    position: element.start,
                });
            }
        }
    }
    None
}
