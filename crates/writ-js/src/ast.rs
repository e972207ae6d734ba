//! The checked tree the interpreter runs.
//!
//! The parser lowers oxc's tree into this one after every allow-list check has passed, so
//! everything here is in the language: names are resolved to parameter slots or free-name
//! indices, written method names are resolved against the method tables, and host calls sit
//! only where a call may be the result. Nothing is re-checked or re-parsed per evaluation.

use writ_core::{HintedKey, Shape, Str, Value};

use crate::tables::{ArrayMethod, NumberMethod, Static, StringMethod};

/// A parsed, checked expression, ready to run any number of times.
#[derive(Debug)]
pub(crate) struct Program {
    /// The expression.
    pub(crate) root: Expr,
    /// Nodes in the whole tree, charged as steps at the start of each evaluation.
    pub(crate) node_count: u32,
    /// Every free name (not an arrow parameter), in order of first appearance; [`Expr::Free`]
    /// indexes this list. Globals and host function names are included.
    pub(crate) free_names: Box<[HintedKey]>,
    /// The host functions the expression calls, in order of first appearance: indices into the
    /// evaluator's function list.
    pub(crate) host_calls: Box<[u32]>,
}

#[cfg(test)]
impl Program {
    /// A program with nothing in it, for tests that run built-ins under a `Cx` directly.
    pub(crate) fn empty() -> Program {
        Program {
            root: Expr::Const(Value::Null),
            node_count: 1,
            free_names: Box::new([]),
            host_calls: Box::new([]),
        }
    }
}

/// One expression node.
#[derive(Debug)]
pub(crate) enum Expr {
    /// A number, string, boolean or null literal.
    Const(Value),
    /// A template literal: `quasis.len() == exprs.len() + 1`, cooked text.
    Template(Box<Template>),
    /// A free name, looked up in the contexts and then among the globals at run time.
    Free(u32),
    /// An arrow parameter, or a name bound by destructuring one.
    Local(Local),
    /// A parameter read before it is bound: a default that reads its own parameter or a later
    /// one. Evaluated, it throws JavaScript's ReferenceError (the temporal dead zone).
    Uninitialized(Str),
    /// `object.name`, `object[key]`, `object?.name`, `object?.[key]`.
    Member(Box<Member>),
    /// A call.
    Call(Box<Call>),
    /// The extent of an optional chain: a short circuit inside gives `undefined` here.
    Chain(Box<Expr>),
    /// A prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// An arithmetic, equality or relational operator.
    Binary(BinaryOp, Box<[Expr; 2]>),
    /// `&&`, `||`, `??`.
    Logical(LogicalOp, Box<[Expr; 2]>),
    /// `test ? consequent : alternate`.
    Conditional(Box<[Expr; 3]>),
    /// An array literal.
    Array(Box<[Element]>),
    /// An object literal.
    Object(Box<[Prop]>),
    /// An object literal whose keys are all written, distinct and not array indices: the
    /// common case, built from a key list prepared at parse time.
    Record(Box<Record>),
    /// A call of a host function. The parser puts it only where a call may be the result: the
    /// root, a branch of `?:`, or the right side of `&&`, `||`, `??`, recursively.
    HostCall(Box<HostCall>),
}

/// The parts of a template literal.
#[derive(Debug)]
pub(crate) struct Template {
    /// The literal text around the substitutions, cooked (escapes applied).
    pub(crate) quasis: Box<[Str]>,
    /// The substitutions.
    pub(crate) exprs: Box<[Expr]>,
}

/// Where an arrow parameter lives: the arrow's nesting depth (0 for the outermost arrow) and
/// the slot in its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Local {
    /// How many arrows enclose the binding arrow.
    pub(crate) depth: u16,
    /// The slot in that arrow's frame.
    pub(crate) slot: u16,
}

/// A property read.
#[derive(Debug)]
pub(crate) struct Member {
    /// The receiver.
    pub(crate) object: Expr,
    /// The property.
    pub(crate) property: Property,
    /// `?.`: a nullish receiver ends the enclosing [`Expr::Chain`] with `undefined`.
    pub(crate) optional: bool,
}

/// Which property a [`Member`] reads.
#[derive(Debug)]
pub(crate) enum Property {
    /// A written name (`a.b`) or a string literal key (`a["b"]`) that is not an array index.
    Named(HintedKey),
    /// A canonical array index, written (`a[0]`, `a["0"]`).
    Index(u32),
    /// A computed key (`a[k]`).
    Computed(Expr),
}

/// A call.
#[derive(Debug)]
pub(crate) struct Call {
    /// What is called.
    pub(crate) callee: Callee,
    /// The arguments, in order.
    pub(crate) args: Box<[Arg]>,
}

/// What a [`Call`] calls.
#[derive(Debug)]
pub(crate) enum Callee {
    /// `receiver.name(…)`, `receiver[key](…)`, `receiver?.name(…)`.
    Method {
        /// The receiver.
        receiver: Expr,
        /// The method.
        method: MethodKey,
        /// `?.` before the method: a nullish receiver ends the chain with `undefined`.
        optional: bool,
    },
    /// A bare call of a free name: a callable global unless a context shadows it.
    Free(u32),
    /// Any other callee, such as an arrow parameter: never a function at run time.
    Value(Expr),
}

/// A method as written.
#[derive(Debug)]
pub(crate) enum MethodKey {
    /// A written name, resolved against the tables once at parse time.
    Named(Box<MethodName>),
    /// A computed name, looked up in the tables when the call runs.
    Computed(Expr),
}

/// A written method name with its table entries for each receiver kind.
#[derive(Debug)]
pub(crate) struct MethodName {
    /// The name as written.
    pub(crate) text: Str,
    /// The array method of that name.
    pub(crate) array: Option<ArrayMethod>,
    /// The string method of that name.
    pub(crate) string: Option<StringMethod>,
    /// The number method of that name.
    pub(crate) number: Option<NumberMethod>,
    /// The namespace function of that name, when the receiver is written as a namespace
    /// global (`Math.max`) and so may resolve to it.
    pub(crate) statik: Option<Static>,
}

/// One argument of a call.
#[derive(Debug)]
pub(crate) enum Arg {
    /// An ordinary argument.
    Value(Expr),
    /// `...items`.
    Spread(Expr),
    /// An arrow, written where the method takes its callback.
    Lambda(Box<Lambda>),
    /// A free name written where the method takes its callback (`rows.filter(Boolean)`): the
    /// global, called with the item alone, unless a context shadows the name.
    GlobalCallback(u32),
}

/// An arrow function written as a callback.
#[derive(Debug)]
pub(crate) struct Lambda {
    /// The parameters, at most five.
    pub(crate) params: Box<[Pattern]>,
    /// The expression body.
    pub(crate) body: Expr,
    /// Slots in the arrow's frame: one per name its parameters bind.
    pub(crate) frame_size: u16,
    /// Nodes in the arrow (parameters and body), charged as steps per invocation.
    pub(crate) node_count: u32,
    /// Every parameter is a plain name: binding fills each slot of the frame, in order, so
    /// no slot can be read before it is bound.
    pub(crate) simple: bool,
}

/// A binding pattern in an arrow's parameter list.
#[derive(Debug)]
pub(crate) enum Pattern {
    /// A plain name, bound to this slot of the arrow's frame.
    Slot(u16),
    /// `{ a, b: c, [k]: d, ...rest }`.
    Object {
        /// The properties, in order.
        props: Box<[PatternProp]>,
        /// `...rest`: the remaining own keys, in this slot.
        rest: Option<u16>,
    },
    /// `[a, , b, ...rest]`; `None` is an elision.
    Array {
        /// The items, in order.
        items: Box<[Option<Pattern>]>,
        /// `...rest`.
        rest: Option<Box<Pattern>>,
    },
    /// `target = default`: the default is evaluated when the value is `undefined`.
    Default(Box<Pattern>, Box<Expr>),
}

/// One property of an object pattern.
#[derive(Debug)]
pub(crate) struct PatternProp {
    /// The key read from the value.
    pub(crate) key: PropKey,
    /// Where it is bound.
    pub(crate) value: Pattern,
}

/// An object literal with a fixed key list.
#[derive(Debug)]
pub(crate) struct Record {
    /// The keys, in order.
    pub(crate) shape: Shape,
    /// One value per key, in the same order.
    pub(crate) values: Box<[Expr]>,
}

/// One element of an array literal.
#[derive(Debug)]
pub(crate) enum Element {
    /// An ordinary item.
    Item(Expr),
    /// `...items`.
    Spread(Expr),
}

/// One member of an object literal.
#[derive(Debug)]
pub(crate) enum Prop {
    /// `key: value`, or the shorthand `key`.
    Init(PropKey, Expr),
    /// `...object`.
    Spread(Expr),
}

/// A key in an object literal or pattern.
#[derive(Debug)]
pub(crate) enum PropKey {
    /// A written name, string or number literal, as its property-key text.
    Static(Str),
    /// `[expr]`.
    Computed(Expr),
}

/// A call of a host function.
#[derive(Debug)]
pub(crate) struct HostCall {
    /// The index of the function in the evaluator's list.
    pub(crate) function: u32,
    /// The single argument, if written.
    pub(crate) argument: Option<Expr>,
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnaryOp {
    /// `!`.
    Not,
    /// `-`.
    Neg,
    /// `+`.
    Plus,
    /// `typeof`.
    Typeof,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
    /// `**`.
    Exp,
    /// `==`.
    LooseEq,
    /// `!=`.
    LooseNe,
    /// `===`.
    StrictEq,
    /// `!==`.
    StrictNe,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// Short-circuit operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogicalOp {
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `??`.
    Coalesce,
}
