//! Comparison: the ordering operators (`<`, `<=`, `>`, `>=`), JavaScript's `===` as `in` uses it,
//! and order-by (`^(…)`), whose sort keys are compared as jsonata-js's comparator compares them.
//!
//! Equality of values (`=`) is [`crate::value::deep_equal`], which built-ins share; what is
//! here is what only the evaluator's operators and sort steps decide, and where their type
//! errors (T2007 to T2010) are raised.

use std::rc::Rc;

use super::path::tuple_focus;
use super::{Cx, Env, describe, items_of};
use crate::ast::{BinaryOp, Kind, Node, SortTerm};
use crate::error::{Code, Error, Result};
use crate::functions;
use crate::value::{Flags, Val};

impl Cx<'_> {
    pub(super) fn sort_step(&mut self, step: &Node, input: &Val, env: &Env) -> Result<Val> {
        let tuple_stream = input.flags().has(Flags::TUPLE_STREAM);
        let items = items_of(input).to_vec();
        let sorted = self.sort_items(step, items, tuple_stream, env)?;
        let flags = if tuple_stream {
            Flags::SEQUENCE.with(Flags::TUPLE_STREAM)
        } else {
            Flags::SEQUENCE
        };
        Ok(Val::list(sorted, flags))
    }

    /// Sorts `items` by the sort step's terms: stable, as jsonata-js's merge sort. The first
    /// term's keys are evaluated for every item up front (a sort of two or more items compares
    /// each at least once); later terms only where a comparison ties, once per item. When the
    /// first keys are all numbers or all strings (or missing), the sort runs on them directly;
    /// otherwise it compares as jsonata-js does, raising T2007/T2008 where a comparison meets
    /// keys it cannot order.
    pub(super) fn sort_items(&mut self, step: &Node, items: Vec<Val>, tuples: bool, env: &Env) -> Result<Vec<Val>> {
        let Kind::Sort(terms) = &step.kind else {
            return Ok(items);
        };
        if items.len() <= 1 || terms.is_empty() {
            return Ok(items);
        }
        let n = items.len();
        self.steps((n as u64) * u64::from(usize::BITS - n.leading_zeros()))?;
        let width = terms.len();
        let mut keys: Vec<Option<Val>> = vec![None; n * width];
        for item in 0..n {
            self.sort_key(&terms[0], &items, &mut keys, width, item, 0, tuples, env)?;
        }
        let first_keys = || {
            keys.iter()
                .step_by(width)
                .map(|key| key.as_ref().unwrap_or(&Val::Undefined))
        };
        let numbers = first_keys().all(|key| match key {
            Val::Undefined => true,
            Val::Number(x) => !x.is_nan(),
            _ => false,
        });
        let strings = first_keys().all(|key| matches!(key, Val::Undefined | Val::String(_)));
        let position = step.position;
        let mut order: Vec<usize> = (0..n).collect();
        if numbers || strings {
            let descending = terms[0].descending;
            order = functions::merge_sort_by(order, &mut |&a: &usize, &b: &usize| {
                // A step per comparison keeps the clock read while a long sort runs.
                self.meter.step().map_err(|e| Error::from(e).at(position))?;
                let (ka, kb) = (keys[a * width].as_ref(), keys[b * width].as_ref());
                let undefined_a = matches!(ka, Some(Val::Undefined) | None);
                let undefined_b = matches!(kb, Some(Val::Undefined) | None);
                let ordering = match (ka, kb) {
                    _ if undefined_a && undefined_b => std::cmp::Ordering::Equal,
                    _ if undefined_a => return Ok(true),
                    _ if undefined_b => return Ok(false),
                    (Some(Val::Number(x)), Some(Val::Number(y))) => {
                        x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal)
                    }
                    (Some(Val::String(x)), Some(Val::String(y))) => x.cmp(y),
                    _ => std::cmp::Ordering::Equal,
                };
                let ordering = if descending { ordering.reverse() } else { ordering };
                match ordering {
                    std::cmp::Ordering::Greater => Ok(true),
                    std::cmp::Ordering::Less => Ok(false),
                    std::cmp::Ordering::Equal if width == 1 => Ok(false),
                    std::cmp::Ordering::Equal => {
                        self.sort_after(&terms[1..], 1, &items, &mut keys, width, a, b, tuples, env, position)
                    }
                }
            })?;
        } else {
            order = functions::merge_sort_by(order, &mut |&a: &usize, &b: &usize| {
                self.sort_after(terms, 0, &items, &mut keys, width, a, b, tuples, env, position)
            })?;
        }
        // `order` holds each position once, so the items are moved into place, not copied.
        let mut items = items;
        Ok(order.into_iter().map(|i| std::mem::take(&mut items[i])).collect())
    }

    /// Whether item `a` sorts after item `b` by `terms` (the terms from index `offset` of the
    /// step's list), as jsonata-js's order-by comparator decides it.
    #[allow(clippy::too_many_arguments)]
    fn sort_after(
        &mut self,
        terms: &[SortTerm],
        offset: usize,
        items: &[Val],
        keys: &mut [Option<Val>],
        width: usize,
        a: usize,
        b: usize,
        tuples: bool,
        env: &Env,
        position: usize,
    ) -> Result<bool> {
        for (t, term) in terms.iter().enumerate() {
            let aa = self.sort_key(term, items, keys, width, a, offset + t, tuples, env)?;
            let bb = self.sort_key(term, items, keys, width, b, offset + t, tuples, env)?;
            let comp = match (&aa, &bb) {
                (Val::Undefined, Val::Undefined) => 0,
                (Val::Undefined, _) => 1,
                (_, Val::Undefined) => -1,
                (Val::Number(x), Val::Number(y)) => {
                    if x == y {
                        0
                    } else if x < y {
                        -1
                    } else {
                        1
                    }
                }
                (Val::String(x), Val::String(y)) => match x.cmp(y) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Greater => 1,
                },
                (Val::Number(_) | Val::String(_), Val::Number(_) | Val::String(_)) => {
                    return Err(Error::new(Code::T2007)
                        .at(position)
                        .with_value(describe(&aa))
                        .with_value2(describe(&bb)));
                }
                _ => {
                    let bad = if matches!(aa, Val::Number(_) | Val::String(_)) {
                        &bb
                    } else {
                        &aa
                    };
                    return Err(Error::new(Code::T2008).at(position).with_value(describe(bad)));
                }
            };
            // Undefined keys sort last whatever the direction; equal keys go to the next term.
            if comp == 0 {
                continue;
            }
            let undefined_involved = aa.is_undefined() || bb.is_undefined();
            let comp = if term.descending && !undefined_involved {
                -comp
            } else {
                comp
            };
            return Ok(comp == 1);
        }
        Ok(false)
    }

    /// Term `t`'s key of `item`, evaluated the first time it is asked for.
    #[allow(clippy::too_many_arguments)]
    fn sort_key(
        &mut self,
        term: &SortTerm,
        items: &[Val],
        keys: &mut [Option<Val>],
        width: usize,
        item: usize,
        t: usize,
        tuples: bool,
        env: &Env,
    ) -> Result<Val> {
        let slot = item * width + t;
        if let Some(key) = &keys[slot] {
            return Ok(key.clone());
        }
        let key = if tuples {
            let tuple_env = env.with_tuple(&items[item]);
            self.eval(&term.expression, &tuple_focus(&items[item]), &tuple_env)?
        } else {
            self.eval(&term.expression, &items[item], env)?
        };
        keys[slot] = Some(key.clone());
        Ok(key)
    }
}

pub(super) fn compare(op: BinaryOp, left: &Val, right: &Val) -> Result<Val> {
    let comparable = |v: &Val| matches!(v, Val::Undefined | Val::String(_) | Val::Number(_));
    if !comparable(left) || !comparable(right) {
        let bad = if matches!(left, Val::String(_) | Val::Number(_)) {
            right
        } else {
            left
        };
        return Err(Error::new(Code::T2010).with_value(describe(bad)));
    }
    if left.is_undefined() || right.is_undefined() {
        return Ok(Val::Undefined);
    }
    let ordering = match (left, right) {
        (Val::Number(a), Val::Number(b)) => a.partial_cmp(b),
        (Val::String(a), Val::String(b)) => Some(a.cmp(b)),
        _ => {
            return Err(Error::new(Code::T2009)
                .with_value(describe(left))
                .with_value2(describe(right)));
        }
    };
    Ok(Val::Bool(ordered(op, ordering)))
}

/// The verdict of an ordering operator on two comparable values (`false` when unordered).
pub(super) fn ordered(op: BinaryOp, ordering: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (op, ordering) {
        (_, None) => false,
        (BinaryOp::Less, Some(o)) => o == Less,
        (BinaryOp::LessEqual, Some(o)) => o != Greater,
        (BinaryOp::Greater, Some(o)) => o == Greater,
        (_, Some(o)) => o != Less,
    }
}

/// JavaScript's `===` as `in` uses it: containers by identity.
pub(super) fn strict_equal(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Number(x), Val::Number(y)) => x == y,
        (Val::String(x), Val::String(y)) => x == y,
        (Val::Array(x), Val::Array(y)) => x.ptr_eq(y),
        (Val::Object(x), Val::Object(y)) => x.ptr_eq(y),
        (Val::List(x, _), Val::List(y, _)) => Rc::ptr_eq(x, y),
        (Val::Record(x), Val::Record(y)) => Rc::ptr_eq(x, y),
        (Val::Function(x), Val::Function(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}
