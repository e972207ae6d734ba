//! Facts about node 20's ICU 78 (CLDR 48) that ICU4X's data does not give.
//!
//! The tables are JSON files in `data/`, compiled in and read once, on first use, into sorted
//! maps; a lookup then costs what a binary search over a constant did.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// A set of tags or names.
pub(super) type List = BTreeSet<String>;

/// Entries keyed by locale: a list of items, or a rule in the table's own small grammar.
pub(super) type Table = BTreeMap<String, String>;

/// Entries keyed by locale holding two texts.
pub(super) type PairTable = BTreeMap<String, (String, String)>;

/// A table read from its file. The files are part of the source and the tests read every one,
/// so a failure here is a broken build, not an input; it reads as an empty table.
fn read<T: Default>(parsed: serde_json::Result<T>) -> T {
    debug_assert!(
        parsed.is_ok(),
        "a locale data file does not parse: {parsed:?}",
        parsed = parsed.as_ref().err()
    );
    parsed.unwrap_or_default()
}

/// The languages node formats numbers for; a tag in another language falls to the next one.
pub(super) static NODE_LANGUAGES: LazyLock<List> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/node-languages.json"))));

/// The languages of [`NODE_LANGUAGES`] ICU4X's compiled data has nothing for.
pub(super) static ICU4X_LACKS: LazyLock<List> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/icu4x-lacks.json"))));

/// The language-script pairs node has locales for; another script resolves to the language.
pub(super) static SCRIPT_LOCALES: LazyLock<List> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/script-locales.json"))));

/// The locales node's collator has; a tag resolves to the longest of them it starts with.
pub(super) static COLLATOR_LOCALES: LazyLock<List> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/collator-locales.json"))));

/// The group sizes of a style's CLDR pattern where they are not the decimal pattern's (Indian
/// grouping for decimals, Western for percentages or currencies), per locale.
pub(super) static STYLE_GROUPING: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/style-grouping.json"))));

/// The styles whose CLDR 48 data in node differs from ICU4X's CLDR 49 data in a way writ
/// cannot correct, per locale: `decimal` (the symbols, so every style), `percent`, `currency`
/// and `accounting`. Formatting them is refused.
pub(super) static DIVERGENT_STYLES: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/divergent-styles.json"))));

/// Languages whose plural rules differ between node's CLDR 48 and ICU4X's CLDR 49 (or that
/// ICU4X has none for): a currency name, which follows the plural form, is refused.
pub(super) static PLURALS_DIFFER: LazyLock<List> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/plurals-differ.json"))));

/// Currency symbols node's CLDR 48 writes differently from ICU4X's CLDR 49, per locale (and the
/// locales that inherit from it): the short list, then the narrow one. A bare code means the
/// locale writes the code; `XYZ=text` gives the symbol.
pub(super) static CURRENCY_SYMBOL_FIXES: LazyLock<PairTable> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/currency-symbol-fixes.json"))));

/// The patterns that place a currency name, per plural category, where they are not
/// `"{0} {1}"` (ICU4X only has the root's).
pub(super) static CURRENCY_NAME_PATTERNS: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/currency-name-patterns.json"))));

/// Currency names writ's data has differently from node's, per locale: a list of codes, or
/// `*` for all of them.
pub(super) static CURRENCY_NAMES_REFUSED: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/currency-names-refused.json"))));

/// NaN as the locales that do not write "NaN" write it, by language and likely script.
pub(super) static NAN_TEXTS: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/nan-texts.json"))));

/// The text between the digits and the exponent of the scientific and engineering notations,
/// where it is not `E`: by locale (`sv`), by locale and numbering system (`ar/arab`), or by
/// numbering system alone (`/arab`).
pub(super) static EXPONENT_SEPARATORS: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/exponent-separators.json"))));

/// Notations and unit widths whose names writ's data has differently from node's, per locale:
/// `compact`, `compact-long`, `unit-short`, `unit-narrow`, `unit-long`, or `*` for all.
pub(super) static NOTATIONS_REFUSED: LazyLock<Table> =
    LazyLock::new(|| read(serde_json::from_str(include_str!("data/notations-refused.json"))));

/// Collations node offers that ICU4X's compiled data does not have.
pub(super) const ICU4X_LACKS_COLLATIONS: &[&str] = &["searchjl"];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table parses and holds what it held as a constant.
    #[test]
    fn every_table_reads() {
        let lists: [(&List, usize); 5] = [
            (&NODE_LANGUAGES, 242),
            (&ICU4X_LACKS, 79),
            (&SCRIPT_LOCALES, 38),
            (&COLLATOR_LOCALES, 153),
            (&PLURALS_DIFFER, 28),
        ];
        for (list, len) in lists {
            assert_eq!(list.len(), len);
        }
        let tables: [(&Table, usize); 7] = [
            (&STYLE_GROUPING, 24),
            (&DIVERGENT_STYLES, 57),
            (&CURRENCY_NAME_PATTERNS, 80),
            (&CURRENCY_NAMES_REFUSED, 108),
            (&NAN_TEXTS, 32),
            (&EXPONENT_SEPARATORS, 26),
            (&NOTATIONS_REFUSED, 8),
        ];
        for (table, len) in tables {
            assert_eq!(table.len(), len);
        }
        assert_eq!(CURRENCY_SYMBOL_FIXES.len(), 137);
    }
}
