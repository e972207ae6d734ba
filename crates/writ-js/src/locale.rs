//! The locale methods: a number's and an array's `toLocaleString`, `toLocaleUpperCase` and
//! `toLocaleLowerCase`, and `localeCompare`, on ICU4X's CLDR data, answering as node 20 does
//! (V8 11.3 on ICU 78, CLDR 48).
//!
//! writ fixes the default locale to `en-US`: with no locales (`undefined` or `[]`) every host
//! formats and compares the same data the same way, whatever its own settings say.
//!
//! How the answers stay node's:
//! - Locale lists are validated, canonicalized and resolved the way V8 resolves them: a tag
//!   whose language node has no data for is skipped, and nothing left means `en-US`.
//! - Numbers are rounded here, exactly, from the shortest decimal that round-trips the double
//!   (as ICU does), with every digit and rounding option of `Intl.NumberFormat`; the
//!   grouping, sign and pattern rules are ICU's.
//! - The symbols and patterns are CLDR data, read off ICU4X's own formatters once per locale
//!   and cached.
//! - Where ICU4X's data or behaviour cannot give node's answer (the unit style, scientific
//!   and compact notation, a locale node knows and ICU4X has no data for, a lone surrogate
//!   in collated text), the call is refused as a guardrail violation, never answered
//!   differently.

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

/// Formatters and collators kept per kind, oldest dropped first.
const CACHE_SIZE: usize = 64;

/// Marks where the number goes in a pattern (a private-use character CLDR never uses).
const NUMBER_MARK: char = '\u{F8F0}';
/// Marks where the currency goes in a pattern.
const CURRENCY_MARK: char = '\u{F8F1}';

// ------------------------------------------------------------------------------------------
// The four entry points.
// ------------------------------------------------------------------------------------------

/// `n.toLocaleString(locales, options)`, as `Intl.NumberFormat(locales, options).format(n)`.
pub(crate) fn number_to_locale_string(cx: &mut Cx<'_>, n: f64, locales: &Value, options: &Value) -> Result<Str> {
    let format = NumberFormat::new(cx, locales, options)?;
    format.format(cx, n)
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
    let mut format: Option<NumberFormat> = None;
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
                    format = Some(NumberFormat::new(cx, locales, options)?);
                }
                match &format {
                    Some(format) => format.format(cx, *n)?,
                    None => continue,
                }
            }
            Value::String(text) => text.clone(),
            Value::Bool(true) => Str::from("true"),
            Value::Bool(false) => Str::from("false"),
            Value::Object(_) => Str::from("[object Object]"),
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
        "tr" | "az" | "lt" | "el" => language.parse::<LanguageIdentifier>().unwrap_or_default(),
        _ => LanguageIdentifier::default(),
    };
    let units = text.to_utf16();
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mapper = CaseMapper::new();
    let mut segment = String::new();
    let flush = |segment: &mut String, out: &mut Vec<u16>| {
        if segment.is_empty() {
            return;
        }
        let mapped = if upper {
            mapper.uppercase_to_string(segment, &rules)
        } else {
            mapper.lowercase_to_string(segment, &rules)
        };
        out.extend(mapped.encode_utf16());
        segment.clear();
    };
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            // What node's Unicode does not know has no case and breaks the casing context,
            // like a lone surrogate or the end of the text: it is copied as it is.
            Ok(c) if !newer_than_node(u32::from(c)) => segment.push(c),
            Ok(c) => {
                flush(&mut segment, &mut out);
                let mut buffer = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut buffer));
            }
            Err(lone) => {
                flush(&mut segment, &mut out);
                out.push(lone.unpaired_surrogate());
            }
        }
    }
    flush(&mut segment, &mut out);
    cx.string(out.len())?;
    Ok(Str::from_utf16(&out))
}

/// `a.localeCompare(b, locales, options)`: -1, 0 or 1, as `Intl.Collator(locales,
/// options).compare(a, b)` answers in V8.
pub(crate) fn compare(cx: &mut Cx<'_>, a: &Str, b: &Str, locales: &Value, options: &Value) -> Result<f64> {
    check_mark_run(a)?;
    check_mark_run(b)?;
    cx.text(a.len_utf16().saturating_add(b.len_utf16()))?;
    let requested = requested_locales(cx, locales)?;
    let bag = Options::new(options, "localeCompare")?;
    let spec = CollatorSpec::new(cx, &requested, &bag)?;
    let left = a.to_utf16();
    let right = b.to_utf16();
    for units in [&left, &right] {
        refuse_uncollatable(units)?;
    }
    let collator = cached(&COLLATORS, &spec.key(), || spec.build())?;
    cx.check_clock()?;
    Ok(match collator.compare_utf16(&left, &right) {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    })
}

// ------------------------------------------------------------------------------------------
// Locale lists.
// ------------------------------------------------------------------------------------------

/// `CanonicalizeLocaleList`: `undefined` is none, a string is one tag, an array holds tags.
/// Each tag is checked and canonicalized (`iw` → `he`, `EN-us` → `en-US`); a repeat is dropped.
fn requested_locales(cx: &mut Cx<'_>, locales: &Value) -> Result<Vec<Locale>> {
    match locales {
        Value::Undefined => Ok(Vec::new()),
        Value::Null => Err(Error::runtime(
            "Cannot convert null to a locale list: pass undefined for the default locale, a tag such as \"en-US\", \
             or an array of tags",
        )),
        Value::String(tag) => Ok(vec![parse_tag(cx, tag)?]),
        Value::Array(items) => {
            // The engine compares each tag with those it kept.
            let n = items.len() as u64;
            cx.steps(n.saturating_mul(n))?;
            let mut list: Vec<Locale> = Vec::with_capacity(items.len());
            for item in items.iter() {
                let locale = match item {
                    Value::String(tag) => parse_tag(cx, tag)?,
                    Value::Object(_) => return Err(bad_tag("[object Object]")),
                    Value::Array(_) => return Err(unusual_locale_item()),
                    other => {
                        return Err(Error::runtime(format!(
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
    Error::runtime(format!(
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
    Ok(Locale::try_from_str(DEFAULT_LOCALE).unwrap_or_default())
}

// ------------------------------------------------------------------------------------------
// Options.
// ------------------------------------------------------------------------------------------

/// An options argument: `undefined` or a plain object of scalars.
struct Options<'a> {
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
            Value::Null => Err(Error::runtime(format!(
                "Cannot convert null to an options object in {method}: pass undefined or an object such as \
                 {{ maximumFractionDigits: 2 }}"
            ))),
            Value::Object(object) => {
                check_scalar_options(object)?;
                Ok(Options { object: Some(object), method })
            }
            _ => Err(unusual_options()),
        }
    }

    /// The value of `name`, or `None` when it is missing or `undefined`.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.object.and_then(|object| object.get_str(name)).filter(|value| !value.is_undefined())
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
        Error::runtime(format!(
            "Value \"{shown}\" out of range for {} options property {name}: use one of {}",
            self.method,
            allowed.iter().map(|choice| format!("\"{choice}\"")).collect::<Vec<_>>().join(", ")
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
        return Err(Error::runtime(format!(
            "{name} value is out of range: it takes a whole number from {min} to {max}, not {}",
            number_to_str(n)
        )));
    }
    Ok(n.floor() as u32)
}

/// Whether `text` is a `type` sequence of a Unicode locale id: `(3*8alphanum)` joined by `-`.
fn is_type_sequence(text: &str) -> bool {
    !text.is_empty()
        && text.split('-').all(|part| (3..=8).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_alphanumeric()))
}

// ------------------------------------------------------------------------------------------
// Number formats: the options.
// ------------------------------------------------------------------------------------------

/// `style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Decimal,
    Percent,
    Currency,
}

/// `currencyDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CurrencyDisplay {
    Symbol,
    Narrow,
    Code,
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
    Auto,
    Never,
    Always,
    ExceptZero,
    Negative,
}

/// `roundingMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingMode {
    Ceil,
    Floor,
    Expand,
    Trunc,
    HalfCeil,
    HalfFloor,
    HalfExpand,
    HalfTrunc,
    HalfEven,
}

/// Which digit limits round the number (`[[RoundingType]]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundingType {
    FractionDigits,
    SignificantDigits,
    MorePrecision,
    LessPrecision,
}

/// The digit options, resolved as `SetNumberFormatDigitOptions` resolves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digits {
    min_integer: u32,
    min_fraction: u32,
    max_fraction: u32,
    min_significant: u32,
    max_significant: u32,
    rounding: RoundingType,
    increment: u32,
    mode: RoundingMode,
    strip_if_integer: bool,
}

/// A resolved `Intl.NumberFormat`: the options and the locale's data.
struct NumberFormat {
    data: Arc<NumberData>,
    style: Style,
    digits: Digits,
    grouping: Grouping,
    sign: SignDisplay,
    /// `currencySign: "accounting"`.
    accounting: bool,
}

/// The currencies whose minor unit is not two digits, as node's ICU counts them (CLDR 48).
fn currency_digits(code: &str) -> u32 {
    const ZERO: &[&str] = &[
        "ADP", "AFN", "ALL", "BIF", "BYR", "CLP", "COP", "DJF", "ESP", "GNF", "HUF", "IDR", "IQD", "IRR", "ISK", "ITL",
        "JPY", "KMF", "KPW", "KRW", "LAK", "LBP", "LUF", "MGA", "MGF", "MMK", "MRO", "PKR", "PYG", "RWF", "SLL", "SOS",
        "STD", "SYP", "TMM", "TRL", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF", "YER", "ZMK", "ZWD",
    ];
    const THREE: &[&str] = &["BHD", "JOD", "KWD", "LYD", "OMR", "TND"];
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
const SANCTIONED_UNITS: &[&str] = &[
    "acre",
    "bit",
    "byte",
    "celsius",
    "centimeter",
    "day",
    "degree",
    "fahrenheit",
    "fluid-ounce",
    "foot",
    "gallon",
    "gigabit",
    "gigabyte",
    "gram",
    "hectare",
    "hour",
    "inch",
    "kilobit",
    "kilobyte",
    "kilogram",
    "kilometer",
    "liter",
    "megabit",
    "megabyte",
    "meter",
    "microsecond",
    "mile",
    "mile-scandinavian",
    "milliliter",
    "millimeter",
    "millisecond",
    "minute",
    "month",
    "nanosecond",
    "ounce",
    "percent",
    "petabyte",
    "pound",
    "second",
    "stone",
    "terabit",
    "terabyte",
    "week",
    "yard",
    "year",
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
            return Err(Error::runtime(format!(
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
                return Err(Error::runtime(
                    "Currency code is required with currency style: add one, as in { style: \"currency\", currency: \
                     \"EUR\" }",
                ));
            }
            None => None,
            Some(code) => {
                if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
                    let shown: String = code.chars().take(40).collect();
                    return Err(Error::runtime(format!(
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
                return Err(Error::runtime(
                    "Invalid unit argument: the unit style needs a unit, as in { style: \"unit\", unit: \"meter\" }",
                ));
            }
            None => {}
            Some(unit) => {
                if !is_well_formed_unit(&unit) {
                    let shown: String = unit.chars().take(40).collect();
                    return Err(Error::runtime(format!(
                        "Invalid unit argument '{shown}': use a unit such as \"meter\", \"kilogram\" or \
                         \"kilometer-per-hour\""
                    )));
                }
            }
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
        let sign = match bag.choice(cx, "signDisplay", &["auto", "never", "always", "exceptZero", "negative"])? {
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
        let chosen = numbering.or_else(|| locale.extensions.unicode.keywords.get(&key!("nu")).map(|v| v.to_string()));
        locale.extensions.unicode.keywords.clear();
        let mut zero = '0';
        if let Some(numbering) = chosen
            && let Some(system_zero) = numbering_zero(&numbering)
            && let Ok(value) = KeywordValue::try_from_str(&numbering)
        {
            locale.extensions.unicode.keywords.set(key!("nu"), value);
            zero = system_zero;
        }
        let kind = match (style, &currency) {
            (Style::Currency, Some(code)) => DataKind::Currency { code: code.clone(), display },
            (Style::Percent, _) => DataKind::Percent,
            _ => DataKind::Decimal,
        };
        let key = format!("{locale}|{kind:?}");
        cx.text(key.len())?;
        let (data, built) = cached_with_flag(&NUMBER_DATA, &key, || NumberData::build(&locale, &kind, zero))?;
        if built {
            cx.check_clock()?;
        }
        Ok(NumberFormat { data, style, digits, grouping, sign, accounting })
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
                return Err(Error::runtime(format!(
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
        &["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"],
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
    let strip_if_integer = bag.choice(cx, "trailingZeroDisplay", &["auto", "stripIfInteger"])? == Some("stripIfInteger");

    let default_max_fraction = if increment != 1 { default_min_fraction } else { default_max_fraction };
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
            let min = min_fraction.map(|n| digits_in_range(n, "minimumFractionDigits", 0, 100)).transpose()?;
            let max = max_fraction.map(|n| digits_in_range(n, "maximumFractionDigits", 0, 100)).transpose()?;
            let (min, max) = match (min, max) {
                (None, Some(max)) => (default_min_fraction.min(max), max),
                (Some(min), None) => (min, default_max_fraction.max(min)),
                (Some(min), Some(max)) => {
                    if min > max {
                        return Err(Error::runtime(format!(
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
            return Err(Error::runtime(
                "roundingIncrement needs fraction digits: RoundingType is not fractionDigits, so drop the significant \
                 digits options or the roundingPriority",
            ));
        }
        if digits.max_fraction != digits.min_fraction {
            return Err(Error::runtime(
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
    SYSTEMS.binary_search_by(|&(system, _)| system.cmp(name)).ok().and_then(|at| SYSTEMS.get(at)).map(|&(_, zero)| zero)
}
