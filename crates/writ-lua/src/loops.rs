//! Fixed-order iteration for every generic `for` loop.
//!
//! Luau hashes a table, function or thread used as a table key by its address, and the order in
//! which a table's hash part is walked follows those hashes, so two VMs can walk the same table
//! in different orders. `pairs` and `next` are writ's own (they visit keys in a fixed order, see
//! the prelude), but Luau's generalized iteration, `for k, v in t do`, walks a table natively
//! without calling anything a sandbox could replace. So before a chunk is compiled, writ hands
//! every generic `for` loop's expression list to the prelude's [`ITERATE`]:
//! `for k, v in t do` becomes `for k, v in __writ_iterate( t ) do`. `__writ_iterate` passes an
//! iterator function and its state through unchanged and turns a table into writ's ordered
//! `pairs`, so every loop over a table visits its keys in the same order in every VM.
//!
//! The rewrite only inserts text within lines, so Luau's line numbers in errors stay the
//! chunk's own. Finding each loop's `in` and its `do` needs the chunk's block structure, which
//! [`instrument`] follows with a lexer and a stack of open constructs rather than a parser: it is
//! linear in the source, never recurses, and needs to know only which tokens open and close
//! blocks. The one construct a lexer cannot place by itself, an `if` that may be a statement
//! (closed by `end`) or an expression (`x = if a then b else c`, no `end`), is told apart by
//! the token before it: an `if` where an expression is expected is an expression.

use std::borrow::Cow;

/// The global the instrumented loops call, which no chunk may name.
pub(crate) const ITERATE: &str = "__writ_iterate";

/// Text inserted after a generic `for` loop's `in`.
const OPEN: &str = " __writ_iterate(";

/// Text inserted before that loop's `do`.
const CLOSE: &str = ") ";

/// Why a chunk could not be instrumented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The chunk names [`ITERATE`], on this line.
    Reserved {
        /// 1-based line of the name.
        line: usize,
    },
    /// The chunk's blocks do not nest as Luau's grammar says: it does not compile, or it uses
    /// syntax this scanner does not follow.
    Unfollowed,
}

/// A construct the scanner is inside of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// `(`.
    Paren,
    /// `[`.
    Bracket,
    /// `{` of a table constructor or a table type.
    Brace,
    /// `{` inside a backtick string, closed by `}`, after which the string goes on.
    Interpolation,
    /// `function`, closed by `end`.
    Function,
    /// A standalone `do`, closed by `end`.
    Block,
    /// `repeat`, closed by `until`.
    Repeat,
    /// `for` or `while`: `awaiting_do` until its `do`, then its body until `end`. `generic_at`
    /// is where the expression list of a `for … in` begins.
    Loop {
        awaiting_do: bool,
        generic_at: Option<usize>,
    },
    /// An `if` statement, closed by `end`.
    IfStatement,
    /// An `if` expression, complete after the expression following its `else`.
    IfExpression,
}

/// Rewrites every generic `for` loop of `source` to call [`ITERATE`] on its expression list;
/// a chunk with none comes back borrowed.
///
/// # Errors
///
/// [`Refusal::Reserved`] when the chunk names [`ITERATE`]; [`Refusal::Unfollowed`] when its
/// blocks do not nest (a chunk Luau would not compile, in practice).
pub(crate) fn instrument(source: &str) -> Result<Cow<'_, str>, Refusal> {
    let mut scanner = Scanner {
        bytes: source.as_bytes(),
        at: 0,
        open: Vec::new(),
        expression_follows: false,
        inserts: Vec::new(),
    };
    scanner.run()?;
    if scanner.inserts.is_empty() {
        return Ok(Cow::Borrowed(source));
    }
    // Insertions arrive in the order loops close, not in source order.
    scanner.inserts.sort_by_key(|&(at, _)| at);
    let added: usize = scanner.inserts.iter().map(|(_, text)| text.len()).sum();
    let mut out = String::with_capacity(source.len() + added);
    let mut from = 0;
    for (at, text) in scanner.inserts {
        out.push_str(source.get(from..at).ok_or(Refusal::Unfollowed)?);
        out.push_str(text);
        from = at;
    }
    out.push_str(source.get(from..).ok_or(Refusal::Unfollowed)?);
    Ok(Cow::Owned(out))
}

/// The scan's state.
struct Scanner<'a> {
    /// The source.
    bytes: &'a [u8],
    /// The next byte to read.
    at: usize,
    /// The constructs open at `at`, innermost last.
    open: Vec<Open>,
    /// Whether the last token leaves the parser expecting an expression, so that an `if` here
    /// is an `if` expression.
    expression_follows: bool,
    /// Text to insert, by byte offset (always at a token boundary, so a char boundary).
    inserts: Vec<(usize, &'static str)>,
}

impl Scanner<'_> {
    /// Scans the whole source.
    fn run(&mut self) -> Result<(), Refusal> {
        loop {
            self.skip_space_and_comments()?;
            let Some(&byte) = self.bytes.get(self.at) else {
                break;
            };
            match byte {
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word()?,
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_some_and(|b| b.is_ascii_digit()) => self.number(),
                b'.' if self.bytes[self.at..].starts_with(b"...") => {
                    self.at += 3;
                    self.expression_follows = false;
                }
                b'"' | b'\'' => {
                    self.quoted(byte)?;
                    self.expression_follows = false;
                }
                b'`' => {
                    self.at += 1;
                    self.interpolated()?;
                }
                b'[' => {
                    if let Some(level) = self.long_bracket() {
                        self.long_body(level)?;
                        self.expression_follows = false;
                    } else {
                        self.push(Open::Bracket);
                    }
                }
                b'(' => self.push(Open::Paren),
                b'{' => self.push(Open::Brace),
                b')' => self.close(Open::Paren)?,
                b']' => self.close(Open::Bracket)?,
                b'}' => {
                    if self.open.last() == Some(&Open::Interpolation) {
                        self.open.pop();
                        self.at += 1;
                        self.interpolated()?;
                    } else {
                        self.close(Open::Brace)?;
                    }
                }
                b';' => {
                    self.at += 1;
                    // Inside a table constructor `;` separates fields; elsewhere statements.
                    self.expression_follows = self.open.last() == Some(&Open::Brace);
                }
                _ => {
                    // Operators and other punctuation: an expression (or a name) follows.
                    self.at += 1;
                    self.expression_follows = true;
                }
            }
        }
        if self.open.is_empty() {
            Ok(())
        } else {
            Err(Refusal::Unfollowed)
        }
    }

    /// The byte `offset` past the current one.
    fn peek(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.at + offset).copied()
    }

    /// Opens a bracket at the current byte.
    fn push(&mut self, open: Open) {
        self.open.push(open);
        self.at += 1;
        self.expression_follows = true;
    }

    /// Closes the innermost bracket, which must be `open`.
    fn close(&mut self, open: Open) -> Result<(), Refusal> {
        if self.open.pop() != Some(open) {
            return Err(Refusal::Unfollowed);
        }
        self.at += 1;
        self.expression_follows = false;
        Ok(())
    }

    /// Skips whitespace, line comments and long comments.
    fn skip_space_and_comments(&mut self) -> Result<(), Refusal> {
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.at += 1,
                b'-' if self.peek(1) == Some(b'-') => {
                    self.at += 2;
                    if self.bytes.get(self.at) == Some(&b'[')
                        && let Some(level) = self.long_bracket()
                    {
                        self.long_body(level)?;
                    } else {
                        while self.bytes.get(self.at).is_some_and(|&b| b != b'\n') {
                            self.at += 1;
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// At a `[`: the level of the long bracket `[==[` it opens (consumed), or None (nothing
    /// consumed) if it is a plain `[`.
    fn long_bracket(&mut self) -> Option<usize> {
        let rest = &self.bytes[self.at + 1..];
        let level = rest.iter().take_while(|&&b| b == b'=').count();
        if rest.get(level) == Some(&b'[') {
            self.at += level + 2;
            Some(level)
        } else {
            None
        }
    }

    /// Skips a long string or comment body through its closing bracket of `level`.
    fn long_body(&mut self, level: usize) -> Result<(), Refusal> {
        while let Some(offset) = self.bytes[self.at..].iter().position(|&b| b == b']') {
            self.at += offset + 1;
            let rest = &self.bytes[self.at..];
            let equals = rest.iter().take_while(|&&b| b == b'=').count();
            if equals == level && rest.get(level) == Some(&b']') {
                self.at += level + 1;
                return Ok(());
            }
        }
        Err(Refusal::Unfollowed)
    }

    /// Skips a quoted string opened by `quote`.
    fn quoted(&mut self, quote: u8) -> Result<(), Refusal> {
        self.at += 1;
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'\\' => self.at += 2,
                b'\n' => return Err(Refusal::Unfollowed),
                _ if byte == quote => {
                    self.at += 1;
                    return Ok(());
                }
                _ => self.at += 1,
            }
        }
        Err(Refusal::Unfollowed)
    }

    /// Skips a backtick string's text up to its end or its next `{`, which opens an
    /// interpolated expression.
    fn interpolated(&mut self) -> Result<(), Refusal> {
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'\\' => self.at += 2,
                b'`' => {
                    self.at += 1;
                    self.expression_follows = false;
                    return Ok(());
                }
                b'{' => {
                    self.push(Open::Interpolation);
                    return Ok(());
                }
                _ => self.at += 1,
            }
        }
        Err(Refusal::Unfollowed)
    }

    /// Skips a number as Luau's lexer reads one: digits, dots and underscores, an exponent's
    /// sign, then any letters and digits (a hexadecimal or binary literal, or a malformed number
    /// Luau refuses).
    fn number(&mut self) {
        let digits = |b: &u8| b.is_ascii_digit() || *b == b'.' || *b == b'_';
        self.at += self.bytes[self.at..].iter().take_while(|b| digits(b)).count();
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
        }
        let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
        self.at += self.bytes[self.at..].iter().take_while(|b| word(b)).count();
        self.expression_follows = false;
    }

    /// A name or keyword: keywords that open or close blocks move the stack.
    fn word(&mut self) -> Result<(), Refusal> {
        let start = self.at;
        let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
        self.at += self.bytes[start..].iter().take_while(|b| word(b)).count();
        let end = self.at;
        let expression_follows = match &self.bytes[start..end] {
            b"function" => {
                self.open.push(Open::Function);
                true
            }
            b"for" | b"while" => {
                self.open.push(Open::Loop {
                    awaiting_do: true,
                    generic_at: None,
                });
                true
            }
            b"in" => {
                let Some(Open::Loop {
                    awaiting_do: true,
                    generic_at,
                }) = self.open.last_mut()
                else {
                    return Err(Refusal::Unfollowed);
                };
                *generic_at = Some(end);
                true
            }
            b"do" => {
                if let Some(Open::Loop {
                    awaiting_do,
                    generic_at,
                }) = self.open.last_mut()
                    && *awaiting_do
                {
                    *awaiting_do = false;
                    if let Some(after_in) = generic_at.take() {
                        self.inserts.push((after_in, OPEN));
                        self.inserts.push((start, CLOSE));
                    }
                } else {
                    self.open.push(Open::Block);
                }
                false
            }
            b"if" => {
                self.open.push(if self.expression_follows {
                    Open::IfExpression
                } else {
                    Open::IfStatement
                });
                true
            }
            b"then" => match self.open.last() {
                Some(Open::IfExpression) => true,
                Some(Open::IfStatement) => false,
                _ => return Err(Refusal::Unfollowed),
            },
            b"elseif" => match self.open.last() {
                Some(Open::IfExpression | Open::IfStatement) => true,
                _ => return Err(Refusal::Unfollowed),
            },
            b"else" => match self.open.last() {
                Some(Open::IfExpression) => {
                    self.open.pop();
                    true
                }
                Some(Open::IfStatement) => false,
                _ => return Err(Refusal::Unfollowed),
            },
            b"end" => match self.open.pop() {
                Some(Open::Function | Open::Block | Open::IfStatement) => false,
                Some(Open::Loop { awaiting_do: false, .. }) => false,
                _ => return Err(Refusal::Unfollowed),
            },
            b"repeat" => {
                self.open.push(Open::Repeat);
                false
            }
            b"until" => {
                if self.open.pop() != Some(Open::Repeat) {
                    return Err(Refusal::Unfollowed);
                }
                true
            }
            b"and" | b"or" | b"not" | b"return" | b"local" => true,
            name if name == ITERATE.as_bytes() => {
                let line = 1 + self.bytes[..start].iter().filter(|&&b| b == b'\n').count();
                return Err(Refusal::Reserved { line });
            }
            // Names and the value keywords (`nil`, `true`, `false`) end an expression; `break`
            // and `continue` end a statement.
            _ => false,
        };
        self.expression_follows = expression_follows;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The instrumented text of `source`.
    fn rewritten(source: &str) -> String {
        instrument(source).expect("instruments").into_owned()
    }

    #[test]
    fn generic_loops_are_wrapped_and_numeric_ones_left_alone() {
        assert_eq!(
            rewritten("for k, v in t do end"),
            "for k, v in __writ_iterate( t ) do end"
        );
        assert_eq!(rewritten("for i = 1, 3 do end"), "for i = 1, 3 do end");
        assert_eq!(
            rewritten("for k in pairs(t) do for a, b in f(), 1 -- c\n do end end"),
            "for k in __writ_iterate( pairs(t) ) do for a, b in __writ_iterate( f(), 1 -- c\n ) do end end"
        );
        assert_eq!(
            rewritten("while x do for w in s:gmatch('%a+') do end end"),
            "while x do for w in __writ_iterate( s:gmatch('%a+') ) do end end"
        );
    }

    #[test]
    fn loops_inside_an_expression_list_are_wrapped_too() {
        assert_eq!(
            rewritten("for k in (function() for i in j do end return t end)() do end"),
            "for k in __writ_iterate( (function() for i in __writ_iterate( j ) do end return t end)() ) do end"
        );
    }

    #[test]
    fn strings_comments_and_interpolations_hide_keywords_but_not_loops() {
        let source = "local s = 'for x in t do' .. [==[ end ]] do ]==] --[[ for do ]] -- end\n\
                      local u = `a{(function() for k in t do end return 1 end)()}b{ {1} }c`\n\
                      return s";
        assert_eq!(
            rewritten(source),
            source.replace("for k in t do", "for k in __writ_iterate( t ) do")
        );
    }

    #[test]
    fn if_expressions_need_no_end_and_if_statements_do() {
        let source = "local x = if a then if b then 1 else 2 else 3\n\
                      if x then if y then end else if z then end end\n\
                      local t = {a; if c then 1 else 2; for_ = 1}\n\
                      return if (function() if p then return 1 end end)() then 1 elseif q then 2 else 3";
        assert_eq!(rewritten(source), source);
        assert_eq!(
            rewritten("local v = if c then t else u for k in v do end"),
            "local v = if c then t else u for k in __writ_iterate( v ) do end"
        );
    }

    #[test]
    fn types_attributes_and_repeat_are_followed() {
        let source = "type T = { [string]: number }\n\
                      local function f<A>(x: A, ...: number): (A, { y: () -> () }) return x end\n\
                      @native local function g() repeat local y = 1 until y for k: string, v: number in t do end end\n\
                      return 0x1F + 1e+5 + 1_000 + .5";
        assert_eq!(
            rewritten(source),
            source.replace("in t do", "in __writ_iterate( t ) do")
        );
    }

    #[test]
    fn the_reserved_name_and_broken_nesting_are_refused() {
        assert_eq!(
            instrument("local a\nlocal __writ_iterate = 1"),
            Err(Refusal::Reserved { line: 2 })
        );
        assert_eq!(
            instrument("'__writ_iterate'").map(|c| c.into_owned()),
            Ok("'__writ_iterate'".into())
        );
        for broken in [
            "end",
            "for k in t",
            "if x then",
            "(]",
            "local s = 'open",
            "x = `a{",
            "until x",
            "in",
        ] {
            assert_eq!(instrument(broken), Err(Refusal::Unfollowed), "{broken}");
        }
    }
}
