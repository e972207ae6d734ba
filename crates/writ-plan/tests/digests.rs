//! Golden digest vectors: the digest of each plan in `testdata/digests.json` is pinned, so it
//! cannot drift across versions or machines. The digests in the file were computed by
//! `testdata/digest_reference.py`, an independent implementation of the encoding documented in
//! `src/digest.rs`, so the documentation is checked too.

use std::collections::HashMap;

use serde_json::Value as Json;
use writ_plan::{digest, encode, encoded_len, read_document};

#[test]
fn golden_digests_hold() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/digests.json");
    let text = std::fs::read_to_string(path).expect("testdata/digests.json is readable");
    let vectors: Vec<Json> = serde_json::from_str(&text).expect("testdata/digests.json is JSON");
    assert!(vectors.len() >= 12, "the vectors went missing");
    let mut seen: HashMap<String, String> = HashMap::new();
    for vector in &vectors {
        let name = vector["name"].as_str().expect("each vector is named");
        let source = read_document(&vector["plan"]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let folded = source.fold();
        assert!(folded.issues.is_empty(), "{name}: {:?}", folded.issues);
        let view = folded.view;
        assert_eq!(digest(&view), vector["digest"].as_str().unwrap(), "{name}");
        assert_eq!(encoded_len(&view), encode(&view).len() as u64, "{name}");
        if let Some(other) = seen.insert(digest(&view), name.to_owned()) {
            // Only a plan written with its keys in another order may share a digest.
            assert!(
                name.starts_with(&other) && name.ends_with("keys reordered"),
                "{name} collides with {other}"
            );
        }
    }
}
