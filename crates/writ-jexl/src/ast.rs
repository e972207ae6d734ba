//! The expression tree: nodes in one arena, linked by index, built once by the parser.
//!
//! An arena rather than boxes: the tree is dropped as one vector whatever its depth, and the
//! parser can keep jexl's parent links beside it while it builds.

use std::sync::Arc;

use writ_core::{Shape, Str, Value};

use crate::lexer::BinaryOp;

/// The index of a node in [`Program::nodes`].
pub(crate) type NodeId = u32;

/// A host transform: the value before the `|`, then the arguments.
pub(crate) type TransformFn = dyn Fn(&Value, &[Value]) -> Result<Value, String> + Send + Sync;

/// A host function: the arguments.
pub(crate) type FunctionFn = dyn Fn(&[Value]) -> Result<Value, String> + Send + Sync;

/// The standard transforms writ provides by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Standard {
    /// `String(v).toUpperCase()`.
    Upper,
    /// `String(v).toLowerCase()`.
    Lower,
    /// `String(v).split(sep)`.
    Split,
    /// `v.join(sep)` for an array.
    Join,
    /// The length of a string or array.
    Length,
}

/// What a call resolves to.
#[derive(Clone)]
pub(crate) enum Callable {
    /// A host transform.
    Transform(Arc<TransformFn>),
    /// A host function.
    Function(Arc<FunctionFn>),
    /// One of writ's standard transforms, which charge the meter as they work.
    Standard(Standard),
}

/// Which registry a call looks in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pool {
    /// `x|name(…)`.
    Transforms,
    /// `name(…)`.
    Functions,
}

/// One node.
pub(crate) struct Node {
    /// What it computes.
    pub(crate) kind: Kind,
    /// The byte offset of the token that made it, for messages.
    pub(crate) position: u32,
}

/// What a node computes.
pub(crate) enum Kind {
    /// A string, number or boolean.
    Literal(Value),
    /// A name read from the context.
    Context(Str),
    /// A `.name` read from the element a filter is looking at (or the context outside one).
    Relative(Str),
    /// `from.name`, reading element 0 when `from` is an array.
    Member {
        /// The value read from.
        from: NodeId,
        /// The property.
        name: Str,
    },
    /// `!right`.
    Not(Option<NodeId>),
    /// `left op right`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        left: NodeId,
        /// The right operand (always present once parsing completes).
        right: Option<NodeId>,
    },
    /// `test ? consequent : alternate`, or `test ?: alternate`.
    Conditional {
        /// The test, absent when nothing preceded the `?` (`() ? 1 : 2`).
        test: Option<NodeId>,
        /// The value when the test is truthy; absent in `a ?: b`, which yields the test itself.
        consequent: Option<NodeId>,
        /// The value when it is falsy; absent when nothing follows the `:`.
        alternate: Option<NodeId>,
    },
    /// `subject[expr]`: a relative filter (the expression reads `.name`s of each element) or a
    /// static one (an index, a key, or a boolean).
    Filter {
        /// The value filtered.
        subject: NodeId,
        /// The bracketed expression, absent for `a[]`.
        expr: Option<NodeId>,
        /// True when the bracket holds a `.name` at its own level.
        relative: bool,
    },
    /// A transform or function call.
    Call {
        /// Which registry the name belongs to.
        pool: Pool,
        /// The name as written.
        name: Str,
        /// The arguments; for a transform, the value before the `|` comes first.
        args: Vec<NodeId>,
        /// What the engine had registered under the name when the expression was compiled.
        target: Option<Callable>,
    },
    /// `[a, b, …]`.
    Array(Vec<NodeId>),
    /// `{k: v, …}` with distinct keys in JavaScript's order.
    Object {
        /// The keys.
        keys: Vec<Str>,
        /// The key list built once, when the keys allow one.
        shape: Option<Shape>,
        /// One value per key, absent for `{k:}`.
        values: Vec<Option<NodeId>>,
    },
}

/// A parsed expression.
pub(crate) struct Program {
    /// Every node the parser made, some of them no longer reachable from the root.
    pub(crate) nodes: Vec<Node>,
    /// The root.
    pub(crate) root: NodeId,
}

impl Program {
    /// The node at `id`.
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        // Ids are made by the parser for this arena; a miss would be a parser bug.
        &self.nodes[id as usize]
    }

    /// The children of `kind`, for walks over the tree.
    pub(crate) fn children(kind: &Kind) -> Vec<NodeId> {
        match kind {
            Kind::Literal(_) | Kind::Context(_) | Kind::Relative(_) => Vec::new(),
            Kind::Member { from, .. } => vec![*from],
            Kind::Not(right) => right.iter().copied().collect(),
            Kind::Binary { left, right, .. } => std::iter::once(*left).chain(*right).collect(),
            Kind::Conditional {
                test,
                consequent,
                alternate,
                ..
            } => test.iter().chain(consequent).chain(alternate).copied().collect(),
            Kind::Filter { subject, expr, .. } => std::iter::once(*subject).chain(*expr).collect(),
            Kind::Call { args, .. } | Kind::Array(args) => args.clone(),
            Kind::Object { values, .. } => values.iter().flatten().copied().collect(),
        }
    }

    /// The nodes reachable from the root, in arena order (the order their tokens were written).
    pub(crate) fn reachable(&self) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut pending = vec![self.root];
        while let Some(id) = pending.pop() {
            if let Some(flag) = seen.get_mut(id as usize)
                && !*flag
            {
                *flag = true;
                pending.extend(Program::children(&self.node(id).kind));
            }
        }
        (0..self.nodes.len())
            .filter(|&idx| seen.get(idx).copied().unwrap_or(false))
            .filter_map(|idx| NodeId::try_from(idx).ok())
            .collect()
    }
}
