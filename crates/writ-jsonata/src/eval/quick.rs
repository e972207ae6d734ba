//! Whole-expression tests decided on an input object where it lives: comparisons of fields
//! and literals joined by `and` and `or` (`active and stock > 0`, `n = 0`), the commonest
//! route test and loop condition, answered without setting up an evaluation.
//!
//! The answer is the tree walk's exactly, and so are the charges: the shape fixes the most
//! steps, levels and reads a test can take, and the test runs only when the meter has room
//! for all of them without reaching a bound or a periodic check; it then charges what the
//! tree walk would have charged, in one piece. Whatever the shape does not cover — a field
//! holding an array or an object, an input that is not an object — gives the test back to
//! the tree walk before anything is charged.

use writ_core::{HintedKey, Limits, Meter, Object, Str, Value};

use super::compare::{compare, ordered};
use crate::ast::{BinaryOp, Kind, Node};
use crate::error::{Error, Result};
use crate::value::{Val, deep_equal};

/// The steps the tree walk charges for a field read: the step and the path around it.
const FIELD_STEPS: u64 = 2;

/// An expression whose whole answer is such a test, compiled, with the most it can charge.
#[derive(Debug, Clone)]
pub(crate) struct QuickTest {
    test: Part,
    /// Where the expression's operator is, for a bound crossed as the charges are made.
    position: usize,
    most: Cost,
}

/// What a test, or a part of one, charges.
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    steps: u64,
    levels: u32,
    /// Field values found, each charged as a sequence of one.
    reads: u64,
}

impl Cost {
    /// An operator's cost at most: its own step and level, and both operands'.
    fn entered(lhs: Cost, rhs: Cost) -> Cost {
        Cost {
            steps: 1 + lhs.steps + rhs.steps,
            levels: 1 + lhs.levels.max(rhs.levels),
            reads: lhs.reads + rhs.reads,
        }
    }
}

/// A part of a test.
#[derive(Debug, Clone)]
enum Part {
    /// `and` (`all` true) or `or`.
    Logic { all: bool, lhs: Box<Part>, rhs: Box<Part> },
    Compare {
        op: BinaryOp,
        lhs: Operand,
        rhs: Operand,
        position: usize,
    },
    /// An operand of `and` or `or` read for its truth.
    Truth(Operand),
}

/// A literal, or a field of the input: what the tree walk answers as a leaf, without entering
/// a level.
#[derive(Debug, Clone)]
enum Operand {
    Field(HintedKey),
    Null,
    Bool(bool),
    Number(f64),
    String(Str),
}

impl QuickTest {
    /// The test `root` is, when its answer is always decided this way.
    pub(crate) fn of(root: &Node) -> Option<QuickTest> {
        if !matches!(root.kind, Kind::Binary(..)) {
            return None;
        }
        let (test, most) = Part::of(root, false)?;
        Some(QuickTest {
            test,
            position: root.position,
            most,
        })
    }

    /// The test's answer on `input` (a boolean, or no value where an operand of an ordering
    /// has none), with its steps and reads charged to `meter`; `None`, with nothing charged,
    /// when the tree walk must answer.
    #[inline]
    pub(crate) fn run(&self, input: &Object, meter: &mut Meter) -> Option<Result<Value>> {
        let most = self.most;
        if !meter.has_room(most.steps, most.levels, most.reads) {
            return None;
        }
        let (answer, spent) = self.answer(input)?;
        // There was room for the most the test could charge, so these charges pass.
        let charged = meter
            .steps(spent.steps)
            .and_then(|()| meter.charge_allocation(spent.reads));
        Some(match charged {
            Ok(()) => answer,
            Err(exceeded) => Err(Error::from(exceeded).at(self.position)),
        })
    }

    /// The test's answer on `input` as an evaluation on a meter just made under `limits`
    /// gives it, with no meter: the charges would only fill one that is then dropped.
    #[inline]
    pub(crate) fn run_fresh(&self, input: &Object, limits: &Limits) -> Option<Result<Value>> {
        let most = self.most;
        if !limits.has_room(most.steps, most.levels, most.reads) {
            return None;
        }
        Some(self.answer(input)?.0)
    }

    /// The answer on `input` and what it charges; `None` when the tree walk must answer.
    #[inline(always)]
    fn answer(&self, input: &Object) -> Option<(Result<Value>, Cost)> {
        let mut spent = Cost::default();
        let answer = self.test.answer(input, &mut spent)?.map(Verdict::into_value);
        Some((answer, spent))
    }
}

impl Part {
    /// `node` as a part of a test, with the most it charges; `operand` when `and` or `or`
    /// reads it for its truth.
    fn of(node: &Node, operand: bool) -> Option<(Part, Cost)> {
        if !node.predicate.is_empty() || node.group.is_some() {
            return None;
        }
        match &node.kind {
            Kind::Binary(op @ (BinaryOp::And | BinaryOp::Or), lhs, rhs) => {
                let ((lhs, lhs_cost), (rhs, rhs_cost)) = (Part::of(lhs, true)?, Part::of(rhs, true)?);
                let part = Part::Logic {
                    all: *op == BinaryOp::And,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                };
                Some((part, Cost::entered(lhs_cost, rhs_cost)))
            }
            Kind::Binary(op, lhs, rhs) if op.is_comparison() => {
                let ((lhs, lhs_cost), (rhs, rhs_cost)) = (Operand::of(lhs)?, Operand::of(rhs)?);
                let part = Part::Compare {
                    op: *op,
                    lhs,
                    rhs,
                    position: node.position,
                };
                Some((part, Cost::entered(lhs_cost, rhs_cost)))
            }
            _ if operand => Operand::of(node).map(|(operand, cost)| (Part::Truth(operand), cost)),
            _ => None,
        }
    }

    /// The part's answer on `input`, as the tree walk gives it, adding what it charges to
    /// `spent`; `None` when the tree walk must answer.
    fn answer(&self, input: &Object, spent: &mut Cost) -> Option<Result<Verdict>> {
        match self {
            Part::Logic { all, lhs, rhs } => {
                spent.steps += 1;
                let mut passed = match lhs.truth(input, spent)? {
                    Ok(passed) => passed,
                    Err(error) => return Some(Err(error)),
                };
                if passed == *all {
                    passed = match rhs.truth(input, spent)? {
                        Ok(passed) => passed,
                        Err(error) => return Some(Err(error)),
                    };
                }
                Some(Ok(Verdict::of(passed)))
            }
            Part::Compare { op, lhs, rhs, position } => {
                spent.steps += 1;
                let (left, right) = (lhs.read(input, spent)?, rhs.read(input, spent)?);
                Some(compared(*op, left, right, *position))
            }
            Part::Truth(operand) => Some(Ok(Verdict::of(operand.read(input, spent)?.is_true()))),
        }
    }

    /// Whether the part, an operand of `and` or `or`, is true.
    fn truth(&self, input: &Object, spent: &mut Cost) -> Option<Result<bool>> {
        Some(self.answer(input, spent)?.map(|answer| answer == Verdict::True))
    }
}

impl Operand {
    /// `node` as an operand, when the tree walk answers it as a leaf ([`super::Cx::eval`]'s
    /// own conditions, so the charges are the same), with what it charges at most.
    fn of(node: &Node) -> Option<(Operand, Cost)> {
        if !node.predicate.is_empty() || node.group.is_some() {
            return None;
        }
        let literal = |operand| {
            Some((
                operand,
                Cost {
                    steps: 1,
                    ..Cost::default()
                },
            ))
        };
        match &node.kind {
            Kind::Number(n) => literal(Operand::Number(*n)),
            Kind::String(text) => literal(Operand::String(text.clone())),
            Kind::Bool(b) => literal(Operand::Bool(*b)),
            Kind::Null => literal(Operand::Null),
            Kind::Path(steps) if node.walkable => match steps.as_slice() {
                [step] if step.stages.is_empty() => match &step.kind {
                    Kind::Name(name) => Some((
                        Operand::Field(name.clone()),
                        Cost {
                            steps: FIELD_STEPS,
                            levels: 0,
                            reads: 1,
                        },
                    )),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The operand's value on `input`, adding what the read charges to `spent`; `None` for a
    /// field holding an array or an object.
    // Inlined: a scalar handed back through memory is stored in two pieces and loaded in
    // one, and the load stalls.
    #[inline(always)]
    fn read<'v>(&'v self, input: &'v Object, spent: &mut Cost) -> Option<Scalar<'v>> {
        let name = match self {
            Operand::Field(name) => name,
            literal => {
                spent.steps += 1;
                return Some(match literal {
                    Operand::Bool(b) => Scalar::Bool(*b),
                    Operand::Number(n) => Scalar::Number(*n),
                    Operand::String(text) => Scalar::String(text),
                    _ => Scalar::Null,
                });
            }
        };
        spent.steps += FIELD_STEPS;
        let scalar = match input.get_hinted(name) {
            None | Some(Value::Undefined) => return Some(Scalar::Missing),
            Some(Value::Array(_) | Value::Object(_)) => return None,
            Some(Value::Null) => Scalar::Null,
            Some(Value::Bool(b)) => Scalar::Bool(*b),
            Some(Value::Number(n)) => Scalar::Number(*n),
            Some(Value::String(text)) => Scalar::String(text),
        };
        // A value found is a sequence of one, charged as the tree walk charges it.
        spent.reads += 1;
        Some(scalar)
    }
}

/// A scalar a test compares: a literal, or a field's value where it is.
#[derive(Clone, Copy)]
enum Scalar<'v> {
    Missing,
    Null,
    Bool(bool),
    Number(f64),
    String(&'v Str),
}

impl Scalar<'_> {
    /// The scalar as the tree walk's value, for the comparisons it leaves to [`compare`].
    fn to_val(self) -> Val {
        match self {
            Scalar::Missing => Val::Undefined,
            Scalar::Null => Val::Null,
            Scalar::Bool(b) => Val::Bool(b),
            Scalar::Number(n) => Val::Number(n),
            Scalar::String(text) => Val::String(text.clone()),
        }
    }

    /// JSONata's truth of the scalar, as `and` and `or` read it.
    fn is_true(self) -> bool {
        match self {
            Scalar::Missing | Scalar::Null => false,
            Scalar::Bool(b) => b,
            Scalar::Number(n) => n != 0.0,
            Scalar::String(text) => !text.is_empty(),
        }
    }
}

/// A test's answer: a boolean, or no value (an ordering with no value on a side).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    True,
    False,
    NoValue,
}

impl Verdict {
    fn of(passed: bool) -> Verdict {
        if passed { Verdict::True } else { Verdict::False }
    }

    fn into_value(self) -> Value {
        match self {
            Verdict::True => Value::Bool(true),
            Verdict::False => Value::Bool(false),
            Verdict::NoValue => Value::Undefined,
        }
    }
}

/// What comparison `op` at `position` answers for `left` and `right`, as the tree walk.
fn compared(op: BinaryOp, left: Scalar<'_>, right: Scalar<'_>, position: usize) -> Result<Verdict> {
    match (op, left, right) {
        (BinaryOp::Equal | BinaryOp::NotEqual, Scalar::Missing, _)
        | (BinaryOp::Equal | BinaryOp::NotEqual, _, Scalar::Missing) => Ok(Verdict::False),
        (BinaryOp::Equal, ..) => Ok(Verdict::of(equal(left, right))),
        (BinaryOp::NotEqual, ..) => Ok(Verdict::of(!equal(left, right))),
        (_, Scalar::Number(l), Scalar::Number(r)) => Ok(Verdict::of(ordered(op, l.partial_cmp(&r)))),
        // No value on either side orders nothing: the answer is no value.
        _ => compare(op, &left.to_val(), &right.to_val())
            .map(|verdict| match verdict {
                Val::Bool(passed) => Verdict::of(passed),
                _ => Verdict::NoValue,
            })
            .map_err(|error| error.at(position).with_token(op.symbol())),
    }
}

/// Whether two scalars are equal, as `=` decides.
fn equal(left: Scalar<'_>, right: Scalar<'_>) -> bool {
    match (left, right) {
        (Scalar::Number(l), Scalar::Number(r)) => l == r,
        (Scalar::String(l), Scalar::String(r)) => l == r,
        _ => deep_equal(&left.to_val(), &right.to_val()),
    }
}

#[cfg(test)]
mod tests {
    use writ_core::{FixedHost, Limits, Meter, Value, parse_json};

    use super::QuickTest;
    use crate::eval::evaluate_root;
    use crate::parse::parse;

    const INPUT: &str = r#"{"on": true, "off": false, "n": 5, "z": 0, "s": "x", "e": "", "nul": null,
        "list": [1], "obj": {"k": 1}}"#;

    /// Tests of every form the quick path takes, and some it gives back to the tree walk.
    const TESTS: &[&str] = &[
        "n > 3",
        "n = 5",
        "n != 5",
        "5 <= n",
        "s = 'x'",
        "s != 'y'",
        "s < 'y'",
        "s >= 'x'",
        "on and n > 0",
        "off and n > 0",
        "off or n > 0",
        "on and missing",
        "missing or z",
        "e or s",
        "nul or on",
        "on and off or s = 'x' and n >= 5",
        "n >= 5 and (n <= 5 or missing)",
        "on and n > 0 and s = 'x' and nul = null",
        "on and n > 0 and s = 'y' and nul = null",
        "off or z or e or s = 'x'",
        "off or z or e or missing",
        "on and (off or n = 5) and s",
        "(on and off) or (n = 5 and s = 'x') or z",
        "on and n > 0 and s < 5",
        "missing = missing",
        "missing != 1",
        "n < missing",
        "missing > 'a' or n = 5",
        "on and n < missing",
        "nul = null",
        "on = true",
        "n = '5'",
        "1 = 1 and true",
        "s < 5",
        "nul < 1",
        "on > false",
        "off or s > 1",
        "list = 1",
        "obj = 1",
        "on and list",
        "on and obj",
        "n + 1 > 3",
    ];

    /// The answer, the steps and the allocation of the tree walk, under `limits`.
    fn walked(source: &str, input: &Value, limits: &Limits) -> (String, u64, u64) {
        let root = parse(source).expect("the test parses");
        let mut meter = Meter::starting_at_first_check(limits, None);
        let answer = evaluate_root(&root, input, std::iter::empty(), &mut meter, &FixedHost::default());
        (said(answer), meter.steps_used(), meter.allocated())
    }

    fn said(answer: crate::error::Result<Value>) -> String {
        match answer {
            Ok(value) => value.to_json_string().unwrap_or_else(|| "undefined".to_owned()),
            Err(error) => format!("{} {}", error.code(), error.message()),
        }
    }

    #[test]
    fn a_quick_test_answers_and_charges_as_the_tree_walk() {
        let input = parse_json(INPUT).expect("the input parses");
        let Value::Object(object) = &input else {
            panic!("an object")
        };
        let mut quick_answers = 0;
        for source in TESTS {
            let root = parse(source).expect("the test parses");
            let quick = QuickTest::of(&root);
            // Tight limits as well as none: where the quick path has no room, it gives the test
            // back, and the tree walk then fails where it always did.
            for steps in (1..=24).map(Some).chain([None]) {
                for max_depth in (1..=5).map(Some).chain([None]) {
                    for max_total_allocation in [Some(1), None] {
                        let limits = Limits {
                            steps,
                            max_depth,
                            max_total_allocation,
                            ..Limits::UNLIMITED
                        };
                        let expected = walked(source, &input, &limits);
                        let Some(quick) = &quick else { continue };
                        if let Some(fresh) = quick.run_fresh(object, &limits) {
                            assert_eq!(said(fresh), expected.0, "{source} with no meter under {limits:?}");
                        }
                        let mut meter = Meter::starting_at_first_check(&limits, None);
                        let Some(verdict) = quick.run(object, &mut meter) else {
                            assert_eq!(meter.steps_used(), 0, "{source}: gave back after charging");
                            continue;
                        };
                        quick_answers += 1;
                        let answer = said(verdict);
                        assert_eq!(
                            (answer, meter.steps_used(), meter.allocated()),
                            expected,
                            "{source} under {limits:?}"
                        );
                    }
                }
            }
        }
        assert!(
            quick_answers > 1000,
            "the quick path answered only {quick_answers} times"
        );
    }

    #[test]
    fn only_tests_that_always_answer_a_boolean_are_quick() {
        for source in [
            "n",
            "n + 1",
            "$x > 1",
            "a.b > 1",
            "n[0] > 1",
            "$count(list) > 0",
            "n > 1 ? true : false",
        ] {
            let root = parse(source).expect("the expression parses");
            assert!(QuickTest::of(&root).is_none(), "{source} was taken as a quick test");
        }
        for source in ["n > 1", "a and b", "a or b > 1 and c = 'x'"] {
            let root = parse(source).expect("the test parses");
            assert!(QuickTest::of(&root).is_some(), "{source} was not taken as a quick test");
        }
    }
}
