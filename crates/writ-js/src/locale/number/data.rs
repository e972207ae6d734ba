//! A locale's number data (symbols, patterns, currency names), read off ICU4X's formatters and repaired with node's tables.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use icu::decimal::DecimalFormatter;
use icu::decimal::input::Decimal;
use icu::decimal::options::GroupingStrategy;
use icu::locale::extensions::unicode::key;
use icu::locale::{Locale, LocaleExpander};
use icu::plurals::{PluralCategory, PluralRules};
use icu::properties::CodePointMapData;
use icu::properties::props::GeneralCategory;
use icu_experimental::dimension::currency::CurrencyType;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::currency::options::CurrencyUsage;
use icu_experimental::dimension::percent::formatter::PercentFormatter;
use icu_experimental::dimension::percent::options::Display as PercentDisplay;
use writ_core::FifoCache;

use crate::error::{Error, Result};
use crate::locale::node::{
    CURRENCY_NAME_PATTERNS, CURRENCY_NAMES_REFUSED, CURRENCY_SYMBOL_FIXES, NAN_TEXTS, PLURALS_DIFFER, STYLE_GROUPING,
};
use crate::locale::{CACHE_SIZE, CURRENCY_MARK, NUMBER_MARK};

use super::CurrencyDisplay;
use super::write::plural_locale;

/// Number data per locale, style and currency.
pub(super) static NUMBER_DATA: LazyLock<FifoCache<String, Arc<NumberData>>> =
    LazyLock::new(|| FifoCache::new(CACHE_SIZE));

/// What a number format needs from the locale, beyond its symbols.
#[derive(Debug)]
pub(super) enum DataKind {
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
pub(super) struct Symbols {
    /// The digits zero to nine of the numbering system.
    pub(super) digits: [char; 10],
    /// The decimal separator.
    pub(super) decimal: String,
    /// The grouping separator.
    pub(super) group: String,
    /// The size of the rightmost group (0: no grouping).
    pub(super) primary: usize,
    /// The size of the other groups.
    pub(super) secondary: usize,
    /// The digits the leftmost group needs for grouping to show (`useGrouping: "auto"`).
    pub(super) min_grouping: usize,
    /// The text before and after a negative number.
    pub(super) minus: (String, String),
    /// The text before and after a number with an explicit plus.
    pub(super) plus: (String, String),
}

/// Patterns around the number ([`NUMBER_MARK`]) and the currency ([`CURRENCY_MARK`]).
#[derive(Debug)]
pub(super) struct SignedPatterns {
    /// For a number without a sign.
    pub(super) positive: String,
    /// For a negative number.
    pub(super) negative: String,
    /// For a number with an explicit plus.
    pub(super) plus: String,
}

/// How a currency is written.
#[derive(Debug)]
pub(super) enum CurrencyText {
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
pub(super) enum StyleData {
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
pub(super) struct NumberData {
    /// The digits, separators, grouping and signs.
    pub(super) symbols: Symbols,
    /// Group sizes of the percent, currency and accounting patterns where they are not the
    /// decimal pattern's (`[percent, currency, accounting]`, `(primary, secondary)`).
    pub(super) style_groups: [Option<(usize, usize)>; 3],
    /// The locale's text for NaN, when writ knows it.
    pub(super) nan: Option<String>,
    /// The style's patterns.
    pub(super) style: StyleData,
}

/// The locales `locale` inherits CLDR data from, itself first, without the root (ICU4X's
/// fallback chain: `es-MX`, `es-419`, `es`).
pub(super) fn data_chain(locale: &Locale) -> Vec<String> {
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
pub(super) fn inherited<'t, T>(table: &'t BTreeMap<String, T>, locale: &Locale) -> Option<&'t T> {
    data_chain(locale)
        .iter()
        .find_map(|tag| table.get(tag))
        .or_else(|| table.get("root"))
}

/// The refusal when ICU4X's data cannot give node's answer for a locale.
fn no_data(locale: &Locale, what: &str) -> Error {
    Error::guardrail(format!(
        "writ cannot format {what} for the locale \"{locale}\" the way JavaScript does; use another locale or option"
    ))
}

/// `text` parsed as a decimal, or zero.
pub(super) fn decimal(text: &str) -> Decimal {
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
pub(super) struct NumberRun {
    /// Where the number starts.
    pub(super) start: usize,
    /// Where it ends.
    pub(super) end: usize,
    /// Digit values, most significant first.
    pub(super) values: Vec<u8>,
    /// `(digits before it, text)` for each separator.
    pub(super) separators: Vec<(usize, String)>,
}

/// Finds the first number written with `digits` in `text`.
pub(super) fn find_number(text: &str, digits: &[char; 10]) -> Option<NumberRun> {
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
    Some(NAN_TEXTS.get(key.as_str()).map_or("NaN", String::as_str).to_owned())
}

impl NumberData {
    /// Loads the data of `kind` for `locale`; `zero` is the zero digit of a numbering system
    /// asked for, which ICU4X must have.
    pub(super) fn build(locale: &Locale, kind: &DataKind, zero: Option<char>) -> Result<NumberData> {
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
        if let Some(list) = inherited(&STYLE_GROUPING, locale) {
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
    let (short, narrow_list) = inherited(&CURRENCY_SYMBOL_FIXES, locale)?;
    let list = if narrow { narrow_list } else { short };
    list.split(' ').find_map(|item| match item.split_once('=') {
        Some((known, symbol)) if known == code => Some(symbol.to_owned()),
        None if item == code => Some(code.to_owned()),
        _ => None,
    })
}

/// The lowercase CLDR name of a plural category.
pub(super) fn category_name(category: PluralCategory) -> &'static str {
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
    let refused = PLURALS_DIFFER.contains(language)
        || inherited(&CURRENCY_NAMES_REFUSED, locale)
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
    for item in inherited(&CURRENCY_NAME_PATTERNS, locale)
        .map_or("", String::as_str)
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
