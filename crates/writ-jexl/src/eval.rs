//! The interpreter: walks the tree over the context where it lives, under a meter.
//!
//! Values read from the context are shared, not copied (a read is a reference-count increment
//! at most), and a filter's result holds the very elements of its subject. Every node
//! evaluated costs a step, every element a filter visits costs one more, and every level of
//! the walk enters the meter's depth count, so the tree's depth (capped at parse) and the
//! meter's depth limit both bound the recursion.

use writ_core::{Meter, Object, Str, Value, js_number_to_string};

use crate::ast::{Callable, Kind, NodeId, Pool, Program};
use crate::coerce::{
    TextBuilder, contains, describe_key, less_than, loose_equals, read_key, read_name, read_of_nothing, reserve_units,
    strict_equals, to_js_string, to_key, to_number, to_primitive,
};
use crate::error::{Code, Error, Result};
use crate::lexer::BinaryOp;
use crate::transforms;

/// One evaluation.
pub(crate) struct Cx<'a> {
    /// The expression.
    program: &'a Program,
    /// The context names are read from (`{}` when the host's is falsy, as in jexl-js).
    context: &'a Value,
    /// The budget.
    meter: &'a mut Meter,
}

impl<'a> Cx<'a> {
    /// An evaluation of `program` over `context`.
    pub(crate) fn new(program: &'a Program, context: &'a Value, meter: &'a mut Meter) -> Cx<'a> {
        Cx {
            program,
            context,
            meter,
        }
    }

    /// Evaluates the whole expression.
    pub(crate) fn run(&mut self) -> Result<Value> {
        let root = self.program.root;
        let context = self.context;
        self.eval(root, context)
    }

    /// Evaluates a child node one level deeper.
    #[inline]
    fn nested(&mut self, id: NodeId, relative: &Value) -> Result<Value> {
        self.meter.enter()?;
        let value = self.eval(id, relative);
        self.meter.leave();
        value
    }

    /// Evaluates an optional child, which jexl-js fails on when it is missing.
    fn required(&mut self, id: Option<NodeId>, relative: &Value, at: usize, what: &str) -> Result<Value> {
        match id {
            Some(id) => self.nested(id, relative),
            // jexl-js parses an empty slot as a null tree and fails when it reaches it.
            None => Err(Error::syntax(
                at,
                format!("{what} at byte {at} is empty: write an expression there"),
            )),
        }
    }

    /// Evaluates the node `id`; `relative` is what `.name` reads (a filter's element, or the
    /// context outside filters).
    fn eval(&mut self, id: NodeId, relative: &Value) -> Result<Value> {
        self.meter.step()?;
        let program = self.program;
        let node = program.node(id);
        let at = node.position as usize;
        match &node.kind {
            Kind::Literal(value) => Ok(value.clone()),
            Kind::Context(name) => Ok(read_name(self.context, name)),
            Kind::Relative(name) => Ok(read_name(relative, name)),
            Kind::Member { from, name } => {
                let base = self.nested(*from, relative)?;
                let base = match base {
                    Value::Undefined | Value::Null => return Ok(Value::Undefined),
                    Value::Array(array) => array.first().cloned().unwrap_or_default(),
                    other => other,
                };
                if matches!(base, Value::Undefined | Value::Null) {
                    return Err(read_of_nothing(&base, &name.to_string_lossy(), at));
                }
                Ok(read_name(&base, name))
            }
            Kind::Not(right) => {
                let value = self.required(*right, relative, at, "the operand of '!'")?;
                Ok(Value::Bool(!value.is_truthy()))
            }
            Kind::Binary { op, left, right } => self.binary(*op, *left, *right, relative, at),
            Kind::Conditional {
                test,
                consequent,
                alternate,
            } => {
                let test = self.required(*test, relative, at, "the test before '?'")?;
                if test.is_truthy() {
                    match consequent {
                        Some(consequent) => self.nested(*consequent, relative),
                        None => Ok(test),
                    }
                } else {
                    // jexl-js accepts `a ? b :` and fails only when the test is falsy.
                    self.required(*alternate, relative, at, "the branch after ':'")
                }
            }
            Kind::Filter {
                subject,
                expr,
                relative: per_element,
            } => {
                let subject = self.nested(*subject, relative)?;
                if *per_element {
                    self.filter_elements(subject, *expr, at)
                } else {
                    let chosen = self.required(*expr, relative, at, "the filter '[]'")?;
                    index(subject, &chosen, at, self.meter)
                }
            }
            Kind::Call {
                pool,
                name,
                args,
                target,
            } => self.call(*pool, name, args, target.as_ref(), relative, at),
            Kind::Array(items) => {
                self.meter.charge_array(items.len())?;
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.nested(*item, relative)?);
                }
                Ok(Value::from(values))
            }
            Kind::Object { keys, shape, values } => {
                self.meter.charge_allocation(keys.len() as u64)?;
                let mut built = Vec::with_capacity(values.len());
                for (key, value) in keys.iter().zip(values) {
                    let what = format!("the value of key '{}'", key.to_string_lossy());
                    built.push(self.required(*value, relative, at, &what)?);
                }
                Ok(Value::Object(match shape {
                    Some(shape) => shape.build(built.into_iter()),
                    None => Object::from_entries(keys.iter().cloned().zip(built).collect()),
                }))
            }
        }
    }

    /// A filter whose expression reads `.name`s: the elements for which it is truthy.
    fn filter_elements(&mut self, subject: Value, expr: Option<NodeId>, at: usize) -> Result<Value> {
        let elements: &[Value] = match &subject {
            Value::Array(array) => array.as_slice(),
            Value::Undefined => &[],
            other => std::slice::from_ref(other),
        };
        // The elements are one level below the filter, as its other children are.
        self.meter.enter()?;
        let kept = self.keep(elements, expr, at);
        self.meter.leave();
        let kept = kept?;
        // The result is never longer than the subject, which already exists.
        self.meter.charge_array(kept.len())?;
        Ok(Value::from(kept))
    }

    /// The elements for which `expr` is truthy.
    fn keep(&mut self, elements: &[Value], expr: Option<NodeId>, at: usize) -> Result<Vec<Value>> {
        let mut kept = Vec::new();
        for element in elements {
            self.meter.step()?;
            // jexl-js reads a falsy element's relative names from the context instead.
            let relative = if element.is_truthy() { element } else { self.context };
            let verdict = match expr {
                Some(expr) => self.eval(expr, relative)?,
                None => {
                    return Err(Error::syntax(
                        at,
                        "the filter '[]' is empty: write a condition such as '[.age > 30]'",
                    ));
                }
            };
            if verdict.is_truthy() {
                kept.push(element.clone());
            }
        }
        Ok(kept)
    }

    /// The value of `id` read in place, when it is a literal, a name, or a property of one of
    /// those (`a.b`, `.a.b`), with the nodes it covers: no reference count is touched and
    /// nothing is charged. `None` when evaluating would build something or fail, so that the
    /// general path does it and reports it.
    #[inline]
    fn peek<'v>(&self, id: NodeId, relative: &'v Value) -> Option<(&'v Value, u64)>
    where
        'a: 'v,
    {
        let program: &'a Program = self.program;
        let context: &'a Value = self.context;
        let read = |kind: &'a Kind| -> Option<&'v Value> {
            match kind {
                Kind::Literal(value) => Some(value),
                Kind::Context(name) => borrow_name(context, name),
                Kind::Relative(name) => borrow_name(relative, name),
                _ => None,
            }
        };
        match &program.node(id).kind {
            Kind::Member { from, name } => {
                let base = match read(&program.node(*from).kind)? {
                    Value::Undefined | Value::Null => return Some((&UNDEFINED, 2)),
                    Value::Array(array) => match array.first() {
                        Some(Value::Undefined | Value::Null) | None => return None,
                        Some(first) => first,
                    },
                    other => other,
                };
                Some((borrow_name(base, name)?, 2))
            }
            kind => read(kind).map(|value| (value, 1)),
        }
    }

    /// A binary operator.
    fn binary(
        &mut self,
        op: BinaryOp,
        left: NodeId,
        right: Option<NodeId>,
        relative: &Value,
        at: usize,
    ) -> Result<Value> {
        let what = "the right operand";
        if !matches!(op, BinaryOp::And | BinaryOp::Or)
            && let Some(right) = right
            && let Some((x, left_cost)) = self.peek(left, relative)
            && let Some((y, right_cost)) = self.peek(right, relative)
        {
            // The same steps and depth the general path would charge.
            self.meter.steps(left_cost + right_cost)?;
            let levels = left_cost.max(right_cost);
            for _ in 0..levels {
                self.meter.enter()?;
            }
            for _ in 0..levels {
                self.meter.leave();
            }
            return apply(op, x, y, self.meter);
        }
        let left = self.nested(left, relative)?;
        match op {
            BinaryOp::And if !left.is_truthy() => return Ok(left),
            BinaryOp::Or if left.is_truthy() => return Ok(left),
            BinaryOp::And | BinaryOp::Or => return self.required(right, relative, at, what),
            _ => {}
        }
        let right = self.required(right, relative, at, what)?;
        apply(op, &left, &right, self.meter)
    }

    /// A transform or function call.
    fn call(
        &mut self,
        pool: Pool,
        name: &Str,
        args: &[NodeId],
        target: Option<&Callable>,
        relative: &Value,
        at: usize,
    ) -> Result<Value> {
        let Some(target) = target else {
            return Err(unknown(pool, name, at));
        };
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.nested(*arg, relative)?);
        }
        let (first, rest) = values
            .split_first()
            .map_or((&Value::Undefined, &[][..]), |(first, rest)| (first, rest));
        let outcome = match target {
            Callable::Standard(standard) => {
                return transforms::apply(*standard, first, rest, self.meter).map_err(|error| error.at(at));
            }
            Callable::Transform(transform) => transform(first, rest),
            Callable::Function(function) => function(&values),
        };
        // A host call is one opaque piece of work: the clock is read after it.
        self.meter.check_clock()?;
        outcome.map_err(|message| {
            let what = match pool {
                Pool::Transforms => "transform",
                Pool::Functions => "function",
            };
            Error::new(
                Code::Transform,
                format!("{what} '{}' failed at byte {at}: {message}", name.to_string_lossy()),
            )
            .at(at)
        })
    }
}

/// The error for a call to a name the host did not register.
fn unknown(pool: Pool, name: &Str, at: usize) -> Error {
    let name = name.to_string_lossy();
    match pool {
        Pool::Transforms => Error::new(
            Code::UnknownTransform,
            format!(
                "transform '{name}' at byte {at} is not defined: use a transform the host registered, \
                 or compute the value without '|{name}'"
            ),
        ),
        Pool::Functions => Error::new(
            Code::UnknownFunction,
            format!(
                "function '{name}' at byte {at} is not defined: use a function the host registered \
                 (Jexl has no built-in functions)"
            ),
        ),
    }
    .at(at)
}

/// Applies a binary operator other than `&&` and `||` to its operands' values.
#[inline]
fn apply(op: BinaryOp, left: &Value, right: &Value, meter: &mut Meter) -> Result<Value> {
    if let (Value::Number(x), Value::Number(y)) = (left, right) {
        let (x, y) = (*x, *y);
        return Ok(match op {
            BinaryOp::Add => Value::Number(x + y),
            BinaryOp::Sub => Value::Number(x - y),
            BinaryOp::Mul => Value::Number(x * y),
            BinaryOp::Div => Value::Number(x / y),
            BinaryOp::FloorDiv => Value::Number((x / y).floor()),
            BinaryOp::Mod => Value::Number(x % y),
            BinaryOp::Pow => Value::Number(writ_core::math::pow(x, y)),
            BinaryOp::Eq => Value::Bool(x == y),
            BinaryOp::Ne => Value::Bool(x != y),
            BinaryOp::Lt => Value::Bool(x < y),
            BinaryOp::Le => Value::Bool(x <= y),
            BinaryOp::Gt => Value::Bool(x > y),
            BinaryOp::Ge => Value::Bool(x >= y),
            BinaryOp::In | BinaryOp::And | BinaryOp::Or => Value::Bool(false),
        });
    }
    Ok(match op {
        BinaryOp::Add => add(left, right, meter)?,
        BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::Pow => {
            let x = to_number(left, meter)?;
            let y = to_number(right, meter)?;
            Value::Number(match op {
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                BinaryOp::FloorDiv => (x / y).floor(),
                BinaryOp::Mod => x % y,
                _ => writ_core::math::pow(x, y),
            })
        }
        BinaryOp::Eq => Value::Bool(loose_equals(left, right, meter)?),
        BinaryOp::Ne => Value::Bool(!loose_equals(left, right, meter)?),
        BinaryOp::Lt => Value::Bool(less_than(left, right, meter)? == Some(true)),
        BinaryOp::Gt => Value::Bool(less_than(right, left, meter)? == Some(true)),
        BinaryOp::Le => Value::Bool(less_than(right, left, meter)? == Some(false)),
        BinaryOp::Ge => Value::Bool(less_than(left, right, meter)? == Some(false)),
        BinaryOp::In => Value::Bool(is_in(left, right, meter)?),
        // Short-circuited by the caller.
        BinaryOp::And | BinaryOp::Or => right.clone(),
    })
}

/// `undefined`, to lend.
static UNDEFINED: Value = Value::Undefined;

/// [`read_name`] without the clone: `None` for the one computed read, `length` of an array
/// or a string.
#[inline]
fn borrow_name<'v>(value: &'v Value, name: &Str) -> Option<&'v Value> {
    match value {
        Value::Object(object) => Some(object.get(name).unwrap_or(&UNDEFINED)),
        Value::Array(_) | Value::String(_) if name == "length" => None,
        _ => Some(&UNDEFINED),
    }
}

/// A static filter: `subject[chosen]`, where a boolean keeps or drops the whole subject.
fn index(subject: Value, chosen: &Value, at: usize, meter: &mut Meter) -> Result<Value> {
    if let Value::Bool(keep) = chosen {
        return Ok(if *keep { subject } else { Value::Undefined });
    }
    let key = to_key(chosen, meter)?;
    if matches!(subject, Value::Undefined | Value::Null) {
        return Err(read_of_nothing(&subject, &describe_key(&key), at));
    }
    Ok(read_key(&subject, &key))
}

/// JavaScript's `+`: concatenation when either side is (or converts to) a string, else addition.
fn add(left: &Value, right: &Value, meter: &mut Meter) -> Result<Value> {
    let left = to_primitive(left, meter)?;
    let right = to_primitive(right, meter)?;
    if let (Value::String(x), Value::String(y)) = (&left, &right) {
        let len = x.len_utf16().saturating_add(y.len_utf16());
        meter.charge_string(len)?;
        reserve_units(meter, len)?;
        return Ok(Value::String(x.concat(y)));
    }
    if matches!(left, Value::String(_)) || matches!(right, Value::String(_)) {
        let mut text = TextBuilder::new();
        for side in [&left, &right] {
            match side {
                Value::String(part) => text.push_units(meter, part.code_units())?,
                Value::Number(number) => text.push_str(meter, &js_number_to_string(*number))?,
                other => {
                    let part = to_js_string(other, meter)?;
                    text.push_units(meter, part.code_units())?;
                }
            }
        }
        return Ok(Value::String(text.finish(meter)?));
    }
    Ok(Value::Number(to_number(&left, meter)? + to_number(&right, meter)?))
}

/// jexl's `in`: a substring test on a string, strict membership in an array, else false.
fn is_in(needle: &Value, haystack: &Value, meter: &mut Meter) -> Result<bool> {
    match haystack {
        Value::String(text) => {
            let needle = to_js_string(needle, meter)?;
            contains(text, &needle, meter)
        }
        Value::Array(items) => {
            for item in items.iter() {
                meter.step()?;
                if strict_equals(item, needle, meter)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coerce::Key;
    use writ_core::Limits;

    #[test]
    fn a_static_index_reads_arrays_strings_and_objects() {
        let mut meter = Meter::new(&Limits::UNLIMITED);
        let array = Value::from(vec![Value::from("a"), Value::from("b")]);
        assert_eq!(
            index(array.clone(), &Value::from(1.0), 0, &mut meter).ok(),
            Some(Value::from("b"))
        );
        assert_eq!(
            index(array.clone(), &Value::from("1"), 0, &mut meter).ok(),
            Some(Value::from("b"))
        );
        assert_eq!(
            index(array.clone(), &Value::from("01"), 0, &mut meter).ok(),
            Some(Value::Undefined)
        );
        assert_eq!(
            index(array.clone(), &Value::from("length"), 0, &mut meter).ok(),
            Some(Value::from(2.0))
        );
        assert_eq!(
            index(array, &Value::from(-0.0), 0, &mut meter).ok(),
            Some(Value::from("a"))
        );
        assert_eq!(
            index(Value::from("héllo"), &Value::from(1.0), 0, &mut meter).ok(),
            Some(Value::from("é"))
        );
        let key = Key::Name(Str::from("x"));
        assert_eq!(describe_key(&key), "x");
        let error = index(Value::Undefined, &Value::from(0.0), 4, &mut meter).expect_err("undefined[0]");
        assert_eq!((error.code(), error.position()), (Code::Runtime, Some(4)));
    }
}
