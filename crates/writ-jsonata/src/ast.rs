//! The syntax tree the parser hands the evaluator, after JSONata's post-parse stage: dotted
//! chains are flattened into [`Kind::Path`] steps, `[…]` after a step is a [`Stage`] or a
//! predicate, `{…}` after an expression is a [`Group`], `^(…)` is a [`Kind::Sort`] step,
//! `@`/`#` are marks on a step, and each `%` is resolved to the step whose item it names.
//!
//! The tree is immutable and `Send + Sync`: one compiled expression serves any number of
//! evaluations on any threads.

use std::sync::Arc;

use writ_core::{HintedKey, Str};

use crate::regex::Pattern;
use crate::signature::Signature;

/// One node.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// What the node is.
    pub(crate) kind: Kind,
    /// The character offset just past the node's token, as jsonata-js reports positions.
    pub(crate) position: usize,
    /// Filters applied to this node's result when it is not a path step (jsonata's
    /// `predicate`).
    pub(crate) predicate: Vec<Stage>,
    /// Filters and `#` index bindings applied to each input item's result when this node is a
    /// path step (jsonata's `stages`).
    pub(crate) stages: Vec<Stage>,
    /// A group-by object constructor after this node (`expr{k: v}`).
    pub(crate) group: Option<Box<Group>>,
    /// `@$name`: the step binds each item to `$name` and keeps the context.
    pub(crate) focus: Option<Str>,
    /// `#$name`: the step binds each item's position to `$name`.
    pub(crate) index: Option<Str>,
    /// The step takes part in a tuple stream (it binds, or a `%` reaches back to it).
    pub(crate) tuple: bool,
    /// The `%` label that names this step's items, when a `%` reaches back to it (every `%`
    /// that reaches this step shares the one label).
    pub(crate) ancestor: Option<Label>,
    /// `[]` after this step: keep a singleton result as an array.
    pub(crate) keep_array: bool,
    /// An array constructor that is the first or last step of a path: never flattened.
    pub(crate) cons_array: bool,
    /// On a path: some step has `keep_array`.
    pub(crate) keep_singleton_array: bool,
    /// On a block: some expression binds a variable (`:=`) in the block's own scope, so the
    /// block needs one.
    pub(crate) scoped: bool,
    /// On an object constructor whose keys are all written as distinct strings (none an array
    /// index): the key list its objects share, made once.
    pub(crate) shape: Option<writ_core::Shape>,
    /// Set by the parser's last pass where the evaluator may walk the input by reference: on a
    /// field step with nothing attached but filters it can test in place, and on a path of
    /// such steps (after a variable, if it starts with one) with nothing attached to it.
    pub(crate) walkable: bool,
}

/// A `%` label: the name under which a tuple binds an ancestor item (`!0`, `!1`, …, which no
/// variable can be called).
pub(crate) type Label = Str;

/// What a node is.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// A location path of steps, in order.
    Path(Vec<Node>),
    /// A binary operator.
    Binary(BinaryOp, Box<Node>, Box<Node>),
    /// Unary minus.
    Negate(Box<Node>),
    /// An array constructor `[a, b, …]`.
    Array(Vec<Node>),
    /// An object constructor `{k: v, …}` with no expression before it.
    Object(Vec<(Node, Node)>),
    /// A field name (also a quoted name, or a string literal used as a step), with where it
    /// was last found, so a read over objects of one shape takes no scan.
    Name(HintedKey),
    /// A string literal.
    String(Str),
    /// A number literal.
    Number(f64),
    /// `true`, `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `*`.
    Wildcard,
    /// `**`.
    Descendant,
    /// `%`: the parent of the current item, bound under this label by the tuple stream.
    Parent(Label),
    /// `c ? a : b` (the `else` may be missing).
    Condition(Box<Node>, Box<Node>, Option<Box<Node>>),
    /// `a ?: b`: `a` if it is truthy, else `b`.
    Elvis(Box<Node>, Box<Node>),
    /// `a ?? b`: `a` if it has a value, else `b`.
    Coalesce(Box<Node>, Box<Node>),
    /// `(a; b; …)`.
    Block(Vec<Node>),
    /// `$name := value` (the name without `$`).
    Bind(Str, Box<Node>),
    /// A regular-expression literal.
    Regex(Arc<Pattern>),
    /// A function call `f(args)`.
    Call(Call),
    /// A partial application `f(a, ?, b)`.
    Partial(Call),
    /// The `?` placeholder of a partial application.
    Placeholder,
    /// `$name`; `""` is `$` (the context), `"$"` is `$$` (the root).
    Variable(Str),
    /// `function($a, …) <sig> { body }` (also `λ`).
    Lambda(Arc<Lambda>),
    /// `a ~> f`: function application / chaining.
    Apply(Box<Node>, Box<Node>),
    /// `| pattern | update, delete |`: evaluates to a function of one object.
    Transform(Arc<Transform>),
    /// `^(terms)` as a path step.
    Sort(Vec<SortTerm>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `/`
    Divide,
    /// `%`
    Modulo,
    /// `=`
    Equal,
    /// `!=`
    NotEqual,
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterEqual,
    /// `&`
    Concat,
    /// `and`
    And,
    /// `or`
    Or,
    /// `in`
    In,
    /// `..`
    Range,
}

impl BinaryOp {
    /// True for `=`, `!=`, `<`, `<=`, `>` and `>=`.
    pub(crate) fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Equal
                | BinaryOp::NotEqual
                | BinaryOp::Less
                | BinaryOp::LessEqual
                | BinaryOp::Greater
                | BinaryOp::GreaterEqual
        )
    }

    /// The operator as written.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
            BinaryOp::Equal => "=",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessEqual => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::Concat => "&",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::In => "in",
            BinaryOp::Range => "..",
        }
    }
}

/// A call or partial application.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    /// What is called (a variable, a path, a lambda, …).
    pub(crate) procedure: Box<Node>,
    /// The arguments; in a partial application, some are [`Kind::Placeholder`].
    pub(crate) args: Vec<Node>,
    /// The built-in a `$name` procedure names, found once at parse (a binding of the same name
    /// still takes precedence at run time).
    pub(crate) builtin: Option<(&'static crate::functions::Builtin, &'static Signature)>,
}

/// A lambda's definition.
#[derive(Debug)]
pub(crate) struct Lambda {
    /// Parameter names, without `$`.
    pub(crate) params: Vec<Str>,
    /// The `<…>` signature, if written.
    pub(crate) signature: Option<Signature>,
    /// The body.
    pub(crate) body: Node,
    /// A thunk the parser made for a call in tail position: evaluated by the trampoline.
    pub(crate) thunk: bool,
}

/// The parts of a transform `| pattern | update, delete |`.
#[derive(Debug)]
pub(crate) struct Transform {
    /// Selects the objects to change, within a copy of the argument.
    pub(crate) pattern: Node,
    /// Evaluated on each selected object: an object whose keys are merged into it.
    pub(crate) update: Node,
    /// Evaluated on each selected object: a key or array of keys to remove.
    pub(crate) delete: Option<Node>,
}

/// One `[…]` filter or `#$i` binding on a step, with the position jsonata-js gives it (which
/// only the parser's tests read, pinning the tree against jsonata-js's).
#[derive(Debug, Clone)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the positions are pinned by the parser's tests")
)]
pub(crate) enum Stage {
    /// `[expr]`: a predicate, or an index when it evaluates to a number.
    Filter(Node, usize),
    /// `#$name`, after a filter.
    Index(Str, usize),
}

/// A group-by: `{key: value, …}` after an expression.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    /// The key and value expressions.
    pub(crate) pairs: Vec<(Node, Node)>,
    /// Where the `{` is.
    pub(crate) position: usize,
}

/// One term of an order-by.
#[derive(Debug, Clone)]
pub(crate) struct SortTerm {
    /// `>` before the expression.
    pub(crate) descending: bool,
    /// The sort key.
    pub(crate) expression: Node,
}

impl Node {
    /// A node of `kind` at `position` with no marks.
    pub(crate) fn new(kind: Kind, position: usize) -> Node {
        Node {
            kind,
            position,
            predicate: Vec::new(),
            stages: Vec::new(),
            group: None,
            focus: None,
            index: None,
            tuple: false,
            ancestor: None,
            keep_array: false,
            cons_array: false,
            keep_singleton_array: false,
            scoped: true,
            shape: None,
            walkable: false,
        }
    }
}
