//! Writing a rounded number with the locale's digits, separators, grouping, signs and patterns.

use icu::locale::Locale;
use icu::plurals::{PluralCategory, PluralRules};
use icu::properties::CodePointMapData;
use icu::properties::props::GeneralCategory;
use writ_core::Str;

use crate::error::{Error, Result};
use crate::interp::Cx;
use crate::locale::{CURRENCY_MARK, NUMBER_MARK};

use super::data::{CurrencyText, SignedPatterns, StyleData, Symbols, category_name, decimal};
use super::exact::{Exact, Shown, count};
use super::{Grouping, NumberFormat, SignDisplay, Style};

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
pub(super) fn plural_locale(locale: &Locale) -> Locale {
    let mut plural = Locale::UNKNOWN;
    plural.id.language = locale.id.language;
    if locale.id.language.as_str() == "pt" && locale.id.region.is_some_and(|region| region.as_str() == "PT") {
        plural.id.region = locale.id.region;
    }
    plural
}

/// The number ICU picks a plural form by: its integer part keeps only its lowest 18 digits
/// (ICU's operands hold the integer in 64 bits), so 10^21 reads as 0.
pub(super) fn plural_digits(ascii: &str) -> String {
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
    pub(in crate::locale) fn format(&self, cx: &mut Cx<'_>, x: f64) -> Result<Str> {
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
            if self.style == Style::Percent && self.hundredths {
                exact = exact.shifted(2);
            }
            let (shown, power) = match &self.scaler {
                Some(scaler) => scaler.scale(&exact, |x| self.digits.round(x, negative)),
                None => (self.digits.round(&exact, negative), 0),
            };
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
            let (mut text, ascii) = write_digits(&grouped, &shown, self.grouping, self.digits.min_integer);
            if let Some(scaler) = &self.scaler {
                let exponent = |n: u32| {
                    let digit = |d: char| {
                        let at = d.to_digit(10).and_then(|v| usize::try_from(v).ok()).unwrap_or(0);
                        symbols.digits.get(at).copied().unwrap_or(d)
                    };
                    n.to_string().chars().map(digit).collect::<String>()
                };
                let shows_minus = sign_of(self.sign, negative, shown.value.is_zero(), false) == Sign::Minus;
                text = scaler.finish(&text, &ascii, power, &symbols.minus.0, shows_minus, exponent)?;
            }
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
            StyleData::Decimal => match &self.unit {
                Some(unit) => fill(&unit.pattern(ascii.as_deref()), &signed(&body), "", false),
                None => signed(&body),
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    /// ICU's plural operands keep the integer's lowest 18 digits.
    #[test]
    fn plural_digits_keep_the_lowest_18_integer_digits() {
        assert_eq!(plural_digits("1000000000000000000000.00"), "0.00");
        assert_eq!(plural_digits("1500000000000000000"), "500000000000000000");
    }
}
