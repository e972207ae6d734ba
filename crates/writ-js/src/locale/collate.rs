//! `localeCompare`: `Intl.Collator`'s options and locales resolved as V8 resolves them, compared with ICU4X's collator.

use std::sync::{Arc, LazyLock};

use icu::collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu::collator::preferences::{CollationCaseFirst, CollationNumericOrdering, CollationType};
use icu::collator::{Collator, CollatorBorrowed, CollatorPreferences};
use icu::locale::Locale;
use icu::locale::extensions::unicode::Value as KeywordValue;
use icu::properties::CodePointMapData;
use writ_core::{FifoCache, Str, Value};

use crate::builtins::string::{check_mark_run, newer_than_node};
use crate::error::{Error, Result};
use crate::interp::Cx;

use super::node::{COLLATOR_LOCALES, ICU4X_LACKS, ICU4X_LACKS_COLLATIONS};
use super::options::{Options, is_type_sequence};
use super::tags::requested_locales;
use super::{CACHE_SIZE, DEFAULT_LOCALE, arguments_key, charge_arguments, default_locale};

/// Collators per locale and options.
static COLLATORS: LazyLock<FifoCache<String, Arc<CollatorBorrowed<'static>>>> =
    LazyLock::new(|| FifoCache::new(CACHE_SIZE));

/// Resolved collator settings per locale and option arguments.
static SPECS: LazyLock<FifoCache<String, Arc<CollatorSpec>>> = LazyLock::new(|| FifoCache::new(CACHE_SIZE));

/// `a.localeCompare(b, locales, options)`: -1, 0 or 1, as `Intl.Collator(locales,
/// options).compare(a, b)` answers in V8.
pub(crate) fn compare(cx: &mut Cx<'_>, a: &Str, b: &Str, locales: &Value, options: &Value) -> Result<f64> {
    check_mark_run(a)?;
    check_mark_run(b)?;
    // A collator does some sixteen times a scan's work per character, in one call that cannot
    // stop halfway: a step per character, charged first, keeps the step budget a bound on time.
    cx.steps(a.len_utf16().saturating_add(b.len_utf16()) as u64)?;
    let spec = resolved_collator(cx, locales, options)?;
    let left = a.to_utf16();
    let right = b.to_utf16();
    for units in [&left, &right] {
        refuse_uncollatable(units)?;
    }
    let (collator, built) = COLLATORS.get_or_try_insert_with(&spec.key(), || spec.build().map(Arc::new))?;
    if built {
        cx.check_clock()?;
    }
    if left != right {
        refuse_han_order(cx, &spec, &left, &right)?;
    }
    Ok(match collator.compare_utf16(&left, &right) {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    })
}

/// The collator settings for these arguments, from the cache when they were resolved before.
fn resolved_collator(cx: &mut Cx<'_>, locales: &Value, options: &Value) -> Result<Arc<CollatorSpec>> {
    let resolve = |cx: &mut Cx<'_>| -> Result<CollatorSpec> {
        let requested = requested_locales(cx, locales)?;
        let bag = Options::new(options, "localeCompare")?;
        CollatorSpec::new(cx, &requested, &bag)
    };
    let Some(key) = arguments_key("collator", locales, options) else {
        return resolve(cx).map(Arc::new);
    };
    charge_arguments(cx, &key, locales)?;
    let (spec, _) = SPECS.get_or_try_insert_with(&key, || resolve(cx).map(Arc::new))?;
    Ok(spec)
}

/// A resolved `Intl.Collator`.
#[derive(Clone)]
struct CollatorSpec {
    /// The locale V8 resolves to, without extensions (`de` for `de-CH`).
    locale: Locale,
    /// The collation type (`-u-co-` or the `collation` option) node offers for the locale.
    collation: Option<&'static str>,
    /// From `sensitivity`; the locale's default when it is not given.
    strength: Option<Strength>,
    /// `sensitivity: "case"`.
    case_level: bool,
    /// `caseFirst` or `-u-kf-`.
    case_first: Option<CollationCaseFirst>,
    /// `numeric` or `-u-kn-`.
    numeric: Option<bool>,
    /// `ignorePunctuation: true`.
    shifted: bool,
}

/// V8's `BestAvailableLocale` over the collator's locales: the tag, shortened from the end
/// until node has it.
fn best_collator_locale(tag: &str) -> Option<&'static str> {
    let mut candidate = tag;
    loop {
        if let Some(found) = COLLATOR_LOCALES.get(candidate) {
            return Some(found.as_str());
        }
        let mut cut = candidate.rfind('-')?;
        if cut >= 2 && candidate.as_bytes().get(cut - 2) == Some(&b'-') {
            cut -= 2;
        }
        candidate = candidate.get(..cut)?;
    }
}

/// Whether node's collator offers the collation `kind` for `language` (as `-u-co-` or the
/// `collation` option); a collation it does not offer is ignored.
fn node_collation(language: &str, kind: &str) -> Option<&'static str> {
    /// The collations every collator locale has.
    const EVERYWHERE: &[&str] = &["emoji", "eor"];
    /// The collations of one language.
    const SPECIFIC: &[(&str, &str)] = &[
        ("ar", "compat"),
        ("bn", "trad"),
        ("de", "phonebk"),
        ("es", "trad"),
        ("fi", "trad"),
        ("ja", "unihan"),
        ("kn", "trad"),
        ("ko", "searchjl"),
        ("ko", "unihan"),
        ("ln", "phonetic"),
        ("si", "dict"),
        ("sv", "trad"),
        ("vi", "trad"),
        ("zh", "stroke"),
        ("zh", "unihan"),
        ("zh", "zhuyin"),
    ];
    EVERYWHERE.iter().copied().find(|&known| known == kind).or_else(|| {
        SPECIFIC
            .iter()
            .find(|&&(lang, known)| lang == language && known == kind)
            .map(|&(_, known)| known)
    })
}

impl CollatorSpec {
    /// `InitializeCollator`: the options in V8's order, then the locale, then writ's refusals.
    fn new(cx: &mut Cx<'_>, requested: &[Locale], bag: &Options<'_>) -> Result<CollatorSpec> {
        let usage = bag.choice(cx, "usage", &["sort", "search"])?;
        bag.choice(cx, "localeMatcher", &["lookup", "best fit"])?;
        let collation = bag.text(cx, "collation")?;
        if let Some(collation) = &collation
            && !is_type_sequence(collation)
        {
            let shown: String = collation.chars().take(40).collect();
            return Err(Error::range_error(format!(
                "Invalid collation : {shown} — a collation is a keyword such as \"phonebk\" or \"emoji\""
            )));
        }
        let numeric = bag.boolean("numeric");
        let case_first = bag.choice(cx, "caseFirst", &["upper", "lower", "false"])?;
        let sensitivity = bag.choice(cx, "sensitivity", &["base", "accent", "case", "variant"])?;
        let ignore_punctuation = bag.boolean("ignorePunctuation") == Some(true);
        if usage == Some("search") {
            return Err(Error::guardrail(
                "The option usage: \"search\" is not supported: compare with sensitivity: \"base\" instead, as in \
                 a.localeCompare(b, undefined, { sensitivity: \"base\" }) === 0",
            ));
        }

        let mut matched: Option<(&'static str, &Locale)> = None;
        for locale in requested {
            let tag = locale.id.to_string();
            if let Some(found) = best_collator_locale(&tag) {
                matched = Some((found, locale));
                break;
            }
        }
        if let Some((_, locale)) = matched
            && locale.id.variants.iter().any(|variant| variant.as_str() == "posix")
        {
            return Err(Error::guardrail(format!(
                "The POSIX variant (locale \"{locale}\") is not supported; compare with a locale without it, such as \
                 \"en-US\""
            )));
        }
        let (tag, keywords) = match matched {
            Some((tag, locale)) => (tag, Some(&locale.extensions.unicode.keywords)),
            None => (DEFAULT_LOCALE, None),
        };
        let locale = Locale::try_from_str(tag).unwrap_or_else(|_| default_locale());
        if ICU4X_LACKS.contains(locale.id.language.as_str()) {
            return Err(Error::guardrail(format!(
                "writ has no collation data for the locale \"{locale}\"; compare with a locale such as \"en\""
            )));
        }
        let keyword = |name: &str| -> Option<String> {
            let key = name.parse().ok()?;
            keywords
                .and_then(|keywords| keywords.get(&key))
                .map(|value| value.to_string())
        };
        let language = locale.id.language.as_str();
        let collation = collation
            .or_else(|| keyword("co"))
            .and_then(|kind| node_collation(language, &kind));
        let numeric = numeric.or_else(|| match keyword("kn").as_deref() {
            Some("" | "true") => Some(true),
            Some("false") => Some(false),
            _ => None,
        });
        let case_first = match case_first.map(str::to_owned).or_else(|| keyword("kf")).as_deref() {
            Some("upper") => Some(CollationCaseFirst::Upper),
            Some("lower") => Some(CollationCaseFirst::Lower),
            Some("false") => Some(CollationCaseFirst::False),
            _ => None,
        };
        let (strength, case_level) = match sensitivity {
            Some("base") => (Some(Strength::Primary), false),
            Some("accent") => (Some(Strength::Secondary), false),
            Some("case") => (Some(Strength::Primary), true),
            Some("variant") => (Some(Strength::Tertiary), false),
            _ => (None, false),
        };
        if let Some(kind) = collation
            && ICU4X_LACKS_COLLATIONS.contains(&kind)
        {
            return Err(Error::guardrail(format!(
                "The collation \"{kind}\" is not supported; compare with the locale's default collation"
            )));
        }
        Ok(CollatorSpec {
            locale,
            collation,
            strength,
            case_level,
            case_first,
            numeric,
            shifted: ignore_punctuation,
        })
    }

    /// The cache key: everything the collator is built from.
    fn key(&self) -> String {
        format!(
            "{}|{:?}|{:?}|{}|{:?}|{:?}|{}",
            self.locale, self.collation, self.strength, self.case_level, self.case_first, self.numeric, self.shifted
        )
    }

    /// Builds the ICU4X collator.
    fn build(&self) -> Result<CollatorBorrowed<'static>> {
        // ICU's collation data for sr-ME is Serbian's (Cyrillic); ICU4X infers the Latin script.
        let locale = if self.locale.id.to_string() == "sr-ME" {
            Locale::try_from_str("sr-Cyrl-ME").unwrap_or_else(|_| self.locale.clone())
        } else {
            self.locale.clone()
        };
        let mut prefs = CollatorPreferences::from(&locale);
        if let Some(kind) = self.collation {
            prefs.collation_type = KeywordValue::try_from_str(kind)
                .ok()
                .and_then(|v| CollationType::try_from(&v).ok());
        }
        if let Some(case_first) = self.case_first {
            prefs.case_first = Some(case_first);
        }
        if let Some(numeric) = self.numeric {
            prefs.numeric_ordering = Some(if numeric {
                CollationNumericOrdering::True
            } else {
                CollationNumericOrdering::False
            });
        }
        let mut options = CollatorOptions::default();
        options.strength = self.strength;
        if self.case_level {
            options.case_level = Some(CaseLevel::On);
        }
        if self.shifted {
            options.alternate_handling = Some(AlternateHandling::Shifted);
        }
        Collator::try_new(prefs, options).map_err(|_| {
            Error::guardrail(format!(
                "writ has no collation data for the locale \"{}\"; compare with \"en\"",
                self.locale
            ))
        })
    }
}

/// Whether `c` is written in the Han script (ideographs, their radicals and compatibility forms).
fn is_han(c: char) -> bool {
    CodePointMapData::<icu::properties::props::Script>::new().get(c) == icu::properties::props::Script::Han
}

/// Refuses a comparison that the order of two Han characters decides: node's ICU 78 orders
/// Han characters a collation does not list by radical and stroke, ICU4X by code point (and
/// the Chinese tailorings differ in places). That is the case when, past what both strings
/// start with, both hold Han characters, agree at the primary level up to the first of them,
/// and differ at the primary level.
fn refuse_han_order(cx: &mut Cx<'_>, spec: &CollatorSpec, left: &[u16], right: &[u16]) -> Result<()> {
    // What both strings start with weighs the same on both sides.
    let mut common = left.iter().zip(right).take_while(|(a, b)| a == b).count();
    if left
        .get(common)
        .or(right.get(common))
        .is_some_and(|&unit| (0xDC00..=0xDFFF).contains(&unit))
    {
        common = common.saturating_sub(1);
    }
    let (Some(left), Some(right)) = (left.get(common..), right.get(common..)) else {
        return Ok(());
    };
    let first_han = |units: &[u16]| -> Option<usize> {
        let mut at = 0;
        for decoded in char::decode_utf16(units.iter().copied()) {
            let c = decoded.ok()?;
            if is_han(c) {
                return Some(at);
            }
            at += c.len_utf16();
        }
        None
    };
    let (Some(left_han), Some(right_han)) = (first_han(left), first_han(right)) else {
        return Ok(());
    };
    let primary = CollatorSpec {
        strength: Some(Strength::Primary),
        case_level: false,
        case_first: None,
        ..spec.clone()
    };
    let (collator, built) = COLLATORS.get_or_try_insert_with(&primary.key(), || primary.build().map(Arc::new))?;
    if built {
        cx.check_clock()?;
    }
    let (Some(left_head), Some(right_head)) = (left.get(..left_han), right.get(..right_han)) else {
        return Ok(());
    };
    let decided_by_han = collator.compare_utf16(left_head, right_head) == std::cmp::Ordering::Equal
        && collator.compare_utf16(left, right) != std::cmp::Ordering::Equal;
    if decided_by_han {
        return Err(Error::guardrail(
            "localeCompare cannot order these strings: the order of two Han characters decides it, and writ's \
             Unicode collation data orders Han characters differently from JavaScript's here",
        ));
    }
    Ok(())
}

/// Refuses text ICU4X collates differently from node: a lone surrogate (ICU4X reads U+FFFD,
/// node an unassigned code point) or a character node's Unicode does not have yet.
fn refuse_uncollatable(units: &[u16]) -> Result<()> {
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Err(lone) => {
                return Err(Error::guardrail(format!(
                    "localeCompare cannot compare text holding the lone surrogate \\u{:X}; make it well-formed first \
                     with toWellFormed()",
                    lone.unpaired_surrogate()
                )));
            }
            Ok(c) if newer_than_node(u32::from(c)) => {
                return Err(Error::guardrail(format!(
                    "localeCompare cannot compare text holding U+{:04X}, which is newer than the Unicode version \
                     JavaScript here knows",
                    u32::from(c)
                )));
            }
            Ok(_) => {}
        }
    }
    Ok(())
}
