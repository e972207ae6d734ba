//! Untrusted text never panics the JSON reader, and what the writer writes reads back the same.

use proptest::prelude::*;
use writ_core::{Path, Value, parse_json, parse_json_with_depth};

/// JSON-ish text: fragments that exercise the reader's branches, glued at random.
fn jsonish() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("\"".to_string()),
        Just("\\u".to_string()),
        Just("\\uD800".to_string()),
        Just("\\".to_string()),
        Just("-".to_string()),
        Just("1e".to_string()),
        Just("0.5".to_string()),
        Just("true".to_string()),
        Just("nul".to_string()),
        Just(" ".to_string()),
        "[a-z0-9]{1,4}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(fragment, 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn reader_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = parse_json(&text);
    }

    #[test]
    fn reader_never_panics_on_json_like_text(text in jsonish()) {
        if let Ok(value) = parse_json_with_depth(&text, 8) {
            // Whatever it accepts, it writes as text that reads back and writes the same again
            // (text, not values, because JSON.stringify writes -0 as 0).
            let written = value.to_json_string().unwrap_or_default();
            let again = parse_json(&written).ok().and_then(|value| value.to_json_string());
            prop_assert_eq!(again, Some(written));
        }
    }

    #[test]
    fn paths_never_panic(text in "[a-z_.0-9]{0,12}|__proto__|a.constructor", data in jsonish()) {
        let data = parse_json(&data).unwrap_or(Value::Null);
        if let Ok(path) = Path::parse_dotted(&text) {
            let _ = path.read(&data);
        }
    }
}

#[test]
fn a_value_of_any_depth_writes_and_drops_without_a_deep_stack() {
    let levels = 200_000;
    let mut deep = Value::from(1.0);
    for _ in 0..levels {
        let mut object = writ_core::Object::new();
        object.insert("a".into(), Value::from(vec![deep, Value::Undefined]));
        deep = Value::from(object);
    }
    let text = deep.to_json_string().unwrap_or_default();
    assert_eq!(text.len(), levels * r#"{"a":[,null]}"#.len() + 1);
    assert!(text.starts_with(r#"{"a":[{"a":[{"#), "{}", &text[..20]);
    assert!(text.ends_with("null]},null]}"), "{}", &text[text.len() - 20..]);
    // The reader refuses what it would not build; the writer and drop cope with what engines build.
    assert_eq!(parse_json(&text).map_err(|error| error.code()), Err("json-too-deep"));
}
