//! Operators: arithmetic, `and`/`or`, `=`/`!=`, `in`, `&` (and a chain of them joined at once),
//! ranges (`[a..b]`) and array constructors.
//!
//! Each builds a new value from its operands' values and charges what it builds; ordering and
//! membership are decided by [`super::compare`].

use std::rc::Rc;

use writ_core::Str;

use super::compare::{compare, ordered, strict_equal};
use super::{Cx, Env, append_into, describe, items_of, write_number};
use crate::ast::{BinaryOp, Kind, Node};
use crate::error::{Code, Error, Result};
use crate::functions;
use crate::value::{ArrayView, Flags, Val, boolean, deep_equal, equal_metered, vec_for};

/// How many numbers of a range are built between two reads of the clock.
const RANGE_PIECE: usize = 1 << 16;

impl Cx<'_> {
    pub(super) fn binary(
        &mut self,
        node: &Node,
        op: BinaryOp,
        lhs: &Node,
        rhs: &Node,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        let left = self.eval(lhs, input, env)?;
        // The operands are most often scalars: each is discarded rather than dropped.
        match op {
            BinaryOp::And | BinaryOp::Or => {
                let passed = boolean(&left) == Some(true);
                left.discard();
                let result = if passed == (op == BinaryOp::And) {
                    let right = self.eval(rhs, input, env)?;
                    let passed = boolean(&right) == Some(true);
                    right.discard();
                    passed
                } else {
                    passed
                };
                return Ok(Val::Bool(result));
            }
            _ => {}
        }
        let right = match self.eval(rhs, input, env) {
            Ok(right) => right,
            Err(error) => {
                left.discard();
                return Err(error);
            }
        };
        let result = self.operands(node, op, &left, &right);
        left.discard();
        right.discard();
        result
    }

    /// What `op` answers for the values of its operands (neither `and` nor `or`).
    #[inline(always)]
    fn operands(&mut self, node: &Node, op: BinaryOp, left: &Val, right: &Val) -> Result<Val> {
        let fail = |error: Error| error.at(node.position).with_token(op.symbol());
        match op {
            BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo => {
                let l = numeric_operand(left, Code::T2001).map_err(fail)?;
                let r = numeric_operand(right, Code::T2002).map_err(fail)?;
                let (Some(l), Some(r)) = (l, r) else {
                    return Ok(Val::Undefined);
                };
                Ok(Val::Number(match op {
                    BinaryOp::Add => l + r,
                    BinaryOp::Subtract => l - r,
                    BinaryOp::Multiply => l * r,
                    BinaryOp::Divide => l / r,
                    _ => l % r,
                }))
            }
            BinaryOp::Equal | BinaryOp::NotEqual => {
                if left.is_undefined() || right.is_undefined() {
                    return Ok(Val::Bool(false));
                }
                let equal = if left.is_array() || left.is_object() {
                    equal_metered(left, right, &mut |n| self.steps(n)).map_err(|e| e.at(node.position))?
                } else {
                    deep_equal(left, right)
                };
                Ok(Val::Bool(if op == BinaryOp::Equal { equal } else { !equal }))
            }
            BinaryOp::Less | BinaryOp::LessEqual | BinaryOp::Greater | BinaryOp::GreaterEqual => {
                match (left, right) {
                    // Two numbers, the commonest comparison, decided without the type checks.
                    (Val::Number(l), Val::Number(r)) => Ok(Val::Bool(ordered(op, l.partial_cmp(r)))),
                    _ => compare(op, left, right).map_err(fail),
                }
            }
            BinaryOp::Concat => {
                let mut text = Str::empty();
                if !left.is_undefined() {
                    text = functions::to_string(self, left).map_err(fail)?;
                }
                if !right.is_undefined() {
                    let right = functions::to_string(self, right).map_err(fail)?;
                    self.charge_string(text.len_utf16() + right.len_utf16()).map_err(fail)?;
                    text = text.concat(&right);
                }
                Ok(Val::String(text))
            }
            BinaryOp::Range => self.range(left, right).map_err(fail),
            BinaryOp::In => {
                if left.is_undefined() || right.is_undefined() {
                    return Ok(Val::Bool(false));
                }
                let found = items_of(right).iter().any(|item| strict_equal(&item, left));
                Ok(Val::Bool(found))
            }
            BinaryOp::And | BinaryOp::Or => unreachable!("handled above"),
        }
    }

    /// A chain of `&` (`a & b & c` nests to the left), joined in one piece: the operands are
    /// evaluated and converted in the order the nested operators take them, each operator
    /// charges what it would, and the text is built once rather than once per operator.
    pub(super) fn concat_chain(&mut self, node: &Node, input: &Val, env: &Env) -> Result<Val> {
        let mut spine = vec![node];
        let mut leftmost = node;
        while let Kind::Binary(BinaryOp::Concat, lhs, _) = &leftmost.kind {
            let next: &Node = lhs;
            let plain = next.predicate.is_empty() && next.group.is_none() && !next.keep_array;
            if !(plain && matches!(next.kind, Kind::Binary(BinaryOp::Concat, ..))) {
                leftmost = next;
                break;
            }
            spine.push(next);
            leftmost = next;
        }
        // The operators taken here are nodes the tree walk would have entered.
        let inner = spine.len() as u64 - 1;
        self.meter.steps(inner).map_err(|e| Error::from(e).at(node.position))?;
        let mut pending = Some(self.eval(leftmost, input, env)?);
        let mut pieces: Vec<Str> = Vec::with_capacity(spine.len() + 1);
        let mut len = 0;
        for operator in spine.iter().rev() {
            let Kind::Binary(_, _, rhs) = &operator.kind else {
                continue;
            };
            let right = self.eval(rhs, input, env)?;
            let fail = |error: Error| error.at(operator.position).with_token("&");
            if let Some(left) = pending.take()
                && !left.is_undefined()
            {
                let text = functions::to_string(self, &left).map_err(fail)?;
                len += text.len_utf16();
                pieces.push(text);
            }
            if !right.is_undefined() {
                let text = functions::to_string(self, &right).map_err(fail)?;
                self.charge_string(len + text.len_utf16()).map_err(fail)?;
                len += text.len_utf16();
                pieces.push(text);
            }
        }
        Ok(Val::String(join_pieces(&pieces, len)?))
    }

    fn range(&mut self, left: &Val, right: &Val) -> Result<Val> {
        let integer = |v: &Val, code: Code| match v {
            Val::Undefined => Ok(None),
            Val::Number(n) if n.fract() == 0.0 && n.is_finite() => Ok(Some(*n)),
            other => Err(Error::new(code).with_value(describe(other))),
        };
        let lo = integer(left, Code::T2003)?;
        let hi = integer(right, Code::T2004)?;
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Ok(Val::Undefined);
        };
        if lo > hi {
            return Ok(Val::Undefined);
        }
        let size = hi - lo + 1.0;
        if size > crate::MAX_RANGE as f64 {
            return Err(Error::new(Code::D2014).with_value(write_number(size)));
        }
        let size = size as usize;
        self.charge_array(size)?;
        // Built in pieces with the clock read between them, so a timeout stops a range of
        // ten million numbers partway rather than after it.
        let mut items = vec_for(size)?;
        let mut next = lo;
        while items.len() < size {
            let piece = (size - items.len()).min(RANGE_PIECE);
            self.steps(piece as u64)?;
            for _ in 0..piece {
                items.push(Val::Number(next));
                next += 1.0;
            }
        }
        Ok(Val::sequence(items))
    }

    pub(super) fn array_constructor(&mut self, node: &Node, items: &[Node], input: &Val, env: &Env) -> Result<Val> {
        // The items are evaluated first and the list charged before it is built: flattening
        // copies every item of every list it holds, and a list doubled by each call of a
        // recursion would otherwise be copied in full before its size was ever checked.
        let mut values = Vec::with_capacity(items.len());
        let mut len = 0usize;
        for item in items {
            let value = self.eval(item, input, env)?;
            if value.is_undefined() {
                continue;
            }
            let nested = matches!(item.kind, Kind::Array(_));
            len = len.saturating_add(if nested {
                1
            } else {
                value.as_array().map_or(1, ArrayView::len)
            });
            values.push((nested, value));
        }
        self.charge_array(len)?;
        let mut result = vec_for(len)?;
        for (nested, value) in values {
            if nested {
                result.push(value);
            } else if result.is_empty()
                && let Val::List(items, _) = value
            {
                // `[1..n]` and `[path]`: the list is taken over, not copied, when nothing
                // else holds it.
                result = match Rc::try_unwrap(items) {
                    Ok(mut owned) => std::mem::take(&mut owned.0),
                    Err(shared) => {
                        let mut copy = vec_for(len)?;
                        copy.extend_from_slice(&shared.0);
                        copy
                    }
                };
            } else {
                append_into(&mut result, value);
            }
        }
        let flags = if node.cons_array { Flags::CONS } else { Flags::NONE };
        Ok(Val::list(result, flags))
    }
}

fn numeric_operand(value: &Val, code: Code) -> Result<Option<f64>> {
    match value {
        Val::Undefined => Ok(None),
        Val::Number(n) if n.is_nan() => Err(Error::new(code).with_value(describe(value))),
        Val::Number(n) if n.is_infinite() => Err(Error::new(Code::D1001).with_value(describe(value))),
        Val::Number(n) => Ok(Some(*n)),
        other => Err(Error::new(code).with_value(describe(other))),
    }
}

/// `pieces` (`len` code units in all) as one string, copied once.
fn join_pieces(pieces: &[Str], len: usize) -> Result<Str> {
    Ok(match pieces {
        [] => Str::empty(),
        [one] => one.clone(),
        _ if pieces.iter().all(Str::is_ascii) => {
            let mut text: Vec<u8> = vec_for(len)?;
            for piece in pieces {
                text.extend_from_slice(piece.ascii_bytes().unwrap_or_default());
            }
            Str::from_ascii(&text).unwrap_or_default()
        }
        _ => {
            let mut units = vec_for(len)?;
            for piece in pieces {
                units.extend(piece.code_units());
            }
            Str::from_utf16(&units)
        }
    })
}
