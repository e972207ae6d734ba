//! Transforms (`| pattern | update, delete |`): a deep copy of the target, with every object the
//! pattern selects updated and pruned, rebuilt once bottom up.
//!
//! Apart because a transform finds what it edits by identity in its copy, a way of walking
//! values no other construct has: only what holds an edit is rebuilt, the rest is shared.

use std::collections::HashMap;
use std::rc::Rc;

use writ_core::{Object, Str, Value};

use super::objects::set_entry;
use super::{Cx, Env, RED_ZONE, STACK_SEGMENT, describe, items_of};
use crate::ast::Transform;
use crate::error::{Code, Error, Result};
use crate::functions;
use crate::value::Val;

impl Cx<'_> {
    /// Runs a transform on `target`: a deep copy of it with every object the pattern selects
    /// updated and pruned. Selected objects are found by identity in the copy, so the copy is
    /// made first (as jsonata-js's `$clone`) and rebuilt once, bottom up.
    pub(super) fn transform(&mut self, transform: &Transform, target: Val, env: &Env, position: usize) -> Result<Val> {
        if target.is_undefined() {
            return Ok(Val::Undefined);
        }
        let cloned = match env.lookup(&Str::from("clone")) {
            Some(clone @ Val::Function(_)) => self.apply_function(&clone, vec![target], &Val::Undefined, env)?,
            Some(_) => return Err(Error::new(Code::T2013).at(position)),
            None => {
                let clone = self.builtin(functions::lookup("clone").expect("$clone is built in"));
                self.apply_function(&clone, vec![target], &Val::Undefined, env)?
            }
        };
        let matches = self.eval(&transform.pattern, &cloned, env)?;
        if matches.is_undefined() {
            return Ok(cloned);
        }
        let mut edits: HashMap<usize, Vec<Edit>> = HashMap::new();
        for matched in items_of(&matches).iter() {
            let Some(id) = object_id(&matched) else { continue };
            let update = self.eval(&transform.update, &matched, env)?;
            let mut edit = Edit {
                update: Vec::new(),
                delete: Vec::new(),
            };
            if !update.is_undefined() {
                let Some(object) = update.as_object() else {
                    return Err(Error::new(Code::T2011)
                        .at(transform.update.position)
                        .with_value(describe(&update)));
                };
                edit.update = object.entries().collect();
            }
            if let Some(delete) = &transform.delete {
                let deletions = self.eval(delete, &matched, env)?;
                if !deletions.is_undefined() {
                    let names = items_of(&deletions);
                    if names.iter().any(|name| !matches!(name, Val::String(_))) {
                        return Err(Error::new(Code::T2012)
                            .at(delete.position)
                            .with_value(describe(&deletions)));
                    }
                    edit.delete = names.iter().filter_map(|name| name.as_str().cloned()).collect();
                }
            }
            edits.entry(id).or_default().push(edit);
        }
        if edits.is_empty() {
            return Ok(cloned);
        }
        Ok(self.rebuild(&cloned, &edits)?.unwrap_or(cloned))
    }

    /// `value` with the edits applied to the objects they name; `None` when nothing inside it
    /// is edited, so untouched parts of the copy are kept as they are, not rebuilt.
    fn rebuild(&mut self, value: &Val, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        match value {
            Val::Array(array) => return self.rebuild_array(array.as_slice(), edits),
            Val::Object(object) => return self.rebuild_object(object, edits),
            _ => {}
        }
        self.step()?;
        if let Some(items) = value.as_array() {
            let mut rebuilt: Option<Vec<Val>> = None;
            for (position, item) in items.iter().enumerate() {
                let changed = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild(&item, edits))?;
                if let Some(changed) = changed {
                    rebuilt
                        .get_or_insert_with(|| items.iter().take(position).collect())
                        .push(changed);
                } else if let Some(rebuilt) = &mut rebuilt {
                    rebuilt.push(item);
                }
            }
            return Ok(rebuilt.map(|items| Val::list(items, value.flags())));
        }
        let Some(object) = value.as_object() else {
            return Ok(None);
        };
        let mut entries = Vec::with_capacity(object.len());
        let mut changed = false;
        for (key, item) in object.entries() {
            match stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild(&item, edits))? {
                Some(rebuilt) => {
                    changed = true;
                    entries.push((key, rebuilt));
                }
                None => entries.push((key, item)),
            }
        }
        if let Some(id) = object_id(value)
            && let Some(edits) = edits.get(&id)
        {
            changed = true;
            for edit in edits {
                for (key, item) in &edit.update {
                    set_entry(&mut entries, key, item.clone());
                }
                entries.retain(|(key, _)| !edit.delete.contains(key));
            }
        }
        if changed {
            self.make_object(entries).map(Some)
        } else {
            Ok(None)
        }
    }

    /// [`Cx::rebuild`] of a writ-core value, read where it lives: only what is rebuilt is
    /// taken out of it.
    fn rebuild_data(&mut self, value: &Value, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        match value {
            Value::Array(array) => self.rebuild_array(array.as_slice(), edits),
            Value::Object(object) => self.rebuild_object(object, edits),
            _ => {
                self.step()?;
                Ok(None)
            }
        }
    }

    /// [`Cx::rebuild_data`] of an array's items.
    fn rebuild_array(&mut self, items: &[Value], edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        self.step()?;
        let mut rebuilt: Option<Vec<Val>> = None;
        for (position, item) in items.iter().enumerate() {
            let changed = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild_data(item, edits))?;
            match (changed, &mut rebuilt) {
                (Some(changed), None) => {
                    let mut list: Vec<Val> = items.iter().take(position).map(Val::from).collect();
                    list.push(changed);
                    rebuilt = Some(list);
                }
                (Some(changed), Some(list)) => list.push(changed),
                (None, Some(list)) => list.push(Val::from(item)),
                (None, None) => {}
            }
        }
        Ok(rebuilt.map(Val::array))
    }

    /// [`Cx::rebuild_data`] of an object: its entries are taken out only when a value inside
    /// changed or the object is edited itself.
    fn rebuild_object(&mut self, object: &Object, edits: &HashMap<usize, Vec<Edit>>) -> Result<Option<Val>> {
        self.step()?;
        let mut changed: Vec<(usize, Val)> = Vec::new();
        for (position, item) in object.values().enumerate() {
            if let Some(rebuilt) = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.rebuild_data(item, edits))? {
                changed.push((position, rebuilt));
            }
        }
        let own = edits.get(&object.identity());
        if changed.is_empty() && own.is_none() {
            return Ok(None);
        }
        let mut entries: Vec<(Str, Val)> = object
            .iter()
            .map(|(key, item)| (key.clone(), Val::from(item)))
            .collect();
        for (position, rebuilt) in changed {
            if let Some(slot) = entries.get_mut(position) {
                slot.1 = rebuilt;
            }
        }
        for edit in own.into_iter().flatten() {
            for (key, item) in &edit.update {
                set_entry(&mut entries, key, item.clone());
            }
            entries.retain(|(key, _)| !edit.delete.contains(key));
        }
        self.make_object(entries).map(Some)
    }
}

/// What one selected object gets in a transform.
struct Edit {
    update: Vec<(Str, Val)>,
    delete: Vec<Str>,
}

/// The identity of an object in a transform's copy.
fn object_id(value: &Val) -> Option<usize> {
    match value {
        Val::Object(object) => Some(object.identity()),
        Val::Record(entries) => Some(Rc::as_ptr(entries) as *const u8 as usize),
        _ => None,
    }
}
