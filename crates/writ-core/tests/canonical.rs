//! Canonical JSON against the test vectors of RFC 8785 (`data/rfc8785.json`): the sample of
//! section 3.2.2, the property sorting of 3.2.3, and every number of Appendix B.

use writ_core::{CanonicalError, Value, parse_json};

fn vectors() -> Value {
    parse_json(include_str!("data/rfc8785.json")).expect("the vectors are JSON")
}

fn text(value: &Value, key: &str) -> String {
    value
        .as_object()
        .and_then(|object| object.get_str(key))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("a vector without \"{key}\""))
        .to_string_lossy()
        .into_owned()
}

fn list<'v>(vectors: &'v Value, key: &str) -> &'v [Value] {
    vectors
        .as_object()
        .and_then(|object| object.get_str(key))
        .and_then(Value::as_array)
        .map(|array| array.as_slice())
        .unwrap_or_else(|| panic!("no \"{key}\" list"))
}

#[test]
fn the_rfc_documents_canonicalize_as_published() {
    let vectors = vectors();
    let documents = list(&vectors, "documents");
    assert_eq!(documents.len(), 2);
    for document in documents {
        let input = parse_json(&text(document, "input")).expect("the input is JSON");
        assert_eq!(
            input.to_canonical_json().expect("canonical"),
            text(document, "canonical"),
            "{}",
            text(document, "name")
        );
    }
}

#[test]
fn the_rfc_numbers_are_written_as_published() {
    let vectors = vectors();
    let numbers = list(&vectors, "numbers");
    assert_eq!(numbers.len(), 26);
    for number in numbers {
        let bits = u64::from_str_radix(&text(number, "bits"), 16).expect("hex bits");
        let value = Value::from(f64::from_bits(bits));
        let has_error = number
            .as_object()
            .is_some_and(|object| object.get_str("error").is_some());
        if has_error {
            assert!(
                matches!(value.to_canonical_json(), Err(CanonicalError::NotFinite { .. })),
                "{bits:016x}"
            );
        } else {
            assert_eq!(
                value.to_canonical_json().expect("finite"),
                text(number, "canonical"),
                "{bits:016x}"
            );
        }
    }
}
