//! Objects: constructors (`{…}` alone) and group-by (`expr{…}`), JSONata's
//! `evaluateGroupExpression`, and how an object value is built (a writ-core object unless it
//! holds a function).
//!
//! A module of its own because grouping has its own state (keys in first-seen order, what each
//! gathered, tuple streams merged) and building objects is shared with transforms and built-ins.

use std::collections::HashMap;

use writ_core::{Object, Str, Value};

use super::path::tuple_focus;
use super::{Cx, Env, FOCUS_KEY, append_into, describe};
use crate::ast::{Kind, Node};
use crate::error::{Code, Error, Result};
use crate::value::{ArrayView, Flags, Functions, Val, in_js_order, to_data};

/// Up to how many groups a group-by finds a key by scanning rather than hashing.
const GROUP_SCAN: usize = 8;

impl Cx<'_> {
    /// `{…}` over one item with every key written as a distinct string: what
    /// [`Cx::group`] makes of it (each pair's value over the item, in order; a value that is
    /// undefined leaves its key out), built on the constructor's shared key list when every
    /// value is there.
    pub(super) fn written_object(
        &mut self,
        pairs: &[(Node, Node)],
        shape: &writ_core::Shape,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        // The keys are literals: the step each would charge as a leaf.
        self.meter
            .steps(pairs.len() as u64)
            .map_err(|e| Error::from(e).at(pairs.first().map_or(0, |(key, _)| key.position)))?;
        // The values wait on the evaluation's shared stack, above those of the constructors
        // this one sits in (an error leaves them there, for the evaluation's end to drop).
        let base = self.pending.len();
        for (_, value) in pairs {
            let value = self.eval(value, input, env)?;
            self.pending.push(value);
        }
        // Values that are data already (scalars, parts of the input) go into the object as
        // they are, without a list of their own.
        if self.pending[base..].iter().all(|value| {
            matches!(
                value,
                Val::Null | Val::Bool(_) | Val::Number(_) | Val::String(_) | Val::Array(_) | Val::Object(_)
            )
        }) {
            self.charge_array(pairs.len())?;
            return Ok(Val::Object(
                shape.build(self.pending.drain(base..).map(Val::into_value)),
            ));
        }
        let values: Vec<Val> = self.pending.drain(base..).collect();
        if values.iter().all(|value| !value.is_undefined()) {
            let mut data = Vec::with_capacity(values.len());
            for value in &values {
                match self.data(value)? {
                    Some(value) => data.push(value),
                    None => break,
                }
            }
            if data.len() == values.len() {
                self.charge_array(values.len())?;
                return Ok(Val::Object(shape.build(data.into_iter())));
            }
        }
        let mut entries = Vec::with_capacity(pairs.len());
        for ((key, _), value) in pairs.iter().zip(values) {
            if let (Kind::String(key), false) = (&key.kind, value.is_undefined()) {
                entries.push((key.clone(), value));
            }
        }
        self.charge_array(entries.len())?;
        self.make_object(entries)
    }

    /// JSONata's `evaluateGroupExpression`, for `{…}` alone and for `expr{…}`.
    pub(super) fn group(&mut self, pairs: &[(Node, Node)], position: usize, input: Val, env: &Env) -> Result<Val> {
        let reduce = input.flags().has(Flags::TUPLE_STREAM);
        let nothing = [Val::Undefined];
        let items = match input.as_array() {
            Some(items) if items.is_empty() && !reduce => ArrayView::Built(&nothing),
            Some(items) => items,
            None => ArrayView::Built(std::slice::from_ref(&input)),
        };

        // Keys in first-seen order, each with its pair and what it gathered. A few keys are
        // found by a scan; past that, by a map.
        let mut groups: Vec<(Str, usize, Gathered)> = Vec::new();
        let mut index: HashMap<Str, usize> = HashMap::new();
        for item in items.iter() {
            let tuple_env;
            let (context, item_env) = if reduce {
                tuple_env = env.with_tuple(&item);
                (tuple_focus(&item), &tuple_env)
            } else {
                (item.clone(), env)
            };
            for (pair_index, (key_node, _)) in pairs.iter().enumerate() {
                let key = self.eval(key_node, &context, item_env)?;
                let key = match key {
                    Val::Undefined => continue,
                    Val::String(key) => key,
                    other => return Err(Error::new(Code::T1003).at(position).with_value(describe(&other))),
                };
                let found = if groups.len() <= GROUP_SCAN {
                    groups.iter().position(|(k, _, _)| *k == key)
                } else {
                    if index.is_empty() {
                        index.extend(groups.iter().enumerate().map(|(at, (k, _, _))| (k.clone(), at)));
                    }
                    index.get(&key).copied()
                };
                match found {
                    Some(at) => {
                        if groups[at].1 != pair_index {
                            return Err(Error::new(Code::D1009)
                                .at(position)
                                .with_value(describe(&Val::String(key))));
                        }
                        groups[at].2.add(item.clone(), reduce);
                    }
                    None => {
                        // jsonata-js marks its function objects with these keys, so it refuses them.
                        if key.eq_str("_jsonata_lambda") || key.eq_str("_jsonata_function") {
                            return Err(Error::new(Code::D1013)
                                .at(position)
                                .with_value(describe(&Val::String(key))));
                        }
                        if groups.len() >= GROUP_SCAN {
                            if index.is_empty() {
                                index.extend(groups.iter().enumerate().map(|(at, (k, _, _))| (k.clone(), at)));
                            }
                            index.insert(key.clone(), groups.len());
                        }
                        groups.push((key, pair_index, Gathered::One(item.clone())));
                    }
                }
            }
        }

        let mut entries: Vec<(Str, Val)> = Vec::with_capacity(groups.len());
        for (key, pair_index, gathered) in groups {
            let value_node = &pairs[pair_index].1;
            let value = if reduce {
                let tuple = gathered.reduce_tuples();
                let context = tuple_focus(&tuple);
                let mut bindings = match tuple {
                    Val::Record(entries) => entries.0.clone(),
                    _ => Vec::new(),
                };
                bindings.retain(|(k, _)| !k.eq_str(FOCUS_KEY));
                let tuple_env = env.with_tuple(&Val::record(bindings));
                self.eval(value_node, &context, &tuple_env)?
            } else {
                let context = gathered.into_value();
                self.eval(value_node, &context, env)?
            };
            if !value.is_undefined() {
                entries.push((key, value));
            }
        }
        self.charge_array(entries.len())?;
        self.make_object(entries)
    }
}

/// What a group gathered for one key: one item, or several appended.
enum Gathered {
    One(Val),
    Many(Vec<Val>),
}

impl Gathered {
    fn add(&mut self, item: Val, tuples: bool) {
        let list = match self {
            Gathered::One(first) => {
                let first = std::mem::take(first);
                let mut list = Vec::new();
                if tuples {
                    list.push(first);
                } else {
                    append_into(&mut list, first);
                }
                *self = Gathered::Many(list);
                match self {
                    Gathered::Many(list) => list,
                    Gathered::One(_) => unreachable!(),
                }
            }
            Gathered::Many(list) => list,
        };
        if tuples {
            list.push(item);
        } else {
            append_into(list, item);
        }
    }

    fn into_value(self) -> Val {
        match self {
            Gathered::One(item) => item,
            Gathered::Many(items) => Val::array(items),
        }
    }

    /// Merges gathered tuples into one: each key's values appended in order.
    fn reduce_tuples(self) -> Val {
        match self {
            Gathered::One(tuple) => tuple,
            Gathered::Many(tuples) => {
                let mut merged: Vec<(Str, Val)> = Vec::new();
                for (i, tuple) in tuples.iter().enumerate() {
                    let Val::Record(entries) = tuple else { continue };
                    for (key, value) in entries.iter() {
                        if i == 0 {
                            merged.push((key.clone(), value.clone()));
                            continue;
                        }
                        match merged.iter_mut().find(|(k, _)| k == key) {
                            Some(slot) => {
                                let mut list = Vec::new();
                                append_into(&mut list, std::mem::take(&mut slot.1));
                                append_into(&mut list, value.clone());
                                slot.1 = Val::array(list);
                            }
                            None => merged.push((key.clone(), value.clone())),
                        }
                    }
                }
                Val::record(merged)
            }
        }
    }
}

impl Cx<'_> {
    /// Builds an object value from entries in order: a writ-core object unless a value holds a
    /// function. The values are converted under the budget ([`to_data`]).
    pub(crate) fn make_object(&mut self, entries: Vec<(Str, Val)>) -> Result<Val> {
        let mut data = Vec::with_capacity(entries.len());
        for (key, value) in &entries {
            match self.data(value)? {
                Some(value) => data.push((key.clone(), value)),
                None => return Ok(Val::record(in_js_order(entries))),
            }
        }
        Ok(Val::Object(Object::from_entries(data)))
    }

    /// `value` as writ-core data, converted under the budget; `None` when it holds a function
    /// (which writ-core values cannot).
    pub(crate) fn data(&mut self, value: &Val) -> Result<Option<Value>> {
        to_data(value, Functions::Refuse, &mut |n| self.steps(n))
    }
}

/// Sets `key` in `entries`: in its place if it is there, else at the end.
pub(super) fn set_entry(entries: &mut Vec<(Str, Val)>, key: &Str, value: Val) {
    match entries.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => entries.push((key.clone(), value)),
    }
}
