//! One JSONata expression of a document: compiled once, evaluated with seed 001's bindings
//! and limits, its errors naming where it sits.

use std::sync::Arc;

use writ_core::{Category, Diagnostic, Host, Limits, Meter, Object, Value};
use writ_jsonata::Expression;

use crate::{Code, Error};

/// `$refId(x)`: the id inside a connection ref. JSONata bindings are values, so the function is
/// defined in JSONata itself, in a block around the expressions that name it.
const REF_ID_PRELUDE: &str = "($refId := function($x){ $type($x) = 'object' ? ($r := $lookup($x, '$ref'); \
$type($r) = 'string' ? $r : ($type($r) = 'object' ? ($i := $lookup($r, 'id'); $type($i) = 'string' ? $i : undefined) \
: undefined)) : undefined }; ";

/// A compiled expression and where it sits in its document.
#[derive(Debug, Clone)]
pub(crate) struct Expr {
    /// Called directly rather than as the engine seam's `dyn Program`, which answers the same
    /// but makes each evaluation's result over into its own: a run is mostly evaluations. An
    /// error becomes the seam's diagnostic where it happens ([`writ_jsonata::Error::to_diagnostic`]).
    program: Expression,
    /// The text compiled (with the prelude when there is one), for the spans of its errors.
    source: Arc<str>,
    /// UTF-16 units (the prelude is ASCII) of the `$refId` prelude in front of the source;
    /// 0 when the source does not name `$refId`.
    prelude: usize,
    /// Whether the source can read `$steps` (names it, or evaluates text with `$eval`).
    reads_steps: bool,
    /// Where it sits: "compute node 'step'", "route 0 of conditional node 'triage'".
    site: Arc<str>,
}

impl Expr {
    /// Compiles `source`, found at `site`.
    ///
    /// # Errors
    ///
    /// The message of a syntax error: the site, JSONata's code and its position.
    pub(crate) fn compile(source: &str, site: String) -> Result<Expr, String> {
        let compile = |source: &str, prelude: usize| {
            Expression::compile(source)
                .map_err(|error| format!("{site}: {}", quote(&error.to_diagnostic(source), prelude)))
        };
        let compiled = compile(source, 0)?;
        let (program, text, prelude) = if source.contains("$refId") {
            // The bare source parsed, so the block around it parses as that source.
            let wrapped = format!("{REF_ID_PRELUDE}{source}\n)");
            let program = compile(&wrapped, REF_ID_PRELUDE.len())?;
            (program, Arc::from(wrapped), REF_ID_PRELUDE.len())
        } else {
            (compiled, Arc::from(source), 0)
        };
        Ok(Expr {
            program,
            source: text,
            prelude,
            reads_steps: source.contains("$steps") || source.contains("$eval"),
            site: Arc::from(site),
        })
    }

    /// Whether the expression can read `$steps`, so its bindings need it.
    pub(crate) fn reads_steps(&self) -> bool {
        self.reads_steps
    }

    /// Where the expression sits.
    pub(crate) fn site(&self) -> &str {
        &self.site
    }

    /// Evaluates over `input` with `bindings` (names without `$`), under `meter`, fresh for
    /// this evaluation on the run's limits and clock.
    ///
    /// # Errors
    ///
    /// `EXPRESSION_LIMIT_EXCEEDED` for a crossed bound, `EXPRESSION_FAILED` for anything else
    /// JSONata throws; the message names the site and quotes JSONata's code and position.
    pub(crate) fn evaluate(
        &self,
        input: &Value,
        bindings: &Object,
        meter: &mut Meter,
        host: &dyn Host,
    ) -> Result<Value, Error> {
        self.program
            .evaluate_metered(input, bindings, meter, host)
            .map_err(|error| self.failed(&error))
    }

    /// The error of an evaluation that failed with JSONata's `error`.
    fn failed(&self, error: &writ_jsonata::Error) -> Error {
        let diagnostic = error.to_diagnostic(&self.source);
        let code = match diagnostic.category() {
            Category::Budget => Code::ExpressionLimitExceeded,
            _ => Code::ExpressionFailed,
        };
        Error::new(code, format!("{}: {}", self.site, quote(&diagnostic, self.prelude)))
    }

    /// [`Expr::test`] of a test of fields and literals over an object, decided in place as an
    /// evaluation under `limits` decides it ([`Expression::quick_test`]); `None` when the
    /// evaluation must run.
    #[inline]
    pub(crate) fn quick_test(&self, input: &Value, limits: &Limits) -> Option<Result<bool, Error>> {
        Some(match self.program.quick_test(input, limits)? {
            Ok(answer) => Ok(matches!(answer, Value::Bool(true))),
            Err(error) => Err(self.failed(&error)),
        })
    }

    /// Evaluates a test: true passes; false and no value fail; anything else is
    /// `EXPRESSION_FAILED`.
    ///
    /// # Errors
    ///
    /// As [`Expr::evaluate`], and `EXPRESSION_FAILED` for a result that is not a boolean.
    pub(crate) fn test(
        &self,
        input: &Value,
        bindings: &Object,
        meter: &mut Meter,
        host: &dyn Host,
    ) -> Result<bool, Error> {
        let answer = self.evaluate(input, bindings, meter, host)?;
        let passed = match &answer {
            Value::Bool(passed) => *passed,
            Value::Undefined => false,
            other => Err(Error::new(
                Code::ExpressionFailed,
                format!(
                    "{}: a test must give true or false, found {} ({}); write the comparison out, as in `count > 0` \
                     or `$exists(done) and done = true`",
                    self.site,
                    other.kind().described(),
                    shorten(&other.to_json_string().unwrap_or_default())
                ),
            ))?,
        };
        // A boolean or no value holds nothing to free: forgotten, it costs no call to drop.
        std::mem::forget(answer);
        Ok(passed)
    }
}

/// JSONata's code, its message and its position, the position counted in the source as
/// written (without the `$refId` prelude).
fn quote(diagnostic: &Diagnostic, prelude: usize) -> String {
    let mut message = diagnostic.message().to_string();
    if prelude > 0
        && let Some(start) = message.rfind(" (at character ")
    {
        let digits = &message[start + " (at character ".len()..message.len().saturating_sub(1)];
        if let Ok(position) = digits.parse::<usize>() {
            message = format!(
                "{} (at character {})",
                &message[..start],
                position.saturating_sub(prelude)
            );
        }
    }
    let code = diagnostic.code();
    let help = diagnostic
        .help()
        .map(|help| format!(" (help: {help})"))
        .unwrap_or_default();
    format!("JSONata error {code}: {message}{help}")
}

/// At most 200 bytes of `text`, cut at a character boundary.
pub(crate) fn shorten(text: &str) -> String {
    if text.len() <= 200 {
        return text.to_string();
    }
    let mut end = 200;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
