//! The nesting pre-scan: a linear pass over the source, before oxc runs, that refuses any
//! source that could make the parser recurse deeper than [`MAX_AST_DEPTH`] levels.
//!
//! oxc parses by recursive descent and has no depth limit: a few hundred nested brackets
//! overflow a 2 MiB stack in a debug build, which aborts the process. This pass mirrors the
//! parser's recursion closely enough to bound it:
//!
//! - every open `(`, `[`, `{` and template `${` is a level, kept until its closer;
//! - every prefix operator (`!`, `-`, `+`, `~`, `typeof`, `void`, `delete`, `new`, `...`,
//!   prefix `++`/`--`, `yield`) is a level until the operand ends at the next infix token;
//! - every `?`, `=>` and assignment operator is a level until the next `,` or closer, since
//!   the parser recurses into their right-hand side;
//! - binary operators are tracked as the parser's precedence-climbing stack: a level per
//!   operator of rising precedence, and a level per `**` (which is right-associative).
//!
//! Their sum may never pass [`MAX_AST_DEPTH`]. Strings, template text and comments are skipped
//! exactly as oxc's lexer skips them (line breaks end strings, `\r\n` after a backslash is one
//! continuation, LS and PS end line comments), because a bracket the scan skips but the parser
//! reads, or the other way round, would let real nesting go uncounted. The constructs where
//! a scan cannot know what the lexer will do are refused outright; none is in the language:
//!
//! - a `/` where an operand is expected starts a regular expression, whose body the scan could
//!   not bound;
//! - a `/` after `yield`, after a word spelled with escapes or non-ASCII letters, or after
//!   `@`, where the parser may read either a division or a regular expression;
//! - a `{` where no operand is expected: a block (an arrow's or function's body, a class
//!   body), whose statements could hold regular expressions the scan cannot tell apart;
//! - `await`, `class`, `as` and `satisfies` (`class … extends A<…>` and `x as T` make oxc parse
//!   TypeScript types, whose `<…>` nesting no bracket count sees), `@` decorators, and the
//!   legacy HTML comments `<!--` and `-->`.

use crate::error::{Error, Result};
use writ_core::js;

use super::MAX_AST_DEPTH;

/// Precedences of the binary operators, as oxc ranks them (`oxc_syntax::precedence`).
const NULLISH: u8 = 6;
/// `||`.
const LOGICAL_OR: u8 = 7;
/// `&&`.
const LOGICAL_AND: u8 = 8;
/// `|`.
const BITWISE_OR: u8 = 9;
/// `^`.
const BITWISE_XOR: u8 = 10;
/// `&`.
const BITWISE_AND: u8 = 11;
/// `==`, `!=`, `===`, `!==`.
const EQUALS: u8 = 12;
/// `<`, `>`, `<=`, `>=`, `in`, `instanceof`.
const COMPARE: u8 = 13;
/// `<<`, `>>`, `>>>`.
const SHIFT: u8 = 14;
/// `+`, `-`.
const ADD: u8 = 15;
/// `*`, `/`, `%`.
const MULTIPLY: u8 = 16;
/// `**`, the one right-associative binary operator.
const EXPONENT: u8 = 17;

/// What the previous significant token lets come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// An operand is expected: `/` starts a regular expression, `{` an object literal.
    Operand,
    /// An operand just ended: `/` divides, `+` adds, `++` is postfix.
    AfterOperand,
    /// Right after `=>`: an operand is expected, and `{` would open a block body.
    AfterArrow,
    /// Right after `.` or `?.`: the next word is a property name, whatever it spells.
    AfterDot,
    /// After a token the parser may read either way (`yield`, an escaped or non-ASCII word,
    /// `@`): a `/` or `{` here cannot be classified, so it is refused.
    Ambiguous,
}

/// Which bracket opened a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bracket {
    /// `(`.
    Paren,
    /// `[`.
    Square,
    /// `{`.
    Curly,
    /// `${` inside a template: its `}` returns to template text.
    Substitution,
}

/// The counters of the enclosing level, restored when its bracket closes.
struct Frame {
    /// The opener, which only its own closer pops.
    bracket: Bracket,
    /// The enclosing level's [`Scanner::base`].
    base: usize,
    /// The enclosing level's [`Scanner::chain`].
    chain: usize,
    /// The enclosing level's [`Scanner::prefix`].
    prefix: usize,
    /// The enclosing level's [`Scanner::climb_start`].
    climb_start: usize,
}

/// The scan's position and the nesting it has counted.
struct Scanner<'s> {
    /// The source.
    text: &'s str,
    /// The source's bytes: every token boundary the scan needs is an ASCII byte.
    bytes: &'s [u8],
    /// The byte offset of the next unread byte.
    pos: usize,
    /// What the previous token lets come next.
    state: State,
    /// The open brackets, innermost last.
    frames: Vec<Frame>,
    /// Levels held by the open brackets and by what was pending around each when it opened.
    base: usize,
    /// `?`, `=>` and assignments since the last `,` of the current bracket.
    chain: usize,
    /// Prefix operators of the operand being read.
    prefix: usize,
    /// The precedence-climbing stack; the current bracket owns `climb[climb_start..]`.
    climb: Vec<u8>,
    /// Where the current bracket's part of [`Scanner::climb`] starts.
    climb_start: usize,
}

/// Refuses `source` when it could nest deeper than [`MAX_AST_DEPTH`] levels, or when it holds
/// a construct whose nesting a scan cannot bound (see the module documentation).
pub(super) fn check_nesting(source: &str) -> Result<()> {
    let mut scanner = Scanner {
        text: source,
        bytes: source.as_bytes(),
        pos: 0,
        state: State::Operand,
        frames: Vec::new(),
        base: 0,
        chain: 0,
        prefix: 0,
        climb: Vec::new(),
        climb_start: 0,
    };
    scanner.run()
}

/// The error for anything that nests too deep, from the scan or from lowering.
pub(super) fn too_deep() -> Error {
    Error::guardrail(format!(
        "Expression nests deeper than {MAX_AST_DEPTH} levels — split it up: compute the inner parts with \
         separate expressions, or flatten the nesting"
    ))
}

/// Whether oxc's lexer skips `c` as white space or a line break: ECMAScript's set plus NEL
/// and ZWSP, which oxc also treats as white space.
fn is_lexer_space(c: char) -> bool {
    match u16::try_from(u32::from(c)) {
        Ok(unit) => js::is_space(unit) || unit == 0x85 || unit == 0x200B,
        Err(_) => false,
    }
}

impl Scanner<'_> {
    /// The byte at `at`, if any.
    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    /// Whether the bytes `offset` past the position start with `expected`.
    fn next_is(&self, offset: usize, expected: &[u8]) -> bool {
        self.pos
            .checked_add(offset)
            .and_then(|start| self.bytes.get(start..))
            .is_some_and(|rest| rest.starts_with(expected))
    }

    /// The levels the parser would be holding at this point.
    fn depth(&self) -> usize {
        self.base + self.chain + self.prefix + (self.climb.len() - self.climb_start)
    }

    /// Refuses the source once the levels pass the limit.
    fn check(&self) -> Result<()> {
        if self.depth() > MAX_AST_DEPTH {
            Err(too_deep())
        } else {
            Ok(())
        }
    }

    /// Scans the whole source, token by token.
    fn run(&mut self) -> Result<()> {
        while let Some(b) = self.byte(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => self.pos += 1,
                b'/' => self.slash()?,
                b'\'' | b'"' => {
                    self.string(b);
                    self.state = State::AfterOperand;
                }
                b'`' => {
                    self.pos += 1;
                    self.template()?;
                }
                b'(' => self.open(Bracket::Paren, 1)?,
                b'[' => self.open(Bracket::Square, 1)?,
                b'{' => match self.state {
                    State::Operand => self.open(Bracket::Curly, 1)?,
                    State::AfterArrow => return Err(super::block_body()),
                    // Inside an object literal, a `{` after an operand is a method's or a
                    // getter's body: JavaScript syntax outside the language. Anywhere else it is
                    // a statement's block, so the source is not one expression.
                    _ if self.frames.last().is_some_and(|frame| frame.bracket == Bracket::Curly) => {
                        return Err(block());
                    }
                    _ => return Err(statement()),
                },
                b')' => self.close(Bracket::Paren),
                b']' => self.close(Bracket::Square),
                b'}' => {
                    if self
                        .frames
                        .last()
                        .is_some_and(|frame| frame.bracket == Bracket::Substitution)
                    {
                        self.close(Bracket::Substitution);
                        self.template()?;
                    } else {
                        self.close(Bracket::Curly);
                    }
                }
                b',' | b';' => {
                    self.pos += 1;
                    self.low();
                    self.chain = 0;
                    self.state = State::Operand;
                }
                b':' => {
                    self.pos += 1;
                    self.low();
                    self.state = State::Operand;
                }
                b'?' => self.question()?,
                b'.' => {
                    if self.next_is(1, b"..") {
                        self.pos += 3;
                        self.prefix_op()?;
                    } else if self.byte(self.pos + 1).is_some_and(|d| d.is_ascii_digit()) {
                        self.number();
                    } else {
                        self.pos += 1;
                        self.state = State::AfterDot;
                    }
                }
                b'=' => {
                    if self.next_is(1, b">") {
                        self.pos += 2;
                        self.chain_op()?;
                        self.state = State::AfterArrow;
                    } else if self.next_is(1, b"==") {
                        self.operator(3, EQUALS)?;
                    } else if self.next_is(1, b"=") {
                        self.operator(2, EQUALS)?;
                    } else {
                        self.assign(1)?;
                    }
                }
                b'!' => {
                    if self.next_is(1, b"==") {
                        self.operator(3, EQUALS)?;
                    } else if self.next_is(1, b"=") {
                        self.operator(2, EQUALS)?;
                    } else {
                        self.pos += 1;
                        self.prefix_op()?;
                    }
                }
                b'+' | b'-' => self.plus_minus(b)?,
                b'*' => {
                    if self.next_is(1, b"*=") {
                        self.assign(3)?;
                    } else if self.next_is(1, b"*") {
                        self.operator(2, EXPONENT)?;
                    } else if self.next_is(1, b"=") {
                        self.assign(2)?;
                    } else {
                        self.operator(1, MULTIPLY)?;
                    }
                }
                b'%' => {
                    if self.next_is(1, b"=") {
                        self.assign(2)?;
                    } else {
                        self.operator(1, MULTIPLY)?;
                    }
                }
                b'<' => {
                    if self.next_is(1, b"!--") {
                        return Err(html_comment("<!--"));
                    } else if self.next_is(1, b"<=") {
                        self.assign(3)?;
                    } else if self.next_is(1, b"<") {
                        self.operator(2, SHIFT)?;
                    } else if self.next_is(1, b"=") {
                        self.operator(2, COMPARE)?;
                    } else {
                        self.operator(1, COMPARE)?;
                    }
                }
                b'>' => {
                    if self.next_is(1, b">>=") {
                        self.assign(4)?;
                    } else if self.next_is(1, b">>") {
                        self.operator(3, SHIFT)?;
                    } else if self.next_is(1, b">=") {
                        self.assign(3)?;
                    } else if self.next_is(1, b">") {
                        self.operator(2, SHIFT)?;
                    } else if self.next_is(1, b"=") {
                        self.operator(2, COMPARE)?;
                    } else {
                        self.operator(1, COMPARE)?;
                    }
                }
                b'&' | b'|' => {
                    let (logical, bitwise) = if b == b'&' {
                        (LOGICAL_AND, BITWISE_AND)
                    } else {
                        (LOGICAL_OR, BITWISE_OR)
                    };
                    if self.next_is(1, &[b, b'=']) {
                        self.assign(3)?;
                    } else if self.next_is(1, &[b]) {
                        self.operator(2, logical)?;
                    } else if self.next_is(1, b"=") {
                        self.assign(2)?;
                    } else {
                        self.operator(1, bitwise)?;
                    }
                }
                b'^' => {
                    if self.next_is(1, b"=") {
                        self.assign(2)?;
                    } else {
                        self.operator(1, BITWISE_XOR)?;
                    }
                }
                b'~' => {
                    self.pos += 1;
                    self.prefix_op()?;
                }
                b'0'..=b'9' => self.number(),
                b'#' | b'A'..=b'Z' | b'a'..=b'z' | b'_' | b'$' | b'\\' => self.word()?,
                b'@' => {
                    return Err(Error::guardrail(
                        "A decorator (@) is not part of the expression language — there are no classes or functions \
                         to decorate",
                    ));
                }
                0x80.. => match self.char_at(self.pos) {
                    Some(c) if is_lexer_space(c) => self.pos += c.len_utf8(),
                    Some(_) => self.word()?,
                    None => self.pos += 1,
                },
                // Any other control or ASCII character is invalid: oxc reports it and the parse
                // fails, so it changes no nesting.
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    /// The character starting at byte `at`, if `at` is on a character boundary.
    fn char_at(&self, at: usize) -> Option<char> {
        self.text.get(at..).and_then(|rest| rest.chars().next())
    }

    /// Opens a bracket `len` bytes long: a new level holding everything pending around it.
    fn open(&mut self, bracket: Bracket, len: usize) -> Result<()> {
        let base = self.depth() + 1;
        if base > MAX_AST_DEPTH {
            return Err(too_deep());
        }
        self.frames.push(Frame {
            bracket,
            base: self.base,
            chain: self.chain,
            prefix: self.prefix,
            climb_start: self.climb_start,
        });
        self.base = base;
        self.chain = 0;
        self.prefix = 0;
        self.climb_start = self.climb.len();
        self.pos += len;
        self.state = State::Operand;
        Ok(())
    }

    /// Closes a bracket. A closer that does not match the innermost opener leaves the count as
    /// it is: the parser stops at it with a syntax error, so keeping the levels is safe.
    fn close(&mut self, bracket: Bracket) {
        self.pos += 1;
        if self.frames.last().is_some_and(|frame| frame.bracket == bracket)
            && let Some(frame) = self.frames.pop()
        {
            self.climb.truncate(self.climb_start);
            self.base = frame.base;
            self.chain = frame.chain;
            self.prefix = frame.prefix;
            self.climb_start = frame.climb_start;
        }
        self.state = State::AfterOperand;
    }

    /// A token of lower precedence than every binary operator (`,` `:` `?` `=` `=>`): the
    /// operand and the binary operators before it are complete.
    fn low(&mut self) {
        self.prefix = 0;
        self.climb.truncate(self.climb_start);
    }

    /// `?`, `=>` or an assignment: the parser recurses into what follows until the next `,`.
    fn chain_op(&mut self) -> Result<()> {
        self.low();
        self.chain += 1;
        self.state = State::Operand;
        self.check()
    }

    /// An assignment operator `len` bytes long.
    fn assign(&mut self, len: usize) -> Result<()> {
        self.pos += len;
        self.chain_op()
    }

    /// A prefix operator: a level until its operand ends.
    fn prefix_op(&mut self) -> Result<()> {
        self.prefix += 1;
        self.state = State::Operand;
        self.check()
    }

    /// A binary operator `len` bytes long: the precedence-climbing stack after it is what the
    /// parser's recursion holds.
    fn operator(&mut self, len: usize, precedence: u8) -> Result<()> {
        self.pos += len;
        self.prefix = 0;
        while self.climb.len() > self.climb_start
            && let Some(&top) = self.climb.last()
            && (top > precedence || (top == precedence && precedence != EXPONENT))
        {
            self.climb.pop();
        }
        self.climb.push(precedence);
        self.state = State::Operand;
        self.check()
    }

    /// `?`, `??`, `??=` or `?.` (but `? .5` is a conditional before a number).
    fn question(&mut self) -> Result<()> {
        if self.next_is(1, b"?=") {
            self.assign(3)
        } else if self.next_is(1, b"?") {
            self.operator(2, NULLISH)
        } else if self.next_is(1, b".") && !self.byte(self.pos + 2).is_some_and(|d| d.is_ascii_digit()) {
            self.pos += 2;
            self.state = State::AfterDot;
            Ok(())
        } else {
            self.pos += 1;
            self.chain_op()
        }
    }

    /// `+`, `-`, `++`, `--`, `+=`, `-=`, and the legacy `-->` comment.
    fn plus_minus(&mut self, b: u8) -> Result<()> {
        if b == b'-' && self.next_is(1, b"->") {
            return Err(html_comment("-->"));
        }
        if self.next_is(1, &[b]) {
            self.pos += 2;
            // Postfix after an operand; otherwise a prefix update, which recurses.
            return if self.state == State::AfterOperand {
                Ok(())
            } else {
                self.prefix_op()
            };
        }
        if self.next_is(1, b"=") {
            return self.assign(2);
        }
        if self.state == State::AfterOperand {
            self.operator(1, ADD)
        } else {
            self.pos += 1;
            self.prefix_op()
        }
    }

    /// A comment, a division, or (refused) a regular expression.
    fn slash(&mut self) -> Result<()> {
        match self.byte(self.pos + 1) {
            Some(b'/') => {
                self.line_comment();
                Ok(())
            }
            Some(b'*') => {
                let body = self.pos + 2;
                self.pos = match self.text.get(body..).and_then(|rest| rest.find("*/")) {
                    Some(end) => body + end + 2,
                    None => self.bytes.len(),
                };
                Ok(())
            }
            next => match self.state {
                State::AfterOperand => {
                    if next == Some(b'=') {
                        self.assign(2)
                    } else {
                        self.operator(1, MULTIPLY)
                    }
                }
                State::Ambiguous => Err(Error::guardrail(
                    "This \"/\" could divide or start a regular expression — put what comes before it in \
                     parentheses, as (x) / 2",
                )),
                _ => Err(regular_expression()),
            },
        }
    }

    /// A `//` comment ends at a line break: LF, CR, LS or PS, as oxc's lexer ends it.
    fn line_comment(&mut self) {
        self.pos += 2;
        while let Some(b) = self.byte(self.pos) {
            match b {
                b'\n' | b'\r' => return,
                0xE2 if self.next_is(1, &[0x80, 0xA8]) || self.next_is(1, &[0x80, 0xA9]) => return,
                _ => self.pos += 1,
            }
        }
    }

    /// A string literal, as oxc's lexer reads it: it ends at its quote, or (unterminated) at a
    /// CR or LF, which the lexer consumes; a backslash escapes one character, and `\` CR LF is
    /// one line continuation.
    fn string(&mut self, quote: u8) {
        self.pos += 1;
        while let Some(b) = self.byte(self.pos) {
            self.pos += 1;
            match b {
                b'\\' => match self.byte(self.pos) {
                    Some(b'\r') => {
                        self.pos += 1;
                        if self.byte(self.pos) == Some(b'\n') {
                            self.pos += 1;
                        }
                    }
                    Some(_) => self.pos += 1,
                    None => return,
                },
                b'\n' | b'\r' => return,
                _ if b == quote => return,
                _ => {}
            }
        }
    }

    /// Template text, from after a backtick or a substitution's `}`: to the closing backtick,
    /// or to a `${`, which opens a level.
    fn template(&mut self) -> Result<()> {
        while let Some(b) = self.byte(self.pos) {
            match b {
                b'`' => {
                    self.pos += 1;
                    self.state = State::AfterOperand;
                    return Ok(());
                }
                b'\\' => self.pos += 2,
                b'$' if self.next_is(1, b"{") => return self.open(Bracket::Substitution, 2),
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    /// A numeric literal, as oxc's lexer delimits it: a sign belongs to it only after the
    /// exponent mark of a decimal literal, never after the digit `e` of a hex literal.
    fn number(&mut self) {
        let radix_prefix =
            self.byte(self.pos) == Some(b'0') && self.byte(self.pos + 1).is_some_and(|b| b"xXbBoO".contains(&b));
        if radix_prefix {
            self.pos += 2;
        } else {
            self.skip_while(|b| b.is_ascii_digit() || b == b'_');
            if self.byte(self.pos) == Some(b'.') {
                self.pos += 1;
                self.skip_while(|b| b.is_ascii_digit() || b == b'_');
            }
            if matches!(self.byte(self.pos), Some(b'e' | b'E')) {
                self.pos += 1;
                if matches!(self.byte(self.pos), Some(b'+' | b'-')) {
                    self.pos += 1;
                }
            }
        }
        self.skip_while(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
        // A letter written with an escape or outside ASCII right after a number: oxc stops
        // lexing there, but the scan cannot be sure, so nothing after it may be classified.
        self.state = match self.byte(self.pos) {
            Some(b'\\') => State::Ambiguous,
            Some(0x80..) if !self.char_at(self.pos).is_some_and(is_lexer_space) => State::Ambiguous,
            _ => State::AfterOperand,
        };
    }

    /// Advances past the bytes `keep` accepts.
    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.byte(self.pos).is_some_and(&keep) {
            self.pos += 1;
        }
    }

    /// An identifier, keyword or private name. Only plain ASCII spellings are classified;
    /// a word with an escape or a non-ASCII letter may be read by oxc as another keyword or
    /// as something else entirely, so what follows it is treated as ambiguous.
    fn word(&mut self) -> Result<()> {
        let start = self.pos;
        let mut plain = true;
        if self.byte(self.pos) == Some(b'#') {
            self.pos += 1;
        }
        while let Some(b) = self.byte(self.pos) {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'$' => self.pos += 1,
                b'\\' => {
                    plain = false;
                    self.pos += 1;
                    // `\u{…}`: its braces belong to the word, not to the nesting.
                    if self.next_is(0, b"u{") {
                        self.pos += 2;
                        self.skip_while(|b| b.is_ascii_hexdigit());
                        if self.byte(self.pos) == Some(b'}') {
                            self.pos += 1;
                        }
                    }
                }
                0x80.. => match self.char_at(self.pos) {
                    Some(c) if is_lexer_space(c) => break,
                    Some(c) => {
                        plain = false;
                        self.pos += c.len_utf8();
                    }
                    None => {
                        plain = false;
                        self.pos += 1;
                    }
                },
                _ => break,
            }
        }
        let word = self.bytes.get(start..self.pos).unwrap_or_default();
        if !plain {
            self.state = State::Ambiguous;
            return Ok(());
        }
        if self.state == State::AfterDot {
            self.state = State::AfterOperand;
            return Ok(());
        }
        match word {
            b"typeof" | b"void" | b"delete" | b"new" => self.prefix_op(),
            b"in" | b"instanceof" => self.operator(0, COMPARE),
            b"yield" => {
                // In a generator's parameters oxc reads `yield` as an operator, elsewhere as a
                // name: count it as one, and let nothing after it be classified.
                self.prefix_op()?;
                self.state = State::Ambiguous;
                Ok(())
            }
            b"as" | b"satisfies" if self.state == State::AfterOperand => Err(Error::guardrail(format!(
                "\"{}\" is TypeScript, not part of the expression language — values carry no types; write the \
                 expression alone",
                String::from_utf8_lossy(word)
            ))),
            b"await" if !self.colon_follows() => Err(super::await_error()),
            b"function" if !self.colon_follows() => Err(super::not_in_language(
                "FunctionExpression",
                "a function is written only as an arrow callback with an expression body, as in \
                 rows.map(r => r.name)",
            )),
            b"class" if !self.colon_follows() => Err(super::not_in_language(
                "ClassExpression",
                "functions are written only as arrow callbacks, as in rows.map(r => r.name)",
            )),
            _ => {
                self.state = State::AfterOperand;
                Ok(())
            }
        }
    }

    /// Whether the word just read is an object key (`{ class: 1 }`): a `:` follows it.
    fn colon_follows(&self) -> bool {
        let mut at = self.pos;
        while self.byte(at).is_some_and(|b| b == b' ' || b == b'\t') {
            at += 1;
        }
        self.byte(at) == Some(b':')
    }
}

/// The refusal of a `{` that opens a method's or getter's body in an object literal.
fn block() -> Error {
    Error::guardrail(
        "Methods, getters and setters are not part of the expression language — write an object's members as \
         key: value, and functions only as arrow callbacks with an expression body, as in rows.map(r => r.name)",
    )
}

/// The refusal of a `{` that opens a statement's block: not one expression at all.
fn statement() -> Error {
    Error::syntax(
        "Expected one expression, found statements (a block in braces): loops, if, try and declarations are not \
         part of the expression language — write one expression, such as a ? b : c or items.filter(x => x.ok)",
    )
}

/// The refusal of a regular expression literal.
fn regular_expression() -> Error {
    super::not_in_language(
        "RegExpLiteral",
        "a match could run past the budget: use includes, startsWith, endsWith, indexOf, split or replaceAll \
         with a plain string",
    )
}

/// The refusal of the legacy HTML comments `<!--` and `-->`.
fn html_comment(token: &str) -> Error {
    Error::guardrail(format!(
        "\"{token}\" is not part of the expression language — it reads as a legacy HTML comment or an update \
         (x-- > y); write a comment as /* … */, and x - 1 > y for the arithmetic"
    ))
}
