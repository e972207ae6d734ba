//! Locale lists: tags checked and canonicalized, and resolved against the locales node has data for.

use icu::locale::extensions::unicode::key;
use icu::locale::{Locale, LocaleCanonicalizer};
use writ_core::{Str, Value};

use crate::error::{Error, Result};
use crate::interp::Cx;

use super::default_locale;
use super::node::{ICU4X_LACKS, NODE_LANGUAGES, SCRIPT_LOCALES};
use super::options::{check_scalar_options, unusual_options};

/// `CanonicalizeLocaleList`: `undefined` is none, a string is one tag, an array holds tags.
/// Each tag is checked and canonicalized (`iw` → `he`, `EN-us` → `en-US`); a repeat is dropped.
pub(super) fn requested_locales(cx: &mut Cx<'_>, locales: &Value) -> Result<Vec<Locale>> {
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
pub(super) fn refuse_unusual_locales(locales: &Value) -> Result<()> {
    match locales {
        Value::Undefined | Value::Null | Value::String(_) => Ok(()),
        Value::Array(items) if items.iter().any(|item| matches!(item, Value::Array(_))) => Err(unusual_locale_item()),
        Value::Array(_) => Ok(()),
        _ => Err(unusual_locales()),
    }
}

/// Refuses, without reading them, the options writ never accepts.
pub(super) fn refuse_unusual_options(options: &Value) -> Result<()> {
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
    NODE_LANGUAGES.contains(language)
}

/// V8's locale resolution for `Intl.NumberFormat`: the first requested locale whose language
/// node has data for, else `en-US`. A script node has no locale for is dropped with
/// everything after it (`en-Latn-GB` resolves to `en`), and only the `nu` keyword is kept.
pub(super) fn resolve_number_locale(requested: &[Locale]) -> Result<Locale> {
    for locale in requested {
        let language = locale.id.language.as_str();
        if !node_knows(language) {
            continue;
        }
        if ICU4X_LACKS.contains(language) {
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
                SCRIPT_LOCALES.contains(pair.as_str())
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
