//! Node 20's answers, compared exactly (no-break and narrow no-break spaces included).

use writ_core::{Limits, Meter, parse_json};

use crate::ast::Program;
use crate::error::Reason;

use super::tags::requested_locales;
use super::*;

/// The default budget.
fn limits() -> Limits {
    Limits {
        steps: Some(1_000_000),
        max_string_length: Some(1_000_000),
        max_array_length: Some(100_000),
        max_total_allocation: Some(10_000_000),
        ..Limits::UNLIMITED
    }
}

/// Runs `f` in a fresh evaluation under `limits`; also answers the steps it took.
fn run_under<T>(limits: &Limits, f: impl FnOnce(&mut Cx<'_>) -> Result<T>) -> (Result<T>, u64) {
    let program = Program::empty();
    let mut cx = Cx::new(Meter::new(limits), &program, &[]);
    let result = f(&mut cx);
    (result, cx.meter.steps_used())
}

/// Runs `f` in a fresh evaluation under the default budget.
fn run<T>(f: impl FnOnce(&mut Cx<'_>) -> Result<T>) -> Result<T> {
    run_under(&limits(), f).0
}

/// A JSON argument; the empty text is `undefined`.
fn arg(json: &str) -> Value {
    if json.is_empty() {
        Value::Undefined
    } else {
        parse_json(json).unwrap_or(Value::Null)
    }
}

/// `n.toLocaleString(locales, options)` with JSON arguments.
fn format(n: f64, locales: &str, options: &str) -> Result<String> {
    run(|cx| number_to_locale_string(cx, n, &arg(locales), &arg(options))).map(|s| s.to_string_lossy().into_owned())
}

/// The reason of a failure, if it failed.
fn reason<T: std::fmt::Debug>(result: Result<T>) -> Option<Reason> {
    result.err().map(|error| error.reason())
}

/// `tag` as a JSON string.
fn quoted(tag: &str) -> String {
    format!("\"{tag}\"")
}

/// One of node 20's answers in a JSON Lines file of `testdata/`: `n.toLocaleString(locale,
/// options)` is `want`. `n` is the number's text (`"-0.0"`, `"NaN"`, `"-Infinity"` included);
/// an absent `options` is `undefined`, an absent `locale` en-US.
struct Answer {
    locale: String,
    options: String,
    n: f64,
    want: String,
}

/// The answers of a JSON Lines file.
fn answers(text: &str) -> Vec<Answer> {
    let field =
        |case: &serde_json::Value, name: &str| case.get(name).and_then(serde_json::Value::as_str).map(str::to_owned);
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            Answer {
                locale: field(&case, "locale").unwrap_or_else(|| "en-US".to_owned()),
                options: case.get("options").map(ToString::to_string).unwrap_or_default(),
                n: field(&case, "n")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{line}: no number")),
                want: field(&case, "want").unwrap_or_else(|| panic!("{line}: no answer")),
            }
        })
        .collect()
}

/// The eight main locales (`testdata/formats.jsonl`): decimal, percent and currency styles,
/// grouping and signs.
#[test]
fn formats_as_node_does_in_the_main_locales() {
    let cases = answers(include_str!("testdata/formats.jsonl"));
    assert_eq!(cases.len(), 288);
    for Answer {
        locale,
        options,
        n,
        want,
    } in &cases
    {
        let got = format(*n, &quoted(locale), options);
        assert_eq!(got.as_deref(), Ok(want.as_str()), "{n} in {locale} with {options}");
    }
}

/// The compact, scientific and engineering notations and the unit style in the eight main
/// locales (`testdata/notations.jsonl`, written by `testdata/notations.mjs main`).
#[test]
fn writes_notations_and_units_as_node_does_in_the_main_locales() {
    let cases = answers(include_str!("testdata/notations.jsonl"));
    assert_eq!(cases.len(), 2880);
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(
            |Answer {
                 locale,
                 options,
                 n,
                 want,
             }| {
                let got = format(*n, &quoted(locale), options);
                (got.as_deref() != Ok(want.as_str()))
                    .then(|| format!("{n} in {locale} with {options}: {got:?}, node {want:?}"))
            },
        )
        .collect();
    assert!(
        wrong.is_empty(),
        "{} answers differ from node's:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The notations and units in every locale node has (`testdata/notations-all.jsonl`): each
/// answer is node's, or a guardrail refusal; the count answered is pinned, so a refusal that
/// spreads shows here.
#[test]
fn writes_notations_in_every_locale_as_node_does_or_refuses() {
    let cases = answers(include_str!("testdata/notations-all.jsonl"));
    assert_eq!(cases.len(), 4760);
    let mut answered = 0;
    let mut wrong = Vec::new();
    for Answer {
        locale,
        options,
        n,
        want,
    } in &cases
    {
        match format(*n, &quoted(locale), options) {
            Ok(got) if got == *want => answered += 1,
            Err(error) if error.reason() == Reason::GuardrailViolation => {}
            other => wrong.push(format!("{n} in {locale} with {options}: {other:?}, node {want:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} answers differ from node's:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(answered, 3134, "answered");
}

/// Digit and rounding options, minor units and special values, in en-US
/// (`testdata/digits.jsonl`).
#[test]
fn rounds_and_pads_as_icu_does() {
    let cases = answers(include_str!("testdata/digits.jsonl"));
    assert_eq!(cases.len(), 81);
    for Answer {
        locale,
        options,
        n,
        want,
    } in &cases
    {
        let got = format(*n, &quoted(locale), options);
        assert_eq!(got.as_deref(), Ok(want.as_str()), "{n} with {options}");
    }
}

/// Node 20's answers for locale lists it resolves in its own ways.
const LOCALES: &[(&str, f64, &str)] = &[
    (r#""xx""#, 1234.5, "1,234.5"),
    (r#"["xx","de-DE"]"#, 1234.5, "1.234,5"),
    (r#""iw""#, -1234.5, "\u{200e}-1,234.5"),
    (r#""en-Latn-GB""#, 1234.5, "1,234.5"),
    (r#""EN-gb""#, 1234.5, "1,234.5"),
    (r#""hi-IN-u-nu-deva""#, 1234567.5, "१२,३४,५६७.५"),
    (r#""ar-EG""#, -1234.5, "\u{61c}-١\u{66c}٢٣٤\u{66b}٥"),
    (r#""th-TH-u-nu-thai""#, 12.5, "๑๒.๕"),
    (r#""en-u-nu-roman""#, 12.5, "12.5"),
    (r#"[]"#, 1234.5, "1,234.5"),
    (r#""fa""#, -1234.5, "\u{200e}\u{2212}۱\u{66c}۲۳۴\u{66b}۵"),
    (r#""de-CH""#, 1234567.5, "1'234'567.5"),
    (r#""en-IN""#, 1234567.5, "12,34,567.5"),
    (r#""es-MX""#, 1234.5, "1,234.5"),
    (r#""zh-TW""#, 1234.5, "1,234.5"),
    (r#""sr-ME""#, 1234.5, "1.234,5"),
    (r#""pt-BR""#, 1234.5, "1.234,5"),
    (r#""und""#, 1234.5, "1,234.5"),
    (r#""de-DE-1996""#, 1234.5, "1.234,5"),
];

/// Locale lists resolved as V8 resolves them; en-US when none is given.
#[test]
fn resolves_locales_as_v8_does() {
    for &(locales, n, want) in LOCALES {
        assert_eq!(format(n, locales, "").as_deref(), Ok(want), "{n} in {locales}");
    }
    // No locale is en-US, whatever the host.
    assert_eq!(format(1234.5, "", "").as_deref(), Ok("1,234.5"));
    assert_eq!(format(-0.0, "", "").as_deref(), Ok("-0"));
}

/// Currency symbols where node's CLDR 48 and ICU4X's CLDR 49 differ.
const SYMBOLS: &[(&str, &str, &str, &str)] = &[
    ("fr-FR", "JPY", "symbol", "1\u{202f}235\u{a0}JPY"),
    ("fr-FR", "CNY", "symbol", "1\u{202f}234,50\u{a0}CNY"),
    ("es-ES", "JPY", "symbol", "1235\u{a0}JPY"),
    ("en-US", "CHF", "narrowSymbol", "CHF\u{a0}1,234.50"),
    ("de-DE", "PHP", "symbol", "1.234,50\u{a0}PHP"),
    ("en-AU", "USD", "symbol", "USD\u{a0}1,234.50"),
    ("ar", "AED", "symbol", "\u{200f}1,234.50\u{a0}د.إ.\u{200f}"),
    ("en-GB", "USD", "narrowSymbol", "$1,234.50"),
    ("ja-JP", "CNY", "symbol", "元\u{a0}1,234.50"),
    ("hi-IN", "JPY", "symbol", "JP¥1,235"),
];

/// Currency symbols where the two CLDR versions differ.
#[test]
fn writes_node_currency_symbols() {
    for &(locale, currency, display, want) in SYMBOLS {
        let options =
            format!("{{\"style\":\"currency\",\"currency\":\"{currency}\",\"currencyDisplay\":\"{display}\"}}");
        assert_eq!(
            format(1234.5, &quoted(locale), &options).as_deref(),
            Ok(want),
            "{currency} {display} in {locale}"
        );
    }
}

/// A runtime error exactly where Intl throws; a guardrail where it would run.
#[test]
fn arguments_fail_where_intl_fails_and_are_refused_where_it_would_run() {
    let runtime = Some(Reason::ExpressionRuntime);
    let guardrail = Some(Reason::GuardrailViolation);
    let cases: &[(&str, &str, Option<Reason>)] = &[
        ("null", "", runtime),
        ("\"en_US\"", "", runtime),
        ("\"i-klingon\"", "", runtime),
        ("\"\"", "", runtime),
        ("[\"en\", 5]", "", runtime),
        ("[\"en\", null]", "", runtime),
        ("[\"en\", {}]", "", runtime),
        ("[[\"de\"]]", "", guardrail),
        ("5", "", guardrail),
        ("true", "", guardrail),
        ("{}", "", guardrail),
        ("\"en\"", "null", runtime),
        ("\"en\"", "5", guardrail),
        ("\"en\"", "[1]", guardrail),
        ("\"en\"", r#"{"maximumFractionDigits":[2]}"#, guardrail),
        ("\"en\"", r#"{"style":"currency"}"#, runtime),
        ("\"en\"", r#"{"style":"currency","currency":"US"}"#, runtime),
        ("\"en\"", r#"{"currency":"EURO"}"#, runtime),
        ("\"en\"", r#"{"style":"Currency"}"#, runtime),
        ("\"en\"", r#"{"style":"unit"}"#, runtime),
        ("\"en\"", r#"{"style":"unit","unit":"meters"}"#, runtime),
        ("\"en\"", r#"{"style":"unit","unit":"byte"}"#, guardrail),
        ("\"en\"", r#"{"style":"unit","unit":"celsius"}"#, guardrail),
        ("\"en\"", r#"{"style":"unit","unit":"kilometer-per-hour"}"#, guardrail),
        (
            "\"en\"",
            r#"{"style":"unit","unit":"meter","notation":"compact"}"#,
            guardrail,
        ),
        ("\"en\"", r#"{"style":"percent","notation":"scientific"}"#, guardrail),
        (
            "\"en\"",
            r#"{"notation":"scientific","maximumFractionDigits":21}"#,
            runtime,
        ),
        ("\"en\"", r#"{"maximumFractionDigits":21}"#, runtime),
        (
            "\"en\"",
            r#"{"minimumFractionDigits":3,"maximumFractionDigits":2}"#,
            runtime,
        ),
        ("\"en\"", r#"{"minimumIntegerDigits":0}"#, runtime),
        ("\"en\"", r#"{"minimumIntegerDigits":"abc"}"#, runtime),
        ("\"en\"", r#"{"maximumSignificantDigits":22}"#, runtime),
        (
            "\"en\"",
            r#"{"minimumSignificantDigits":3,"maximumSignificantDigits":2}"#,
            runtime,
        ),
        ("\"en\"", r#"{"roundingIncrement":3}"#, runtime),
        (
            "\"en\"",
            r#"{"roundingIncrement":5,"maximumFractionDigits":2}"#,
            runtime,
        ),
        (
            "\"en\"",
            r#"{"roundingIncrement":5,"maximumSignificantDigits":2}"#,
            runtime,
        ),
        ("\"en\"", r#"{"useGrouping":"sometimes"}"#, runtime),
        ("\"en\"", r#"{"useGrouping":1}"#, runtime),
        ("\"en\"", r#"{"numberingSystem":"ab"}"#, runtime),
        ("\"en\"", r#"{"localeMatcher":"best"}"#, runtime),
        ("\"en\"", r#"{"roundingMode":"up"}"#, runtime),
        ("\"en\"", r#"{"compactDisplay":"tiny"}"#, runtime),
        ("\"en\"", r#"{"numberingSystem":"arab"}"#, guardrail),
        ("\"bm\"", "", guardrail),
        ("\"en-US-POSIX\"", "", guardrail),
        ("\"gl\"", "", guardrail),
    ];
    for &(locales, options, want) in cases {
        assert_eq!(
            reason(format(1.5, locales, options)),
            want,
            "locales {locales}, options {options}"
        );
    }
    // What Intl accepts is accepted.
    for options in [
        r#"{"useGrouping":"true"}"#,
        r#"{"useGrouping":0}"#,
        r#"{"minimumIntegerDigits":"3"}"#,
        r#"{"currency":"usd"}"#,
    ] {
        assert!(format(1.5, "\"en\"", options).is_ok(), "{options}");
    }
    assert_eq!(
        format(1.0, "\"en\"", r#"{"minimumIntegerDigits":"3"}"#).as_deref(),
        Ok("001")
    );
}

/// Messages name the fix.
#[test]
fn messages_say_what_to_write() {
    let error = format(1.0, "\"en\"", r#"{"style":"currency"}"#)
        .err()
        .map(|e| e.message().to_owned())
        .unwrap_or_default();
    assert!(error.contains("currency: \"EUR\""), "{error}");
    let error = format(1.0, "\"en_US\"", "")
        .err()
        .map(|e| e.message().to_owned())
        .unwrap_or_default();
    assert!(
        error.contains("Incorrect locale information provided") && error.contains("en-US"),
        "{error}"
    );
}

/// `items.toLocaleString(locales, options)` with JSON arguments.
fn array(json: &str, locales: &str, options: &str) -> Result<String> {
    let Value::Array(items) = arg(json) else {
        return Ok("not an array".to_owned());
    };
    run(|cx| array_to_locale_string(cx, &items, &arg(locales), &arg(options))).map(|s| s.to_string_lossy().into_owned())
}

/// An array formats its items with its arguments, read only for a number.
#[test]
fn arrays_format_each_item_with_the_same_arguments() {
    assert_eq!(
        array(r#"[[1234.5, "a"], null, true, {}, [2, [3000, null]]]"#, "\"de\"", "").as_deref(),
        Ok("1.234,5,a,,true,[object Object],2,3.000,")
    );
    assert_eq!(
        array("[1, 2.5]", "\"fr-FR\"", r#"{"style":"currency","currency":"EUR"}"#).as_deref(),
        Ok("1,00\u{a0}€,2,50\u{a0}€")
    );
    assert_eq!(array("[]", "null", "").as_deref(), Ok(""));
    // As in JavaScript, the arguments are read only when a number is formatted.
    assert_eq!(array(r#"["a", null]"#, "null", "null").as_deref(), Ok("a,"));
    assert_eq!(reason(array("[1]", "null", "")), Some(Reason::ExpressionRuntime));
    assert_eq!(
        reason(array("[1]", "\"en\"", r#"{"style":"currency"}"#)),
        Some(Reason::ExpressionRuntime)
    );
    // Arguments JavaScript reads and writ never does are refused even without a number.
    assert_eq!(reason(array(r#"["a"]"#, "5", "")), Some(Reason::GuardrailViolation));
    assert_eq!(
        reason(array(r#"["a"]"#, "\"en\"", "7")),
        Some(Reason::GuardrailViolation)
    );
}

/// Nesting as deep as the data goes does not exhaust the stack.
#[test]
fn deeply_nested_arrays_do_not_recurse() {
    let mut value = Value::Number(1.0);
    for _ in 0..100_000 {
        value = Value::Array(Array::from(vec![value]));
    }
    let Value::Array(items) = value else { return };
    let got = run(|cx| array_to_locale_string(cx, &items, &Value::Undefined, &Value::Undefined));
    assert_eq!(got.map(|s| s.to_string_lossy().into_owned()).as_deref(), Ok("1"));
}

/// Node 20's case mappings.
const CASES: &[(&str, &str, bool, &str)] = &[
    ("istanbul", "tr", true, "İSTANBUL"),
    ("İSTANBUL", "tr", false, "istanbul"),
    ("Iıİi", "az", false, "ııii"),
    ("Iıİi", "en", false, "iıi\u{307}i"),
    ("Iıİi", "en", true, "IIİI"),
    ("ΌΣΟΣ", "el", false, "όσος"),
    ("άδεια", "el", true, "ΑΔΕΙΑ"),
    ("άδεια", "en", true, "ΆΔΕΙΑ"),
    ("i\u{307}", "lt", true, "I"),
    ("I\u{300}", "lt", false, "i\u{307}\u{300}"),
    ("Straße", "de", true, "STRASSE"),
    ("ΑΣ ΣΑ", "en", false, "ας σα"),
    ("ǆ", "en", true, "Ǆ"),
    ("ﬀ", "tr", true, "FF"),
    ("i", "TR", true, "İ"),
    ("ɷ", "en", true, "ɷ"),
];

/// The case mapping of `text`, as UTF-16.
fn case(text: &Str, locales: &Value, upper: bool) -> Result<Vec<u16>> {
    run(|cx| to_locale_case(cx, text, locales, upper)).map(|s| s.to_utf16())
}

/// Case mappings, with the first locale's language only.
#[test]
fn maps_case_as_v8_does() {
    for &(text, locale, upper, want) in CASES {
        let got = case(&Str::from(text), &Value::String(Str::from(locale)), upper);
        assert_eq!(
            got,
            Ok(want.encode_utf16().collect()),
            "{text} in {locale}, upper {upper}"
        );
    }
    // Only the first locale counts; none is en-US.
    let i = Str::from("i");
    assert_eq!(case(&i, &arg(r#"["en", "tr"]"#), true), Ok(vec![u16::from(b'I')]));
    assert_eq!(case(&i, &arg(r#"["tr", "en"]"#), true), Ok(vec![0x130]));
    assert_eq!(case(&i, &arg("[]"), true), Ok(vec![u16::from(b'I')]));
    assert_eq!(reason(case(&i, &Value::Null, true)), Some(Reason::ExpressionRuntime));
    assert_eq!(
        reason(case(&i, &arg("\"en_US\""), true)),
        Some(Reason::ExpressionRuntime)
    );
    assert_eq!(reason(case(&i, &arg("5"), true)), Some(Reason::GuardrailViolation));
}

/// Lone surrogates are copied and end the context, as in V8.
#[test]
fn lone_surrogates_keep_their_place_and_end_the_casing_context() {
    // "ΑΣ\uD800" lowercases to "ας\uD800": the sigma ends a word; "\uD800ΑΣ" likewise.
    let text = Str::from_utf16(&[0x391, 0x3A3, 0xD800]);
    assert_eq!(case(&text, &Value::Undefined, false), Ok(vec![0x3B1, 0x3C2, 0xD800]));
    let text = Str::from_utf16(&[0xD800, 0x391, 0x3A3]);
    assert_eq!(case(&text, &arg("\"tr\""), false), Ok(vec![0xD800, 0x3B1, 0x3C2]));
    let text = Str::from_utf16(&[0x61, 0xDC00, 0x62]);
    assert_eq!(case(&text, &Value::Undefined, true), Ok(vec![0x41, 0xDC00, 0x42]));
}

/// Node 20's comparisons.
const COMPARE: &[(&str, &str, &str, &str, f64)] = &[
    ("a", "b", r#""#, r#""#, -1.0),
    ("a", "A", r#""#, r#""#, -1.0),
    ("a", "A", r#""en""#, r#"{"caseFirst":"upper"}"#, 1.0),
    ("a", "á", r#""en""#, r#"{"sensitivity":"base"}"#, 0.0),
    ("a", "á", r#""en""#, r#"{"sensitivity":"accent"}"#, -1.0),
    ("a", "A", r#""en""#, r#"{"sensitivity":"case"}"#, -1.0),
    ("a", "á", r#""en""#, r#"{"sensitivity":"case"}"#, 0.0),
    ("10", "9", r#""en""#, r#"{"numeric":true}"#, 1.0),
    ("10", "9", r#""en-u-kn""#, r#""#, 1.0),
    ("a-b", "ab", r#""en""#, r#"{"ignorePunctuation":true}"#, 0.0),
    ("a b", "ab", r#""th""#, r#""#, 0.0),
    ("ä", "ae", r#""de-u-co-phonebk""#, r#""#, 1.0),
    ("ä", "ae", r#""de""#, r#"{"collation":"phonebk"}"#, 1.0),
    ("ä", "z", r#""sv""#, r#""#, 1.0),
    ("ä", "z", r#""de""#, r#""#, -1.0),
    ("ch", "cz", r#""cs""#, r#""#, 1.0),
    ("ch", "d", r#""es""#, r#"{"collation":"trad"}"#, -1.0),
    ("ı", "i", r#""tr""#, r#""#, -1.0),
    ("côte", "coté", r#""fr-CA""#, r#""#, -1.0),
    ("côte", "coté", r#""fr""#, r#""#, 1.0),
    ("a", "b", r#"["xx","sv"]"#, r#""#, -1.0),
    ("я", "z", r#""sr-ME""#, r#""#, -1.0),
    ("я", "z", r#""sr-Latn""#, r#""#, 1.0),
    ("アイ", "あい", r#""ja""#, r#""#, 0.0),
    ("Å", "A\u{30a}", r#""#, r#""#, 0.0),
    ("a\u{0}", "a", r#""#, r#""#, 0.0),
];

/// `a.localeCompare(b, locales, options)` with JSON arguments.
fn compare_with(a: &str, b: &str, locales: &str, options: &str) -> Result<f64> {
    run(|cx| compare(cx, &Str::from(a), &Str::from(b), &arg(locales), &arg(options)))
}

/// Long text maps in pieces split at spaces, with the same result as whole.
#[test]
fn long_text_maps_in_pieces() {
    let text = Str::from("ΑΣ İI ".repeat(4000).as_str());
    let want: Vec<u16> = "ας iı ".repeat(4000).encode_utf16().collect();
    assert_eq!(case(&text, &arg("\"tr\""), false), Ok(want));
    let want: Vec<u16> = "ας i\u{307}i ".repeat(4000).encode_utf16().collect();
    assert_eq!(case(&text, &Value::Undefined, false), Ok(want));
}

/// Comparisons with sensitivities, numeric, caseFirst, punctuation and tailorings.
#[test]
fn compares_as_v8_does() {
    for &(a, b, locales, options, want) in COMPARE {
        assert_eq!(
            compare_with(a, b, locales, options),
            Ok(want),
            "{a} vs {b} in {locales} with {options}"
        );
    }
}

/// Collator arguments: runtime errors, guardrails and accepted values.
#[test]
fn comparison_arguments_are_classified() {
    let runtime = Some(Reason::ExpressionRuntime);
    let guardrail = Some(Reason::GuardrailViolation);
    let cases: &[(&str, &str, Option<Reason>)] = &[
        ("null", "", runtime),
        ("\"en\"", "null", runtime),
        ("\"en\"", r#"{"sensitivity":"some"}"#, runtime),
        ("\"en\"", r#"{"caseFirst":"first"}"#, runtime),
        ("\"en\"", r#"{"collation":"x"}"#, runtime),
        ("\"en\"", r#"{"usage":"find"}"#, runtime),
        ("\"en\"", r#"{"usage":"search"}"#, guardrail),
        ("\"en\"", "5", guardrail),
        ("\"ko\"", r#"{"collation":"searchjl"}"#, guardrail),
        ("\"kl\"", "", guardrail),
        ("\"en-US-POSIX\"", "", guardrail),
        ("\"en\"", r#"{"numeric":"yes"}"#, None),
        ("\"en\"", r#"{"collation":"standard"}"#, None),
    ];
    for &(locales, options, want) in cases {
        assert_eq!(
            reason(compare_with("a", "b", locales, options)),
            want,
            "{locales} {options}"
        );
    }
}

/// Comparisons ICU4X would answer differently are refused.
#[test]
fn refuses_comparisons_writ_would_answer_differently() {
    // A lone surrogate: ICU4X reads U+FFFD, node an unassigned code point.
    let lone = Str::from_utf16(&[0x61, 0xD800]);
    let result = run(|cx| compare(cx, &lone, &Str::from("a\u{FFFD}"), &Value::Undefined, &Value::Undefined));
    assert_eq!(reason(result), Some(Reason::GuardrailViolation));
    // Two Han characters decide it: node orders them by radical and stroke.
    assert_eq!(
        reason(compare_with("\u{4E00}", "\u{3400}", "", "")),
        Some(Reason::GuardrailViolation)
    );
    assert_eq!(
        reason(compare_with("x\u{4E00}", "X\u{3400}", "", "")),
        Some(Reason::GuardrailViolation)
    );
    // Han characters that do not decide it are fine.
    assert_eq!(compare_with("a\u{4E00}", "b\u{3400}", "", ""), Ok(-1.0));
    assert_eq!(compare_with("\u{4E00}x", "\u{4E00}y", "", ""), Ok(-1.0));
    assert_eq!(compare_with("\u{4E00}", "\u{4E00}", "", ""), Ok(0.0));
    assert_eq!(compare_with("a", "\u{4E00}", "", ""), Ok(-1.0));
}

/// The combining-mark rule comes first.
#[test]
fn long_runs_of_combining_marks_are_refused_before_anything_else() {
    let marks = format!("e{}", "\u{301}".repeat(31));
    assert_eq!(
        reason(compare_with(&marks, "e", "null", "")),
        Some(Reason::BudgetExceeded)
    );
}

/// A locale list costs the square of its length.
#[test]
fn locale_lists_cost_the_square_of_their_length() {
    let tags: Vec<Value> = (0..300).map(|_| Value::String(Str::from("en"))).collect();
    let locales = Value::Array(Array::from(tags));
    let (result, steps) = run_under(&limits(), |cx| requested_locales(cx, &locales));
    assert_eq!(result.map(|list| list.len()), Ok(1));
    assert!(steps >= 90_000, "{steps}");
    let tight = Limits {
        steps: Some(50_000),
        ..limits()
    };
    let (result, _) = run_under(&tight, |cx| requested_locales(cx, &locales));
    assert_eq!(reason(result), Some(Reason::BudgetExceeded));
}

/// Results are checked against the string cap before they are built.
#[test]
fn results_are_charged_against_the_string_cap() {
    let small = Limits {
        max_string_length: Some(10),
        ..limits()
    };
    let (result, _) = run_under(&small, |cx| {
        number_to_locale_string(cx, 1e21, &Value::Undefined, &Value::Undefined)
    });
    assert_eq!(reason(result), Some(Reason::BudgetExceeded));
    let (result, _) = run_under(&small, |cx| {
        number_to_locale_string(cx, 12.5, &Value::Undefined, &Value::Undefined)
    });
    assert!(result.is_ok());
    let long = Str::from("ß".repeat(8));
    let (result, _) = run_under(&small, |cx| to_locale_case(cx, &long, &Value::Undefined, true));
    assert_eq!(reason(result), Some(Reason::BudgetExceeded));
    let items = Array::from(vec![
        Value::String(Str::from("abcdef")),
        Value::String(Str::from("ghijk")),
    ]);
    let (result, _) = run_under(&small, |cx| {
        array_to_locale_string(cx, &items, &Value::Undefined, &Value::Undefined)
    });
    assert_eq!(reason(result), Some(Reason::BudgetExceeded));
}

/// Reading text is charged.
#[test]
fn reading_text_is_charged() {
    let long = Str::from("a".repeat(16_000));
    let (_, steps) = run_under(&limits(), |cx| {
        compare(cx, &long, &long, &Value::Undefined, &Value::Undefined)
    });
    assert!(steps >= 2_000, "{steps}");
    let (_, steps) = run_under(&limits(), |cx| to_locale_case(cx, &long, &Value::Undefined, true));
    assert!(steps >= 1_000, "{steps}");
}
