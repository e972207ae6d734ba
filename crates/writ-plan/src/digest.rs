//! The plan digest: SHA-256 over a canonical, typed, lossless binary encoding of the view.
//!
//! Approvals bind to the digest, so two plans that differ in anything a run could observe must
//! digest differently. The encoding therefore keeps every value's type (a date is never a
//! string, a reference never a record that looks like one), prefixes every variable-length
//! part with its length (so no two sequences of parts run together alike), and fixes the only
//! order that carries no meaning — the keys of a plain object — by sorting them.
//!
//! # The encoding (version 1)
//!
//! This layout is a compatibility promise: approvals stored today must still match tomorrow, so
//! it changes only with a new version prefix, never in place. `crates/writ-plan/testdata/digests.json`
//! pins it with golden vectors.
//!
//! ```text
//! view       = "writ.plan.v1" str(planId)
//!              u64(#nodes) node… u64(#edges) edge…        (nodes and edges in view order)
//!              bounds provenance
//! node       = str(id) str(kind) opt(str(phase)) u64(#fields) (str(name) value)…
//! edge       = str(id) str(from) str(to) handle
//! handle     = 00 always | 01 match | 02 no_match | 03 default | 04 error
//!            | 05 str(label)  (case_<label>) | 06 str(name)  (a name writ does not know)
//! bounds     = u64(maxNodes) u64(maxEdges) u64(maxSteps) u64(maxConcurrentFrames) u64(maxEncodedBytes)
//! provenance = 00 (none) | 01 str(parent) str(parentDigest) u64(parentRevision) u64(n) str(nodeId)…
//! value      = 00 null
//!            | 01 (00 false | 01 true)
//!            | 02 f64                                     (-0 written as +0)
//!            | 03 str
//!            | 04 u64(n) value…                           array, in order
//!            | 05 u64(n) (str(key) value)…                plain object, keys ascending
//!            | 06 str(node) select opt(str(path)) opt(branch)   node reference
//!            | 07 str(path)                               parameter reference
//!            | 08 i64                                     date, ms since the epoch
//!            | 09 str(pattern) str(flags)                 regular expression, flags sorted
//!            | 0A u64(n) (value value)…                   map, entries in order
//!            | 0B u64(n) value…                           set, members in order
//!            | 0C str(decimal)                            big integer, canonical decimal
//!            | 0D u64(n) byte…                            bytes
//! select     = 00 first | 01 last | 02 all | 03 u64(index)
//! branch     = u64(n) segment…;  segment = 00 str(edgeId) | 01 str(joinId) u64(n) str(edgeId)…
//! opt(x)     = 00 | 01 x
//! str(s)     = u64(length of s in UTF-8 bytes) the UTF-8 bytes
//! u64, i64, f64 = 8 bytes, big-endian (two's complement; IEEE 754 binary64)
//! ```
//!
//! A definition's field names and a plain object's keys are sorted by their UTF-8 bytes. The
//! revision is not encoded: the same content reached by different edit histories is the same
//! plan. The digest is the lowercase hex SHA-256 of the encoding.

use std::collections::BTreeMap;

use sha2::{Digest as _, Sha256};

use crate::model::{Bounds, Edge, Handle, Node, PlanView, Provenance};
use crate::ops::{Change, Op};
use crate::value::{BranchId, JoinSegment, NodeRef, RouteSegment, Select, StagedValue};

/// The bytes every version-1 encoding starts with.
const VIEW_MAGIC: &[u8] = b"writ.plan.v1";

/// The bytes an op's encoding starts with (ops are encoded only to order conflicting ones).
const OP_MAGIC: &[u8] = b"writ.op.v1";

/// The view's canonical encoding (see the module documentation for its layout).
pub fn encode(view: &PlanView) -> Vec<u8> {
    let mut out = Vec::new();
    encode_view(view, &mut out);
    out
}

/// The length in bytes of the view's canonical encoding, counted without building it: what a
/// plan's `maxEncodedBytes` bound is checked against.
pub fn encoded_len(view: &PlanView) -> u64 {
    let mut counter = Counter(0);
    encode_view(view, &mut counter);
    counter.0
}

/// The plan's digest: the lowercase hex SHA-256 of [`encode`]`(view)`. It covers the plan id,
/// the nodes and edges in view order, the bounds and the provenance, never the revision.
pub fn digest(view: &PlanView) -> String {
    let mut hasher = Hashing {
        hasher: Sha256::new(),
        buffer: Vec::with_capacity(HASH_BUFFER),
    };
    encode_view(view, &mut hasher);
    hasher.flush();
    let hash = hasher.hasher.finalize();
    let mut hex = String::with_capacity(64);
    for byte in hash {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    hex
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The canonical encoding of one staged value: equal encodings mean equal values, so readers
/// can find a repeated map key or set member by hashing encodings instead of comparing pairs.
pub(crate) fn encode_staged(value: &StagedValue) -> Vec<u8> {
    let mut out = Vec::new();
    encode_value(value, &mut out);
    out
}

/// The canonical encoding of one op, used only to order two different ops that share an op id
/// (a conflict the fold reports) so that the fold does not depend on their arrival order.
pub(crate) fn encode_op(op: &Op) -> Vec<u8> {
    let mut out = Vec::new();
    out.put(OP_MAGIC);
    put_str(&mut out, &op.op_id);
    put_str(&mut out, &op.actor_id);
    put_u64(&mut out, op.lamport);
    put_str(&mut out, &op.at);
    match &op.change {
        Change::AddNode(node) => {
            out.put(&[0]);
            encode_node(node, &mut out);
        }
        Change::RemoveNode {
            node_id,
            incident_edge_ids,
        } => {
            out.put(&[1]);
            put_str(&mut out, node_id);
            put_strs(&mut out, incident_edge_ids);
        }
        Change::SetNodeField { node_id, path, value } => {
            out.put(&[2]);
            put_str(&mut out, node_id);
            put_str(&mut out, path);
            encode_value(value, &mut out);
        }
        Change::SetNodeDefinition { node_id, definition } => {
            out.put(&[3]);
            put_str(&mut out, node_id);
            encode_definition(definition, &mut out);
        }
        Change::SetNodePhase { node_id, phase } => {
            out.put(&[4]);
            put_str(&mut out, node_id);
            put_opt_str(&mut out, phase.as_deref());
        }
        Change::AddEdge(edge) => {
            out.put(&[5]);
            encode_edge(edge, &mut out);
        }
        Change::RemoveEdge { edge_id } => {
            out.put(&[6]);
            put_str(&mut out, edge_id);
        }
        Change::SetBounds(bounds) => {
            out.put(&[7]);
            encode_bounds(bounds, &mut out);
        }
    }
    out
}

/// Where encoded bytes go: a buffer, a counter, or the hasher.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

struct Counter(u64);

impl Sink for Counter {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len() as u64;
    }
}

/// Feeding SHA-256 a few bytes at a time costs more than the hashing; a small buffer batches it.
const HASH_BUFFER: usize = 8 * 1024;

struct Hashing {
    hasher: Sha256,
    buffer: Vec<u8>,
}

impl Hashing {
    fn flush(&mut self) {
        self.hasher.update(&self.buffer);
        self.buffer.clear();
    }
}

impl Sink for Hashing {
    fn put(&mut self, bytes: &[u8]) {
        if self.buffer.len() + bytes.len() > HASH_BUFFER {
            self.flush();
            if bytes.len() > HASH_BUFFER {
                self.hasher.update(bytes);
                return;
            }
        }
        self.buffer.extend_from_slice(bytes);
    }
}

fn put_u64(out: &mut impl Sink, n: u64) {
    out.put(&n.to_be_bytes());
}

fn put_len(out: &mut impl Sink, n: usize) {
    put_u64(out, n as u64);
}

fn put_str(out: &mut impl Sink, s: &str) {
    put_len(out, s.len());
    out.put(s.as_bytes());
}

fn put_opt_str(out: &mut impl Sink, s: Option<&str>) {
    match s {
        None => out.put(&[0]),
        Some(s) => {
            out.put(&[1]);
            put_str(out, s);
        }
    }
}

fn put_strs(out: &mut impl Sink, strings: &[String]) {
    put_len(out, strings.len());
    for s in strings {
        put_str(out, s);
    }
}

fn encode_view(view: &PlanView, out: &mut impl Sink) {
    out.put(VIEW_MAGIC);
    put_str(out, &view.plan_id);
    put_len(out, view.nodes.len());
    for node in &view.nodes {
        encode_node(node, out);
    }
    put_len(out, view.edges.len());
    for edge in &view.edges {
        encode_edge(edge, out);
    }
    encode_bounds(&view.bounds, out);
    match &view.provenance {
        None => out.put(&[0]),
        Some(Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
            completed_at_clone,
        }) => {
            out.put(&[1]);
            put_str(out, parent);
            put_str(out, parent_digest);
            put_u64(out, *parent_revision);
            put_strs(out, completed_at_clone);
        }
    }
}

fn encode_node(node: &Node, out: &mut impl Sink) {
    put_str(out, &node.id);
    put_str(out, node.kind.name());
    put_opt_str(out, node.phase.as_deref());
    encode_definition(&node.definition, out);
}

fn encode_definition(definition: &BTreeMap<String, StagedValue>, out: &mut impl Sink) {
    put_len(out, definition.len());
    for (name, value) in definition {
        put_str(out, name);
        encode_value(value, out);
    }
}

fn encode_edge(edge: &Edge, out: &mut impl Sink) {
    put_str(out, &edge.id);
    put_str(out, &edge.from);
    put_str(out, &edge.to);
    match &edge.handle {
        Handle::Always => out.put(&[0]),
        Handle::Match => out.put(&[1]),
        Handle::NoMatch => out.put(&[2]),
        Handle::Default => out.put(&[3]),
        Handle::Error => out.put(&[4]),
        Handle::Case(label) => {
            out.put(&[5]);
            put_str(out, label);
        }
        Handle::Unknown(name) => {
            out.put(&[6]);
            put_str(out, name);
        }
    }
}

fn encode_bounds(bounds: &Bounds, out: &mut impl Sink) {
    for (_, value) in bounds.members() {
        put_u64(out, value);
    }
}

/// What is left to write: a value, or an object key before its value.
enum Pending<'a> {
    Value(&'a StagedValue),
    Key(&'a str),
}

/// Encodes a value with an explicit stack: values read from the wire nest at most
/// [`crate::MAX_WIRE_DEPTH`] deep, but values built in code need not.
fn encode_value(value: &StagedValue, out: &mut impl Sink) {
    let mut stack = vec![Pending::Value(value)];
    while let Some(pending) = stack.pop() {
        let value = match pending {
            Pending::Key(key) => {
                put_str(out, key);
                continue;
            }
            Pending::Value(value) => value,
        };
        match value {
            StagedValue::Null => out.put(&[0x00]),
            StagedValue::Bool(b) => out.put(&[0x01, u8::from(*b)]),
            StagedValue::Number(n) => {
                out.put(&[0x02]);
                let n = if *n == 0.0 { 0.0 } else { *n };
                out.put(&n.to_bits().to_be_bytes());
            }
            StagedValue::String(s) => {
                out.put(&[0x03]);
                put_str(out, s);
            }
            StagedValue::Array(items) => {
                out.put(&[0x04]);
                put_len(out, items.len());
                stack.extend(items.iter().rev().map(Pending::Value));
            }
            StagedValue::Object(fields) => {
                out.put(&[0x05]);
                put_len(out, fields.len());
                for (key, value) in fields.iter().rev() {
                    stack.push(Pending::Value(value));
                    stack.push(Pending::Key(key));
                }
            }
            StagedValue::NodeRef(reference) => {
                out.put(&[0x06]);
                encode_node_ref(reference, out);
            }
            StagedValue::ParamRef(param) => {
                out.put(&[0x07]);
                put_str(out, &param.path);
            }
            StagedValue::Date(millis) => {
                out.put(&[0x08]);
                out.put(&millis.to_be_bytes());
            }
            StagedValue::Regex { pattern, flags } => {
                out.put(&[0x09]);
                put_str(out, pattern);
                put_str(out, flags);
            }
            StagedValue::Map(entries) => {
                out.put(&[0x0A]);
                put_len(out, entries.len());
                for (key, value) in entries.iter().rev() {
                    stack.push(Pending::Value(value));
                    stack.push(Pending::Value(key));
                }
            }
            StagedValue::Set(members) => {
                out.put(&[0x0B]);
                put_len(out, members.len());
                stack.extend(members.iter().rev().map(Pending::Value));
            }
            StagedValue::BigInt(digits) => {
                out.put(&[0x0C]);
                put_str(out, digits);
            }
            StagedValue::Bytes(bytes) => {
                out.put(&[0x0D]);
                put_len(out, bytes.len());
                out.put(bytes);
            }
        }
    }
}

fn encode_node_ref(reference: &NodeRef, out: &mut impl Sink) {
    put_str(out, &reference.node);
    match reference.select {
        Select::First => out.put(&[0]),
        Select::Last => out.put(&[1]),
        Select::All => out.put(&[2]),
        Select::Index(index) => {
            out.put(&[3]);
            put_u64(out, index);
        }
    }
    put_opt_str(out, reference.path.as_deref());
    match &reference.branch_id {
        None => out.put(&[0]),
        Some(branch) => {
            out.put(&[1]);
            encode_branch(branch, out);
        }
    }
}

fn encode_branch(branch: &BranchId, out: &mut impl Sink) {
    put_len(out, branch.segments.len());
    for segment in &branch.segments {
        match segment {
            RouteSegment::Edge(id) => {
                out.put(&[0]);
                put_str(out, id);
            }
            RouteSegment::Join(joined) => {
                let JoinSegment { join, of } = &**joined;
                out.put(&[1]);
                put_str(out, join);
                put_strs(out, of);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::fold;
    use crate::model::DEFAULT_PLAN_BOUNDS;
    use serde_json::{Value as Json, json};
    use std::collections::HashSet;

    /// A one-node plan whose call stages `args`.
    fn plan_with(args: Json) -> PlanView {
        let mut view = PlanView::empty("p");
        view.nodes.push(
            Node::from_wire(&json!({"id": "c", "kind": "call", "definition": {"tool": "t", "args": args}})).unwrap(),
        );
        view
    }

    fn digest_of(args: Json) -> String {
        digest(&plan_with(args))
    }

    #[test]
    fn the_seeds_collision_does_not_happen() {
        let a = json!({"pattern": {"$regex": {"pattern": "^inv-\\d+$", "flags": "i"}},
                       "when": {"$date": "2020-01-01T00:00:00Z"}, "m": {"$map": [["k", 1]]}});
        let b = json!({"pattern": {"$regex": {"pattern": "^cust-\\d+$", "flags": ""}},
                       "when": {"$date": "2031-05-05T00:00:00Z"}, "m": {"$map": [["z", 9]]}});
        assert_ne!(digest_of(a.clone()), digest_of(b.clone()));
        // Each of the three alone tells the plans apart: none collapses to `{}`.
        for key in ["pattern", "when", "m"] {
            let mut one = a.clone();
            one[key] = b[key].clone();
            assert_ne!(digest_of(one), digest_of(a.clone()), "{key}");
        }
        assert_ne!(digest_of(json!({"m": {"$map": []}})), digest_of(json!({"m": {}})));
        assert_ne!(digest_of(json!({"s": {"$set": []}})), digest_of(json!({"s": []})));
    }

    #[test]
    fn every_kind_differs_from_a_plain_record_and_from_each_other() {
        let values = [
            json!({"v": 1}),
            json!(null),
            json!(true),
            json!(1),
            json!("1"),
            json!([1]),
            json!({"$bigint": "1"}),
            json!({"$date": "1970-01-01T00:00:00.001Z"}),
            json!({"$regex": {"pattern": "1", "flags": ""}}),
            json!({"$map": [["v", 1]]}),
            json!({"$set": [1]}),
            json!({"$bytes": "MQ=="}),
            json!({"$ref": {"node": "v", "select": "first"}}),
            json!({"$param": {"path": "v"}}),
            json!({"$literal": {"$param": {"path": "v"}}}),
        ];
        let digests: HashSet<String> = values.iter().map(|v| digest_of(v.clone())).collect();
        assert_eq!(digests.len(), values.len());
    }

    #[test]
    fn a_reference_is_not_its_look_alike() {
        let reference = json!({"$ref": {"node": "a", "select": "first", "path": "x"}});
        let look_alike = json!({"$literal": {"$ref": {"node": "a", "select": "first", "path": "x"}}});
        let record = json!({"kind": "nodeRef", "node": "a", "select": "first", "path": "x"});
        assert_ne!(digest_of(reference.clone()), digest_of(look_alike));
        assert_ne!(digest_of(reference), digest_of(record));
    }

    #[test]
    fn references_differ_in_select_path_and_branch() {
        let with = |extra: Json| {
            let mut body = json!({"node": "a", "select": "first"});
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            digest_of(json!({"$ref": body}))
        };
        let variants = [
            with(json!({})),
            with(json!({"select": "last"})),
            with(json!({"select": "all"})),
            with(json!({"select": {"index": 0}})),
            with(json!({"select": {"index": 1}})),
            with(json!({"path": "x"})),
            with(json!({"path": "y"})),
            with(json!({"path": ""})),
            with(json!({"branchId": {"segments": []}})),
            with(json!({"branchId": {"segments": [{"edge": "e0"}]}})),
            with(json!({"branchId": {"segments": [{"edge": "e1"}]}})),
            with(json!({"branchId": {"segments": [{"join": "e0", "of": []}]}})),
            with(json!({"branchId": {"segments": [{"join": "j", "of": ["e1", "e2"]}]}})),
            with(json!({"branchId": {"segments": [{"join": "j", "of": ["e1e2"]}]}})),
        ];
        let distinct: HashSet<&String> = variants.iter().collect();
        assert_eq!(distinct.len(), variants.len());
    }

    #[test]
    fn key_order_does_not_matter_but_array_order_does() {
        // The wire reader keeps the order written; the digest must not.
        assert_eq!(
            digest_of(json!({"a": 1, "b": {"x": [1, 2], "y": null}})),
            digest_of(json!({"b": {"y": null, "x": [1, 2]}, "a": 1}))
        );
        assert_ne!(digest_of(json!([1, 2])), digest_of(json!([2, 1])));
        assert_ne!(digest_of(json!({"$set": [1, 2]})), digest_of(json!({"$set": [2, 1]})));
        assert_ne!(
            digest_of(json!({"$map": [["a", 1], ["b", 2]]})),
            digest_of(json!({"$map": [["b", 2], ["a", 1]]}))
        );
        // Length prefixes keep neighbours apart.
        assert_ne!(digest_of(json!(["ab", "c"])), digest_of(json!(["a", "bc"])));
        assert_eq!(digest_of(json!(-0.0)), digest_of(json!(0)));
    }

    #[test]
    fn plan_id_bounds_provenance_and_order_are_content() {
        let base = plan_with(json!({}));
        let mut renamed = base.clone();
        renamed.plan_id = "q".into();
        let mut bounded = base.clone();
        bounded.bounds.max_steps += 1;
        let mut cloned = base.clone();
        cloned.provenance = Some(Provenance::Clone {
            parent: "p0".into(),
            parent_digest: "00".into(),
            parent_revision: 3,
            completed_at_clone: vec![],
        });
        let mut revised = base.clone();
        revised.revision += 7;
        let mut unknown = base.clone();
        unknown.edges.push(Edge {
            id: "e".into(),
            from: "c".into(),
            to: "c".into(),
            handle: Handle::Unknown("case_x".into()),
        });
        let mut case = unknown.clone();
        case.edges[0].handle = Handle::Case("x".into());
        let digests: HashSet<String> = [&base, &renamed, &bounded, &cloned, &unknown, &case]
            .map(digest)
            .into_iter()
            .collect();
        assert_eq!(digests.len(), 6);
        assert_eq!(digest(&revised), digest(&base), "the revision is not content");
        assert_eq!(DEFAULT_PLAN_BOUNDS, base.bounds);
    }

    #[test]
    fn the_length_is_the_encodings() {
        let view = plan_with(json!({"a": [1, {"$bytes": "AAEC"}], "b": {"$ref": {"node": "x", "select": "all"}}}));
        assert_eq!(encoded_len(&view), encode(&view).len() as u64);
        let empty = PlanView::empty("p");
        assert_eq!(encoded_len(&empty), encode(&empty).len() as u64);
        // A value larger than the hashing buffer is hashed as the bytes it encodes to.
        let big = plan_with(json!({"s": "x".repeat(3 * HASH_BUFFER)}));
        let direct: String = Sha256::digest(encode(&big))
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest(&big), direct);
    }

    #[test]
    fn histories_do_not_matter_and_duplicates_change_nothing() {
        let op = |id: &str, lamport: u64, body: Json| {
            let mut json = json!({"opId": id, "actorId": "ann", "lamport": lamport, "at": ""});
            json.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
            Op::from_wire(&json).unwrap()
        };
        let direct = [op(
            "o1",
            1,
            json!({"op": "add_node", "node": {"id": "a", "kind": "call", "definition": {"tool": "t"}}}),
        )];
        let roundabout = [
            op(
                "o1",
                1,
                json!({"op": "add_node", "node": {"id": "a", "kind": "call", "definition": {}}}),
            ),
            op(
                "o2",
                2,
                json!({"op": "set_node_field", "nodeId": "a", "path": "tool", "value": "s"}),
            ),
            op(
                "o3",
                3,
                json!({"op": "set_node_field", "nodeId": "a", "path": "tool", "value": "t"}),
            ),
        ];
        let a = fold("p", &direct, None).view;
        let b = fold("p", &roundabout, None).view;
        assert_ne!(a.revision, b.revision);
        assert_eq!(digest(&a), digest(&b));
        let doubled = [roundabout.as_slice(), &roundabout[1..2]].concat();
        let c = fold("p", &doubled, None).view;
        assert_eq!((c.revision, digest(&c)), (b.revision, digest(&b)));
    }
}
