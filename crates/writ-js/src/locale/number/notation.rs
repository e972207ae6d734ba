//! The notations beside the standard one (`scientific`, `engineering`, `compact`) and the
//! `unit` style: where the power of ten goes, and the words around the number.
//!
//! The exponent separator is node's (ICU4X's data has none); compact names and unit names are
//! CLDR data read off ICU4X at format time, with the plural form of the number as written.
//! The languages where ICU4X's CLDR 49 names differ from node's CLDR 48 are refused
//! ([`NOTATIONS_REFUSED`]).

use icu::locale::{DataLocale, Locale};
use icu::plurals::{PluralOperands, PluralRules};
use icu_decimal::CompactDecimalFormatter;
use icu_decimal::options::CompactDecimalFormatterOptions;
use icu_experimental::dimension::provider::units::categorized_display_names as units;
use icu_experimental::dimension::provider::units::display_names::UnitsDisplayNames;
use icu_provider::prelude::*;

use crate::error::{Error, Result};
use crate::locale::NUMBER_MARK;
use crate::locale::node::{EXPONENT_SEPARATORS, NOTATIONS_REFUSED};

use super::data::{data_chain, decimal, find_number, inherited};
use super::exact::{Exact, Shown};
use super::write::{plural_digits, plural_locale};

/// `notation`, with `compactDisplay` for the compact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Notation {
    /// Digits as they are.
    Standard,
    /// One integer digit and a power of ten: `1.235E3`.
    Scientific,
    /// A power of ten that is a multiple of three: `12.345E3`.
    Engineering,
    /// A locale's short or long names for powers of ten: `1.2K`, `1.2 thousand`.
    Compact {
        /// `compactDisplay: "long"`.
        long: bool,
    },
}

impl Notation {
    /// The notation `notation` and `compactDisplay` name.
    pub(super) fn named(notation: Option<&str>, display: Option<&str>) -> Notation {
        match notation {
            Some("scientific") => Notation::Scientific,
            Some("engineering") => Notation::Engineering,
            Some("compact") => Notation::Compact {
                long: display == Some("long"),
            },
            _ => Notation::Standard,
        }
    }

    /// The option's own name, for messages and refusal tables.
    pub(super) fn name(self) -> &'static str {
        match self {
            Notation::Standard => "standard",
            Notation::Scientific => "scientific",
            Notation::Engineering => "engineering",
            Notation::Compact { long: false } => "compact",
            Notation::Compact { long: true } => "compact-long",
        }
    }
}

/// What a non-standard notation needs at format time.
pub(super) enum Scaler {
    /// The exponent is the magnitude, or the magnitude rounded down to a multiple of three.
    Exponent {
        /// Multiples of three only.
        engineering: bool,
        /// The text between the digits and the exponent.
        separator: String,
    },
    /// The locale's compact names.
    Compact(Box<CompactDecimalFormatter>),
}

impl Scaler {
    /// The scaler of `notation` for `locale`, whose digits start at `zero`; `None` for the
    /// standard notation. Refuses the languages whose names writ cannot give as node does.
    pub(super) fn new(notation: Notation, locale: &Locale, zero: char) -> Result<Option<Scaler>> {
        if notation == Notation::Standard {
            return Ok(None);
        }
        refuse_listed(locale, notation.name())?;
        Ok(Some(match notation {
            Notation::Standard => return Ok(None),
            Notation::Scientific | Notation::Engineering => Scaler::Exponent {
                engineering: notation == Notation::Engineering,
                separator: exponent_separator(locale, zero),
            },
            Notation::Compact { long } => {
                let options = CompactDecimalFormatterOptions::default();
                let built = if long {
                    CompactDecimalFormatter::try_new_long(locale.into(), options)
                } else {
                    CompactDecimalFormatter::try_new_short(locale.into(), options)
                };
                Scaler::Compact(Box::new(built.map_err(|_| {
                    Error::guardrail(format!(
                        "writ has no compact names for the locale \"{locale}\"; use notation: \"standard\" or another \
                         locale"
                    ))
                })?))
            }
        }))
    }

    /// The power of ten a number of `magnitude` is written with.
    fn power_for(&self, magnitude: i32) -> i32 {
        match self {
            Scaler::Exponent { engineering: false, .. } => magnitude,
            Scaler::Exponent { engineering: true, .. } => magnitude.div_euclid(3) * 3,
            Scaler::Compact(formatter) => {
                let magnitude = i16::try_from(magnitude).unwrap_or(if magnitude < 0 { i16::MIN } else { i16::MAX });
                i32::from(formatter.compact_exponent_for_magnitude(magnitude))
            }
        }
    }

    /// `x` divided by its power of ten and rounded with `round`, and the power: when rounding
    /// carries into a new magnitude (`999,999` to `1000K`), the power is chosen again for it.
    pub(super) fn scale(&self, x: &Exact, round: impl Fn(&Exact) -> Shown) -> (Shown, i32) {
        let magnitude = if x.is_zero() { 0 } else { x.msd() };
        let power = self.power_for(magnitude);
        let shown = round(&x.shifted(-power));
        if shown.value.is_zero() || shown.value.msd() + power <= magnitude {
            return (shown, power);
        }
        let again = self.power_for(magnitude + 1);
        if again == power {
            (shown, power)
        } else {
            (round(&x.shifted(-again)), again)
        }
    }

    /// `digits` (the scaled number as written, without a sign) with the power of ten put back;
    /// the sign goes before it all (`-1.2M`, Hausa `-Miliyan 1.2`). `minus` starts a negative
    /// exponent, `exponent` writes the exponent's digits, `ascii` is the scaled number in ASCII
    /// (it picks a compact name's plural form), and `negative` says whether the number shows a
    /// minus.
    pub(super) fn finish(
        &self,
        digits: &str,
        ascii: &str,
        power: i32,
        minus: &str,
        negative: bool,
        exponent: impl Fn(u32) -> String,
    ) -> Result<String> {
        match self {
            Scaler::Exponent { separator, .. } => {
                let sign = if power < 0 { minus } else { "" };
                Ok(format!("{digits}{separator}{sign}{}", exponent(power.unsigned_abs())))
            }
            Scaler::Compact(formatter) => {
                let refuse = || {
                    Error::guardrail(
                        "writ cannot place this number among the locale's compact names; use notation: \"standard\"",
                    )
                };
                let exponent = u8::try_from(power).map_err(|_| refuse())?;
                let text = formatter
                    .format_with_exponent(&decimal(ascii), exponent)
                    .map_err(|_| refuse())?
                    .to_string();
                // A name alone stands for exactly one of its unit (French "mille"); ICU gives
                // minus one the plural form's pattern instead, which ICU4X cannot be asked for.
                if !text.chars().any(char::is_numeric) {
                    return if negative { Err(refuse()) } else { Ok(text) };
                }
                let run = find_number(&text, &digits_of(&text)).ok_or_else(refuse)?;
                let (Some(before), Some(after)) = (text.get(..run.start), text.get(run.end..)) else {
                    return Err(refuse());
                };
                Ok(format!("{before}{digits}{after}"))
            }
        }
    }
}

/// The ten digits of the numbering system `text` writes its first digit in.
fn digits_of(text: &str) -> [char; 10] {
    let first = text.chars().find(|c| c.is_numeric()).unwrap_or('0');
    let value = first.to_digit(10).unwrap_or(0);
    let zero = u32::from(first).saturating_sub(value);
    std::array::from_fn(|i| char::from_u32(zero + u32::try_from(i).unwrap_or(0)).unwrap_or('0'))
}

/// Refuses `what` (a notation, or `unit`) in the locales whose data differs from node's.
fn refuse_listed(locale: &Locale, what: &str) -> Result<()> {
    if let Some(list) = inherited(&NOTATIONS_REFUSED, locale)
        && list.split(' ').any(|known| known == what || known == "*")
    {
        return Err(Error::guardrail(format!(
            "writ's {what} data for the locale \"{locale}\" differs from JavaScript's (ICU4X has a newer CLDR); \
             format with another locale, such as \"en-US\""
        )));
    }
    Ok(())
}

/// The exponent separator of `locale` in the numbering system whose zero is `zero`: node's
/// table, by locale and system, then by system, then by locale; `E` for the rest.
fn exponent_separator(locale: &Locale, zero: char) -> String {
    let system = super::numbering_name(zero).unwrap_or("latn");
    let chain = data_chain(locale);
    let by_system = chain
        .iter()
        .find_map(|tag| EXPONENT_SEPARATORS.get(&format!("{tag}/{system}")));
    let by_locale = || chain.iter().find_map(|tag| EXPONENT_SEPARATORS.get(tag));
    by_system
        .or_else(|| EXPONENT_SEPARATORS.get(&format!("/{system}")))
        .or_else(by_locale)
        .cloned()
        .unwrap_or_else(|| "E".to_owned())
}

/// The marker of a unit's names, whichever category they come from.
type UnitsMarker = icu_provider::marker::ErasedMarker<UnitsDisplayNames<'static>>;

/// `unitDisplay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum UnitWidth {
    /// `"short"`: `12 km`.
    Short,
    /// `"narrow"`: `12km`.
    Narrow,
    /// `"long"`: `12 kilometers`.
    Long,
}

impl UnitWidth {
    /// The width `unitDisplay` names (short by default).
    pub(super) fn named(name: Option<&str>) -> UnitWidth {
        match name {
            Some("narrow") => UnitWidth::Narrow,
            Some("long") => UnitWidth::Long,
            _ => UnitWidth::Short,
        }
    }

    /// The width as CLDR's data names it.
    fn cldr(self) -> &'static str {
        match self {
            UnitWidth::Short => "short",
            UnitWidth::Narrow => "narrow",
            UnitWidth::Long => "long",
        }
    }
}

/// A unit's names in a locale, one per plural form.
pub(super) struct UnitNames {
    /// The names, as CLDR patterns.
    names: DataPayload<UnitsMarker>,
    /// The rules that pick the form.
    rules: PluralRules,
}

impl UnitNames {
    /// The names of `unit` (a simple unit ECMA-402 sanctions) in `locale` at `width`. ICU4X has
    /// names for lengths, areas, volumes, masses and durations; other units are refused.
    pub(super) fn new(unit: &str, width: UnitWidth, locale: &Locale) -> Result<UnitNames> {
        let refuse = || {
            Error::guardrail(format!(
                "writ has no names for the unit \"{unit}\" (ICU4X's data has lengths, areas, volumes, masses and \
                 durations); format the number and append the unit yourself, as in n.toLocaleString(\"en-US\") + \
                 \" {unit}\""
            ))
        };
        if unit.contains("-per-") {
            return Err(refuse());
        }
        refuse_listed(locale, &format!("unit-{}", width.cldr()))?;
        let attribute = format!("{}-{unit}", width.cldr());
        let attributes = DataMarkerAttributes::try_from_str(&attribute).map_err(|_| refuse())?;
        let data_locale = DataLocale::from(locale);
        let request = DataRequest {
            id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &data_locale),
            ..Default::default()
        };
        // A unit's names sit in one of three tiers per category (the units the locale's regions
        // use, other regions' units, the rest), and each tier falls back to the root for the
        // units it lacks: the answer is the tier whose data is the locale's own or nearest.
        let provider = icu_experimental::provider::Baked;
        let chain = data_chain(locale);
        let rank = |metadata: &DataResponseMetadata| {
            let found = metadata
                .locale
                .as_ref()
                .map_or_else(|| data_locale.to_string(), ToString::to_string);
            chain.iter().position(|tag| *tag == found).unwrap_or(chain.len())
        };
        let mut best: Option<(usize, DataPayload<UnitsMarker>)> = None;
        macro_rules! consider {
            ($($marker:ty),*) => {$(
                if let Ok(response) = DataProvider::<$marker>::load(&provider, request) {
                    let at = rank(&response.metadata);
                    if best.as_ref().is_none_or(|(known, _)| at < *known) {
                        best = Some((at, response.payload.cast()));
                    }
                }
            )*};
        }
        consider!(
            units::UnitsNamesLengthCoreV1,
            units::UnitsNamesLengthExtendedV1,
            units::UnitsNamesLengthOutlierV1,
            units::UnitsNamesAreaCoreV1,
            units::UnitsNamesAreaExtendedV1,
            units::UnitsNamesAreaOutlierV1,
            units::UnitsNamesVolumeCoreV1,
            units::UnitsNamesVolumeExtendedV1,
            units::UnitsNamesVolumeOutlierV1,
            units::UnitsNamesMassCoreV1,
            units::UnitsNamesMassExtendedV1,
            units::UnitsNamesMassOutlierV1,
            units::UnitsNamesDurationCoreV1,
            units::UnitsNamesDurationExtendedV1,
            units::UnitsNamesDurationOutlierV1
        );
        let names = best.map(|(_, names)| names);
        let names = names.ok_or_else(refuse)?;
        let plural = plural_locale(locale);
        let rules = PluralRules::try_new_cardinal((&plural).into()).map_err(|_| refuse())?;
        Ok(UnitNames { names, rules })
    }

    /// The pattern (with [`NUMBER_MARK`] for the number) for a number written `ascii`; the
    /// `other` form for NaN and the infinities.
    pub(super) fn pattern(&self, ascii: Option<&str>) -> String {
        let names = self.names.get();
        let pattern = match ascii {
            Some(ascii) => names.get(PluralOperands::from(&decimal(&plural_digits(ascii))), &self.rules),
            None => names.elements.get_default().1,
        };
        pattern.interpolate((NUMBER_MARK,)).to_string()
    }
}
