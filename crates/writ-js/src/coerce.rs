//! JavaScript's conversions (ToPrimitive, ToString, ToNumber, ToIntegerOrInfinity, typeof)
//! over writ values, charged to the meter by what they read and build.

use writ_core::{Array, Object, Str, Value, js, js_number_to_string};

use crate::error::{Error, Result};
use crate::interp::Cx;

/// `String(n)` for a number.
pub(crate) fn number_to_str(n: f64) -> Str {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        // Small integers are the common case; their digits are all JavaScript writes.
        let digits = itoa_buf(n as i64);
        return Str::from_ascii(digits.as_bytes()).unwrap_or_default();
    }
    Str::from(js_number_to_string(n))
}

struct Digits {
    bytes: [u8; 24],
    start: usize,
}

impl Digits {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

fn itoa_buf(n: i64) -> Digits {
    let mut bytes = [0u8; 24];
    let mut pos = bytes.len();
    let negative = n < 0;
    let mut m = n.unsigned_abs();
    loop {
        pos -= 1;
        bytes[pos] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if negative {
        pos -= 1;
        bytes[pos] = b'-';
    }
    Digits { bytes, start: pos }
}

/// JavaScript's `ToString`, charged: an array costs a step per item walked (recursively) and
/// the string it builds.
pub(crate) fn to_string(cx: &mut Cx<'_>, value: &Value) -> Result<Str> {
    Ok(match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => number_to_str(*n),
        Value::Bool(true) => Str::from("true"),
        Value::Bool(false) => Str::from("false"),
        Value::Null => Str::from("null"),
        Value::Undefined => Str::from("undefined"),
        Value::Object(object) => object_to_primitive(cx, object)?,
        Value::Array(items) => join(cx, items, &Str::from(","))?,
    })
}

/// JavaScript's `ToPrimitive`, for every hint: an array joins its items, an object converts as
/// [`object_to_primitive`] says, a primitive stays. Every conversion of a container to a
/// primitive in the language (`+`, templates, `String`, `==`, `<`, arithmetic, keys, joins,
/// sorting) comes through here or through [`to_string`] and [`to_number`], which share it.
pub(crate) fn to_primitive(cx: &mut Cx<'_>, value: &Value) -> Result<Value> {
    Ok(match value {
        Value::Array(items) => Value::String(join(cx, items, &Str::from(","))?),
        Value::Object(object) => Value::String(object_to_primitive(cx, object)?),
        other => other.clone(),
    })
}

/// `OrdinaryToPrimitive` of a plain object, whatever the hint. No value in the language holds
/// a function, so `valueOf` never answers a primitive (an own `valueOf` key is not callable
/// and is skipped; the inherited method answers the object itself), and `toString` answers one
/// only when it is `Object.prototype.toString`: `"[object Object]"`. An own `toString` key
/// (JSON data can carry one) shadows that method, and an object from `Object.groupBy` has no
/// prototype to inherit it from: JavaScript then throws a TypeError, and so does writ.
pub(crate) fn object_to_primitive(cx: &Cx<'_>, object: &Object) -> Result<Str> {
    if object.get_str("toString").is_some() {
        return Err(no_primitive(
            "its own key \"toString\" is not a function, so it shadows the method that would write it",
        ));
    }
    if cx.is_null_prototype(object) {
        return Err(no_primitive(
            "an object from Object.groupBy has no prototype, so no toString method to write it",
        ));
    }
    Ok(Str::from("[object Object]"))
}

/// The TypeError of an object JavaScript cannot convert to a primitive.
#[cold]
fn no_primitive(why: &str) -> Error {
    Error::type_error(format!(
        "Cannot convert object to primitive value: {why}; read the property you need (o.name), or write \
         JSON.stringify(o) for its text"
    ))
}

/// How deeply nested arrays a conversion to text follows. JavaScript's own limit is its call
/// stack (node gives up a little past 4,000 levels); writ stops earlier, at a depth no real
/// document reaches, so the conversion never threatens the host's stack.
const MAX_JOIN_DEPTH: usize = 1000;

/// `Array.prototype.join`: a step per item walked, nested arrays joined with `,`, `null` and
/// `undefined` as empty text; the result is checked against the caps before it is built.
pub(crate) fn join(cx: &mut Cx<'_>, items: &Array, separator: &Str) -> Result<Str> {
    join_nested(cx, items, separator, 0)
}

fn join_nested(cx: &mut Cx<'_>, items: &Array, separator: &Str, depth: usize) -> Result<Str> {
    if depth >= MAX_JOIN_DEPTH {
        return Err(Error::range_error(format!(
            "Maximum call stack size exceeded: an array nested more than {MAX_JOIN_DEPTH} levels deep cannot be \
             converted to text"
        )));
    }
    let mut parts: Vec<Str> = Vec::with_capacity(items.len());
    let mut total = 0usize;
    for item in items.iter() {
        cx.steps(1)?;
        let part = match item {
            Value::Null | Value::Undefined => Str::empty(),
            Value::Array(inner) => join_nested(cx, inner, &Str::from(","), depth + 1)?,
            other => to_string(cx, other)?,
        };
        total = total.saturating_add(part.len_utf16());
        parts.push(part);
    }
    total = total.saturating_add(separator.len_utf16().saturating_mul(items.len().saturating_sub(1)));
    cx.string(total)?;
    Ok(concat_all(&parts, separator, total))
}

/// Joins `parts` with `separator`; `total` is the length of the result.
pub(crate) fn concat_all(parts: &[Str], separator: &Str, total: usize) -> Str {
    if parts.len() == 1 {
        return parts[0].clone();
    }
    let ascii = separator.is_ascii() && parts.iter().all(Str::is_ascii);
    if ascii {
        let mut out = Vec::with_capacity(total);
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(separator.ascii_bytes().unwrap_or_default());
            }
            out.extend_from_slice(part.ascii_bytes().unwrap_or_default());
        }
        return Str::from_ascii(&out).unwrap_or_default();
    }
    let mut out: Vec<u16> = Vec::with_capacity(total);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.extend(separator.code_units());
        }
        out.extend(part.code_units());
    }
    Str::from_utf16(&out)
}

/// JavaScript's `ToNumber`, charged a step per 16 characters of text it reads.
pub(crate) fn to_number(cx: &mut Cx<'_>, value: &Value) -> Result<f64> {
    Ok(match value {
        Value::Number(n) => *n,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Null => 0.0,
        Value::Undefined => f64::NAN,
        Value::String(s) => {
            cx.text(s.len_utf16())?;
            js::string_to_number(s)
        }
        Value::Object(object) => {
            // "[object Object]" reads as NaN; only whether the conversion throws matters.
            object_to_primitive(cx, object)?;
            f64::NAN
        }
        Value::Array(_) => {
            let text = to_string(cx, value)?;
            js::string_to_number(&text)
        }
    })
}

/// `ToIntegerOrInfinity` of a number already converted.
pub(crate) fn integer_or_infinity(n: f64) -> f64 {
    if n.is_nan() { 0.0 } else { n.trunc() + 0.0 }
}

/// `ToInt32` of a number already converted.
pub(crate) fn to_int32(n: f64) -> i32 {
    to_uint32(n) as i32
}

/// `ToUint32` of a number already converted.
pub(crate) fn to_uint32(n: f64) -> u32 {
    if !n.is_finite() {
        return 0;
    }
    let modulo = n.trunc().rem_euclid(4294967296.0);
    modulo as u32
}

/// What `typeof` answers for a value.
pub(crate) fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Undefined => "undefined",
        Value::Null | Value::Object(_) | Value::Array(_) => "object",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
    }
}

/// A short rendering of a value for error messages: strings quoted, containers summarised.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::String(s) => {
            let text = s.to_string_lossy();
            if text.chars().count() > 40 {
                let head: String = text.chars().take(37).collect();
                format!("\"{head}...\"")
            } else {
                format!("\"{text}\"")
            }
        }
        Value::Number(n) => js_number_to_string(*n),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_owned(),
        Value::Undefined => "undefined".to_owned(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// Text built piece by piece: bytes while every piece is ASCII, UTF-16 from the first piece
/// that is not.
pub(crate) enum TextBuilder {
    /// Every piece so far was ASCII.
    Ascii(Vec<u8>),
    /// Some piece was not.
    Wide(Vec<u16>),
}

impl TextBuilder {
    /// An empty builder with room for `capacity` units.
    pub(crate) fn with_capacity(capacity: usize) -> TextBuilder {
        TextBuilder::Ascii(Vec::with_capacity(capacity))
    }

    /// Units so far.
    pub(crate) fn len(&self) -> usize {
        match self {
            TextBuilder::Ascii(bytes) => bytes.len(),
            TextBuilder::Wide(units) => units.len(),
        }
    }

    /// Appends `text`.
    pub(crate) fn push(&mut self, text: &Str) {
        match self {
            TextBuilder::Ascii(bytes) => match text.ascii_bytes() {
                Some(ascii) => bytes.extend_from_slice(ascii),
                None => {
                    let mut units: Vec<u16> = Vec::with_capacity(bytes.len() + text.len_utf16());
                    units.extend(bytes.iter().map(|&byte| u16::from(byte)));
                    units.extend(text.code_units());
                    *self = TextBuilder::Wide(units);
                }
            },
            TextBuilder::Wide(units) => units.extend(text.code_units()),
        }
    }

    /// Appends `String(n)`.
    pub(crate) fn push_number(&mut self, n: f64) {
        if n.fract() == 0.0 && n.abs() < 1e15 {
            // Integers, the common case, need no scratch string.
            let digits = itoa_buf(n as i64);
            self.push_ascii(digits.as_bytes());
            return;
        }
        let mut digits = String::new();
        writ_core::write_js_number(n, &mut digits);
        self.push_ascii(digits.as_bytes());
    }

    fn push_ascii(&mut self, ascii: &[u8]) {
        match self {
            TextBuilder::Ascii(bytes) => bytes.extend_from_slice(ascii),
            TextBuilder::Wide(units) => units.extend(ascii.iter().map(|&byte| u16::from(byte))),
        }
    }

    /// The text.
    pub(crate) fn finish(self) -> Str {
        match self {
            TextBuilder::Ascii(bytes) => Str::from_ascii(&bytes).unwrap_or_default(),
            TextBuilder::Wide(units) => Str::from_utf16(&units),
        }
    }
}
