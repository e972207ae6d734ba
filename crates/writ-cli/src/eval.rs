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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::{Args, ValueEnum};
use writ_cells::structured;
use writ_core::{Limits, Outcome, Value, parse_json};
use writ_jsonata::{Expression, JsonataLimits, Options, SystemHost};

use crate::limits::{self, LimitName, RequestLimits};
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
    limits: RequestLimits,
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

    fn limit_names(self) -> &'static [LimitName] {
        match self {
            Language::Structured => limits::STEPS_AND_MS,
            Language::Js => limits::JS_LIMITS,
            Language::Jsonata => limits::JSONATA_LIMITS,
            Language::Jexl => limits::JEXL_LIMITS,
            Language::Lua => limits::LUA_LIMITS,
        }
    }

    fn default_limits(self) -> RequestLimits {
        match self {
            Language::Structured => structured::DEFAULT_LIMITS.into(),
            Language::Js => RequestLimits {
                limits: writ_js::Budget::default().limits(),
                max_source_length: Some(writ_js::DEFAULT_MAX_SOURCE_LENGTH as u64),
                memory_bytes: None,
            },
            Language::Jexl => writ_jexl::DEFAULT_LIMITS.into(),
            Language::Lua => {
                let defaults = writ_lua::DEFAULT_LIMITS;
                RequestLimits {
                    limits: Limits {
                        steps: Some(defaults.instruction_limit),
                        time: Some(defaults.timeout),
                        ..Limits::UNLIMITED
                    },
                    max_source_length: None,
                    memory_bytes: Some(defaults.memory_ceiling_bytes as u64),
                }
            }
            Language::Jsonata => {
                let defaults = JsonataLimits::default();
                Limits {
                    steps: defaults.steps,
                    time: defaults.timeout.map(Duration::from_millis),
                    max_array_length: defaults.sequence,
                    max_depth: defaults.depth,
                    ..Limits::UNLIMITED
                }
                .into()
            }
        }
    }

    fn answer(self, request: &Request) -> Outcome {
        match self {
            Language::Structured => {
                // The predicate arrives as JSON, or as a string of JSON text.
                let predicate = match &request.expr {
                    Value::String(text) => match parse_json(&text.to_string_lossy()) {
                        Ok(predicate) => predicate,
                        Err(error) => {
                            return Outcome::error("invalid-predicate", format!("the predicate is not JSON: {error}"));
                        }
                    },
                    predicate => predicate.clone(),
                };
                structured::eval(&predicate, &request.data, &request.limits.limits)
            }
            Language::Js => answer_js(request),
            Language::Jsonata => answer_jsonata(request),
            Language::Jexl => answer_jexl(request),
            Language::Lua => answer_lua(request),
        }
    }
}

/// Runs a jexl request: `data` is the context; the request's standard transforms are registered.
fn answer_jexl(request: &Request) -> Outcome {
    let names: Vec<&str> = request.transforms.iter().map(String::as_str).collect();
    let jexl = match writ_jexl::Jexl::new()
        .with_limits(request.limits.limits)
        .with_standard_transforms(&names)
    {
        Ok(jexl) => jexl,
        Err(error) => return Outcome::error(error.code(), error.message()),
    };
    let source = request
        .expr
        .as_str()
        .map(|text| text.to_string_lossy())
        .unwrap_or_default();
    let context = match &request.data {
        Value::Undefined => Value::Object(writ_core::Object::new()),
        data => data.clone(),
    };
    writ_jexl::outcome(&jexl, &source, &context)
}

/// Runs a lua request: `data` becomes the global `ctx`; the answer is the chunk's first return
/// value.
fn answer_lua(request: &Request) -> Outcome {
    let limits = &request.limits;
    let defaults = writ_lua::DEFAULT_LIMITS;
    let lua_limits = writ_lua::LuaLimits {
        instruction_limit: limits.limits.steps.unwrap_or(u64::MAX),
        memory_ceiling_bytes: limits.memory_bytes.map_or(defaults.memory_ceiling_bytes, |bytes| {
            usize::try_from(bytes).unwrap_or(usize::MAX)
        }),
        timeout: limits.limits.time.unwrap_or(defaults.timeout),
    };
    let sandbox = match lua_sandbox(lua_limits) {
        Ok(sandbox) => sandbox,
        Err(error) => return Outcome::error(error.code(), error.message()),
    };
    let source = request
        .expr
        .as_str()
        .map(|text| text.to_string_lossy())
        .unwrap_or_default();
    writ_lua::outcome(&sandbox, &source, &request.data)
}

/// The sandboxes built so far, by limits: building one runs its canaries (tens of
/// milliseconds), so a batch builds one per set of limits, not one per line.
static LUA_SANDBOXES: Mutex<Vec<(writ_lua::LuaLimits, Arc<writ_lua::Sandbox>)>> = Mutex::new(Vec::new());

/// The most sets of limits whose sandboxes are kept; the oldest goes first.
const LUA_SANDBOXES_KEPT: usize = 8;

/// The sandbox for `limits`, built on first use.
fn lua_sandbox(limits: writ_lua::LuaLimits) -> Result<Arc<writ_lua::Sandbox>, writ_lua::Error> {
    let mut sandboxes = LUA_SANDBOXES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, sandbox)) = sandboxes.iter().find(|(kept, _)| *kept == limits) {
        return Ok(Arc::clone(sandbox));
    }
    let sandbox = Arc::new(writ_lua::Sandbox::new(limits)?);
    if sandboxes.len() == LUA_SANDBOXES_KEPT {
        sandboxes.remove(0);
    }
    sandboxes.push((limits, Arc::clone(&sandbox)));
    Ok(sandbox)
}

/// Runs a js request: `data`'s keys are the names the expression reads.
fn answer_js(request: &Request) -> Outcome {
    let limits = &request.limits.limits;
    let defaults = writ_js::Budget::default();
    let budget = writ_js::Budget {
        steps: limits.steps.unwrap_or(defaults.steps),
        ms: limits
            .time
            .map_or(defaults.ms, |time| u64::try_from(time.as_millis()).unwrap_or(u64::MAX)),
        max_string_length: limits.max_string_length.unwrap_or(defaults.max_string_length),
        max_array_length: limits.max_array_length.unwrap_or(defaults.max_array_length),
        max_total_allocation: limits.max_total_allocation.unwrap_or(defaults.max_total_allocation),
    };
    let max_source_length = request
        .limits
        .max_source_length
        .map_or(writ_js::DEFAULT_MAX_SOURCE_LENGTH, |length| {
            usize::try_from(length).unwrap_or(usize::MAX)
        });
    let evaluator = writ_js::Evaluator::builder()
        .budget(budget)
        .max_source_length(max_source_length)
        .build();
    let source = request
        .expr
        .as_str()
        .map(|text| text.to_string_lossy())
        .unwrap_or_default();
    let contexts: Vec<&writ_core::Object> = request.data.as_object().into_iter().collect();
    writ_js::outcome(evaluator.and_then(|evaluator| evaluator.eval(&source, &contexts)))
}

/// Runs a jsonata request: `data` is the input document, `bindings` the variables; `$now()`
/// and `$random()` read the system clock and a seeded random source.
fn answer_jsonata(request: &Request) -> Outcome {
    let source = request.expr.as_str().map(jsonata_source).unwrap_or_default();
    let expression = match Expression::compile(&source) {
        Ok(expression) => expression,
        Err(error) => return jsonata_error(&error),
    };
    let limits = &request.limits.limits;
    let options = Options {
        limits: JsonataLimits {
            timeout: limits
                .time
                .map(|time| u64::try_from(time.as_millis()).unwrap_or(u64::MAX)),
            depth: limits.max_depth,
            steps: limits.steps,
            sequence: limits.max_array_length,
        },
        bindings: request
            .bindings
            .as_object()
            .map(|bindings| {
                bindings
                    .iter()
                    .map(|(name, value)| (name.clone(), value.clone()))
                    .collect()
            })
            .unwrap_or_default(),
        host: Arc::new(SystemHost::default()),
        ..Options::default()
    };
    match expression.evaluate(&request.data, &options) {
        Ok(value) => Outcome::from(value),
        Err(error) => jsonata_error(&error),
    }
}

/// An expression's text from a JSON string. Rust text cannot hold a lone surrogate, so one is
/// written as the escape `\uXXXX`, which inside a string literal (where JSON-borne expressions
/// carry them) stands for the same code unit.
fn jsonata_source(text: &writ_core::Str) -> String {
    if let Some(text) = text.to_str() {
        return text.into_owned();
    }
    char::decode_utf16(text.code_units())
        .map(|unit| match unit {
            Ok(c) => c.to_string(),
            Err(lone) => format!("\\u{:04x}", lone.unpaired_surrogate()),
        })
        .collect()
}

/// A jsonata error as an envelope: JSONata's code, and writ's message with the position. A
/// message the expression wrote itself (`$error`, `$assert`) stays exactly as written.
fn jsonata_error(error: &writ_jsonata::Error) -> Outcome {
    let mut message = error.message();
    if let (None, Some(position)) = (&error.detail, error.position) {
        message.push_str(&format!(" (at character {position})"));
    }
    Outcome::error(error.code, message)
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
    let base_limits = match &args.limits {
        None => language.default_limits(),
        Some(text) => {
            let json = parse_json(text).map_err(|error| UsageError(format!("--limits is not JSON: {error}")))?;
            limits::apply(
                language.default_limits(),
                &json,
                language.limit_names(),
                language.name(),
            )
            .map_err(|message| UsageError(format!("--limits: {message}")))?
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if let Some(source) = &args.batch {
        let input = read_input(source)?;
        run_batch(language, &base_limits, &args.transforms, &input, &mut out)?;
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
    base_limits: &RequestLimits,
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
        let outcome = match read_request(language, base_limits, base_transforms, line) {
            Ok(request) => language.answer(&request),
            Err(reason) => Outcome::error("batch-line-invalid", format!("line {}: {reason}", idx + 1)),
        };
        writeln!(out, "{}", outcome.to_envelope())?;
    }
    Ok(())
}

fn read_request(
    language: Language,
    base_limits: &RequestLimits,
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
        Some(json) => limits::apply(*base_limits, json, language.limit_names(), language.name())?,
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
