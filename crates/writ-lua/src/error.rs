//! `Error`: what a refused or failed evaluation reports, with its stable code.

use std::fmt;

use writ_core::{Bound, BudgetExceeded};

/// The longest message an error keeps, in bytes.
const MAX_MESSAGE: usize = 1024;

/// A refused or failed evaluation: a stable [`code`](Error::code) and a message that says what
/// is wrong and what to write instead. Opaque and one pointer wide, so results stay small.
///
/// | code | meaning |
/// |---|---|
/// | `lua-syntax` | the source does not compile (or is longer than [`crate::MAX_SOURCE_BYTES`]) |
/// | `lua-bytecode-refused` | the source looks like precompiled bytecode |
/// | `lua-runtime` | the chunk raised an error: `error()`, indexing nil, calling a missing global… |
/// | `lua-instruction-limit` | the instruction budget ran out |
/// | `lua-timeout` | the wall-clock timeout passed |
/// | `lua-memory` | the memory ceiling was reached |
/// | `lua-stack` | recursion too deep |
/// | `lua-unrepresentable` | the answer (or the context) cannot cross between Lua and JSON |
/// | `lua-sandbox` | building the VM failed, or writ could not rewrite a chunk Luau compiles (`rewrite.rs`) |
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Details>);

/// What an [`Error`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Details {
    /// The stable code.
    code: Code,
    /// What is wrong and what to write instead, at most [`MAX_MESSAGE`] bytes.
    message: String,
    /// Luau raised it for an operation on a value of the wrong type.
    type_error: bool,
}

impl Error {
    /// An error with `code` and `message`, the message cut to [`MAX_MESSAGE`] bytes: a chunk
    /// chooses its own error text, and an error must stay cheap to log and to send.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Error {
        let mut message = message.into();
        if message.len() > MAX_MESSAGE {
            let mut end = MAX_MESSAGE;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push('…');
        }
        Error(Box::new(Details {
            code,
            message,
            type_error: false,
        }))
    }

    /// True for a `lua-runtime` error Luau raised for an operation on a value of the wrong
    /// type: indexing, comparing, arithmetic, concatenation, length or iteration of a
    /// value that does not support it (`attempt to index nil with 'x'`). Never true for an
    /// error the chunk raised itself with `error()`, whatever its text.
    pub fn is_type_error(&self) -> bool {
        self.0.type_error
    }

    /// The stable code, one of the table above (its text is [`Code::as_str`]).
    pub fn code(&self) -> Code {
        self.0.code
    }

    /// What is wrong, where, and what to write instead.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The line of the chunk the error points at, when it points at one: 1-based, counted in
    /// the chunk's source as written (the message then opens with `chunk:<line>:`, as Luau
    /// writes a position). Luau reports lines only, never columns.
    pub fn line(&self) -> Option<u32> {
        let (line, _) = after_chunk_line(&self.0.message)?;
        line.parse().ok()
    }

    /// A spent bound of the evaluation's meter, in this crate's codes.
    pub(crate) fn from_budget(exceeded: BudgetExceeded) -> Error {
        let limit = exceeded.limit;
        match exceeded.bound {
            Bound::Time => Error::new(
                Code::Timeout,
                format!(
                    "the chunk ran past its timeout of {limit} ms; bound its loops, or do less work per evaluation"
                ),
            ),
            Bound::Depth => Error::new(
                Code::Unrepresentable,
                format!("the value nests deeper than {limit} levels; flatten it"),
            ),
            _ => Error::new(
                Code::InstructionLimit,
                format!(
                    "the chunk ran past its instruction budget of {limit} (counted in loop iterations, calls and \
                     pattern-matching steps); bound its loops, or do less work per evaluation"
                ),
            ),
        }
    }

    /// The memory ceiling was reached.
    pub(crate) fn memory(ceiling: usize) -> Error {
        Error::new(
            Code::Memory,
            format!("the chunk reached the memory ceiling of {ceiling} bytes; build smaller strings and tables"),
        )
    }

    /// Recursion went past Luau's stack limits.
    pub(crate) fn stack() -> Error {
        Error::new(
            Code::Stack,
            "recursion too deep: the Lua stack overflowed; write the recursion as a loop",
        )
    }

    /// A VM could not be built or prepared.
    pub(crate) fn sandbox(detail: impl fmt::Display) -> Error {
        Error::new(Code::Sandbox, format!("the Lua sandbox could not be built: {detail}"))
    }

    /// Maps an error Luau or mlua reported, once the evaluation's bounds have been ruled out.
    pub(crate) fn from_lua(error: &mlua::Error, ceiling: usize) -> Error {
        match error {
            mlua::Error::SyntaxError { message, .. } => Error::new(
                Code::Syntax,
                format!("{}; the chunk must be Luau source text", first_line(message)),
            ),
            mlua::Error::MemoryError(_) => Error::memory(ceiling),
            mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
                Error::from_lua(cause, ceiling)
            }
            mlua::Error::ExternalError(external) => match external.downcast_ref::<Stop>() {
                Some(Stop(exceeded)) => Error::from_budget(*exceeded),
                None => Error::new(Code::Runtime, first_line(&external.to_string())),
            },
            mlua::Error::StackError => Error::stack(),
            other => {
                let full = other.to_string();
                let text = first_line(&full);
                // Where the stack runs out, Luau can fail inside the traceback handler too and
                // report only that; the same chunk then overflows either way, so both are one
                // answer, with one message.
                if text.contains("stack overflow") || text == "error in error handling" {
                    Error::stack()
                } else {
                    let mut error = Error::new(Code::Runtime, scrub_address(&at_chunk_line(text, &full)));
                    error.0.type_error = is_type_error(text, &full);
                    error
                }
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.0.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

/// The code of an [`Error`], as the table on [`Error`] says. [`Code::as_str`] is the stable text
/// hosts match on; codes are never renamed or reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// `lua-syntax`: the source does not compile, or is too long.
    Syntax,
    /// `lua-bytecode-refused`: the source looks like precompiled bytecode.
    BytecodeRefused,
    /// `lua-runtime`: the chunk raised an error.
    Runtime,
    /// `lua-instruction-limit`: the instruction budget ran out.
    InstructionLimit,
    /// `lua-timeout`: the wall-clock timeout passed.
    Timeout,
    /// `lua-memory`: the memory ceiling was reached.
    Memory,
    /// `lua-stack`: recursion too deep.
    Stack,
    /// `lua-unrepresentable`: a value cannot cross between Lua and JSON.
    Unrepresentable,
    /// `lua-sandbox`: the VM could not be built, or writ could not rewrite a chunk.
    Sandbox,
}

impl Code {
    /// Every code.
    pub const ALL: &'static [Code] = &[
        Code::Syntax,
        Code::BytecodeRefused,
        Code::Runtime,
        Code::InstructionLimit,
        Code::Timeout,
        Code::Memory,
        Code::Stack,
        Code::Unrepresentable,
        Code::Sandbox,
    ];

    /// The stable text: `lua-syntax`, `lua-runtime`, `lua-timeout`, ….
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "lua-syntax",
            Code::BytecodeRefused => "lua-bytecode-refused",
            Code::Runtime => "lua-runtime",
            Code::InstructionLimit => "lua-instruction-limit",
            Code::Timeout => "lua-timeout",
            Code::Memory => "lua-memory",
            Code::Stack => "lua-stack",
            Code::Unrepresentable => "lua-unrepresentable",
            Code::Sandbox => "lua-sandbox",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error the interrupt raises inside the VM when the meter refuses a step.
#[derive(Debug)]
pub(crate) struct Stop(pub(crate) BudgetExceeded);

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Stop {}

/// The first line of a message: mlua appends a traceback after it.
fn first_line(text: &str) -> &str {
    let text = text.strip_prefix("runtime error: ").unwrap_or(text);
    let text = text.strip_prefix("syntax error: ").unwrap_or(text);
    text.lines().next().unwrap_or("").trim_end()
}

/// The frames of the traceback mlua appends to `full`, innermost first, without its message
/// handler (the `[C]: in ?` frame on top).
fn frames(full: &str) -> impl Iterator<Item = &str> {
    full.lines()
        .skip(1)
        .map(str::trim_start)
        .filter(|frame| !frame.starts_with("stack traceback") && *frame != "[C]: in ?")
}

/// The line number and the rest of `text` when it opens with a chunk position `chunk:<line>:`.
fn after_chunk_line(text: &str) -> Option<(&str, &str)> {
    let (line, rest) = text.strip_prefix("chunk:")?.split_once(':')?;
    line.bytes().all(|b| b.is_ascii_digit()).then_some((line, rest))
}

/// Luau's own errors in code without line information (the prelude) say line 0.
const PRELUDE_LINE: &str = "writ-prelude:0: ";

/// A library error raised inside one of the prelude's wrappers (a malformed pattern in
/// `string.find`, a bad option to `string.format`, a failed comparison in `table.sort`) has no
/// position: the prelude is compiled without line information, so that a chunk catching such an
/// error with `pcall` reads Luau's own message and never a line of writ's prelude. When the error
/// ends the evaluation, the traceback mlua appends shows where it came from — a prelude frame
/// before any chunk frame — and names the chunk line that called the wrapper, the position the
/// author needs. An error the chunk raised itself (`error(e, 0)` included) is left as it is.
fn at_chunk_line(text: &str, full: &str) -> String {
    let mut lua_frames = frames(full).filter(|frame| !frame.starts_with("[C]"));
    let raised_in_prelude = lua_frames.next().is_some_and(|frame| frame.starts_with("writ-prelude"));
    if !raised_in_prelude || text.starts_with("chunk:") {
        return text.to_owned();
    }
    let text = text.strip_prefix(PRELUDE_LINE).unwrap_or(text);
    match lua_frames.find_map(after_chunk_line) {
        Some((line, _)) => format!("chunk:{line}: {text}"),
        None => text.to_owned(),
    }
}

/// The words Luau opens its messages about a value of the wrong type with.
/// A call of nil is left out: in a sandbox it mostly means a function writ does not provide
/// (`os.time()`), which is not a question of the value's type.
const TYPE_ERRORS: [&str; 6] = [
    "attempt to index ",
    "attempt to compare ",
    "attempt to perform arithmetic ",
    "attempt to concatenate ",
    "attempt to get length ",
    "attempt to iterate ",
];

/// True when Luau itself raised `text` for a value of the wrong type: its message opens with
/// one of [`TYPE_ERRORS`] (after the position), and the top of the traceback is not a call of
/// `error` from the chunk, which can raise any text. writ's prelude raises Luau's own
/// comparison message from `table.sort`'s default order, so a prelude frame counts as Luau.
fn is_type_error(text: &str, full: &str) -> bool {
    let message = after_chunk_line(text).map_or(text, |(_, rest)| rest.strip_prefix(' ').unwrap_or(rest));
    let message = message.strip_prefix(PRELUDE_LINE).unwrap_or(message);
    if !TYPE_ERRORS.iter().any(|words| message.starts_with(words)) {
        return false;
    }
    let mut frames = frames(full);
    let raised_by_chunk = frames
        .next()
        .is_some_and(|top| top.starts_with("[C]: in function 'error'"))
        && frames.next().is_some_and(|caller| caller.starts_with("chunk:"));
    !raised_by_chunk
}

/// An error object that is a table or a function prints as its address, which differs between
/// runs; the message names its type instead so that answers stay deterministic.
fn scrub_address(text: &str) -> String {
    for kind in ["table", "function", "thread", "userdata", "buffer"] {
        if let Some(rest) = text.strip_prefix(kind).and_then(|r| r.strip_prefix(": 0x"))
            && rest.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return format!("the chunk raised a {kind} as its error; pass a string to error()");
        }
    }
    text.to_owned()
}

const _: () = assert!(std::mem::size_of::<Error>() == std::mem::size_of::<usize>());

#[cfg(test)]
mod code_tests {
    use super::Code;

    #[test]
    fn every_code_is_written_once_in_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let text = code.as_str();
            assert!(
                text.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                    && !text.starts_with('-')
                    && !text.ends_with('-'),
                "{text}"
            );
            assert!(text.starts_with("lua-"), "{text}");
            assert_eq!(code.to_string(), text);
            assert!(seen.insert(text), "{text} twice");
        }
        assert_eq!(seen.len(), 9);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_overflow_is_one_answer_however_luau_reports_it() {
        // Found by fuzzing: the same runaway recursion was reported once as "error in error
        // handling" (the traceback handler ran out of stack too) and once as a stack overflow.
        let reports = [
            mlua::Error::RuntimeError("error in error handling".into()),
            mlua::Error::RuntimeError("chunk:1: stack overflow\nstack traceback:\n\tchunk:1: in f".into()),
            mlua::Error::StackError,
        ];
        for report in &reports {
            assert_eq!(Error::from_lua(report, 0), Error::stack(), "{report:?}");
        }
    }

    #[test]
    fn a_library_error_in_a_prelude_wrapper_names_the_chunks_line() {
        let report = mlua::Error::RuntimeError(
            "malformed pattern (ends with '%')\nstack traceback:\n\t[C]: in ?\n\t[C]: in function 'find'\n\t\
             writ-prelude: in function <writ-prelude:117>\n\tchunk:7: in function <chunk:1>"
                .into(),
        );
        assert_eq!(
            Error::from_lua(&report, 0).message(),
            "chunk:7: malformed pattern (ends with '%')"
        );
    }

    #[test]
    fn an_error_the_chunk_raised_itself_is_left_as_it_is() {
        for report in [
            // error('plain', 0) in the chunk, called back from a prelude wrapper.
            "plain\nstack traceback:\n\t[C]: in function 'error'\n\tchunk:3: in function <chunk:2>\n\t\
             writ-prelude: in function <writ-prelude:290>\n\tchunk:5: in function <chunk:1>",
            // An error the prelude raised at the chunk's level already names its line.
            "chunk:4: bad argument #1 to 'next' (table expected, got nil)\nstack traceback:\n\t\
             [C]: in function 'error'\n\twrit-prelude: in function <writ-prelude:12>\n\tchunk:4: in function <chunk:1>",
        ] {
            let message = Error::from_lua(&mlua::Error::RuntimeError(report.into()), 0)
                .message()
                .to_owned();
            assert_eq!(message, report.lines().next().unwrap_or_default(), "{report}");
        }
    }
}
