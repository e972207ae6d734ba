//! Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) of a [`Value`].
//!
//! The same data always gives the same bytes, whoever built it and in whatever key order: object
//! members sorted by their keys' UTF-16 code units, numbers in ECMAScript's shortest form
//! (`String(x)`), strings escaped as `JSON.stringify` escapes them, no white space. The runtime
//! keys idempotency and hashes events with it.
//!
//! JCS is defined over I-JSON, so a value JSON cannot carry exactly is refused rather than
//! written some way: a number that is not finite, a string holding a lone surrogate, and
//! `undefined` at the top. As `JSON.stringify` does, a member whose value is `undefined` is
//! left out, and an `undefined` array element is `null`.

use std::fmt;

use crate::{Object, Str, Value, write_js_number, write_json_string};

/// Why a value has no canonical JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CanonicalError {
    /// A number that is NaN or infinite, which JSON cannot write.
    NotFinite {
        /// Where, as a JSON Pointer.
        at: String,
    },
    /// A string (or key) with a lone surrogate, which I-JSON forbids.
    LoneSurrogate {
        /// Where, as a JSON Pointer.
        at: String,
    },
    /// The value is `undefined`: there is no JSON text to write.
    Undefined,
    /// The text would be longer than the limit it was written under.
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
}

impl fmt::Display for CanonicalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CanonicalError::NotFinite { at } => write!(
                f,
                "the number at '{at}' is not finite, and canonical JSON has no form for it; write null or a string"
            ),
            CanonicalError::LoneSurrogate { at } => write!(
                f,
                "the string at '{at}' holds a lone surrogate, which canonical JSON (I-JSON) forbids; make it well \
                 formed first (toWellFormed)"
            ),
            CanonicalError::Undefined => f.write_str("undefined has no JSON text; give a value"),
            CanonicalError::TooLong { limit } => {
                write!(f, "the canonical JSON text would be longer than {limit} bytes")
            }
        }
    }
}

impl std::error::Error for CanonicalError {}

impl Value {
    /// The value's canonical JSON text (RFC 8785).
    ///
    /// # Errors
    ///
    /// As [`Value::to_canonical_json_within`], with no length limit.
    ///
    /// # Example
    ///
    /// ```
    /// use writ_core::parse_json;
    ///
    /// let value = parse_json(r#"{"b": [1.50, 1e30, -0], "a": "é\u000f", "\u20ac": null}"#)?;
    /// assert_eq!(value.to_canonical_json()?, r#"{"a":"é\u000f","b":[1.5,1e+30,0],"€":null}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_canonical_json(&self) -> Result<String, CanonicalError> {
        self.to_canonical_json_within(usize::MAX)
    }

    /// The value's canonical JSON text, refused once it passes `max_bytes`.
    ///
    /// Walks with an explicit stack, so any depth is safe, and stops as soon as the text passes
    /// the limit, so a value that holds one container many times over costs work in proportion
    /// to `max_bytes`.
    ///
    /// # Errors
    ///
    /// [`CanonicalError`]: a number that is not finite, a lone surrogate, `undefined`, or a text
    /// longer than `max_bytes`.
    pub fn to_canonical_json_within(&self, max_bytes: usize) -> Result<String, CanonicalError> {
        /// A container being written, and how far.
        enum Open<'v> {
            Array {
                items: &'v [Value],
                next: usize,
            },
            Object {
                members: Vec<(&'v Str, &'v Value)>,
                next: usize,
            },
        }
        /// Where the walk is, as a JSON Pointer, for an error (built only on failure).
        fn pointer(stack: &[Open<'_>]) -> String {
            let mut at = String::new();
            for open in stack {
                at.push('/');
                match open {
                    Open::Array { next, .. } => at.push_str(&next.saturating_sub(1).to_string()),
                    Open::Object { members, next } => {
                        if let Some((key, _)) = members.get(next.saturating_sub(1)) {
                            at.push_str(&key.to_string_lossy().replace('~', "~0").replace('/', "~1"));
                        }
                    }
                }
            }
            at
        }
        if self.is_undefined() {
            return Err(CanonicalError::Undefined);
        }
        let mut out = String::new();
        let mut stack: Vec<Open<'_>> = Vec::new();
        let mut pending = Some(self);
        loop {
            if out.len() > max_bytes {
                return Err(CanonicalError::TooLong { limit: max_bytes });
            }
            match pending.take() {
                Some(Value::Array(items)) => {
                    out.push('[');
                    stack.push(Open::Array {
                        items: items.as_slice(),
                        next: 0,
                    });
                }
                Some(Value::Object(object)) => {
                    out.push('{');
                    stack.push(Open::Object {
                        members: sorted_members(object),
                        next: 0,
                    });
                }
                Some(Value::Number(number)) => {
                    if !number.is_finite() {
                        return Err(CanonicalError::NotFinite { at: pointer(&stack) });
                    }
                    write_js_number(*number, &mut out);
                }
                Some(Value::String(text)) => {
                    if !text.is_well_formed() {
                        return Err(CanonicalError::LoneSurrogate { at: pointer(&stack) });
                    }
                    write_json_string(text, &mut out);
                }
                Some(Value::Bool(flag)) => out.push_str(if *flag { "true" } else { "false" }),
                Some(Value::Null | Value::Undefined) => out.push_str("null"),
                None => {}
            }
            let Some(top) = stack.last_mut() else {
                return if out.len() > max_bytes {
                    Err(CanonicalError::TooLong { limit: max_bytes })
                } else {
                    Ok(out)
                };
            };
            match top {
                Open::Array { items, next } => match items.get(*next) {
                    None => {
                        out.push(']');
                        stack.pop();
                    }
                    Some(item) => {
                        if *next > 0 {
                            out.push(',');
                        }
                        *next += 1;
                        pending = Some(item);
                    }
                },
                Open::Object { members, next } => match members.get(*next) {
                    None => {
                        out.push('}');
                        stack.pop();
                    }
                    Some(&(key, value)) => {
                        if *next > 0 {
                            out.push(',');
                        }
                        *next += 1;
                        if !key.is_well_formed() {
                            return Err(CanonicalError::LoneSurrogate { at: pointer(&stack) });
                        }
                        write_json_string(key, &mut out);
                        out.push(':');
                        pending = Some(value);
                    }
                },
            }
        }
    }
}

/// An object's members whose values are not `undefined`, sorted by key in UTF-16 code-unit order
/// (`Str`'s own order).
fn sorted_members(object: &Object) -> Vec<(&Str, &Value)> {
    let mut members: Vec<(&Str, &Value)> = object.iter().filter(|(_, value)| !value.is_undefined()).collect();
    members.sort_unstable_by(|a, b| a.0.cmp(b.0));
    members
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_json;

    fn canonical(text: &str) -> String {
        parse_json(text)
            .expect("valid JSON")
            .to_canonical_json()
            .expect("canonical")
    }

    #[test]
    fn undefined_members_are_left_out_and_elements_are_null() {
        let mut object = Object::new();
        object.insert(Str::from("b"), Value::Undefined);
        object.insert(Str::from("a"), Value::from(vec![Value::Undefined]));
        assert_eq!(Value::Object(object).to_canonical_json().unwrap(), r#"{"a":[null]}"#);
        assert_eq!(Value::Undefined.to_canonical_json(), Err(CanonicalError::Undefined));
    }

    #[test]
    fn what_json_cannot_carry_is_refused_with_its_place() {
        let mut inner = Object::new();
        inner.insert(
            Str::from("a/b"),
            Value::from(vec![Value::from(1.0), Value::from(f64::NAN)]),
        );
        let mut outer = Object::new();
        outer.insert(Str::from("x"), Value::Object(inner));
        assert_eq!(
            Value::Object(outer).to_canonical_json(),
            Err(CanonicalError::NotFinite { at: "/x/a~1b/1".into() })
        );
        let lone = Value::from(vec![Value::String(Str::from_utf16(&[0xD800]))]);
        assert_eq!(
            lone.to_canonical_json(),
            Err(CanonicalError::LoneSurrogate { at: "/0".into() })
        );
    }

    #[test]
    fn key_order_and_white_space_do_not_matter() {
        assert_eq!(
            canonical(r#"{ "b" : 1, "a" : [ 2 , {"d":0,"c":0} ] }"#),
            canonical(r#"{"a":[2,{"c":0,"d":0}],"b":1}"#)
        );
    }

    #[test]
    fn a_doubled_value_stops_at_its_limit() {
        let mut value = Value::from("x");
        for _ in 0..60 {
            value = Value::from(vec![value.clone(), value]);
        }
        assert_eq!(
            value.to_canonical_json_within(1 << 20),
            Err(CanonicalError::TooLong { limit: 1 << 20 })
        );
    }

    #[test]
    fn deep_nesting_takes_no_stack() {
        let mut value = Value::Null;
        for _ in 0..1_000_000 {
            value = Value::from(vec![value]);
        }
        assert_eq!(value.to_canonical_json().unwrap().len(), 2_000_004);
    }
}
