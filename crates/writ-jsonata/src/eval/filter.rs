//! Filters: `[predicate]` over a sequence (JSONata's `evaluateFilter`), with its fast paths —
//! a constant index, constant positions, and [`Test`]: comparisons of field paths and literals
//! (joined by `and` and `or`) decided on input data in place, without building an item.
//!
//! Apart from the path walk because both walks use it: [`super::path`] filters the sequences it
//! builds, and [`super::walk`] filters items where they live with the same [`Test`].

use writ_core::{Meter, Str, Value};

use super::compare::{compare, ordered};
use super::path::tuple_focus;
use super::walk::is_plain_step;
use super::{Cx, Env, items_of};
use crate::ast::{BinaryOp, Kind, Node};
use crate::error::{Error, Result};
use crate::value::{ArrayView, Flags, Val, boolean, equal_metered};

impl Cx<'_> {
    /// `[predicate]` over a value (JSONata's `evaluateFilter`).
    pub(super) fn filter(&mut self, predicate: &Node, input: Val, env: &Env) -> Result<Val> {
        let tuple_stream = input.flags().has(Flags::TUPLE_STREAM);
        let flags = if tuple_stream {
            Flags::SEQUENCE.with(Flags::TUPLE_STREAM)
        } else {
            Flags::SEQUENCE
        };
        let items = items_of(&input);
        let mut results = Vec::new();
        if let Kind::Number(n) = predicate.kind {
            let mut index = n.floor();
            if index < 0.0 {
                index += items.len() as f64;
            }
            if index >= 0.0
                && let Some(item) = items.get(index as usize)
                && !item.is_undefined()
            {
                if item.is_array() {
                    return Ok(item);
                }
                results.push(item);
            }
            return Ok(Val::list(results, flags));
        }
        let len = items.len();
        if let Some(indices) = self.constant_indices(predicate, env)? {
            // `[[0..9]]`, `[[1, 3]]`: the same positions for every item, found once.
            let mut hits = vec![0u32; len];
            for n in indices {
                let mut index = n.floor();
                if index < 0.0 {
                    index += len as f64;
                }
                if index >= 0.0 && index < len as f64 {
                    hits[index as usize] += 1;
                }
            }
            for (position, item) in items.iter().enumerate() {
                for _ in 0..hits[position] {
                    results.push(item.clone());
                }
            }
            return Ok(Val::list(results, flags));
        }
        if let (ArrayView::Data(values), false) = (items, tuple_stream)
            && let Some(comparison) = Test::of(predicate)
        {
            // `[price > 50]` over an input array: the comparison reads each object where it
            // lives, and only the items kept are taken.
            for value in values {
                self.steps(comparison.cost()).map_err(|e| e.at(predicate.position))?;
                let verdict = match comparison.test(value, self.meter) {
                    Some(verdict) => verdict?,
                    None => {
                        let item = Val::from(value);
                        let verdict = self.eval(predicate, &item, env)?;
                        boolean(&verdict) == Some(true)
                    }
                };
                if verdict {
                    results.push(Val::from(value));
                }
            }
            return Ok(Val::list(results, flags));
        }
        for (position, item) in items.iter().enumerate() {
            let verdict = if tuple_stream {
                let tuple_env = env.with_tuple(&item);
                self.eval(predicate, &tuple_focus(&item), &tuple_env)?
            } else {
                self.eval(predicate, &item, env)?
            };
            match &verdict {
                Val::Number(n) => {
                    if index_matches(*n, position, len) {
                        results.push(item);
                    }
                }
                _ if is_array_of_numbers(&verdict) => {
                    let numbers = verdict.as_array().expect("an array");
                    for n in numbers.iter() {
                        if let Val::Number(n) = n
                            && index_matches(n, position, len)
                        {
                            results.push(item.clone());
                        }
                    }
                }
                _ => {
                    if boolean(&verdict) == Some(true) {
                        results.push(item);
                    }
                }
            }
        }
        Ok(Val::list(results, flags))
    }

    /// The positions a predicate selects when it is an array of number literals and ranges
    /// between them (`[[0..9]]`), which select the same positions whatever the item.
    fn constant_indices(&mut self, predicate: &Node, env: &Env) -> Result<Option<Vec<f64>>> {
        let Kind::Array(items) = &predicate.kind else {
            return Ok(None);
        };
        let literal = |node: &Node| matches!(node.kind, Kind::Number(_)) && node.predicate.is_empty();
        let constant = predicate.predicate.is_empty()
            && predicate.group.is_none()
            && items.iter().all(|item| {
                item.predicate.is_empty()
                    && item.group.is_none()
                    && match &item.kind {
                        Kind::Number(_) => true,
                        Kind::Binary(BinaryOp::Range, lo, hi) => literal(lo) && literal(hi),
                        _ => false,
                    }
            });
        if !constant {
            return Ok(None);
        }
        let value = self.eval(predicate, &Val::Undefined, env)?;
        if !is_array_of_numbers(&value) {
            return Ok(None);
        }
        let numbers = value
            .as_array()
            .map(|items| items.iter().filter_map(|n| n.as_number()).collect());
        Ok(numbers)
    }
}

fn is_array_of_numbers(value: &Val) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(|item| matches!(item, Val::Number(_))))
}

fn index_matches(n: f64, position: usize, len: usize) -> bool {
    let mut index = n.floor();
    if index < 0.0 {
        index += len as f64;
    }
    index == position as f64
}

/// A predicate of the commonest forms — comparisons of field paths and literals, joined by
/// `and` and `or` — tested on input data in place.
pub(super) enum Test<'a> {
    Compare(Comparison<'a>),
    And(Box<Test<'a>>, Box<Test<'a>>, u64),
    Or(Box<Test<'a>>, Box<Test<'a>>, u64),
}

impl<'a> Test<'a> {
    pub(super) fn of(predicate: &'a Node) -> Option<Test<'a>> {
        if !predicate.predicate.is_empty() || predicate.group.is_some() || predicate.keep_array {
            return None;
        }
        match &predicate.kind {
            Kind::Binary(op @ (BinaryOp::And | BinaryOp::Or), lhs, rhs) => {
                let (lhs, rhs) = (Box::new(Test::of(lhs)?), Box::new(Test::of(rhs)?));
                let cost = 1 + lhs.cost() + rhs.cost();
                Some(if *op == BinaryOp::And {
                    Test::And(lhs, rhs, cost)
                } else {
                    Test::Or(lhs, rhs, cost)
                })
            }
            _ => Comparison::of(predicate).map(Test::Compare),
        }
    }

    /// The steps evaluating the predicate as a tree would charge, at most.
    pub(super) fn cost(&self) -> u64 {
        match self {
            Test::Compare(comparison) => comparison.cost,
            Test::And(_, _, cost) | Test::Or(_, _, cost) => *cost,
        }
    }

    /// The verdict on `item`, or `None` when a path meets an array and the general walk must
    /// answer.
    pub(super) fn test(&self, item: &Value, meter: &mut Meter) -> Option<Result<bool>> {
        match self {
            Test::Compare(comparison) => comparison.test(item, meter),
            Test::And(lhs, rhs, _) => match lhs.test(item, meter)? {
                Ok(true) => rhs.test(item, meter),
                other => Some(other),
            },
            Test::Or(lhs, rhs, _) => match lhs.test(item, meter)? {
                Ok(false) => rhs.test(item, meter),
                other => Some(other),
            },
        }
    }
}

/// A field path compared with a literal or another field path (`price > 50`,
/// `status = 'open'`, `a.b != c`).
pub(super) struct Comparison<'a> {
    op: BinaryOp,
    lhs: Operand<'a>,
    rhs: Operand<'a>,
    /// The steps evaluating the predicate as a tree would charge.
    cost: u64,
    /// Where the operator is, for errors.
    position: usize,
}

/// One side of a [`Comparison`].
enum Operand<'a> {
    Field(&'a [Node]),
    Literal(Val),
}

impl<'a> Comparison<'a> {
    fn of(predicate: &'a Node) -> Option<Comparison<'a>> {
        let Kind::Binary(op, lhs, rhs) = &predicate.kind else {
            return None;
        };
        if !op.is_comparison() || !predicate.predicate.is_empty() || predicate.group.is_some() || predicate.keep_array {
            return None;
        }
        let (lhs, rhs) = (Operand::of(lhs)?, Operand::of(rhs)?);
        let cost = 1 + lhs.cost() + rhs.cost();
        Some(Comparison {
            op: *op,
            lhs,
            rhs,
            cost,
            position: predicate.position,
        })
    }

    /// The verdict on `item`, or `None` when a path meets an array and the general walk must
    /// answer.
    fn test(&self, item: &Value, meter: &mut Meter) -> Option<Result<bool>> {
        let lhs = self.lhs.read(item)?;
        let rhs = self.rhs.read(item)?;
        // Strings and numbers are compared where they are; anything else is taken out and
        // compared as the operator would.
        Some(
            match (self.op, lhs.as_str(), rhs.as_str(), lhs.as_number(), rhs.as_number()) {
                (BinaryOp::Equal | BinaryOp::NotEqual, Some(a), Some(b), _, _) => {
                    Ok((a == b) == (self.op == BinaryOp::Equal))
                }
                (BinaryOp::Equal | BinaryOp::NotEqual, _, _, Some(a), Some(b)) => {
                    Ok((a == b) == (self.op == BinaryOp::Equal))
                }
                (op, Some(a), Some(b), _, _) if op != BinaryOp::Equal && op != BinaryOp::NotEqual => {
                    Ok(ordered(op, Some(a.cmp(b))))
                }
                (op, _, _, Some(a), Some(b)) if op != BinaryOp::Equal && op != BinaryOp::NotEqual => {
                    Ok(ordered(op, a.partial_cmp(&b)))
                }
                _ => {
                    let (lhs, rhs) = (lhs.taken(), rhs.taken());
                    let position = self.position;
                    let mut charge = |n| meter.steps(n).map_err(|e| Error::from(e).at(position));
                    match self.op {
                        BinaryOp::Equal | BinaryOp::NotEqual if lhs.is_undefined() || rhs.is_undefined() => Ok(false),
                        BinaryOp::Equal => equal_metered(&lhs, &rhs, &mut charge),
                        BinaryOp::NotEqual => equal_metered(&lhs, &rhs, &mut charge).map(|equal| !equal),
                        op => compare(op, &lhs, &rhs)
                            .map(|verdict| matches!(verdict, Val::Bool(true)))
                            .map_err(|error| error.at(self.position).with_token(op.symbol())),
                    }
                }
            },
        )
    }
}

impl<'a> Operand<'a> {
    fn of(node: &'a Node) -> Option<Operand<'a>> {
        if !node.predicate.is_empty() || node.group.is_some() {
            return None;
        }
        match &node.kind {
            Kind::Number(n) => Some(Operand::Literal(Val::Number(*n))),
            Kind::String(text) => Some(Operand::Literal(Val::String(text.clone()))),
            Kind::Bool(b) => Some(Operand::Literal(Val::Bool(*b))),
            Kind::Null => Some(Operand::Literal(Val::Null)),
            Kind::Path(steps)
                if !node.keep_singleton_array
                    && !node.tuple
                    && steps
                        .iter()
                        .all(|step| matches!(step.kind, Kind::Name(_)) && is_plain_step(step)) =>
            {
                Some(Operand::Field(steps))
            }
            _ => None,
        }
    }

    fn cost(&self) -> u64 {
        match self {
            Operand::Field(steps) => steps.len() as u64,
            Operand::Literal(_) => 1,
        }
    }

    /// The operand's value on `item`, where it is; `None` when a path meets an array.
    fn read<'v>(&'v self, item: &'v Value) -> Option<Side<'v>> {
        let steps = match self {
            Operand::Literal(value) => return Some(Side::Literal(value)),
            Operand::Field(steps) => steps,
        };
        let mut current = item;
        for (index, step) in steps.iter().enumerate() {
            let Kind::Name(name) = &step.kind else { return None };
            current = match current {
                Value::Object(object) => match object.get_hinted(name) {
                    Some(next) => next,
                    None => return Some(Side::Missing),
                },
                Value::Array(_) => return None,
                _ => return Some(Side::Missing),
            };
            if index + 1 < steps.len() && matches!(current, Value::Array(_)) {
                return None;
            }
        }
        match current {
            Value::Array(_) | Value::Undefined => None,
            other => Some(Side::Data(other)),
        }
    }
}

/// One side of a [`Comparison`] as read: a value of the input or a literal, where it is.
enum Side<'v> {
    Data(&'v Value),
    Literal(&'v Val),
    Missing,
}

impl Side<'_> {
    /// The string, if the side is one.
    fn as_str(&self) -> Option<&Str> {
        match self {
            Side::Data(Value::String(text)) | Side::Literal(Val::String(text)) => Some(text),
            _ => None,
        }
    }

    /// The number, if the side is one.
    fn as_number(&self) -> Option<f64> {
        match self {
            Side::Data(Value::Number(n)) | Side::Literal(Val::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// The side as a value of its own.
    fn taken(&self) -> Val {
        match self {
            Side::Data(value) => Val::from(*value),
            Side::Literal(value) => (*value).clone(),
            Side::Missing => Val::Undefined,
        }
    }
}
