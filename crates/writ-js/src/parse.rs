//! The front end of writ-js: source text to a checked [`Program`].
//!
//! Four stages, each refusing what the next could not survive or the language does not have:
//!
//! 1. Size: a blank source, or one longer than the host's limit, is refused before anything
//!    reads it.
//! 2. Nesting (`scan`): a linear pass bounds how deep the parser could recurse, so that no
//!    input can overflow the stack inside oxc, whose recursive descent has no limit of its own.
//! 3. Syntax: oxc parses one expression (script goal, no JSX, no TypeScript); its errors
//!    become `expression-syntax` with oxc's message and the position.
//! 4. Lowering: oxc's tree becomes [`crate::ast`], checked against the allow-lists of
//!    uicast.md §1.1 as it goes: node types and operators, written method names, namespace
//!    statics, callbacks only where a method takes one, host calls only where a call may be
//!    the result, and an AST depth of at most [`MAX_AST_DEPTH`]. Names are resolved here:
//!    arrow parameters to frame slots, everything else to free-name indices.

mod scan;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::HashMap;

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrayExpression, ArrayExpressionElement, ArrowFunctionExpression, BindingPattern, CallExpression,
    ChainElement, Expression, MemberExpression, ObjectExpression, ObjectPropertyKind, PropertyKey, PropertyKind,
    StringLiteral, TemplateLiteral,
};
use oxc_parser::Parser;
use oxc_span::SourceType;
use oxc_syntax::operator::{BinaryOperator, LogicalOperator, UnaryOperator};
use writ_core::{HintedKey, Str, Value, closest_name, js};

use crate::ast::{
    Arg, BinaryOp, Call, Callee, Element, Expr, HostCall, Lambda, Local, LogicalOp, Member, MethodKey, MethodName,
    Pattern, PatternProp, Program, Prop, PropKey, Property, Record, Template, UnaryOp,
};
use crate::coerce::number_to_str;
use crate::error::{Error, Result};
use crate::tables::{ArrayMethod, Global, NumberMethod, Static, StringMethod, is_method_name};

/// What the parser needs from the evaluator.
pub(crate) struct ParseOptions<'a> {
    /// Longest source in UTF-16 code units; longer is refused before parsing.
    pub(crate) max_source_length: usize,
    /// Names of the evaluator's host functions; HostCall.function indexes this slice.
    pub(crate) host_functions: &'a [&'a str],
}

/// The deepest an expression may nest: AST levels, and the parser recursion the pre-scan
/// allows.
pub(crate) const MAX_AST_DEPTH: usize = 100;

/// The most parameters an arrow callback may declare.
pub(crate) const MAX_ARROW_PARAMS: usize = 5;

/// Parses and checks `source`: one expression of the language, ready to run.
///
/// Errors are `expression-syntax` for an empty, too long or malformed source, and
/// `guardrail-violation` for anything outside the language or nested too deep.
pub(crate) fn parse(source: &str, options: &ParseOptions<'_>) -> Result<Program> {
    check_size(source, options.max_source_length)?;
    scan::check_nesting(source)?;
    let allocator = Allocator::default();
    // Identifier hashes serve oxc's semantic analysis, which this front end does not run.
    let parser_options = oxc_parser::ParseOptions {
        enable_ident_hashes: false,
        ..oxc_parser::ParseOptions::default()
    };
    let expression = Parser::new(&allocator, source, SourceType::script())
        .with_options(parser_options)
        .parse_expression()
        .map_err(|diagnostics| {
            let first = diagnostics.into_vec().into_iter().next();
            match first {
                Some(diagnostic) => syntax_error(
                    source,
                    &diagnostic.message,
                    diagnostic.labels.first().map(|label| label.offset()),
                    diagnostic.help.as_deref(),
                ),
                None => Error::syntax("Syntax error: the source is not one JavaScript expression"),
            }
        })?;
    let mut lowering = Lowering::new(options.host_functions);
    let root = lowering.expr(&expression, Position::Result)?;
    Ok(Program {
        root,
        node_count: lowering.nodes,
        free_names: lowering.free_names.into_iter().map(HintedKey::new).collect(),
        host_calls: lowering.host_calls.into_boxed_slice(),
    })
}

/// Refuses a blank source and one longer than `max` UTF-16 code units.
pub(crate) fn check_size(source: &str, max: usize) -> Result<()> {
    let blank = source
        .chars()
        .all(|c| u16::try_from(u32::from(c)).is_ok_and(js::is_space));
    if blank {
        return Err(Error::syntax(
            "Expression is empty — write one JavaScript expression, such as rows.length",
        ));
    }
    // UTF-8 never has fewer bytes than UTF-16 has code units, so most sources need no count.
    if source.len() > max {
        let length: usize = source.chars().map(char::len_utf16).sum();
        if length > max {
            return Err(Error::syntax(format!(
                "Expression is too long ({length} characters; the limit is {max})"
            )));
        }
    }
    Ok(())
}

/// oxc's diagnostic as an `expression-syntax` error, with a 1-based line and column (in
/// UTF-16 code units) for the byte offset it points at.
fn syntax_error(source: &str, message: &str, offset: Option<u32>, help: Option<&str>) -> Error {
    let mut text = format!("Syntax error: {message}");
    if let Some(offset) = offset.and_then(|offset| usize::try_from(offset).ok()) {
        let before = source.get(..offset).unwrap_or(source);
        let line_start = before
            .rfind(['\n', '\r', '\u{2028}', '\u{2029}'])
            .map_or(0, |at| at + 1);
        let line = 1 + before.matches(['\n', '\u{2028}', '\u{2029}']).count() + before.matches('\r').count()
            - before.matches("\r\n").count();
        let column = 1 + before
            .get(line_start..)
            .unwrap_or("")
            .chars()
            .map(char::len_utf16)
            .sum::<usize>();
        text.push_str(&format!(" (line {line}, column {column})"));
    }
    if let Some(help) = help {
        text.push_str(&format!(" — {help}"));
    }
    Error::syntax(text)
}

/// `"<NodeType>" is not part of the expression language — <hint>`.
fn not_in_language(node_type: &str, hint: &str) -> Error {
    Error::guardrail(format!(
        "\"{node_type}\" is not part of the expression language — {hint}"
    ))
}

/// The refusal of `await`, from the scan or from lowering.
fn await_error() -> Error {
    not_in_language(
        "AwaitExpression",
        "a host function's promise can only be the whole result: write the call alone, as getUser({ id: 7 }), \
         and await it outside the expression",
    )
}

/// The refusal of an arrow's block body, from the scan or from lowering.
fn block_body() -> Error {
    Error::guardrail(
        "A callback's body must be an expression, not a block — write r => r.total, or r => ({ total: r.total }) \
         to return an object",
    )
}

/// Where an expression sits, for the host-call rule: only a result may be a host call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Position {
    /// The whole expression, a branch of `?:`, or the right side of `&&`, `||`, `??`, recursively.
    Result,
    /// Anywhere else.
    Operand,
}

/// Finds host functions by name: a scan for a few, a map for many.
struct Hosts<'h> {
    /// The evaluator's host function names, in its order.
    names: &'h [&'h str],
    /// Name to index, built only for a long list.
    index: Option<HashMap<&'h str, u32>>,
}

impl<'h> Hosts<'h> {
    /// Indexes `names` when there are enough of them to pay for a map.
    fn new(names: &'h [&'h str]) -> Hosts<'h> {
        let index = (names.len() > 8).then(|| {
            let mut index = HashMap::with_capacity(names.len());
            for (at, name) in names.iter().enumerate() {
                if let Ok(at) = u32::try_from(at) {
                    // The first of two equal names wins, as the linear scan would.
                    index.entry(*name).or_insert(at);
                }
            }
            index
        });
        Hosts { names, index }
    }

    /// The index of the host function called `name`.
    fn find(&self, name: &str) -> Option<u32> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self
                .names
                .iter()
                .position(|host| *host == name)
                .and_then(|at| u32::try_from(at).ok()),
        }
    }
}

/// An arrow whose parameters are being lowered or whose body is in scope.
struct Arrow<'a> {
    /// The names its parameters bind, unbound again when the arrow ends.
    names: Vec<&'a str>,
    /// The names its parameters declare and has not bound yet: while a default runs, they are
    /// in JavaScript's temporal dead zone, so a read of one throws a ReferenceError.
    pending: Vec<&'a str>,
    /// The next free slot of its frame: its frame size once all parameters are bound.
    next_slot: u16,
}

/// Adds the names `pattern` binds to `out`, in source order. Patterns are nested no deeper
/// than the source's nesting, which is checked before lowering begins.
fn declared_names<'a>(pattern: &BindingPattern<'a>, out: &mut Vec<&'a str>) {
    match pattern {
        BindingPattern::BindingIdentifier(identifier) => out.push(identifier.name.as_str()),
        BindingPattern::ObjectPattern(object) => {
            for property in &object.properties {
                declared_names(&property.value, out);
            }
            if let Some(rest) = &object.rest {
                declared_names(&rest.argument, out);
            }
        }
        BindingPattern::ArrayPattern(array) => {
            for element in array.elements.iter().flatten() {
                declared_names(element, out);
            }
            if let Some(rest) = &array.rest {
                declared_names(&rest.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(assignment) => declared_names(&assignment.left, out),
    }
}

/// The lowering pass: oxc's tree to [`crate::ast`], checked as it goes.
struct Lowering<'a, 'h> {
    /// The evaluator's host functions.
    hosts: Hosts<'h>,
    /// [`Program::free_names`] so far.
    free_names: Vec<Str>,
    /// Where each free name sits in `free_names`.
    free_index: HashMap<&'a str, u32>,
    /// [`Program::host_calls`] so far.
    host_calls: Vec<u32>,
    /// Nodes lowered so far.
    nodes: u32,
    /// The tree levels entered around the node being lowered.
    depth: usize,
    /// The arrows enclosing the node being lowered, outermost first.
    arrows: Vec<Arrow<'a>>,
    /// Every parameter name in scope, with its bindings innermost last.
    bindings: HashMap<&'a str, Vec<Local>>,
}

impl<'a, 'h> Lowering<'a, 'h> {
    /// A pass with nothing lowered yet.
    fn new(hosts: &'h [&'h str]) -> Lowering<'a, 'h> {
        Lowering {
            hosts: Hosts::new(hosts),
            free_names: Vec::new(),
            free_index: HashMap::new(),
            host_calls: Vec::new(),
            nodes: 0,
            depth: 0,
            arrows: Vec::new(),
            bindings: HashMap::new(),
        }
    }

    /// Counts one node toward [`Program::node_count`] and the enclosing arrows' counts.
    fn node(&mut self) {
        self.nodes = self.nodes.saturating_add(1);
    }

    /// Enters one level of the tree; [`Lowering::leave`] undoes it.
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_AST_DEPTH {
            Err(scan::too_deep())
        } else {
            Ok(())
        }
    }

    /// Leaves a level entered with [`Lowering::enter`].
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The parameter `name` names, innermost arrow first.
    fn local(&self, name: &str) -> Option<Local> {
        self.bindings.get(name).and_then(|locals| locals.last().copied())
    }

    /// Whether `name` is a parameter whose arrow declares it but has not bound it yet (a
    /// default reading its own parameter or a later one), and no arrow inside that one binds
    /// the name again.
    fn uninitialized(&self, name: &str) -> bool {
        let Some(declaring) = self.arrows.iter().rposition(|arrow| arrow.pending.contains(&name)) else {
            return false;
        };
        self.local(name)
            .is_none_or(|local| usize::from(local.depth) < declaring)
    }

    /// The free-name index of `name`, added at its first appearance.
    fn free(&mut self, name: &'a str) -> u32 {
        if let Some(&at) = self.free_index.get(name) {
            return at;
        }
        let at = u32::try_from(self.free_names.len()).unwrap_or(u32::MAX);
        self.free_names.push(Str::from(name));
        self.free_index.insert(name, at);
        at
    }

    /// Binds a parameter name in the innermost arrow's frame.
    fn bind(&mut self, name: &'a str) -> Result<u16> {
        let depth = u16::try_from(self.arrows.len().saturating_sub(1)).map_err(|_| scan::too_deep())?;
        let Some(arrow) = self.arrows.last_mut() else {
            return Err(Error::guardrail(format!(
                "\"{name}\" cannot be bound outside a callback"
            )));
        };
        let locals = self.bindings.entry(name).or_default();
        if locals.last().is_some_and(|local| local.depth == depth) {
            return Err(Error::syntax(format!(
                "Syntax error: duplicate parameter name \"{name}\" — give each parameter its own name"
            )));
        }
        let slot = arrow.next_slot;
        arrow.next_slot = slot.checked_add(1).ok_or_else(|| {
            Error::guardrail("A callback binds too many names — destructure only the properties it reads")
        })?;
        arrow.names.push(name);
        if let Some(at) = arrow.pending.iter().position(|pending| *pending == name) {
            arrow.pending.swap_remove(at);
        }
        locals.push(Local { depth, slot });
        Ok(slot)
    }

    /// Lowers an expression one level deeper.
    fn expr(&mut self, expression: &Expression<'a>, position: Position) -> Result<Expr> {
        self.enter()?;
        let lowered = self.expr_at(expression, position);
        self.leave();
        lowered
    }

    /// Lowers an expression at the current level, refusing what is not in the language.
    fn expr_at(&mut self, expression: &Expression<'a>, position: Position) -> Result<Expr> {
        Ok(match expression {
            // Parentheses are no node, but they are a level: nothing recurses without counting.
            Expression::ParenthesizedExpression(inner) => return self.expr(&inner.expression, position),
            Expression::BooleanLiteral(literal) => {
                self.node();
                Expr::Const(Value::Bool(literal.value))
            }
            Expression::NullLiteral(_) => {
                self.node();
                Expr::Const(Value::Null)
            }
            Expression::NumericLiteral(literal) => {
                self.node();
                Expr::Const(Value::Number(literal.value))
            }
            Expression::StringLiteral(literal) => {
                self.node();
                Expr::Const(Value::String(string_value(literal)))
            }
            Expression::TemplateLiteral(template) => self.template(template)?,
            Expression::Identifier(identifier) => {
                self.node();
                let name = identifier.name.as_str();
                if self.uninitialized(name) {
                    Expr::Uninitialized(Str::from(name))
                } else if let Some(local) = self.local(name) {
                    Expr::Local(local)
                } else if self.hosts.find(name).is_some() {
                    return Err(host_as_value(name));
                } else {
                    Expr::Free(self.free(name))
                }
            }
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => match expression.as_member_expression() {
                Some(member) => self.member(member)?,
                None => {
                    return Err(not_in_language(
                        node_type(expression),
                        "write plain reads, as a.b or a[k]",
                    ));
                }
            },
            Expression::ChainExpression(chain) => {
                self.node();
                let inner = match &chain.expression {
                    ChainElement::CallExpression(call) => self.call(call, Position::Operand)?,
                    ChainElement::TSNonNullExpression(_) => {
                        return Err(not_in_language("TSNonNullExpression", "values carry no types"));
                    }
                    element => match element.as_member_expression() {
                        Some(member) => self.member(member)?,
                        None => return Err(not_in_language("ChainExpression", "write a?.b or a?.[k]")),
                    },
                };
                Expr::Chain(Box::new(inner))
            }
            Expression::CallExpression(call) => self.call(call, position)?,
            Expression::UnaryExpression(unary) => {
                let op = match unary.operator {
                    UnaryOperator::LogicalNot => UnaryOp::Not,
                    UnaryOperator::UnaryNegation => UnaryOp::Neg,
                    UnaryOperator::UnaryPlus => UnaryOp::Plus,
                    UnaryOperator::Typeof => UnaryOp::Typeof,
                    UnaryOperator::BitwiseNot => return Err(bitwise("~")),
                    UnaryOperator::Void => return Err(not_in_language("void", "write undefined")),
                    UnaryOperator::Delete => {
                        return Err(not_in_language(
                            "delete",
                            "an expression cannot change data: build the object you need, as \
                             Object.fromEntries(Object.entries(o).filter(([k]) => k !== \"x\"))",
                        ));
                    }
                };
                self.node();
                Expr::Unary(op, Box::new(self.expr(&unary.argument, Position::Operand)?))
            }
            Expression::BinaryExpression(binary) => {
                let op = binary_op(binary.operator)?;
                self.node();
                let left = self.expr(&binary.left, Position::Operand)?;
                let right = self.expr(&binary.right, Position::Operand)?;
                Expr::Binary(op, Box::new([left, right]))
            }
            Expression::LogicalExpression(logical) => {
                let op = match logical.operator {
                    LogicalOperator::And => LogicalOp::And,
                    LogicalOperator::Or => LogicalOp::Or,
                    LogicalOperator::Coalesce => LogicalOp::Coalesce,
                };
                self.node();
                let left = self.expr(&logical.left, Position::Operand)?;
                let right = self.expr(&logical.right, position)?;
                Expr::Logical(op, Box::new([left, right]))
            }
            Expression::ConditionalExpression(conditional) => {
                self.node();
                let test = self.expr(&conditional.test, Position::Operand)?;
                let consequent = self.expr(&conditional.consequent, position)?;
                let alternate = self.expr(&conditional.alternate, position)?;
                Expr::Conditional(Box::new([test, consequent, alternate]))
            }
            Expression::ArrayExpression(array) => self.array(array)?,
            Expression::ObjectExpression(object) => self.object(object)?,
            Expression::ArrowFunctionExpression(_) => return Err(misplaced_arrow()),
            Expression::BigIntLiteral(_) => {
                return Err(not_in_language(
                    "BigIntLiteral",
                    "numbers are doubles: write 123 instead of 123n",
                ));
            }
            Expression::RegExpLiteral(_) => {
                return Err(not_in_language(
                    "RegExpLiteral",
                    "a match could run past the budget: use includes, startsWith, endsWith, indexOf, split or \
                     replaceAll with a plain string",
                ));
            }
            Expression::NewExpression(_) => {
                return Err(Error::guardrail(
                    "\"new\" is not part of the expression language — every value is JSON: write a date as an ISO \
                     string or a timestamp, a Map as an object",
                ));
            }
            Expression::AssignmentExpression(_) => {
                return Err(not_in_language(
                    "AssignmentExpression",
                    "an expression computes a value; it cannot assign (to compare, write ===)",
                ));
            }
            Expression::UpdateExpression(_) => {
                return Err(not_in_language(
                    "UpdateExpression",
                    "an expression computes a value; it cannot assign: write x + 1 instead of x++",
                ));
            }
            Expression::SequenceExpression(_) => {
                return Err(not_in_language(
                    "SequenceExpression",
                    "write one expression; to compute several values, put them in an array or an object",
                ));
            }
            Expression::ThisExpression(_) => {
                return Err(not_in_language(
                    "ThisExpression",
                    "there is no this: name the data passed in",
                ));
            }
            Expression::TaggedTemplateExpression(_) => {
                return Err(not_in_language(
                    "TaggedTemplateExpression",
                    "only plain templates are: write `text ${value}` with no name before it",
                ));
            }
            Expression::ImportExpression(_) | Expression::ImportMeta(_) => {
                return Err(not_in_language(node_type(expression), "an expression cannot load code"));
            }
            Expression::ClassExpression(_) | Expression::FunctionExpression(_) => {
                return Err(not_in_language(
                    node_type(expression),
                    "functions are written only as arrow callbacks, as in rows.map(r => r.name)",
                ));
            }
            Expression::AwaitExpression(_) => return Err(await_error()),
            Expression::YieldExpression(_) => {
                return Err(not_in_language(
                    "YieldExpression",
                    "there are no generators: write one expression",
                ));
            }
            Expression::Super(_) | Expression::PrivateInExpression(_) | Expression::NewTarget(_) => {
                return Err(not_in_language(
                    node_type(expression),
                    "there are no classes or functions to refer to",
                ));
            }
            _ => {
                return Err(not_in_language(
                    node_type(expression),
                    "write JavaScript, not JSX or TypeScript",
                ));
            }
        })
    }

    /// An untagged template: cooked text around the substitutions.
    fn template(&mut self, template: &TemplateLiteral<'a>) -> Result<Expr> {
        self.node();
        let mut quasis = Vec::with_capacity(template.quasis.len());
        for quasi in &template.quasis {
            self.node();
            let Some(cooked) = quasi.value.cooked.as_ref() else {
                return Err(Error::syntax(
                    "Syntax error: a template holds an invalid escape sequence",
                ));
            };
            quasis.push(js_string(cooked.as_str(), quasi.lone_surrogates));
        }
        let mut exprs = Vec::with_capacity(template.expressions.len());
        for expression in &template.expressions {
            exprs.push(self.expr(expression, Position::Operand)?);
        }
        if quasis.len() != exprs.len() + 1 {
            return Err(Error::syntax(
                "Syntax error: a template's text and substitutions do not alternate",
            ));
        }
        Ok(Expr::Template(Box::new(Template {
            quasis: quasis.into_boxed_slice(),
            exprs: exprs.into_boxed_slice(),
        })))
    }

    /// A property read: `a.b`, `a[k]`, `a?.b`, `a?.[k]`.
    fn member(&mut self, member: &MemberExpression<'a>) -> Result<Expr> {
        self.node();
        let (object, optional) = (member.object(), member.optional());
        let object = self.expr(object, Position::Operand)?;
        let property = match member {
            MemberExpression::StaticMemberExpression(read) => {
                self.node();
                named_property(Str::from(read.property.name.as_str()))
            }
            MemberExpression::ComputedMemberExpression(read) => self.computed_property(&read.expression)?,
            MemberExpression::PrivateFieldExpression(_) => {
                return Err(not_in_language(
                    "PrivateIdentifier",
                    "there are no classes: read a.b or a[k]",
                ));
            }
        };
        Ok(Expr::Member(Box::new(Member {
            object,
            property,
            optional,
        })))
    }

    /// The key of `a[key]`: a written string or index resolves now, anything else at run time.
    fn computed_property(&mut self, key: &Expression<'a>) -> Result<Property> {
        if let Some(text) = written_text(key) {
            self.count_written(key);
            return Ok(named_property(text));
        }
        if let Expression::NumericLiteral(number) = key.without_parentheses() {
            self.node();
            return Ok(match number_index(number.value) {
                Some(index) => Property::Index(index),
                None => Property::Computed(Expr::Const(Value::Number(number.value))),
            });
        }
        Ok(Property::Computed(self.expr(key, Position::Operand)?))
    }

    /// Counts the nodes of a written key: a string literal, or a template and its one text.
    fn count_written(&mut self, key: &Expression<'a>) {
        self.node();
        if matches!(key.without_parentheses(), Expression::TemplateLiteral(_)) {
            self.node();
        }
    }

    /// A call, sorted by its callee: a parameter, a host function, a bare global, a method, or any
    /// other value.
    fn call(&mut self, call: &CallExpression<'a>, position: Position) -> Result<Expr> {
        if call.optional {
            return Err(Error::guardrail(
                "An optional call \"?.()\" is not part of the expression language — call a method as a?.b(...), \
                 which skips the call when a is null or undefined",
            ));
        }
        let callee = call.callee.without_parentheses();
        if let Expression::Identifier(identifier) = callee {
            let name = identifier.name.as_str();
            let callee = if self.uninitialized(name) {
                Callee::Value(Expr::Uninitialized(Str::from(name)))
            } else if let Some(local) = self.local(name) {
                Callee::Value(Expr::Local(local))
            } else if let Some(function) = self.hosts.find(name) {
                return self.host_call(name, function, call, position);
            } else {
                if let Some(global) = Global::from_name(name)
                    && !global.is_callable()
                {
                    return Err(not_callable(global));
                }
                Callee::Free(self.free(name))
            };
            self.node();
            self.node();
            let args = self.args(&call.arguments, None)?;
            return Ok(Expr::Call(Box::new(Call { callee, args })));
        }
        if let Some(member) = callee.as_member_expression() {
            return self.method_call(call, member);
        }
        self.node();
        let callee = Callee::Value(self.expr(callee, Position::Operand)?);
        let args = self.args(&call.arguments, None)?;
        Ok(Expr::Call(Box::new(Call { callee, args })))
    }

    /// `receiver.name(…)`, `receiver["name"](…)`, `receiver?.name(…)`, `receiver[key](…)`.
    fn method_call(&mut self, call: &CallExpression<'a>, member: &MemberExpression<'a>) -> Result<Expr> {
        let written = match member {
            MemberExpression::StaticMemberExpression(read) => Some(Str::from(read.property.name.as_str())),
            MemberExpression::ComputedMemberExpression(read) => written_text(&read.expression),
            MemberExpression::PrivateFieldExpression(_) => {
                return Err(not_in_language(
                    "PrivateIdentifier",
                    "there are no classes: call a.b(...)",
                ));
            }
        };
        let Some(text) = written else {
            self.node();
            self.node();
            let receiver = self.expr(member.object(), Position::Operand)?;
            let key = match member {
                MemberExpression::ComputedMemberExpression(read) => self.expr(&read.expression, Position::Operand)?,
                _ => return Err(Error::guardrail("A method name must be written or computed")),
            };
            let args = self.args(&call.arguments, None)?;
            let callee = Callee::Method {
                receiver,
                method: MethodKey::Computed(key),
                optional: member.optional(),
            };
            return Ok(Expr::Call(Box::new(Call { callee, args })));
        };
        // The receiver first: a host function there is refused as a value before its method.
        self.node();
        self.node();
        let receiver = self.expr(member.object(), Position::Operand)?;
        let name = text.to_string_lossy().into_owned();
        let statik = match self.namespace_receiver(member.object()) {
            Some(global) => Some(Static::lookup(global, &name).ok_or_else(|| missing_static(global, &name))?),
            None => None,
        };
        if statik.is_none() && !is_method_name(&name) {
            return Err(unknown_method(&name));
        }
        let method = MethodName {
            array: ArrayMethod::from_name(&name),
            string: StringMethod::from_name(&name),
            number: NumberMethod::from_name(&name),
            statik,
            text,
        };
        let callback = match statik {
            Some(function) => function.callback_argument(),
            None => method.array.and_then(ArrayMethod::callback_argument),
        };
        match member {
            MemberExpression::ComputedMemberExpression(read) => self.count_written(&read.expression),
            _ => self.node(),
        }
        let args = self.args(&call.arguments, callback)?;
        let callee = Callee::Method {
            receiver,
            method: MethodKey::Named(Box::new(method)),
            optional: member.optional(),
        };
        Ok(Expr::Call(Box::new(Call { callee, args })))
    }

    /// The namespace global a method's receiver names, when it is written as that bare name
    /// and no arrow parameter shadows it.
    fn namespace_receiver(&self, receiver: &Expression<'a>) -> Option<Global> {
        let Expression::Identifier(identifier) = receiver.without_parentheses() else {
            return None;
        };
        let name = identifier.name.as_str();
        if self.local(name).is_some() || self.uninitialized(name) {
            return None;
        }
        Global::from_name(name).filter(|global| {
            matches!(
                global,
                Global::Math
                    | Global::Json
                    | Global::Object
                    | Global::Array
                    | Global::Number
                    | Global::String
                    | Global::Date
            )
        })
    }

    /// A call of a host function: only as a result, outside callbacks, with at most one
    /// argument and no spread.
    fn host_call(
        &mut self,
        name: &'a str,
        function: u32,
        call: &CallExpression<'a>,
        position: Position,
    ) -> Result<Expr> {
        if !self.arrows.is_empty() {
            return Err(Error::guardrail(format!(
                "\"{name}\" is a host function: it cannot be called inside a callback. Call one function that \
                 returns everything, as getOrders({{ ids }}) rather than ids.map(id => getOrder({{ id }}))"
            )));
        }
        if position != Position::Result {
            return Err(Error::guardrail(format!(
                "\"{name}\" is a host function: its call must be the result itself, not part of one: the whole \
                 expression, a branch of ?:, or the right side of ??, || or &&, as in cached ?? {name}()"
            )));
        }
        if call
            .arguments
            .iter()
            .any(|argument| matches!(argument, Argument::SpreadElement(_)))
        {
            return Err(Error::guardrail(format!(
                "\"{name}\" cannot be called with a spread argument — pass one object, as {name}({{ ... }})"
            )));
        }
        if call.arguments.len() > 1 {
            return Err(Error::guardrail(format!(
                "\"{name}\" takes a single argument — call it as {name}({{ ... }}), or {name}() when it takes no input"
            )));
        }
        self.node();
        self.node();
        self.free(name);
        if !self.host_calls.contains(&function) {
            self.host_calls.push(function);
        }
        let argument = match call.arguments.first().and_then(Argument::as_expression) {
            Some(argument) => Some(self.expr(argument, Position::Operand)?),
            None => None,
        };
        Ok(Expr::HostCall(Box::new(HostCall { function, argument })))
    }

    /// A call's arguments; the one at `callback` may be an arrow or a one-argument global.
    fn args(&mut self, arguments: &[Argument<'a>], callback: Option<usize>) -> Result<Box<[Arg]>> {
        let mut args = Vec::with_capacity(arguments.len());
        for (at, argument) in arguments.iter().enumerate() {
            let arg = match argument {
                Argument::SpreadElement(spread) => {
                    self.node();
                    Arg::Spread(self.expr(&spread.argument, Position::Operand)?)
                }
                _ => match argument.as_expression() {
                    Some(expression) if callback == Some(at) => self.callback(expression)?,
                    Some(expression) => Arg::Value(self.expr(expression, Position::Operand)?),
                    None => return Err(Error::guardrail("An argument must be an expression")),
                },
            };
            args.push(arg);
        }
        Ok(args.into_boxed_slice())
    }

    /// The argument where a method takes its callback.
    fn callback(&mut self, expression: &Expression<'a>) -> Result<Arg> {
        match expression.without_parentheses() {
            Expression::ArrowFunctionExpression(arrow) => return Ok(Arg::Lambda(Box::new(self.lambda(arrow)?))),
            Expression::Identifier(identifier) => {
                let name = identifier.name.as_str();
                if self.local(name).is_none()
                    && !self.uninitialized(name)
                    && self.hosts.find(name).is_none()
                    && let Some(global) = Global::from_name(name)
                {
                    if global.is_callback() {
                        self.node();
                        return Ok(Arg::GlobalCallback(self.free(name)));
                    }
                    if !matches!(global, Global::Undefined | Global::NaN | Global::Infinity) {
                        return Err(Error::guardrail(format!(
                            "\"{name}\" cannot be passed as a callback — only a global that takes one argument \
                             can, as in rows.filter(Boolean). Write an arrow instead, as xs.map(x => {name}(x))"
                        )));
                    }
                }
            }
            _ => {}
        }
        Ok(Arg::Value(self.expr(expression, Position::Operand)?))
    }

    /// An arrow written as a callback: an expression body, at most [`MAX_ARROW_PARAMS`]
    /// parameters, no rest parameter, not async.
    fn lambda(&mut self, arrow: &ArrowFunctionExpression<'a>) -> Result<Lambda> {
        if arrow.r#async {
            return Err(Error::guardrail(
                "A callback cannot be async — write r => value; a host function's promise can only be the whole \
                 result",
            ));
        }
        let Some(body) = arrow.get_expression() else {
            return Err(block_body());
        };
        if arrow.params.rest.is_some() {
            return Err(Error::guardrail(format!(
                "A rest parameter (...args) is not part of the expression language — name the parameters the \
                 callback reads, at most {MAX_ARROW_PARAMS}"
            )));
        }
        if arrow.params.items.len() > MAX_ARROW_PARAMS {
            return Err(Error::guardrail(format!(
                "A callback takes at most {MAX_ARROW_PARAMS} parameters; this one declares {}",
                arrow.params.items.len()
            )));
        }
        self.enter()?;
        let start = self.nodes;
        self.node();
        let mut pending = Vec::new();
        for param in &arrow.params.items {
            declared_names(&param.pattern, &mut pending);
        }
        self.arrows.push(Arrow {
            names: Vec::new(),
            pending,
            next_slot: 0,
        });
        let lowered = self.lambda_parts(arrow, body);
        let frame = self.arrows.pop();
        if let Some(frame) = &frame {
            for name in &frame.names {
                if let Some(locals) = self.bindings.get_mut(name) {
                    locals.pop();
                }
            }
        }
        self.leave();
        let (params, body) = lowered?;
        let frame_size = frame.map_or(0, |frame| frame.next_slot);
        let simple =
            params.iter().all(|param| matches!(param, Pattern::Slot(_))) && usize::from(frame_size) == params.len();
        Ok(Lambda {
            params,
            body,
            frame_size,
            node_count: self.nodes.saturating_sub(start),
            simple,
        })
    }

    /// The arrow's parameters, in binding order, then its body.
    fn lambda_parts(
        &mut self,
        arrow: &ArrowFunctionExpression<'a>,
        body: &Expression<'a>,
    ) -> Result<(Box<[Pattern]>, Expr)> {
        let mut params = Vec::with_capacity(arrow.params.items.len());
        for param in &arrow.params.items {
            // A default runs before its parameter is bound: it is lowered first, so the names
            // bound so far are exactly those JavaScript has initialized when it runs.
            let pattern = match &param.initializer {
                Some(default) => {
                    self.node();
                    let default = self.expr(default, Position::Operand)?;
                    let target = self.pattern(&param.pattern)?;
                    Pattern::Default(Box::new(target), Box::new(default))
                }
                None => self.pattern(&param.pattern)?,
            };
            params.push(pattern);
        }
        let body = self.expr(body, Position::Operand)?;
        Ok((params.into_boxed_slice(), body))
    }

    /// A binding pattern in an arrow's parameters; its names go to the innermost arrow's frame
    /// in binding order, so a default reads the names bound before it.
    fn pattern(&mut self, pattern: &BindingPattern<'a>) -> Result<Pattern> {
        self.enter()?;
        self.node();
        let lowered = self.pattern_at(pattern);
        self.leave();
        lowered
    }

    /// Lowers a pattern at the current level.
    fn pattern_at(&mut self, pattern: &BindingPattern<'a>) -> Result<Pattern> {
        Ok(match pattern {
            BindingPattern::BindingIdentifier(identifier) => Pattern::Slot(self.bind(identifier.name.as_str())?),
            BindingPattern::ObjectPattern(object) => {
                let mut props = Vec::with_capacity(object.properties.len());
                for property in &object.properties {
                    self.node();
                    let key = self.prop_key(&property.key, property.computed)?;
                    let value = self.pattern(&property.value)?;
                    props.push(PatternProp { key, value });
                }
                let rest = match &object.rest {
                    Some(rest) => match &rest.argument {
                        BindingPattern::BindingIdentifier(identifier) => {
                            self.node();
                            self.node();
                            Some(self.bind(identifier.name.as_str())?)
                        }
                        _ => {
                            return Err(Error::syntax(
                                "Syntax error: the rest element of an object pattern must be a name, as { a, ...rest }",
                            ));
                        }
                    },
                    None => None,
                };
                Pattern::Object {
                    props: props.into_boxed_slice(),
                    rest,
                }
            }
            BindingPattern::ArrayPattern(array) => {
                let mut items = Vec::with_capacity(array.elements.len());
                for element in &array.elements {
                    items.push(match element {
                        Some(element) => Some(self.pattern(element)?),
                        None => None,
                    });
                }
                let rest = match &array.rest {
                    Some(rest) => {
                        self.node();
                        Some(Box::new(self.pattern(&rest.argument)?))
                    }
                    None => None,
                };
                Pattern::Array {
                    items: items.into_boxed_slice(),
                    rest,
                }
            }
            BindingPattern::AssignmentPattern(assignment) => {
                // The default first, as for a parameter's.
                let default = self.expr(&assignment.right, Position::Operand)?;
                let target = self.pattern(&assignment.left)?;
                Pattern::Default(Box::new(target), Box::new(default))
            }
        })
    }

    /// A key in an object literal or pattern: names, strings and numbers as their property
    /// key text (`{ 1.50: x }` has the key "1.5"), or a computed expression.
    fn prop_key(&mut self, key: &PropertyKey<'a>, computed: bool) -> Result<PropKey> {
        if computed {
            return match key.as_expression() {
                Some(expression) => Ok(PropKey::Computed(self.expr(expression, Position::Operand)?)),
                None => Err(Error::guardrail("A computed key must be an expression")),
            };
        }
        self.node();
        Ok(PropKey::Static(match key {
            PropertyKey::StaticIdentifier(identifier) => Str::from(identifier.name.as_str()),
            PropertyKey::StringLiteral(literal) => string_value(literal),
            PropertyKey::NumericLiteral(literal) => number_to_str(literal.value),
            PropertyKey::BigIntLiteral(_) => {
                return Err(not_in_language(
                    "BigIntLiteral",
                    "numbers are doubles: write the key as a string",
                ));
            }
            PropertyKey::PrivateIdentifier(_) => {
                return Err(not_in_language(
                    "PrivateIdentifier",
                    "there are no classes: write a plain key",
                ));
            }
            _ => {
                return Err(Error::guardrail(
                    "An object key must be a name, a string, a number or [computed]",
                ));
            }
        }))
    }

    /// An array literal: items and spreads, no holes.
    fn array(&mut self, array: &ArrayExpression<'a>) -> Result<Expr> {
        self.node();
        let mut elements = Vec::with_capacity(array.elements.len());
        for element in &array.elements {
            elements.push(match element {
                ArrayExpressionElement::SpreadElement(spread) => {
                    self.node();
                    Element::Spread(self.expr(&spread.argument, Position::Operand)?)
                }
                ArrayExpressionElement::Elision(_) => {
                    return Err(Error::guardrail(
                        "An array literal cannot skip an item — write undefined there",
                    ));
                }
                _ => match element.as_expression() {
                    Some(expression) => Element::Item(self.expr(expression, Position::Operand)?),
                    None => return Err(Error::guardrail("An array item must be an expression")),
                },
            });
        }
        Ok(Expr::Array(elements.into_boxed_slice()))
    }

    /// An object literal: `key: value`, shorthands, computed keys and spreads; no accessors,
    /// methods or written `__proto__`.
    fn object(&mut self, object: &ObjectExpression<'a>) -> Result<Expr> {
        self.node();
        let mut props = Vec::with_capacity(object.properties.len());
        for property in &object.properties {
            props.push(match property {
                ObjectPropertyKind::SpreadProperty(spread) => {
                    self.node();
                    Prop::Spread(self.expr(&spread.argument, Position::Operand)?)
                }
                ObjectPropertyKind::ObjectProperty(property) => {
                    if property.kind != PropertyKind::Init {
                        return Err(Error::guardrail(
                            "An object literal cannot define a getter or setter — write key: value",
                        ));
                    }
                    if property.method {
                        return Err(Error::guardrail(
                            "An object literal cannot define a method — write key: value; functions are written \
                             only as arrow callbacks",
                        ));
                    }
                    self.node();
                    let key = self.prop_key(&property.key, property.computed)?;
                    if let PropKey::Static(text) = &key
                        && text.eq_str("__proto__")
                    {
                        return Err(Error::guardrail(
                            "A written \"__proto__\" key is not part of the expression language — it would set the \
                             object's prototype in JavaScript; choose another key",
                        ));
                    }
                    let value = self.expr(&property.value, Position::Operand)?;
                    Prop::Init(key, value)
                }
            });
        }
        Ok(record(props).unwrap_or_else(|props| Expr::Object(props.into_boxed_slice())))
    }
}

/// A `Property` for a written key: an index when the text is a canonical array index.
fn named_property(text: Str) -> Property {
    match js::array_index(&text) {
        Some(index) => Property::Index(index),
        None => Property::Named(HintedKey::new(text)),
    }
}

/// The array index a number literal names, if it is one (`-0` names index 0, as in JS).
fn number_index(value: f64) -> Option<u32> {
    if value.fract() == 0.0 && (0.0..4_294_967_295.0).contains(&value) {
        // In range and integral, so the conversion is exact.
        Some(value as u32)
    } else {
        None
    }
}

/// The text of a written key: a string literal, or a template without substitutions.
fn written_text(key: &Expression<'_>) -> Option<Str> {
    match key.without_parentheses() {
        Expression::StringLiteral(literal) => Some(string_value(literal)),
        Expression::TemplateLiteral(template) if template.expressions.is_empty() => {
            let quasi = template.quasis.first()?;
            let cooked = quasi.value.cooked.as_ref()?;
            Some(js_string(cooked.as_str(), quasi.lone_surrogates))
        }
        _ => None,
    }
}

/// A string literal's cooked value, lone surrogates kept.
fn string_value(literal: &StringLiteral<'_>) -> Str {
    js_string(literal.value.as_str(), literal.lone_surrogates)
}

/// A cooked string or template text as a JS string. oxc keeps text as UTF-8; when it holds
/// lone surrogates it marks each as U+FFFD followed by four hex digits of the code unit, and
/// writes a real U+FFFD as U+FFFD `fffd`.
fn js_string(text: &str, lone_surrogates: bool) -> Str {
    if !lone_surrogates {
        return Str::from(text);
    }
    let mut units: Vec<u16> = Vec::with_capacity(text.len());
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        if c == '\u{FFFD}' {
            let digits = at + c.len_utf8();
            if let Some(unit) = text
                .get(digits..digits + 4)
                .and_then(|hex| u16::from_str_radix(hex, 16).ok())
            {
                units.push(unit);
                // The four digits are ASCII: one char each.
                for _ in 0..4 {
                    chars.next();
                }
                continue;
            }
        }
        let mut buffer = [0u16; 2];
        units.extend_from_slice(c.encode_utf16(&mut buffer));
    }
    Str::from_utf16(&units)
}

/// The language operator for a binary operator, or its refusal.
fn binary_op(operator: BinaryOperator) -> Result<BinaryOp> {
    Ok(match operator {
        BinaryOperator::Addition => BinaryOp::Add,
        BinaryOperator::Subtraction => BinaryOp::Sub,
        BinaryOperator::Multiplication => BinaryOp::Mul,
        BinaryOperator::Division => BinaryOp::Div,
        BinaryOperator::Remainder => BinaryOp::Rem,
        BinaryOperator::Exponential => BinaryOp::Exp,
        BinaryOperator::Equality => BinaryOp::LooseEq,
        BinaryOperator::Inequality => BinaryOp::LooseNe,
        BinaryOperator::StrictEquality => BinaryOp::StrictEq,
        BinaryOperator::StrictInequality => BinaryOp::StrictNe,
        BinaryOperator::LessThan => BinaryOp::Lt,
        BinaryOperator::LessEqualThan => BinaryOp::Le,
        BinaryOperator::GreaterThan => BinaryOp::Gt,
        BinaryOperator::GreaterEqualThan => BinaryOp::Ge,
        BinaryOperator::In => {
            return Err(not_in_language(
                "in",
                "to test for a key, write Object.hasOwn(object, key)",
            ));
        }
        BinaryOperator::Instanceof => {
            return Err(not_in_language(
                "instanceof",
                "every value is JSON: test with Array.isArray(x) or typeof x",
            ));
        }
        BinaryOperator::ShiftLeft
        | BinaryOperator::ShiftRight
        | BinaryOperator::ShiftRightZeroFill
        | BinaryOperator::BitwiseOR
        | BinaryOperator::BitwiseXOR
        | BinaryOperator::BitwiseAnd => return Err(bitwise(operator.as_str())),
    })
}

/// The refusal of a bitwise or shift operator.
fn bitwise(operator: &str) -> Error {
    not_in_language(
        operator,
        "bitwise operators are left out: use Math.trunc, Math.floor, % or Math.imul for integer arithmetic",
    )
}

/// The refusal of a host function used other than as a callee.
fn host_as_value(name: &str) -> Error {
    Error::guardrail(format!(
        "\"{name}\" is a host function — it can only be called, as {name}(...), not used as a value"
    ))
}

/// The refusal of an arrow written anywhere but at a callback position, listing those methods.
fn misplaced_arrow() -> Error {
    let mut methods: Vec<&str> = ArrayMethod::ALL
        .iter()
        .filter(|method| method.callback_argument().is_some())
        .map(|m| m.name())
        .collect();
    methods.extend(["Array.from", "Object.groupBy"]);
    Error::guardrail(format!(
        "A function can only be written as a method's callback, as in rows.map(r => r.name). Methods that take \
         one: {}",
        methods.join(", ")
    ))
}

/// The refusal of a bare call of a global that is not a function of the language.
fn not_callable(global: Global) -> Error {
    let name = global.name();
    let hint = match global {
        Global::Date => "a date is an ISO string or a timestamp: use Date.parse(text) or Date.UTC(year, month, day)",
        Global::Undefined | Global::NaN | Global::Infinity => "it is a value, not a function",
        Global::Object => "build an object with a literal, as { key: value }, or use Object.fromEntries(...)",
        Global::Array => "build an array with a literal, as [a, b], or use Array.from(...) or Array.of(...)",
        _ => "it is a namespace: call one of its functions, as Math.max(a, b) or JSON.stringify(value)",
    };
    Error::guardrail(format!("\"{name}\" cannot be called — {hint}"))
}

/// The refusal of a namespace function the language does not have, with the closest one.
fn missing_static(global: Global, name: &str) -> Error {
    let namespace = global.name();
    if matches!((global, name), (Global::Math, "random") | (Global::Date, "now")) {
        return Error::guardrail(format!(
            "\"{namespace}.{name}\" is not available: random values and the time come from host functions, so the \
             same data always gives the same result"
        ));
    }
    let names = Static::names_of(global);
    let hint = match closest_name(name, names.iter().copied()) {
        Some(close) => format!("did you mean {namespace}.{close}?"),
        None => format!("{namespace} has {}", names.join(", ")),
    };
    Error::guardrail(format!("\"{namespace}.{name}\" is not available — {hint}"))
}

/// The refusal of a written method name in no table, with what to write instead.
fn unknown_method(name: &str) -> Error {
    let hint: Cow<'static, str> = match name {
        "push" | "unshift" => {
            "the language has no mutation: build a new array, as items.concat([x]) or [...items, x]".into()
        }
        "pop" | "shift" => {
            "the language has no mutation: read items.at(-1) or items[0], and items.slice(...) for the rest".into()
        }
        "sort" => "the language has no mutation: toSorted returns a sorted copy".into(),
        "reverse" => "the language has no mutation: toReversed returns a reversed copy".into(),
        "splice" => "the language has no mutation: toSpliced returns a changed copy".into(),
        "fill" | "copyWithin" => "the language has no mutation: build a new array with map, with or Array.from".into(),
        "forEach" => "a callback has no effect to run: compute a value with map, filter or reduce".into(),
        "match" | "matchAll" | "search" | "test" | "exec" => {
            "regular expressions are left out: use includes, startsWith, endsWith, indexOf or split".into()
        }
        "substr" => "use slice or substring".into(),
        "call" | "apply" | "bind" => "a function is never a value: call the method directly".into(),
        _ => match closest_name(name, all_method_names()) {
            Some(close) => format!("did you mean {close}?").into(),
            None => "the methods are those of arrays, strings and numbers, and the functions of Math, JSON, \
                     Object, Array, Number, String and Date"
                .into(),
        },
    };
    Error::guardrail(format!("\"{name}\" is not an available method — {hint}"))
}

/// Every method and namespace function name, for suggestions.
fn all_method_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = ArrayMethod::ALL.iter().map(|m| m.name()).collect();
    names.extend(StringMethod::ALL.iter().map(|m| m.name()));
    names.extend(NumberMethod::ALL.iter().map(|m| m.name()));
    for global in [
        Global::Math,
        Global::Json,
        Global::Object,
        Global::Array,
        Global::Number,
        Global::String,
        Global::Date,
    ] {
        names.extend(Static::names_of(global));
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// The ESTree name of a node type, for messages.
fn node_type(expression: &Expression<'_>) -> &'static str {
    match expression {
        Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::NumericLiteral(_)
        | Expression::StringLiteral(_) => "Literal",
        Expression::BigIntLiteral(_) => "BigIntLiteral",
        Expression::RegExpLiteral(_) => "RegExpLiteral",
        Expression::TemplateLiteral(_) => "TemplateLiteral",
        Expression::Identifier(_) => "Identifier",
        Expression::Super(_) => "Super",
        Expression::ArrayExpression(_) => "ArrayExpression",
        Expression::ArrowFunctionExpression(_) => "ArrowFunctionExpression",
        Expression::AssignmentExpression(_) => "AssignmentExpression",
        Expression::AwaitExpression(_) => "AwaitExpression",
        Expression::BinaryExpression(_) => "BinaryExpression",
        Expression::CallExpression(_) => "CallExpression",
        Expression::ChainExpression(_) => "ChainExpression",
        Expression::ClassExpression(_) => "ClassExpression",
        Expression::ConditionalExpression(_) => "ConditionalExpression",
        Expression::FunctionExpression(_) => "FunctionExpression",
        Expression::ImportExpression(_) => "ImportExpression",
        Expression::LogicalExpression(_) => "LogicalExpression",
        Expression::NewExpression(_) => "NewExpression",
        Expression::ObjectExpression(_) => "ObjectExpression",
        Expression::ParenthesizedExpression(_) => "ParenthesizedExpression",
        Expression::SequenceExpression(_) => "SequenceExpression",
        Expression::TaggedTemplateExpression(_) => "TaggedTemplateExpression",
        Expression::ThisExpression(_) => "ThisExpression",
        Expression::UnaryExpression(_) => "UnaryExpression",
        Expression::UpdateExpression(_) => "UpdateExpression",
        Expression::YieldExpression(_) => "YieldExpression",
        Expression::PrivateInExpression(_) => "PrivateInExpression",
        Expression::ImportMeta(_) | Expression::NewTarget(_) => "MetaProperty",
        Expression::JSXElement(_) => "JSXElement",
        Expression::JSXFragment(_) => "JSXFragment",
        Expression::StaticMemberExpression(_)
        | Expression::ComputedMemberExpression(_)
        | Expression::PrivateFieldExpression(_) => "MemberExpression",
        Expression::V8IntrinsicExpression(_) => "V8IntrinsicExpression",
        _ => "TypeScript expression",
    }
}

/// An object literal of written keys only, distinct and none an array index, as a
/// [`Record`]: its key list is built once here and shared by every object it makes.
fn record(props: Vec<Prop>) -> std::result::Result<Expr, Vec<Prop>> {
    let mut keys = Vec::with_capacity(props.len());
    for prop in &props {
        match prop {
            Prop::Init(PropKey::Static(key), _) => keys.push(key.clone()),
            _ => return Err(props),
        }
    }
    let Some(shape) = writ_core::Shape::new(&keys) else {
        return Err(props);
    };
    let values = props
        .into_iter()
        .filter_map(|prop| match prop {
            Prop::Init(_, value) => Some(value),
            Prop::Spread(_) => None,
        })
        .collect();
    Ok(Expr::Record(Box::new(Record { shape, values })))
}
