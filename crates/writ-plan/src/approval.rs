//! Approvals: what an operator's consent binds to.
//!
//! An approval names a plan, the digest of the view the operator read, and the plan's authority
//! set — every claim a call reachable from the entry makes. A plan that changed since (its digest
//! moved) or whose claims differ from the approved set cannot be approved with that record, so
//! consent given to one plan never carries over to another. This module is pure: the store
//! (writ-store) calls [`ApprovalRecord::check`] inside the transition that makes a plan
//! executable.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map as JsonMap, Value as Json};

use crate::definition::{AuthorityClaim, Verb};
use crate::digest::digest;
use crate::graph::Graph;
use crate::model::{NodeKind, PlanView, object_at, refuse_unknown, string_field};
use crate::value::{Pointer, StagedValue, WireError};

impl AuthorityClaim {
    /// Reads a claim from a definition's staged value: exactly `capability`, `scope` (non-empty
    /// strings) and `verb` (one of the closed set), or `None`.
    pub fn from_staged(value: &StagedValue) -> Option<AuthorityClaim> {
        let StagedValue::Object(claim) = value else {
            return None;
        };
        let text = |key: &str| match claim.get(key) {
            Some(StagedValue::String(s)) if !s.is_empty() => Some(s.clone()),
            _ => None,
        };
        let verb = text("verb").and_then(|name| Verb::ALL.into_iter().find(|verb| verb.name() == name))?;
        if claim.len() != 3 {
            return None;
        }
        Some(AuthorityClaim {
            capability: text("capability")?,
            scope: text("scope")?,
            verb,
        })
    }

    /// Writes the claim as `{"capability", "scope", "verb"}`.
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("capability".into(), Json::String(self.capability.clone()));
        object.insert("scope".into(), Json::String(self.scope.clone()));
        object.insert("verb".into(), Json::String(self.verb.name().into()));
        Json::Object(object)
    }

    /// Reads a claim from `{"capability", "scope", "verb"}`, the inverse of
    /// [`AuthorityClaim::to_wire`].
    pub fn from_wire(json: &Json) -> Result<AuthorityClaim, WireError> {
        read_claim(json, &Pointer::Root)
    }
}

impl fmt::Display for AuthorityClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.capability, self.scope, self.verb.name())
    }
}

fn read_claim(json: &Json, at: &Pointer<'_>) -> Result<AuthorityClaim, WireError> {
    let object = object_at(json, at, "a claim is {\"capability\", \"scope\", \"verb\"}")?;
    refuse_unknown(object, &["capability", "scope", "verb"], at)?;
    let non_empty = |key: &str| {
        let text = string_field(object, key, at)?;
        if text.is_empty() {
            return Err(WireError {
                pointer: Pointer::Key(at, key).render(),
                message: format!("\"{key}\" is a non-empty string"),
            });
        }
        Ok(text)
    };
    let capability = non_empty("capability")?;
    let scope = non_empty("scope")?;
    let verb_name = string_field(object, "verb", at)?;
    let verb = Verb::ALL
        .into_iter()
        .find(|verb| verb.name() == verb_name)
        .ok_or_else(|| WireError {
            pointer: Pointer::Key(at, "verb").render(),
            message: format!("\"{verb_name}\" is not a verb; use one of list, read, create, update, delete"),
        })?;
    Ok(AuthorityClaim {
        capability,
        scope,
        verb,
    })
}

/// The plan's authority set: the union of the claims of every call node reachable from an entry
/// over edges of any handle, each claim once, sorted by capability, then scope, then verb (least
/// consequential first). An unreachable call cannot run, so its claims are not asked for; a
/// malformed claim is left out (freeze refuses the plan that has one).
pub fn authority_set(view: &PlanView) -> Vec<AuthorityClaim> {
    let graph = Graph::new(view);
    let reachable = graph.reachable_from_entries();
    let mut claims = BTreeSet::new();
    for node in &view.nodes {
        if node.kind != NodeKind::Call || !reachable.contains(node.id.as_str()) {
            continue;
        }
        if let Some(StagedValue::Array(items)) = node.definition.get("authority") {
            claims.extend(items.iter().filter_map(AuthorityClaim::from_staged));
        }
    }
    claims.into_iter().collect()
}

/// An operator's consent to run one plan as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalRecord {
    /// The plan approved.
    pub plan_id: String,
    /// The digest of the view the operator read (hex).
    pub digest: String,
    /// The claims the operator consented to, in any order (compared as a set).
    pub authority_set: Vec<AuthorityClaim>,
    /// Who approved.
    pub decided_by: String,
    /// When, as the approver's clock read (RFC 3339; informational).
    pub decided_at: String,
}

impl ApprovalRecord {
    /// A record approving `view` as it stands: its id, its [`digest`] and its
    /// [`authority_set`].
    pub fn for_view(view: &PlanView, decided_by: impl Into<String>, decided_at: impl Into<String>) -> ApprovalRecord {
        ApprovalRecord {
            plan_id: view.plan_id.clone(),
            digest: digest(view),
            authority_set: authority_set(view),
            decided_by: decided_by.into(),
            decided_at: decided_at.into(),
        }
    }

    /// Whether this record approves `view`: the plan ids are equal, the record's digest is the
    /// view's [`digest`], and the record's authority set equals the view's as a set (order and
    /// repeats do not matter). The first refusal found, in that order, is returned.
    pub fn check(&self, view: &PlanView) -> Result<(), ApprovalRefusal> {
        if self.plan_id != view.plan_id {
            return Err(ApprovalRefusal::PlanMismatch {
                approved: self.plan_id.clone(),
                actual: view.plan_id.clone(),
            });
        }
        let view_digest = digest(view);
        if self.digest != view_digest {
            return Err(ApprovalRefusal::DigestMoved {
                approved: self.digest.clone(),
                actual: view_digest,
            });
        }
        let approved: BTreeSet<&AuthorityClaim> = self.authority_set.iter().collect();
        let actual = authority_set(view);
        let missing: Vec<AuthorityClaim> = actual.iter().filter(|c| !approved.contains(c)).cloned().collect();
        let extra: Vec<AuthorityClaim> = approved.into_iter().filter(|c| !actual.contains(c)).cloned().collect();
        if missing.is_empty() && extra.is_empty() {
            Ok(())
        } else {
            Err(ApprovalRefusal::AuthorityMismatch { missing, extra })
        }
    }

    /// Writes the record as `{"planId", "digest", "authoritySet", "decidedBy", "decidedAt"}`.
    pub fn to_wire(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("planId".into(), Json::String(self.plan_id.clone()));
        object.insert("digest".into(), Json::String(self.digest.clone()));
        object.insert(
            "authoritySet".into(),
            Json::Array(self.authority_set.iter().map(AuthorityClaim::to_wire).collect()),
        );
        object.insert("decidedBy".into(), Json::String(self.decided_by.clone()));
        object.insert("decidedAt".into(), Json::String(self.decided_at.clone()));
        Json::Object(object)
    }

    /// Reads a record, the inverse of [`ApprovalRecord::to_wire`].
    pub fn from_wire(json: &Json) -> Result<ApprovalRecord, WireError> {
        let at = &Pointer::Root;
        let object = object_at(
            json,
            at,
            "an approval is {\"planId\", \"digest\", \"authoritySet\", \"decidedBy\", \"decidedAt\"}",
        )?;
        refuse_unknown(
            object,
            &["planId", "digest", "authoritySet", "decidedBy", "decidedAt"],
            at,
        )?;
        let set_at = Pointer::Key(at, "authoritySet");
        let authority_set = match object.get("authoritySet") {
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(index, item)| read_claim(item, &Pointer::Index(&set_at, index)))
                .collect::<Result<_, _>>()?,
            _ => {
                return Err(WireError {
                    pointer: set_at.render(),
                    message: "\"authoritySet\" is a list of claims {\"capability\", \"scope\", \"verb\"}".into(),
                });
            }
        };
        Ok(ApprovalRecord {
            plan_id: string_field(object, "planId", at)?,
            digest: string_field(object, "digest", at)?,
            authority_set,
            decided_by: string_field(object, "decidedBy", at)?,
            decided_at: string_field(object, "decidedAt", at)?,
        })
    }
}

/// Why an approval record does not approve a view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApprovalRefusal {
    /// The record names another plan.
    PlanMismatch {
        /// The plan the record names.
        approved: String,
        /// The plan being approved.
        actual: String,
    },
    /// The plan changed since the operator read it.
    DigestMoved {
        /// The digest the record names.
        approved: String,
        /// The plan's digest now.
        actual: String,
    },
    /// The record's claims are not the plan's.
    AuthorityMismatch {
        /// Claims the plan makes that the record does not grant.
        missing: Vec<AuthorityClaim>,
        /// Claims the record grants that the plan does not make.
        extra: Vec<AuthorityClaim>,
    },
}

impl ApprovalRefusal {
    /// The refusal's stable code: `plan_mismatch`, `digest_mismatch` or `authority_mismatch`.
    pub fn code(&self) -> &'static str {
        match self {
            ApprovalRefusal::PlanMismatch { .. } => "plan_mismatch",
            ApprovalRefusal::DigestMoved { .. } => "digest_mismatch",
            ApprovalRefusal::AuthorityMismatch { .. } => "authority_mismatch",
        }
    }
}

fn claim_list(claims: &[AuthorityClaim]) -> String {
    claims.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for ApprovalRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApprovalRefusal::PlanMismatch { approved, actual } => write!(
                f,
                "the approval is for plan \"{approved}\", not \"{actual}\"; approve \"{actual}\" with a record that names it"
            ),
            ApprovalRefusal::DigestMoved { approved, actual } => write!(
                f,
                "the plan changed since it was reviewed: the approval names digest {approved} but the plan's digest is {actual}; \
                 review the plan as it is now and approve that digest"
            ),
            ApprovalRefusal::AuthorityMismatch { missing, extra } => {
                f.write_str("the approval's authority set is not the plan's")?;
                if !missing.is_empty() {
                    write!(f, "; it omits {} which the plan's calls claim", claim_list(missing))?;
                }
                if !extra.is_empty() {
                    write!(f, "; it grants {} which no reachable call claims", claim_list(extra))?;
                }
                f.write_str("; approve exactly the plan's authority set")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, Node};
    use serde_json::json;

    fn call(id: &str, claims: Json) -> Node {
        Node::from_wire(&json!({"id": id, "kind": "call", "definition": {"tool": id, "authority": claims}})).unwrap()
    }

    fn edge(id: &str, from: &str, to: &str) -> Edge {
        Edge::from_wire(&json!({"id": id, "from": from, "to": to, "handle": "always"})).unwrap()
    }

    fn claim(capability: &str, scope: &str, verb: Verb) -> AuthorityClaim {
        AuthorityClaim {
            capability: capability.into(),
            scope: scope.into(),
            verb,
        }
    }

    /// entry → read_report → notify, plus an orphan whose delete claim must not count.
    fn view(reverse: bool) -> PlanView {
        let mut nodes = vec![
            Node::from_wire(&json!({"id": "entry", "kind": "entry", "definition": {"input": []}})).unwrap(),
            call(
                "read_report",
                json!([{"capability": "report", "scope": "quarterly", "verb": "read"},
                       {"capability": "inbox", "scope": "ops", "verb": "create"}]),
            ),
            call(
                "notify",
                json!([{"capability": "inbox", "scope": "ops", "verb": "create"}, {"capability": "inbox", "scope": "ops", "verb": "create"}]),
            ),
            call("orphan", json!([{"capability": "fs", "scope": "/", "verb": "delete"}])),
        ];
        let mut edges = vec![edge("e0", "entry", "read_report"), edge("e1", "read_report", "notify")];
        if reverse {
            nodes.reverse();
            edges.reverse();
        }
        PlanView {
            nodes,
            edges,
            ..PlanView::empty("plan-q3")
        }
    }

    #[test]
    fn the_set_is_reachable_deduplicated_and_ordered() {
        let expected = vec![
            claim("inbox", "ops", Verb::Create),
            claim("report", "quarterly", Verb::Read),
        ];
        assert_eq!(authority_set(&view(false)), expected);
        assert_eq!(authority_set(&view(true)), expected);
    }

    #[test]
    fn verbs_sort_least_consequential_first() {
        let mut plan = view(false);
        plan.nodes[1] = call(
            "read_report",
            json!([{"capability": "fs", "scope": "/a", "verb": "delete"}, {"capability": "fs", "scope": "/a", "verb": "list"},
                   {"capability": "fs", "scope": "/a", "verb": "update"}, {"capability": "fs", "scope": "/a", "verb": "read"}]),
        );
        let verbs: Vec<Verb> = authority_set(&plan).iter().map(|c| c.verb).collect();
        assert_eq!(verbs[..4], [Verb::List, Verb::Read, Verb::Update, Verb::Delete]);
    }

    #[test]
    fn the_exact_set_in_any_order_is_accepted() {
        let plan = view(false);
        let mut record = ApprovalRecord::for_view(&plan, "ann", "2026-12-02T04:00:00Z");
        record.authority_set.reverse();
        assert_eq!(record.check(&plan), Ok(()));
        record.authority_set.push(record.authority_set[0].clone());
        assert_eq!(record.check(&plan), Ok(()), "a repeated claim is the same set");
    }

    #[test]
    fn a_set_that_omits_or_adds_a_claim_is_refused_by_name() {
        let plan = view(false);
        let mut record = ApprovalRecord::for_view(&plan, "ann", "");
        record.authority_set.retain(|c| c.capability != "inbox");
        let refusal = record.check(&plan).unwrap_err();
        assert_eq!(refusal.code(), "authority_mismatch");
        assert!(refusal.to_string().contains("omits inbox:ops:create"), "{refusal}");

        let mut record = ApprovalRecord::for_view(&plan, "ann", "");
        record.authority_set.push(claim("fs", "/", Verb::Delete));
        let refusal = record.check(&plan).unwrap_err();
        assert_eq!(
            refusal,
            ApprovalRefusal::AuthorityMismatch {
                missing: vec![],
                extra: vec![claim("fs", "/", Verb::Delete)]
            }
        );
        assert!(refusal.to_string().contains("grants fs:/:delete"), "{refusal}");
    }

    #[test]
    fn a_moved_digest_or_another_plan_is_refused() {
        let plan = view(false);
        let record = ApprovalRecord::for_view(&plan, "ann", "");
        let mut changed = plan.clone();
        changed.bounds.max_steps = 10;
        let refusal = record.check(&changed).unwrap_err();
        assert_eq!(refusal.code(), "digest_mismatch");
        let message = refusal.to_string();
        assert!(
            message.contains(&record.digest) && message.contains(&digest(&changed)),
            "{message}"
        );
        let other = PlanView {
            plan_id: "plan-other".into(),
            ..view(false)
        };
        let refusal = record.check(&other).unwrap_err();
        assert_eq!(refusal.code(), "plan_mismatch");
        assert!(refusal.to_string().contains("plan-other"), "{refusal}");
    }

    #[test]
    fn records_round_trip_and_malformed_ones_are_refused() {
        let record = ApprovalRecord::for_view(&view(false), "ann", "2026-12-02T04:00:00Z");
        let wire = record.to_wire();
        assert_eq!(
            wire,
            json!({"planId": "plan-q3", "digest": record.digest,
                   "authoritySet": [{"capability": "inbox", "scope": "ops", "verb": "create"},
                                    {"capability": "report", "scope": "quarterly", "verb": "read"}],
                   "decidedBy": "ann", "decidedAt": "2026-12-02T04:00:00Z"})
        );
        assert_eq!(ApprovalRecord::from_wire(&wire).unwrap(), record);
        let mut bad = wire.clone();
        bad["authoritySet"][1]["verb"] = json!("write");
        let error = ApprovalRecord::from_wire(&bad).unwrap_err();
        assert_eq!(error.pointer, "/authoritySet/1/verb");
        let mut bad = wire;
        bad["approvedBy"] = json!("bob");
        assert_eq!(ApprovalRecord::from_wire(&bad).unwrap_err().pointer, "/approvedBy");
    }

    #[test]
    fn a_malformed_claim_is_not_read_as_authority() {
        for value in [
            json!({"capability": "fs", "scope": "/", "verb": "write"}),
            json!({"capability": "", "scope": "/", "verb": "read"}),
            json!({"capability": "fs", "scope": "/", "verb": "read", "why": "x"}),
            json!("fs:/:read"),
        ] {
            let staged = StagedValue::from_wire(&value).unwrap();
            assert_eq!(AuthorityClaim::from_staged(&staged), None, "{value}");
        }
    }
}
