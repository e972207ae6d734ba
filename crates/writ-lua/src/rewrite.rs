//! The source rewrite that keeps Luau's address-dependent table layout out of every answer.
//!
//! Luau hashes a table, function or thread used as a table key by its address, so a table that
//! holds (or once held) such a key is laid out differently in different VMs: its walk order,
//! and even which border `#` picks when it has holes, can change from one VM to the next.
//! writ closes this at the two places a chunk's text can reach it:
//!
//! * **Keys.** A table, function or thread can never be stored as a key. Every key written
//!   by an assignment (`t[k] = v`, `t[k] += v`, `t[a], u[b] = …`) or a constructor
//!   (`{[k] = v}`) passes through the prelude's `__writ_key`, which refuses such a key with an
//!   error naming the line. Nothing else can add a key that is not a string, number or
//!   boolean: `rawset` and metatables are not allow-listed, and the libraries add integer keys
//!   only. Reading with such a key is allowed and finds nothing.
//! * **Walks.** `pairs`, `next` and `table.foreach` are writ's own and visit keys in one fixed
//!   order (see the prelude). Luau's generalized iteration, `for k, v in t do`, walks a table
//!   natively without calling anything a sandbox could replace, so every generic `for` loop's
//!   expression list is handed to the prelude's `__writ_iterate`: `for k, v in t do` becomes
//!   `for k, v in __writ_iterate( t ) do`, which turns a table into the fixed-order walk and
//!   passes an iterator function through unchanged. The fixed order (numbers, then strings in
//!   byte order, then booleans) also outlives a Luau upgrade, which hash order would not.
//!
//! The rewrite only inserts text within lines, so Luau's line numbers in errors stay the
//! chunk's own. Finding each loop's `in` and `do`, and each stored key's brackets, needs the
//! chunk's block structure, which [`instrument`] follows with a lexer and a stack of open
//! constructs rather than a parser: it is linear in the source, never recurses, and needs to
//! know only which tokens open and close blocks. The one construct a lexer cannot place by
//! itself, an `if` that may be a statement (closed by `end`) or an expression
//! (`x = if a then b else c`, no `end`), is told apart by the token before it: an `if` where
//! an expression is expected is an expression.

use std::borrow::Cow;

/// Names beginning with this are writ's (the prelude's `__writ_iterate` and `__writ_key`): no
/// chunk may use one.
pub(crate) const RESERVED_PREFIX: &str = "__writ_";

/// Text inserted after a generic `for` loop's `in`.
const LOOP_OPEN: &str = " __writ_iterate(";

/// Text inserted before that loop's `do`.
const LOOP_CLOSE: &str = ") ";

/// Text inserted after the `[` of a key being stored.
const KEY_OPEN: &str = " __writ_key(";

/// Text inserted before that key's `]`.
const KEY_CLOSE: &str = ") ";

/// Luau's reserved words: never a name in a target list.
const KEYWORDS: [&[u8]; 21] = [
    b"and",
    b"break",
    b"do",
    b"else",
    b"elseif",
    b"end",
    b"false",
    b"for",
    b"function",
    b"if",
    b"in",
    b"local",
    b"nil",
    b"not",
    b"or",
    b"repeat",
    b"return",
    b"then",
    b"true",
    b"until",
    b"while",
];

/// Why a chunk could not be instrumented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The chunk uses a name beginning with [`RESERVED_PREFIX`], on this line.
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
    /// `[`, its contents beginning at `key_at`.
    Bracket { key_at: usize },
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

/// Rewrites every generic `for` loop of `source` to pass its expression list through
/// `__writ_iterate`, and every stored key through `__writ_key`; a chunk with neither comes
/// back borrowed.
///
/// # Errors
///
/// [`Refusal::Reserved`] when the chunk uses a reserved name; [`Refusal::Unfollowed`] when its
/// blocks do not nest (a chunk Luau would not compile, in practice).
pub(crate) fn instrument(source: &str) -> Result<Cow<'_, str>, Refusal> {
    let mut scanner = Scanner::new(source.as_bytes(), 0);
    scanner.run()?;
    if scanner.inserts.is_empty() {
        return Ok(Cow::Borrowed(source));
    }
    // Insertions arrive in the order loops and brackets close, not in source order.
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
    /// Keys followed by a `,` at statement level: assignment targets if the statement goes on
    /// to an `=` (`t[k], u = 1, 2`), reads otherwise (`local a, b = t[k], 2`). Each is the
    /// span of the key between its brackets.
    pending: Vec<(usize, usize)>,
    /// How many constructs were open where the pending keys were seen.
    pending_depth: usize,
    /// The kind of the last token seen at that depth since.
    pending_last: Last,
}

/// What the last token of a possible assignment target list was, to tell `t[k], u = …` from
/// a new statement that begins right after a read (`local a, b = t[k], u` then `x = 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// A name.
    Name,
    /// A closing bracket or a string (a call argument): what a prefix expression can end with.
    End,
    /// `,`, `.`, `:` or an opening bracket: the target list goes on.
    Other,
}

impl<'a> Scanner<'a> {
    /// A scanner of `bytes` from `at`, outside any construct.
    fn new(bytes: &'a [u8], at: usize) -> Scanner<'a> {
        Scanner {
            bytes,
            at,
            open: Vec::new(),
            expression_follows: false,
            inserts: Vec::new(),
            pending: Vec::new(),
            pending_depth: 0,
            pending_last: Last::Other,
        }
    }

    /// Scans the whole source.
    fn run(&mut self) -> Result<(), Refusal> {
        loop {
            self.skip_space_and_comments()?;
            let Some(&byte) = self.bytes.get(self.at) else {
                break;
            };
            if !self.pending.is_empty() && self.open.len() == self.pending_depth {
                self.follow_pending(byte);
            }
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
                        self.push(Open::Bracket { key_at: self.at + 1 });
                    }
                }
                b'(' => self.push(Open::Paren),
                b'{' => self.push(Open::Brace),
                b')' => self.close(Open::Paren)?,
                b']' => {
                    let Some(Open::Bracket { key_at }) = self.open.pop() else {
                        return Err(Refusal::Unfollowed);
                    };
                    let key_end = self.at;
                    self.at += 1;
                    self.expression_follows = false;
                    self.key_read_or_stored(key_at, key_end)?;
                }
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
            if !self.pending.is_empty() {
                if self.open.len() < self.pending_depth {
                    self.pending.clear();
                } else if self.open.len() == self.pending_depth && matches!(byte, b')' | b']' | b'}') {
                    self.pending_last = Last::End;
                }
            }
        }
        if self.open.is_empty() {
            Ok(())
        } else {
            Err(Refusal::Unfollowed)
        }
    }

    /// After the `]` of `t[k]`: wraps the key if the index is being assigned to, or keeps it
    /// pending if a `,` follows at statement level and the statement may be an assignment to
    /// several targets.
    fn key_read_or_stored(&mut self, key_at: usize, key_end: usize) -> Result<(), Refusal> {
        let next = self.skip_from(self.at)?;
        let rest = &self.bytes[next..];
        let assigned = (rest.starts_with(b"=") && !rest.starts_with(b"=="))
            || ["+=", "-=", "*=", "/=", "//=", "%=", "^=", "..="]
                .iter()
                .any(|op| rest.starts_with(op.as_bytes()));
        if assigned {
            self.wrap_key(key_at, key_end);
        } else if rest.starts_with(b",") && self.at_statement_level() {
            if self.pending_depth != self.open.len() {
                self.pending.clear();
                self.pending_depth = self.open.len();
            }
            self.pending.push((key_at, key_end));
        }
        Ok(())
    }

    /// Passes the key between `key_at` and `key_end` through `__writ_key`.
    fn wrap_key(&mut self, key_at: usize, key_end: usize) {
        self.inserts.push((key_at, KEY_OPEN));
        self.inserts.push((key_end, KEY_CLOSE));
    }

    /// Whether the innermost open construct holds statements, not an expression.
    fn at_statement_level(&self) -> bool {
        matches!(
            self.open.last(),
            None | Some(
                Open::Function | Open::Block | Open::Repeat | Open::IfStatement | Open::Loop { awaiting_do: false, .. }
            )
        )
    }

    /// A token at the depth of the pending keys, starting with `byte`: an `=` makes them
    /// assignment targets; what may go on in a target list keeps them; anything else, or a
    /// name right after a complete expression (a new statement), makes them reads.
    fn follow_pending(&mut self, byte: u8) {
        let rest = &self.bytes[self.at..];
        let last = match byte {
            b'=' if !rest.starts_with(b"==") => {
                for (key_at, key_end) in std::mem::take(&mut self.pending) {
                    self.wrap_key(key_at, key_end);
                }
                return;
            }
            b',' | b'(' | b'[' | b'{' => Some(Last::Other),
            b'.' if !rest.starts_with(b"..") => Some(Last::Other),
            b':' if !rest.starts_with(b"::") => Some(Last::Other),
            b'"' | b'\'' if self.pending_last != Last::Other => Some(Last::End),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let length = rest
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let keyword = KEYWORDS.contains(&&rest[..length]);
                (!keyword && self.pending_last == Last::Other).then_some(Last::Name)
            }
            _ => None,
        };
        match last {
            Some(last) => self.pending_last = last,
            None => self.pending.clear(),
        }
    }

    /// The position of the first byte from `at` that is not whitespace or a comment.
    fn skip_from(&self, at: usize) -> Result<usize, Refusal> {
        let mut probe = Scanner::new(self.bytes, at);
        probe.skip_space_and_comments()?;
        Ok(probe.at)
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
                        // Luau ends a line comment at a carriage return as well as at a line
                        // feed: code after a lone `\r` runs, so it must be scanned.
                        while self.bytes.get(self.at).is_some_and(|&b| b != b'\n' && b != b'\r') {
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
                b'\\' => self.escape(),
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

    /// Skips an escape in a quoted string, from its backslash: a line break may follow one as
    /// `\r\n` as well as a lone byte, and `\z` skips the whitespace after it, line breaks
    /// included, as Luau's lexer does.
    fn escape(&mut self) {
        self.at += 1;
        match self.bytes.get(self.at) {
            Some(b'\r') if self.bytes.get(self.at + 1) == Some(&b'\n') => self.at += 2,
            Some(b'z') => {
                self.at += 1;
                let space = |b: &&u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c);
                self.at += self.bytes[self.at..].iter().take_while(space).count();
            }
            _ => self.at += 1,
        }
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
                        self.inserts.push((after_in, LOOP_OPEN));
                        self.inserts.push((start, LOOP_CLOSE));
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
            name if name.starts_with(RESERVED_PREFIX.as_bytes()) => {
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
    use proptest::prelude::*;

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
    fn stored_keys_are_wrapped_and_read_keys_left_alone() {
        let key = |k: &str| format!("[ __writ_key({k}) ]");
        assert_eq!(rewritten("t[k] = 1"), format!("t{} = 1", key("k")));
        assert_eq!(
            rewritten("t[k] += 1 t[k] ..= 'x' t[k] //= 2"),
            format!("t{0} += 1 t{0} ..= 'x' t{0} //= 2", key("k"))
        );
        assert_eq!(
            rewritten("return t[k] == 1, {t[k]}, f(t[k], 2)"),
            "return t[k] == 1, {t[k]}, f(t[k], 2)"
        );
        assert_eq!(
            rewritten("local u = {[k] = 1, [j]= 2, t[i]}"),
            format!("local u = {{{} = 1, {}= 2, t[i]}}", key("k"), key("j"))
        );
        assert_eq!(rewritten("a.b[c[d]].e[f] = 1"), format!("a.b[c[d]].e{} = 1", key("f")));
        // Several targets: the keys before the `=` are stored, those after it are read.
        assert_eq!(
            rewritten("t[a], u.v, w[b] = x[c], 2"),
            format!("t{}, u.v, w{} = x[c], 2", key("a"), key("b"))
        );
        assert_eq!(
            rewritten("f(g)[a], h[b] = 1, 2"),
            format!("f(g){}, h{} = 1, 2", key("a"), key("b"))
        );
        // A read followed by a comma, then a new statement: nothing is stored.
        for source in [
            "local a, b = t[1], t[2]\ncount = 0",
            "x, y = t[1], t[2] z = 3",
            "return t[1], 2",
            "print(t[1], 2) y = 1",
            "for i = t[1], t[2] do end x = 1",
            "local a = t[1], \"s\" == y",
        ] {
            assert_eq!(rewritten(source), source);
        }
        // Comments between the bracket and the `=` do not hide it; `==` is a comparison.
        assert_eq!(rewritten("t[k] --[[ c ]] = 1"), format!("t{} --[[ c ]] = 1", key("k")));
        // A quoted string may break its line after a backslash, as `\r\n` too, and `\z` skips
        // line breaks: both are followed, not refused.
        assert_eq!(
            rewritten("local s = 'a\\\r\nb' .. \"c\\z\n  \r\n d\" t[k] = s"),
            format!("local s = 'a\\\r\nb' .. \"c\\z\n  \r\n d\" t{} = s", key("k"))
        );
        // Found by fuzzing: a line comment ends at a carriage return, and the code after it runs.
        assert_eq!(rewritten("-- c\rt[k] = 1"), format!("-- c\rt{} = 1", key("k")));
        assert_eq!(
            rewritten("--[ c\rfor k in t do end"),
            "--[ c\rfor k in __writ_iterate( t ) do end"
        );
        assert_eq!(rewritten("local b = t[k] == 1"), "local b = t[k] == 1");
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

    /// Whether `inner`'s bytes appear in `outer` in order.
    fn is_subsequence(inner: &str, outer: &str) -> bool {
        let mut rest = outer.bytes();
        inner.bytes().all(|b| rest.any(|o| o == b))
    }

    /// Luau-ish fragments, so generated text reaches deep into the scanner's states.
    const FRAGMENTS: [&str; 46] = [
        "for", " ", "in", "do", "end", "if", "then", "else", "elseif", "[", "]", "=", ",", "{", "}", "(", ")", "`",
        "'", "\"", "--", "[[", "]]", "[=[", "\n", "\r", "\\z", "t", "k", ".", ":", "::", "function", "repeat", "until",
        "while", "local", "==", "+=", "\\", "0x1", "1e", ";", "...", "return", "__writ_",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn any_text_is_followed_or_refused_and_only_ever_gains_text(
            parts in prop::collection::vec(prop::sample::select(FRAGMENTS.to_vec()), 0..80),
            noise in "\\PC{0,40}",
        ) {
            for source in [parts.concat(), noise] {
                if let Ok(out) = instrument(&source) {
                    prop_assert!(is_subsequence(&source, &out), "{source:?} became {out:?}");
                }
            }
        }
    }
}
