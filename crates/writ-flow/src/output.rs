//! What passes from node to node: text, read back as data where it parses as JSON.

use std::fmt;
use std::sync::{Arc, OnceLock};

use writ_core::{Str, Value, parse_json};

/// A node's output.
///
/// JSON workflows pass text from node to node, and an expression reads text that parses as
/// JSON as that value (seed 001). A compute node writes its result as JSON text; writ keeps
/// such a result as the value itself ([`Output::data`]), which reads back exactly as its text
/// would — the text is written only when someone asks for it ([`Output::text`]), so a loop
/// of compute steps never writes and re-reads its state.
#[derive(Clone)]
pub struct Output(Repr);

impl PartialEq for Output {
    /// Outputs are equal when they read the same: a text and the value it reads as are not,
    /// since their texts may differ (`" 5"` and `5`).
    fn eq(&self, other: &Output) -> bool {
        match (&self.0, &other.0) {
            (Repr::Text(a, _), Repr::Text(b, _)) => a == b,
            (Repr::Data(a), Repr::Data(b)) => a == b,
            _ => false,
        }
    }
}

#[derive(Clone)]
enum Repr {
    /// Text as a node gave it: read as JSON where it parses, else as the string itself. The
    /// reading is kept once made (a conditional's routes and its target read one input), and
    /// shared by the output's clones.
    Text(Str, Arc<OnceLock<Value>>),
    /// A value other than a string whose JSON text reads back as the value itself: no
    /// `undefined` inside it, no `-0`, no number JSON cannot write.
    Data(Value),
}

impl Output {
    /// Text, as a model or a tool gives it.
    pub fn text_output(text: impl Into<Str>) -> Output {
        Output(Repr::Text(text.into(), Arc::default()))
    }

    /// The output of a node whose result is `value`, written as compute output is: a string
    /// as it is, anything else as its JSON text. `None` when the value has no JSON text
    /// (`undefined`).
    ///
    /// A caller with data in hand gives it to a run as its input this way: the run reads it as
    /// it would read its JSON text, without the text being written and parsed again.
    pub fn from_value(value: Value) -> Option<Output> {
        match value {
            Value::Undefined => None,
            Value::String(text) => Some(Output::text_output(text)),
            value if reads_back_as_itself(&value) => Some(Output(Repr::Data(value))),
            value => {
                // Written and read back, as the text would be.
                let text = value.to_json_string()?;
                Some(match parse_json(&text) {
                    Ok(read) => Output(Repr::Data(read)),
                    Err(_) => Output::text_output(text),
                })
            }
        }
    }

    /// The output as an expression reads it: text that parses as JSON is that value, other
    /// text the string itself, anything else as it is.
    pub fn data(&self) -> Value {
        self.read().clone()
    }

    /// [`Output::data`], borrowed: what an expression reads, without a count to update.
    pub(crate) fn read(&self) -> &Value {
        match &self.0 {
            Repr::Data(value) => value,
            Repr::Text(text, read) => read.get_or_init(|| read_text(text)),
        }
    }

    /// The output as text: text as it is, anything else as its JSON text.
    pub fn text(&self) -> Str {
        match &self.0 {
            Repr::Text(text, _) => text.clone(),
            Repr::Data(value) => Str::from(value.to_json_string().unwrap_or_default()),
        }
    }

    /// The output as it would be stored: the text as a JSON string, or the value itself.
    pub fn to_value(&self) -> Value {
        match &self.0 {
            Repr::Text(text, _) => Value::String(text.clone()),
            Repr::Data(value) => value.clone(),
        }
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Output({})", self.text().to_string_lossy())
    }
}

/// Text read as an expression reads it.
pub(crate) fn read_text(text: &Str) -> Value {
    // Only text that could start a JSON value is worth parsing.
    let first = text
        .code_units()
        .find(|unit| !matches!(unit, 0x20 | 0x09 | 0x0A | 0x0D));
    let could_be_json = matches!(
        first,
        Some(0x7B | 0x5B | 0x22 | 0x2D | 0x30..=0x39 | 0x74 | 0x66 | 0x6E)
    );
    if could_be_json
        && let Some(source) = text.to_str()
        && let Ok(value) = parse_json(&source)
    {
        return value;
    }
    Value::String(text.clone())
}

/// True when `value`'s JSON text reads back as `value` itself. Walks with its own stack, and
/// charges nothing: the value came out of an evaluation that was charged for building it.
fn reads_back_as_itself(value: &Value) -> bool {
    if !value.is_container() {
        return scalar_reads_back(value);
    }
    // Only nested containers wait on the stack, so a flat value (most outputs) allocates none.
    let mut pending: Vec<&Value> = Vec::new();
    let mut container = value;
    loop {
        let items: &[Value] = match container {
            Value::Array(items) => items.as_slice(),
            Value::Object(object) => object.value_slice(),
            _ => &[],
        };
        for item in items {
            if item.is_container() {
                pending.push(item);
            } else if !scalar_reads_back(item) {
                return false;
            }
        }
        match pending.pop() {
            Some(next) => container = next,
            None => return true,
        }
    }
}

/// True when a value that is not a container reads back as itself from its JSON text.
fn scalar_reads_back(value: &Value) -> bool {
    match value {
        Value::Undefined => false,
        Value::Number(number) => number.is_finite() && !(*number == 0.0 && number.is_sign_negative()),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(output: &Output) -> String {
        output.text().to_string_lossy().into_owned()
    }

    #[test]
    fn strings_stay_text_and_read_back_as_json() {
        let five = Output::from_value(Value::from("5")).unwrap();
        assert_eq!(text(&five), "5");
        assert_eq!(five.data(), Value::from(5.0));
        let word = Output::from_value(Value::from("hello")).unwrap();
        assert_eq!(word.data(), Value::from("hello"));
    }

    #[test]
    fn values_are_written_as_json_text() {
        let state = Output::from_value(parse_json(r#"{"n":0,"sum":10}"#).unwrap()).unwrap();
        assert_eq!(text(&state), r#"{"n":0,"sum":10}"#);
        let negative_zero = Output::from_value(Value::from(-0.0)).unwrap();
        assert_eq!(text(&negative_zero), "0");
        assert!(negative_zero.data().as_number().is_some_and(|n| n.is_sign_positive()));
        assert!(Output::from_value(Value::Undefined).is_none());
    }
}
