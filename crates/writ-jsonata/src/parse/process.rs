//! The post-parse stage: the raw tree to the evaluator's [`Node`], as jsonata-js's
//! `processAST` makes it.
//!
//! `.` chains become [`Kind::Path`] steps; `[…]` becomes a stage of the last step (or a
//! predicate of a node that is not a path); `{…}`, `@`, `#` and `^(…)` mark the step or path
//! they follow; a call in tail position of a lambda becomes a thunk; and every `%` is resolved
//! to the step whose item it names.
//!
//! jsonata-js resolves `%` with shared mutable "slot" objects that climb the tree as it is
//! built: each `%` opens a slot one level up; steps passed on the way back down the path count
//! the level off, and the step where it reaches zero is marked with the slot's label. Two `%`
//! that reach the same step share the first one's label. Here the slots live in an arena,
//! nodes under construction carry the ids of the slots still seeking (see [`Out`]), and a
//! final pass writes each `%`'s final label.

use std::collections::HashMap;
use std::sync::Arc;

use writ_core::{HintedKey, Str};

use super::MAX_DEPTH;
use super::pratt::{Raw, RawKind, too_deep};
use crate::ast::{Call, Group, Kind, Lambda, Node, SortTerm, Stage, Transform};
use crate::error::{Code, Error, Result};

/// An index into the slot arena.
type SlotId = usize;

/// What one `%` is looking for.
struct Slot {
    /// The label the step it reaches will carry (`!0`, `!1`, …).
    label: Str,
    /// How many steps up the item it names still is; 0 once found.
    level: i64,
}

/// A processed node and what jsonata-js keeps on it while the tree is built.
struct Out {
    /// The node.
    node: Node,
    /// The slots still seeking through this node (jsonata-js's `seekingParent`); for a path,
    /// the path's own.
    seeking: Vec<SlotId>,
    /// The node's own slot, when it is a `%`.
    slot: Option<SlotId>,
    /// For a path: `seeking` of its last step.
    last_seeking: Vec<SlotId>,
    /// For a path: `slot` of its last step.
    last_slot: Option<SlotId>,
}

impl Out {
    /// A node with nothing seeking through it.
    fn plain(node: Node) -> Out {
        Out::seeking(node, Vec::new())
    }

    /// A node with `seeking` slots.
    fn seeking(node: Node, seeking: Vec<SlotId>) -> Out {
        Out {
            node,
            seeking,
            slot: None,
            last_seeking: Vec::new(),
            last_slot: None,
        }
    }

    /// Whether the node is a path.
    fn is_path(&self) -> bool {
        matches!(self.node.kind, Kind::Path(_))
    }

    /// A one-step path of this node; `stages` moves its predicate into the step's stages.
    fn into_path(self, stages: bool) -> Out {
        let Out {
            mut node,
            seeking,
            slot,
            ..
        } = self;
        if stages && !node.predicate.is_empty() {
            node.stages = std::mem::take(&mut node.predicate);
        }
        let position = node.position;
        Out {
            node: Node::new(Kind::Path(vec![node]), position),
            seeking: Vec::new(),
            slot: None,
            last_seeking: seeking,
            last_slot: slot,
        }
    }

    /// The step marks apply to: a path's last step, else the node itself.
    fn step_mut(&mut self) -> &mut Node {
        if !matches!(&self.node.kind, Kind::Path(steps) if !steps.is_empty()) {
            return &mut self.node;
        }
        match &mut self.node.kind {
            Kind::Path(steps) => {
                let last = steps.len() - 1;
                &mut steps[last]
            }
            _ => unreachable!("checked to be a path"),
        }
    }

    /// The seeking list of [`Out::step_mut`]'s step.
    fn step_seeking_mut(&mut self) -> &mut Vec<SlotId> {
        if self.is_path() {
            &mut self.last_seeking
        } else {
            &mut self.seeking
        }
    }
}

/// jsonata-js's `pushAncestry`: what seeks through `value` seeks through its parent too (a
/// `%` itself included).
fn push_ancestry(seeking: &mut Vec<SlotId>, value: &Out) {
    seeking.extend_from_slice(&value.seeking);
    if matches!(value.node.kind, Kind::Parent(_)) {
        seeking.extend(value.slot);
    }
}

/// The most steps all `%` together may walk back over: far beyond any real expression, and
/// enough to keep chains of thousands of `%` from taking quadratic time.
const MAX_SEEKS: usize = 1_000_000;

/// The stack kept free below each level of recursion, and the size of each extra segment.
const RED_ZONE: usize = 64 * 1024;
/// See [`RED_ZONE`].
const SEGMENT: usize = 1024 * 1024;

/// The post-parse stage's state: the slot arena.
#[derive(Default)]
struct Processor {
    /// Every `%` met so far, by id.
    slots: Vec<Slot>,
    /// How many steps the `%` have walked back over.
    seeks: usize,
}

/// Processes the raw tree into the evaluator's tree.
pub(super) fn process(raw: Raw) -> Result<Node> {
    let mut processor = Processor::default();
    let out = processor.process(raw)?;
    if matches!(out.node.kind, Kind::Parent(_)) || !out.seeking.is_empty() {
        return Err(Error::new(Code::S0217)
            .at(out.node.position)
            .with_token(js_type(&out.node.kind)));
    }
    let renames: HashMap<Str, Str> = processor
        .slots
        .into_iter()
        .enumerate()
        .filter(|(id, slot)| !slot.label.eq_str(&format!("!{id}")))
        .map(|(id, slot)| (Str::from(format!("!{id}")), slot.label))
        .collect();
    let mut node = out.node;
    finish(&mut node, 1, &renames)?;
    Ok(node)
}

impl Processor {
    /// Processes one node (recursing into its children).
    fn process(&mut self, raw: Raw) -> Result<Out> {
        stacker::maybe_grow(RED_ZONE, SEGMENT, || self.process_here(raw))
    }

    /// The body of [`Processor::process`].
    fn process_here(&mut self, raw: Raw) -> Result<Out> {
        let Raw {
            kind,
            position,
            keep_array,
            ..
        } = raw;
        let leaf = |kind| Out::plain(Node::new(kind, position));
        let mut out = match kind {
            RawKind::Name(name) => {
                let mut step = Node::new(Kind::Name(HintedKey::new(name)), position);
                step.keep_array = keep_array;
                let mut path = Node::new(Kind::Path(vec![step]), position);
                path.keep_singleton_array = keep_array;
                Out::plain(path)
            }
            RawKind::Variable(name) => leaf(Kind::Variable(name)),
            RawKind::String(s) => leaf(Kind::String(s)),
            RawKind::Number(n) => leaf(Kind::Number(n)),
            RawKind::Bool(b) => leaf(Kind::Bool(b)),
            RawKind::Null => leaf(Kind::Null),
            RawKind::Regex(pattern, _) => leaf(Kind::Regex(pattern)),
            RawKind::Wildcard => leaf(Kind::Wildcard),
            RawKind::Descendant => leaf(Kind::Descendant),
            RawKind::Placeholder => leaf(Kind::Placeholder),
            RawKind::Parent => {
                let id = self.slots.len();
                let label = Str::from(format!("!{id}"));
                self.slots.push(Slot {
                    label: label.clone(),
                    level: 1,
                });
                let mut out = Out::plain(Node::new(Kind::Parent(label), position));
                out.slot = Some(id);
                out
            }
            RawKind::End => return Err(Error::new(Code::S0207).at(position).with_token("(end)")),
            RawKind::Dot(items) => self.path(items, position)?,
            RawKind::Binary(op, lhs, rhs) => {
                let lhs = self.process(*lhs)?;
                let rhs = self.process(*rhs)?;
                let mut seeking = Vec::new();
                push_ancestry(&mut seeking, &lhs);
                push_ancestry(&mut seeking, &rhs);
                Out::seeking(
                    Node::new(Kind::Binary(op, Box::new(lhs.node), Box::new(rhs.node)), position),
                    seeking,
                )
            }
            RawKind::Filter(lhs, rhs) => self.filter(*lhs, *rhs, position)?,
            RawKind::Group(lhs, pairs) => {
                let mut result = self.process(*lhs)?;
                if result.node.group.is_some() {
                    return Err(Error::new(Code::S0210).at(position));
                }
                let mut processed = Vec::with_capacity(pairs.len());
                for (key, value) in pairs {
                    let key = self.process(key)?.node;
                    processed.push((key, self.process(value)?.node));
                }
                result.node.group = Some(Box::new(Group {
                    pairs: processed,
                    position,
                }));
                result
            }
            RawKind::Sort(lhs, terms) => {
                let mut result = self.process(*lhs)?;
                if !result.is_path() {
                    result = result.into_path(false);
                }
                let mut seeking = Vec::new();
                let mut sorted = Vec::with_capacity(terms.len());
                for (descending, term) in terms {
                    let term = self.process(term)?;
                    push_ancestry(&mut seeking, &term);
                    sorted.push(SortTerm {
                        descending,
                        expression: term.node,
                    });
                }
                if let Kind::Path(steps) = &mut result.node.kind {
                    steps.push(Node::new(Kind::Sort(sorted), position));
                }
                result.last_seeking = seeking;
                result.last_slot = None;
                self.resolve(&mut result)?;
                result
            }
            RawKind::Bind(name, value) => {
                let value = self.process(*value)?;
                let mut seeking = Vec::new();
                push_ancestry(&mut seeking, &value);
                Out::seeking(Node::new(Kind::Bind(name, Box::new(value.node)), position), seeking)
            }
            RawKind::Focus(lhs, name) => {
                let mut result = self.process(*lhs)?;
                let step = result.step_mut();
                if !step.stages.is_empty() || !step.predicate.is_empty() {
                    return Err(Error::new(Code::S0215).at(position));
                }
                if matches!(step.kind, Kind::Sort(_)) {
                    return Err(Error::new(Code::S0216).at(position));
                }
                if keep_array {
                    step.keep_array = true;
                }
                step.focus = Some(name);
                step.tuple = true;
                result
            }
            RawKind::Index(lhs, name) => {
                let mut result = self.process(*lhs)?;
                if !result.is_path() {
                    result = result.into_path(true);
                }
                let step = result.step_mut();
                if step.stages.is_empty() {
                    step.index = Some(name);
                } else {
                    step.stages.push(Stage::Index(name, position));
                }
                step.tuple = true;
                result
            }
            RawKind::Apply(lhs, rhs) => {
                let lhs = self.process(*lhs)?.node;
                let rhs = self.process(*rhs)?.node;
                let keep = lhs.keep_array || rhs.keep_array;
                let mut node = Node::new(Kind::Apply(Box::new(lhs), Box::new(rhs)), position);
                node.keep_array = keep;
                Out::plain(node)
            }
            RawKind::Negate(operand) => {
                let mut operand = self.process(*operand)?;
                if let Kind::Number(n) = &mut operand.node.kind {
                    *n = -*n;
                    operand
                } else {
                    let mut seeking = Vec::new();
                    push_ancestry(&mut seeking, &operand);
                    Out::seeking(Node::new(Kind::Negate(Box::new(operand.node)), position), seeking)
                }
            }
            RawKind::Array(items) => {
                let mut seeking = Vec::new();
                let mut processed = Vec::with_capacity(items.len());
                for item in items {
                    let item = self.process(item)?;
                    push_ancestry(&mut seeking, &item);
                    processed.push(item.node);
                }
                Out::seeking(Node::new(Kind::Array(processed), position), seeking)
            }
            RawKind::Object(pairs) => {
                let mut seeking = Vec::new();
                let mut processed = Vec::with_capacity(pairs.len());
                for (key, value) in pairs {
                    let key = self.process(key)?;
                    push_ancestry(&mut seeking, &key);
                    let value = self.process(value)?;
                    push_ancestry(&mut seeking, &value);
                    processed.push((key.node, value.node));
                }
                let shape = written_shape(&processed);
                let mut node = Node::new(Kind::Object(processed), position);
                node.shape = shape;
                Out::seeking(node, seeking)
            }
            RawKind::Call(procedure, args, partial) => {
                let mut seeking = Vec::new();
                let mut processed = Vec::with_capacity(args.len());
                for arg in args {
                    let arg = self.process(arg)?;
                    push_ancestry(&mut seeking, &arg);
                    processed.push(arg.node);
                }
                let procedure = self.process(*procedure)?.node;
                let builtin = match &procedure.kind {
                    Kind::Variable(name) => name
                        .as_ascii_str()
                        .and_then(crate::functions::lookup)
                        .map(|builtin| (builtin, builtin.parsed_signature())),
                    _ => None,
                };
                let call = Call {
                    procedure: Box::new(procedure),
                    args: processed,
                    builtin,
                };
                let kind = if partial { Kind::Partial(call) } else { Kind::Call(call) };
                Out::seeking(Node::new(kind, position), seeking)
            }
            RawKind::Lambda(params, signature, body) => {
                let body = tail_call(self.process(*body)?.node);
                leaf(Kind::Lambda(Arc::new(Lambda {
                    params,
                    signature,
                    body,
                    thunk: false,
                })))
            }
            RawKind::Condition(condition, then, otherwise) => {
                let mut seeking = Vec::new();
                let condition = self.process(*condition)?;
                push_ancestry(&mut seeking, &condition);
                let then = self.process(*then)?;
                push_ancestry(&mut seeking, &then);
                let otherwise = match otherwise {
                    Some(otherwise) => {
                        let otherwise = self.process(*otherwise)?;
                        push_ancestry(&mut seeking, &otherwise);
                        Some(Box::new(otherwise.node))
                    }
                    None => None,
                };
                let kind = Kind::Condition(Box::new(condition.node), Box::new(then.node), otherwise);
                Out::seeking(Node::new(kind, position), seeking)
            }
            RawKind::Elvis(lhs, rhs) => {
                let (lhs, rhs, seeking) = self.pair(*lhs, *rhs)?;
                Out::seeking(Node::new(Kind::Elvis(lhs, rhs), position), seeking)
            }
            RawKind::Coalesce(lhs, rhs) => {
                let (lhs, rhs, seeking) = self.pair(*lhs, *rhs)?;
                Out::seeking(Node::new(Kind::Coalesce(lhs, rhs), position), seeking)
            }
            RawKind::Transform(pattern, update, delete) => {
                let pattern = self.process(*pattern)?.node;
                let update = self.process(*update)?.node;
                let delete = match delete {
                    Some(delete) => Some(self.process(*delete)?.node),
                    None => None,
                };
                leaf(Kind::Transform(Arc::new(Transform {
                    pattern,
                    update,
                    delete,
                })))
            }
            RawKind::Block(expressions) => {
                let mut seeking = Vec::new();
                let mut processed = Vec::with_capacity(expressions.len());
                let mut cons = false;
                for expression in expressions {
                    let part = self.process(expression)?;
                    push_ancestry(&mut seeking, &part);
                    cons |= part.node.cons_array
                        || matches!(&part.node.kind, Kind::Path(steps) if steps.first().is_some_and(|s| s.cons_array));
                    processed.push(part.node);
                }
                let scoped = processed.iter().any(binds_here);
                let mut node = Node::new(Kind::Block(processed), position);
                node.cons_array = cons;
                node.scoped = scoped;
                Out::seeking(node, seeking)
            }
        };
        if keep_array {
            out.node.keep_array = true;
        }
        Ok(out)
    }
}

impl Processor {
    /// The two sides of `?:` or `??`, and what seeks through them. jsonata-js makes these a
    /// condition whose test is a copy of the left side; the copy's `%` would resolve exactly
    /// as the left side's do, so one side is enough (only the numbering of labels differs).
    fn pair(&mut self, lhs: Raw, rhs: Raw) -> Result<(Box<Node>, Box<Node>, Vec<SlotId>)> {
        let mut seeking = Vec::new();
        let lhs = self.process(lhs)?;
        push_ancestry(&mut seeking, &lhs);
        let rhs = self.process(rhs)?;
        push_ancestry(&mut seeking, &rhs);
        Ok((Box::new(lhs.node), Box::new(rhs.node), seeking))
    }

    /// A `.` chain: its steps flattened into one path, each checked and resolved as it joins.
    fn path(&mut self, items: Vec<Raw>, position: usize) -> Result<Out> {
        let mut items = items.into_iter();
        let Some(first) = items.next() else {
            return Ok(Out::plain(Node::new(Kind::Path(Vec::new()), position)));
        };
        let first = self.process(first)?;
        let mut result = if first.is_path() {
            first
        } else {
            let parent = first.slot;
            let mut path = first.into_path(false);
            path.seeking.extend(parent);
            path
        };
        let mut checked = 0;
        for item in items {
            let rest = self.process(item)?;
            let Out {
                node: result_node,
                last_seeking,
                last_slot,
                ..
            } = &mut result;
            let Kind::Path(steps) = &mut result_node.kind else {
                break;
            };
            if let Kind::Path(more) = rest.node.kind {
                steps.extend(more);
                *last_seeking = rest.last_seeking;
                *last_slot = rest.last_slot;
            } else {
                let mut step = rest.node;
                if !step.predicate.is_empty() {
                    step.stages = std::mem::take(&mut step.predicate);
                }
                steps.push(step);
                *last_seeking = rest.seeking;
                *last_slot = rest.slot;
            }
            for step in steps.iter_mut().skip(checked) {
                let literal = match &step.kind {
                    Kind::Number(n) => writ_core::js_number_to_string(*n),
                    Kind::Bool(b) => b.to_string(),
                    Kind::Null => "null".to_owned(),
                    Kind::String(s) => {
                        step.kind = Kind::Name(HintedKey::new(s.clone()));
                        continue;
                    }
                    _ => continue,
                };
                return Err(Error::new(Code::S0213).at(step.position).with_value(literal));
            }
            let keep = steps.iter().skip(checked).any(|step| step.keep_array);
            checked = steps.len();
            if let Some(step) = steps.first_mut().filter(|step| matches!(step.kind, Kind::Array(_))) {
                step.cons_array = true;
            }
            if let Some(step) = steps.last_mut().filter(|step| matches!(step.kind, Kind::Array(_))) {
                step.cons_array = true;
            }
            if keep {
                result_node.keep_singleton_array = true;
            }
            self.resolve(&mut result)?;
        }
        Ok(result)
    }

    /// `lhs[rhs]`: a stage of the last step of a path, else a predicate; a `%` in the filter
    /// that is one level up names the filtered step's item.
    fn filter(&mut self, lhs: Raw, rhs: Raw, position: usize) -> Result<Out> {
        let mut result = self.process(lhs)?;
        if result.step_mut().group.is_some() {
            return Err(Error::new(Code::S0209).at(position));
        }
        let predicate = self.process(rhs)?;
        if !predicate.seeking.is_empty() {
            for &slot in &predicate.seeking {
                if self.slots[slot].level == 1 {
                    self.seek_parent(result.step_mut(), slot)?;
                } else {
                    self.slots[slot].level -= 1;
                }
            }
            result.step_seeking_mut().extend_from_slice(&predicate.seeking);
        }
        let stage = Stage::Filter(predicate.node, position);
        if result.is_path() {
            result.step_mut().stages.push(stage);
        } else {
            result.node.predicate.push(stage);
        }
        Ok(result)
    }

    /// jsonata-js's `resolveAncestry`: the slots seeking through a path's last step walk back
    /// over its earlier steps; what is still seeking past the first step seeks through the
    /// path.
    fn resolve(&mut self, out: &mut Out) -> Result<()> {
        let mut slots = out.last_seeking.clone();
        slots.extend(out.last_slot);
        let Out { node, seeking, .. } = out;
        let Kind::Path(steps) = &mut node.kind else {
            return Ok(());
        };
        for slot in slots {
            // `before` counts the steps not yet walked over, the last one excluded.
            let mut before = steps.len().saturating_sub(1);
            while self.slots[slot].level > 0 {
                if before == 0 {
                    seeking.push(slot);
                    break;
                }
                before -= 1;
                let mut step = before;
                // Contiguous steps that bind the focus (`@`) count as one.
                while before > 0 && steps[step].focus.is_some() && steps[before - 1].focus.is_some() {
                    before -= 1;
                    step = before;
                }
                self.seek_parent(&mut steps[step], slot)?;
            }
        }
        Ok(())
    }

    /// jsonata-js's `seekParent`: walks `slot` back over `node`.
    fn seek_parent(&mut self, node: &mut Node, slot: SlotId) -> Result<()> {
        self.seeks += 1;
        if self.seeks > MAX_SEEKS {
            return Err(Error::new(Code::U1001)
                .at(node.position)
                .with_value(MAX_SEEKS.to_string())
                .with_detail(format!(
                    "the parent operators % of the expression walk back over more than {MAX_SEEKS} steps: use fewer %"
                )));
        }
        match &mut node.kind {
            Kind::Name(_) | Kind::Wildcard => {
                let seeker = &mut self.slots[slot];
                seeker.level -= 1;
                if seeker.level == 0 {
                    match &node.ancestor {
                        Some(label) => seeker.label = label.clone(),
                        None => node.ancestor = Some(seeker.label.clone()),
                    }
                    node.tuple = true;
                }
            }
            Kind::Parent(_) => self.slots[slot].level += 1,
            Kind::Block(expressions) => {
                if let Some(last) = expressions.last_mut() {
                    node.tuple = true;
                    self.seek_parent(last, slot)?;
                }
            }
            Kind::Path(steps) => {
                node.tuple = true;
                let mut index = steps.len();
                while index > 0 {
                    index -= 1;
                    self.seek_parent(&mut steps[index], slot)?;
                    if self.slots[slot].level <= 0 {
                        break;
                    }
                }
            }
            other => return Err(Error::new(Code::S0217).at(node.position).with_token(js_type(other))),
        }
        Ok(())
    }
}

/// jsonata-js's `tailCallOptimize`: a call in tail position of a lambda body becomes a thunk
/// the evaluator's trampoline runs, so tail recursion does not grow the stack.
fn tail_call(node: Node) -> Node {
    let mut node = node;
    match &mut node.kind {
        Kind::Call(_) if node.predicate.is_empty() => {
            let position = node.position;
            let thunk = Lambda {
                params: Vec::new(),
                signature: None,
                body: node,
                thunk: true,
            };
            return Node::new(Kind::Lambda(Arc::new(thunk)), position);
        }
        Kind::Condition(_, then, otherwise) => {
            tail_call_in(then);
            if let Some(otherwise) = otherwise {
                tail_call_in(otherwise);
            }
        }
        Kind::Elvis(_, otherwise) | Kind::Coalesce(_, otherwise) => tail_call_in(otherwise),
        Kind::Block(expressions) => {
            if let Some(last) = expressions.last_mut() {
                let taken = std::mem::replace(last, Node::new(Kind::Null, 0));
                *last = tail_call(taken);
            }
        }
        _ => {}
    }
    node
}

/// The shared key list of an object constructor whose keys are all plain string literals,
/// distinct, none an array index, and none a name jsonata-js refuses as a key.
fn written_shape(pairs: &[(Node, Node)]) -> Option<writ_core::Shape> {
    let mut keys = Vec::with_capacity(pairs.len());
    for (key, _) in pairs {
        let plain = key.predicate.is_empty() && key.group.is_none() && !key.keep_array;
        match &key.kind {
            Kind::String(text) if plain && !text.eq_str("_jsonata_lambda") && !text.eq_str("_jsonata_function") => {
                keys.push(text.clone());
            }
            _ => return None,
        }
    }
    writ_core::Shape::new(&keys)
}

/// [`tail_call`] on a boxed branch, in place.
fn tail_call_in(branch: &mut Box<Node>) {
    let taken = std::mem::replace(&mut **branch, Node::new(Kind::Null, 0));
    **branch = tail_call(taken);
}

/// The last pass: checks the tree is no deeper than [`MAX_DEPTH`] (the evaluator recurses
/// on it) and gives every `%` the final label of its slot.
fn finish(node: &mut Node, depth: usize, renames: &HashMap<Str, Str>) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(too_deep(node.position));
    }
    stacker::maybe_grow(RED_ZONE, SEGMENT, || {
        finish_children(node, depth, renames)?;
        node.walkable = crate::eval::walkable(node);
        Ok(())
    })
}

/// [`finish`] of a node's children (its marks are set on it once they are done).
fn finish_children(node: &mut Node, depth: usize, renames: &HashMap<Str, Str>) -> Result<()> {
    {
        let below = depth + 1;
        let each = |nodes: &mut [Node]| nodes.iter_mut().try_for_each(|n| finish(n, below, renames));
        let stages = |stages: &mut [Stage]| {
            stages.iter_mut().try_for_each(|stage| match stage {
                Stage::Filter(n, _) => finish(n, below, renames),
                Stage::Index(..) => Ok(()),
            })
        };
        stages(&mut node.predicate)?;
        stages(&mut node.stages)?;
        if let Some(group) = &mut node.group {
            for (key, value) in &mut group.pairs {
                finish(key, below, renames)?;
                finish(value, below, renames)?;
            }
        }
        match &mut node.kind {
            Kind::Parent(label) => {
                if let Some(renamed) = renames.get(label) {
                    *label = renamed.clone();
                }
                Ok(())
            }
            Kind::Path(nodes) | Kind::Array(nodes) | Kind::Block(nodes) => each(nodes),
            Kind::Binary(_, a, b) | Kind::Elvis(a, b) | Kind::Coalesce(a, b) | Kind::Apply(a, b) => {
                finish(a, below, renames)?;
                finish(b, below, renames)
            }
            Kind::Condition(a, b, c) => {
                finish(a, below, renames)?;
                finish(b, below, renames)?;
                c.as_deref_mut().map_or(Ok(()), |c| finish(c, below, renames))
            }
            Kind::Transform(transform) => Arc::get_mut(transform).map_or(Ok(()), |t| {
                finish(&mut t.pattern, below, renames)?;
                finish(&mut t.update, below, renames)?;
                t.delete.as_mut().map_or(Ok(()), |d| finish(d, below, renames))
            }),
            Kind::Negate(a) | Kind::Bind(_, a) => finish(a, below, renames),
            Kind::Object(pairs) => pairs.iter_mut().try_for_each(|(key, value)| {
                finish(key, below, renames)?;
                finish(value, below, renames)
            }),
            Kind::Call(call) | Kind::Partial(call) => {
                finish(&mut call.procedure, below, renames)?;
                each(&mut call.args)
            }
            Kind::Lambda(lambda) => {
                Arc::get_mut(lambda).map_or(Ok(()), |lambda| finish(&mut lambda.body, below, renames))
            }
            Kind::Sort(terms) => terms
                .iter_mut()
                .try_for_each(|term| finish(&mut term.expression, below, renames)),
            Kind::Name(_)
            | Kind::String(_)
            | Kind::Number(_)
            | Kind::Bool(_)
            | Kind::Null
            | Kind::Wildcard
            | Kind::Descendant
            | Kind::Regex(_)
            | Kind::Placeholder
            | Kind::Variable(_) => Ok(()),
        }
    }
}

/// The type jsonata-js gives a processed node of this kind (errors name it).
fn js_type(kind: &Kind) -> &'static str {
    match kind {
        Kind::Path(_) => "path",
        Kind::Binary(..) => "binary",
        Kind::Negate(_) | Kind::Array(_) | Kind::Object(_) => "unary",
        Kind::Name(_) => "name",
        Kind::String(_) => "string",
        Kind::Number(_) => "number",
        Kind::Bool(_) | Kind::Null => "value",
        Kind::Wildcard => "wildcard",
        Kind::Descendant => "descendant",
        Kind::Parent(_) => "parent",
        Kind::Condition(..) | Kind::Elvis(..) | Kind::Coalesce(..) => "condition",
        Kind::Block(_) => "block",
        Kind::Bind(..) => "bind",
        Kind::Regex(_) => "regex",
        Kind::Call(_) => "function",
        Kind::Partial(_) => "partial",
        Kind::Placeholder => "operator",
        Kind::Variable(_) => "variable",
        Kind::Lambda(_) => "lambda",
        Kind::Apply(..) => "apply",
        Kind::Transform(..) => "transform",
        Kind::Sort(_) => "sort",
    }
}

/// Whether evaluating `node` can bind a variable in the scope it runs in: a `:=` anywhere in
/// it except inside a nested block or lambda, which bind in scopes of their own. A block
/// none of whose expressions binds needs no scope of its own.
fn binds_here(node: &Node) -> bool {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        match &node.kind {
            Kind::Bind(..) => return true,
            // `$eval` evaluates its text in the caller's scope, so it may bind there.
            Kind::Call(call) if matches!(&call.procedure.kind, Kind::Variable(name) if name.eq_str("eval")) => {
                return true;
            }
            Kind::Block(_) | Kind::Lambda(_) => continue,
            _ => {}
        }
        for stage in node.predicate.iter().chain(&node.stages) {
            if let Stage::Filter(filter, _) = stage {
                pending.push(filter);
            }
        }
        if let Some(group) = &node.group {
            pending.extend(group.pairs.iter().flat_map(|(k, v)| [k, v]));
        }
        match &node.kind {
            Kind::Path(nodes) | Kind::Array(nodes) => pending.extend(nodes),
            Kind::Binary(_, a, b) | Kind::Elvis(a, b) | Kind::Coalesce(a, b) | Kind::Apply(a, b) => {
                pending.extend([a.as_ref(), b.as_ref()]);
            }
            Kind::Negate(a) => pending.push(a),
            Kind::Object(pairs) => pending.extend(pairs.iter().flat_map(|(k, v)| [k, v])),
            Kind::Condition(c, t, e) => {
                pending.extend([c.as_ref(), t.as_ref()]);
                pending.extend(e.as_deref());
            }
            Kind::Call(call) | Kind::Partial(call) => {
                pending.push(&call.procedure);
                pending.extend(&call.args);
            }
            Kind::Transform(transform) => {
                pending.extend([&transform.pattern, &transform.update]);
                pending.extend(transform.delete.as_ref());
            }
            Kind::Sort(terms) => pending.extend(terms.iter().map(|term| &term.expression)),
            _ => {}
        }
    }
    false
}
