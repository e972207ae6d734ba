//! `writ eval`: one evaluation, or a batch of them as JSON Lines, in any language.
//!
//! Input and output framing is written once here and shared by every language. A batch line is
//! `{"expr": …, "data": …, "bindings": …, "limits": …, "transforms": […]}` (only `expr` is
//! required; keys a language does not use, and unknown keys such as a corpus case's `id`, are
//! ignored; a language that binds `bindings` refuses a line whose `bindings` is not an object).
//! Each non-blank input line gets exactly one output line, an [`Outcome`] envelope, in input
//! order.

use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use clap::{Args, ValueEnum};
use writ_cells::structured::Structured;
use writ_core::{
    Diagnostic, Engine, LimitName, Limits, Object, Outcome, Source, SystemHost, Value, apply_limits, parse_json,
};

use crate::{CommandError, ExitStatus, UsageError};

/// Arguments of `writ eval`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["expr", "batch"]))]
pub struct EvalArgs {
    /// The language of the expression.
    #[arg(long, value_enum)]
    lang: Language,
    /// A JSON file with the data the expression reads (for structured: the data its paths
    /// resolve against).
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    data: Option<PathBuf>,
    /// A JSON file with an object of bindings (jsonata's `$`-variables, named without the `$`;
    /// ignored by languages without bindings).
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    bindings: Option<PathBuf>,
    /// Limits as a JSON object, in the language's own names (structured: steps, ms; js: steps,
    /// ms, maxStringLength, maxArrayLength, maxTotalAllocation, maxSourceLength; jsonata:
    /// timeout (ms), depth, steps, sequence, each a positive integer or "Infinity"; jexl: steps,
    /// ms, maxStringLength, maxArrayLength, maxDepth; lua: timeoutMs, instructionLimit,
    /// memoryCeilingBytes). In batch mode, a line's own limits override these field by field.
    #[arg(long, value_name = "JSON")]
    limits: Option<String>,
    /// jexl: transforms from writ's standard set to register, comma-separated (upper, lower,
    /// split, join, length); none is registered otherwise. In batch mode a line's own
    /// "transforms" array replaces these.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    transforms: Vec<String>,
    /// Evaluate JSON Lines from FILE (or - for stdin) and answer each line with one line.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// The expression (for structured: the predicate as JSON).
    expr: Option<String>,
}

/// The languages `writ eval` speaks. Each joins this list when its engine lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Language {
    /// Structured predicates: {"path", "op", "value"} under "all", "any" and "not".
    Structured,
    /// The JavaScript subset of seed 004: one expression over the names in `data`.
    Js,
    /// JSONata 2.2.2: `data` is the input document, `bindings` the `$`-variables.
    Jsonata,
    /// Jexl 2.3: one expression over the context in `data`.
    Jexl,
    /// Sandboxed Lua: a chunk whose global `ctx` is `data`; the answer is its first return value.
    Lua,
}

/// One evaluation request, from the command line or from a batch line.
struct Request {
    expr: Value,
    data: Value,
    /// An object of variables, for languages that bind them; `undefined` for none.
    bindings: Value,
    limits: Limits,
    /// jexl's standard transforms to register for this request.
    transforms: Vec<String>,
}

impl Language {
    fn name(self) -> &'static str {
        match self {
            Language::Structured => "structured",
            Language::Js => "js",
            Language::Jsonata => "jsonata",
            Language::Jexl => "jexl",
            Language::Lua => "lua",
        }
    }

    /// True when the language binds `bindings` as variables (the others ignore it).
    fn takes_bindings(self) -> bool {
        self == Language::Jsonata
    }

    /// True when `expr` may be JSON rather than source text (a structured predicate is JSON).
    fn takes_json_expr(self) -> bool {
        match self {
            Language::Structured => true,
            Language::Js | Language::Jsonata | Language::Jexl | Language::Lua => false,
        }
    }

    /// The language's engine, with nothing registered: the same one for every request (a Lua
    /// sandbox runs its canaries once, a JavaScript evaluator keeps its parse cache).
    fn engine(self) -> Result<Arc<dyn Engine>, Diagnostic> {
        static STRUCTURED: OnceLock<Arc<dyn Engine>> = OnceLock::new();
        static JS: OnceLock<Arc<dyn Engine>> = OnceLock::new();
        static JSONATA: OnceLock<Arc<dyn Engine>> = OnceLock::new();
        static JEXL: OnceLock<Arc<dyn Engine>> = OnceLock::new();
        static LUA: OnceLock<Result<Arc<dyn Engine>, Diagnostic>> = OnceLock::new();
        let shared =
            |cell: &OnceLock<Arc<dyn Engine>>, build: fn() -> Arc<dyn Engine>| Arc::clone(cell.get_or_init(build));
        Ok(match self {
            Language::Structured => shared(&STRUCTURED, || Arc::new(Structured)),
            Language::Js => shared(&JS, || Arc::new(writ_js::Evaluator::new())),
            Language::Jsonata => shared(&JSONATA, || Arc::new(writ_jsonata::Jsonata)),
            Language::Jexl => shared(&JEXL, || Arc::new(writ_jexl::Jexl::new())),
            Language::Lua => LUA
                .get_or_init(|| {
                    writ_lua::Sandbox::new(writ_lua::DEFAULT_LIMITS)
                        .map(|sandbox| Arc::new(sandbox) as Arc<dyn Engine>)
                        .map_err(Diagnostic::from)
                })
                .clone()?,
        })
    }

    /// The engine for one request: jexl's registers the request's standard transforms.
    fn engine_for(self, request: &Request) -> Result<Arc<dyn Engine>, Diagnostic> {
        if self == Language::Jexl && !request.transforms.is_empty() {
            let names: Vec<&str> = request.transforms.iter().map(String::as_str).collect();
            let jexl = writ_jexl::Jexl::new().with_standard_transforms(&names)?;
            return Ok(Arc::new(jexl));
        }
        self.engine()
    }

    /// The limit names and defaults of the language (those of its engine; a language whose
    /// engine cannot be built has none to offer, and says why).
    fn limit_table(self) -> Result<(&'static [LimitName], Limits), Diagnostic> {
        let engine = self.engine()?;
        Ok((engine.limit_names(), engine.default_limits()))
    }

    fn answer(self, request: &Request) -> Outcome {
        let engine = match self.engine_for(request) {
            Ok(engine) => engine,
            Err(diagnostic) => return Outcome::from(&diagnostic),
        };
        let empty = Object::new();
        let bindings = request.bindings.as_object().unwrap_or(&empty);
        let data = match (self, &request.data) {
            // jexl-js evaluates over `context || {}`.
            (Language::Jexl, Value::Undefined) => Value::Object(Object::new()),
            (_, data) => data.clone(),
        };
        // `$now()` and `$random()` read the system clock and a seeded random source.
        let host = Arc::new(SystemHost::default());
        Outcome::from(engine.run(Source::Json(&request.expr), &data, bindings, &request.limits, host))
    }
}

/// Checks that `bindings` is an object of variables (or absent).
fn check_bindings(bindings: &Value) -> Result<(), String> {
    match bindings {
        Value::Undefined | Value::Object(_) => Ok(()),
        other => Err(format!(
            "bindings must be a JSON object of variable names (without the $) to values, such as {{\"rate\": 0.2}}, found {}",
            other.kind().described()
        )),
    }
}

/// Runs `writ eval`.
pub fn run(args: EvalArgs) -> Result<ExitStatus, CommandError> {
    let language = args.lang;
    let (names, defaults) = language
        .limit_table()
        .map_err(|diagnostic| UsageError(format!("--lang {}: {diagnostic}", language.name())))?;
    let base_limits = match &args.limits {
        None => defaults,
        Some(text) => {
            let json = parse_json(text).map_err(|error| UsageError(format!("--limits is not JSON: {error}")))?;
            apply_limits(defaults, &json, names, language.name())
                .map_err(|message| UsageError(format!("--limits: {message}")))?
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if let Some(source) = &args.batch {
        let input = read_input(source)?;
        run_batch(language, names, &base_limits, &args.transforms, &input, &mut out)?;
        out.flush()?;
        return Ok(ExitStatus::Success);
    }
    let expr = args.expr.unwrap_or_default();
    let data = match &args.data {
        Some(path) => read_json_file(path, "--data")?,
        None => Value::Undefined,
    };
    let bindings = match &args.bindings {
        Some(path) => read_json_file(path, "--bindings")?,
        None => Value::Undefined,
    };
    if language.takes_bindings() {
        check_bindings(&bindings).map_err(|message| UsageError(format!("--bindings: {message}")))?;
    }
    let request = Request {
        expr: Value::from(expr),
        data,
        bindings,
        limits: base_limits,
        transforms: args.transforms,
    };
    let envelope = language.answer(&request).to_envelope();
    writeln!(out, "{envelope}")?;
    out.flush()?;
    // Judged by what was written: a value too long to write is written as an error.
    Ok(if envelope.starts_with(r#"{"ok":true"#) {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

fn read_input(source: &str) -> Result<String, UsageError> {
    let mut bytes = Vec::new();
    let read = if source == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(source)
            .and_then(|mut file| file.read_to_end(&mut bytes))
            .map(|_| ())
    };
    read.map_err(|error| UsageError(format!("could not read the batch input {source}: {error}")))?;
    String::from_utf8(bytes).map_err(|error| {
        UsageError(format!(
            "the batch input {source} is not UTF-8 (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })
}

fn read_json_file(path: &PathBuf, flag: &str) -> Result<Value, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| UsageError(format!("{flag}: could not read {}: {error}", path.display())))?;
    parse_json(&text).map_err(|error| UsageError(format!("{flag}: {} is not JSON: {error}", path.display())))
}

fn run_batch(
    language: Language,
    names: &[LimitName],
    base_limits: &Limits,
    base_transforms: &[String],
    input: &str,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let input = input.strip_prefix('\u{FEFF}').unwrap_or(input);
    for (idx, line) in input.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        let outcome = match read_request(language, names, base_limits, base_transforms, line) {
            Ok(request) => language.answer(&request),
            Err(reason) => Outcome::error("batch-line-invalid", format!("line {}: {reason}", idx + 1)),
        };
        writeln!(out, "{}", outcome.to_envelope())?;
    }
    Ok(())
}

fn read_request(
    language: Language,
    names: &[LimitName],
    base_limits: &Limits,
    base_transforms: &[String],
    line: &str,
) -> Result<Request, String> {
    let json = parse_json(line).map_err(|error| format!("not valid JSON: {error}"))?;
    let Value::Object(object) = json else {
        return Err("not a JSON object".into());
    };
    let expr = match object.get_str("expr") {
        None => return Err("missing \"expr\"".into()),
        Some(expr) => expr.clone(),
    };
    if !language.takes_json_expr() && expr.as_str().is_none() {
        return Err("\"expr\" is not a string".into());
    }
    let limits = match object.get_str("limits") {
        None => *base_limits,
        Some(json) => apply_limits(*base_limits, json, names, language.name())?,
    };
    let bindings = object.get_str("bindings").cloned().unwrap_or_default();
    if language.takes_bindings() {
        check_bindings(&bindings)?;
    }
    let transforms = match object.get_str("transforms") {
        _ if language != Language::Jexl => Vec::new(),
        None => base_transforms.to_vec(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| name.as_str().map(|name| name.to_string_lossy().into_owned()))
            .collect::<Option<Vec<String>>>()
            .ok_or("\"transforms\" is not an array of strings")?,
        Some(_) => return Err("\"transforms\" is not an array of strings".into()),
    };
    Ok(Request {
        expr,
        data: object.get_str("data").cloned().unwrap_or_default(),
        bindings,
        limits,
        transforms,
    })
}
