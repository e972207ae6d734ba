//! The parser: jexl 2.3's state machine, token by token, over an explicit stack.
//!
//! jexl-js parses with a table of states: each state lists the token kinds it accepts, the
//! handler that places each in the tree, and the state that follows; a bracketed part (a group,
//! a filter, an argument, an element, a ternary branch) is parsed by a nested parser that stops
//! at the tokens its parent names. The tree is built around a cursor, with parent links that
//! binary operators climb to find their left operand. This module keeps the same states,
//! handlers and cursor moves, so every expression parses to the tree jexl-js builds (its quirks
//! included: `a.b(1)` calls `b`, `(x)[0]` is refused, a `.name` inside parentheses in a filter
//! does not make the filter relative). The nested parsers live on a vector rather than the call
//! stack, and nesting is capped, so no source can overflow the stack.

use std::collections::HashMap;

use writ_core::{Bound, BudgetExceeded, Shape, Str};

use crate::ast::{Kind, Node, NodeId, Pool, Program};
use crate::error::{Code, Error, Result};
use crate::lexer::{BinaryOp, Tok, Token, tokenize};

/// The parser's states, as jexl names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before a value.
    ExpectOperand,
    /// After a value that cannot be indexed: a literal, a group, an array or object literal.
    ExpectBinOp,
    /// After `|`.
    ExpectTransform,
    /// After `{` or a `,` in an object literal.
    ExpectObjKey,
    /// After an object key.
    ExpectKeyValSep,
    /// After a transform's name.
    PostTransform,
    /// After a call's `)`.
    PostArgs,
    /// After a name or a filter's `]`.
    Identifier,
    /// After a `.`.
    Traverse,
    /// Inside `[…]` after a value.
    Filter,
    /// Inside `(…)`.
    SubExpression,
    /// Inside a call's parentheses.
    ArgVal,
    /// After an object key's `:`.
    ObjVal,
    /// Inside an array literal.
    ArrayVal,
    /// After `?`.
    TernaryMid,
    /// After the ternary's `:`.
    TernaryEnd,
}

/// Token kinds, for the state tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokKind {
    /// A literal.
    Literal,
    /// A name.
    Identifier,
    /// A binary operator.
    BinaryOp,
    /// `!`.
    UnaryOp,
    /// `.`.
    Dot,
    /// `[`.
    OpenBracket,
    /// `]`.
    CloseBracket,
    /// `|`.
    Pipe,
    /// `{`.
    OpenCurl,
    /// `}`.
    CloseCurl,
    /// `:`.
    Colon,
    /// `,`.
    Comma,
    /// `(`.
    OpenParen,
    /// `)`.
    CloseParen,
    /// `?`.
    Question,
    /// A name found on `Object.prototype`: accepted nowhere.
    Untyped,
}

/// The kind of `tok`.
fn kind_of(tok: &Tok) -> TokKind {
    match tok {
        Tok::Literal(_) => TokKind::Literal,
        Tok::Identifier(_) => TokKind::Identifier,
        Tok::Binary(_) => TokKind::BinaryOp,
        Tok::Not => TokKind::UnaryOp,
        Tok::Dot => TokKind::Dot,
        Tok::OpenBracket => TokKind::OpenBracket,
        Tok::CloseBracket => TokKind::CloseBracket,
        Tok::Pipe => TokKind::Pipe,
        Tok::OpenCurl => TokKind::OpenCurl,
        Tok::CloseCurl => TokKind::CloseCurl,
        Tok::Colon => TokKind::Colon,
        Tok::Comma => TokKind::Comma,
        Tok::OpenParen => TokKind::OpenParen,
        Tok::CloseParen => TokKind::CloseParen,
        Tok::Question => TokKind::Question,
        Tok::Inherited => TokKind::Untyped,
    }
}

/// What a state does with a token it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handler {
    /// Nothing but the state change.
    None,
    /// The token kind's own handler (literal, identifier, binary or unary operator, dot).
    Default,
    /// `{`: start an object literal.
    ObjStart,
    /// `[` before a value: start an array literal.
    ArrayStart,
    /// `?`: make the tree so far the test of a conditional.
    TernaryStart,
    /// A name after `|`.
    Transform,
    /// A name in an object literal.
    ObjKey,
    /// `(` after a name.
    FunctionCall,
}

/// The handler and next state for `kind` in `state`, or `None` when `state` does not take it.
fn transition(state: State, kind: TokKind) -> Option<(Handler, Option<State>)> {
    use Handler as H;
    use State as S;
    use TokKind as K;
    let to = |handler, state| Some((handler, Some(state)));
    match (state, kind) {
        (S::ExpectOperand, K::Literal) => to(H::Default, S::ExpectBinOp),
        (S::ExpectOperand, K::Identifier) => to(H::Default, S::Identifier),
        (S::ExpectOperand, K::UnaryOp) => Some((H::Default, None)),
        (S::ExpectOperand, K::OpenParen) => to(H::None, S::SubExpression),
        (S::ExpectOperand, K::OpenCurl) => to(H::ObjStart, S::ExpectObjKey),
        (S::ExpectOperand, K::Dot) => to(H::Default, S::Traverse),
        (S::ExpectOperand, K::OpenBracket) => to(H::ArrayStart, S::ArrayVal),
        (S::ExpectBinOp, K::BinaryOp) => to(H::Default, S::ExpectOperand),
        (S::ExpectBinOp, K::Pipe) => to(H::None, S::ExpectTransform),
        (S::ExpectBinOp, K::Dot) => to(H::Default, S::Traverse),
        (S::ExpectBinOp, K::Question) => to(H::TernaryStart, S::TernaryMid),
        (S::ExpectTransform, K::Identifier) => to(H::Transform, S::PostTransform),
        (S::ExpectObjKey, K::Identifier) => to(H::ObjKey, S::ExpectKeyValSep),
        (S::ExpectObjKey, K::CloseCurl) => to(H::None, S::ExpectBinOp),
        (S::ExpectKeyValSep, K::Colon) => to(H::None, S::ObjVal),
        (S::PostTransform, K::OpenParen) => to(H::None, S::ArgVal),
        (S::PostTransform | S::PostArgs | S::Identifier, K::BinaryOp) => to(H::Default, S::ExpectOperand),
        (S::PostTransform | S::PostArgs | S::Identifier, K::Dot) => to(H::Default, S::Traverse),
        (S::PostTransform | S::PostArgs | S::Identifier, K::OpenBracket) => to(H::None, S::Filter),
        (S::PostTransform | S::PostArgs | S::Identifier, K::Pipe) => to(H::None, S::ExpectTransform),
        (S::Identifier, K::OpenParen) => to(H::FunctionCall, S::ArgVal),
        (S::Identifier, K::Question) => to(H::TernaryStart, S::TernaryMid),
        (S::Traverse, K::Identifier) => to(H::Default, S::Identifier),
        _ => None,
    }
}

impl State {
    /// True for states whose tokens go to a nested parser.
    fn is_sub(self) -> bool {
        matches!(
            self,
            State::Filter
                | State::SubExpression
                | State::ArgVal
                | State::ObjVal
                | State::ArrayVal
                | State::TernaryMid
                | State::TernaryEnd
        )
    }

    /// True where the expression may end.
    fn completable(self) -> bool {
        matches!(
            self,
            State::ExpectBinOp | State::PostTransform | State::PostArgs | State::Identifier | State::TernaryEnd
        )
    }

    /// The tokens that end a nested parser started in this state, and the state each leads
    /// to; `None` for the ternary's last branch, which ends where its parent ends.
    fn end_states(self) -> Option<&'static [(TokKind, State)]> {
        Some(match self {
            State::Filter => &[(TokKind::CloseBracket, State::Identifier)],
            State::SubExpression => &[(TokKind::CloseParen, State::ExpectBinOp)],
            State::ArgVal => &[(TokKind::Comma, State::ArgVal), (TokKind::CloseParen, State::PostArgs)],
            State::ObjVal => &[
                (TokKind::Comma, State::ExpectObjKey),
                (TokKind::CloseCurl, State::ExpectBinOp),
            ],
            State::ArrayVal => &[
                (TokKind::Comma, State::ArrayVal),
                (TokKind::CloseBracket, State::ExpectBinOp),
            ],
            State::TernaryMid => &[(TokKind::Colon, State::TernaryEnd)],
            _ => return None,
        })
    }

    /// What a message says the parser wanted in this state.
    fn expected(self) -> &'static str {
        match self {
            State::ExpectOperand => "a value: a literal, a name, '.name', '!', '(', '[' or '{'",
            State::ExpectBinOp => {
                "an operator, '|', '.name' or '?' (a literal, group or list cannot be indexed with '[')"
            }
            State::ExpectTransform => "a transform name after '|'",
            State::ExpectObjKey => "an object key (a bare name) or '}'",
            State::ExpectKeyValSep => "':' after the object key",
            State::PostTransform => "an operator, '(', '.name', '[', or '|' (wrap 'x|t' in parentheses before '?')",
            State::PostArgs => "an operator, '.name', '[', or '|' (wrap the call in parentheses before '?')",
            State::Identifier => "an operator, '.name', '[', '(', '|' or '?'",
            State::Traverse => "a name after '.'",
            State::Filter => "']' to close the filter",
            State::SubExpression => "')' to close the group",
            State::ArgVal => "',' or ')' in the argument list",
            State::ObjVal => "',' or '}' in the object literal",
            State::ArrayVal => "',' or ']' in the array literal",
            State::TernaryMid => "':' for the ternary",
            State::TernaryEnd => "the rest of the ternary",
        }
    }
}

/// One parser: the top-level one, or one nested for a bracketed part.
struct Frame {
    /// Where the machine is.
    state: State,
    /// The tree this parser built.
    tree: Option<NodeId>,
    /// The node the next operand attaches to.
    cursor: Option<NodeId>,
    /// Set by `.` when the next name reads a property of the cursor.
    next_member: bool,
    /// Set by `.` when the next name is relative.
    next_relative: bool,
    /// True once a relative name was parsed at this level.
    relative: bool,
    /// The object key waiting for its value.
    object_key: Option<Str>,
    /// The tokens on which this parser hands control back, and the state it hands back.
    stops: &'static [(TokKind, State)],
    /// True when this parser passes its nested parser's stop on to its own parent.
    parent_stop: bool,
}

impl Frame {
    /// A fresh parser that stops on `stops`.
    fn new(stops: &'static [(TokKind, State)]) -> Frame {
        Frame {
            state: State::ExpectOperand,
            tree: None,
            cursor: None,
            next_member: false,
            next_relative: false,
            relative: false,
            object_key: None,
            stops,
            parent_stop: false,
        }
    }
}

/// Parse-time node: the node and jexl's parent link.
struct Builder<'s> {
    /// The source, for messages.
    source: &'s str,
    /// The nodes made so far.
    nodes: Vec<Node>,
    /// Each node's parent link.
    parents: Vec<Option<NodeId>>,
    /// How many parsers enclosed the one that made each node.
    frame_depths: Vec<usize>,
    /// Where each key of each object literal is, so a repeated key is found at once.
    object_keys: HashMap<(NodeId, Str), usize>,
    /// The top-level parser and the nested ones, innermost last.
    frames: Vec<Frame>,
    /// The most parsers that may be nested.
    max_nesting: usize,
}

/// Parses `source` into a program whose tree is at most `max_depth` levels deep.
///
/// # Errors
///
/// `jexl-syntax` when the source does not lex or parse, is empty, or nests too deeply.
pub(crate) fn parse(source: &str, max_depth: usize) -> Result<Program> {
    let tokens = tokenize(source)?;
    let mut builder = Builder {
        source,
        nodes: Vec::with_capacity(tokens.len()),
        parents: Vec::with_capacity(tokens.len()),
        frame_depths: Vec::with_capacity(tokens.len()),
        object_keys: HashMap::new(),
        frames: vec![Frame::new(&[])],
        max_nesting: max_depth,
    };
    for token in tokens {
        builder.add_token(token)?;
    }
    let root = builder.complete()?;
    let Some(root) = root else {
        return Err(Error::syntax(
            0,
            "the expression is empty: write a value to compute, such as 'order.total > 100'",
        ));
    };
    if builder.deeper_than(root, max_depth) {
        return Err(too_deep(max_depth));
    }
    // Each object literal's key list, built once now that its keys are known.
    for node in &mut builder.nodes {
        if let Kind::Object { keys, shape, .. } = &mut node.kind {
            *shape = Shape::new(keys);
        }
    }
    Ok(Program {
        nodes: builder.nodes,
        root,
    })
}

/// The error for an expression nested past the depth limit: a budget error, since the limit
/// is one of the evaluation's [`writ_core::Limits`].
fn too_deep(max_depth: usize) -> Error {
    Error::from(BudgetExceeded {
        bound: Bound::Depth,
        limit: max_depth as u64,
    })
}

impl Builder<'_> {
    /// The frame at `idx`.
    fn frame(&mut self, idx: usize) -> Result<&mut Frame> {
        self.frames.get_mut(idx).ok_or_else(internal)
    }

    /// Feeds one token to the innermost parser that takes tokens, and hands a stop back up.
    fn add_token(&mut self, token: Token) -> Result<()> {
        let mut idx = 0;
        while self.frame(idx)?.state.is_sub() {
            if idx + 1 == self.frames.len() {
                self.start_sub(idx)?;
            }
            idx += 1;
        }
        let Some(stop) = self.handle(idx, &token)? else {
            return Ok(());
        };
        // The frame at `idx` stopped: its parent ends it, then takes the stop's state or, for
        // a ternary's last branch, passes the stop on to its own parent.
        loop {
            let parent = idx.checked_sub(1).ok_or_else(internal)?;
            self.end_sub(parent, true)?;
            if self.frame(parent)?.parent_stop {
                idx = parent;
                continue;
            }
            self.frame(parent)?.state = stop;
            return Ok(());
        }
    }

    /// Starts a nested parser for the frame at `idx`.
    fn start_sub(&mut self, idx: usize) -> Result<()> {
        // A node inside the new parser would be deeper than the cap.
        if self.frames.len() >= self.max_nesting {
            return Err(too_deep(self.max_nesting));
        }
        let frame = self.frame(idx)?;
        let stops = match frame.state.end_states() {
            Some(stops) => stops,
            None => {
                frame.parent_stop = true;
                frame.stops
            }
        };
        self.frames.push(Frame::new(stops));
        Ok(())
    }

    /// Lets the frame at `idx` handle `token`; returns the state to hand back when it stops.
    fn handle(&mut self, idx: usize, token: &Token) -> Result<Option<State>> {
        let kind = kind_of(&token.tok);
        let state = self.frame(idx)?.state;
        if let Some((handler, next)) = transition(state, kind) {
            self.run(idx, handler, token)?;
            if let Some(next) = next {
                self.frame(idx)?.state = next;
            }
            return Ok(None);
        }
        if let Some(&(_, stop)) = self.frame(idx)?.stops.iter().find(|(stop, _)| *stop == kind) {
            return Ok(Some(stop));
        }
        let text = self.source.get(token.start..token.end).unwrap_or("");
        Err(Error::syntax(
            token.start,
            format!(
                "unexpected {} '{text}' at byte {}: expected {}",
                token.tok.describe(),
                token.start,
                state.expected()
            ),
        ))
    }

    /// Ends the nested parser of the frame at `parent` and gives its tree to the parent's
    /// handler for the state it is in; `check` asks whether the nested parser may end there
    /// (the final completion checks every parser before any handler runs, as jexl-js does).
    fn end_sub(&mut self, parent: usize, check: bool) -> Result<()> {
        if self.frames.len() != parent + 2 {
            return Err(internal());
        }
        let sub = self.frames.pop().ok_or_else(internal)?;
        if check && sub.cursor.is_some() && !sub.state.completable() {
            return Err(self.ends_early(sub.state));
        }
        let ast = if sub.cursor.is_some() { sub.tree } else { None };
        self.sub_handler(parent, ast, sub.relative)
    }

    /// The error for a part that ends before it is complete.
    fn ends_early(&self, state: State) -> Error {
        Error::syntax(
            self.source.len(),
            format!(
                "the expression ends too early at byte {}: expected {}",
                self.source.len(),
                state.expected()
            ),
        )
    }

    /// Completes the top-level parser and every nested one still open, innermost first.
    fn complete(&mut self) -> Result<Option<NodeId>> {
        for frame in &self.frames {
            if frame.cursor.is_some() && !frame.state.completable() {
                return Err(self.ends_early(frame.state));
            }
        }
        while self.frames.len() > 1 {
            let parent = self.frames.len() - 2;
            self.end_sub(parent, false)?;
        }
        let root = self.frame(0)?;
        Ok(if root.cursor.is_some() { root.tree } else { None })
    }

    /// Adds a node and returns its id.
    fn push(&mut self, kind: Kind, position: usize) -> Result<NodeId> {
        let id = NodeId::try_from(self.nodes.len()).map_err(|_| {
            Error::syntax(
                position,
                "the expression is too long: split it into smaller expressions",
            )
        })?;
        self.nodes.push(Node {
            kind,
            position: u32::try_from(position).unwrap_or(u32::MAX),
        });
        self.parents.push(None);
        self.frame_depths.push(self.frames.len() - 1);
        Ok(id)
    }

    /// True when the tree below `root` nests deeper than `cap`, counting both the nodes on a
    /// path and the brackets around them (a node made inside `k` nested brackets is at least
    /// `k + 1` deep, so `((x))` is 3 deep and `(!!x)` is 4). Walked without recursion, and
    /// stopped as soon as the answer is known.
    fn deeper_than(&self, root: NodeId, cap: usize) -> bool {
        let brackets = |id: NodeId| self.frame_depths.get(id as usize).copied().unwrap_or(0);
        let mut pending = vec![(root, brackets(root) + 1)];
        while let Some((id, depth)) = pending.pop() {
            if depth > cap {
                return true;
            }
            let Some(node) = self.nodes.get(id as usize) else {
                continue;
            };
            for child in Program::children(&node.kind) {
                let step = brackets(child).saturating_sub(brackets(id)).max(1);
                pending.push((child, depth + step));
            }
        }
        false
    }

    /// The node at `id`.
    fn node_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        self.nodes.get_mut(id as usize).ok_or_else(internal)
    }

    /// The parent link of `id`.
    fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.parents.get(id as usize).copied().flatten()
    }

    /// Sets the parent link of `id`.
    fn set_parent(&mut self, id: NodeId, parent: NodeId) {
        if let Some(slot) = self.parents.get_mut(id as usize) {
            *slot = Some(parent);
        }
    }

    /// jexl's `_placeAtCursor`: `node` becomes the cursor's right operand (or the tree, when
    /// there is no cursor) and the new cursor.
    fn place_at_cursor(&mut self, idx: usize, node: Option<NodeId>, position: usize) -> Result<()> {
        match self.frame(idx)?.cursor {
            None => self.frame(idx)?.tree = node,
            Some(cursor) => {
                let Some(node) = node else {
                    return Err(Error::syntax(
                        position,
                        format!(
                            "empty parentheses at byte {position}: write a value between '(' and ')', or remove them"
                        ),
                    ));
                };
                match &mut self.node_mut(cursor)?.kind {
                    Kind::Not(right) | Kind::Binary { right, .. } => *right = Some(node),
                    // jexl sets a `right` that nothing reads on any other node.
                    _ => {}
                }
                self.set_parent(node, cursor);
            }
        }
        self.frame(idx)?.cursor = node;
        Ok(())
    }

    /// jexl's `_placeBeforeCursor`: `node` takes the cursor's place under the cursor's parent.
    fn place_before_cursor(&mut self, idx: usize, node: NodeId, position: usize) -> Result<()> {
        let Some(cursor) = self.frame(idx)?.cursor else {
            return Err(nothing_before(position));
        };
        self.frame(idx)?.cursor = self.parent(cursor);
        self.place_at_cursor(idx, Some(node), position)
    }

    /// Runs `handler` for `token` in the frame at `idx`.
    fn run(&mut self, idx: usize, handler: Handler, token: &Token) -> Result<()> {
        let position = token.start;
        match handler {
            Handler::None => Ok(()),
            Handler::Default => match &token.tok {
                Tok::Literal(value) => {
                    let node = self.push(Kind::Literal(value.clone()), position)?;
                    self.place_at_cursor(idx, Some(node), position)
                }
                Tok::Identifier(name) => self.identifier(idx, name.clone(), position),
                Tok::Binary(op) => self.binary(idx, *op, position),
                Tok::Not => {
                    let node = self.push(Kind::Not(None), position)?;
                    self.place_at_cursor(idx, Some(node), position)
                }
                Tok::Dot => self.dot(idx),
                _ => Err(internal()),
            },
            Handler::ObjStart => {
                let node = self.push(
                    Kind::Object {
                        keys: Vec::new(),
                        shape: None,
                        values: Vec::new(),
                    },
                    position,
                )?;
                self.place_at_cursor(idx, Some(node), position)
            }
            Handler::ArrayStart => {
                let node = self.push(Kind::Array(Vec::new()), position)?;
                self.place_at_cursor(idx, Some(node), position)
            }
            Handler::TernaryStart => {
                let frame = self.frame(idx)?;
                let test = frame.tree;
                let node = self.push(
                    Kind::Conditional {
                        test,
                        consequent: None,
                        alternate: None,
                    },
                    position,
                )?;
                let frame = self.frame(idx)?;
                frame.tree = Some(node);
                frame.cursor = Some(node);
                Ok(())
            }
            Handler::Transform => {
                let Tok::Identifier(name) = &token.tok else {
                    return Err(internal());
                };
                let subject = self.frame(idx)?.cursor.ok_or_else(|| nothing_before(position))?;
                let node = self.push(
                    Kind::Call {
                        pool: Pool::Transforms,
                        name: name.clone(),
                        args: vec![subject],
                        target: None,
                    },
                    position,
                )?;
                self.place_before_cursor(idx, node, position)
            }
            Handler::ObjKey => {
                let Tok::Identifier(name) = &token.tok else {
                    return Err(internal());
                };
                self.frame(idx)?.object_key = Some(name.clone());
                Ok(())
            }
            Handler::FunctionCall => {
                let cursor = self.frame(idx)?.cursor.ok_or_else(|| nothing_before(position))?;
                // jexl names the call after the node before `(`: a name, or, after a filter's
                // `]`, a node with no name, which it calls "undefined".
                let name = match &self.node_mut(cursor)?.kind {
                    Kind::Context(name) | Kind::Relative(name) | Kind::Member { name, .. } => name.clone(),
                    _ => Str::from("undefined"),
                };
                let node = self.push(
                    Kind::Call {
                        pool: Pool::Functions,
                        name,
                        args: Vec::new(),
                        target: None,
                    },
                    position,
                )?;
                self.place_before_cursor(idx, node, position)
            }
        }
    }

    /// A name: a property of the cursor after `a.`, else a name read from the context (or,
    /// after a leading `.`, from the filter's element).
    fn identifier(&mut self, idx: usize, name: Str, position: usize) -> Result<()> {
        let frame = self.frame(idx)?;
        if frame.next_member {
            frame.next_member = false;
            let from = frame.cursor.ok_or_else(internal)?;
            let node = self.push(Kind::Member { from, name }, position)?;
            return self.place_before_cursor(idx, node, position);
        }
        let relative = std::mem::take(&mut frame.next_relative);
        let kind = if relative {
            Kind::Relative(name)
        } else {
            Kind::Context(name)
        };
        let node = self.push(kind, position)?;
        self.place_at_cursor(idx, Some(node), position)
    }

    /// `.`: decides whether the next name reads a property of the cursor or is relative.
    fn dot(&mut self, idx: usize) -> Result<()> {
        let cursor = self.frame(idx)?.cursor;
        let member = match cursor {
            None => false,
            Some(cursor) => match &self.node_mut(cursor)?.kind {
                Kind::Not(_) => false,
                Kind::Binary { right, .. } => right.is_some(),
                _ => true,
            },
        };
        let frame = self.frame(idx)?;
        frame.next_member = member;
        frame.next_relative = !member;
        if !member {
            frame.relative = true;
        }
        Ok(())
    }

    /// A binary operator: climbs from the cursor past operators that bind at least as tightly,
    /// and takes what it climbed to as its left operand.
    fn binary(&mut self, idx: usize, op: BinaryOp, position: usize) -> Result<()> {
        let Some(mut left) = self.frame(idx)?.cursor else {
            return Err(nothing_before(position));
        };
        let precedence = op.precedence();
        let mut parent = self.parent(left);
        while let Some(above) = parent {
            let binds = match &self.node_mut(above)?.kind {
                Kind::Not(_) => true,
                Kind::Binary { op, .. } => op.precedence() >= precedence,
                _ => false,
            };
            if !binds {
                break;
            }
            left = above;
            parent = self.parent(above);
        }
        let node = self.push(Kind::Binary { op, left, right: None }, position)?;
        self.set_parent(left, node);
        self.frame(idx)?.cursor = parent;
        self.place_at_cursor(idx, Some(node), position)
    }

    /// The handler of the state the frame at `idx` is in, given its nested parser's tree.
    fn sub_handler(&mut self, idx: usize, ast: Option<NodeId>, sub_relative: bool) -> Result<()> {
        let state = self.frame(idx)?.state;
        let position = self.source.len();
        match state {
            State::Filter => {
                let subject = self.frame(idx)?.cursor.ok_or_else(internal)?;
                let at = self
                    .nodes
                    .get(subject as usize)
                    .map_or(0, |node| node.position as usize);
                let node = self.push(
                    Kind::Filter {
                        subject,
                        expr: ast,
                        relative: sub_relative,
                    },
                    at,
                )?;
                self.place_before_cursor(idx, node, at)
            }
            State::SubExpression => {
                let at = ast
                    .and_then(|id| self.nodes.get(id as usize))
                    .map_or(position, |node| node.position as usize);
                self.place_at_cursor(idx, ast, at)
            }
            State::ArgVal | State::ArrayVal => {
                if let Some(ast) = ast {
                    let cursor = self.frame(idx)?.cursor.ok_or_else(internal)?;
                    match &mut self.node_mut(cursor)?.kind {
                        Kind::Call { args, .. } | Kind::Array(args) => args.push(ast),
                        _ => return Err(internal()),
                    }
                }
                Ok(())
            }
            State::ObjVal => {
                let key = self.frame(idx)?.object_key.clone().ok_or_else(internal)?;
                let cursor = self.frame(idx)?.cursor.ok_or_else(internal)?;
                let Some(Node {
                    kind: Kind::Object { keys, values, .. },
                    ..
                }) = self.nodes.get_mut(cursor as usize)
                else {
                    return Err(internal());
                };
                // A repeated key keeps its first place and takes the last value, as a
                // JavaScript object does.
                match self.object_keys.get(&(cursor, key.clone())) {
                    Some(&at) => {
                        if let Some(slot) = values.get_mut(at) {
                            *slot = ast;
                        }
                    }
                    None => {
                        self.object_keys.insert((cursor, key.clone()), keys.len());
                        keys.push(key);
                        values.push(ast);
                    }
                }
                Ok(())
            }
            State::TernaryMid | State::TernaryEnd => {
                let cursor = self.frame(idx)?.cursor.ok_or_else(internal)?;
                let Kind::Conditional {
                    consequent, alternate, ..
                } = &mut self.node_mut(cursor)?.kind
                else {
                    return Err(internal());
                };
                if state == State::TernaryMid {
                    *consequent = ast;
                } else {
                    *alternate = ast;
                }
                Ok(())
            }
            _ => Err(internal()),
        }
    }
}

/// The error for an operator, transform or call with nothing before it (after `()`).
fn nothing_before(position: usize) -> Error {
    Error::syntax(
        position,
        format!("nothing before the token at byte {position}: write a value before it (empty parentheses have none)"),
    )
}

/// A state the parser's tables never reach.
#[cold]
fn internal() -> Error {
    Error::new(
        Code::Syntax,
        "the parser reached an inconsistent state on this expression; rewrite it with explicit parentheses",
    )
}
