//! Fuzz target: the JSON reader never panics, and what it accepts writes back as text that
//! reads and writes the same again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use writ_core::parse_json_with_depth;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let Ok(value) = parse_json_with_depth(text, 64) else { return };
    let written = value.to_json_string().expect("a parsed value is never undefined");
    let again = parse_json_with_depth(&written, 64).expect("written JSON reads back");
    assert_eq!(again.to_json_string().as_deref(), Some(written.as_str()));
    assert!(writ_core::Value::from(&value.to_serde_json()).to_json_string().is_some());
});
