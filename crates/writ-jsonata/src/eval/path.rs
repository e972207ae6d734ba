//! Paths: JSONata's `evaluatePath` and `evaluateStep`, step by step over sequences, and the
//! tuple streams a step that binds (`@`, `#`) or that a `%` reaches back to turns a path into;
//! with the two steps that are not names (`*` and `**`) and JSONata's `lookup`.
//!
//! The general walk, which builds a sequence for each step. The shortcut that walks field
//! names over the input by reference is [`super::walk`], and the filters a step carries are
//! [`super::filter`]; this module decides, step by step, which of them answers.

use std::rc::Rc;

use writ_core::{Str, Value};

use super::objects::set_entry;
use super::walk::{is_plain_step, is_walkable_step};
use super::{Cx, Env, FOCUS_KEY, RED_ZONE, STACK_SEGMENT, items_of};
use crate::ast::{Kind, Node, Stage};
use crate::error::{Error, Result};
use crate::value::{ArrayView, Flags, Val};

impl Cx<'_> {
    pub(super) fn path(&mut self, node: &Node, steps: &[Node], input: &Val, env: &Env) -> Result<Val> {
        let first_is_variable = matches!(steps.first().map(|s| &s.kind), Some(Kind::Variable(_)));
        // Runs of field names are walked over the data by reference, unless the path's result
        // is marked or grouped as a whole.
        let walkable = !(node.group.is_some() || node.keep_singleton_array || node.tuple);
        let unwrap = node.predicate.is_empty() && !node.keep_array;
        let mut start = 0;
        let mut input_sequence = None;
        if walkable && let Some(walked) = self.data_path(steps, 0, input, env, unwrap)? {
            if walked.done {
                return Ok(walked.value);
            }
            start = walked.steps;
            input_sequence = Some(walked.value);
        }
        // The sequence a step runs over, as a value whose items are the step's inputs.
        let mut input_sequence = match input_sequence {
            Some(walked) => walked,
            None if input.is_array() && !first_is_variable => input.clone(),
            None => Val::sequence(vec![input.clone()]),
        };
        let mut result = Val::Undefined;
        let mut tuples: Option<Vec<Val>> = None;
        let mut is_tuple_stream = false;
        let last = steps.len().saturating_sub(1);

        let mut index = start;
        while let Some(step) = steps.get(index) {
            if step.tuple {
                is_tuple_stream = true;
            }
            if walkable
                && index > start
                && !is_tuple_stream
                && is_walkable_step(step)
                && let Some(walked) = self.data_path(steps, index, &input_sequence, env, unwrap)?
            {
                if walked.done {
                    return Ok(walked.value);
                }
                index = walked.steps;
                result = walked.value;
                input_sequence = result.clone();
                continue;
            }
            if index == 0 && step.cons_array {
                result = self.eval(step, &input_sequence, env)?;
            } else if is_tuple_stream {
                tuples = Some(self.tuple_step(step, &input_sequence, tuples.take(), env)?);
            } else {
                result = self.path_step(step, &input_sequence, env, index == last)?;
            }
            if !is_tuple_stream && items_len(&result) == 0 {
                break;
            }
            if step.focus.is_none() {
                input_sequence = result.clone();
            }
            index += 1;
        }

        let mut stream = None;
        if is_tuple_stream {
            let tuples = tuples.unwrap_or_default();
            if node.group.is_some() {
                stream = Some(Val::list(tuples.clone(), Flags::SEQUENCE.with(Flags::TUPLE_STREAM)));
            }
            if node.tuple {
                result = Val::list(tuples, Flags::SEQUENCE.with(Flags::TUPLE_STREAM));
            } else {
                let mut items = Vec::with_capacity(tuples.len());
                for tuple in &tuples {
                    items.push(tuple_focus(tuple));
                }
                result = Val::sequence(items);
            }
        }

        if node.keep_singleton_array {
            result = match result {
                Val::List(items, flags) if flags.has(Flags::CONS) && !flags.has(Flags::SEQUENCE) => Val::list(
                    vec![Val::List(items, flags)],
                    Flags::SEQUENCE.with(Flags::KEEP_SINGLETON),
                ),
                Val::List(items, flags) => Val::List(items, flags.with(Flags::KEEP_SINGLETON)),
                // jsonata-js marks whatever the path gave; only arrays carry the mark.
                other => other,
            };
        }

        if let Some(group) = &node.group {
            let grouped = stream.unwrap_or(result);
            result = self.group(&group.pairs, group.position, grouped, env)?;
        }
        Ok(result)
    }

    /// One step over a sequence (JSONata's `evaluateStep`).
    fn path_step(&mut self, step: &Node, input: &Val, env: &Env, last: bool) -> Result<Val> {
        if let Kind::Sort(_) = step.kind {
            let mut result = self.sort_step(step, input, env)?;
            for stage in &step.stages {
                if let Stage::Filter(predicate, _) = stage {
                    result = self.filter(predicate, result, env)?;
                }
            }
            return Ok(result);
        }

        let items = items_of(input);
        let mut results: Vec<Val> = Vec::with_capacity(items.len().min(1024));
        if let (ArrayView::Data(values), Kind::Name(name)) = (items, &step.kind)
            && is_plain_step(step)
        {
            // A field of each object of an input array, read where the objects live.
            self.steps(values.len() as u64).map_err(|e| e.at(step.position))?;
            for value in values {
                let found = match value {
                    Value::Object(object) => object.get_hinted(name).map(Val::from).unwrap_or_default(),
                    Value::Array(_) => unwrap_sequence(lookup_field(&Val::from(value), name.key()), false),
                    _ => continue,
                };
                if !found.is_undefined() {
                    results.push(found);
                }
            }
        } else {
            for item in items.iter() {
                let mut value = match &step.kind {
                    // The commonest step, without a trip through `eval`.
                    Kind::Name(name)
                        if step.predicate.is_empty() && step.group.is_none() && step.ancestor.is_none() =>
                    {
                        self.meter.step().map_err(|e| Error::from(e).at(step.position))?;
                        unwrap_sequence(lookup_field(&item, name.key()), step.keep_array)
                    }
                    _ => self.eval(step, &item, env)?,
                };
                for stage in &step.stages {
                    if let Stage::Filter(predicate, _) = stage {
                        value = self.filter(predicate, value, env)?;
                    }
                }
                if !value.is_undefined() {
                    results.push(value);
                }
            }
        }

        if last && results.len() == 1 && results[0].is_array() && !results[0].is_sequence() {
            return Ok(results.pop().unwrap_or_default());
        }
        if !last
            && results.len() == 1
            && results[0].is_array()
            && items_len(&results[0]) > 0
            && !results[0].flags().has(Flags::CONS)
        {
            // One array feeding the next step: its items are the next step's inputs as they
            // stand, so it is not copied into a sequence of the same items.
            return Ok(results.pop().unwrap_or_default());
        }
        if results
            .iter()
            .any(|value| value.is_array() && !value.flags().has(Flags::CONS))
        {
            let mut flattened = Vec::with_capacity(results.len());
            for value in results {
                match value.as_array() {
                    Some(inner) if !value.flags().has(Flags::CONS) => flattened.extend(inner.iter()),
                    _ => flattened.push(value),
                }
            }
            results = flattened;
        }
        self.charge_array(results.len())?;
        Ok(Val::sequence(results))
    }

    /// One step of a tuple stream (JSONata's `evaluateTupleStep`).
    fn tuple_step(&mut self, step: &Node, input: &Val, tuples: Option<Vec<Val>>, env: &Env) -> Result<Vec<Val>> {
        if let Kind::Sort(_) = step.kind {
            let mut result = match tuples {
                Some(tuples) => self.sort_items(step, tuples, true, env)?,
                None => {
                    let sorted = self.sort_items(step, items_of(input).to_vec(), false, env)?;
                    let mut result = Vec::with_capacity(sorted.len());
                    for (position, item) in sorted.into_iter().enumerate() {
                        let mut entries = vec![(self.focus.clone(), item)];
                        if let Some(index) = &step.index {
                            entries.push((index.clone(), Val::Number(position as f64)));
                        }
                        result.push(Val::record(entries));
                    }
                    result
                }
            };
            result = self.stages(&step.stages, result, env)?;
            return Ok(result);
        }

        let tuples = match tuples {
            Some(tuples) => tuples,
            None => items_of(input)
                .iter()
                .map(|item| Val::record(vec![(self.focus.clone(), item)]))
                .collect(),
        };
        let mut result = Vec::new();
        for tuple in &tuples {
            let step_env = env.with_tuple(tuple);
            let focus = tuple_focus(tuple);
            let value = self.eval(step, &focus, &step_env)?;
            if value.is_undefined() {
                continue;
            }
            let nested_tuples = value.flags().has(Flags::TUPLE_STREAM);
            let values = match value.as_array() {
                Some(items) => items.to_vec(),
                None => vec![value.clone()],
            };
            for (position, bound) in values.into_iter().enumerate() {
                let mut entries = match tuple {
                    Val::Record(entries) => entries.0.clone(),
                    _ => Vec::new(),
                };
                if nested_tuples {
                    if let Val::Record(inner) = &bound {
                        for (key, v) in inner.iter() {
                            set_entry(&mut entries, key, v.clone());
                        }
                    }
                } else {
                    if let Some(focus_name) = &step.focus {
                        set_entry(&mut entries, focus_name, bound);
                        set_entry(&mut entries, self.focus, focus.clone());
                    } else {
                        set_entry(&mut entries, self.focus, bound);
                    }
                    if let Some(index) = &step.index {
                        set_entry(&mut entries, index, Val::Number(position as f64));
                    }
                    if let Some(label) = &step.ancestor {
                        set_entry(&mut entries, label, focus.clone());
                    }
                }
                result.push(Val::record(entries));
            }
        }
        self.charge_array(result.len())?;
        self.stages(&step.stages, result, env)
    }

    /// Applies a step's stages to a tuple stream (JSONata's `evaluateStages`).
    fn stages(&mut self, stages: &[Stage], mut tuples: Vec<Val>, env: &Env) -> Result<Vec<Val>> {
        for stage in stages {
            match stage {
                Stage::Filter(predicate, _) => {
                    let stream = Val::list(tuples, Flags::SEQUENCE.with(Flags::TUPLE_STREAM));
                    tuples = match self.filter(predicate, stream, env)? {
                        Val::List(items, _) => match Rc::try_unwrap(items) {
                            Ok(mut owned) => std::mem::take(&mut owned.0),
                            Err(shared) => shared.0.clone(),
                        },
                        Val::Undefined => Vec::new(),
                        other => vec![other],
                    };
                }
                Stage::Index(name, _) => {
                    for (position, tuple) in tuples.iter_mut().enumerate() {
                        if let Val::Record(entries) = tuple {
                            set_entry(&mut Rc::make_mut(entries).0, name, Val::Number(position as f64));
                        }
                    }
                }
            }
        }
        Ok(tuples)
    }

    pub(super) fn wildcard(&mut self, input: &Val) -> Result<Val> {
        let mut input = input;
        let first;
        if let Val::List(items, flags) = input
            && flags.has(Flags::OUTER_WRAPPER)
            && !items.is_empty()
        {
            first = items[0].clone();
            input = &first;
        }
        let mut results = Vec::new();
        // An array's items are its values, as its indices are its keys.
        if let Some(items) = input.as_array() {
            self.steps(items.len() as u64)?;
            for value in items.iter() {
                if value.is_array() {
                    self.flatten_into(&value, &mut results)?;
                } else {
                    results.push(value);
                }
            }
        } else if let Some(object) = input.as_object() {
            self.steps(object.len() as u64)?;
            for (_, value) in object.entries() {
                if value.is_array() {
                    self.flatten_into(&value, &mut results)?;
                } else {
                    results.push(value);
                }
            }
        }
        self.charge_array(results.len())?;
        Ok(Val::sequence(results))
    }

    fn flatten_into(&mut self, value: &Val, out: &mut Vec<Val>) -> Result<()> {
        match value.as_array() {
            Some(items) => {
                self.steps(items.len() as u64)?;
                for item in items.iter() {
                    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.flatten_into(&item, out))?;
                }
                Ok(())
            }
            None => {
                out.push(value.clone());
                Ok(())
            }
        }
    }

    pub(super) fn descendants(&mut self, input: &Val) -> Result<Val> {
        if input.is_undefined() {
            return Ok(Val::Undefined);
        }
        let mut results = Vec::new();
        self.recurse_descendants(input, &mut results)?;
        self.charge_array(results.len())?;
        Ok(if results.len() == 1 {
            results.pop().unwrap_or_default()
        } else {
            Val::sequence(results)
        })
    }

    fn recurse_descendants(&mut self, input: &Val, results: &mut Vec<Val>) -> Result<()> {
        self.step()?;
        if let Some(items) = input.as_array() {
            for item in items.iter() {
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.recurse_descendants(&item, results))?;
            }
            return Ok(());
        }
        results.push(input.clone());
        if let Some(object) = input.as_object() {
            for (_, value) in object.entries() {
                stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.recurse_descendants(&value, results))?;
            }
        }
        Ok(())
    }
}

/// The item of a tuple.
pub(super) fn tuple_focus(tuple: &Val) -> Val {
    match tuple {
        Val::Record(entries) => entries
            .iter()
            .find(|(k, _)| k.eq_str(FOCUS_KEY))
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        _ => Val::Undefined,
    }
}

fn items_len(value: &Val) -> usize {
    match value {
        Val::Undefined => 0,
        other => other.as_array().map_or(1, |items| items.len()),
    }
}

/// A sequence result as `eval` leaves it: none for empty, the item for one unless kept.
fn unwrap_sequence(value: Val, keep: bool) -> Val {
    match value {
        Val::List(items, flags) if flags.has(Flags::SEQUENCE) => {
            let flags = if keep { flags.with(Flags::KEEP_SINGLETON) } else { flags };
            match items.len() {
                0 => Val::Undefined,
                1 if !flags.has(Flags::KEEP_SINGLETON) => items[0].clone(),
                _ => Val::List(items, flags),
            }
        }
        other => other,
    }
}

/// A field of an object, or of each object in an array (JSONata's `lookup`).
pub(super) fn lookup_field(input: &Val, name: &Str) -> Val {
    match input {
        Val::Object(object) => object.get(name).map(Val::from).unwrap_or_default(),
        Val::Record(entries) => entries
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        Val::Array(_) | Val::List(..) => {
            let items = input.as_array().expect("an array");
            let mut result = Vec::new();
            for item in items.iter() {
                let value = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || lookup_field(&item, name));
                match value.as_array() {
                    Some(inner) => result.extend(inner.iter()),
                    None => {
                        if !value.is_undefined() {
                            result.push(value);
                        }
                    }
                }
            }
            Val::sequence(result)
        }
        _ => Val::Undefined,
    }
}
