//! Option bags: read in `Intl`'s order, with its conversions and range checks.

use writ_core::{Object, Value};

use crate::coerce::number_to_str;
use crate::error::{Error, Result};
use crate::interp::Cx;

/// An options argument: `undefined` or a plain object of scalars.
pub(super) struct Options<'a> {
    /// The options object; `None` for `undefined`.
    object: Option<&'a Object>,
    /// The method, for messages (`toLocaleString`, `localeCompare`).
    method: &'static str,
}

/// The refusal of an options argument that is not an object.
pub(super) fn unusual_options() -> Error {
    Error::guardrail(
        "Options must be undefined or an object such as { style: \"currency\", currency: \"EUR\" }; writ does not \
         read other values as options",
    )
}

/// Refuses an options object with a value that is not a string, number, boolean or null.
pub(super) fn check_scalar_options(object: &Object) -> Result<()> {
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
    pub(super) fn new(options: &'a Value, method: &'static str) -> Result<Options<'a>> {
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
    pub(super) fn get(&self, name: &str) -> Option<&'a Value> {
        self.object
            .and_then(|object| object.get_str(name))
            .filter(|value| !value.is_undefined())
    }

    /// `GetOption` of type string: the value converted with `ToString`, charged by its length.
    pub(super) fn text(&self, cx: &mut Cx<'_>, name: &str) -> Result<Option<String>> {
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
    pub(super) fn choice(&self, cx: &mut Cx<'_>, name: &str, allowed: &[&'static str]) -> Result<Option<&'static str>> {
        let Some(text) = self.text(cx, name)? else {
            return Ok(None);
        };
        match allowed.iter().find(|&&choice| choice == text) {
            Some(&choice) => Ok(Some(choice)),
            None => Err(self.out_of_range(name, &text, allowed)),
        }
    }

    /// The RangeError for a string option outside its list.
    pub(super) fn out_of_range(&self, name: &str, text: &str, allowed: &[&str]) -> Error {
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
    pub(super) fn boolean(&self, name: &str) -> Option<bool> {
        self.get(name).map(Value::is_truthy)
    }

    /// The value of a number option converted with `ToNumber`, charged by what it reads.
    pub(super) fn number(&self, cx: &mut Cx<'_>, name: &str) -> Result<Option<f64>> {
        let Some(value) = self.get(name) else {
            return Ok(None);
        };
        Ok(Some(match value {
            Value::Number(n) => *n,
            Value::String(s) => {
                cx.text(s.len_utf16())?;
                writ_core::js::string_to_number(s)
            }
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Null => 0.0,
            _ => return Err(unusual_options()),
        }))
    }
}

/// `DefaultNumberOption`: `n` floored, or a RangeError when it is NaN or outside `min..=max`.
pub(super) fn digits_in_range(n: f64, name: &str, min: u32, max: u32) -> Result<u32> {
    if n.is_nan() || n < f64::from(min) || n > f64::from(max) {
        return Err(Error::range_error(format!(
            "{name} value is out of range: it takes a whole number from {min} to {max}, not {}",
            number_to_str(n)
        )));
    }
    Ok(n.floor() as u32)
}

/// Whether `text` is a `type` sequence of a Unicode locale id: `(3*8alphanum)` joined by `-`.
pub(super) fn is_type_sequence(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('-')
            .all(|part| (3..=8).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_alphanumeric()))
}
