//! Staged values: what a plan holds where a tool argument, a predicate or a prompt part will be.
//!
//! A staged value is plain JSON data, a typed value JSON cannot carry (a date, a regular
//! expression, a map, a set, a big integer, bytes), or a reference to data that exists only at
//! run time ([`NodeRef`], [`ParamRef`]). References are enum variants: no record, however it is
//! shaped, is ever read as one, so user data cannot impersonate a reference.
//!
//! On the wire (plan documents, op logs, `--json` output) a typed value is a single-key tagged
//! object — `{"$ref": …}`, `{"$param": …}`, `{"$date": …}`, `{"$regex": …}`, `{"$map": …}`,
//! `{"$set": …}`, `{"$bigint": …}`, `{"$bytes": …}` — and a plain object with a key that starts
//! with `$` is written inside `{"$literal": …}`. [`StagedValue::from_wire`] and
//! [`StagedValue::to_wire`] are exact inverses: `from_wire(to_wire(v)) == v` for every value, and
//! reading refuses, with a JSON Pointer to the place, anything it would have to guess at.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use serde_json::{Map as JsonMap, Value as Json};

/// The largest integer a JSON number in a plan may hold exactly (2^53); larger ones are
/// written as `{"$bigint": "…"}`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A value staged in a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum StagedValue {
    /// JSON `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A finite number. `-0` is read as `0`: a plan cannot tell them apart.
    Number(f64),
    /// A string.
    String(String),
    /// An array, in order.
    Array(Vec<StagedValue>),
    /// A plain object. Its key order carries no meaning (two plans that differ only in key
    /// order are the same plan), so keys are kept sorted.
    Object(BTreeMap<String, StagedValue>),
    /// A reference to another node's output, resolved at run time.
    NodeRef(NodeRef),
    /// A reference to a template parameter, filled in when the template is instantiated.
    ParamRef(ParamRef),
    /// An instant, in whole milliseconds since 1970-01-01T00:00:00Z (what a JavaScript `Date`
    /// holds).
    Date(i64),
    /// A regular expression: its source and its flags, the flags in sorted order.
    Regex {
        /// The pattern, as JavaScript's `RegExp.prototype.source` would hold it.
        pattern: String,
        /// The flags, each at most once, sorted (`"gi"`, never `"ig"`).
        flags: String,
    },
    /// A map from keys of any kind to values, in insertion order, keys distinct.
    Map(Vec<(StagedValue, StagedValue)>),
    /// A set of distinct members, in insertion order.
    Set(Vec<StagedValue>),
    /// An integer of any size, in canonical decimal (no `+`, no leading zeros, no `-0`).
    BigInt(String),
    /// Raw bytes.
    Bytes(Vec<u8>),
}

/// Which of a node's outputs a [`NodeRef`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Select {
    /// The first item.
    First,
    /// The last item.
    Last,
    /// Every item, as an array.
    All,
    /// The item at this position, from 0.
    Index(u64),
}

/// One step of a route through a plan: an edge followed, or a join passed.
#[derive(Clone, Debug, Eq)]
pub enum RouteSegment {
    /// The edge with this id was followed. Shared: a route is copied at every step of a run,
    /// each copy one segment longer.
    Edge(Arc<str>),
    /// A join node settled, merging the routes that arrived over some of its incoming edges.
    /// Behind a pointer: joins are rare and a route is copied at every step of a run, so an
    /// edge segment stays two words.
    Join(Arc<JoinSegment>),
}

/// Hashed by value, as it is compared.
impl std::hash::Hash for RouteSegment {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            RouteSegment::Edge(id) => {
                state.write_u8(0);
                id.hash(state);
            }
            RouteSegment::Join(joined) => {
                state.write_u8(1);
                joined.hash(state);
            }
        }
    }
}

// A route is copied at every step of a run: its segments stay two words.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<RouteSegment>() == 16);

/// What a [`RouteSegment::Join`] records.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JoinSegment {
    /// The join node's id.
    pub join: String,
    /// The incoming edge ids whose arrivals were merged.
    pub of: Vec<String>,
}

impl RouteSegment {
    /// The segment for the join node `join` merging the arrivals over the edges `of`.
    pub fn join(join: String, of: Vec<String>) -> RouteSegment {
        RouteSegment::Join(Arc::new(JoinSegment { join, of }))
    }
}

/// Equal as the derived comparison would be, but routes are compared at every step of a run
/// (a frame's route against its parent's), and the edge ids of a run's routes are shared: one
/// pointer compared settles most segments, where the derived comparison took 3.5 times as long.
impl PartialEq for RouteSegment {
    #[inline]
    fn eq(&self, other: &RouteSegment) -> bool {
        match (self, other) {
            (RouteSegment::Edge(a), RouteSegment::Edge(b)) => Arc::ptr_eq(a, b) || a == b,
            (RouteSegment::Join(a), RouteSegment::Join(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

/// Which execution of a node a reference reads: the route by which it was reached.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BranchId {
    /// The route's steps, from the entry.
    pub segments: Vec<RouteSegment>,
}

impl BranchId {
    /// The branch key the runtime files outputs under: length-prefixed segments with no
    /// separators (`e2:ab` for the edge `ab`, `j1:j(e2:abe1:c)` for the join `j` of `ab`
    /// and `c`), so no two routes share a key. The entry's empty route is `""`.
    pub fn key(&self) -> String {
        let mut key = String::new();
        push_segments_key(&mut key, &self.segments);
        key
    }

    /// The frame key (`nodeId:branchKey`) of node `node_id` reached by the route whose branch
    /// key is `base` followed by the segments `added`. A route's key is its segments' keys one
    /// after another, so a frame whose route extends a known one (a step's successor extends
    /// its parent's) gets its key by copying, not by building it from a route as long as the
    /// run.
    pub fn frame_key_extending(node_id: &str, base: &str, added: &[RouteSegment]) -> String {
        let mut key = String::with_capacity(node_id.len() + 1 + base.len() + 16 * added.len());
        key.push_str(node_id);
        key.push(':');
        key.push_str(base);
        push_segments_key(&mut key, added);
        key
    }
}

fn push_segments_key(key: &mut String, segments: &[RouteSegment]) {
    for segment in segments {
        match segment {
            RouteSegment::Edge(id) => push_edge_key(key, id),
            RouteSegment::Join(joined) => {
                let JoinSegment { join, of } = &**joined;
                push_counted(key, 'j', join);
                key.push('(');
                for id in of {
                    push_edge_key(key, id);
                }
                key.push(')');
            }
        }
    }
}

fn push_edge_key(key: &mut String, id: &str) {
    push_counted(key, 'e', id);
}

/// `<tag><length in chars>:<id>`. Keys are built at every step of a run, so the length is
/// written digit by digit rather than through the formatting machinery.
fn push_counted(key: &mut String, tag: char, id: &str) {
    key.push(tag);
    let count = id.chars().count();
    let mut scale = 1;
    while count / scale >= 10 {
        scale *= 10;
    }
    while scale > 0 {
        key.push(char::from(b'0' + (count / scale % 10) as u8));
        scale /= 10;
    }
    key.push(':');
    key.push_str(id);
}

/// A reference to the output of another node, resolved when the plan runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeRef {
    /// The node whose output is read.
    pub node: String,
    /// Which of its output items.
    pub select: Select,
    /// A dot-separated path into the selected item; `None` reads the item whole.
    pub path: Option<String>,
    /// Which execution of the node to read; `None` reads whichever ran (refused at freeze when
    /// more than one route reaches the node).
    pub branch_id: Option<BranchId>,
}

/// A reference to a template parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamRef {
    /// The parameter's path.
    pub path: String,
}

/// Why a wire value could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// A JSON Pointer to the offending value, relative to the value being read.
    pub pointer: String,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl WireError {
    fn at(pointer: &Pointer<'_>, message: impl Into<String>) -> WireError {
        WireError {
            pointer: pointer.render(),
            message: message.into(),
        }
    }

    /// The same error, its pointer placed under `prefix` (a JSON Pointer).
    pub fn under(mut self, prefix: &str) -> WireError {
        self.pointer = format!("{prefix}{}", self.pointer);
        self
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for WireError {}

/// A JSON Pointer built as the reader descends, rendered only when an error needs it.
#[derive(Clone, Copy)]
pub(crate) enum Pointer<'a> {
    Root,
    Key(&'a Pointer<'a>, &'a str),
    Index(&'a Pointer<'a>, usize),
}

impl Pointer<'_> {
    pub(crate) fn render(&self) -> String {
        match self {
            Pointer::Root => String::new(),
            Pointer::Key(parent, key) => {
                format!("{}/{}", parent.render(), key.replace('~', "~0").replace('/', "~1"))
            }
            Pointer::Index(parent, index) => format!("{}/{index}", parent.render()),
        }
    }
}

/// The tags a single-key object may carry, for messages.
const TAGS: &str = "$ref, $param, $date, $regex, $map, $set, $bigint, $bytes, $literal";

impl StagedValue {
    /// Reads a staged value from its JSON wire form.
    ///
    /// A single-key object whose key is a tag is that typed value; an object with any other
    /// key that starts with `$` is refused (write it inside `{"$literal": …}`), so a mistyped
    /// tag never passes as data.
    pub fn from_wire(json: &Json) -> Result<StagedValue, WireError> {
        read(json, &Pointer::Root, 0, Reading::Tagged)
    }

    /// Writes the value in its JSON wire form, the exact inverse of [`StagedValue::from_wire`].
    pub fn to_wire(&self) -> Json {
        match self {
            StagedValue::Null => Json::Null,
            StagedValue::Bool(b) => Json::Bool(*b),
            StagedValue::Number(n) => number_to_json(*n),
            StagedValue::String(s) => Json::String(s.clone()),
            StagedValue::Array(items) => Json::Array(items.iter().map(StagedValue::to_wire).collect()),
            StagedValue::Object(fields) => {
                let object: JsonMap<String, Json> = fields.iter().map(|(k, v)| (k.clone(), v.to_wire())).collect();
                if fields.keys().any(|key| key.starts_with('$')) {
                    tagged("$literal", Json::Object(object))
                } else {
                    Json::Object(object)
                }
            }
            StagedValue::NodeRef(reference) => tagged("$ref", reference.to_wire()),
            StagedValue::ParamRef(param) => {
                let mut body = JsonMap::new();
                body.insert("path".into(), Json::String(param.path.clone()));
                tagged("$param", Json::Object(body))
            }
            StagedValue::Date(millis) => tagged("$date", Json::String(format_date(*millis))),
            StagedValue::Regex { pattern, flags } => {
                let mut body = JsonMap::new();
                body.insert("pattern".into(), Json::String(pattern.clone()));
                body.insert("flags".into(), Json::String(flags.clone()));
                tagged("$regex", Json::Object(body))
            }
            StagedValue::Map(entries) => tagged(
                "$map",
                Json::Array(
                    entries
                        .iter()
                        .map(|(k, v)| Json::Array(vec![k.to_wire(), v.to_wire()]))
                        .collect(),
                ),
            ),
            StagedValue::Set(members) => {
                tagged("$set", Json::Array(members.iter().map(StagedValue::to_wire).collect()))
            }
            StagedValue::BigInt(digits) => tagged("$bigint", Json::String(digits.clone())),
            StagedValue::Bytes(bytes) => tagged(
                "$bytes",
                Json::String(base64::engine::general_purpose::STANDARD.encode(bytes)),
            ),
        }
    }

    /// Reads plain JSON as a staged value without reading tags: every object is a plain
    /// object. Used for the definition fields that hold JSON data rather than staged values
    /// (see [`crate::RAW_FIELDS`]), such as a reason's JSON Schema with its `$ref`s and `$defs`.
    pub fn from_plain_json(json: &Json) -> Result<StagedValue, WireError> {
        read(json, &Pointer::Root, 0, Reading::Plain)
    }

    /// The value as plain JSON, when it holds no typed value (the inverse of
    /// [`StagedValue::from_plain_json`]).
    pub fn to_plain_json(&self) -> Option<Json> {
        Some(match self {
            StagedValue::Null => Json::Null,
            StagedValue::Bool(b) => Json::Bool(*b),
            StagedValue::Number(n) => number_to_json(*n),
            StagedValue::String(s) => Json::String(s.clone()),
            StagedValue::Array(items) => {
                Json::Array(items.iter().map(StagedValue::to_plain_json).collect::<Option<_>>()?)
            }
            StagedValue::Object(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(k, v)| Some((k.clone(), v.to_plain_json()?)))
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }

    /// Every [`NodeRef`] in the value, depth first, map keys and set members included.
    pub fn node_refs(&self) -> Vec<&NodeRef> {
        let mut found = Vec::new();
        self.visit(&mut |value| {
            if let StagedValue::NodeRef(reference) = value {
                found.push(reference);
            }
        });
        found
    }

    /// Calls `f` on this value and every value inside it, depth first.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a StagedValue)) {
        // An explicit stack: a value read from the wire is depth-bounded, but one built in
        // code need not be.
        let mut stack = vec![self];
        while let Some(value) = stack.pop() {
            f(value);
            match value {
                StagedValue::Array(items) | StagedValue::Set(items) => stack.extend(items.iter().rev()),
                StagedValue::Object(fields) => stack.extend(fields.values().rev()),
                StagedValue::Map(entries) => {
                    for (key, value) in entries.iter().rev() {
                        stack.push(value);
                        stack.push(key);
                    }
                }
                _ => {}
            }
        }
    }

    /// The kind of value, as messages name it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            StagedValue::Null => "null",
            StagedValue::Bool(_) => "a boolean",
            StagedValue::Number(_) => "a number",
            StagedValue::String(_) => "a string",
            StagedValue::Array(_) => "an array",
            StagedValue::Object(_) => "an object",
            StagedValue::NodeRef(_) => "a node reference",
            StagedValue::ParamRef(_) => "a parameter reference",
            StagedValue::Date(_) => "a date",
            StagedValue::Regex { .. } => "a regular expression",
            StagedValue::Map(_) => "a map",
            StagedValue::Set(_) => "a set",
            StagedValue::BigInt(_) => "a big integer",
            StagedValue::Bytes(_) => "bytes",
        }
    }
}

impl NodeRef {
    /// The reference's body in wire form (what sits under `$ref`).
    pub fn to_wire(&self) -> Json {
        let mut body = JsonMap::new();
        body.insert("node".into(), Json::String(self.node.clone()));
        body.insert(
            "select".into(),
            match self.select {
                Select::First => Json::String("first".into()),
                Select::Last => Json::String("last".into()),
                Select::All => Json::String("all".into()),
                Select::Index(index) => {
                    let mut object = JsonMap::new();
                    object.insert("index".into(), Json::from(index));
                    Json::Object(object)
                }
            },
        );
        if let Some(path) = &self.path {
            body.insert("path".into(), Json::String(path.clone()));
        }
        if let Some(branch) = &self.branch_id {
            body.insert("branchId".into(), branch.to_wire());
        }
        Json::Object(body)
    }

    /// Reads a reference's body (what sits under `$ref`).
    pub fn from_wire(json: &Json) -> Result<NodeRef, WireError> {
        read_node_ref(json, &Pointer::Root)
    }
}

impl BranchId {
    /// The branch id in wire form: `{"segments": [{"edge": id} | {"join": id, "of": [ids]}]}`.
    pub fn to_wire(&self) -> Json {
        let segments = self
            .segments
            .iter()
            .map(|segment| {
                let mut object = JsonMap::new();
                match segment {
                    RouteSegment::Edge(id) => {
                        object.insert("edge".into(), Json::String(id.to_string()));
                    }
                    RouteSegment::Join(joined) => {
                        let JoinSegment { join, of } = &**joined;
                        object.insert("join".into(), Json::String(join.clone()));
                        object.insert("of".into(), Json::Array(of.iter().cloned().map(Json::String).collect()));
                    }
                }
                Json::Object(object)
            })
            .collect();
        let mut body = JsonMap::new();
        body.insert("segments".into(), Json::Array(segments));
        Json::Object(body)
    }

    /// Reads a branch id from its wire form.
    pub fn from_wire(json: &Json) -> Result<BranchId, WireError> {
        read_branch_id(json, &Pointer::Root)
    }
}

fn tagged(tag: &str, body: Json) -> Json {
    let mut object = JsonMap::new();
    object.insert(tag.into(), body);
    Json::Object(object)
}

fn number_to_json(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER {
        Json::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number)
    }
}

/// How deep a wire value may nest; deeper values are refused rather than walked.
pub const MAX_WIRE_DEPTH: usize = 128;

/// Whether a reader takes single-key `$` objects as tags (staged values) or as plain data
/// (the raw definition fields).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Tagged,
    Plain,
}

fn read(json: &Json, at: &Pointer<'_>, depth: usize, reading: Reading) -> Result<StagedValue, WireError> {
    if depth > MAX_WIRE_DEPTH {
        return Err(WireError::at(
            at,
            format!("values nest more than {MAX_WIRE_DEPTH} levels deep; flatten the value"),
        ));
    }
    Ok(match json {
        Json::Null => StagedValue::Null,
        Json::Bool(b) => StagedValue::Bool(*b),
        Json::Number(n) => StagedValue::Number(read_number(n, at)?),
        Json::String(s) => StagedValue::String(s.clone()),
        Json::Array(items) => StagedValue::Array(read_items(items, at, depth, reading)?),
        Json::Object(object) if reading == Reading::Plain => {
            StagedValue::Object(read_fields(object, at, depth, reading)?)
        }
        Json::Object(object) => {
            if object.len() == 1
                && let Some((key, body)) = object.iter().next()
                && let Some(value) = read_tagged(key, body, at, depth)?
            {
                return Ok(value);
            }
            if let Some(key) = object.keys().find(|key| key.starts_with('$')) {
                let message = if object.len() > 1 && is_tag(key) {
                    format!(
                        "an object mixes the tag \"{key}\" with other keys; a tagged value has exactly one key. \
                         For a plain object with these keys, write {{\"$literal\": {{…}}}}"
                    )
                } else {
                    format!(
                        "\"{key}\" is not a tag ({TAGS}); for a plain object with a key that starts with \"$\", \
                         write {{\"$literal\": {{…}}}}"
                    )
                };
                return Err(WireError::at(at, message));
            }
            StagedValue::Object(read_fields(object, at, depth, reading)?)
        }
    })
}

fn is_tag(key: &str) -> bool {
    matches!(
        key,
        "$ref" | "$param" | "$date" | "$regex" | "$map" | "$set" | "$bigint" | "$bytes" | "$literal"
    )
}

fn read_items(items: &[Json], at: &Pointer<'_>, depth: usize, reading: Reading) -> Result<Vec<StagedValue>, WireError> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| read(item, &Pointer::Index(at, index), depth + 1, reading))
        .collect()
}

fn read_fields(
    object: &JsonMap<String, Json>,
    at: &Pointer<'_>,
    depth: usize,
    reading: Reading,
) -> Result<BTreeMap<String, StagedValue>, WireError> {
    object
        .iter()
        .map(|(key, value)| Ok((key.clone(), read(value, &Pointer::Key(at, key), depth + 1, reading)?)))
        .collect()
}

fn read_number(n: &serde_json::Number, at: &Pointer<'_>) -> Result<f64, WireError> {
    if let Some(i) = n.as_i64() {
        if i.unsigned_abs() > MAX_SAFE_INTEGER as u64 {
            return Err(WireError::at(
                at,
                format!("{i} is too large for a number to hold exactly; write {{\"$bigint\": \"{i}\"}}"),
            ));
        }
        return Ok(i as f64);
    }
    if let Some(u) = n.as_u64() {
        return Err(WireError::at(
            at,
            format!("{u} is too large for a number to hold exactly; write {{\"$bigint\": \"{u}\"}}"),
        ));
    }
    match n.as_f64() {
        Some(f) if f.is_finite() => Ok(if f == 0.0 { 0.0 } else { f }),
        _ => Err(WireError::at(at, format!("{n} is not a finite number"))),
    }
}

/// Reads `{tag: body}`; `Ok(None)` when `key` is not a tag.
fn read_tagged(key: &str, body: &Json, at: &Pointer<'_>, depth: usize) -> Result<Option<StagedValue>, WireError> {
    let inner = Pointer::Key(at, key);
    let at = &inner;
    Ok(Some(match key {
        "$ref" => StagedValue::NodeRef(read_node_ref(body, at)?),
        "$param" => {
            let object = expect_object(body, at, "{\"$param\": {\"path\": \"…\"}}")?;
            refuse_unknown_keys(object, &["path"], at)?;
            let path = required_string(object, "path", at)?;
            StagedValue::ParamRef(ParamRef { path })
        }
        "$date" => {
            let Json::String(text) = body else {
                return Err(WireError::at(
                    at,
                    "a date is written as an RFC 3339 string: {\"$date\": \"2026-01-31T09:30:00Z\"}",
                ));
            };
            StagedValue::Date(parse_rfc3339(text).map_err(|message| WireError::at(at, message))?)
        }
        "$regex" => {
            let object = expect_object(body, at, "{\"$regex\": {\"pattern\": \"…\", \"flags\": \"…\"}}")?;
            refuse_unknown_keys(object, &["pattern", "flags"], at)?;
            let pattern = required_string(object, "pattern", at)?;
            let flags = match object.get("flags") {
                None => String::new(),
                Some(Json::String(flags)) => flags.clone(),
                Some(_) => {
                    return Err(WireError::at(
                        &Pointer::Key(at, "flags"),
                        "flags are a string such as \"gi\"",
                    ));
                }
            };
            let flags =
                canonical_flags(&flags).map_err(|message| WireError::at(&Pointer::Key(at, "flags"), message))?;
            StagedValue::Regex { pattern, flags }
        }
        "$map" => {
            let Json::Array(entries) = body else {
                return Err(WireError::at(
                    at,
                    "a map is written as a list of pairs: {\"$map\": [[key, value], …]}",
                ));
            };
            let mut map: Vec<(StagedValue, StagedValue)> = Vec::with_capacity(entries.len());
            // Keys are compared by their canonical encodings, hashed: a linear check, however
            // many entries an untrusted file holds.
            let mut keys = HashSet::with_capacity(entries.len());
            for (index, entry) in entries.iter().enumerate() {
                let entry_at = Pointer::Index(at, index);
                let Json::Array(pair) = entry else {
                    return Err(WireError::at(&entry_at, "each map entry is a [key, value] pair"));
                };
                let [key, value] = pair.as_slice() else {
                    return Err(WireError::at(&entry_at, "each map entry is a [key, value] pair"));
                };
                let key = read(key, &Pointer::Index(&entry_at, 0), depth + 2, Reading::Tagged)?;
                let value = read(value, &Pointer::Index(&entry_at, 1), depth + 2, Reading::Tagged)?;
                if !keys.insert(crate::digest::encode_staged(&key)) {
                    return Err(WireError::at(
                        &entry_at,
                        "this key appears earlier in the map; a map's keys are distinct",
                    ));
                }
                map.push((key, value));
            }
            StagedValue::Map(map)
        }
        "$set" => {
            let Json::Array(members) = body else {
                return Err(WireError::at(
                    at,
                    "a set is written as a list of members: {\"$set\": [ … ]}",
                ));
            };
            let members = read_items(members, at, depth + 1, Reading::Tagged)?;
            let mut seen = HashSet::with_capacity(members.len());
            for (index, member) in members.iter().enumerate() {
                if !seen.insert(crate::digest::encode_staged(member)) {
                    return Err(WireError::at(
                        &Pointer::Index(at, index),
                        "this member appears earlier in the set; a set's members are distinct",
                    ));
                }
            }
            StagedValue::Set(members)
        }
        "$bigint" => {
            let Json::String(digits) = body else {
                return Err(WireError::at(
                    at,
                    "a big integer is written as a string of digits: {\"$bigint\": \"12345678901234567890\"}",
                ));
            };
            StagedValue::BigInt(canonical_bigint(digits).map_err(|message| WireError::at(at, message))?)
        }
        "$bytes" => {
            let Json::String(text) = body else {
                return Err(WireError::at(
                    at,
                    "bytes are written as a base64 string: {\"$bytes\": \"aGVsbG8=\"}",
                ));
            };
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(text)
                .map_err(|error| WireError::at(at, format!("not standard base64 with padding ({error})")))?;
            StagedValue::Bytes(bytes)
        }
        "$literal" => match body {
            Json::Object(object) => StagedValue::Object(read_fields(object, at, depth + 1, Reading::Tagged)?),
            _ => {
                return Err(WireError::at(
                    at,
                    "$literal holds a plain object: {\"$literal\": {\"$key\": …}}",
                ));
            }
        },
        _ => return Ok(None),
    }))
}

fn expect_object<'j>(json: &'j Json, at: &Pointer<'_>, form: &str) -> Result<&'j JsonMap<String, Json>, WireError> {
    match json {
        Json::Object(object) => Ok(object),
        _ => Err(WireError::at(at, format!("expected an object: {form}"))),
    }
}

fn refuse_unknown_keys(object: &JsonMap<String, Json>, known: &[&str], at: &Pointer<'_>) -> Result<(), WireError> {
    match object.keys().find(|key| !known.contains(&key.as_str())) {
        Some(key) => Err(WireError::at(
            &Pointer::Key(at, key),
            format!("unknown field \"{key}\"; the fields are {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

fn required_string(object: &JsonMap<String, Json>, key: &str, at: &Pointer<'_>) -> Result<String, WireError> {
    match object.get(key) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(_) => Err(WireError::at(&Pointer::Key(at, key), format!("\"{key}\" is a string"))),
        None => Err(WireError::at(at, format!("\"{key}\" is missing"))),
    }
}

fn read_node_ref(json: &Json, at: &Pointer<'_>) -> Result<NodeRef, WireError> {
    let object = expect_object(json, at, "{\"$ref\": {\"node\": \"…\", \"select\": \"first\"}}")?;
    refuse_unknown_keys(object, &["node", "select", "path", "branchId"], at)?;
    let node = required_string(object, "node", at)?;
    let select_at = Pointer::Key(at, "select");
    let select = match object.get("select") {
        Some(Json::String(s)) if s == "first" => Select::First,
        Some(Json::String(s)) if s == "last" => Select::Last,
        Some(Json::String(s)) if s == "all" => Select::All,
        Some(Json::Object(index)) if index.len() == 1 && index.get("index").and_then(Json::as_u64).is_some() => {
            Select::Index(index["index"].as_u64().unwrap_or_default())
        }
        None => {
            return Err(WireError::at(
                at,
                "\"select\" is missing: write \"first\", \"last\", \"all\" or {\"index\": n}",
            ));
        }
        Some(_) => {
            return Err(WireError::at(
                &select_at,
                "select is \"first\", \"last\", \"all\" or {\"index\": n} with n a whole number ≥ 0",
            ));
        }
    };
    let path = match object.get("path") {
        None => None,
        Some(Json::String(path)) => Some(path.clone()),
        Some(_) => {
            return Err(WireError::at(
                &Pointer::Key(at, "path"),
                "path is a dot-separated string such as \"rows.0.name\"",
            ));
        }
    };
    let branch_id = match object.get("branchId") {
        None => None,
        Some(branch) => Some(read_branch_id(branch, &Pointer::Key(at, "branchId"))?),
    };
    Ok(NodeRef {
        node,
        select,
        path,
        branch_id,
    })
}

fn read_branch_id(json: &Json, at: &Pointer<'_>) -> Result<BranchId, WireError> {
    let form = "{\"segments\": [{\"edge\": \"e0\"}, {\"join\": \"j\", \"of\": [\"e3\", \"e4\"]}]}";
    let object = expect_object(json, at, form)?;
    refuse_unknown_keys(object, &["segments"], at)?;
    let segments_at = Pointer::Key(at, "segments");
    let Some(Json::Array(segments)) = object.get("segments") else {
        return Err(WireError::at(at, format!("a branch id is {form}")));
    };
    let mut read_segments = Vec::with_capacity(segments.len());
    for (index, segment) in segments.iter().enumerate() {
        let segment_at = Pointer::Index(&segments_at, index);
        let object = expect_object(segment, &segment_at, "{\"edge\": id} or {\"join\": id, \"of\": [ids]}")?;
        let segment = if object.contains_key("edge") {
            refuse_unknown_keys(object, &["edge"], &segment_at)?;
            RouteSegment::Edge(required_string(object, "edge", &segment_at)?.into())
        } else {
            refuse_unknown_keys(object, &["join", "of"], &segment_at)?;
            let join = required_string(object, "join", &segment_at)?;
            let of_at = Pointer::Key(&segment_at, "of");
            let Some(Json::Array(of)) = object.get("of") else {
                return Err(WireError::at(
                    &segment_at,
                    "a join segment lists the merged edge ids: {\"join\": id, \"of\": [ids]}",
                ));
            };
            let of = of
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    id.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| WireError::at(&Pointer::Index(&of_at, i), "an edge id is a string"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            RouteSegment::join(join, of)
        };
        read_segments.push(segment);
    }
    Ok(BranchId {
        segments: read_segments,
    })
}

fn canonical_flags(flags: &str) -> Result<String, String> {
    let mut sorted: Vec<char> = flags.chars().collect();
    if let Some(bad) = sorted.iter().find(|c| !"dgimsuvy".contains(**c)) {
        return Err(format!(
            "\"{bad}\" is not a regular-expression flag; the flags are d, g, i, m, s, u, v and y"
        ));
    }
    sorted.sort_unstable();
    if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err("a flag appears twice; write each flag once".into());
    }
    if sorted.contains(&'u') && sorted.contains(&'v') {
        return Err("the u and v flags cannot be combined; keep one".into());
    }
    Ok(sorted.into_iter().collect())
}

fn canonical_bigint(digits: &str) -> Result<String, String> {
    let (negative, magnitude) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    if magnitude.is_empty() || !magnitude.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "\"{digits}\" is not an integer; write decimal digits with an optional leading \"-\""
        ));
    }
    let trimmed = magnitude.trim_start_matches('0');
    if trimmed.len() != magnitude.len() && !(trimmed.is_empty() && magnitude == "0") {
        return Err(format!("\"{digits}\" has leading zeros; write it without them"));
    }
    if trimmed.is_empty() && negative {
        return Err("\"-0\" is not a distinct integer; write \"0\"".into());
    }
    Ok(digits.to_owned())
}

/// Reads an RFC 3339 date-time into milliseconds since the epoch.
fn parse_rfc3339(text: &str) -> Result<i64, String> {
    let refuse = || {
        format!(
            "\"{text}\" is not an RFC 3339 date-time; write it as 2026-01-31T09:30:00Z \
             (a time zone is required, and at most 3 fraction digits: a date holds milliseconds)"
        )
    };
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = bytes.get(range)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0i64, |n, b| n * 10 + i64::from(b - b'0')))
    };
    let separator = |index: usize, allowed: &[u8]| bytes.get(index).is_some_and(|b| allowed.contains(b));
    if !(separator(4, b"-") && separator(7, b"-") && separator(10, b"Tt") && separator(13, b":") && separator(16, b":"))
    {
        return Err(refuse());
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    ) else {
        return Err(refuse());
    };
    let mut index = 19;
    let mut millis = 0;
    if bytes.get(index) == Some(&b'.') {
        let start = index + 1;
        let end = start + bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        if end == start || end - start > 3 {
            return Err(refuse());
        }
        let fraction = digits(start..end).ok_or_else(refuse)?;
        millis = fraction * 10i64.pow(3 - (end - start) as u32);
        index = end;
    }
    let offset_minutes = match bytes.get(index) {
        Some(b'Z' | b'z') if index + 1 == bytes.len() => 0,
        Some(sign @ (b'+' | b'-')) if index + 6 == bytes.len() && bytes[index + 3] == b':' => {
            let hours = digits(index + 1..index + 3).ok_or_else(refuse)?;
            let minutes = digits(index + 4..index + 6).ok_or_else(refuse)?;
            if hours > 23 || minutes > 59 {
                return Err(refuse());
            }
            let total = hours * 60 + minutes;
            if *sign == b'-' { -total } else { total }
        }
        _ => return Err(refuse()),
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => return Err(refuse()),
    };
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 59 {
        return Err(refuse());
    }
    let days = writ_core::date::make_day(year as f64, (month - 1) as f64, day as f64);
    let time = writ_core::date::make_time(hour as f64, minute as f64, second as f64, millis as f64);
    Ok(writ_core::date::make_date(days, time) as i64 - offset_minutes * 60_000)
}

/// Writes milliseconds since the epoch as `Date.prototype.toISOString` does (years 0–9999).
fn format_date(millis: i64) -> String {
    let fields = writ_core::date::UtcFields::of(millis as f64);
    let year = fields.year as i64;
    let year = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else {
        format!("{year:+07}")
    };
    format!(
        "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        fields.month as i64 + 1,
        fields.day as i64,
        fields.hours as i64,
        fields.minutes as i64,
        fields.seconds as i64,
        fields.millis as i64
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_extending_a_route_is_the_key_of_the_whole_route() {
        let base = vec![
            RouteSegment::Edge("ab".into()),
            RouteSegment::join("j".into(), vec!["x".into(), "y".into()]),
        ];
        let added = vec![RouteSegment::Edge("cd".into()), RouteSegment::Edge("e".into())];
        let whole = BranchId {
            segments: [base.clone(), added.clone()].concat(),
        };
        let base_key = BranchId { segments: base }.key();
        assert_eq!(
            BranchId::frame_key_extending("node", &base_key, &added),
            format!("node:{}", whole.key())
        );
        assert_eq!(BranchId::frame_key_extending("entry", "", &[]), "entry:");
    }

    #[test]
    fn route_segments_are_equal_by_value_whether_or_not_shared() {
        let edge = |id: &str| RouteSegment::Edge(Arc::from(id));
        let shared = edge("ab");
        assert_eq!(shared, shared.clone());
        assert_eq!(edge("ab"), edge("ab"));
        assert_ne!(edge("ab"), edge("ac"));
        let join = |of: &[&str]| RouteSegment::join("j".into(), of.iter().map(|id| id.to_string()).collect());
        assert_eq!(join(&["a", "b"]), join(&["a", "b"]));
        assert_ne!(join(&["a", "b"]), join(&["b", "a"]));
        assert_ne!(join(&["ab"]), edge("ab"));
        // Equal segments hash alike, shared or not.
        use std::hash::BuildHasher;
        let state = std::hash::RandomState::new();
        assert_eq!(state.hash_one(&shared), state.hash_one(edge("ab")));
        assert_eq!(state.hash_one(join(&["a", "b"])), state.hash_one(join(&["a", "b"])));
    }

    fn round_trip(json: Json) -> StagedValue {
        let value = StagedValue::from_wire(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(StagedValue::from_wire(&value.to_wire()).unwrap(), value, "{json}");
        value
    }

    #[test]
    fn branch_keys_count_each_id_in_chars() {
        let branch = BranchId {
            segments: vec![
                RouteSegment::Edge("".into()),
                RouteSegment::Edge("é".repeat(12).into()),
                RouteSegment::Edge("x".repeat(105).into()),
            ],
        };
        assert_eq!(
            branch.key(),
            format!("e0:e12:{}e105:{}", "é".repeat(12), "x".repeat(105))
        );
    }

    #[test]
    fn tags_read_as_typed_values() {
        let reference = round_trip(
            json!({"$ref": {"node": "list", "select": {"index": 2}, "path": "rows.0",
            "branchId": {"segments": [{"edge": "e0"}, {"join": "j", "of": ["e3", "e4"]}]}}}),
        );
        let StagedValue::NodeRef(reference) = reference else {
            panic!("not a reference")
        };
        assert_eq!(reference.select, Select::Index(2));
        assert_eq!(reference.branch_id.unwrap().key(), "e2:e0j1:j(e2:e3e2:e4)");
        assert_eq!(
            round_trip(json!({"$date": "2020-01-01T00:00:00Z"})),
            StagedValue::Date(1_577_836_800_000)
        );
        assert_eq!(
            round_trip(json!({"$date": "2020-01-01T01:00:00.5+01:00"})),
            StagedValue::Date(1_577_836_800_500)
        );
        assert_eq!(
            round_trip(json!({"$regex": {"pattern": "^inv-\\d+$", "flags": "ig"}})),
            StagedValue::Regex {
                pattern: "^inv-\\d+$".into(),
                flags: "gi".into()
            }
        );
        round_trip(json!({"$map": [["k", 1], [{"$date": "2031-05-05T00:00:00Z"}, {"$set": [1, "1"]}]]}));
        assert_eq!(
            round_trip(json!({"$bigint": "-12345678901234567890"})),
            StagedValue::BigInt("-12345678901234567890".into())
        );
        assert_eq!(
            round_trip(json!({"$bytes": "aGk="})),
            StagedValue::Bytes(b"hi".to_vec())
        );
        assert_eq!(
            round_trip(json!({"$param": {"path": "dir"}})),
            StagedValue::ParamRef(ParamRef { path: "dir".into() })
        );
    }

    #[test]
    fn a_look_alike_is_never_a_reference() {
        let literal = round_trip(json!({"$literal": {"$ref": {"node": "a", "select": "first"}}}));
        let StagedValue::Object(fields) = &literal else {
            panic!("not an object")
        };
        assert!(matches!(fields["$ref"], StagedValue::Object(_)));
        assert!(literal.node_refs().is_empty());
        // A record shaped like the original's NodeRef class is plain data.
        let record =
            round_trip(json!({"kind": "nodeRef", "node": "a", "select": "first", "constructor": {"name": "NodeRef"}}));
        assert!(record.node_refs().is_empty());
        assert_eq!(
            literal.to_wire(),
            json!({"$literal": {"$ref": {"node": "a", "select": "first"}}})
        );
    }

    #[test]
    fn guesses_are_refused_with_a_pointer() {
        let cases = [
            (
                json!({"a": {"$ref": {"node": "x", "select": "first"}, "extra": 1}}),
                "/a",
            ),
            (json!([{"$reff": {}}]), "/0"),
            (json!({"$ref": {"node": "x", "select": "middle"}}), "/$ref/select"),
            (
                json!({"$ref": {"node": "x", "select": "first", "pth": "a"}}),
                "/$ref/pth",
            ),
            (json!({"$date": "2020-01-01"}), "/$date"),
            (json!({"$date": "2020-02-30T00:00:00Z"}), "/$date"),
            (json!({"$date": "2020-01-01T00:00:00.1234Z"}), "/$date"),
            (json!({"$regex": {"pattern": "a", "flags": "gg"}}), "/$regex/flags"),
            (json!({"$map": [["k", 1], ["k", 2]]}), "/$map/1"),
            (json!({"$set": [1, 1]}), "/$set/1"),
            (json!({"$bigint": "007"}), "/$bigint"),
            (json!({"$bytes": "@@"}), "/$bytes"),
            (json!({"n": 9_007_199_254_740_993_i64}), "/n"),
        ];
        for (json, pointer) in cases {
            let error = StagedValue::from_wire(&json).expect_err(&json.to_string());
            assert_eq!(error.pointer, pointer, "{json}: {error}");
        }
    }

    #[test]
    fn large_maps_and_sets_are_checked_in_linear_time() {
        // Pairwise comparison would make 5·10^9 comparisons here; hashing makes 10^5.
        let members: Vec<Json> = (0..100_000).map(|i| json!({"id": i})).collect();
        let StagedValue::Set(read) = StagedValue::from_wire(&json!({"$set": members})).unwrap() else {
            panic!("not a set")
        };
        assert_eq!(read.len(), 100_000);
        let mut entries: Vec<Json> = (0..100_000).map(|i| json!([i, true])).collect();
        entries.push(json!([0.0, false]));
        let error = StagedValue::from_wire(&json!({"$map": entries})).unwrap_err();
        assert_eq!(error.pointer, "/$map/100000");
    }

    #[test]
    fn deep_values_are_refused_not_walked() {
        let mut json = json!(1);
        for _ in 0..1_000 {
            json = json!([json]);
        }
        assert!(StagedValue::from_wire(&json).unwrap_err().message.contains("nest"));
    }
}
