//! Conversions between [`Value`] and serde: `serde_json::Value` both ways, and `Serialize` /
//! `Deserialize` so a `Value` can sit inside documented serde formats.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::{Object, Str, Value};

/// The largest integer magnitude an `f64` holds exactly.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

impl From<&serde_json::Value> for Value {
    /// Converts a serde_json value. Numbers become `f64`, as `JSON.parse` makes them (integers
    /// beyond 2^53 round); object keys take JavaScript's order (see [`Object`]).
    fn from(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(flag) => Value::Bool(*flag),
            serde_json::Value::Number(number) => Value::Number(number.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(text) => Value::String(Str::from(text.as_str())),
            serde_json::Value::Array(elements) => Value::from(elements.iter().map(Value::from).collect::<Vec<_>>()),
            serde_json::Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, value)| (Str::from(key.as_str()), Value::from(value)))
                    .collect::<Object>(),
            ),
        }
    }
}

impl From<serde_json::Value> for Value {
    fn from(json: serde_json::Value) -> Value {
        Value::from(&json)
    }
}

impl Value {
    /// Converts to a serde_json value as `JSON.stringify` would see it: `undefined` is left out
    /// of objects and becomes `null` in arrays and at the top, non-finite numbers become `null`,
    /// and lone surrogates become U+FFFD (serde_json strings are UTF-8).
    ///
    /// Integral numbers within ±2^53 become serde_json integers, so they print without `.0`.
    pub fn to_serde_json(&self) -> serde_json::Value {
        match self {
            Value::Undefined | Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(*flag),
            Value::Number(number) => number_to_serde(*number),
            Value::String(text) => serde_json::Value::String(text.to_string_lossy().into_owned()),
            Value::Array(elements) => serde_json::Value::Array(elements.iter().map(Value::to_serde_json).collect()),
            Value::Object(object) => serde_json::Value::Object(
                object
                    .iter()
                    .filter(|(_, value)| !value.is_undefined())
                    .map(|(key, value)| (key.to_string_lossy().into_owned(), value.to_serde_json()))
                    .collect(),
            ),
        }
    }
}

fn exact_integer(number: f64) -> Option<i64> {
    (number.fract() == 0.0 && number.abs() <= MAX_EXACT_INTEGER && !(number == 0.0 && number.is_sign_negative()))
        .then_some(number as i64)
}

fn number_to_serde(number: f64) -> serde_json::Value {
    if let Some(integer) = exact_integer(number) {
        return serde_json::Value::Number(integer.into());
    }
    serde_json::Number::from_f64(number).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

impl Serialize for Value {
    /// Serializes with the same rules as [`Value::to_serde_json`]. For JSON text exactly as
    /// `JSON.stringify` writes it, use [`Value::to_json_string`] instead.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Undefined | Value::Null => serializer.serialize_unit(),
            Value::Bool(flag) => serializer.serialize_bool(*flag),
            Value::Number(number) => match exact_integer(*number) {
                Some(integer) => serializer.serialize_i64(integer),
                None if number.is_finite() => serializer.serialize_f64(*number),
                None => serializer.serialize_unit(),
            },
            Value::String(text) => serializer.serialize_str(&text.to_string_lossy()),
            Value::Array(elements) => {
                let mut seq = serializer.serialize_seq(Some(elements.len()))?;
                for element in elements.iter() {
                    seq.serialize_element(element)?;
                }
                seq.end()
            }
            Value::Object(object) => {
                let present = object.iter().filter(|(_, value)| !value.is_undefined());
                let mut map = serializer.serialize_map(None)?;
                for (key, value) in present {
                    map.serialize_entry(&*key.to_string_lossy(), value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Value, E> {
        Ok(Value::Bool(flag))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Value, E> {
        Ok(Value::Number(number as f64))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Value, E> {
        Ok(Value::Number(number as f64))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Value, E> {
        Ok(Value::Number(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Value, E> {
        Ok(Value::from(text))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(element) = seq.next_element()? {
            elements.push(element);
        }
        Ok(Value::from(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Object::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(Str::from(key), value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// serde_json values whose numbers an f64 holds exactly and whose keys are not array
    /// indices, so that the round trip keeps everything, order included.
    fn arb_serde_json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            (-(1i64 << 53)..(1i64 << 53)).prop_map(|integer| json!(integer)),
            any::<f64>()
                .prop_filter("finite, non-integral", |number| number.is_finite()
                    && number.fract() != 0.0)
                .prop_map(|number| json!(number)),
            any::<String>().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
                prop::collection::vec(("[a-z_][a-zA-Z0-9\u{e9}\u{1F600}]{0,6}", inner), 0..8)
                    .prop_map(|entries| serde_json::Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    /// writ values with any keys (array indices included), lone surrogates excluded, because
    /// serde_json strings cannot hold them.
    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            // -0 is left out: JSON text writes it as 0, as JSON.stringify does.
            any::<f64>()
                .prop_filter("finite, not -0", |number| number.is_finite()
                    && !(*number == 0.0 && number.is_sign_negative()))
                .prop_map(Value::Number),
            any::<String>().prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
                prop::collection::vec(("[0-9]{1,3}|[a-z\u{e9}]{0,4}", inner), 0..8).prop_map(|entries| {
                    Value::Object(
                        entries
                            .into_iter()
                            .map(|(key, value)| (Str::from(key), value))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn serde_json_round_trips_through_value(json in arb_serde_json()) {
            let value = Value::from(&json);
            prop_assert_eq!(value.to_serde_json(), json.clone());
            // Serialize agrees with the conversion, and JSON text agrees with serde_json's reading.
            prop_assert_eq!(serde_json::to_value(&value).ok(), Some(json.clone()));
            let text = value.to_json_string().unwrap_or_default();
            prop_assert_eq!(serde_json::from_str::<serde_json::Value>(&text).ok(), Some(json));
        }

        #[test]
        fn value_round_trips_through_serde_json(value in arb_value()) {
            prop_assert_eq!(Value::from(&value.to_serde_json()), value.clone());
            let text = serde_json::to_string(&value).unwrap_or_default();
            prop_assert_eq!(serde_json::from_str::<Value>(&text).ok(), Some(value.clone()));
            let ours = value.to_json_string().unwrap_or_default();
            prop_assert_eq!(crate::parse_json(&ours).ok(), Some(value));
        }
    }

    #[test]
    fn what_serde_json_cannot_hold_follows_json_stringify() {
        let mut object = Object::new();
        object.insert("u".into(), Value::Undefined);
        object.insert("nan".into(), Value::from(f64::NAN));
        object.insert("lone".into(), Value::String(Str::from_utf16(&[0xD800])));
        object.insert("list".into(), Value::from(vec![Value::Undefined]));
        assert_eq!(
            Value::from(object).to_serde_json(),
            json!({"nan": null, "lone": "\u{FFFD}", "list": [null]})
        );
        assert_eq!(Value::from(-0.0).to_serde_json(), json!(-0.0));
    }
}
