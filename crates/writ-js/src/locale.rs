//! The locale methods: a number's and an array's `toLocaleString`, `toLocaleUpperCase` and
//! `toLocaleLowerCase`, and `localeCompare`, on ICU4X's CLDR data, answering as node 20 does
//! (V8 11.3 on ICU 78, CLDR 48; ICU4X 2.4 ships CLDR 49 and Unicode 18).
//!
//! writ fixes the default locale to `en-US`: with no locales (`undefined` or `[]`) every host
//! formats and compares the same data the same way, whatever its own settings say.
//!
//! How the answers stay node's:
//! - Locale lists are validated, canonicalized and resolved the way V8 resolves them: a tag
//!   whose language node has no data for is skipped, and nothing left means `en-US`.
//! - Options are read in `Intl`'s order and checked against its ranges (V8 11.3's: at most 20
//!   fraction digits), so a RangeError or TypeError comes exactly where JavaScript throws one.
//! - Numbers are rounded here, exactly, from the shortest decimal that round-trips the double
//!   (as ICU does), with every digit and rounding option of `Intl.NumberFormat`; the
//!   grouping, sign, currency-spacing and plural rules are ICU's.
//! - The symbols and patterns are CLDR data read off ICU4X's own formatters (the formatters'
//!   output for a few probe values), once per locale and style, and cached.
//! - Where ICU4X's CLDR 49 differs from node's CLDR 48 in a way a rule can repair (a symbol
//!   the locale writes as the code, a style's own grouping, a name pattern ICU4X does not
//!   carry), the tables at the end of this file, taken from node, repair it.
//! - Where it cannot (the unit style, scientific and compact notation, a locale node knows and
//!   ICU4X has no data for, the locales and styles of [`DIVERGENT_STYLES`], a lone surrogate
//!   or a Han-against-Han decision in collated text), the call is refused as a guardrail
//!   violation, never answered differently.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use icu::casemap::CaseMapper;
use icu::collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu::collator::preferences::{CollationCaseFirst, CollationNumericOrdering, CollationType};
use icu::collator::{Collator, CollatorBorrowed, CollatorPreferences};
use icu::decimal::DecimalFormatter;
use icu::decimal::input::Decimal;
use icu::decimal::options::GroupingStrategy;
use icu::locale::extensions::unicode::{Value as KeywordValue, key};
use icu::locale::{LanguageIdentifier, Locale, LocaleCanonicalizer, LocaleExpander};
use icu::plurals::{PluralCategory, PluralRules};
use icu::properties::CodePointMapData;
use icu::properties::props::GeneralCategory;
use icu_experimental::dimension::currency::CurrencyType;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::currency::options::CurrencyUsage;
use icu_experimental::dimension::percent::formatter::PercentFormatter;
use icu_experimental::dimension::percent::options::Display as PercentDisplay;
use writ_core::{Array, Object, Str, Value};

use crate::builtins::string::{check_mark_run, newer_than_node};
use crate::coerce::{number_to_str, string_to_number};
use crate::error::{Error, Result};
use crate::interp::Cx;

/// The locale writ formats and compares with when none is given.
const DEFAULT_LOCALE: &str = "en-US";

/// [`DEFAULT_LOCALE`], parsed.
fn default_locale() -> Locale {
    icu::locale::locale!("en-US")
}

/// Formatters and collators kept per kind, oldest dropped first.
const CACHE_SIZE: usize = 64;

/// How much text a case mapping maps before it reads the clock (at the next space).
const CHARS_PER_CASE_PIECE: usize = 8192;

/// Marks where the number goes in a pattern (a private-use character CLDR never uses).
const NUMBER_MARK: char = '\u{F8F0}';
/// Marks where the currency goes in a pattern.
const CURRENCY_MARK: char = '\u{F8F1}';

// ------------------------------------------------------------------------------------------
// The four entry points.
// ------------------------------------------------------------------------------------------

/// `n.toLocaleString(locales, options)`, as `Intl.NumberFormat(locales, options).format(n)`.
pub(crate) fn number_to_locale_string(cx: &mut Cx<'_>, n: f64, locales: &Value, options: &Value) -> Result<Str> {
    let format = resolved_format(cx, locales, options)?;
    format.format(cx, n)
}

/// The number format for these arguments: from the cache when the same arguments were
/// resolved before (a repeat call reads and charges only the arguments), else resolved.
fn resolved_format(cx: &mut Cx<'_>, locales: &Value, options: &Value) -> Result<Arc<NumberFormat>> {
    let Some(key) = arguments_key("number", locales, options) else {
        return NumberFormat::new(cx, locales, options).map(Arc::new);
    };
    charge_arguments(cx, &key, locales)?;
    if let Some(hit) = lookup(&FORMATS, &key) {
        return Ok(hit);
    }
    let format = Arc::new(NumberFormat::new(cx, locales, options)?);
    store(&FORMATS, key, Arc::clone(&format));
    Ok(format)
}

/// Charges what reading the arguments costs when their resolution is cached: the key's text,
/// and the square of the locale list's length, as the engine compares each tag with the others.
fn charge_arguments(cx: &mut Cx<'_>, key: &str, locales: &Value) -> Result<()> {
    cx.text(key.len())?;
    if let Value::Array(items) = locales {
        let n = items.len() as u64;
        cx.steps(n.saturating_mul(n))?;
    }
    Ok(())
}

/// A key that tells apart every pair of locale and option arguments that could resolve
/// differently (`2` and `"2"`, `null` and `undefined`), or `None` for arguments the cache does
/// not keep (they are checked, and refused, on every call).
fn arguments_key(kind: &str, locales: &Value, options: &Value) -> Option<String> {
    let mut key = String::from(kind);
    let push = |key: &mut String, value: &Value| -> Option<()> {
        match value {
            Value::Undefined => key.push('u'),
            Value::Null => key.push('n'),
            Value::Bool(b) => key.push(if *b { 't' } else { 'f' }),
            Value::Number(n) => {
                key.push('#');
                key.push_str(&number_to_str(*n).to_string_lossy());
                if *n == 0.0 && n.is_sign_negative() {
                    key.push('-');
                }
            }
            // Every text an argument may hold and resolve is ASCII; other text is not kept.
            Value::String(text) => {
                let text = text.as_ascii_str()?;
                key.push_str(&format!("s{}:", text.len()));
                key.push_str(text);
            }
            Value::Array(_) | Value::Object(_) => return None,
        }
        Some(())
    };
    key.push('|');
    match locales {
        Value::Undefined | Value::String(_) => push(&mut key, locales)?,
        Value::Array(items) => {
            key.push('[');
            for item in items.iter() {
                let Value::String(_) = item else { return None };
                push(&mut key, item)?;
            }
        }
        _ => return None,
    }
    key.push('|');
    match options {
        Value::Undefined => key.push('u'),
        Value::Object(object) => {
            key.push('{');
            for (name, value) in object.iter() {
                let name = name.as_ascii_str()?;
                key.push_str(&format!("{}:{name}=", name.len()));
                push(&mut key, value)?;
            }
        }
        _ => return None,
    }
    Some(key)
}

/// `items.toLocaleString(locales, options)`: each element's own `toLocaleString` with the same
/// locales and options (a number formatted, a string as it is, `null` and `undefined` empty,
/// a nested array recursively, an object `[object Object]`), joined with `,`.
///
/// As in JavaScript, the locales and options are only read when a number is formatted, so
/// `["a"].toLocaleString(null)` is `"a"`; arguments JavaScript would accept and writ refuses
/// anyway are refused up front.
pub(crate) fn array_to_locale_string(cx: &mut Cx<'_>, items: &Array, locales: &Value, options: &Value) -> Result<Str> {
    refuse_unusual_locales(locales)?;
    refuse_unusual_options(options)?;
    let mut format: Option<Arc<NumberFormat>> = None;
    let mut parts: Vec<Str> = Vec::new();
    let mut total = 0usize;
    // An explicit stack: arrays nest as deep as the data does.
    let mut stack: Vec<(&Array, usize)> = vec![(items, 0)];
    let comma = Str::from(",");
    while let Some(top) = stack.last_mut() {
        let (array, index) = (top.0, top.1);
        let Some(item) = array.get(index) else {
            stack.pop();
            continue;
        };
        top.1 += 1;
        if index > 0 {
            parts.push(comma.clone());
            total = total.saturating_add(1);
        }
        cx.steps(1)?;
        let part = match item {
            Value::Undefined | Value::Null => continue,
            Value::Array(inner) => {
                stack.push((inner, 0));
                continue;
            }
            Value::Number(n) => {
                if format.is_none() {
                    format = Some(resolved_format(cx, locales, options)?);
                }
                match &format {
                    Some(format) => format.format(cx, *n)?,
                    None => continue,
                }
            }
            Value::String(text) => text.clone(),
            Value::Bool(true) => Str::from("true"),
            Value::Bool(false) => Str::from("false"),
            // JavaScript calls the object's own `toLocaleString` (then `toString`); data holds
            // no function, so an own property of that name fails as it does there.
            Value::Object(object) => {
                if let Some(name) = ["toLocaleString", "toString"]
                    .into_iter()
                    .find(|name| object.get_str(name).is_some())
                {
                    return Err(Error::type_error(format!(
                        "An object in the array has a \"{name}\" property that is not a function, so it cannot be \
                         written by toLocaleString; map the objects to text first"
                    )));
                }
                Str::from("[object Object]")
            }
        };
        total = total.saturating_add(part.len_utf16());
        parts.push(part);
    }
    cx.string(total)?;
    let mut units: Vec<u16> = Vec::with_capacity(total);
    for part in &parts {
        units.extend(part.code_units());
    }
    Ok(Str::from_utf16(&units))
}

/// `text.toLocaleUpperCase(locales)` (`upper`) or `text.toLocaleLowerCase(locales)`.
///
/// As in V8, only the first locale's language counts, and only Turkish, Azeri, Lithuanian and
/// Greek have rules of their own; every other language maps as `toUpperCase` does.
pub(crate) fn to_locale_case(cx: &mut Cx<'_>, text: &Str, locales: &Value, upper: bool) -> Result<Str> {
    let requested = requested_locales(cx, locales)?;
    cx.text(text.len_utf16())?;
    let language = requested.first().map_or("en", |locale| locale.id.language.as_str());
    let rules = match language {
        "tr" | "az" | "lt" | "el" => language
            .parse::<LanguageIdentifier>()
            .unwrap_or(LanguageIdentifier::UNKNOWN),
        _ => LanguageIdentifier::UNKNOWN,
    };
    let special = rules != LanguageIdentifier::UNKNOWN;
    if let Some(ascii) = text.as_ascii_str()
        && !special
    {
        // ASCII maps to ASCII, the same way in every language but Turkish and Azeri.
        let mapped = if upper {
            ascii.to_ascii_uppercase()
        } else {
            ascii.to_ascii_lowercase()
        };
        cx.string(mapped.len())?;
        return Ok(Str::from_ascii(mapped.as_bytes()).unwrap_or_default());
    }
    let units = text.to_utf16();
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mapper = CaseMapper::new();
    let map = |segment: &str| -> String {
        if upper {
            mapper.uppercase_to_string(segment, &rules).into_owned()
        } else {
            mapper.lowercase_to_string(segment, &rules).into_owned()
        }
    };
    let newer = |text: &str| text.chars().any(|c| newer_than_node(u32::from(c)));
    // Maps a run of characters node knows. A character that maps to one node does not know
    // (Unicode 18 gave some old letters a case pair) keeps its case there, as an uncased
    // boundary does.
    let map_run = |run: &str, out: &mut Vec<u16>| {
        let mapped = map(run);
        if !newer(&mapped) {
            out.extend(mapped.encode_utf16());
            return;
        }
        let mut piece = String::new();
        let mut buffer = [0u8; 4];
        for c in run.chars() {
            if newer(&map(c.encode_utf8(&mut buffer))) {
                out.extend(map(&piece).encode_utf16());
                piece.clear();
                let mut pair = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut pair));
            } else {
                piece.push(c);
            }
        }
        out.extend(map(&piece).encode_utf16());
    };
    let mut segment = String::new();
    let mut since_check = 0usize;
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            // A space is neither cased nor case-ignorable: no casing context crosses it, so the
            // text before it can be mapped now, and the clock read, in long text.
            Ok(' ') if since_check >= CHARS_PER_CASE_PIECE => {
                map_run(&segment, &mut out);
                segment.clear();
                out.push(u16::from(b' '));
                since_check = 0;
                cx.check_clock()?;
                cx.meter.check_string_length(out.len())?;
            }
            Ok(c) if !newer_than_node(u32::from(c)) => {
                segment.push(c);
                since_check += 1;
            }
            // What node's Unicode does not have has no case there, and breaks the casing
            // context as a lone surrogate or the end of the text does: it is copied as it is.
            Ok(c) => {
                map_run(&segment, &mut out);
                segment.clear();
                let mut pair = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut pair));
            }
            Err(lone) => {
                map_run(&segment, &mut out);
                segment.clear();
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    map_run(&segment, &mut out);
    cx.string(out.len())?;
    Ok(Str::from_utf16(&out))
}

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
    let (collator, built) = cached_with_flag(&COLLATORS, &spec.key(), || spec.build())?;
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
    if let Some(hit) = lookup(&SPECS, &key) {
        return Ok(hit);
    }
    let spec = Arc::new(resolve(cx)?);
    store(&SPECS, key, Arc::clone(&spec));
    Ok(spec)
}

// ------------------------------------------------------------------------------------------
// Locale lists.
// ------------------------------------------------------------------------------------------

/// `CanonicalizeLocaleList`: `undefined` is none, a string is one tag, an array holds tags.
/// Each tag is checked and canonicalized (`iw` → `he`, `EN-us` → `en-US`); a repeat is dropped.
fn requested_locales(cx: &mut Cx<'_>, locales: &Value) -> Result<Vec<Locale>> {
    match locales {
        Value::Undefined => Ok(Vec::new()),
        Value::Null => Err(Error::type_error(
            "Cannot convert null to a locale list: pass undefined for the default locale, a tag such as \"en-US\", \
             or an array of tags",
        )),
        Value::String(tag) => Ok(vec![parse_tag(cx, tag)?]),
        Value::Array(items) => {
            // The engine compares each tag with those it kept.
            let n = items.len() as u64;
            cx.steps(n.saturating_mul(n))?;
            let mut list: Vec<Locale> = Vec::with_capacity(items.len());
            // An array in the list is refused, but only once the rest has been checked: a later
            // item may fail as it fails in JavaScript.
            let mut holds_array = false;
            for item in items.iter() {
                let locale = match item {
                    Value::String(tag) => parse_tag(cx, tag)?,
                    Value::Object(_) => return Err(bad_tag("[object Object]")),
                    Value::Array(_) => {
                        holds_array = true;
                        continue;
                    }
                    other => {
                        return Err(Error::type_error(format!(
                            "A locale list holds {}, which is not a language tag: write each locale as a string \
                             such as \"en-US\"",
                            crate::coerce::describe(other)
                        )));
                    }
                };
                if !list.contains(&locale) {
                    list.push(locale);
                }
            }
            if holds_array {
                return Err(unusual_locale_item());
            }
            Ok(list)
        }
        _ => Err(unusual_locales()),
    }
}

/// The refusal of locales that are neither `undefined`, a string nor an array.
fn unusual_locales() -> Error {
    Error::guardrail(
        "Locales must be undefined, a language tag such as \"de-DE\", or an array of tags; writ does not read \
         other values as a locale list",
    )
}

/// The refusal of an array inside a locale list.
fn unusual_locale_item() -> Error {
    Error::guardrail("A locale list holds an array: write each locale as a string such as \"de-DE\"")
}

/// Refuses, without reading tags, the locale arguments writ never accepts.
fn refuse_unusual_locales(locales: &Value) -> Result<()> {
    match locales {
        Value::Undefined | Value::Null | Value::String(_) => Ok(()),
        Value::Array(items) if items.iter().any(|item| matches!(item, Value::Array(_))) => Err(unusual_locale_item()),
        Value::Array(_) => Ok(()),
        _ => Err(unusual_locales()),
    }
}

/// Refuses, without reading them, the options writ never accepts.
fn refuse_unusual_options(options: &Value) -> Result<()> {
    match options {
        Value::Undefined | Value::Null => Ok(()),
        Value::Object(object) => check_scalar_options(object),
        _ => Err(unusual_options()),
    }
}

/// The RangeError JavaScript raises for a malformed tag.
fn bad_tag(tag: &str) -> Error {
    let shown: String = tag.chars().take(40).collect();
    Error::range_error(format!(
        "Incorrect locale information provided: \"{shown}\" is not a BCP 47 language tag; write one such as \"en-US\" \
         or \"de-CH\""
    ))
}

/// `IsStructurallyValidLanguageTag` and `CanonicalizeUnicodeLocaleId`.
fn parse_tag(cx: &mut Cx<'_>, tag: &Str) -> Result<Locale> {
    cx.text(tag.len_utf16())?;
    let Some(text) = tag.as_ascii_str() else {
        return Err(bad_tag(&tag.to_string_lossy()));
    };
    // ICU4X would read `_` as `-`; ECMA-402 does not.
    if text.contains('_') {
        return Err(bad_tag(text));
    }
    let mut locale = Locale::try_from_str(text).map_err(|_| bad_tag(text))?;
    LocaleCanonicalizer::new_extended().canonicalize(&mut locale);
    Ok(locale)
}

/// Whether node has number data for `language`.
fn node_knows(language: &str) -> bool {
    NODE_LANGUAGES.binary_search(&language).is_ok()
}

/// V8's locale resolution for `Intl.NumberFormat`: the first requested locale whose language
/// node has data for, else `en-US`. A script node has no locale for is dropped with
/// everything after it (`en-Latn-GB` resolves to `en`), and only the `nu` keyword is kept.
fn resolve_number_locale(requested: &[Locale]) -> Result<Locale> {
    for locale in requested {
        let language = locale.id.language.as_str();
        if !node_knows(language) {
            continue;
        }
        if ICU4X_LACKS.binary_search(&language).is_ok() {
            return Err(Error::guardrail(format!(
                "writ has no number data for the language \"{language}\" (locale \"{locale}\"); format with a locale \
                 such as \"en-US\", \"de-DE\" or \"fr-FR\""
            )));
        }
        if locale.id.variants.iter().any(|variant| variant.as_str() == "posix") {
            return Err(Error::guardrail(format!(
                "The POSIX variant (locale \"{locale}\") is not supported; use a locale without it, such as \"en-US\""
            )));
        }
        let mut resolved = Locale::UNKNOWN;
        resolved.id.language = locale.id.language;
        let script_known = match locale.id.script {
            None => true,
            Some(script) => {
                let pair = format!("{language}-{script}");
                SCRIPT_LOCALES.binary_search(&pair.as_str()).is_ok()
            }
        };
        if script_known {
            resolved.id.script = locale.id.script;
            resolved.id.region = locale.id.region;
            resolved.id.variants = locale.id.variants.clone();
        }
        if let Some(nu) = locale.extensions.unicode.keywords.get(&key!("nu")) {
            resolved.extensions.unicode.keywords.set(key!("nu"), nu.clone());
        }
        return Ok(resolved);
    }
    Ok(default_locale())
}

// ------------------------------------------------------------------------------------------
// Options.
// ------------------------------------------------------------------------------------------

/// An options argument: `undefined` or a plain object of scalars.
struct Options<'a> {
    /// The options object; `None` for `undefined`.
    object: Option<&'a Object>,
    /// The method, for messages (`toLocaleString`, `localeCompare`).
    method: &'static str,
}

/// The refusal of an options argument that is not an object.
fn unusual_options() -> Error {
    Error::guardrail(
        "Options must be undefined or an object such as { style: \"currency\", currency: \"EUR\" }; writ does not \
         read other values as options",
    )
}

/// Refuses an options object with a value that is not a string, number, boolean or null.
fn check_scalar_options(object: &Object) -> Result<()> {
    for (name, value) in object.iter() {
        if matches!(value, Value::Array(_) | Value::Object(_)) {
            return Err(Error::guardrail(format!(
                "The option \"{name}\" holds {}: locale options take strings, numbers and booleans",
                crate::coerce::describe(value)
            )));
        }
    }
    Ok(())
}

impl<'a> Options<'a> {
    /// `CoerceOptionsToObject`, with writ's refusal of anything but a plain object of scalars.
    fn new(options: &'a Value, method: &'static str) -> Result<Options<'a>> {
        match options {
            Value::Undefined => Ok(Options { object: None, method }),
            Value::Null => Err(Error::type_error(format!(
                "Cannot convert null to an options object in {method}: pass undefined or an object such as \
                 {{ maximumFractionDigits: 2 }}"
            ))),
            Value::Object(object) => {
                check_scalar_options(object)?;
                Ok(Options {
                    object: Some(object),
                    method,
                })
            }
            _ => Err(unusual_options()),
        }
    }

    /// The value of `name`, or `None` when it is missing or `undefined`.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.object
            .and_then(|object| object.get_str(name))
            .filter(|value| !value.is_undefined())
    }

    /// `GetOption` of type string: the value converted with `ToString`, charged by its length.
    fn text(&self, cx: &mut Cx<'_>, name: &str) -> Result<Option<String>> {
        let Some(value) = self.get(name) else {
            return Ok(None);
        };
        let text = match value {
            Value::String(s) => {
                cx.text(s.len_utf16())?;
                s.to_string_lossy().into_owned()
            }
            Value::Number(n) => number_to_str(*n).to_string_lossy().into_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Null => "null".to_owned(),
            _ => return Err(unusual_options()),
        };
        Ok(Some(text))
    }

    /// `GetOption` of type string with a list of allowed values.
    fn choice(&self, cx: &mut Cx<'_>, name: &str, allowed: &[&'static str]) -> Result<Option<&'static str>> {
        let Some(text) = self.text(cx, name)? else {
            return Ok(None);
        };
        match allowed.iter().find(|&&choice| choice == text) {
            Some(&choice) => Ok(Some(choice)),
            None => Err(self.out_of_range(name, &text, allowed)),
        }
    }

    /// The RangeError for a string option outside its list.
    fn out_of_range(&self, name: &str, text: &str, allowed: &[&str]) -> Error {
        let shown: String = text.chars().take(40).collect();
        Error::range_error(format!(
            "Value \"{shown}\" out of range for {} options property {name}: use one of {}",
            self.method,
            allowed
                .iter()
                .map(|choice| format!("\"{choice}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// `GetOption` of type boolean: `ToBoolean` of the value.
    fn boolean(&self, name: &str) -> Option<bool> {
        self.get(name).map(Value::is_truthy)
    }

    /// The value of a number option converted with `ToNumber`, charged by what it reads.
    fn number(&self, cx: &mut Cx<'_>, name: &str) -> Result<Option<f64>> {
        let Some(value) = self.get(name) else {
            return Ok(None);
        };
        Ok(Some(match value {
            Value::Number(n) => *n,
            Value::String(s) => {
                cx.text(s.len_utf16())?;
                string_to_number(s)
            }
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Null => 0.0,
            _ => return Err(unusual_options()),
        }))
    }
}

/// `DefaultNumberOption`: `n` floored, or a RangeError when it is NaN or outside `min..=max`.
fn digits_in_range(n: f64, name: &str, min: u32, max: u32) -> Result<u32> {
    if n.is_nan() || n < f64::from(min) || n > f64::from(max) {
        return Err(Error::range_error(format!(
            "{name} value is out of range: it takes a whole number from {min} to {max}, not {}",
            number_to_str(n)
        )));
    }
    Ok(n.floor() as u32)
}

/// Whether `text` is a `type` sequence of a Unicode locale id: `(3*8alphanum)` joined by `-`.
fn is_type_sequence(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('-')
            .all(|part| (3..=8).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_alphanumeric()))
}

// ------------------------------------------------------------------------------------------
// Number formats: the options.
// ------------------------------------------------------------------------------------------

/// `style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// A plain number.
    Decimal,
    /// The number times 100, with the percent sign.
    Percent,
    /// An amount of money.
    Currency,
}

/// `currencyDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CurrencyDisplay {
    /// `"symbol"`: `US$` in en-GB.
    Symbol,
    /// `"narrowSymbol"`: `$`.
    Narrow,
    /// `"code"`: `USD`.
    Code,
    /// `"name"`: `US dollars`.
    Name,
}

/// `useGrouping`, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grouping {
    /// The locale's minimum grouping digits.
    Auto,
    /// Group from four digits on.
    Always,
    /// Group from five digits on.
    Min2,
    /// No grouping.
    Never,
}

/// `signDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SignDisplay {
    /// A minus for negative numbers, `-0` included.
    Auto,
    /// No sign.
    Never,
    /// A plus or a minus.
    Always,
    /// A plus or a minus, except for a number that rounds to zero.
    ExceptZero,
    /// A minus for negative numbers that do not round to zero.
    Negative,
}

/// `roundingMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingMode {
    /// Toward +∞.
    Ceil,
    /// Toward -∞.
    Floor,
    /// Away from zero.
    Expand,
    /// Toward zero.
    Trunc,
    /// To nearest, ties toward +∞.
    HalfCeil,
    /// To nearest, ties toward -∞.
    HalfFloor,
    /// To nearest, ties away from zero (the default).
    HalfExpand,
    /// To nearest, ties toward zero.
    HalfTrunc,
    /// To nearest, ties to an even digit.
    HalfEven,
}

/// Which digit limits round the number (`[[RoundingType]]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingType {
    /// The fraction digits.
    FractionDigits,
    /// The significant digits.
    SignificantDigits,
    /// Whichever of the two keeps more precision.
    MorePrecision,
    /// Whichever of the two keeps less precision.
    LessPrecision,
}

/// The digit options, resolved as `SetNumberFormatDigitOptions` resolves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digits {
    /// `minimumIntegerDigits`.
    min_integer: u32,
    /// `minimumFractionDigits`.
    min_fraction: u32,
    /// `maximumFractionDigits`.
    max_fraction: u32,
    /// `minimumSignificantDigits`.
    min_significant: u32,
    /// `maximumSignificantDigits`.
    max_significant: u32,
    /// Which of the limits round.
    rounding: RoundingType,
    /// `roundingIncrement`, in units of the last fraction digit.
    increment: u32,
    /// `roundingMode`.
    mode: RoundingMode,
    /// `trailingZeroDisplay: "stripIfInteger"`.
    strip_if_integer: bool,
}

/// A resolved `Intl.NumberFormat`: the options and the locale's data.
struct NumberFormat {
    /// The locale's symbols and patterns.
    data: Arc<NumberData>,
    /// `style`.
    style: Style,
    /// The digit options.
    digits: Digits,
    /// `useGrouping`.
    grouping: Grouping,
    /// `signDisplay`.
    sign: SignDisplay,
    /// `currencySign: "accounting"`.
    accounting: bool,
}

/// The currencies whose minor unit is not two digits, as node's ICU counts them (CLDR 48).
fn currency_digits(code: &str) -> u32 {
    /// No minor unit.
    const ZERO: &[&str] = &[
        "ADP", "AFN", "ALL", "BIF", "BYR", "CLP", "COP", "DJF", "ESP", "GNF", "HUF", "IDR", "IQD", "IRR", "ISK", "ITL",
        "JPY", "KMF", "KPW", "KRW", "LAK", "LBP", "LUF", "MGA", "MGF", "MMK", "MRO", "PKR", "PYG", "RWF", "SLL", "SOS",
        "STD", "SYP", "TMM", "TRL", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF", "YER", "ZMK", "ZWD",
    ];
    /// Three digits.
    const THREE: &[&str] = &["BHD", "JOD", "KWD", "LYD", "OMR", "TND"];
    /// Four digits.
    const FOUR: &[&str] = &["CLF", "UYW"];
    if ZERO.binary_search(&code).is_ok() {
        0
    } else if THREE.binary_search(&code).is_ok() {
        3
    } else if FOUR.binary_search(&code).is_ok() {
        4
    } else {
        2
    }
}

/// The simple units `style: "unit"` accepts (ECMA-402's sanctioned units).
#[rustfmt::skip]
const SANCTIONED_UNITS: &[&str] = &[
    "acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit", "fluid-ounce", "foot", "gallon",
    "gigabit", "gigabyte", "gram", "hectare", "hour", "inch", "kilobit", "kilobyte", "kilogram", "kilometer", "liter",
    "megabit", "megabyte", "meter", "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter",
    "millisecond", "minute", "month", "nanosecond", "ounce", "percent", "petabyte", "pound", "second", "stone",
    "terabit", "terabyte", "week", "yard", "year",
];

/// `IsWellFormedUnitIdentifier`.
fn is_well_formed_unit(unit: &str) -> bool {
    let simple = |unit: &str| SANCTIONED_UNITS.binary_search(&unit).is_ok();
    match unit.split_once("-per-") {
        Some((numerator, denominator)) => simple(numerator) && simple(denominator),
        None => simple(unit),
    }
}

impl NumberFormat {
    /// `InitializeNumberFormat`: reads and checks every option (a RangeError or TypeError
    /// exactly where Intl throws one), then refuses what writ cannot render, then loads the
    /// locale's data.
    fn new(cx: &mut Cx<'_>, locales: &Value, options: &Value) -> Result<NumberFormat> {
        let requested = requested_locales(cx, locales)?;
        let bag = Options::new(options, "Number.prototype.toLocaleString")?;
        bag.choice(cx, "localeMatcher", &["lookup", "best fit"])?;
        let numbering = bag.text(cx, "numberingSystem")?;
        if let Some(numbering) = &numbering
            && !is_type_sequence(numbering)
        {
            return Err(Error::range_error(format!(
                "Invalid numberingSystem : {numbering} — write a numbering system such as \"latn\" or \"arab\""
            )));
        }
        let style_name = bag.choice(cx, "style", &["decimal", "percent", "currency", "unit"])?;
        let unit_style = style_name == Some("unit");
        let style = match style_name {
            Some("percent") => Style::Percent,
            Some("currency") => Style::Currency,
            _ => Style::Decimal,
        };
        let currency = match bag.text(cx, "currency")? {
            None if style == Style::Currency => {
                return Err(Error::type_error(
                    "Currency code is required with currency style: add one, as in { style: \"currency\", currency: \
                     \"EUR\" }",
                ));
            }
            None => None,
            Some(code) => {
                if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
                    let shown: String = code.chars().take(40).collect();
                    return Err(Error::range_error(format!(
                        "Invalid currency code : {shown} — a currency is three letters, such as \"USD\" or \"EUR\""
                    )));
                }
                Some(code.to_ascii_uppercase())
            }
        };
        let display = match bag.choice(cx, "currencyDisplay", &["code", "symbol", "narrowSymbol", "name"])? {
            Some("code") => CurrencyDisplay::Code,
            Some("narrowSymbol") => CurrencyDisplay::Narrow,
            Some("name") => CurrencyDisplay::Name,
            _ => CurrencyDisplay::Symbol,
        };
        let accounting = bag.choice(cx, "currencySign", &["standard", "accounting"])? == Some("accounting");
        match bag.text(cx, "unit")? {
            None if unit_style => {
                return Err(Error::type_error(
                    "Invalid unit argument: the unit style needs a unit, as in { style: \"unit\", unit: \"meter\" }",
                ));
            }
            None => {}
            Some(unit) if !is_well_formed_unit(&unit) => {
                let shown: String = unit.chars().take(40).collect();
                return Err(Error::range_error(format!(
                    "Invalid unit argument '{shown}': use a unit such as \"meter\", \"kilogram\" or \
                     \"kilometer-per-hour\""
                )));
            }
            Some(_) => {}
        }
        bag.choice(cx, "unitDisplay", &["short", "narrow", "long"])?;
        let notation = bag.choice(cx, "notation", &["standard", "scientific", "engineering", "compact"])?;
        let (default_min_fraction, default_max_fraction) = match (style, &currency) {
            (Style::Currency, Some(code)) if !unit_style => {
                let digits = currency_digits(code);
                (digits, digits)
            }
            (Style::Percent, _) if !unit_style => (0, 0),
            _ if notation == Some("compact") => (0, 0),
            _ => (0, 3),
        };
        let digits = read_digit_options(cx, &bag, default_min_fraction, default_max_fraction, notation)?;
        bag.choice(cx, "compactDisplay", &["short", "long"])?;
        let grouping = read_grouping(cx, &bag, notation == Some("compact"))?;
        let sign = match bag.choice(
            cx,
            "signDisplay",
            &["auto", "never", "always", "exceptZero", "negative"],
        )? {
            Some("never") => SignDisplay::Never,
            Some("always") => SignDisplay::Always,
            Some("exceptZero") => SignDisplay::ExceptZero,
            Some("negative") => SignDisplay::Negative,
            _ => SignDisplay::Auto,
        };

        // Everything Intl checks has passed: now what writ cannot render.
        if unit_style {
            return Err(Error::guardrail(
                "The option style: \"unit\" is not supported: format the number and append the unit yourself, as in \
                 n.toLocaleString(\"en-US\") + \" km\"",
            ));
        }
        if let Some(notation @ ("scientific" | "engineering" | "compact")) = notation {
            return Err(Error::guardrail(format!(
                "The option notation: \"{notation}\" is not supported: use the standard notation, or toExponential() \
                 for a scientific one"
            )));
        }
        let mut locale = resolve_number_locale(&requested)?;
        // V8 lets the option replace the `nu` keyword even when it names no numbering system.
        let chosen = numbering.or_else(|| {
            locale
                .extensions
                .unicode
                .keywords
                .get(&key!("nu"))
                .map(|v| v.to_string())
        });
        locale.extensions.unicode.keywords.clear();
        let mut zero = None;
        if let Some(numbering) = chosen
            && let Some(system_zero) = numbering_zero(&numbering)
            && let Ok(value) = KeywordValue::try_from_str(&numbering)
        {
            locale.extensions.unicode.keywords.set(key!("nu"), value);
            zero = Some(system_zero);
        }
        let component = match (style, accounting) {
            (Style::Decimal, _) => "decimal",
            // A name is placed by its own pattern; only the symbols matter.
            (Style::Currency, _) if display == CurrencyDisplay::Name => "name",
            (Style::Percent, _) => "percent",
            (Style::Currency, false) => "currency",
            (Style::Currency, true) => "accounting",
        };
        if let Some(list) = inherited(DIVERGENT_STYLES, &locale)
            && list.split(' ').any(|known| known == "decimal" || known == component)
        {
            return Err(Error::guardrail(format!(
                "writ's {component} format data for the locale \"{locale}\" differs from JavaScript's (ICU4X has a newer \
                 CLDR); format with another locale, such as \"en-US\""
            )));
        }
        let kind = match (style, &currency) {
            (Style::Currency, Some(code)) => DataKind::Currency {
                code: code.clone(),
                display,
            },
            (Style::Percent, _) => DataKind::Percent,
            _ => DataKind::Decimal,
        };
        let key = format!("{locale}|{kind:?}");
        cx.text(key.len())?;
        let (data, built) = cached_with_flag(&NUMBER_DATA, &key, || NumberData::build(&locale, &kind, zero))?;
        if built {
            cx.check_clock()?;
        }
        Ok(NumberFormat {
            data,
            style,
            digits,
            grouping,
            sign,
            accounting,
        })
    }
}

/// `SetNumberFormatDigitOptions` (ECMA-402 2023), which V8 11.3 follows.
fn read_digit_options(
    cx: &mut Cx<'_>,
    bag: &Options<'_>,
    default_min_fraction: u32,
    default_max_fraction: u32,
    notation: Option<&str>,
) -> Result<Digits> {
    let min_integer = match bag.number(cx, "minimumIntegerDigits")? {
        Some(n) => digits_in_range(n, "minimumIntegerDigits", 1, 21)?,
        None => 1,
    };
    let min_fraction = bag.number(cx, "minimumFractionDigits")?;
    let max_fraction = bag.number(cx, "maximumFractionDigits")?;
    let min_significant = bag.number(cx, "minimumSignificantDigits")?;
    let max_significant = bag.number(cx, "maximumSignificantDigits")?;
    let increment = match bag.number(cx, "roundingIncrement")? {
        Some(n) => {
            let increment = digits_in_range(n, "roundingIncrement", 1, 5000)?;
            if ![1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000].contains(&increment) {
                return Err(Error::range_error(format!(
                    "roundingIncrement value is out of range: use 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, \
                     2000, 2500 or 5000, not {increment}"
                )));
            }
            increment
        }
        None => 1,
    };
    let mode = match bag.choice(
        cx,
        "roundingMode",
        &[
            "ceil",
            "floor",
            "expand",
            "trunc",
            "halfCeil",
            "halfFloor",
            "halfExpand",
            "halfTrunc",
            "halfEven",
        ],
    )? {
        Some("ceil") => RoundingMode::Ceil,
        Some("floor") => RoundingMode::Floor,
        Some("expand") => RoundingMode::Expand,
        Some("trunc") => RoundingMode::Trunc,
        Some("halfCeil") => RoundingMode::HalfCeil,
        Some("halfFloor") => RoundingMode::HalfFloor,
        Some("halfTrunc") => RoundingMode::HalfTrunc,
        Some("halfEven") => RoundingMode::HalfEven,
        _ => RoundingMode::HalfExpand,
    };
    let priority = bag.choice(cx, "roundingPriority", &["auto", "morePrecision", "lessPrecision"])?;
    let strip_if_integer =
        bag.choice(cx, "trailingZeroDisplay", &["auto", "stripIfInteger"])? == Some("stripIfInteger");

    let default_max_fraction = if increment != 1 {
        default_min_fraction
    } else {
        default_max_fraction
    };
    let has_significant = min_significant.is_some() || max_significant.is_some();
    let has_fraction = min_fraction.is_some() || max_fraction.is_some();
    let compact = notation == Some("compact");
    let (mut need_significant, mut need_fraction) = (true, true);
    if matches!(priority, None | Some("auto")) {
        need_significant = has_significant;
        if need_significant || (!has_fraction && compact) {
            need_fraction = false;
        }
    }
    let mut digits = Digits {
        min_integer,
        min_fraction: 0,
        max_fraction: 0,
        min_significant: 1,
        max_significant: 21,
        rounding: RoundingType::FractionDigits,
        increment,
        mode,
        strip_if_integer,
    };
    if need_significant && has_significant {
        let min = match min_significant {
            Some(n) => digits_in_range(n, "minimumSignificantDigits", 1, 21)?,
            None => 1,
        };
        let max = match max_significant {
            Some(n) => digits_in_range(n, "maximumSignificantDigits", min, 21)?,
            None => 21,
        };
        digits.min_significant = min;
        digits.max_significant = max;
    }
    if need_fraction {
        if has_fraction {
            // V8 11.3 keeps ECMA-402's older limit of 20 fraction digits.
            let min = min_fraction
                .map(|n| digits_in_range(n, "minimumFractionDigits", 0, 20))
                .transpose()?;
            let max = max_fraction
                .map(|n| digits_in_range(n, "maximumFractionDigits", 0, 20))
                .transpose()?;
            let (min, max) = match (min, max) {
                (None, Some(max)) => (default_min_fraction.min(max), max),
                (Some(min), None) => (min, default_max_fraction.max(min)),
                (Some(min), Some(max)) => {
                    if min > max {
                        return Err(Error::range_error(format!(
                            "maximumFractionDigits value is out of range: it is {max}, below minimumFractionDigits \
                             {min}"
                        )));
                    }
                    (min, max)
                }
                (None, None) => (default_min_fraction, default_max_fraction),
            };
            digits.min_fraction = min;
            digits.max_fraction = max;
        } else {
            digits.min_fraction = default_min_fraction;
            digits.max_fraction = default_max_fraction;
        }
    }
    digits.rounding = if !need_significant && !need_fraction {
        digits.min_fraction = 0;
        digits.max_fraction = 0;
        digits.min_significant = 1;
        digits.max_significant = 2;
        RoundingType::MorePrecision
    } else {
        match priority {
            Some("morePrecision") => RoundingType::MorePrecision,
            Some("lessPrecision") => RoundingType::LessPrecision,
            _ if has_significant => RoundingType::SignificantDigits,
            _ => RoundingType::FractionDigits,
        }
    };
    if increment != 1 {
        if digits.rounding != RoundingType::FractionDigits {
            return Err(Error::type_error(
                "roundingIncrement needs fraction digits: RoundingType is not fractionDigits, so drop the significant \
                 digits options or the roundingPriority",
            ));
        }
        if digits.max_fraction != digits.min_fraction {
            return Err(Error::range_error(
                "maximumFractionDigits not equal to minimumFractionDigits: a roundingIncrement needs both set to the \
                 same number",
            ));
        }
    }
    Ok(digits)
}

/// `useGrouping`, read as V8 11.3 reads it: `true` is `"always"`, a falsy value is off, the
/// strings `"true"` and `"false"` are the default.
fn read_grouping(cx: &mut Cx<'_>, bag: &Options<'_>, compact: bool) -> Result<Grouping> {
    let fallback = if compact { Grouping::Min2 } else { Grouping::Auto };
    let Some(value) = bag.get("useGrouping") else {
        return Ok(fallback);
    };
    if matches!(value, Value::Bool(true)) {
        return Ok(Grouping::Always);
    }
    if !value.is_truthy() {
        return Ok(Grouping::Never);
    }
    let allowed = ["min2", "auto", "always", "true", "false"];
    let text = bag.text(cx, "useGrouping")?.unwrap_or_default();
    Ok(match text.as_str() {
        "min2" => Grouping::Min2,
        "always" => Grouping::Always,
        "auto" | "true" | "false" => fallback,
        _ => return Err(bag.out_of_range("useGrouping", &text, &allowed)),
    })
}

/// The digit zero of each numbering system node formats with (the algorithmic ones, such as
/// `roman`, are not among them: V8 ignores them).
fn numbering_zero(name: &str) -> Option<char> {
    /// The systems, sorted by name, with their digit zero.
    const SYSTEMS: &[(&str, char)] = &[
        ("adlm", '\u{1E950}'),
        ("ahom", '\u{11730}'),
        ("arab", '\u{0660}'),
        ("arabext", '\u{06F0}'),
        ("bali", '\u{1B50}'),
        ("beng", '\u{09E6}'),
        ("bhks", '\u{11C50}'),
        ("brah", '\u{11066}'),
        ("cakm", '\u{11136}'),
        ("cham", '\u{AA50}'),
        ("deva", '\u{0966}'),
        ("diak", '\u{11950}'),
        ("fullwide", '\u{FF10}'),
        ("gara", '\u{10D40}'),
        ("gong", '\u{11DA0}'),
        ("gonm", '\u{11D50}'),
        ("gujr", '\u{0AE6}'),
        ("gukh", '\u{16130}'),
        ("guru", '\u{0A66}'),
        ("hanidec", '\u{3007}'),
        ("hmng", '\u{16B50}'),
        ("hmnp", '\u{1E140}'),
        ("java", '\u{A9D0}'),
        ("kali", '\u{A900}'),
        ("kawi", '\u{11F50}'),
        ("khmr", '\u{17E0}'),
        ("knda", '\u{0CE6}'),
        ("krai", '\u{16D70}'),
        ("lana", '\u{1A80}'),
        ("lanatham", '\u{1A90}'),
        ("laoo", '\u{0ED0}'),
        ("latn", '0'),
        ("lepc", '\u{1C40}'),
        ("limb", '\u{1946}'),
        ("mathbold", '\u{1D7CE}'),
        ("mathdbl", '\u{1D7D8}'),
        ("mathmono", '\u{1D7F6}'),
        ("mathsanb", '\u{1D7EC}'),
        ("mathsans", '\u{1D7E2}'),
        ("mlym", '\u{0D66}'),
        ("modi", '\u{11650}'),
        ("mong", '\u{1810}'),
        ("mroo", '\u{16A60}'),
        ("mtei", '\u{ABF0}'),
        ("mymr", '\u{1040}'),
        ("mymrepka", '\u{116DA}'),
        ("mymrpao", '\u{116D0}'),
        ("mymrshan", '\u{1090}'),
        ("mymrtlng", '\u{A9F0}'),
        ("nagm", '\u{1E4F0}'),
        ("newa", '\u{11450}'),
        ("nkoo", '\u{07C0}'),
        ("olck", '\u{1C50}'),
        ("onao", '\u{1E5F1}'),
        ("orya", '\u{0B66}'),
        ("osma", '\u{104A0}'),
        ("outlined", '\u{1CCF0}'),
        ("rohg", '\u{10D30}'),
        ("saur", '\u{A8D0}'),
        ("segment", '\u{1FBF0}'),
        ("shrd", '\u{111D0}'),
        ("sind", '\u{112F0}'),
        ("sinh", '\u{0DE6}'),
        ("sora", '\u{110F0}'),
        ("sund", '\u{1BB0}'),
        ("sunu", '\u{11BF0}'),
        ("takr", '\u{116C0}'),
        ("talu", '\u{19D0}'),
        ("tamldec", '\u{0BE6}'),
        ("telu", '\u{0C66}'),
        ("thai", '\u{0E50}'),
        ("tibt", '\u{0F20}'),
        ("tirh", '\u{114D0}'),
        ("tnsa", '\u{16AC0}'),
        ("tols", '\u{11DE0}'),
        ("vaii", '\u{A620}'),
        ("wara", '\u{118E0}'),
        ("wcho", '\u{1E2F0}'),
    ];
    SYSTEMS
        .binary_search_by(|&(system, _)| system.cmp(name))
        .ok()
        .and_then(|at| SYSTEMS.get(at))
        .map(|&(_, zero)| zero)
}

// ------------------------------------------------------------------------------------------
// Number formats: the locale's data, read off ICU4X's formatters.
// ------------------------------------------------------------------------------------------

/// What a number format needs from the locale, beyond its symbols.
#[derive(Debug)]
enum DataKind {
    /// The symbols alone.
    Decimal,
    /// The percent patterns.
    Percent,
    /// The currency patterns and how `code` is written.
    Currency {
        /// The ISO 4217 code, upper case.
        code: String,
        /// `currencyDisplay`.
        display: CurrencyDisplay,
    },
}

/// A locale's digits and separators.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Symbols {
    /// The digits zero to nine of the numbering system.
    digits: [char; 10],
    /// The decimal separator.
    decimal: String,
    /// The grouping separator.
    group: String,
    /// The size of the rightmost group (0: no grouping).
    primary: usize,
    /// The size of the other groups.
    secondary: usize,
    /// The digits the leftmost group needs for grouping to show (`useGrouping: "auto"`).
    min_grouping: usize,
    /// The text before and after a negative number.
    minus: (String, String),
    /// The text before and after a number with an explicit plus.
    plus: (String, String),
}

/// Patterns around the number ([`NUMBER_MARK`]) and the currency ([`CURRENCY_MARK`]).
#[derive(Debug)]
struct SignedPatterns {
    /// For a number without a sign.
    positive: String,
    /// For a negative number.
    negative: String,
    /// For a number with an explicit plus.
    plus: String,
}

/// How a currency is written.
#[derive(Debug)]
enum CurrencyText {
    /// A symbol or code, placed by the locale's currency patterns.
    Symbol {
        /// The symbol or code.
        symbol: String,
        /// The standard patterns.
        standard: SignedPatterns,
        /// The accounting patterns (`currencySign: "accounting"`).
        accounting: SignedPatterns,
    },
    /// The currency's name and the pattern that places it, per plural category of the number;
    /// `locale` is the one whose plural rules pick the category.
    Name {
        /// The locale of the plural rules.
        locale: Locale,
        /// The name per plural category.
        names: Vec<(PluralCategory, String)>,
        /// The patterns that are not `{0} {1}`, per plural category.
        patterns: Vec<(PluralCategory, String)>,
    },
}

/// The style's part of the data.
#[derive(Debug)]
enum StyleData {
    /// Nothing beyond the symbols.
    Decimal,
    /// The percent patterns.
    Percent(SignedPatterns),
    /// A currency.
    Currency {
        /// The locale's symbols with the currency's own separators, where it has some.
        symbols: Symbols,
        /// How the currency is written.
        text: Box<CurrencyText>,
    },
}

/// A locale's number data for one style.
#[derive(Debug)]
struct NumberData {
    /// The digits, separators, grouping and signs.
    symbols: Symbols,
    /// Group sizes of the percent, currency and accounting patterns where they are not the
    /// decimal pattern's (`[percent, currency, accounting]`, `(primary, secondary)`).
    style_groups: [Option<(usize, usize)>; 3],
    /// The locale's text for NaN, when writ knows it.
    nan: Option<String>,
    /// The style's patterns.
    style: StyleData,
}

/// The locales `locale` inherits CLDR data from, itself first, without the root (ICU4X's
/// fallback chain: `es-MX`, `es-419`, `es`).
fn data_chain(locale: &Locale) -> Vec<String> {
    let fallbacker = icu::locale::fallback::LocaleFallbacker::new()
        .for_config(icu::locale::fallback::LocaleFallbackConfig::default());
    let mut iterator = fallbacker.fallback_for(icu::locale::DataLocale::from(locale));
    let mut chain = Vec::new();
    // The chain is short; the bound only guards against a cycle.
    for _ in 0..8 {
        let current = iterator.get();
        if current.is_unknown() {
            break;
        }
        chain.push(current.to_string());
        iterator.step();
    }
    chain
}

/// The entry of `table` (sorted by locale) for `locale` or the nearest locale it inherits from;
/// the `root` entry, if any, for the rest.
fn inherited<'t, T>(table: &'t [(&str, T)], locale: &Locale) -> Option<&'t T> {
    let find = |tag: &str| {
        table
            .binary_search_by(|&(key, _)| key.cmp(tag))
            .ok()
            .and_then(|at| table.get(at))
    };
    data_chain(locale)
        .iter()
        .find_map(|tag| find(tag))
        .or_else(|| find("root"))
        .map(|(_, value)| value)
}

/// The refusal when ICU4X's data cannot give node's answer for a locale.
fn no_data(locale: &Locale, what: &str) -> Error {
    Error::guardrail(format!(
        "writ cannot format {what} for the locale \"{locale}\" the way JavaScript does; use another locale or option"
    ))
}

/// `text` parsed as a decimal, or zero.
fn decimal(text: &str) -> Decimal {
    text.parse::<Decimal>().unwrap_or_default()
}

/// `text` split around the single `digit` it holds, or `None`.
fn around_digit(text: &str, digit: char) -> Option<(String, String)> {
    let mut pieces = text.split(digit);
    let before = pieces.next()?;
    let after = pieces.next()?;
    if pieces.next().is_some() {
        return None;
    }
    Some((before.to_owned(), after.to_owned()))
}

/// The first run of digits in `text`, with the separators inside it: its byte range, its digit
/// values, and the text between consecutive digit groups.
struct NumberRun {
    /// Where the number starts.
    start: usize,
    /// Where it ends.
    end: usize,
    /// Digit values, most significant first.
    values: Vec<u8>,
    /// `(digits before it, text)` for each separator.
    separators: Vec<(usize, String)>,
}

/// Finds the first number written with `digits` in `text`.
fn find_number(text: &str, digits: &[char; 10]) -> Option<NumberRun> {
    let value_of = |c: char| digits.iter().position(|&d| d == c).and_then(|v| u8::try_from(v).ok());
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let first = chars.iter().position(|&(_, c)| value_of(c).is_some())?;
    let mut run = NumberRun {
        start: chars.get(first)?.0,
        end: text.len(),
        values: Vec::new(),
        separators: Vec::new(),
    };
    let mut i = first;
    loop {
        while let Some(value) = chars.get(i).and_then(|&(_, c)| value_of(c)) {
            run.values.push(value);
            i += 1;
        }
        // A separator is one to three characters with a digit after it.
        let gap = (1..=3).find(|&len| {
            chars.get(i + len).is_some_and(|&(_, c)| value_of(c).is_some())
                && (i..i + len).all(|j| chars.get(j).is_some_and(|&(_, c)| value_of(c).is_none()))
        });
        match gap {
            Some(len) => {
                let separator: String = chars.get(i..i + len)?.iter().map(|&(_, c)| c).collect();
                run.separators.push((run.values.len(), separator));
                i += len;
            }
            None => {
                run.end = chars.get(i).map_or(text.len(), |&(at, _)| at);
                return Some(run);
            }
        }
    }
}

/// Reads the digits, separators, grouping and signs of `locale` off ICU4X's decimal formatter.
fn probe_symbols(locale: &Locale) -> Result<Symbols> {
    let fail = || no_data(locale, "numbers");
    let formatter = |grouping: GroupingStrategy| DecimalFormatter::try_new(locale.into(), grouping.into());
    let never = formatter(GroupingStrategy::Never).map_err(|_| fail())?;
    let always = formatter(GroupingStrategy::Always).map_err(|_| fail())?;
    let auto = formatter(GroupingStrategy::Auto).map_err(|_| fail())?;
    let show = |formatter: &DecimalFormatter, text: &str| formatter.format(&decimal(text)).to_string();

    let ten: Vec<char> = show(&never, "1234567890").chars().collect();
    let [one, two, three, four, five, six, seven, eight, nine, zero] = ten[..] else {
        return Err(fail());
    };
    let digits = [zero, one, two, three, four, five, six, seven, eight, nine];
    let (_, decimal_part) = around_digit(&show(&never, "1.5"), one).ok_or_else(fail)?;
    let decimal_separator = decimal_part.strip_suffix(five).ok_or_else(fail)?.to_owned();

    let long = find_number(&show(&always, "1234567890123456"), &digits).ok_or_else(fail)?;
    let (primary, secondary, group) = match long.separators.as_slice() {
        [] => (0, 0, String::new()),
        separators => {
            let last = separators.last().map_or(0, |&(at, _)| at);
            let before_last = separators
                .len()
                .checked_sub(2)
                .and_then(|i| separators.get(i))
                .map(|&(at, _)| at);
            let primary = long.values.len().saturating_sub(last);
            let secondary = before_last.map_or(primary, |before| last - before);
            (
                primary,
                secondary,
                separators.first().map(|(_, text)| text.clone()).unwrap_or_default(),
            )
        }
    };
    let mut min_grouping = 1;
    if primary > 0 {
        min_grouping = (1..=4)
            .find(|&extra| {
                let text = format!("1{}", "0".repeat(primary + extra - 1));
                show(&auto, &text).contains(group.as_str())
            })
            .unwrap_or(1);
    }
    let minus = around_digit(&show(&never, "-7"), seven).ok_or_else(fail)?;
    let plus = around_digit(&show(&never, "+7"), seven).ok_or_else(fail)?;
    Ok(Symbols {
        digits,
        decimal: decimal_separator,
        group,
        primary,
        secondary,
        min_grouping,
        minus,
        plus,
    })
}

/// The locale's text for NaN, keyed by language and likely script (CLDR 48, as node has it);
/// `None` where writ cannot tell.
fn nan_text(locale: &Locale, own_numbering_symbols: bool) -> Option<String> {
    // A numbering system's own symbols may write NaN differently ("0/0").
    if !own_numbering_symbols {
        return None;
    }
    let mut id = locale.id.clone();
    LocaleExpander::new_extended().maximize(&mut id);
    let key = match id.script {
        Some(script) => format!("{}-{}", id.language, script),
        None => id.language.to_string(),
    };
    let localized = NAN_TEXTS
        .binary_search_by(|&(k, _)| k.cmp(key.as_str()))
        .ok()
        .and_then(|at| NAN_TEXTS.get(at));
    Some(localized.map_or("NaN", |&(_, text)| text).to_owned())
}

impl NumberData {
    /// Loads the data of `kind` for `locale`; `zero` is the zero digit of a numbering system
    /// asked for, which ICU4X must have.
    fn build(locale: &Locale, kind: &DataKind, zero: Option<char>) -> Result<NumberData> {
        let symbols = probe_symbols(locale)?;
        if let Some(zero) = zero
            && symbols.digits.first() != Some(&zero)
        {
            let system = locale
                .extensions
                .unicode
                .keywords
                .get(&key!("nu"))
                .map(|v| v.to_string())
                .unwrap_or_default();
            return Err(Error::guardrail(format!(
                "writ has no data for the numbering system \"{system}\"; use \"latn\" or leave numberingSystem out"
            )));
        }
        let own_symbols = if locale.extensions.unicode.keywords.is_empty() {
            true
        } else {
            let mut plain = locale.clone();
            plain.extensions.unicode.keywords.clear();
            let default = probe_symbols(&plain)?;
            let system = locale
                .extensions
                .unicode
                .keywords
                .get(&key!("nu"))
                .map(|v| v.to_string())
                .unwrap_or_default();
            if default.digits != symbols.digits {
                // ICU takes a numbering system's symbols and patterns from the root when the
                // locale has none, where ICU4X keeps the locale's own: only digits swapped
                // into a Latin-digit locale's decimal format agree.
                let latin_default = default.digits.first() == Some(&'0');
                let root_symbols = matches!(system.as_str(), "arab" | "arabext");
                if !latin_default || root_symbols || !matches!(kind, DataKind::Decimal) {
                    return Err(Error::guardrail(format!(
                        "writ cannot format with the numbering system \"{system}\" in the locale \"{}\" the way \
                         JavaScript does; leave numberingSystem out, or format as a plain number",
                        plain
                    )));
                }
            }
            default.digits == symbols.digits
        };
        let nan = nan_text(locale, own_symbols);
        let style = match kind {
            DataKind::Decimal => StyleData::Decimal,
            DataKind::Percent => StyleData::Percent(probe_percent(locale, &symbols)?),
            DataKind::Currency { code, display } => probe_currency(locale, &symbols, code, *display)?,
        };
        let mut style_groups = [None; 3];
        if let Some(list) = inherited(STYLE_GROUPING, locale) {
            for item in list.split(';') {
                let Some((style, sizes)) = item.split_once('=') else {
                    continue;
                };
                let Some((primary, secondary)) = sizes.split_once(',') else {
                    continue;
                };
                let (Ok(primary), Ok(secondary)) = (primary.parse(), secondary.parse()) else {
                    continue;
                };
                let slot = match style {
                    "percent" => 0,
                    "currency" => 1,
                    _ => 2,
                };
                if let Some(group) = style_groups.get_mut(slot) {
                    *group = Some((primary, secondary));
                }
            }
        }
        Ok(NumberData {
            symbols,
            style_groups,
            nan,
            style,
        })
    }
}

/// The percent patterns of `locale`.
fn probe_percent(locale: &Locale, symbols: &Symbols) -> Result<SignedPatterns> {
    let fail = || no_data(locale, "percentages");
    let seven = symbols.digits.get(7).copied().unwrap_or('7');
    let pattern = |display: PercentDisplay, value: &str| -> Result<String> {
        let formatter = PercentFormatter::try_new(locale.into(), display.into()).map_err(|_| fail())?;
        let text = formatter.format(&decimal(value)).to_string();
        let (before, after) = around_digit(&text, seven).ok_or_else(fail)?;
        Ok(format!("{before}{NUMBER_MARK}{after}"))
    };
    Ok(SignedPatterns {
        positive: pattern(PercentDisplay::Standard, "7")?,
        negative: pattern(PercentDisplay::Standard, "-7")?,
        plus: pattern(PercentDisplay::ExplicitSign, "7")?,
    })
}

/// Currencies whose symbol is a single currency sign in most locales: formatted, they show
/// the locale's currency pattern as it is, with no space inserted for a letter.
const PLAIN_SIGN_CURRENCIES: &[&str] = &["EUR", "USD", "GBP", "JPY", "INR", "ILS", "KRW", "NGN", "PHP", "UAH"];

/// Formats `value` in `currency` for `locale` with ICU4X's symbol formatter.
fn currency_probe(
    locale: &Locale,
    currency: CurrencyType,
    usage: CurrencyUsage,
    display: CurrencyDisplay,
    value: &str,
) -> Option<String> {
    let formatter = match display {
        CurrencyDisplay::Narrow => CurrencyFormatter::try_new_symbol_narrow(locale.into(), currency, usage.into()),
        CurrencyDisplay::Code => CurrencyFormatter::try_new_code(locale.into(), currency, usage.into()),
        _ => CurrencyFormatter::try_new_symbol(locale.into(), currency, usage.into()),
    }
    .ok()?;
    Some(formatter.format_fixed_decimal(&decimal(value)).to_string())
}

/// `text` with its number (`run`) replaced by [`NUMBER_MARK`].
fn mark_number(text: &str, run: &NumberRun) -> Option<String> {
    Some(format!(
        "{}{NUMBER_MARK}{}",
        text.get(..run.start)?,
        text.get(run.end..)?
    ))
}

/// The locale's currency patterns, read off a currency whose symbol is one currency sign.
fn plain_currency_patterns(locale: &Locale, symbols: &Symbols) -> Option<(SignedPatterns, SignedPatterns)> {
    let categories = CodePointMapData::<GeneralCategory>::new();
    for code in PLAIN_SIGN_CURRENCIES {
        let currency = CurrencyType::try_from_str(code).ok()?;
        let pattern = |usage: CurrencyUsage, value: &str| -> Option<String> {
            let text = currency_probe(locale, currency, usage, CurrencyDisplay::Symbol, value)?;
            let run = find_number(&text, &symbols.digits)?;
            let marked = mark_number(&text, &run)?;
            let mut signs = marked
                .char_indices()
                .filter(|&(_, c)| categories.get(c) == GeneralCategory::CurrencySymbol);
            let (at, sign) = signs.next()?;
            if signs.next().is_some() {
                return None;
            }
            let next = marked.get(at + sign.len_utf8()..)?.chars().next();
            let previous = marked.get(..at)?.chars().next_back();
            if [previous, next].into_iter().flatten().any(char::is_alphabetic) {
                return None;
            }
            Some(format!(
                "{}{CURRENCY_MARK}{}",
                marked.get(..at)?,
                marked.get(at + sign.len_utf8()..)?
            ))
        };
        let signed = |usage: CurrencyUsage| -> Option<SignedPatterns> {
            let positive = pattern(usage, "7")?;
            let negative = pattern(usage, "-7")?;
            let plus = plus_pattern(&positive, &negative, symbols);
            Some(SignedPatterns {
                positive,
                negative,
                plus,
            })
        };
        if let (Some(standard), Some(accounting)) = (signed(CurrencyUsage::Standard), signed(CurrencyUsage::Accounting))
        {
            return Some((standard, accounting));
        }
    }
    None
}

/// The pattern for an explicit plus: the negative pattern with the plus sign where its minus
/// sign is, or the positive pattern with the plus sign around it (ICU's rule).
fn plus_pattern(positive: &str, negative: &str, symbols: &Symbols) -> String {
    let (minus_before, minus_after) = &symbols.minus;
    let (plus_before, plus_after) = &symbols.plus;
    let wrapped = format!("{minus_before}{positive}{minus_after}");
    if negative != wrapped && !minus_before.is_empty() && negative.contains(minus_before.as_str()) {
        return negative.replacen(minus_before.as_str(), plus_before, 1);
    }
    format!("{plus_before}{positive}{plus_after}")
}

/// The symbol of a currency in `text` (its formatted 7), given the locale's positive pattern.
fn symbol_in(text: &str, run: &NumberRun, pattern: &str) -> Option<String> {
    let number_at = pattern.find(NUMBER_MARK)?;
    let currency_at = pattern.find(CURRENCY_MARK)?;
    let (before, after) = (text.get(..run.start)?, text.get(run.end..)?);
    if currency_at < number_at {
        let lead = pattern.get(..currency_at)?;
        let between = pattern.get(currency_at + CURRENCY_MARK.len_utf8()..number_at)?;
        let trail = pattern.get(number_at + NUMBER_MARK.len_utf8()..)?;
        let mut symbol = before.strip_prefix(lead)?.strip_suffix(between)?;
        if between.is_empty() {
            // ICU4X's pattern for a symbol that ends in a letter adds a space.
            symbol = symbol.strip_suffix('\u{a0}').unwrap_or(symbol);
        }
        (after == trail && !symbol.is_empty()).then(|| symbol.to_owned())
    } else {
        let lead = pattern.get(..number_at)?;
        let between = pattern.get(number_at + NUMBER_MARK.len_utf8()..currency_at)?;
        let trail = pattern.get(currency_at + CURRENCY_MARK.len_utf8()..)?;
        let mut symbol = after.strip_prefix(between)?.strip_suffix(trail)?;
        if between.is_empty() {
            symbol = symbol.strip_prefix('\u{a0}').unwrap_or(symbol);
        }
        (before == lead && !symbol.is_empty()).then(|| symbol.to_owned())
    }
}

/// The separators a currency is formatted with in `locale` (some currencies have their own).
fn currency_symbols(text: &str, symbols: &Symbols) -> Symbols {
    let mut own = symbols.clone();
    if let Some(run) = find_number(text, &symbols.digits) {
        // The probe is 1234567: seven integer digits, then the fraction if any.
        for (at, separator) in &run.separators {
            if *at == 7 {
                own.decimal.clone_from(separator);
            } else if *at < 7 {
                own.group.clone_from(separator);
            }
        }
    }
    own
}

/// The symbol node's CLDR 48 has for `code` in `locale` where ICU4X's CLDR 49 data differs
/// (most often: the locale writes the code, and ICU4X inherits a symbol from a parent).
fn fixed_symbol(locale: &Locale, code: &str, narrow: bool) -> Option<String> {
    let (short, narrow_list) = inherited(CURRENCY_SYMBOL_FIXES, locale)?;
    let list = if narrow { narrow_list } else { short };
    list.split(' ').find_map(|item| match item.split_once('=') {
        Some((known, symbol)) if known == code => Some(symbol.to_owned()),
        None if item == code => Some(code.to_owned()),
        _ => None,
    })
}

/// The lowercase CLDR name of a plural category.
fn category_name(category: PluralCategory) -> &'static str {
    match category {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
}

/// Languages whose currency names have no `many` form of their own: the `many` form (for a
/// million and up) is the `other` one.
const MANY_IS_OTHER: &[&str] = &["ca", "es", "fr", "it", "pt", "scn", "vec"];

/// The currency names of `code` in `locale`, per plural category, with node's patterns.
fn probe_currency_names(locale: &Locale, own: Symbols, code: &str, currency: CurrencyType) -> Result<StyleData> {
    let fail = || no_data(locale, &format!("the name of the currency {code}"));
    let language = locale.id.language.as_str();
    let refused = PLURALS_DIFFER.binary_search(&language).is_ok()
        || inherited(CURRENCY_NAMES_REFUSED, locale)
            .is_some_and(|list| *list == "*" || list.split(' ').any(|c| c == code));
    if refused {
        return Err(Error::guardrail(format!(
            "writ's data for the name of the currency {code} in the locale \"{locale}\" differs from JavaScript's; use \
             currencyDisplay: \"code\" or \"symbol\""
        )));
    }
    let plural = plural_locale(locale);
    let rules = PluralRules::try_new_cardinal((&plural).into()).map_err(|_| fail())?;
    let standard = CurrencyFormatter::try_new_name(locale.into(), currency).map_err(|_| fail())?;
    let compact = CurrencyFormatter::try_new_compact_name(locale.into(), currency).map_err(|_| fail())?;
    let mut names: Vec<(PluralCategory, String)> = Vec::new();
    for value in PLURAL_PROBES {
        let amount = decimal(value);
        for text in [
            standard.format_fixed_decimal(&amount).to_string(),
            compact.format_fixed_decimal(&amount).to_string(),
        ] {
            let Some(run) = find_number(&text, &own.digits) else {
                continue;
            };
            // The integer digits are the probe's; the rest is the fraction shown.
            let integer_len = value.split('.').next().map_or(1, str::len);
            let digits: String = run.values.iter().map(|&d| char::from(b'0' + d)).collect();
            let shown = match (digits.get(..integer_len), digits.get(integer_len..)) {
                (Some(integer), Some(fraction)) if !fraction.is_empty() => format!("{integer}.{fraction}"),
                _ => digits.clone(),
            };
            let category = rules.category_for(&decimal(&shown));
            // ICU4X places every name with the root pattern, "{0} {1}".
            let Some(name) = text.get(run.end..).and_then(|rest| rest.strip_prefix(' ')) else {
                continue;
            };
            if run.start == 0 && names.iter().all(|(known, _)| *known != category) {
                names.push((category, name.to_owned()));
            }
        }
    }
    if MANY_IS_OTHER.contains(&language)
        && names.iter().all(|(known, _)| *known != PluralCategory::Many)
        && let Some((_, other)) = names.iter().find(|(known, _)| *known == PluralCategory::Other)
    {
        names.push((PluralCategory::Many, other.clone()));
    }
    let mut patterns = Vec::new();
    for item in inherited(CURRENCY_NAME_PATTERNS, locale)
        .map_or("", |list| *list)
        .split(';')
    {
        let Some((name, pattern)) = item.split_once('=') else {
            continue;
        };
        let category = [
            PluralCategory::Zero,
            PluralCategory::One,
            PluralCategory::Two,
            PluralCategory::Few,
            PluralCategory::Many,
            PluralCategory::Other,
        ]
        .into_iter()
        .find(|&category| category_name(category) == name);
        if let Some(category) = category {
            patterns.push((
                category,
                pattern
                    .replace("{0}", &NUMBER_MARK.to_string())
                    .replace("{1}", &CURRENCY_MARK.to_string()),
            ));
        }
    }
    Ok(StyleData::Currency {
        symbols: own,
        text: Box::new(CurrencyText::Name {
            locale: plural,
            names,
            patterns,
        }),
    })
}

/// Values whose currency names, together, cover a locale's plural categories.
#[rustfmt::skip]
const PLURAL_PROBES: &[&str] = &[
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "10", "11", "12", "15", "20", "21", "22", "25", "100", "101", "102",
    "111", "0.1", "0.2", "0.5", "1.1", "1.5", "2.5",
];

/// The currency data of `locale` for `code` shown as `display`.
fn probe_currency(locale: &Locale, symbols: &Symbols, code: &str, display: CurrencyDisplay) -> Result<StyleData> {
    let fail = || no_data(locale, &format!("the currency {code}"));
    let currency = CurrencyType::try_from_str(code).map_err(|_| fail())?;
    let big = currency_probe(
        locale,
        currency,
        CurrencyUsage::Standard,
        CurrencyDisplay::Code,
        "1234567",
    )
    .ok_or_else(fail)?;
    let own = currency_symbols(&big, symbols);
    if display == CurrencyDisplay::Name {
        return probe_currency_names(locale, own, code, currency);
    }
    let (standard, accounting) = plain_currency_patterns(locale, symbols).ok_or_else(fail)?;
    let symbol = if display == CurrencyDisplay::Code {
        code.to_owned()
    } else {
        let text = currency_probe(locale, currency, CurrencyUsage::Standard, display, "7").ok_or_else(fail)?;
        let run = find_number(&text, &symbols.digits).ok_or_else(fail)?;
        let symbol = symbol_in(&text, &run, &standard.positive).ok_or_else(fail)?;
        fixed_symbol(locale, code, display == CurrencyDisplay::Narrow).unwrap_or(symbol)
    };
    Ok(StyleData::Currency {
        symbols: own,
        text: Box::new(CurrencyText::Symbol {
            symbol,
            standard,
            accounting,
        }),
    })
}

// ------------------------------------------------------------------------------------------
// Number formats: exact decimal rounding.
// ------------------------------------------------------------------------------------------

/// An exact non-negative decimal: `digits × 10^exp`, most significant digit first, with no
/// leading or trailing zeros (zero has no digits).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Exact {
    /// The digits, most significant first.
    digits: Vec<u8>,
    /// The magnitude of the last digit.
    exp: i32,
}

/// A rounding direction for a magnitude (`GetUnsignedRoundingMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unsigned {
    /// Away from zero.
    Up,
    /// Toward zero.
    Down,
    /// To nearest, ties away from zero.
    HalfUp,
    /// To nearest, ties toward zero.
    HalfDown,
    /// To nearest, ties to an even digit.
    HalfEven,
}

impl Unsigned {
    /// The direction `mode` rounds the magnitude of a number of the given sign.
    fn of(mode: RoundingMode, negative: bool) -> Unsigned {
        use RoundingMode as M;
        match (mode, negative) {
            (M::Ceil, false) | (M::Floor, true) | (M::Expand, _) => Unsigned::Up,
            (M::Ceil, true) | (M::Floor, false) | (M::Trunc, _) => Unsigned::Down,
            (M::HalfCeil, false) | (M::HalfFloor, true) | (M::HalfExpand, _) => Unsigned::HalfUp,
            (M::HalfCeil, true) | (M::HalfFloor, false) | (M::HalfTrunc, _) => Unsigned::HalfDown,
            (M::HalfEven, _) => Unsigned::HalfEven,
        }
    }
}

impl Exact {
    /// Zero.
    fn zero() -> Exact {
        Exact {
            digits: Vec::new(),
            exp: 0,
        }
    }

    /// `digits × 10^exp`, normalized.
    fn new(mut digits: Vec<u8>, mut exp: i32) -> Exact {
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        while digits.last() == Some(&0) {
            digits.pop();
            exp += 1;
        }
        if digits.is_empty() {
            Exact::zero()
        } else {
            Exact { digits, exp }
        }
    }

    /// The shortest decimal that reads back as `x` (finite, not negative), as ICU starts from.
    fn from_f64(x: f64) -> Exact {
        if x == 0.0 || !x.is_finite() {
            return Exact::zero();
        }
        // Rust writes the shortest round-trip digits.
        let text = format!("{x:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text.as_str(), "0"));
        let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let len = i32::try_from(digits.len()).unwrap_or(1);
        Exact::new(digits, exponent - (len - 1))
    }

    /// The digits ICU's fast conversion gives `x` (finite, positive) before it needs the exact
    /// ones: about 16 significant digits from double arithmetic. ICU rounds to an increment
    /// other than 1 or 5 from these (`DecimalQuantity::_setToDoubleFast`).
    fn from_f64_fast(x: f64) -> Exact {
        /// The powers of ten a double holds exactly.
        const POWERS: [f64; 22] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
            1e19, 1e20, 1e21,
        ];
        if x == 0.0 || !x.is_finite() {
            return Exact::zero();
        }
        let exponent = i32::try_from((x.to_bits() >> 52) & 0x7ff).unwrap_or(0) - 0x3ff;
        if exponent <= 52 && x.fract() == 0.0 {
            return Exact::from_integer(x as u64, 0);
        }
        if exponent == -1023 || exponent == 1024 {
            return Exact::from_f64(x);
        }
        // log2(10): the decimal digits of the binary exponent.
        let fraction_len = (f64::from(52 - exponent) / std::f64::consts::LOG2_10) as i32;
        let mut n = x;
        let mut i = fraction_len;
        if i >= 0 {
            while i >= 22 {
                n *= 1e22;
                i -= 22;
            }
            n *= POWERS.get(usize::try_from(i).unwrap_or(0)).copied().unwrap_or(1.0);
        } else {
            while i <= -22 {
                n /= 1e22;
                i += 22;
            }
            n /= POWERS.get(usize::try_from(-i).unwrap_or(0)).copied().unwrap_or(1.0);
        }
        // ICU's uprv_round.
        let rounded = (n + 0.5).floor();
        if !(0.0..1.8e19).contains(&rounded) {
            return Exact::from_f64(x);
        }
        Exact::from_integer(rounded as u64, -fraction_len)
    }

    /// `n × 10^exp`.
    fn from_integer(n: u64, exp: i32) -> Exact {
        let digits: Vec<u8> = n.to_string().bytes().map(|b| b - b'0').collect();
        Exact::new(digits, exp)
    }

    /// Whether this is zero.
    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The magnitude of the most significant digit (0 for zero).
    fn msd(&self) -> i32 {
        if self.is_zero() {
            0
        } else {
            self.exp + i32::try_from(self.digits.len()).unwrap_or(0) - 1
        }
    }

    /// The digit at magnitude `m`.
    fn digit_at(&self, m: i32) -> u8 {
        if self.is_zero() || m < self.exp || m > self.msd() {
            return 0;
        }
        usize::try_from(self.msd() - m)
            .ok()
            .and_then(|i| self.digits.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// `self × 10^k`.
    fn shifted(&self, k: i32) -> Exact {
        if self.is_zero() {
            Exact::zero()
        } else {
            Exact {
                digits: self.digits.clone(),
                exp: self.exp + k,
            }
        }
    }

    /// `self × factor`.
    fn times(&self, factor: u8) -> Exact {
        let mut out = vec![0u8; self.digits.len() + 3];
        let mut carry = 0u32;
        let mut at = out.len();
        for &d in self.digits.iter().rev() {
            let product = u32::from(d) * u32::from(factor) + carry;
            at -= 1;
            if let Some(slot) = out.get_mut(at) {
                *slot = (product % 10) as u8;
            }
            carry = product / 10;
        }
        while carry > 0 && at > 0 {
            at -= 1;
            if let Some(slot) = out.get_mut(at) {
                *slot = (carry % 10) as u8;
            }
            carry /= 10;
        }
        Exact::new(out, self.exp)
    }

    /// Rounds to a multiple of `10^unit` in direction `mode`.
    fn round_at(&self, unit: i32, mode: Unsigned) -> Exact {
        if self.is_zero() || self.exp >= unit {
            return self.clone();
        }
        let len = self.digits.len();
        let drop = usize::try_from(unit - self.exp).unwrap_or(usize::MAX);
        let (kept, first, rest_nonzero) = if drop > len {
            // The first dropped digit lies above the number: zero, with the number after it.
            (&[][..], 0u8, true)
        } else {
            let split = len - drop;
            let first = self.digits.get(split).copied().unwrap_or(0);
            let rest = self.digits.get(split + 1..).unwrap_or(&[]);
            (
                self.digits.get(..split).unwrap_or(&[]),
                first,
                rest.iter().any(|&d| d != 0),
            )
        };
        let last_odd = kept.last().is_some_and(|&d| d % 2 == 1);
        let up = match mode {
            Unsigned::Up => first != 0 || rest_nonzero,
            Unsigned::Down => false,
            Unsigned::HalfUp => first >= 5,
            Unsigned::HalfDown => first > 5 || (first == 5 && rest_nonzero),
            Unsigned::HalfEven => first > 5 || (first == 5 && (rest_nonzero || last_odd)),
        };
        let mut digits = Vec::with_capacity(kept.len() + 1);
        digits.push(0);
        digits.extend_from_slice(kept);
        if up {
            for d in digits.iter_mut().rev() {
                if *d == 9 {
                    *d = 0;
                } else {
                    *d += 1;
                    break;
                }
            }
        }
        Exact::new(digits, unit)
    }

    /// Rounds to a multiple of `step × 10^unit` (`step` 1, 2, 5 or 25) in direction `mode`.
    fn round(&self, unit: i32, step: u8, mode: Unsigned) -> Exact {
        let (factor, shift) = match step {
            2 => (5, 1),
            5 => (2, 1),
            25 => (4, 2),
            _ => return self.round_at(unit, mode),
        };
        // self / (step × 10^unit) = self × factor × 10^(-unit - shift)
        let quotient = self.times(factor).shifted(-unit - shift).round_at(0, mode);
        quotient.times(step).shifted(unit)
    }
}

/// A rounded number and the lowest magnitude it shows (0 or below).
struct Shown {
    /// The rounded number.
    value: Exact,
    /// The magnitude of the last digit shown.
    lowest: i32,
}

/// `increment` as `step × 10^shift` with `step` 1, 2, 5 or 25.
fn split_increment(increment: u32) -> (u8, i32) {
    let mut value = increment.max(1);
    let mut shift = 0;
    while value.is_multiple_of(10) {
        value /= 10;
        shift += 1;
    }
    (u8::try_from(value).unwrap_or(1), shift)
}

/// A count of digits as a magnitude offset.
fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Digits {
    /// `ToRawFixed`: rounded to the fraction digits (and increment); its rounding magnitude.
    fn fixed(&self, x: &Exact, mode: Unsigned) -> (Shown, i32) {
        let (step, shift) = split_increment(self.increment);
        let value = x.round(shift - count(self.max_fraction), step, mode);
        let lowest_nonzero = if value.is_zero() { 0 } else { value.exp };
        let lowest = 0.min((-count(self.min_fraction)).min(lowest_nonzero.max(-count(self.max_fraction))));
        (Shown { value, lowest }, -count(self.max_fraction))
    }

    /// `ToRawPrecision`: rounded to the significant digits; its rounding magnitude.
    fn precision(&self, x: &Exact, mode: Unsigned) -> (Shown, i32) {
        let max = count(self.max_significant);
        let min = count(self.min_significant);
        let value = if x.is_zero() {
            Exact::zero()
        } else {
            x.round_at(x.msd() - max + 1, mode)
        };
        let e = value.msd();
        let lowest_nonzero = if value.is_zero() { e } else { value.exp };
        let lowest = 0.min((e - min + 1).min(lowest_nonzero.max(e - max + 1)));
        (Shown { value, lowest }, e - max + 1)
    }

    /// `FormatNumericToString`'s rounding of the magnitude `x` of a number.
    fn round(&self, x: &Exact, negative: bool) -> Shown {
        let mode = Unsigned::of(self.mode, negative);
        let mut shown = match self.rounding {
            RoundingType::FractionDigits => self.fixed(x, mode).0,
            RoundingType::SignificantDigits => self.precision(x, mode).0,
            RoundingType::MorePrecision | RoundingType::LessPrecision => {
                let (significant, significant_magnitude) = self.precision(x, mode);
                let (fixed, fixed_magnitude) = self.fixed(x, mode);
                let significant_wins = significant_magnitude <= fixed_magnitude;
                if significant_wins == (self.rounding == RoundingType::MorePrecision) {
                    significant
                } else {
                    fixed
                }
            }
        };
        if self.strip_if_integer && (shown.value.is_zero() || shown.value.exp >= 0) {
            shown.lowest = 0;
        }
        shown
    }
}

// ------------------------------------------------------------------------------------------
// Number formats: writing the number.
// ------------------------------------------------------------------------------------------

/// Which sign a formatted number shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    /// No sign.
    None,
    /// The minus sign.
    Minus,
    /// The plus sign.
    Plus,
}

/// The sign `display` shows for a number that is `negative` (`-0` included) and whose rounded
/// value is `zero`.
fn sign_of(display: SignDisplay, negative: bool, zero: bool, nan: bool) -> Sign {
    if nan {
        return if display == SignDisplay::Always {
            Sign::Plus
        } else {
            Sign::None
        };
    }
    match display {
        SignDisplay::Auto => {
            if negative {
                Sign::Minus
            } else {
                Sign::None
            }
        }
        SignDisplay::Always => {
            if negative {
                Sign::Minus
            } else {
                Sign::Plus
            }
        }
        SignDisplay::Never => Sign::None,
        SignDisplay::ExceptZero if zero => Sign::None,
        SignDisplay::ExceptZero => {
            if negative {
                Sign::Minus
            } else {
                Sign::Plus
            }
        }
        SignDisplay::Negative if negative && !zero => Sign::Minus,
        SignDisplay::Negative => Sign::None,
    }
}

/// Writes `shown` with the locale's digits, separators and grouping; also returns it in ASCII
/// (`"1234.50"`), which decides the plural form of a currency name.
fn write_digits(symbols: &Symbols, shown: &Shown, grouping: Grouping, min_integer: u32) -> (String, String) {
    let value = &shown.value;
    let top = value.msd().max(0).max(count(min_integer) - 1);
    let integer_len = usize::try_from(top + 1).unwrap_or(1);
    let min_grouping = match grouping {
        Grouping::Auto => Some(symbols.min_grouping),
        Grouping::Always => Some(1),
        Grouping::Min2 => Some(2),
        Grouping::Never => None,
    };
    let grouped = symbols.primary > 0 && min_grouping.is_some_and(|min| integer_len >= symbols.primary + min);
    let primary = i32::try_from(symbols.primary).unwrap_or(i32::MAX);
    let secondary = i32::try_from(symbols.secondary.max(1)).unwrap_or(1);
    let mut text = String::new();
    let mut ascii = String::new();
    for m in (0..=top).rev() {
        let digit = value.digit_at(m);
        text.push(symbols.digits.get(usize::from(digit)).copied().unwrap_or('0'));
        ascii.push(char::from(b'0' + digit));
        if grouped && m >= primary && (m - primary) % secondary == 0 {
            text.push_str(&symbols.group);
        }
    }
    if shown.lowest < 0 {
        text.push_str(&symbols.decimal);
        ascii.push('.');
        for m in (shown.lowest..0).rev() {
            let digit = value.digit_at(m);
            text.push(symbols.digits.get(usize::from(digit)).copied().unwrap_or('0'));
            ascii.push(char::from(b'0' + digit));
        }
    }
    (text, ascii)
}

/// `pattern` with the number put in; the currency too, spaced from the number as ICU spaces
/// it: a no-break space between a digit and a symbol edge that is neither a symbol nor a space.
fn fill(pattern: &str, number: &str, currency: &str, spacing: bool) -> String {
    let categories = CodePointMapData::<GeneralCategory>::new();
    let spaced = |symbol_edge: Option<char>, number_edge: Option<char>| {
        let symbol_ok = symbol_edge.is_some_and(|c| {
            !matches!(
                categories.get(c),
                GeneralCategory::MathSymbol
                    | GeneralCategory::CurrencySymbol
                    | GeneralCategory::ModifierSymbol
                    | GeneralCategory::OtherSymbol
                    | GeneralCategory::SpaceSeparator
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            )
        });
        let number_ok = number_edge.is_some_and(|c| categories.get(c) == GeneralCategory::DecimalNumber);
        symbol_ok && number_ok
    };
    let mut out = String::with_capacity(pattern.len() + number.len() + currency.len() + 2);
    let mut chars = pattern.chars().peekable();
    let mut previous: Option<char> = None;
    while let Some(c) = chars.next() {
        match c {
            NUMBER_MARK => {
                if spacing
                    && previous == Some(CURRENCY_MARK)
                    && spaced(currency.chars().next_back(), number.chars().next())
                {
                    out.push('\u{a0}');
                }
                out.push_str(number);
                if spacing
                    && chars.peek() == Some(&CURRENCY_MARK)
                    && spaced(currency.chars().next(), number.chars().next_back())
                {
                    out.push('\u{a0}');
                }
            }
            CURRENCY_MARK => out.push_str(currency),
            other => out.push(other),
        }
        previous = Some(c);
    }
    out
}

/// The locale whose plural rules ICU applies: CLDR's rules are per language, and ICU finds
/// them by shortening the tag, so only `pt-PT` itself has rules of its own.
fn plural_locale(locale: &Locale) -> Locale {
    let mut plural = Locale::UNKNOWN;
    plural.id.language = locale.id.language;
    if locale.id.language.as_str() == "pt" && locale.id.region.is_some_and(|region| region.as_str() == "PT") {
        plural.id.region = locale.id.region;
    }
    plural
}

/// The number ICU picks a plural form by: its integer part keeps only its lowest 18 digits
/// (ICU's operands hold the integer in 64 bits), so 10^21 reads as 0.
fn plural_digits(ascii: &str) -> String {
    let (integer, fraction) = ascii.split_once('.').unwrap_or((ascii, ""));
    let low = integer.get(integer.len().saturating_sub(18)..).unwrap_or(integer);
    let low = low.trim_start_matches('0');
    let low = if low.is_empty() { "0" } else { low };
    if fraction.is_empty() {
        low.to_owned()
    } else {
        format!("{low}.{fraction}")
    }
}

impl NumberFormat {
    /// Formats `x`, charging the text it writes before it is built.
    fn format(&self, cx: &mut Cx<'_>, x: f64) -> Result<Str> {
        let text = self.write(x)?;
        let len = text.encode_utf16().count();
        cx.text(len)?;
        cx.string(len)?;
        Ok(Str::from(text))
    }

    /// The formatted text of `x`.
    fn write(&self, x: f64) -> Result<String> {
        let data = &*self.data;
        let symbols = match &data.style {
            StyleData::Currency { symbols, .. } => symbols,
            _ => &data.symbols,
        };
        let negative = x.is_sign_negative() && !x.is_nan();
        let (body, ascii, zero) = if x.is_nan() {
            let Some(nan) = &data.nan else {
                return Err(Error::guardrail(
                    "writ does not know how this locale and numbering system write NaN; check Number.isNaN(n) first",
                ));
            };
            (nan.clone(), None, false)
        } else if x.is_infinite() {
            ("∞".to_owned(), None, false)
        } else {
            let mut exact = if matches!(self.digits.increment, 1 | 5) {
                Exact::from_f64(x.abs())
            } else {
                Exact::from_f64_fast(x.abs())
            };
            if self.style == Style::Percent {
                exact = exact.shifted(2);
            }
            let shown = self.digits.round(&exact, negative);
            let slot = match (self.style, self.accounting) {
                // A currency name goes with the decimal pattern's grouping.
                (Style::Currency, _) if matches!(&data.style, StyleData::Currency { text, .. } if matches!(**text, CurrencyText::Name { .. })) => {
                    None
                }
                (Style::Percent, _) => Some(0),
                (Style::Currency, false) => Some(1),
                (Style::Currency, true) => Some(2),
                (Style::Decimal, _) => None,
            };
            let mut grouped = symbols.clone();
            if let Some((primary, secondary)) = slot.and_then(|slot| data.style_groups.get(slot).copied().flatten()) {
                grouped.primary = primary;
                grouped.secondary = secondary;
            }
            let (text, ascii) = write_digits(&grouped, &shown, self.grouping, self.digits.min_integer);
            (text, Some(ascii), shown.value.is_zero())
        };
        let sign = sign_of(self.sign, negative, zero, x.is_nan());
        let signed = |body: &str| match sign {
            Sign::None => body.to_owned(),
            Sign::Minus => format!("{}{body}{}", symbols.minus.0, symbols.minus.1),
            Sign::Plus => format!("{}{body}{}", symbols.plus.0, symbols.plus.1),
        };
        let pick = |patterns: &SignedPatterns| -> String {
            match sign {
                Sign::None => patterns.positive.clone(),
                Sign::Minus => patterns.negative.clone(),
                Sign::Plus => patterns.plus.clone(),
            }
        };
        Ok(match &data.style {
            StyleData::Decimal => signed(&body),
            StyleData::Percent(patterns) => fill(&pick(patterns), &body, "", false),
            StyleData::Currency { text, .. } => match &**text {
                CurrencyText::Symbol {
                    symbol,
                    standard,
                    accounting,
                } => {
                    let patterns = if self.accounting { accounting } else { standard };
                    fill(&pick(patterns), &body, symbol, true)
                }
                CurrencyText::Name {
                    locale,
                    names,
                    patterns,
                } => {
                    let category = match &ascii {
                        Some(ascii) => PluralRules::try_new_cardinal(locale.into())
                            .map(|rules| rules.category_for(&decimal(&plural_digits(ascii))))
                            .unwrap_or(PluralCategory::Other),
                        None => PluralCategory::Other,
                    };
                    let Some((_, name)) = names.iter().find(|(known, _)| *known == category) else {
                        return Err(Error::guardrail(format!(
                            "writ does not know the {} form of this currency name in the locale \"{locale}\" (for \
                             the amount {}); use currencyDisplay: \"code\" or \"symbol\"",
                            category_name(category),
                            ascii.as_deref().unwrap_or("")
                        )));
                    };
                    let default = format!("{NUMBER_MARK} {CURRENCY_MARK}");
                    let pattern = patterns
                        .iter()
                        .find(|(known, _)| *known == category)
                        .map_or(default.as_str(), |(_, p)| p);
                    fill(pattern, &signed(&body), name, false)
                }
            },
        })
    }
}

// ------------------------------------------------------------------------------------------
// Collation.
// ------------------------------------------------------------------------------------------

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
        if let Ok(at) = COLLATOR_LOCALES.binary_search(&candidate) {
            return COLLATOR_LOCALES.get(at).copied();
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
        if ICU4X_LACKS.binary_search(&locale.id.language.as_str()).is_ok() {
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
    let (collator, built) = cached_with_flag(&COLLATORS, &primary.key(), || primary.build())?;
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

// ------------------------------------------------------------------------------------------
// Caches.
// ------------------------------------------------------------------------------------------

/// Built formatters or collators of one kind, oldest dropped first.
struct Cache<T> {
    /// Oldest first.
    entries: VecDeque<(String, Arc<T>)>,
}

impl<T> Cache<T> {
    /// An empty cache.
    const fn new() -> Cache<T> {
        Cache {
            entries: VecDeque::new(),
        }
    }
}

/// Number data per locale, style and currency.
static NUMBER_DATA: Mutex<Cache<NumberData>> = Mutex::new(Cache::new());

/// Collators per locale and options.
static COLLATORS: Mutex<Cache<CollatorBorrowed<'static>>> = Mutex::new(Cache::new());

/// Resolved number formats per locale and option arguments.
static FORMATS: Mutex<Cache<NumberFormat>> = Mutex::new(Cache::new());

/// Resolved collator settings per locale and option arguments.
static SPECS: Mutex<Cache<CollatorSpec>> = Mutex::new(Cache::new());

/// The entry for `key`, if the cache has it.
fn lookup<T>(cache: &Mutex<Cache<T>>, key: &str) -> Option<Arc<T>> {
    lock(cache)
        .entries
        .iter()
        .find(|(known, _)| known == key)
        .map(|(_, value)| Arc::clone(value))
}

/// Keeps `value` for `key`, dropping the oldest entry when the cache is full.
fn store<T>(cache: &Mutex<Cache<T>>, key: String, value: Arc<T>) {
    let mut guard = lock(cache);
    if guard.entries.iter().any(|(known, _)| *known == key) {
        return;
    }
    if guard.entries.len() >= CACHE_SIZE {
        guard.entries.pop_front();
    }
    guard.entries.push_back((key, value));
}

/// The cache, even if a thread panicked while holding it (entries are whole values).
fn lock<T>(cache: &Mutex<Cache<T>>) -> std::sync::MutexGuard<'_, Cache<T>> {
    cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The entry for `key`, built with `build` if missing; also whether it was built.
fn cached_with_flag<T>(
    cache: &Mutex<Cache<T>>,
    key: &str,
    build: impl FnOnce() -> Result<T>,
) -> Result<(Arc<T>, bool)> {
    if let Some(hit) = lookup(cache, key) {
        return Ok((hit, false));
    }
    // Built outside the lock: another evaluation may build the same entry meanwhile.
    let built = Arc::new(build()?);
    store(cache, key.to_owned(), Arc::clone(&built));
    Ok((built, true))
}

// ------------------------------------------------------------------------------------------
// Facts about node 20's ICU 78 (CLDR 48).
// ------------------------------------------------------------------------------------------

/// The languages node formats numbers for; a tag in another language falls to the next one.
#[rustfmt::skip]
const NODE_LANGUAGES: &[&str] = &[
    "af", "agq", "ak", "am", "ar", "ars", "as", "asa", "ast", "az", "ba", "bas", "be", "bem", "bez", "bg", "bgc",
    "bho", "blo", "bm", "bn", "bo", "br", "brx", "bs", "bua", "ca", "ccp", "ce", "ceb", "cgg", "chr", "ckb", "cs",
    "csw", "cv", "cy", "da", "dav", "de", "dje", "doi", "dsb", "dua", "dyo", "dz", "ebu", "ee", "el", "en", "eo",
    "es", "et", "eu", "ewo", "fa", "ff", "fi", "fil", "fo", "fr", "fur", "fy", "ga", "gaa", "gd", "gl", "gsw", "gu",
    "guz", "gv", "ha", "haw", "he", "hi", "hr", "hsb", "hu", "hy", "ia", "id", "ie", "ig", "ii", "is", "it", "ja",
    "jgo", "jmc", "jv", "ka", "kab", "kam", "kde", "kea", "kgp", "khq", "ki", "kk", "kkj", "kl", "kln", "km", "kn",
    "ko", "kok", "ks", "ksb", "ksf", "ksh", "ku", "kw", "kxv", "ky", "lb", "lg", "lij", "lmo", "ln", "lo", "lrc",
    "lt", "lu", "luo", "luy", "lv", "mai", "mas", "mer", "mfe", "mg", "mgh", "mi", "mk", "ml", "mn", "mni", "mr",
    "ms", "mt", "mua", "my", "mzn", "naq", "nb", "nd", "nds", "ne", "nl", "nmg", "nn", "nnh", "no", "nqo", "nso",
    "nus", "nyn", "oc", "om", "or", "os", "pa", "pcm", "pl", "pms", "prg", "ps", "pt", "qu", "raj", "rm", "rn", "ro",
    "rof", "ru", "rw", "rwk", "sa", "sah", "saq", "sat", "sbp", "sc", "scn", "sd", "se", "seh", "ses", "sg", "shi",
    "shn", "si", "sk", "sl", "smn", "sn", "so", "sq", "sr", "st", "su", "sv", "sw", "syr", "szl", "ta", "te", "teo",
    "tg", "th", "ti", "tk", "tn", "to", "tok", "tr", "tt", "twq", "tyv", "tzm", "ug", "uk", "ur", "uz", "vai", "vec",
    "vi", "vmw", "vun", "wae", "wo", "xh", "xnr", "xog", "yav", "yi", "yo", "yrl", "yue", "zgh", "zh", "zu",
];

/// The languages of [`NODE_LANGUAGES`] ICU4X's compiled data has nothing for.
#[rustfmt::skip]
const ICU4X_LACKS: &[&str] = &[
    "agq", "ars", "asa", "bas", "bem", "bez", "bm", "bo", "ccp", "ce", "cgg", "dav", "dje", "dua", "dyo", "dz", "ebu",
    "ewo", "ff", "fur", "gsw", "guz", "gv", "haw", "jgo", "jmc", "kab", "kam", "kde", "khq", "kkj", "kl", "kln",
    "ksb", "ksf", "kw", "lg", "ln", "lrc", "lu", "luo", "luy", "mas", "mer", "mfe", "mg", "mgh", "mua", "mzn", "naq",
    "nd", "nmg", "nnh", "nus", "nyn", "os", "rn", "rof", "rwk", "saq", "sbp", "se", "seh", "ses", "sg", "shi", "smn",
    "sn", "teo", "tok", "twq", "tzm", "vai", "vun", "wae", "xog", "yav", "yi", "zgh",
];

/// The language-script pairs node has locales for; another script resolves to the language.
#[rustfmt::skip]
const SCRIPT_LOCALES: &[&str] = &[
    "az-Cyrl", "az-Latn", "bs-Cyrl", "bs-Latn", "ff-Adlm", "ff-Latn", "hi-Latn", "kk-Arab", "kk-Cyrl", "kok-Deva",
    "kok-Latn", "ks-Arab", "ks-Deva", "ku-Latn", "kxv-Deva", "kxv-Latn", "kxv-Orya", "kxv-Telu", "mni-Beng",
    "pa-Arab", "pa-Guru", "sat-Olck", "sd-Arab", "sd-Deva", "shi-Latn", "shi-Tfng", "sr-Cyrl", "sr-Latn", "su-Latn",
    "uz-Arab", "uz-Cyrl", "uz-Latn", "vai-Latn", "vai-Vaii", "yue-Hans", "yue-Hant", "zh-Hans", "zh-Hant",
];

/// The locales node's collator has; a tag resolves to the longest of them it starts with.
#[rustfmt::skip]
const COLLATOR_LOCALES: &[&str] = &[
    "af", "am", "ar", "ar-SA", "as", "az", "be", "bg", "blo", "bn", "bo", "br", "bs", "bs-Cyrl", "ca", "ceb", "chr",
    "cs", "cy", "da", "de", "de-AT", "dsb", "dz", "ee", "el", "en", "en-US", "eo", "es", "et", "fa", "fa-AF", "ff",
    "ff-Adlm", "fi", "fil", "fo", "fr", "fr-CA", "fy", "ga", "gl", "gu", "ha", "haw", "he", "he-IL", "hi", "hr",
    "hsb", "hu", "hy", "id", "id-ID", "ig", "is", "it", "ja", "ka", "kk", "kk-Arab", "kl", "km", "kn", "ko", "kok",
    "ku", "ky", "lb", "lij", "lkt", "ln", "lo", "lt", "lv", "mk", "ml", "mn", "mr", "ms", "mt", "my", "nb", "nb-NO",
    "ne", "nl", "nn", "no", "nso", "om", "or", "pa", "pa-Guru", "pa-Guru-IN", "pa-IN", "pl", "ps", "pt", "ro", "ru",
    "sa", "se", "si", "sk", "sl", "smn", "sq", "sr", "sr-BA", "sr-Cyrl", "sr-Cyrl-BA", "sr-Cyrl-ME", "sr-Cyrl-RS",
    "sr-Latn", "sr-Latn-BA", "sr-Latn-RS", "sr-ME", "sr-RS", "st", "sv", "sw", "ta", "te", "th", "tk", "tn", "to",
    "tr", "ug", "uk", "ur", "uz", "vi", "wae", "wo", "xh", "yi", "yo", "zh", "zh-CN", "zh-HK", "zh-Hans",
    "zh-Hans-CN", "zh-Hans-SG", "zh-Hant", "zh-Hant-HK", "zh-Hant-MO", "zh-Hant-TW", "zh-MO", "zh-SG", "zh-TW", "zu",
];

/// The group sizes of a style's CLDR pattern where they are not the decimal pattern's (Indian
/// grouping for decimals, Western for percentages or currencies), per locale.
const STYLE_GROUPING: &[(&str, &str)] = &[
    ("as", "accounting=3,3"),
    ("blo", "percent=2,2"),
    ("bn", "percent=3,3"),
    ("brx", "accounting=3,3"),
    ("en-IN", "accounting=3,3"),
    ("hi-Latn", ""),
    ("kok", "percent=3,3"),
    ("kok-Deva", "percent=3,3"),
    ("kok-Latn", "percent=3,3"),
    ("kxv", "percent=3,3;accounting=3,3"),
    ("kxv-Deva", "percent=3,3"),
    ("kxv-Latn", "percent=3,3;accounting=3,3"),
    ("kxv-Orya", "percent=3,3"),
    ("kxv-Telu", "percent=3,3"),
    ("ml", "percent=3,3;currency=3,3;accounting=3,3"),
    ("mr", "percent=3,3;currency=3,3;accounting=3,3"),
    ("or", "percent=3,3;currency=3,3;accounting=3,3"),
    ("pa", "accounting=3,3"),
    ("pa-Guru", "accounting=3,3"),
    ("sa", "accounting=3,3"),
    ("ta", "accounting=3,3"),
    ("ta-MY", ""),
    ("ta-SG", ""),
    ("te", "percent=3,3;accounting=3,3"),
];

/// The styles whose CLDR 48 data in node differs from ICU4X's CLDR 49 data in a way writ
/// cannot correct, per locale: `decimal` (the symbols, so every style), `percent`, `currency`
/// and `accounting`. Formatting them is refused.
const DIVERGENT_STYLES: &[(&str, &str)] = &[
    ("ar-BH", "percent"),
    ("ar-DJ", "percent"),
    ("ar-EG", "percent"),
    ("ar-ER", "percent"),
    ("ar-IL", "percent"),
    ("ar-IQ", "percent"),
    ("ar-JO", "percent"),
    ("ar-KM", "percent"),
    ("ar-KW", "percent"),
    ("ar-LB", "percent"),
    ("ar-MR", "percent"),
    ("ar-OM", "percent"),
    ("ar-PS", "percent"),
    ("ar-QA", "percent"),
    ("ar-SA", "percent"),
    ("ar-SD", "percent"),
    ("ar-SO", "percent"),
    ("ar-SS", "percent"),
    ("ar-SY", "percent"),
    ("ar-TD", "percent"),
    ("ar-YE", "percent"),
    ("az-Cyrl", "accounting currency decimal percent"),
    ("ba", "accounting currency decimal"),
    ("blo", "accounting currency decimal percent"),
    ("bn-IN", "accounting currency decimal percent"),
    ("ckb", "percent"),
    ("de-AT", "accounting currency name"),
    ("en-150", "accounting currency"),
    ("en-AT", ""),
    ("fa", "accounting percent"),
    ("fa-AF", "percent"),
    ("fr-CH", "accounting currency decimal percent"),
    ("fr-RW", "accounting currency decimal percent"),
    ("gl", "accounting currency decimal percent"),
    ("hi-Latn", "accounting"),
    ("kea-CV", "accounting currency"),
    ("kk-Arab", "accounting currency decimal percent"),
    ("kok-Latn", "percent"),
    ("ks", "percent"),
    ("ks-Arab", "percent"),
    ("lij", "accounting"),
    ("pa-Arab", "accounting currency decimal percent"),
    ("ps", "percent"),
    ("pt-CV", "accounting currency"),
    ("sd", "percent"),
    ("sd-Arab", "percent"),
    ("ta", "currency"),
    ("ta-MY", ""),
    ("ta-SG", ""),
    ("tn", "accounting currency decimal percent"),
    ("to", "accounting currency decimal percent"),
    ("tr-TR", "accounting"),
    ("tyv", "accounting currency"),
    ("ur", "percent"),
    ("uz", "accounting"),
    ("uz-Arab", "accounting currency decimal percent"),
    ("uz-Latn", "accounting"),
];

/// Languages whose plural rules differ between node's CLDR 48 and ICU4X's CLDR 49 (or that
/// ICU4X has none for): a currency name, which follows the plural form, is refused.
#[rustfmt::skip]
const PLURALS_DIFFER: &[&str] = &[
    "ba", "bgc", "bua", "gaa", "gl", "kgp", "ki", "kxv", "lmo", "mai", "mi", "mni", "nds", "oc", "pms", "qu", "raj",
    "rw", "sa", "shn", "szl", "tg", "tt", "tyv", "vi", "vmw", "xnr", "yrl",
];

/// Currency symbols node's CLDR 48 writes differently from ICU4X's CLDR 49, per locale (and the
/// locales that inherit from it): the short list, then the narrow one. A bare code means the
/// locale writes the code; `XYZ=text` gives the symbol.
const CURRENCY_SYMBOL_FIXES: &[(&str, (&str, &str))] = &[
    ("af", ("CAD MXN PHP USD", "CHF")),
    ("am", ("PHP", "CHF")),
    ("ar", ("PHP", "CHF")),
    ("ar-LB", ("PHP SDG", "CHF SDG")),
    ("as", ("PHP", "CHF")),
    ("ast", ("PHP", "CHF DKK HRK ISK NOK PLN SEK")),
    ("az", ("PHP", "CHF")),
    ("az-Cyrl", ("AZN=₼", "CHF")),
    ("az-Latn", ("PHP", "CHF")),
    ("be", ("BRL CAD NZD PHP", "CHF")),
    (
        "bg",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD VND XCD",
            "AMD ARS AUD AZN BBD BDT BMD BND BRL BSD BZD CAD CHF CLP CNY COP CRC CUP DOP FJD FKP GHS GIP GYD HKD ILS INR JMD KHR KRW KYD KZT LAK LRD MNT MXN NAD NGN NZD PHP PYG RON SBD SGD SRD SSP TRY TTD TWD UAH UYU VND",
        ),
    ),
    ("bn", ("PHP", "CHF")),
    ("br", ("BRL CNY ILS JPY KRW PHP TWD VND XCD", "CHF")),
    ("brx", ("", "CHF=स\u{93f}.ऐत\u{94d}स.एफ")),
    ("bs", ("AUD BRL CAD CNY GBP HKD ILS MXN NZD PHP USD XCD XPF", "CHF XPF")),
    (
        "bs-Latn",
        ("AUD BRL CAD CNY GBP HKD ILS MXN NZD PHP USD XCD XPF", "CHF XPF"),
    ),
    ("ca", ("BRL CAD CNY MXN PHP USD XCD XCG", "CHF XCG")),
    ("chr", ("PHP", "CHF")),
    ("cs", ("ILS INR PHP VND", "CHF")),
    ("cy", ("KRW PHP", "BWP CHF ZAR ZMW")),
    ("da", ("PHP", "CHF")),
    ("de", ("PHP", "CHF SYP")),
    ("de-CH", ("EUR PHP", "CHF EUR SYP")),
    ("de-LI", ("EUR PHP", "CHF SYP")),
    ("dsb", ("AUD", "CHF")),
    ("el", ("PHP", "CHF")),
    (
        "en-AU",
        (
            "BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "eo",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XCG XOF XPF",
            "CHF XAF XCG XOF XPF",
        ),
    ),
    (
        "es",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD XAF XCD XOF",
            "CHF EGP XAF XOF",
        ),
    ),
    (
        "es-419",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD USD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-AR",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-BR",
        (
            "AUD CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD USD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-CL",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-CO",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-CU",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-DO",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-EC",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-GQ",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD XCD XOF",
            "CHF EGP XOF",
        ),
    ),
    (
        "es-MX",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW NZD PHP THB TWD USD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-PH",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD TWD XAF XCD XOF",
            "CHF EGP XAF XOF",
        ),
    ),
    (
        "es-PR",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-SV",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-US",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    (
        "es-UY",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP THB TWD VND XAF XCD XOF",
            "CHF XAF XOF",
        ),
    ),
    ("et", ("PHP", "CHF")),
    ("eu", ("PHP", "CHF")),
    ("fa", ("PHP", "CHF")),
    (
        "fi",
        (
            "AUD BRL CAD CNY HKD ILS INR KRW MXN NZD PHP TWD VND XCD XPF",
            "AOA ARS AUD BAM BBD BDT BMD BND BOB BRL BSD BWP BZD CAD CHF CLP CNY COP CRC CUC CUP CZK DKK DOP EGP FJD FKP GEL GIP GNF GTQ GYD HKD HNL HRK HUF IDR ILS INR ISK JMD KHR KMF KPW KRW KYD KZT LAK LBP LKR LRD MGA MMK MNT MUR MXN MYR NAD NGN NIO NOK NPR NZD PHP PKR PLN PYG RON RWF SBD SEK SGD SHP SRD SSP SYP THB TOP TRY TTD TWD UAH UYU VND XCD XPF ZAR ZMW",
        ),
    ),
    ("fo", ("PHP", "CHF")),
    ("fr", ("CNY HKD JPY PHP TWD XCD", "CHF")),
    (
        "fr-CA",
        (
            "ARS BMD BND BZD CLP COP FJD FKP GIP ILS INR KRW LBP MXN NAD PHP SBD SRD TTD TWD UYU VND WST XAF XCD XOF XPF",
            "CHF GEL WST XAF XOF XPF",
        ),
    ),
    ("fy", ("XPF", "CHF XPF")),
    ("gd", ("PHP", "CHF")),
    ("gl", ("PHP XCD", "CHF")),
    ("gu", ("PHP", "CHF")),
    ("he", ("PHP", "CHF")),
    ("hi", ("PHP", "CHF")),
    (
        "hr",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XCD XPF",
            "CHF XPF",
        ),
    ),
    ("hsb", ("AUD", "CHF")),
    (
        "hu",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR KRW MXN NZD PHP TWD USD VND XCD",
            "CHF",
        ),
    ),
    ("hy", ("PHP", "CHF")),
    ("id", ("PHP", "CHF")),
    (
        "is",
        ("AUD BRL CAD EUR GBP INR KRW MXN NZD PHP TWD USD VND XCG", "CHF XCG"),
    ),
    ("it", ("BRL HKD INR JPY KRW MXN TWD USD VND", "CHF")),
    ("ja", ("PHP", "CHF")),
    ("ka", ("AUD CNY HKD ILS INR JPY KRW NZD PHP VND", "CHF")),
    ("kgp", ("PHP", "CHF")),
    ("kk", ("PHP", "CHF")),
    ("kk-Cyrl", ("PHP", "CHF")),
    ("km", ("PHP", "CHF")),
    ("kn", ("PHP", "CHF")),
    ("ko", ("PHP", "CHF")),
    ("kok", ("PHP", "CHF")),
    ("kok-Deva", ("PHP", "CHF")),
    ("ky", ("AUD BRL CAD GBP HKD ILS INR KRW MXN NZD PHP TWD USD XCD", "CHF")),
    ("lb", ("PHP", "CHF")),
    ("lo", ("PHP", "CHF")),
    (
        "lt",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XOF XPF",
            "BDT CHF ILS INR KHR LAK MNT VND XAF XOF XPF",
        ),
    ),
    ("lv", ("PHP", "CHF GHS")),
    ("mk", ("AUD CNY GBP HKD ILS INR JPY KRW NZD PHP TWD VND", "CHF")),
    ("ml", ("PHP", "CHF")),
    ("mn", ("PHP", "CHF")),
    ("mr", ("PHP", "CHF")),
    ("ms", ("CAD MXN PHP USD", "CHF")),
    ("mt", ("PHP", "CHF")),
    ("ne", ("PHP", "CHF")),
    ("nl", ("PHP XPF", "BYN=р. CHF XPF")),
    (
        "nn",
        (
            "AUD BRL CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XPF",
            "CHF XAF XPF",
        ),
    ),
    (
        "no",
        (
            "AUD BRL CAD CNY HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XPF",
            "CHF XAF XPF",
        ),
    ),
    ("nqo", ("", "CHF=ߛߥߝ")),
    ("or", ("PHP", "CHF")),
    ("pa", ("PHP", "CHF")),
    ("pa-Arab", ("PKR=ر", "CHF")),
    ("pa-Guru", ("PHP", "CHF")),
    ("pcm", ("PHP", "CHF")),
    (
        "pl",
        (
            "AUD CAD CNY GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XCG",
            "CHF XCG",
        ),
    ),
    ("pt", ("PHP", "CHF")),
    ("qu", ("PHP", "CHF")),
    ("qu-BO", ("PEN PHP", "CHF PEN")),
    ("qu-EC", ("PEN PHP", "CHF PEN")),
    (
        "ro",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XCD",
            "CHF",
        ),
    ),
    ("root", ("", "CHF")),
    ("ru", ("PHP", "CHF")),
    ("sd", ("PHP", "CHF")),
    ("sd-Arab", ("PHP", "CHF")),
    ("si", ("PHP", "CHF")),
    ("sk", ("AUD BRL CAD CNY GBP HKD INR JPY KRW NZD PHP TWD USD VND", "CHF")),
    ("sl", ("AUD BRL CAD GBP MXN NZD PHP TWD XCD", "CHF")),
    (
        "sq",
        (
            "BRL PHP",
            "AFN AMD AOA ARS AUD AZN BAM BBD BDT BMD BND BOB BRL BSD BWP BZD CAD CHF CLP CNY COP CRC CUC CUP CZK DKK DOP EGP FJD FKP GBP GEL GIP GNF GTQ GYD HNL HRK HUF IDR ILS INR ISK JMD JPY KHR KMF KPW KRW KYD KZT LAK LBP LKR LRD MGA MMK MNT MUR MXN MYR NAD NGN NIO NOK NPR NZD PHP PKR PLN PYG RON RUB RWF SBD SEK SGD SHP SRD SSP STN SYP THB TOP TRY TTD TWD UAH USD UYU VND XCD ZAR ZMW",
        ),
    ),
    ("sr", ("AUD KRW NZD PHP VND", "CHF")),
    ("sr-Cyrl", ("AUD KRW NZD PHP VND", "CHF")),
    ("sr-Cyrl-ME", ("AUD BAM=KM KRW NZD PHP VND", "BYN=r. CHF")),
    ("sr-Latn", ("AUD KRW NZD PHP VND", "CHF")),
    ("sv", ("AUD CNY GBP HKD INR JPY KRW NZD PHP TWD VND XCG", "CHF XCG")),
    ("sw", ("PHP", "CHF")),
    ("ta", ("PHP", "CHF")),
    ("te", ("PHP", "CHF")),
    ("th", ("PHP", "CHF")),
    ("ti", ("CNY JPY", "CHF")),
    ("tk", ("EUR GBP PHP", "CHF")),
    ("tr", ("PHP", "CHF")),
    (
        "uk",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR KRW MXN NZD PHP TWD USD VND XCD",
            "CHF",
        ),
    ),
    ("ur", ("PHP", "CHF")),
    ("ur-IN", ("PHP PKR", "CHF")),
    ("uz", ("PHP", "CHF")),
    ("uz-Arab", ("AFN=؋", "CHF")),
    ("uz-Latn", ("PHP", "CHF")),
    (
        "vec",
        (
            "AUD BRL CAD CNY EUR GBP HKD ILS INR JPY KRW MXN NZD PHP TWD USD VND XAF XCD XOF XPF",
            "CHF XAF XOF XPF",
        ),
    ),
    ("vi", ("PHP", "CHF")),
    ("yrl", ("PHP", "CHF COP")),
    ("yue", ("PHP", "CHF")),
    ("yue-Hans", ("PHP", "CHF")),
    ("yue-Hant", ("PHP", "CHF")),
    ("zh", ("PHP", "CHF")),
    ("zh-Hans", ("PHP", "CHF")),
    ("zh-Hant", ("PHP", "CHF")),
    ("zu", ("PHP", "CHF")),
];

/// The patterns that place a currency name, per plural category, where they are not
/// `"{0} {1}"` (ICU4X only has the root's).
const CURRENCY_NAME_PATTERNS: &[(&str, &str)] = &[
    ("ba", ""),
    ("bgc", ""),
    ("blo", "one={1} {0};other={1} {0};zero={1} {0}"),
    ("br", ""),
    ("bs-Cyrl", ""),
    ("bua", ""),
    ("ceb", "other={1} {0}"),
    ("ee", "other={1} {0}"),
    ("en-AT", "one=US$\u{a0}{0} {1};other=US$\u{a0}{0} {1}"),
    ("en-BE", "one=US${0} {1};other=US${0} {1}"),
    ("en-DE", "one=US${0} {1};other=US${0} {1}"),
    ("en-EE", "one=US${0} {1};other=US${0} {1}"),
    ("en-ES", "one=US${0} {1};other=US${0} {1}"),
    ("en-FI", "one=US${0} {1};other=US${0} {1}"),
    ("en-FR", "one=US${0} {1};other=US${0} {1}"),
    ("en-IT", "one=US${0} {1};other=US${0} {1}"),
    ("en-LT", "one=US${0} {1};other=US${0} {1}"),
    ("en-LV", "one=US${0} {1};other=US${0} {1}"),
    ("en-NL", "one=US${0} {1};other=US${0} {1}"),
    ("en-PT", "one=US${0} {1};other=US${0} {1}"),
    ("en-SI", "one=US${0} {1};other=US${0} {1}"),
    ("en-SK", "one=US${0} {1};other=US${0} {1}"),
    ("fr-CA", "many={0}\u{a0}{1};one={0}\u{a0}{1};other={0}\u{a0}{1}"),
    ("gaa", ""),
    ("hi-Latn", ""),
    ("ja", "other={0}{1}"),
    ("kea-CV", "other={0}\u{a0}US$ {1}"),
    ("kgp", ""),
    ("ki", ""),
    ("ks-Deva", ""),
    ("kxv", ""),
    ("kxv-Deva", ""),
    ("kxv-Latn", ""),
    ("kxv-Orya", ""),
    ("kxv-Telu", ""),
    ("lmo", ""),
    ("mai", ""),
    ("mi", ""),
    ("mni", ""),
    ("mni-Beng", ""),
    ("nds", ""),
    ("oc", ""),
    ("pms", ""),
    ("pt-AO", ""),
    ("pt-CH", ""),
    ("pt-CV", "many={0}\u{a0}US$ {1};other={0}\u{a0}US$ {1}"),
    ("pt-GQ", ""),
    ("pt-GW", ""),
    ("pt-LU", ""),
    ("pt-MO", ""),
    ("pt-MZ", ""),
    ("pt-ST", ""),
    ("pt-TL", ""),
    ("qu", ""),
    ("raj", ""),
    ("ro", "other={0} de {1}"),
    ("root", ""),
    ("rw", ""),
    ("sa", ""),
    ("sd-Deva", ""),
    ("shn", ""),
    ("si", "one={1}{0};other={1}{0}"),
    ("sr-Cyrl-ME", ""),
    ("sr-Latn", ""),
    ("sw", "other={1} {0}"),
    ("szl", ""),
    ("to", "other={1} {0}"),
    ("tr-TR", "one=${0} {1};other=${0} {1}"),
    ("tt", ""),
    ("tyv", ""),
    ("vec", "many={0}\u{202f}{1};one={0}\u{202f}{1};other={0}\u{202f}{1}"),
    ("vmw", ""),
    ("xnr", ""),
    ("yrl", ""),
    ("zh", "other={0}{1}"),
    ("zh-Hans", "other={0}{1}"),
    ("zh-Hans-HK", ""),
    ("zh-Hans-MO", ""),
    ("zh-Hans-SG", ""),
    ("zh-SG", ""),
];

/// Currency names writ's data has differently from node's, per locale: a list of codes, or
/// `*` for all of them.
const CURRENCY_NAMES_REFUSED: &[(&str, &str)] = &[
    ("ar", "LBP"),
    ("ba", "*"),
    (
        "be",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("bgc", "*"),
    ("bn", "ALL AUD CNY CZK IRR ISK MDL UAH VND"),
    ("br", "*"),
    ("bs-Cyrl", "*"),
    ("bua", "*"),
    ("ckb", "KWD LBP"),
    (
        "cs",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("el", "ZWG"),
    ("en-001", "BDT SLL TRY"),
    ("en-150", "BDT EUR SLL TRY"),
    ("en-AT", "*"),
    ("en-AU", "BDT"),
    ("en-BE", "*"),
    ("en-DE", "*"),
    ("en-EE", "*"),
    ("en-ES", "*"),
    ("en-FI", "*"),
    ("en-FR", "*"),
    ("en-IN", "BDT SLL TRY VES"),
    ("en-IT", "*"),
    ("en-LT", "*"),
    ("en-LV", "*"),
    ("en-NL", "*"),
    ("en-PT", "*"),
    ("en-SI", "*"),
    ("en-SK", "*"),
    ("es-419", "MWK"),
    ("es-US", "MWK ZWG"),
    ("fil", "BYN FKP"),
    ("fo", "QAR"),
    ("gaa", "*"),
    ("hi", "AED"),
    ("hi-Latn", "*"),
    ("hu", "CRC"),
    (
        "ig",
        "AMD BHD BIF CVE ETB GEL ILS JOD KES KMF KWD LBP MGA MUR MZN NGN OMR RWF SAR SCR SOS SSP SYP TJS TZS UGX YER ZMW",
    ),
    ("ka", "SLL"),
    ("kea", "CVE"),
    ("kea-CV", "*"),
    ("kgp", "*"),
    ("ki", "*"),
    ("ks-Deva", "*"),
    ("kxv", "*"),
    ("kxv-Deva", "*"),
    ("kxv-Latn", "*"),
    ("kxv-Orya", "*"),
    ("kxv-Telu", "*"),
    (
        "lij",
        "AED AMD AZN BHD GEL ILS IQD JOD KWD LBP OMR QAR SAR SYP TRY XCG YER ZWG",
    ),
    ("lmo", "*"),
    (
        "lt",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("mai", "*"),
    ("mi", "*"),
    ("mk", "AFN"),
    ("mni", "*"),
    ("mni-Beng", "*"),
    ("mr", "BMD ZWG"),
    ("my", "MXN"),
    ("nds", "*"),
    ("oc", "*"),
    ("pa-Arab", "EUR INR PKR"),
    (
        "pl",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("pms", "*"),
    ("ps", "SBD"),
    ("pt-AO", "*"),
    ("pt-CH", "*"),
    ("pt-CV", "*"),
    ("pt-GQ", "*"),
    ("pt-GW", "*"),
    ("pt-LU", "*"),
    ("pt-MO", "*"),
    ("pt-MZ", "*"),
    ("pt-ST", "*"),
    ("pt-TL", "*"),
    ("qu", "*"),
    ("raj", "*"),
    ("root", ""),
    (
        "ru",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("rw", "*"),
    ("sa", "*"),
    ("sd-Deva", "*"),
    ("shn", "*"),
    (
        "sk",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("sr-Cyrl-ME", "*"),
    ("sr-Latn", "*"),
    ("sv", "JMD"),
    ("szl", "*"),
    ("th", "XAF"),
    ("tk", "GHS NOK"),
    ("to", "EUR"),
    ("tr", "TRY"),
    ("tr-TR", "*"),
    ("tt", "*"),
    ("tyv", "*"),
    (
        "uk",
        "AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER",
    ),
    ("ur", "FKP GIP LBP SYP ZAR"),
    ("uz-Arab", "AFN"),
    ("vi", "AUD AWG BDT BTN INR IRR LKR LSL MVR NPR PKR SLE SLL XCG ZWG"),
    ("vmw", "*"),
    ("xnr", "*"),
    ("yrl", "*"),
    ("zh-HK", "XOF"),
    ("zh-Hant-HK", "XOF"),
    ("zh-Hant-MO", "XOF"),
    ("zh-MO", "XOF"),
    ("zh-MY", "MYR"),
    ("zu", "TTD XCG ZWG"),
];

/// Collations node offers that ICU4X's compiled data does not have.
const ICU4X_LACKS_COLLATIONS: &[&str] = &["searchjl"];

/// NaN as the locales that do not write "NaN" write it, by language and likely script.
const NAN_TEXTS: &[(&str, &str)] = &[
    ("am-Ethi", "በቁጥር\u{a0}ሊገለጽ\u{a0}የማይችል"),
    ("ar-Arab", "ليس\u{a0}رقم\u{64b}ا"),
    ("ars-Arab", "ليس\u{a0}رقم\u{64b}ا"),
    ("ast-Latn", "ND"),
    ("ce-Cyrl", "Терхьаш\u{a0}дац"),
    ("cv-Cyrl", "хисеп\u{a0}мар"),
    ("dz-Tibt", "ཨང\u{f0b}མད"),
    ("ee-Latn", "mnn"),
    ("fa-Arab", "ناعدد"),
    ("fi-Latn", "epäluku"),
    ("ga-Latn", "Nuimh"),
    ("hy-Armn", "ՈչԹ"),
    ("ka-Geor", "არ\u{a0}არის\u{a0}რიცხვი"),
    ("kk-Arab", "سان\u{a0}ەمەس"),
    ("kk-Cyrl", "сан\u{a0}емес"),
    ("ky-Cyrl", "сан\u{a0}эмес"),
    ("lo-Laoo", "ບ\u{ecd}\u{ec8}\u{200b}ແມ\u{ec8}ນ\u{200b}ໂຕ\u{200b}ເລກ"),
    ("lv-Latn", "NS"),
    ("my-Mymr", "ဂဏန\u{103a}\u{1038}မဟ\u{102f}တ\u{103a}သ\u{1031}\u{102c}"),
    ("os-Cyrl", "НН"),
    ("ru-Cyrl", "не\u{a0}число"),
    ("sah-Cyrl", "чыыһыла\u{a0}буотах"),
    ("smn-Latn", "epiloho"),
    ("so-Latn", "MaL"),
    ("syr-Syrc", "ܠܝܬ\u{a0}ܡܢܝܢܐ"),
    ("tk-Latn", "san\u{a0}däl"),
    ("to-Latn", "TF"),
    ("uz-Cyrl", "ҳақиқий\u{a0}сон\u{a0}эмас"),
    ("uz-Latn", "son\u{a0}emas"),
    ("yue-Hans", "非数值"),
    ("yue-Hant", "非數值"),
    ("zh-Hant", "非數值"),
];

/// Node 20's answers, compared exactly (no-break and narrow no-break spaces included).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use crate::error::Reason;
    use writ_core::{Limits, Meter, parse_json};

    /// The default budget.
    fn limits() -> Limits {
        Limits {
            steps: Some(1_000_000),
            max_string_length: Some(1_000_000),
            max_array_length: Some(100_000),
            max_total_allocation: Some(10_000_000),
            ..Limits::UNLIMITED
        }
    }

    /// Runs `f` in a fresh evaluation under `limits`; also answers the steps it took.
    fn run_under<T>(limits: &Limits, f: impl FnOnce(&mut Cx<'_>) -> Result<T>) -> (Result<T>, u64) {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let result = f(&mut cx);
        (result, cx.meter.steps_used())
    }

    /// Runs `f` in a fresh evaluation under the default budget.
    fn run<T>(f: impl FnOnce(&mut Cx<'_>) -> Result<T>) -> Result<T> {
        run_under(&limits(), f).0
    }

    /// A JSON argument; the empty text is `undefined`.
    fn arg(json: &str) -> Value {
        if json.is_empty() {
            Value::Undefined
        } else {
            parse_json(json).unwrap_or(Value::Null)
        }
    }

    /// `n.toLocaleString(locales, options)` with JSON arguments.
    fn format(n: f64, locales: &str, options: &str) -> Result<String> {
        run(|cx| number_to_locale_string(cx, n, &arg(locales), &arg(options))).map(|s| s.to_string_lossy().into_owned())
    }

    /// The reason of a failure, if it failed.
    fn reason<T: std::fmt::Debug>(result: Result<T>) -> Option<Reason> {
        result.err().map(|error| error.reason())
    }

    /// `tag` as a JSON string.
    fn quoted(tag: &str) -> String {
        format!("\"{tag}\"")
    }

    /// Node 20's answers for the eight main locales.
    const FORMATS: &[(&str, &str, f64, &str)] = &[
        ("en-US", r#""#, -1234.5, "-1,234.5"),
        ("en-US", r#""#, 0.0, "0"),
        ("en-US", r#""#, 1234567.891, "1,234,567.891"),
        ("en-US", r#""#, 0.000123, "0"),
        ("en-US", r#""#, 2.5, "2.5"),
        ("en-US", r#"{"style":"percent"}"#, 0.125, "13%"),
        ("en-US", r#"{"style":"percent"}"#, -0.5, "-50%"),
        ("en-US", r#"{"style":"percent"}"#, 12.345, "1,235%"),
        ("en-US", r#"{"style":"percent"}"#, 0.0, "0%"),
        (
            "en-US",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12.35%",
        ),
        (
            "en-US",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0.01%",
        ),
        ("en-US", r#"{"style":"currency","currency":"USD"}"#, 1234.5, "$1,234.50"),
        ("en-US", r#"{"style":"currency","currency":"USD"}"#, -0.005, "-$0.01"),
        ("en-US", r#"{"style":"currency","currency":"USD"}"#, 0.0, "$0.00"),
        (
            "en-US",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "€1,234,567.89",
        ),
        ("en-US", r#"{"style":"currency","currency":"EUR"}"#, -1.005, "-€1.01"),
        ("en-US", r#"{"style":"currency","currency":"JPY"}"#, 1234.5, "¥1,235"),
        ("en-US", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-¥3"),
        (
            "en-US",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "GBP\u{a0}1,234.50",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-GBP\u{a0}1.00",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1.00 Indian rupees",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1,234.50 Indian rupees",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "¥1,234.50",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-CHF\u{a0}1,234.50",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "(€1,234.50)",
        ),
        (
            "en-US",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "€1,234.50",
        ),
        ("en-US", r#"{"useGrouping":"always"}"#, 1234.0, "1,234"),
        ("en-US", r#"{"useGrouping":"always"}"#, 1234567.0, "1,234,567"),
        ("en-US", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("en-US", r#"{"useGrouping":"min2"}"#, 12345.0, "12,345"),
        ("en-US", r#"{"useGrouping":false}"#, 1234567.5, "1234567.5"),
        ("en-US", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("en-US", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("en-US", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "en-US",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+€1.00",
        ),
        (
            "en-US",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "€0.00",
        ),
        ("en-GB", r#""#, -1234.5, "-1,234.5"),
        ("en-GB", r#""#, 0.0, "0"),
        ("en-GB", r#""#, 1234567.891, "1,234,567.891"),
        ("en-GB", r#""#, 0.000123, "0"),
        ("en-GB", r#""#, 2.5, "2.5"),
        ("en-GB", r#"{"style":"percent"}"#, 0.125, "13%"),
        ("en-GB", r#"{"style":"percent"}"#, -0.5, "-50%"),
        ("en-GB", r#"{"style":"percent"}"#, 12.345, "1,235%"),
        ("en-GB", r#"{"style":"percent"}"#, 0.0, "0%"),
        (
            "en-GB",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12.35%",
        ),
        (
            "en-GB",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0.01%",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"USD"}"#,
            1234.5,
            "US$1,234.50",
        ),
        ("en-GB", r#"{"style":"currency","currency":"USD"}"#, -0.005, "-US$0.01"),
        ("en-GB", r#"{"style":"currency","currency":"USD"}"#, 0.0, "US$0.00"),
        (
            "en-GB",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "€1,234,567.89",
        ),
        ("en-GB", r#"{"style":"currency","currency":"EUR"}"#, -1.005, "-€1.01"),
        ("en-GB", r#"{"style":"currency","currency":"JPY"}"#, 1234.5, "JP¥1,235"),
        ("en-GB", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-JP¥3"),
        (
            "en-GB",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "GBP\u{a0}1,234.50",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-GBP\u{a0}1.00",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1.00 Indian rupees",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1,234.50 Indian rupees",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "¥1,234.50",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-CHF\u{a0}1,234.50",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "(€1,234.50)",
        ),
        (
            "en-GB",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "€1,234.50",
        ),
        ("en-GB", r#"{"useGrouping":"always"}"#, 1234.0, "1,234"),
        ("en-GB", r#"{"useGrouping":"always"}"#, 1234567.0, "1,234,567"),
        ("en-GB", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("en-GB", r#"{"useGrouping":"min2"}"#, 12345.0, "12,345"),
        ("en-GB", r#"{"useGrouping":false}"#, 1234567.5, "1234567.5"),
        ("en-GB", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("en-GB", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("en-GB", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "en-GB",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+€1.00",
        ),
        (
            "en-GB",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "€0.00",
        ),
        ("de-DE", r#""#, -1234.5, "-1.234,5"),
        ("de-DE", r#""#, 0.0, "0"),
        ("de-DE", r#""#, 1234567.891, "1.234.567,891"),
        ("de-DE", r#""#, 0.000123, "0"),
        ("de-DE", r#""#, 2.5, "2,5"),
        ("de-DE", r#"{"style":"percent"}"#, 0.125, "13\u{a0}%"),
        ("de-DE", r#"{"style":"percent"}"#, -0.5, "-50\u{a0}%"),
        ("de-DE", r#"{"style":"percent"}"#, 12.345, "1.235\u{a0}%"),
        ("de-DE", r#"{"style":"percent"}"#, 0.0, "0\u{a0}%"),
        (
            "de-DE",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12,35\u{a0}%",
        ),
        (
            "de-DE",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0,01\u{a0}%",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"USD"}"#,
            1234.5,
            "1.234,50\u{a0}$",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"USD"}"#,
            -0.005,
            "-0,01\u{a0}$",
        ),
        ("de-DE", r#"{"style":"currency","currency":"USD"}"#, 0.0, "0,00\u{a0}$"),
        (
            "de-DE",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "1.234.567,89\u{a0}€",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"EUR"}"#,
            -1.005,
            "-1,01\u{a0}€",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"JPY"}"#,
            1234.5,
            "1.235\u{a0}¥",
        ),
        ("de-DE", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-3\u{a0}¥"),
        (
            "de-DE",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "1.234,50\u{a0}GBP",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-1,00\u{a0}GBP",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1,00 Indische Rupien",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1.234,50 Indische Rupien",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "1.234,50\u{a0}¥",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-1.234,50\u{a0}CHF",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "-1.234,50\u{a0}€",
        ),
        (
            "de-DE",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "1.234,50\u{a0}€",
        ),
        ("de-DE", r#"{"useGrouping":"always"}"#, 1234.0, "1.234"),
        ("de-DE", r#"{"useGrouping":"always"}"#, 1234567.0, "1.234.567"),
        ("de-DE", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("de-DE", r#"{"useGrouping":"min2"}"#, 12345.0, "12.345"),
        ("de-DE", r#"{"useGrouping":false}"#, 1234567.5, "1234567,5"),
        ("de-DE", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("de-DE", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("de-DE", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "de-DE",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+1,00\u{a0}€",
        ),
        (
            "de-DE",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "0,00\u{a0}€",
        ),
        ("fr-FR", r#""#, -1234.5, "-1\u{202f}234,5"),
        ("fr-FR", r#""#, 0.0, "0"),
        ("fr-FR", r#""#, 1234567.891, "1\u{202f}234\u{202f}567,891"),
        ("fr-FR", r#""#, 0.000123, "0"),
        ("fr-FR", r#""#, 2.5, "2,5"),
        ("fr-FR", r#"{"style":"percent"}"#, 0.125, "13\u{a0}%"),
        ("fr-FR", r#"{"style":"percent"}"#, -0.5, "-50\u{a0}%"),
        ("fr-FR", r#"{"style":"percent"}"#, 12.345, "1\u{202f}235\u{a0}%"),
        ("fr-FR", r#"{"style":"percent"}"#, 0.0, "0\u{a0}%"),
        (
            "fr-FR",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12,35\u{a0}%",
        ),
        (
            "fr-FR",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0,01\u{a0}%",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"USD"}"#,
            1234.5,
            "1\u{202f}234,50\u{a0}$US",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"USD"}"#,
            -0.005,
            "-0,01\u{a0}$US",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"USD"}"#,
            0.0,
            "0,00\u{a0}$US",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "1\u{202f}234\u{202f}567,89\u{a0}€",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"EUR"}"#,
            -1.005,
            "-1,01\u{a0}€",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"JPY"}"#,
            1234.5,
            "1\u{202f}235\u{a0}JPY",
        ),
        ("fr-FR", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-3\u{a0}JPY"),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "1\u{202f}234,50\u{a0}GBP",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-1,00\u{a0}GBP",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1,00 roupie indienne",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1\u{202f}234,50 roupies indiennes",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "1\u{202f}234,50\u{a0}¥",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-1\u{202f}234,50\u{a0}CHF",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "(1\u{202f}234,50\u{a0}€)",
        ),
        (
            "fr-FR",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "1\u{202f}234,50\u{a0}€",
        ),
        ("fr-FR", r#"{"useGrouping":"always"}"#, 1234.0, "1\u{202f}234"),
        (
            "fr-FR",
            r#"{"useGrouping":"always"}"#,
            1234567.0,
            "1\u{202f}234\u{202f}567",
        ),
        ("fr-FR", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("fr-FR", r#"{"useGrouping":"min2"}"#, 12345.0, "12\u{202f}345"),
        ("fr-FR", r#"{"useGrouping":false}"#, 1234567.5, "1234567,5"),
        ("fr-FR", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("fr-FR", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("fr-FR", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "fr-FR",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+1,00\u{a0}€",
        ),
        (
            "fr-FR",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "0,00\u{a0}€",
        ),
        ("es-ES", r#""#, -1234.5, "-1234,5"),
        ("es-ES", r#""#, 0.0, "0"),
        ("es-ES", r#""#, 1234567.891, "1.234.567,891"),
        ("es-ES", r#""#, 0.000123, "0"),
        ("es-ES", r#""#, 2.5, "2,5"),
        ("es-ES", r#"{"style":"percent"}"#, 0.125, "13\u{a0}%"),
        ("es-ES", r#"{"style":"percent"}"#, -0.5, "-50\u{a0}%"),
        ("es-ES", r#"{"style":"percent"}"#, 12.345, "1235\u{a0}%"),
        ("es-ES", r#"{"style":"percent"}"#, 0.0, "0\u{a0}%"),
        (
            "es-ES",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12,35\u{a0}%",
        ),
        (
            "es-ES",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0,01\u{a0}%",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"USD"}"#,
            1234.5,
            "1234,50\u{a0}US$",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"USD"}"#,
            -0.005,
            "-0,01\u{a0}US$",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"USD"}"#,
            0.0,
            "0,00\u{a0}US$",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "1.234.567,89\u{a0}€",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"EUR"}"#,
            -1.005,
            "-1,01\u{a0}€",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"JPY"}"#,
            1234.5,
            "1235\u{a0}JPY",
        ),
        ("es-ES", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-3\u{a0}JPY"),
        (
            "es-ES",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "1234,50\u{a0}GBP",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-1,00\u{a0}GBP",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1,00 rupia india",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1234,50 rupias indias",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "1234,50\u{a0}¥",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-1234,50\u{a0}CHF",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "-1234,50\u{a0}€",
        ),
        (
            "es-ES",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "1234,50\u{a0}€",
        ),
        ("es-ES", r#"{"useGrouping":"always"}"#, 1234.0, "1.234"),
        ("es-ES", r#"{"useGrouping":"always"}"#, 1234567.0, "1.234.567"),
        ("es-ES", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("es-ES", r#"{"useGrouping":"min2"}"#, 12345.0, "12.345"),
        ("es-ES", r#"{"useGrouping":false}"#, 1234567.5, "1234567,5"),
        ("es-ES", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("es-ES", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("es-ES", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "es-ES",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+1,00\u{a0}€",
        ),
        (
            "es-ES",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "0,00\u{a0}€",
        ),
        ("ja-JP", r#""#, -1234.5, "-1,234.5"),
        ("ja-JP", r#""#, 0.0, "0"),
        ("ja-JP", r#""#, 1234567.891, "1,234,567.891"),
        ("ja-JP", r#""#, 0.000123, "0"),
        ("ja-JP", r#""#, 2.5, "2.5"),
        ("ja-JP", r#"{"style":"percent"}"#, 0.125, "13%"),
        ("ja-JP", r#"{"style":"percent"}"#, -0.5, "-50%"),
        ("ja-JP", r#"{"style":"percent"}"#, 12.345, "1,235%"),
        ("ja-JP", r#"{"style":"percent"}"#, 0.0, "0%"),
        (
            "ja-JP",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12.35%",
        ),
        (
            "ja-JP",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0.01%",
        ),
        ("ja-JP", r#"{"style":"currency","currency":"USD"}"#, 1234.5, "$1,234.50"),
        ("ja-JP", r#"{"style":"currency","currency":"USD"}"#, -0.005, "-$0.01"),
        ("ja-JP", r#"{"style":"currency","currency":"USD"}"#, 0.0, "$0.00"),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "€1,234,567.89",
        ),
        ("ja-JP", r#"{"style":"currency","currency":"EUR"}"#, -1.005, "-€1.01"),
        ("ja-JP", r#"{"style":"currency","currency":"JPY"}"#, 1234.5, "￥1,235"),
        ("ja-JP", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-￥3"),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "GBP\u{a0}1,234.50",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-GBP\u{a0}1.00",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1.00インド ルピー",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1,234.50インド ルピー",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "￥1,234.50",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-CHF\u{a0}1,234.50",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "(€1,234.50)",
        ),
        (
            "ja-JP",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "€1,234.50",
        ),
        ("ja-JP", r#"{"useGrouping":"always"}"#, 1234.0, "1,234"),
        ("ja-JP", r#"{"useGrouping":"always"}"#, 1234567.0, "1,234,567"),
        ("ja-JP", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("ja-JP", r#"{"useGrouping":"min2"}"#, 12345.0, "12,345"),
        ("ja-JP", r#"{"useGrouping":false}"#, 1234567.5, "1234567.5"),
        ("ja-JP", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("ja-JP", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("ja-JP", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "ja-JP",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+€1.00",
        ),
        (
            "ja-JP",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "€0.00",
        ),
        ("zh-CN", r#""#, -1234.5, "-1,234.5"),
        ("zh-CN", r#""#, 0.0, "0"),
        ("zh-CN", r#""#, 1234567.891, "1,234,567.891"),
        ("zh-CN", r#""#, 0.000123, "0"),
        ("zh-CN", r#""#, 2.5, "2.5"),
        ("zh-CN", r#"{"style":"percent"}"#, 0.125, "13%"),
        ("zh-CN", r#"{"style":"percent"}"#, -0.5, "-50%"),
        ("zh-CN", r#"{"style":"percent"}"#, 12.345, "1,235%"),
        ("zh-CN", r#"{"style":"percent"}"#, 0.0, "0%"),
        (
            "zh-CN",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12.35%",
        ),
        (
            "zh-CN",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0.01%",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"USD"}"#,
            1234.5,
            "US$1,234.50",
        ),
        ("zh-CN", r#"{"style":"currency","currency":"USD"}"#, -0.005, "-US$0.01"),
        ("zh-CN", r#"{"style":"currency","currency":"USD"}"#, 0.0, "US$0.00"),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "€1,234,567.89",
        ),
        ("zh-CN", r#"{"style":"currency","currency":"EUR"}"#, -1.005, "-€1.01"),
        ("zh-CN", r#"{"style":"currency","currency":"JPY"}"#, 1234.5, "JP¥1,235"),
        ("zh-CN", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-JP¥3"),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "GBP\u{a0}1,234.50",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-GBP\u{a0}1.00",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1.00印度卢比",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1,234.50印度卢比",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "¥1,234.50",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-CHF\u{a0}1,234.50",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "(€1,234.50)",
        ),
        (
            "zh-CN",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "€1,234.50",
        ),
        ("zh-CN", r#"{"useGrouping":"always"}"#, 1234.0, "1,234"),
        ("zh-CN", r#"{"useGrouping":"always"}"#, 1234567.0, "1,234,567"),
        ("zh-CN", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("zh-CN", r#"{"useGrouping":"min2"}"#, 12345.0, "12,345"),
        ("zh-CN", r#"{"useGrouping":false}"#, 1234567.5, "1234567.5"),
        ("zh-CN", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("zh-CN", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("zh-CN", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "zh-CN",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+€1.00",
        ),
        (
            "zh-CN",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "€0.00",
        ),
        ("hi-IN", r#""#, -1234.5, "-1,234.5"),
        ("hi-IN", r#""#, 0.0, "0"),
        ("hi-IN", r#""#, 1234567.891, "12,34,567.891"),
        ("hi-IN", r#""#, 0.000123, "0"),
        ("hi-IN", r#""#, 2.5, "2.5"),
        ("hi-IN", r#"{"style":"percent"}"#, 0.125, "13%"),
        ("hi-IN", r#"{"style":"percent"}"#, -0.5, "-50%"),
        ("hi-IN", r#"{"style":"percent"}"#, 12.345, "1,235%"),
        ("hi-IN", r#"{"style":"percent"}"#, 0.0, "0%"),
        (
            "hi-IN",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            0.12345,
            "12.35%",
        ),
        (
            "hi-IN",
            r#"{"style":"percent","maximumFractionDigits":2}"#,
            -0.00005,
            "-0.01%",
        ),
        ("hi-IN", r#"{"style":"currency","currency":"USD"}"#, 1234.5, "$1,234.50"),
        ("hi-IN", r#"{"style":"currency","currency":"USD"}"#, -0.005, "-$0.01"),
        ("hi-IN", r#"{"style":"currency","currency":"USD"}"#, 0.0, "$0.00"),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"EUR"}"#,
            1234567.891,
            "€12,34,567.89",
        ),
        ("hi-IN", r#"{"style":"currency","currency":"EUR"}"#, -1.005, "-€1.01"),
        ("hi-IN", r#"{"style":"currency","currency":"JPY"}"#, 1234.5, "JP¥1,235"),
        ("hi-IN", r#"{"style":"currency","currency":"JPY"}"#, -2.5, "-JP¥3"),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            1234.5,
            "GBP\u{a0}1,234.50",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"GBP","currencyDisplay":"code"}"#,
            -1.0,
            "-GBP\u{a0}1.00",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1.0,
            "1.00 भ\u{93e}रत\u{940}य र\u{941}पय\u{93e}",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"INR","currencyDisplay":"name"}"#,
            1234.5,
            "1,234.50 भ\u{93e}रत\u{940}य र\u{941}पए",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"CNY","currencyDisplay":"narrowSymbol"}"#,
            1234.5,
            "¥1,234.50",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"CHF"}"#,
            -1234.5,
            "-CHF\u{a0}1,234.50",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            -1234.5,
            "-€1,234.50",
        ),
        (
            "hi-IN",
            r#"{"style":"currency","currency":"EUR","currencySign":"accounting"}"#,
            1234.5,
            "€1,234.50",
        ),
        ("hi-IN", r#"{"useGrouping":"always"}"#, 1234.0, "1,234"),
        ("hi-IN", r#"{"useGrouping":"always"}"#, 1234567.0, "12,34,567"),
        ("hi-IN", r#"{"useGrouping":"min2"}"#, 1234.0, "1234"),
        ("hi-IN", r#"{"useGrouping":"min2"}"#, 12345.0, "12,345"),
        ("hi-IN", r#"{"useGrouping":false}"#, 1234567.5, "1234567.5"),
        ("hi-IN", r#"{"signDisplay":"always"}"#, 1.0, "+1"),
        ("hi-IN", r#"{"signDisplay":"always"}"#, 0.0, "+0"),
        ("hi-IN", r#"{"signDisplay":"always"}"#, -0.0, "-0"),
        (
            "hi-IN",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            1.0,
            "+€1.00",
        ),
        (
            "hi-IN",
            r#"{"signDisplay":"exceptZero","style":"currency","currency":"EUR"}"#,
            0.0,
            "€0.00",
        ),
    ];

    /// The eight main locales: decimal, percent and currency styles, grouping and signs.
    #[test]
    fn formats_as_node_does_in_the_main_locales() {
        for &(locale, options, n, want) in FORMATS {
            let got = format(n, &quoted(locale), options);
            assert_eq!(got.as_deref(), Ok(want), "{n} in {locale} with {options}");
        }
    }

    /// Node 20's answers in en-US for the digit and rounding options and special values.
    const DIGITS: &[(&str, f64, &str)] = &[
        (r#"{"maximumFractionDigits":2}"#, 1.005, "1.01"),
        (r#"{"maximumFractionDigits":2}"#, 1.015, "1.02"),
        (r#"{"maximumFractionDigits":2}"#, 8.345, "8.35"),
        (r#"{"maximumFractionDigits":2}"#, -2.675, "-2.68"),
        (r#"{"minimumFractionDigits":3}"#, 1.5, "1.500"),
        (r#"{"minimumFractionDigits":3}"#, 0.0, "0.000"),
        (r#"{"maximumSignificantDigits":3}"#, 123456.0, "123,000"),
        (r#"{"maximumSignificantDigits":3}"#, 0.00012345, "0.000123"),
        (r#"{"maximumSignificantDigits":3}"#, 9.995, "10"),
        (r#"{"maximumSignificantDigits":3}"#, 0.0, "0"),
        (r#"{"minimumSignificantDigits":5}"#, 1.5, "1.5000"),
        (r#"{"minimumSignificantDigits":5}"#, 0.0, "0.0000"),
        (
            r#"{"minimumSignificantDigits":2,"maximumSignificantDigits":4}"#,
            1.0,
            "1.0",
        ),
        (
            r#"{"minimumSignificantDigits":2,"maximumSignificantDigits":4}"#,
            1.23456,
            "1.235",
        ),
        (r#"{"minimumIntegerDigits":5}"#, 12.5, "00,012.5"),
        (r#"{"minimumIntegerDigits":5}"#, 0.0, "00,000"),
        (r#"{"minimumIntegerDigits":5,"useGrouping":false}"#, 12.5, "00012.5"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfEven"}"#, 0.5, "0"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfEven"}"#, 1.5, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfEven"}"#, 2.5, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfEven"}"#, -2.5, "-2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfTrunc"}"#, 2.5, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfTrunc"}"#, -2.5, "-2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfTrunc"}"#, 2.51, "3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfCeil"}"#, 2.5, "3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfCeil"}"#, -2.5, "-2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfFloor"}"#, 2.5, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"halfFloor"}"#, -2.5, "-3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"ceil"}"#, 2.1, "3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"ceil"}"#, -2.9, "-2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"floor"}"#, 2.9, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"floor"}"#, -2.1, "-3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"expand"}"#, 2.1, "3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"expand"}"#, -2.1, "-3"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"trunc"}"#, 2.9, "2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"trunc"}"#, -2.9, "-2"),
        (r#"{"maximumFractionDigits":0,"roundingMode":"trunc"}"#, -0.4, "-0"),
        (
            r#"{"minimumFractionDigits":2,"maximumFractionDigits":2,"roundingIncrement":5}"#,
            1.23,
            "1.25",
        ),
        (
            r#"{"minimumFractionDigits":2,"maximumFractionDigits":2,"roundingIncrement":5}"#,
            1.275,
            "1.30",
        ),
        (
            r#"{"minimumFractionDigits":2,"maximumFractionDigits":2,"roundingIncrement":5}"#,
            -1.225,
            "-1.25",
        ),
        (
            r#"{"minimumFractionDigits":2,"maximumFractionDigits":2,"roundingIncrement":25}"#,
            1.13,
            "1.25",
        ),
        (
            r#"{"minimumFractionDigits":2,"maximumFractionDigits":2,"roundingIncrement":25}"#,
            1.124,
            "1.00",
        ),
        (
            r#"{"minimumFractionDigits":1,"maximumFractionDigits":1,"roundingIncrement":50}"#,
            12.34,
            "10.0",
        ),
        (
            r#"{"minimumFractionDigits":1,"maximumFractionDigits":1,"roundingIncrement":50}"#,
            37.5,
            "40.0",
        ),
        (r#"{"roundingIncrement":10}"#, 1234.5, "1,230"),
        (
            r#"{"roundingIncrement":10}"#,
            1.7976931348623157e308,
            "179,769,313,486,231,600,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000",
        ),
        (
            r#"{"maximumFractionDigits":2,"maximumSignificantDigits":2,"roundingPriority":"lessPrecision"}"#,
            1.234,
            "1.2",
        ),
        (
            r#"{"maximumFractionDigits":2,"maximumSignificantDigits":2,"roundingPriority":"lessPrecision"}"#,
            123.4,
            "120",
        ),
        (
            r#"{"maximumFractionDigits":2,"maximumSignificantDigits":2,"roundingPriority":"morePrecision"}"#,
            1.234,
            "1.23",
        ),
        (
            r#"{"maximumFractionDigits":2,"maximumSignificantDigits":2,"roundingPriority":"morePrecision"}"#,
            123.4,
            "123.4",
        ),
        (
            r#"{"minimumFractionDigits":2,"trailingZeroDisplay":"stripIfInteger"}"#,
            1.0,
            "1",
        ),
        (
            r#"{"minimumFractionDigits":2,"trailingZeroDisplay":"stripIfInteger"}"#,
            1.5,
            "1.50",
        ),
        (r#"{"maximumFractionDigits":20}"#, 0.1, "0.1"),
        (
            r#"{"maximumFractionDigits":20}"#,
            0.3333333333333333,
            "0.3333333333333333",
        ),
        (r#"{"maximumSignificantDigits":21}"#, 0.1, "0.1"),
        (r#"{"maximumSignificantDigits":21}"#, 123.456, "123.456"),
        (
            r#"{"style":"currency","currency":"USD","maximumFractionDigits":0}"#,
            1.5,
            "$2",
        ),
        (
            r#"{"style":"currency","currency":"USD","maximumFractionDigits":0}"#,
            2.5,
            "$3",
        ),
        (r#"{"style":"currency","currency":"KWD"}"#, 1.5, "KWD\u{a0}1.500"),
        (r#"{"style":"currency","currency":"CLF"}"#, 1.5, "CLF\u{a0}1.5000"),
        (r#"{"style":"currency","currency":"HUF"}"#, 1.5, "HUF\u{a0}2"),
        (r#"{"style":"currency","currency":"XYZ"}"#, 1.5, "XYZ\u{a0}1.50"),
        (r#"{"style":"currency","currency":"XYZ"}"#, -1.5, "-XYZ\u{a0}1.50"),
        (r#"{"style":"percent","minimumFractionDigits":1}"#, 0.5, "50.0%"),
        (r#""#, f64::NAN, "NaN"),
        (r#""#, f64::INFINITY, "\u{221e}"),
        (r#""#, f64::NEG_INFINITY, "-\u{221e}"),
        (r#""#, -0.0, "-0"),
        (r#""#, 1e21, "1,000,000,000,000,000,000,000"),
        (
            r#""#,
            1.7976931348623157e308,
            "179,769,313,486,231,570,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000,000",
        ),
        (r#""#, 5e-324, "0"),
        (r#""#, 123456789012345680000.0, "123,456,789,012,345,680,000"),
        (r#"{"signDisplay":"always"}"#, f64::NAN, "+NaN"),
        (r#"{"signDisplay":"always"}"#, f64::INFINITY, "+\u{221e}"),
        (r#"{"signDisplay":"negative"}"#, -0.0, "0"),
        (r#"{"signDisplay":"negative"}"#, -0.0001, "0"),
        (r#"{"signDisplay":"negative"}"#, -1.0, "-1"),
        (r#"{"style":"currency","currency":"CHF"}"#, f64::NAN, "CHFNaN"),
        (r#"{"style":"currency","currency":"CHF"}"#, f64::INFINITY, "CHF\u{221e}"),
        (r#"{"style":"percent"}"#, f64::NAN, "NaN%"),
        (r#"{"style":"percent"}"#, f64::NEG_INFINITY, "-\u{221e}%"),
    ];

    /// Digit and rounding options, minor units and special values.
    #[test]
    fn rounds_and_pads_as_icu_does() {
        for &(options, n, want) in DIGITS {
            let got = format(n, "\"en-US\"", options);
            assert_eq!(got.as_deref(), Ok(want), "{n} with {options}");
        }
    }

    /// Node 20's answers for locale lists it resolves in its own ways.
    const LOCALES: &[(&str, f64, &str)] = &[
        (r#""xx""#, 1234.5, "1,234.5"),
        (r#"["xx","de-DE"]"#, 1234.5, "1.234,5"),
        (r#""iw""#, -1234.5, "\u{200e}-1,234.5"),
        (r#""en-Latn-GB""#, 1234.5, "1,234.5"),
        (r#""EN-gb""#, 1234.5, "1,234.5"),
        (r#""hi-IN-u-nu-deva""#, 1234567.5, "१२,३४,५६७.५"),
        (r#""ar-EG""#, -1234.5, "\u{61c}-١\u{66c}٢٣٤\u{66b}٥"),
        (r#""th-TH-u-nu-thai""#, 12.5, "๑๒.๕"),
        (r#""en-u-nu-roman""#, 12.5, "12.5"),
        (r#"[]"#, 1234.5, "1,234.5"),
        (r#""fa""#, -1234.5, "\u{200e}\u{2212}۱\u{66c}۲۳۴\u{66b}۵"),
        (r#""de-CH""#, 1234567.5, "1'234'567.5"),
        (r#""en-IN""#, 1234567.5, "12,34,567.5"),
        (r#""es-MX""#, 1234.5, "1,234.5"),
        (r#""zh-TW""#, 1234.5, "1,234.5"),
        (r#""sr-ME""#, 1234.5, "1.234,5"),
        (r#""pt-BR""#, 1234.5, "1.234,5"),
        (r#""und""#, 1234.5, "1,234.5"),
        (r#""de-DE-1996""#, 1234.5, "1.234,5"),
    ];

    /// Locale lists resolved as V8 resolves them; en-US when none is given.
    #[test]
    fn resolves_locales_as_v8_does() {
        for &(locales, n, want) in LOCALES {
            assert_eq!(format(n, locales, "").as_deref(), Ok(want), "{n} in {locales}");
        }
        // No locale is en-US, whatever the host.
        assert_eq!(format(1234.5, "", "").as_deref(), Ok("1,234.5"));
        assert_eq!(format(-0.0, "", "").as_deref(), Ok("-0"));
    }

    /// Currency symbols where node's CLDR 48 and ICU4X's CLDR 49 differ.
    const SYMBOLS: &[(&str, &str, &str, &str)] = &[
        ("fr-FR", "JPY", "symbol", "1\u{202f}235\u{a0}JPY"),
        ("fr-FR", "CNY", "symbol", "1\u{202f}234,50\u{a0}CNY"),
        ("es-ES", "JPY", "symbol", "1235\u{a0}JPY"),
        ("en-US", "CHF", "narrowSymbol", "CHF\u{a0}1,234.50"),
        ("de-DE", "PHP", "symbol", "1.234,50\u{a0}PHP"),
        ("en-AU", "USD", "symbol", "USD\u{a0}1,234.50"),
        ("ar", "AED", "symbol", "\u{200f}1,234.50\u{a0}د.إ.\u{200f}"),
        ("en-GB", "USD", "narrowSymbol", "$1,234.50"),
        ("ja-JP", "CNY", "symbol", "元\u{a0}1,234.50"),
        ("hi-IN", "JPY", "symbol", "JP¥1,235"),
    ];

    /// Currency symbols where the two CLDR versions differ.
    #[test]
    fn writes_node_currency_symbols() {
        for &(locale, currency, display, want) in SYMBOLS {
            let options =
                format!("{{\"style\":\"currency\",\"currency\":\"{currency}\",\"currencyDisplay\":\"{display}\"}}");
            assert_eq!(
                format(1234.5, &quoted(locale), &options).as_deref(),
                Ok(want),
                "{currency} {display} in {locale}"
            );
        }
    }

    /// A runtime error exactly where Intl throws; a guardrail where it would run.
    #[test]
    fn arguments_fail_where_intl_fails_and_are_refused_where_it_would_run() {
        let runtime = Some(Reason::ExpressionRuntime);
        let guardrail = Some(Reason::GuardrailViolation);
        let cases: &[(&str, &str, Option<Reason>)] = &[
            ("null", "", runtime),
            ("\"en_US\"", "", runtime),
            ("\"i-klingon\"", "", runtime),
            ("\"\"", "", runtime),
            ("[\"en\", 5]", "", runtime),
            ("[\"en\", null]", "", runtime),
            ("[\"en\", {}]", "", runtime),
            ("[[\"de\"]]", "", guardrail),
            ("5", "", guardrail),
            ("true", "", guardrail),
            ("{}", "", guardrail),
            ("\"en\"", "null", runtime),
            ("\"en\"", "5", guardrail),
            ("\"en\"", "[1]", guardrail),
            ("\"en\"", r#"{"maximumFractionDigits":[2]}"#, guardrail),
            ("\"en\"", r#"{"style":"currency"}"#, runtime),
            ("\"en\"", r#"{"style":"currency","currency":"US"}"#, runtime),
            ("\"en\"", r#"{"currency":"EURO"}"#, runtime),
            ("\"en\"", r#"{"style":"Currency"}"#, runtime),
            ("\"en\"", r#"{"style":"unit"}"#, runtime),
            ("\"en\"", r#"{"style":"unit","unit":"meters"}"#, runtime),
            ("\"en\"", r#"{"style":"unit","unit":"meter"}"#, guardrail),
            ("\"en\"", r#"{"notation":"compact"}"#, guardrail),
            (
                "\"en\"",
                r#"{"notation":"scientific","maximumFractionDigits":21}"#,
                runtime,
            ),
            ("\"en\"", r#"{"maximumFractionDigits":21}"#, runtime),
            (
                "\"en\"",
                r#"{"minimumFractionDigits":3,"maximumFractionDigits":2}"#,
                runtime,
            ),
            ("\"en\"", r#"{"minimumIntegerDigits":0}"#, runtime),
            ("\"en\"", r#"{"minimumIntegerDigits":"abc"}"#, runtime),
            ("\"en\"", r#"{"maximumSignificantDigits":22}"#, runtime),
            (
                "\"en\"",
                r#"{"minimumSignificantDigits":3,"maximumSignificantDigits":2}"#,
                runtime,
            ),
            ("\"en\"", r#"{"roundingIncrement":3}"#, runtime),
            (
                "\"en\"",
                r#"{"roundingIncrement":5,"maximumFractionDigits":2}"#,
                runtime,
            ),
            (
                "\"en\"",
                r#"{"roundingIncrement":5,"maximumSignificantDigits":2}"#,
                runtime,
            ),
            ("\"en\"", r#"{"useGrouping":"sometimes"}"#, runtime),
            ("\"en\"", r#"{"useGrouping":1}"#, runtime),
            ("\"en\"", r#"{"numberingSystem":"ab"}"#, runtime),
            ("\"en\"", r#"{"localeMatcher":"best"}"#, runtime),
            ("\"en\"", r#"{"roundingMode":"up"}"#, runtime),
            ("\"en\"", r#"{"compactDisplay":"tiny"}"#, runtime),
            ("\"en\"", r#"{"numberingSystem":"arab"}"#, guardrail),
            ("\"bm\"", "", guardrail),
            ("\"en-US-POSIX\"", "", guardrail),
            ("\"gl\"", "", guardrail),
        ];
        for &(locales, options, want) in cases {
            assert_eq!(
                reason(format(1.5, locales, options)),
                want,
                "locales {locales}, options {options}"
            );
        }
        // What Intl accepts is accepted.
        for options in [
            r#"{"useGrouping":"true"}"#,
            r#"{"useGrouping":0}"#,
            r#"{"minimumIntegerDigits":"3"}"#,
            r#"{"currency":"usd"}"#,
        ] {
            assert!(format(1.5, "\"en\"", options).is_ok(), "{options}");
        }
        assert_eq!(
            format(1.0, "\"en\"", r#"{"minimumIntegerDigits":"3"}"#).as_deref(),
            Ok("001")
        );
    }

    /// Messages name the fix.
    #[test]
    fn messages_say_what_to_write() {
        let error = format(1.0, "\"en\"", r#"{"style":"currency"}"#)
            .err()
            .map(|e| e.message().to_owned())
            .unwrap_or_default();
        assert!(error.contains("currency: \"EUR\""), "{error}");
        let error = format(1.0, "\"en_US\"", "")
            .err()
            .map(|e| e.message().to_owned())
            .unwrap_or_default();
        assert!(
            error.contains("Incorrect locale information provided") && error.contains("en-US"),
            "{error}"
        );
    }

    /// `items.toLocaleString(locales, options)` with JSON arguments.
    fn array(json: &str, locales: &str, options: &str) -> Result<String> {
        let Value::Array(items) = arg(json) else {
            return Ok("not an array".to_owned());
        };
        run(|cx| array_to_locale_string(cx, &items, &arg(locales), &arg(options)))
            .map(|s| s.to_string_lossy().into_owned())
    }

    /// An array formats its items with its arguments, read only for a number.
    #[test]
    fn arrays_format_each_item_with_the_same_arguments() {
        assert_eq!(
            array(r#"[[1234.5, "a"], null, true, {}, [2, [3000, null]]]"#, "\"de\"", "").as_deref(),
            Ok("1.234,5,a,,true,[object Object],2,3.000,")
        );
        assert_eq!(
            array("[1, 2.5]", "\"fr-FR\"", r#"{"style":"currency","currency":"EUR"}"#).as_deref(),
            Ok("1,00\u{a0}€,2,50\u{a0}€")
        );
        assert_eq!(array("[]", "null", "").as_deref(), Ok(""));
        // As in JavaScript, the arguments are read only when a number is formatted.
        assert_eq!(array(r#"["a", null]"#, "null", "null").as_deref(), Ok("a,"));
        assert_eq!(reason(array("[1]", "null", "")), Some(Reason::ExpressionRuntime));
        assert_eq!(
            reason(array("[1]", "\"en\"", r#"{"style":"currency"}"#)),
            Some(Reason::ExpressionRuntime)
        );
        // Arguments JavaScript reads and writ never does are refused even without a number.
        assert_eq!(reason(array(r#"["a"]"#, "5", "")), Some(Reason::GuardrailViolation));
        assert_eq!(
            reason(array(r#"["a"]"#, "\"en\"", "7")),
            Some(Reason::GuardrailViolation)
        );
    }

    /// Nesting as deep as the data goes does not exhaust the stack.
    #[test]
    fn deeply_nested_arrays_do_not_recurse() {
        let mut value = Value::Number(1.0);
        for _ in 0..100_000 {
            value = Value::Array(Array::from(vec![value]));
        }
        let Value::Array(items) = value else { return };
        let got = run(|cx| array_to_locale_string(cx, &items, &Value::Undefined, &Value::Undefined));
        assert_eq!(got.map(|s| s.to_string_lossy().into_owned()).as_deref(), Ok("1"));
    }

    /// Node 20's case mappings.
    const CASES: &[(&str, &str, bool, &str)] = &[
        ("istanbul", "tr", true, "İSTANBUL"),
        ("İSTANBUL", "tr", false, "istanbul"),
        ("Iıİi", "az", false, "ııii"),
        ("Iıİi", "en", false, "iıi\u{307}i"),
        ("Iıİi", "en", true, "IIİI"),
        ("ΌΣΟΣ", "el", false, "όσος"),
        ("άδεια", "el", true, "ΑΔΕΙΑ"),
        ("άδεια", "en", true, "ΆΔΕΙΑ"),
        ("i\u{307}", "lt", true, "I"),
        ("I\u{300}", "lt", false, "i\u{307}\u{300}"),
        ("Straße", "de", true, "STRASSE"),
        ("ΑΣ ΣΑ", "en", false, "ας σα"),
        ("ǆ", "en", true, "Ǆ"),
        ("ﬀ", "tr", true, "FF"),
        ("i", "TR", true, "İ"),
        ("ɷ", "en", true, "ɷ"),
    ];

    /// The case mapping of `text`, as UTF-16.
    fn case(text: &Str, locales: &Value, upper: bool) -> Result<Vec<u16>> {
        run(|cx| to_locale_case(cx, text, locales, upper)).map(|s| s.to_utf16())
    }

    /// Case mappings, with the first locale's language only.
    #[test]
    fn maps_case_as_v8_does() {
        for &(text, locale, upper, want) in CASES {
            let got = case(&Str::from(text), &Value::String(Str::from(locale)), upper);
            assert_eq!(
                got,
                Ok(want.encode_utf16().collect()),
                "{text} in {locale}, upper {upper}"
            );
        }
        // Only the first locale counts; none is en-US.
        let i = Str::from("i");
        assert_eq!(case(&i, &arg(r#"["en", "tr"]"#), true), Ok(vec![u16::from(b'I')]));
        assert_eq!(case(&i, &arg(r#"["tr", "en"]"#), true), Ok(vec![0x130]));
        assert_eq!(case(&i, &arg("[]"), true), Ok(vec![u16::from(b'I')]));
        assert_eq!(reason(case(&i, &Value::Null, true)), Some(Reason::ExpressionRuntime));
        assert_eq!(
            reason(case(&i, &arg("\"en_US\""), true)),
            Some(Reason::ExpressionRuntime)
        );
        assert_eq!(reason(case(&i, &arg("5"), true)), Some(Reason::GuardrailViolation));
    }

    /// Lone surrogates are copied and end the context, as in V8.
    #[test]
    fn lone_surrogates_keep_their_place_and_end_the_casing_context() {
        // "ΑΣ\uD800" lowercases to "ας\uD800": the sigma ends a word; "\uD800ΑΣ" likewise.
        let text = Str::from_utf16(&[0x391, 0x3A3, 0xD800]);
        assert_eq!(case(&text, &Value::Undefined, false), Ok(vec![0x3B1, 0x3C2, 0xD800]));
        let text = Str::from_utf16(&[0xD800, 0x391, 0x3A3]);
        assert_eq!(case(&text, &arg("\"tr\""), false), Ok(vec![0xD800, 0x3B1, 0x3C2]));
        let text = Str::from_utf16(&[0x61, 0xDC00, 0x62]);
        assert_eq!(case(&text, &Value::Undefined, true), Ok(vec![0x41, 0xDC00, 0x42]));
    }

    /// Node 20's comparisons.
    const COMPARE: &[(&str, &str, &str, &str, f64)] = &[
        ("a", "b", r#""#, r#""#, -1.0),
        ("a", "A", r#""#, r#""#, -1.0),
        ("a", "A", r#""en""#, r#"{"caseFirst":"upper"}"#, 1.0),
        ("a", "á", r#""en""#, r#"{"sensitivity":"base"}"#, 0.0),
        ("a", "á", r#""en""#, r#"{"sensitivity":"accent"}"#, -1.0),
        ("a", "A", r#""en""#, r#"{"sensitivity":"case"}"#, -1.0),
        ("a", "á", r#""en""#, r#"{"sensitivity":"case"}"#, 0.0),
        ("10", "9", r#""en""#, r#"{"numeric":true}"#, 1.0),
        ("10", "9", r#""en-u-kn""#, r#""#, 1.0),
        ("a-b", "ab", r#""en""#, r#"{"ignorePunctuation":true}"#, 0.0),
        ("a b", "ab", r#""th""#, r#""#, 0.0),
        ("ä", "ae", r#""de-u-co-phonebk""#, r#""#, 1.0),
        ("ä", "ae", r#""de""#, r#"{"collation":"phonebk"}"#, 1.0),
        ("ä", "z", r#""sv""#, r#""#, 1.0),
        ("ä", "z", r#""de""#, r#""#, -1.0),
        ("ch", "cz", r#""cs""#, r#""#, 1.0),
        ("ch", "d", r#""es""#, r#"{"collation":"trad"}"#, -1.0),
        ("ı", "i", r#""tr""#, r#""#, -1.0),
        ("côte", "coté", r#""fr-CA""#, r#""#, -1.0),
        ("côte", "coté", r#""fr""#, r#""#, 1.0),
        ("a", "b", r#"["xx","sv"]"#, r#""#, -1.0),
        ("я", "z", r#""sr-ME""#, r#""#, -1.0),
        ("я", "z", r#""sr-Latn""#, r#""#, 1.0),
        ("アイ", "あい", r#""ja""#, r#""#, 0.0),
        ("Å", "A\u{30a}", r#""#, r#""#, 0.0),
        ("a\u{0}", "a", r#""#, r#""#, 0.0),
    ];

    /// `a.localeCompare(b, locales, options)` with JSON arguments.
    fn compare_with(a: &str, b: &str, locales: &str, options: &str) -> Result<f64> {
        run(|cx| compare(cx, &Str::from(a), &Str::from(b), &arg(locales), &arg(options)))
    }

    /// Long text maps in pieces split at spaces, with the same result as whole.
    #[test]
    fn long_text_maps_in_pieces() {
        let text = Str::from("ΑΣ İI ".repeat(4000).as_str());
        let want: Vec<u16> = "ας iı ".repeat(4000).encode_utf16().collect();
        assert_eq!(case(&text, &arg("\"tr\""), false), Ok(want));
        let want: Vec<u16> = "ας i\u{307}i ".repeat(4000).encode_utf16().collect();
        assert_eq!(case(&text, &Value::Undefined, false), Ok(want));
    }

    /// Comparisons with sensitivities, numeric, caseFirst, punctuation and tailorings.
    #[test]
    fn compares_as_v8_does() {
        for &(a, b, locales, options, want) in COMPARE {
            assert_eq!(
                compare_with(a, b, locales, options),
                Ok(want),
                "{a} vs {b} in {locales} with {options}"
            );
        }
    }

    /// Collator arguments: runtime errors, guardrails and accepted values.
    #[test]
    fn comparison_arguments_are_classified() {
        let runtime = Some(Reason::ExpressionRuntime);
        let guardrail = Some(Reason::GuardrailViolation);
        let cases: &[(&str, &str, Option<Reason>)] = &[
            ("null", "", runtime),
            ("\"en\"", "null", runtime),
            ("\"en\"", r#"{"sensitivity":"some"}"#, runtime),
            ("\"en\"", r#"{"caseFirst":"first"}"#, runtime),
            ("\"en\"", r#"{"collation":"x"}"#, runtime),
            ("\"en\"", r#"{"usage":"find"}"#, runtime),
            ("\"en\"", r#"{"usage":"search"}"#, guardrail),
            ("\"en\"", "5", guardrail),
            ("\"ko\"", r#"{"collation":"searchjl"}"#, guardrail),
            ("\"kl\"", "", guardrail),
            ("\"en-US-POSIX\"", "", guardrail),
            ("\"en\"", r#"{"numeric":"yes"}"#, None),
            ("\"en\"", r#"{"collation":"standard"}"#, None),
        ];
        for &(locales, options, want) in cases {
            assert_eq!(
                reason(compare_with("a", "b", locales, options)),
                want,
                "{locales} {options}"
            );
        }
    }

    /// Comparisons ICU4X would answer differently are refused.
    #[test]
    fn refuses_comparisons_writ_would_answer_differently() {
        // A lone surrogate: ICU4X reads U+FFFD, node an unassigned code point.
        let lone = Str::from_utf16(&[0x61, 0xD800]);
        let result = run(|cx| compare(cx, &lone, &Str::from("a\u{FFFD}"), &Value::Undefined, &Value::Undefined));
        assert_eq!(reason(result), Some(Reason::GuardrailViolation));
        // Two Han characters decide it: node orders them by radical and stroke.
        assert_eq!(
            reason(compare_with("\u{4E00}", "\u{3400}", "", "")),
            Some(Reason::GuardrailViolation)
        );
        assert_eq!(
            reason(compare_with("x\u{4E00}", "X\u{3400}", "", "")),
            Some(Reason::GuardrailViolation)
        );
        // Han characters that do not decide it are fine.
        assert_eq!(compare_with("a\u{4E00}", "b\u{3400}", "", ""), Ok(-1.0));
        assert_eq!(compare_with("\u{4E00}x", "\u{4E00}y", "", ""), Ok(-1.0));
        assert_eq!(compare_with("\u{4E00}", "\u{4E00}", "", ""), Ok(0.0));
        assert_eq!(compare_with("a", "\u{4E00}", "", ""), Ok(-1.0));
    }

    /// The combining-mark rule comes first.
    #[test]
    fn long_runs_of_combining_marks_are_refused_before_anything_else() {
        let marks = format!("e{}", "\u{301}".repeat(31));
        assert_eq!(
            reason(compare_with(&marks, "e", "null", "")),
            Some(Reason::BudgetExceeded)
        );
    }

    /// A locale list costs the square of its length.
    #[test]
    fn locale_lists_cost_the_square_of_their_length() {
        let tags: Vec<Value> = (0..300).map(|_| Value::String(Str::from("en"))).collect();
        let locales = Value::Array(Array::from(tags));
        let (result, steps) = run_under(&limits(), |cx| requested_locales(cx, &locales));
        assert_eq!(result.map(|list| list.len()), Ok(1));
        assert!(steps >= 90_000, "{steps}");
        let tight = Limits {
            steps: Some(50_000),
            ..limits()
        };
        let (result, _) = run_under(&tight, |cx| requested_locales(cx, &locales));
        assert_eq!(reason(result), Some(Reason::BudgetExceeded));
    }

    /// Results are checked against the string cap before they are built.
    #[test]
    fn results_are_charged_against_the_string_cap() {
        let small = Limits {
            max_string_length: Some(10),
            ..limits()
        };
        let (result, _) = run_under(&small, |cx| {
            number_to_locale_string(cx, 1e21, &Value::Undefined, &Value::Undefined)
        });
        assert_eq!(reason(result), Some(Reason::BudgetExceeded));
        let (result, _) = run_under(&small, |cx| {
            number_to_locale_string(cx, 12.5, &Value::Undefined, &Value::Undefined)
        });
        assert!(result.is_ok());
        let long = Str::from("ß".repeat(8));
        let (result, _) = run_under(&small, |cx| to_locale_case(cx, &long, &Value::Undefined, true));
        assert_eq!(reason(result), Some(Reason::BudgetExceeded));
        let items = Array::from(vec![
            Value::String(Str::from("abcdef")),
            Value::String(Str::from("ghijk")),
        ]);
        let (result, _) = run_under(&small, |cx| {
            array_to_locale_string(cx, &items, &Value::Undefined, &Value::Undefined)
        });
        assert_eq!(reason(result), Some(Reason::BudgetExceeded));
    }

    /// Reading text is charged.
    #[test]
    fn reading_text_is_charged() {
        let long = Str::from("a".repeat(16_000));
        let (_, steps) = run_under(&limits(), |cx| {
            compare(cx, &long, &long, &Value::Undefined, &Value::Undefined)
        });
        assert!(steps >= 2_000, "{steps}");
        let (_, steps) = run_under(&limits(), |cx| to_locale_case(cx, &long, &Value::Undefined, true));
        assert!(steps >= 1_000, "{steps}");
    }

    /// A cache keeps its 64 newest entries.
    #[test]
    fn caches_drop_the_oldest_entry() {
        /// A cache of this test alone.
        static CACHE: Mutex<Cache<usize>> = Mutex::new(Cache::new());
        for i in 0..CACHE_SIZE + 6 {
            let (value, built) =
                cached_with_flag(&CACHE, &format!("key {i}"), || Ok(i)).unwrap_or((Arc::new(0), false));
            assert!(built);
            assert_eq!(*value, i);
        }
        let (_, built) =
            cached_with_flag(&CACHE, &format!("key {}", CACHE_SIZE + 5), || Ok(0)).unwrap_or((Arc::new(0), true));
        assert!(!built, "the newest entry is kept");
        let (_, built) = cached_with_flag(&CACHE, "key 0", || Ok(0)).unwrap_or((Arc::new(0), false));
        assert!(built, "the oldest entry was dropped");
        assert!(lock(&CACHE).entries.len() <= CACHE_SIZE);
    }

    /// Exact decimal rounding.
    #[test]
    fn exact_rounding_modes_and_increments() {
        let x = Exact::from_f64(2.5);
        assert_eq!(x.round_at(0, Unsigned::HalfEven), Exact::from_integer(2, 0));
        assert_eq!(x.round_at(0, Unsigned::HalfUp), Exact::from_integer(3, 0));
        assert_eq!(x.round_at(0, Unsigned::HalfDown), Exact::from_integer(2, 0));
        assert_eq!(x.round_at(0, Unsigned::Up), Exact::from_integer(3, 0));
        assert_eq!(x.round_at(0, Unsigned::Down), Exact::from_integer(2, 0));
        // 1.005 is 1.00499999999999989…, but ICU rounds its shortest decimal.
        assert_eq!(
            Exact::from_f64(1.005).round_at(-2, Unsigned::HalfUp),
            Exact::from_integer(101, -2)
        );
        assert_eq!(
            Exact::from_f64(9.996).round_at(-2, Unsigned::HalfUp),
            Exact::from_integer(10, 0)
        );
        assert_eq!(
            Exact::from_f64(1.13).round(-2, 25, Unsigned::HalfUp),
            Exact::from_integer(125, -2)
        );
        assert_eq!(
            Exact::from_f64(0.004).round_at(-1, Unsigned::Up),
            Exact::from_integer(1, -1)
        );
        assert_eq!(Exact::from_f64(0.004).round_at(-1, Unsigned::HalfUp), Exact::zero());
        assert_eq!(Exact::from_f64(5e-324).msd(), -324);
        assert_eq!(split_increment(2500), (25, 2));
        assert_eq!(plural_digits("1000000000000000000000.00"), "0.00");
        assert_eq!(plural_digits("1500000000000000000"), "500000000000000000");
    }
}
