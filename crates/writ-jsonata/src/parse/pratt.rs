//! The Pratt parser: tokens to the raw tree, as jsonata-js's top-down operator-precedence
//! parser builds it (before its post-parse stage).
//!
//! It follows jsonata-js call for call, including when it asks the tokenizer for the next
//! token and whether that token may start a regular expression, so that the first error met is
//! the one jsonata-js reports. Nesting is counted as it recurses and every node's height is
//! checked as it is built, so no input can make it (or what walks its tree) recurse deeper
//! than [`MAX_DEPTH`] levels.

use std::sync::Arc;

use writ_core::Str;

use super::MAX_DEPTH;
use super::lexer::{Lexer, Tok, Token};
use crate::ast::BinaryOp;
use crate::error::{Code, Error, Result};
use crate::regex::Pattern;
use crate::signature::Signature;

/// A node of the raw tree.
#[derive(Debug)]
pub(super) struct Raw {
    /// What it is.
    pub(super) kind: RawKind,
    /// The position of its token.
    pub(super) position: usize,
    /// `[]` was written after it.
    pub(super) keep_array: bool,
    /// Its height: 1 for a leaf.
    height: usize,
}

/// What a raw node is.
#[derive(Debug)]
pub(super) enum RawKind {
    /// A name (also `and`, `or`, `in` where an operand stands).
    Name(Str),
    /// `$name`.
    Variable(Str),
    /// A string literal.
    String(Str),
    /// A number literal.
    Number(f64),
    /// `true`/`false`.
    Bool(bool),
    /// `null`.
    Null,
    /// A regular expression, and its text as jsonata-js shows it.
    Regex(Arc<Pattern>, Arc<str>),
    /// `*`.
    Wildcard,
    /// `**`.
    Descendant,
    /// `%`.
    Parent,
    /// `?` as an argument.
    Placeholder,
    /// The end of the text where an operand should be.
    End,
    /// `a.b.c`: a chain of `.` (left-associative, so kept flat).
    Dot(Vec<Raw>),
    /// An arithmetic, comparison, boolean, `&`, `in` or `..` operator.
    Binary(BinaryOp, Box<Raw>, Box<Raw>),
    /// `a[b]`.
    Filter(Box<Raw>, Box<Raw>),
    /// `a{k: v}`.
    Group(Box<Raw>, Vec<(Raw, Raw)>),
    /// `a^(<x, >y)`: the terms with `true` for descending.
    Sort(Box<Raw>, Vec<(bool, Raw)>),
    /// `$v := a` (the variable's name).
    Bind(Str, Box<Raw>),
    /// `a@$v`.
    Focus(Box<Raw>, Str),
    /// `a#$v`.
    Index(Box<Raw>, Str),
    /// `a ~> b`.
    Apply(Box<Raw>, Box<Raw>),
    /// `-a`.
    Negate(Box<Raw>),
    /// `[a, b]`.
    Array(Vec<Raw>),
    /// `{k: v}`.
    Object(Vec<(Raw, Raw)>),
    /// `f(a, b)`; `true` when some argument is `?`.
    Call(Box<Raw>, Vec<Raw>, bool),
    /// `function($a)<sig>{body}`.
    Lambda(Vec<Str>, Option<Signature>, Box<Raw>),
    /// `c ? a : b`.
    Condition(Box<Raw>, Box<Raw>, Option<Box<Raw>>),
    /// `a ?: b`.
    Elvis(Box<Raw>, Box<Raw>),
    /// `a ?? b`.
    Coalesce(Box<Raw>, Box<Raw>),
    /// `| pattern | update, delete |`.
    Transform(Box<Raw>, Box<Raw>, Option<Box<Raw>>),
    /// `(a; b)`.
    Block(Vec<Raw>),
}

impl Raw {
    /// The node's value as jsonata-js's errors name it: a leaf's value, else its operator.
    pub(super) fn text(&self) -> String {
        match &self.kind {
            RawKind::Name(s) | RawKind::Variable(s) | RawKind::String(s) => s.to_string_lossy().into_owned(),
            RawKind::Number(n) => writ_core::js_number_to_string(*n),
            RawKind::Bool(b) => b.to_string(),
            RawKind::Null => "null".to_owned(),
            RawKind::Regex(_, text) => text.to_string(),
            other => other.symbol().to_owned(),
        }
    }
}

impl RawKind {
    /// The operator or token that makes a non-leaf node.
    fn symbol(&self) -> &'static str {
        match self {
            RawKind::Wildcard => "*",
            RawKind::Descendant => "**",
            RawKind::Parent => "%",
            RawKind::Placeholder | RawKind::Condition(..) => "?",
            RawKind::End => "(end)",
            RawKind::Dot(_) => ".",
            RawKind::Binary(op, ..) => op.symbol(),
            RawKind::Filter(..) | RawKind::Array(_) => "[",
            RawKind::Group(..) | RawKind::Object(_) => "{",
            RawKind::Sort(..) => "^",
            RawKind::Bind(..) => ":=",
            RawKind::Focus(..) => "@",
            RawKind::Index(..) => "#",
            RawKind::Apply(..) => "~>",
            RawKind::Negate(_) => "-",
            RawKind::Call(..) | RawKind::Lambda(..) | RawKind::Block(_) => "(",
            RawKind::Elvis(..) => "?:",
            RawKind::Coalesce(..) => "??",
            RawKind::Transform(..) => "|",
            RawKind::Name(_)
            | RawKind::Variable(_)
            | RawKind::String(_)
            | RawKind::Number(_)
            | RawKind::Bool(_)
            | RawKind::Null
            | RawKind::Regex(..) => "",
        }
    }

    /// The height of a node of this kind: one more than its highest child.
    fn height(&self) -> usize {
        let of = |node: &Raw| node.height;
        let pairs = |pairs: &[(Raw, Raw)]| pairs.iter().map(|(k, v)| k.height.max(v.height)).max().unwrap_or(0);
        let below = match self {
            RawKind::Dot(items) | RawKind::Array(items) | RawKind::Block(items) => {
                items.iter().map(of).max().unwrap_or(0)
            }
            RawKind::Binary(_, a, b)
            | RawKind::Filter(a, b)
            | RawKind::Apply(a, b)
            | RawKind::Elvis(a, b)
            | RawKind::Coalesce(a, b) => a.height.max(b.height),
            RawKind::Group(a, kv) => a.height.max(pairs(kv)),
            RawKind::Object(kv) => pairs(kv),
            RawKind::Sort(a, terms) => a.height.max(terms.iter().map(|(_, t)| t.height).max().unwrap_or(0)),
            RawKind::Bind(_, a)
            | RawKind::Focus(a, _)
            | RawKind::Index(a, _)
            | RawKind::Negate(a)
            | RawKind::Lambda(_, _, a) => a.height,
            RawKind::Call(f, args, _) => f.height.max(args.iter().map(of).max().unwrap_or(0)),
            RawKind::Condition(a, b, c) | RawKind::Transform(a, b, c) => {
                a.height.max(b.height).max(c.as_ref().map_or(0, |c| c.height))
            }
            _ => 0,
        };
        below + 1
    }
}

/// The error for nesting past [`MAX_DEPTH`].
pub(super) fn too_deep(position: usize) -> Error {
    Error::new(Code::U1001)
        .at(position)
        .with_value(MAX_DEPTH.to_string())
        .with_detail(format!(
            "the expression nests deeper than {MAX_DEPTH} levels: flatten it, for example by binding parts to variables"
        ))
}

/// A node at `position`, refused if it would be higher than [`MAX_DEPTH`].
fn node(kind: RawKind, position: usize) -> Result<Raw> {
    let height = kind.height();
    if height > MAX_DEPTH {
        return Err(too_deep(position));
    }
    Ok(Raw {
        kind,
        position,
        keep_array: false,
        height,
    })
}

/// How tightly an operator token binds to its left (jsonata-js's `lbp`; 0 for all else).
fn left_power(token: &Token) -> u8 {
    match token.tok {
        Tok::Op(op) => match op {
            "." => 75,
            "[" | "(" | "@" | "#" => 80,
            "{" => 70,
            "*" | "/" | "%" => 60,
            "+" | "-" | "&" => 50,
            "=" | "<" | ">" | "!=" | "<=" | ">=" | "~>" | "?:" | "??" | "in" | "^" => 40,
            "and" => 30,
            "or" => 25,
            "?" => 20,
            ":=" => 10,
            _ => 0,
        },
        _ => 0,
    }
}

/// The binary operator an infix token makes, with its binding power.
fn binary(op: &str) -> Option<(BinaryOp, u8)> {
    Some(match op {
        "+" => (BinaryOp::Add, 50),
        "-" => (BinaryOp::Subtract, 50),
        "*" => (BinaryOp::Multiply, 60),
        "/" => (BinaryOp::Divide, 60),
        "%" => (BinaryOp::Modulo, 60),
        "=" => (BinaryOp::Equal, 40),
        "!=" => (BinaryOp::NotEqual, 40),
        "<" => (BinaryOp::Less, 40),
        "<=" => (BinaryOp::LessEqual, 40),
        ">" => (BinaryOp::Greater, 40),
        ">=" => (BinaryOp::GreaterEqual, 40),
        "&" => (BinaryOp::Concat, 50),
        "and" => (BinaryOp::And, 30),
        "or" => (BinaryOp::Or, 25),
        "in" => (BinaryOp::In, 40),
        _ => return None,
    })
}

/// The parser's state: the tokenizer, the current token, and how deep it has recursed.
pub(super) struct Parser {
    /// Where the tokens come from.
    lexer: Lexer,
    /// The current token (jsonata-js's `node`).
    node: Token,
    /// How many `expression` calls are open.
    depth: usize,
}

/// The stack kept free below each level of recursion, and the size of each extra segment.
const RED_ZONE: usize = 64 * 1024;
/// See [`RED_ZONE`].
const SEGMENT: usize = 1024 * 1024;

impl Parser {
    /// Parses `source` into a raw tree.
    pub(super) fn parse(source: &str) -> Result<Raw> {
        let lexer = Lexer::new(source);
        let mut parser = Parser {
            lexer,
            node: Token {
                tok: Tok::End,
                position: 0,
            },
            depth: 0,
        };
        parser.advance(None, false)?;
        let tree = parser.expression(0)?;
        if !matches!(parser.node.tok, Tok::End) {
            return Err(Error::new(Code::S0201)
                .at(parser.node.position)
                .with_token(parser.node.text()));
        }
        Ok(tree)
    }

    /// Checks the current token is `expected` (when given) and moves to the next one. `infix`
    /// says the next token follows an operand (so `/` is division).
    fn advance(&mut self, expected: Option<&'static str>, infix: bool) -> Result<()> {
        if let Some(id) = expected
            && self.node.id() != id
        {
            let code = if matches!(self.node.tok, Tok::End) {
                Code::S0203
            } else {
                Code::S0202
            };
            return Err(Error::new(code)
                .at(self.node.position)
                .with_token(self.node.text())
                .with_value(id));
        }
        self.node = match self.lexer.next(infix)? {
            None => Token {
                tok: Tok::End,
                position: self.lexer.len(),
            },
            Some(token) => {
                if let Tok::Op(op @ ("!" | "~")) = token.tok {
                    return Err(Error::new(Code::S0204).at(token.position).with_token(op));
                }
                token
            }
        };
        Ok(())
    }

    /// Parses an expression whose operators bind tighter than `rbp`.
    fn expression(&mut self, rbp: u8) -> Result<Raw> {
        if self.depth >= MAX_DEPTH {
            return Err(too_deep(self.node.position));
        }
        self.depth += 1;
        let result = stacker::maybe_grow(RED_ZONE, SEGMENT, || self.expression_here(rbp));
        self.depth -= 1;
        result
    }

    /// The body of [`Parser::expression`].
    fn expression_here(&mut self, rbp: u8) -> Result<Raw> {
        let token = self.node.clone();
        self.advance(None, true)?;
        let mut left = self.prefix(token)?;
        while rbp < left_power(&self.node) {
            let token = self.node.clone();
            self.advance(None, false)?;
            left = self.infix(token, left)?;
        }
        Ok(left)
    }

    /// A token where an operand starts (jsonata-js's `nud`).
    fn prefix(&mut self, token: Token) -> Result<Raw> {
        let position = token.position;
        let kind = match token.tok {
            Tok::Name(s) => RawKind::Name(s),
            Tok::Variable(s) => RawKind::Variable(s),
            Tok::String(s) => RawKind::String(s),
            Tok::Number(n) => RawKind::Number(n),
            Tok::Bool(b) => RawKind::Bool(b),
            Tok::Null => RawKind::Null,
            Tok::Regex(pattern, text) => RawKind::Regex(pattern, text),
            Tok::End => RawKind::End,
            Tok::Op(op @ ("and" | "or" | "in")) => RawKind::Name(Str::from(op)),
            Tok::Op("-") => RawKind::Negate(Box::new(self.expression(70)?)),
            Tok::Op("*") => RawKind::Wildcard,
            Tok::Op("**") => RawKind::Descendant,
            Tok::Op("%") => RawKind::Parent,
            Tok::Op("(") => {
                let mut expressions = Vec::new();
                while !self.node.is(")") {
                    expressions.push(self.expression(0)?);
                    if !self.node.is(";") {
                        break;
                    }
                    self.advance(Some(";"), false)?;
                }
                self.advance(Some(")"), true)?;
                RawKind::Block(expressions)
            }
            Tok::Op("[") => {
                let mut items = Vec::new();
                if !self.node.is("]") {
                    loop {
                        let mut item = self.expression(0)?;
                        if self.node.is("..") {
                            let at = self.node.position;
                            self.advance(Some(".."), false)?;
                            let end = self.expression(0)?;
                            item = node(RawKind::Binary(BinaryOp::Range, Box::new(item), Box::new(end)), at)?;
                        }
                        items.push(item);
                        if !self.node.is(",") {
                            break;
                        }
                        self.advance(Some(","), false)?;
                    }
                }
                self.advance(Some("]"), true)?;
                RawKind::Array(items)
            }
            Tok::Op("{") => RawKind::Object(self.pairs()?),
            Tok::Op("|") => {
                let pattern = self.expression(0)?;
                self.advance(Some("|"), false)?;
                let update = self.expression(0)?;
                let delete = if self.node.is(",") {
                    self.advance(Some(","), false)?;
                    Some(Box::new(self.expression(0)?))
                } else {
                    None
                };
                self.advance(Some("|"), false)?;
                RawKind::Transform(Box::new(pattern), Box::new(update), delete)
            }
            Tok::Op(op) => return Err(Error::new(Code::S0211).at(position).with_token(op)),
        };
        node(kind, position)
    }

    /// The pairs of an object constructor or group-by, up to and past its `}`.
    fn pairs(&mut self) -> Result<Vec<(Raw, Raw)>> {
        let mut pairs = Vec::new();
        if !self.node.is("}") {
            loop {
                let key = self.expression(0)?;
                self.advance(Some(":"), false)?;
                let value = self.expression(0)?;
                pairs.push((key, value));
                if !self.node.is(",") {
                    break;
                }
                self.advance(Some(","), false)?;
            }
        }
        self.advance(Some("}"), true)?;
        Ok(pairs)
    }

    /// An operator token after `left` (jsonata-js's `led`).
    fn infix(&mut self, token: Token, left: Raw) -> Result<Raw> {
        let position = token.position;
        let Tok::Op(op) = token.tok else {
            return Err(Error::new(Code::S0201).at(position).with_token(token.text()));
        };
        if let Some((op, power)) = binary(op) {
            let right = self.expression(power)?;
            return node(RawKind::Binary(op, Box::new(left), Box::new(right)), position);
        }
        let kind = match op {
            "." => {
                let right = self.expression(75)?;
                return match left.kind {
                    RawKind::Dot(mut steps) => {
                        // The chain's height grows only with this step's: no need to look
                        // at the others again (a path may have any number of steps).
                        let height = left.height.max(right.height + 1);
                        steps.push(right);
                        Ok(Raw {
                            kind: RawKind::Dot(steps),
                            position,
                            keep_array: false,
                            height,
                        })
                    }
                    _ => node(RawKind::Dot(vec![left, right]), position),
                };
            }
            "~>" => RawKind::Apply(Box::new(left), Box::new(self.expression(40)?)),
            "??" => RawKind::Coalesce(Box::new(left), Box::new(self.expression(0)?)),
            "?:" => RawKind::Elvis(Box::new(left), Box::new(self.expression(0)?)),
            "(" => return self.call(left, position),
            "[" => {
                if self.node.is("]") {
                    let mut left = left;
                    mark_keep_array(&mut left);
                    self.advance(Some("]"), false)?;
                    return Ok(left);
                }
                let predicate = self.expression(0)?;
                let filtered = node(RawKind::Filter(Box::new(left), Box::new(predicate)), position)?;
                self.advance(Some("]"), true)?;
                return Ok(filtered);
            }
            "^" => {
                self.advance(Some("("), false)?;
                let mut terms = Vec::new();
                loop {
                    let mut descending = false;
                    if self.node.is("<") {
                        self.advance(Some("<"), false)?;
                    } else if self.node.is(">") {
                        descending = true;
                        self.advance(Some(">"), false)?;
                    }
                    terms.push((descending, self.expression(0)?));
                    if !self.node.is(",") {
                        break;
                    }
                    self.advance(Some(","), false)?;
                }
                self.advance(Some(")"), false)?;
                RawKind::Sort(Box::new(left), terms)
            }
            "{" => RawKind::Group(Box::new(left), self.pairs()?),
            ":=" => {
                let RawKind::Variable(name) = &left.kind else {
                    return Err(Error::new(Code::S0212).at(left.position).with_token(left.text()));
                };
                let name = name.clone();
                RawKind::Bind(name, Box::new(self.expression(9)?))
            }
            "@" | "#" => {
                let right = self.expression(80)?;
                let RawKind::Variable(name) = right.kind else {
                    return Err(Error::new(Code::S0214).at(right.position).with_token(op));
                };
                if op == "@" {
                    RawKind::Focus(Box::new(left), name)
                } else {
                    RawKind::Index(Box::new(left), name)
                }
            }
            "?" => {
                let then = self.expression(0)?;
                let otherwise = if self.node.is(":") {
                    self.advance(Some(":"), false)?;
                    Some(Box::new(self.expression(0)?))
                } else {
                    None
                };
                RawKind::Condition(Box::new(left), Box::new(then), otherwise)
            }
            _ => return Err(Error::new(Code::S0201).at(position).with_token(op)),
        };
        node(kind, position)
    }

    /// `left(args)`: a call, a partial application, or (when `left` is the name `function`
    /// or `λ`) a lambda with its optional signature and body.
    fn call(&mut self, left: Raw, position: usize) -> Result<Raw> {
        let mut args = Vec::new();
        let mut partial = false;
        if !self.node.is(")") {
            loop {
                if self.node.is("?") {
                    partial = true;
                    args.push(node(RawKind::Placeholder, self.node.position)?);
                    self.advance(Some("?"), false)?;
                } else {
                    args.push(self.expression(0)?);
                }
                if !self.node.is(",") {
                    break;
                }
                self.advance(Some(","), false)?;
            }
        }
        self.advance(Some(")"), true)?;
        let is_lambda = matches!(&left.kind, RawKind::Name(name) if name.eq_str("function") || name.eq_str("\u{3bb}"));
        if !is_lambda {
            return node(RawKind::Call(Box::new(left), args, partial), position);
        }
        let mut params = Vec::with_capacity(args.len());
        for (index, arg) in args.into_iter().enumerate() {
            let RawKind::Variable(name) = arg.kind else {
                return Err(Error::new(Code::S0208)
                    .at(arg.position)
                    .with_token(arg.text())
                    .with_value((index + 1).to_string()));
            };
            params.push(name);
        }
        let signature = if self.node.is("<") {
            Some(self.signature()?)
        } else {
            None
        };
        self.advance(Some("{"), false)?;
        let body = self.expression(0)?;
        self.advance(Some("}"), false)?;
        node(RawKind::Lambda(params, signature, Box::new(body)), position)
    }

    /// A lambda's `<…>` signature: its tokens' values joined up to the `>` that balances the
    /// first `<`, then parsed (its errors placed relative to the `<`).
    fn signature(&mut self) -> Result<Signature> {
        let start = self.node.position;
        let mut depth = 1usize;
        let mut text = String::from("<");
        while depth > 0 && !self.node.is("{") && !matches!(self.node.tok, Tok::End) {
            self.advance(None, false)?;
            if self.node.is(">") {
                depth -= 1;
            } else if self.node.is("<") {
                depth += 1;
            }
            text.push_str(&self.node.text());
        }
        self.advance(Some(">"), false)?;
        Signature::parse(&text).map_err(|error| error.moved_by(start))
    }
}

/// Marks what `[]` after `left` applies to: the step under any filters.
fn mark_keep_array(left: &mut Raw) {
    let mut step = left;
    while let RawKind::Filter(inner, _) = &mut step.kind {
        step = inner;
    }
    step.keep_array = true;
}
