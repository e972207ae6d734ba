//! The stored text of run events in SQLite: each frame's key and route written once per run.
//!
//! Events name frames by key (`nodeId:branchKey`) and by route ([`FrameRef::branch_id`]), and
//! in a chain both grow by an edge a step: written whole, a step of a 200-call chain writes
//! kilobytes, and a run's bytes grow with the square of its length. So a run's frames are
//! numbered from 0 in the order its log first names each one in a [`FrameRef`] (`node_entered`'s
//! `frame`, `edge_taken`'s `to`), and an event is stored as its wire form
//! ([`RunEvent::to_json_string`]) with three substitutions:
//! - a frame key (`node_settled`'s `frame`, `edge_taken`'s `from`, `node_entered`'s `parents`,
//!   a merged outcome's `into`, a barrier's `arrivals`) that names a numbered frame is its number;
//! - a `FrameRef` equal to the numbered frame of its key is that number;
//! - a `FrameRef` named for the first time whose route extends the route of a numbered frame
//!   (`edge_taken`'s `from`, the first of `node_entered`'s `parents`) is the object without
//!   `branchId`, with `"on": <that number>` and `"add": [<the further segments, wire form>]`.
//!
//! The numbers are not written: a reader numbers the frames as it reads the log in order, the
//! same way. A log written whole (by a writ before this form) reads the same.

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::RandomState;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value as Json;
use writ_plan::BranchId;

use crate::run::branch_wire::Segments;
use crate::run::{FrameRef, NodeOutcome, RunEvent};

/// A run's numbered frames, as far as its log has been read or written.
#[derive(Debug, Default)]
pub(crate) struct RunFrames {
    /// Each numbered frame with its key, by number.
    frames: Vec<(Arc<str>, FrameRef)>,
    /// Each numbered frame's number, by key. Keys are as long as routes: foldhash reads them
    /// several times faster than SipHash.
    numbers: HashMap<Arc<str>, usize, RandomState>,
    /// Each numbered frame's number, by the address of its route: the runtime names a frame
    /// again with the route it was first named with, and this finds it without building its
    /// key. The address is only a hint (the frame is compared), and cannot be reused while the
    /// numbered frame holds the route.
    by_route: HashMap<usize, usize, RandomState>,
    /// How many of the run's events this has numbered the frames of.
    pub(crate) events: u64,
}

impl RunFrames {
    /// The stored text of `event`, the next event of the run, numbering the frames it names.
    pub(crate) fn write(&mut self, event: &RunEvent) -> String {
        self.events += 1;
        // A step's events are written straight to text; the rarer ones (a merged join, a
        // barrier) through a JSON tree.
        let step = match event {
            RunEvent::NodeEntered {
                frame,
                parents,
                idempotency_key,
                at,
            } => Some(StoredStep::NodeEntered {
                frame: StoredFrame {
                    how: self.write_frame(frame, parents.first().map(String::as_str)),
                    frame,
                },
                parents: parents.iter().map(|parent| self.stored_key(parent)).collect(),
                idempotency_key: idempotency_key.as_deref(),
                at: *at,
            }),
            RunEvent::EdgeTaken {
                edge_id,
                handle,
                from,
                to,
                at,
            } => Some(StoredStep::EdgeTaken {
                to: StoredFrame {
                    how: self.write_frame(to, Some(from)),
                    frame: to,
                },
                edge_id,
                handle,
                from: self.stored_key(from),
                at: *at,
            }),
            RunEvent::NodeSettled {
                frame,
                outcome,
                verdict,
                host_reads,
                attempts,
                at,
            } if !matches!(outcome, NodeOutcome::Merged { .. }) => Some(StoredStep::NodeSettled {
                frame: self.stored_key(frame),
                outcome,
                verdict: verdict.as_ref(),
                host_reads,
                attempts: *attempts,
                at: *at,
            }),
            _ => None,
        };
        if let Some(step) = step {
            return serde_json::to_string(&step).expect("run events hold only JSON-writable data");
        }
        let text = match event {
            RunEvent::NodeSettled { .. } => {
                let mut json = serde_json::to_value(event).expect("run events hold only JSON-writable data");
                self.write_key(json.get_mut("frame"));
                self.write_key(json.get_mut("outcome").and_then(|outcome| outcome.get_mut("into")));
                json
            }
            RunEvent::FrontierSnapshot { .. } => {
                let mut json = serde_json::to_value(event).expect("run events hold only JSON-writable data");
                if let Some(joins) = json.get_mut("joins").and_then(Json::as_array_mut) {
                    for join in joins {
                        self.write_keys(join.get_mut("arrivals"));
                    }
                }
                json
            }
            _ => return event.to_json_string(),
        };
        text.to_string()
    }

    /// Reads the stored text of the run's next event.
    pub(crate) fn read(&mut self, text: &str) -> Result<RunEvent, String> {
        self.events += 1;
        let mut json: Json = serde_json::from_str(text).map_err(|error| error.to_string())?;
        // The frame first, as it was written: a key in the same event may name it.
        let field = match json.get("type").and_then(Json::as_str) {
            Some("node_entered") => Some("frame"),
            Some("edge_taken") => Some("to"),
            _ => None,
        };
        let frame = match field.and_then(|field| json.get_mut(field)) {
            Some(written) => {
                let frame = self.read_frame(written.take())?;
                // A placeholder, replaced by the frame read above once the rest is parsed.
                *written = serde_json::json!({"nodeId": "", "kind": "", "branchId": {"segments": []}});
                Some(frame)
            }
            None => None,
        };
        if let Json::Object(object) = &mut json {
            for field in ["frame", "from"] {
                self.read_key_in_place(object.get_mut(field))?;
            }
            self.read_key_in_place(object.get_mut("outcome").and_then(|outcome| outcome.get_mut("into")))?;
            self.read_keys_in_place(object.get_mut("parents"))?;
            if let Some(joins) = object.get_mut("joins").and_then(Json::as_array_mut) {
                for join in joins {
                    self.read_keys_in_place(join.get_mut("arrivals"))?;
                }
            }
        }
        let mut event: RunEvent = serde_json::from_value(json).map_err(|error| error.to_string())?;
        match (&mut event, frame) {
            (RunEvent::NodeEntered { frame: slot, .. } | RunEvent::EdgeTaken { to: slot, .. }, Some(frame)) => {
                *slot = frame;
            }
            (_, None) => {}
            (_, Some(_)) => return Err("a frame where the event has none".into()),
        }
        Ok(event)
    }

    /// How `frame` is written; numbers it when it is named for the first time. `on` is the key
    /// of a frame whose route the frame's route may extend.
    fn write_frame(&mut self, frame: &FrameRef, on: Option<&str>) -> Written {
        if let Some(&number) = self.by_route.get(&route_address(frame))
            && self.frames[number].1 == *frame
        {
            return Written::Number(number);
        }
        let base = on.and_then(|on| self.numbers.get(on)).copied().filter(|&base| {
            let segments = &self.frames[base].1.branch_id.segments;
            frame.branch_id.segments.starts_with(segments)
        });
        let written = match base {
            Some(base) => Written::On {
                base,
                shared: self.frames[base].1.branch_id.segments.len(),
            },
            None => Written::Whole,
        };
        let key: Arc<str> = match written {
            // The key of a route is its segments' keys one after another: the base's branch
            // key (after its node id and `:`) and the added segments' key.
            Written::On { base, shared } => {
                let (base_key, base_frame) = &self.frames[base];
                let branch_key = &base_key[base_frame.node_id.len() + 1..];
                BranchId::frame_key_extending(&frame.node_id, branch_key, &frame.branch_id.segments[shared..]).into()
            }
            _ => frame.key().into(),
        };
        if let Some(&number) = self.numbers.get(&key) {
            if self.frames[number].1 == *frame {
                return Written::Number(number);
            }
            // Not the frame numbered under its key: written whole, and not numbered again.
            return Written::Whole;
        }
        self.number(key, frame.clone());
        written
    }

    /// A key as written: its frame's number, if it has one.
    fn stored_key<'a>(&self, key: &'a str) -> StoredKey<'a> {
        StoredKey {
            key,
            number: self.numbers.get(key).copied(),
        }
    }

    /// Reads a frame as [`write_frame`](RunFrames::write_frame) wrote it, numbering it when it is
    /// named for the first time.
    fn read_frame(&mut self, json: Json) -> Result<FrameRef, String> {
        let frame = match json {
            Json::Number(number) => return self.numbered(&number).map(|(_, frame)| frame.clone()),
            Json::Object(mut object) => match (object.remove("on"), object.remove("add")) {
                (None, None) => serde_json::from_value::<FrameRef>(Json::Object(object)),
                (Some(Json::Number(base)), Some(added)) => {
                    let base = self.numbered(&base)?.1.branch_id.segments.clone();
                    let added = BranchId::from_wire(&serde_json::json!({ "segments": added }))
                        .map_err(|error| format!("a frame's added route: {}", error.message))?;
                    object.insert("branchId".into(), serde_json::json!({"segments": []}));
                    serde_json::from_value::<FrameRef>(Json::Object(object)).map(|mut frame| {
                        frame.branch_id = Arc::new(BranchId {
                            segments: [base, added.segments].concat(),
                        });
                        frame
                    })
                }
                _ => return Err("a frame's route is \"on\" a frame and \"add\" segments, or neither".into()),
            }
            .map_err(|error| error.to_string())?,
            other => return Err(format!("a frame is an object or a number, not {other}")),
        };
        let key: Arc<str> = frame.key().into();
        if !self.numbers.contains_key(&key) {
            self.number(key, frame.clone());
        }
        Ok(frame)
    }

    fn number(&mut self, key: Arc<str>, frame: FrameRef) {
        self.numbers.insert(key.clone(), self.frames.len());
        self.by_route.insert(route_address(&frame), self.frames.len());
        self.frames.push((key, frame));
    }

    fn numbered(&self, number: &serde_json::Number) -> Result<&(Arc<str>, FrameRef), String> {
        number
            .as_u64()
            .and_then(|number| self.frames.get(usize::try_from(number).ok()?))
            .ok_or_else(|| format!("frame {number} is not named earlier in the run"))
    }

    /// Replaces the key in `json` (when it is one) by its frame's number, if it has one.
    fn write_key(&self, json: Option<&mut Json>) {
        if let Some(json) = json
            && let Some(&number) = json.as_str().and_then(|key| self.numbers.get(key))
        {
            *json = Json::from(number);
        }
    }

    fn write_keys(&self, json: Option<&mut Json>) {
        if let Some(keys) = json.and_then(Json::as_array_mut) {
            for key in keys {
                self.write_key(Some(key));
            }
        }
    }

    /// Replaces the number in `json` (when it is one) by its frame's key.
    fn read_key_in_place(&self, json: Option<&mut Json>) -> Result<(), String> {
        if let Some(json) = json
            && let Json::Number(number) = json
        {
            *json = Json::String(self.numbered(number)?.0.to_string());
        }
        Ok(())
    }

    fn read_keys_in_place(&self, json: Option<&mut Json>) -> Result<(), String> {
        if let Some(keys) = json.and_then(Json::as_array_mut) {
            for key in keys {
                self.read_key_in_place(Some(key))?;
            }
        }
        Ok(())
    }
}

/// The address of `frame`'s route, for `RunFrames::by_route`.
fn route_address(frame: &FrameRef) -> usize {
    Arc::as_ptr(&frame.branch_id).addr()
}

/// How a frame is written.
#[derive(Clone, Copy)]
enum Written {
    /// As the number of the frame it equals.
    Number(usize),
    /// Whole, in its wire form.
    Whole,
    /// Without its route, which is frame `base`'s route (`shared` segments) plus the rest.
    On { base: usize, shared: usize },
}

/// A frame as [`RunFrames::write_frame`] decided to write it.
struct StoredFrame<'a> {
    frame: &'a FrameRef,
    how: Written,
}

impl Serialize for StoredFrame<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.how {
            Written::Number(number) => serializer.serialize_u64(number as u64),
            Written::Whole => self.frame.serialize(serializer),
            Written::On { base, shared } => {
                // `FrameRef`'s fields but its route.
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("nodeId", &self.frame.node_id)?;
                map.serialize_entry("kind", &self.frame.kind)?;
                if let Some(via) = &self.frame.via_edge_id {
                    map.serialize_entry("viaEdgeId", via)?;
                }
                map.serialize_entry("on", &base)?;
                map.serialize_entry("add", &Segments(&self.frame.branch_id.segments[shared..]))?;
                map.end()
            }
        }
    }
}

/// A frame key as written: its frame's number, or the key.
struct StoredKey<'a> {
    key: &'a str,
    number: Option<usize>,
}

impl Serialize for StoredKey<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.number {
            Some(number) => serializer.serialize_u64(number as u64),
            None => serializer.serialize_str(self.key),
        }
    }
}

/// The events of a step, written as [`RunEvent`]'s wire form with frames and keys as stored
/// (the field names are `RunEvent`'s; the tests read every one back through it).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StoredStep<'a> {
    NodeEntered {
        frame: StoredFrame<'a>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        parents: Vec<StoredKey<'a>>,
        #[serde(rename = "idempotencyKey", skip_serializing_if = "Option::is_none")]
        idempotency_key: Option<&'a str>,
        at: u64,
    },
    NodeSettled {
        frame: StoredKey<'a>,
        outcome: &'a NodeOutcome,
        #[serde(skip_serializing_if = "Option::is_none")]
        verdict: Option<&'a Json>,
        #[serde(rename = "hostReads", skip_serializing_if = "<[Json]>::is_empty")]
        host_reads: &'a [Json],
        #[serde(skip_serializing_if = "Option::is_none")]
        attempts: Option<u64>,
        at: u64,
    },
    EdgeTaken {
        #[serde(rename = "edgeId")]
        edge_id: &'a str,
        handle: &'a str,
        from: StoredKey<'a>,
        to: StoredFrame<'a>,
        at: u64,
    },
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use writ_plan::RouteSegment;

    use super::*;
    use crate::run::{JoinState, NodeOutcome};

    fn frame(node_id: &str, kind: &str, segments: Vec<RouteSegment>) -> FrameRef {
        let via_edge_id = segments.iter().rev().find_map(|segment| match segment {
            RouteSegment::Edge(id) => Some(id.to_string()),
            RouteSegment::Join(_) => None,
        });
        FrameRef {
            node_id: node_id.into(),
            kind: kind.into(),
            branch_id: Arc::new(BranchId { segments }),
            via_edge_id,
        }
    }

    fn edge(id: &str) -> RouteSegment {
        RouteSegment::Edge(id.into())
    }

    fn settled_ok(frame: &FrameRef) -> RunEvent {
        RunEvent::NodeSettled {
            frame: frame.key(),
            outcome: NodeOutcome::Ok {
                output: vec![json!({})],
            },
            verdict: None,
            host_reads: vec![],
            attempts: None,
            at: 3,
        }
    }

    /// entry → c0 → … → c{n-1}, as the runtime logs it.
    fn chain(n: usize) -> Vec<RunEvent> {
        let mut from = frame("entry", "entry", vec![]);
        let mut events = vec![RunEvent::NodeEntered {
            frame: from.clone(),
            parents: vec![],
            idempotency_key: None,
            at: 1,
        }];
        for index in 0..n {
            let mut segments = from.branch_id.segments.clone();
            segments.push(edge(&format!("e{index}")));
            let to = frame(&format!("c{index}"), "call", segments);
            events.extend([
                settled_ok(&from),
                RunEvent::EdgeTaken {
                    edge_id: format!("e{index}"),
                    handle: "always".into(),
                    from: from.key(),
                    to: to.clone(),
                    at: 4,
                },
                RunEvent::NodeEntered {
                    frame: to.clone(),
                    parents: vec![from.key()],
                    idempotency_key: Some(format!("key-{index}")),
                    at: 5,
                },
            ]);
            from = to;
        }
        events
    }

    fn written(events: &[RunEvent]) -> Vec<String> {
        let mut frames = RunFrames::default();
        events.iter().map(|event| frames.write(event)).collect()
    }

    fn read(texts: &[String]) -> Vec<RunEvent> {
        let mut frames = RunFrames::default();
        texts.iter().map(|text| frames.read(text).expect("reads")).collect()
    }

    #[test]
    fn a_chain_reads_back_and_its_steps_do_not_grow() {
        let events = chain(200);
        let texts = written(&events);
        assert_eq!(read(&texts), events);
        let step = |at: usize| texts[at * 3 + 1..at * 3 + 4].iter().map(String::len).sum::<usize>();
        // Longer numbers and ids only: a few bytes, not a route's worth.
        assert!(step(199) < step(10) + 30, "{:?}", &texts[598..601]);
        assert!(step(199) < 400, "{:?}", &texts[598..601]);
    }

    #[test]
    fn a_log_written_whole_before_reads_the_same_with_the_rest_numbered() {
        let events = chain(20);
        let mut texts: Vec<String> = events[..30].iter().map(RunEvent::to_json_string).collect();
        let mut frames = RunFrames::default();
        for text in &texts {
            frames.read(text).expect("reads");
        }
        texts.extend(events[30..].iter().map(|event| frames.write(event)));
        assert!(texts[30..].iter().all(|text| text.len() < 200), "{texts:?}");
        assert_eq!(read(&texts), events);
    }

    #[test]
    fn joins_and_frames_that_differ_under_a_key_read_back() {
        let entry = frame("entry", "entry", vec![]);
        let left = frame("j", "join", vec![edge("a")]);
        let right = frame("j", "join", vec![edge("b")]);
        let merged = frame(
            "j",
            "join",
            vec![RouteSegment::join("j".into(), vec!["a".into(), "b".into()])],
        );
        let relabelled = FrameRef {
            kind: "call".into(),
            ..left.clone()
        };
        let events = vec![
            RunEvent::NodeEntered {
                frame: entry.clone(),
                parents: vec![],
                idempotency_key: None,
                at: 1,
            },
            settled_ok(&entry),
            RunEvent::EdgeTaken {
                edge_id: "a".into(),
                handle: "always".into(),
                from: entry.key(),
                to: left.clone(),
                at: 2,
            },
            RunEvent::NodeEntered {
                frame: left.clone(),
                parents: vec![entry.key()],
                idempotency_key: None,
                at: 2,
            },
            RunEvent::FrontierSnapshot {
                joins: vec![JoinState {
                    node_id: "j".into(),
                    correlation_key: "j@".into(),
                    required: 2,
                    arrivals: vec![left.key()],
                }],
                at: 2,
            },
            RunEvent::NodeEntered {
                frame: right.clone(),
                parents: vec![entry.key()],
                idempotency_key: None,
                at: 3,
            },
            RunEvent::NodeSettled {
                frame: left.key(),
                outcome: NodeOutcome::Merged { into: merged.key() },
                verdict: None,
                host_reads: vec![],
                attempts: None,
                at: 3,
            },
            RunEvent::NodeEntered {
                frame: merged.clone(),
                parents: vec![left.key(), right.key()],
                idempotency_key: None,
                at: 3,
            },
            RunEvent::NodeSettled {
                frame: right.key(),
                outcome: NodeOutcome::Merged { into: merged.key() },
                verdict: None,
                host_reads: vec![],
                attempts: None,
                at: 3,
            },
            RunEvent::NodeEntered {
                frame: relabelled,
                parents: vec![],
                idempotency_key: None,
                at: 4,
            },
            RunEvent::NodeEntered {
                frame: left,
                parents: vec![],
                idempotency_key: None,
                at: 4,
            },
        ];
        assert_eq!(read(&written(&events)), events);
    }

    #[test]
    fn a_number_naming_no_frame_is_refused() {
        let mut frames = RunFrames::default();
        let text = json!({"type": "node_settled", "frame": 3, "outcome": {"status": "ok", "output": []}, "at": 1});
        assert!(frames.read(&text.to_string()).is_err());
    }
}
