//! What each error code says: writ's own words for every JSONata code (and writ's U-codes),
//! naming the token, value or argument the error carries and, where there is one, what to write
//! instead. The position is not part of the message: [`crate::Error`]'s `Display` adds it.

use crate::error::{Code, Details};

/// The message for `error`.
///
/// A detail the error carries is the whole message (what `$error()` and `$assert()` were given,
/// and the exact texts the suite pins for D3140); otherwise the code's own message.
pub(crate) fn describe(error: &Details) -> String {
    if let Some(detail) = &error.detail {
        return detail.clone();
    }
    known(error).unwrap_or_else(|| {
        let mut message = format!("error {}", error.code);
        if let Some(token) = &error.token {
            message.push_str(&format!(" at {}", quote(token)));
        }
        if let Some(value) = &error.value {
            message.push_str(&format!(" about {value}"));
        }
        message
    })
}

/// A token as a message shows it: in single quotes.
fn quote(token: &str) -> String {
    format!("'{token}'")
}

/// The error's token quoted, or `fallback` when it has none.
fn token_or(error: &Details, fallback: &str) -> String {
    error.token.as_deref().map_or_else(|| fallback.to_owned(), quote)
}

/// A function's name as written in an expression, from the token the error carries (jsonata
/// keeps it without the `$`).
fn function(error: &Details, fallback: &str) -> String {
    match error.token.as_deref() {
        Some(name) if name.starts_with('$') => format!("{name}()"),
        Some(name) => format!("${name}()"),
        None => fallback.to_owned(),
    }
}

/// `", found VALUE"` when the error carries a value, else nothing.
fn found(error: &Details) -> String {
    error
        .value
        .as_deref()
        .map(|value| format!(", found {value}"))
        .unwrap_or_default()
}

/// `" VALUE"` when the error carries a value, else nothing.
fn spaced(error: &Details) -> String {
    error
        .value
        .as_deref()
        .map(|value| format!(" {value}"))
        .unwrap_or_default()
}

/// The error's value, or `fallback` when it has none.
fn value_or<'a>(error: &'a Details, fallback: &'a str) -> &'a str {
    error.value.as_deref().unwrap_or(fallback)
}

/// `" of LIMIT"` when the error carries the limit it crossed, else nothing.
fn limit(error: &Details) -> String {
    error
        .value
        .as_deref()
        .map(|value| format!(" of {value}"))
        .unwrap_or_default()
}

/// The argument an error is about: "argument N" or "an argument".
fn argument(error: &Details) -> String {
    error
        .index
        .map_or_else(|| "an argument".to_owned(), |index| format!("argument {index}"))
}

/// True for a plain name (`price`, `_x1`): one that becomes a variable by prefixing `$`.
fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The message of a code writ knows, or `None` for any other code.
fn known(error: &Details) -> Option<String> {
    let message = match error.code {
        // Syntax: the expression cannot be read.
        Code::S0101 => "a string literal is not closed: end it with the quote that opened it".to_owned(),
        Code::S0102 => format!("the number {} is too large to represent: write a smaller number", token_or(error, "here")),
        Code::S0103 => format!(
            "{} is not an escape a string literal may use: write one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX",
            error.token.as_deref().map_or_else(|| "this".to_owned(), |token| quote(&format!("\\{token}")))
        ),
        Code::S0104 => "\\u in a string literal needs exactly four hex digits after it, as in \\u00e9".to_owned(),
        Code::S0105 => "a name quoted with a backquote (`) is not closed: end it with another backquote".to_owned(),
        Code::S0106 => "a comment is not closed: end it with */".to_owned(),
        Code::S0201 => format!(
            "the expression cannot be read at {}: look for a missing operator, bracket or quote near it",
            token_or(error, "this point")
        ),
        Code::S0202 => format!(
            "expected {} here but found {}",
            error.value.as_deref().map_or_else(|| "another token".to_owned(), quote),
            token_or(error, "something else")
        ),
        Code::S0203 => format!(
            "the expression ends where {} is still needed: add it",
            error.value.as_deref().map_or_else(|| "more".to_owned(), quote)
        ),
        Code::S0204 => format!("{} is not an operator JSONata knows", token_or(error, "this")),
        Code::S0205 => format!("{} cannot appear here: remove it, or add what should come before it", token_or(error, "this token")),
        Code::S0206 => format!("{} is not a kind of expression JSONata knows", token_or(error, "this")),
        Code::S0207 => "the expression ends too early: complete it".to_owned(),
        Code::S0208 => {
            let which = error.value.as_deref().map_or_else(|| "a parameter".to_owned(), |index| format!("parameter {index}"));
            match error.token.as_deref() {
                Some(name) if is_name(name) => format!(
                    "{which} of the function definition, '{name}', is not a variable: write it with a $, as ${name}, and use it as ${name} in the body"
                ),
                Some(token) => format!(
                    "{which} of the function definition, '{token}', is not a variable: each parameter is a name with a $, as in function($x, $y) {{ $x + $y }}"
                ),
                None => format!(
                    "{which} of the function definition is not a variable: each parameter is a name with a $, as in function($x, $y) {{ $x + $y }}"
                ),
            }
        }
        Code::S0209 => "a predicate [...] cannot follow a grouping {...} in the same step: put the predicate first".to_owned(),
        Code::S0210 => "a step may have only one grouping {...}: merge the groupings into one object".to_owned(),
        Code::S0211 => format!("{} cannot be used as a prefix (unary) operator", token_or(error, "this symbol")),
        Code::S0212 => "the left side of := must be a variable, as in $total := price * quantity".to_owned(),
        Code::S0213 => format!(
            "the literal {} cannot be a step of a path: to pick an item by position write a predicate such as [0]",
            value_or(error, "value")
        ),
        Code::S0214 => format!("the right side of {} must be a variable, as in Order@$o", token_or(error, "'@' or '#'")),
        Code::S0215 => "a context binding (@$name) must come before any predicate [...] on the same step".to_owned(),
        Code::S0216 => "a context binding (@$name) must come before the order-by clause ^(...) on the same step".to_owned(),
        Code::S0217 => format!(
            "the parent operator % cannot find a parent here: a {} expression has none",
            error.token.as_deref().unwrap_or("this kind of")
        ),
        Code::S0301 => "a regular expression cannot be empty: write a pattern between the slashes, as in /ab+/".to_owned(),
        Code::S0302 => "a regular expression is not closed: end it with /".to_owned(),
        Code::S0401 => format!(
            "type parameters <...> in a signature apply only to functions (f) and arrays (a), not to {}",
            value_or(error, "this type")
        ),
        Code::S0402 => "a choice group (...) in a signature cannot hold a parameterized type such as a<n>".to_owned(),
        Code::S0500 => "the expression has syntax errors, so it cannot be evaluated: fix them first".to_owned(),
        // Function signatures.
        Code::T0410 => format!(
            "{} of {} does not match the function's signature{}: check the types and the number of arguments",
            argument(error),
            function(error, "the function"),
            found(error)
        ),
        Code::T0411 => format!(
            "the context value cannot stand in for {} of {}{}: pass that argument explicitly",
            argument(error),
            function(error, "the function"),
            found(error)
        ),
        Code::T0412 => format!(
            "{} of {} must be an array whose items are all {}{}",
            argument(error),
            function(error, "the function"),
            error.value2.as_deref().unwrap_or("of the type its signature names"),
            found(error)
        ),
        // Evaluation.
        Code::D1001 => format!(
            "{} is out of range: a result was infinite or not a number",
            error.value.as_deref().map_or_else(|| "the result".to_owned(), |value| format!("the number {value}"))
        ),
        Code::D1002 => format!("cannot negate {}: unary minus applies only to numbers", value_or(error, "a value that is not a number")),
        Code::T1003 => format!(
            "an object key must be a string, but this key evaluates to {}: convert it with $string()",
            value_or(error, "something else")
        ),
        Code::D1004 => format!(
            "the regular expression {}can match an empty string, which would match forever: make it match at least one character",
            error.value.as_deref().map(|value| format!("{value} ")).unwrap_or_default()
        ),
        Code::T1005 => match error.token.as_deref() {
            Some(name) => format!(
                "'{name}' is not a function, so it cannot be called: did you mean ${name}()? Function names begin with $"
            ),
            None => "this is not a function, so it cannot be called".to_owned(),
        },
        Code::T1006 => "the value called is not a function: only functions can be followed by (...)".to_owned(),
        Code::T1007 => match error.token.as_deref() {
            Some(name) => format!(
                "'{name}' is not a function, so it cannot be partially applied: did you mean ${name}(?)? Function names begin with $"
            ),
            None => "this is not a function, so it cannot be partially applied".to_owned(),
        },
        Code::T1008 => format!(
            "{} is not a function, so it cannot be partially applied with ?",
            error.token.as_deref().map_or_else(|| "the value".to_owned(), |name| format!("${name}"))
        ),
        Code::D1009 => format!(
            "two entries of the object produce the same key{}: make the keys distinct, or group under one key expression",
            spaced(error)
        ),
        Code::T1010 => format!(
            "the matcher function given to {} must return an object with match, start, end and groups, or nothing",
            function(error, "the function")
        ),
        Code::D1011 => format!(
            "evaluation nested deeper than the depth limit{}: a recursive function probably never stops; make it end sooner, or tail-recursive",
            limit(error)
        ),
        Code::D1012 => format!(
            "evaluation reached the time limit{} (or was about to start work that would pass it): look for a loop or recursion that never ends, work over less data, or raise the timeout",
            error.value.as_deref().map(|value| format!(" of {value} ms")).unwrap_or_default()
        ),
        Code::D1013 => format!(
            "object keys starting with _jsonata_ are reserved: rename the key{}",
            spaced(error)
        ),
        Code::T2001 => format!(
            "the left side of {} must be a number{}",
            token_or(error, "the operator"),
            found(error)
        ),
        Code::T2002 => format!(
            "the right side of {} must be a number{}",
            token_or(error, "the operator"),
            found(error)
        ),
        Code::T2003 => format!("the left side of the range operator .. must be an integer{}", found(error)),
        Code::T2004 => format!("the right side of the range operator .. must be an integer{}", found(error)),
        Code::D2005 => "the left side of := must be a variable, as in $total := price * quantity".to_owned(),
        Code::T2006 => format!("the right side of ~> must be a function, as in $x ~> $uppercase(){}", found(error)),
        Code::T2007 => format!(
            "the order-by clause cannot compare {} with {}: the sort keys must be all numbers or all strings",
            value_or(error, "one key"),
            error.value2.as_deref().unwrap_or("another")
        ),
        Code::T2008 => format!("the expressions of an order-by clause must evaluate to numbers or strings{}", found(error)),
        Code::T2009 => format!(
            "the values {} and {} either side of {} must have the same type: convert one with $number() or $string()",
            value_or(error, "on one side"),
            error.value2.as_deref().unwrap_or("on the other"),
            token_or(error, "the operator")
        ),
        Code::T2010 => format!(
            "the values either side of {} must be numbers or strings{}",
            token_or(error, "the operator"),
            found(error)
        ),
        Code::T2011 => format!("the update clause of a transform must evaluate to an object{}", found(error)),
        Code::T2012 => format!(
            "the delete clause of a transform must evaluate to a string or an array of strings{}",
            found(error)
        ),
        Code::T2013 => "a transform copies its input with $clone(), but $clone is bound to something else here: rename that variable".to_owned(),
        Code::D2014 => format!(
            "a range may hold at most 10,000,000 items, but this one would hold {}: narrow the range",
            value_or(error, "more")
        ),
        Code::D2015 => format!(
            "a sequence grew past the sequence limit{}: filter earlier, or raise the limit",
            error.value.as_deref().map(|value| format!(" of {value} items")).unwrap_or_default()
        ),
        // Built-in functions.
        Code::D3001 => format!(
            "a string function cannot be applied to {}: only finite numbers can be written as strings",
            value_or(error, "Infinity or NaN")
        ),
        Code::D3010 => "the pattern (argument 2) of $replace() cannot be an empty string".to_owned(),
        Code::D3011 => "the limit (argument 4) of $replace() cannot be negative".to_owned(),
        Code::D3012 => format!("the replacement function of $replace() must return a string{}", found(error)),
        Code::D3020 => "the limit (argument 3) of $split() cannot be negative".to_owned(),
        Code::D3030 => format!("{} cannot be converted to a number", value_or(error, "the value")),
        Code::D3040 => "the limit (argument 3) of $match() cannot be negative".to_owned(),
        Code::D3050 => "the function given to $reduce() must take at least two parameters: the running total and the next item".to_owned(),
        Code::D3060 => format!("$sqrt() cannot take the square root of the negative number {}", value_or(error, "given")),
        Code::D3061 => format!(
            "$power({}, {}) is not a finite number, so JSON cannot hold it",
            value_or(error, "base"),
            error.value2.as_deref().unwrap_or("exponent")
        ),
        Code::D3070 => "$sort() without a comparison function sorts only arrays of all strings or all numbers: pass a function as argument 2, as in $sort(xs, function($a, $b) { $a.k > $b.k })".to_owned(),
        Code::D3080 => "a picture string may hold at most two sub-pictures, separated by ';'".to_owned(),
        Code::D3081 => "a sub-picture may hold the decimal separator at most once".to_owned(),
        Code::D3082 => "a sub-picture may hold the percent sign at most once".to_owned(),
        Code::D3083 => "a sub-picture may hold the per-mille sign at most once".to_owned(),
        Code::D3084 => "a sub-picture cannot hold both a percent and a per-mille sign".to_owned(),
        Code::D3085 => "the mantissa of a sub-picture needs at least one digit: an optional digit (#) or a decimal digit".to_owned(),
        Code::D3086 => "a sub-picture cannot hold a passive character between two active ones".to_owned(),
        Code::D3087 => "a grouping separator cannot stand next to the decimal separator in a sub-picture".to_owned(),
        Code::D3088 => "the integer part of a sub-picture cannot end with a grouping separator".to_owned(),
        Code::D3089 => "a sub-picture cannot hold two grouping separators side by side".to_owned(),
        Code::D3090 => "in the integer part of a sub-picture, an optional digit (#) cannot follow a decimal digit".to_owned(),
        Code::D3091 => "in the fractional part of a sub-picture, a decimal digit cannot follow an optional digit (#)".to_owned(),
        Code::D3092 => "a sub-picture with a percent or per-mille sign cannot also have an exponent separator".to_owned(),
        Code::D3093 => "the exponent of a sub-picture may hold only decimal digits".to_owned(),
        Code::D3100 => format!("the radix of $formatBase() must be from 2 to 36, not {}", value_or(error, "this")),
        Code::D3110 => format!(
            "$toMillis() needs an ISO 8601 timestamp such as \"2024-01-31T12:00:00Z\" (or a picture to read it with), not {}",
            value_or(error, "this")
        ),
        Code::D3120 => format!(
            "the expression given to $eval() cannot be read{}",
            error.value.as_deref().map(|value| format!(": {value}")).unwrap_or_default()
        ),
        Code::D3121 => format!(
            "evaluating the expression given to $eval() failed{}",
            error.value.as_deref().map(|value| format!(": {value}")).unwrap_or_default()
        ),
        Code::D3130 => format!(
            "an integer picture starting with {} is not supported: use decimal digits, a, A, i, I, w, W or Ww",
            value_or(error, "this character")
        ),
        Code::D3131 => "all digits of a decimal digit pattern must come from the same family of digits".to_owned(),
        Code::D3132 => format!(
            "{} is not a date/time component: use Y, M, D, d, F, W, w, X, x, H, h, P, m, s, f, Z, z, C or E",
            value_or(error, "this")
        ),
        Code::D3133 => format!(
            "the name modifier (n or N) applies only to months and days, not to {}",
            value_or(error, "this component")
        ),
        Code::D3134 => "a timezone written as an integer may have at most four digits".to_owned(),
        Code::D3135 => "a '[' in the date/time picture has no matching ']'".to_owned(),
        Code::D3136 => "the date/time picture lacks the components needed to read the timestamp (a date needs at least a year, month and day, or a year and day of year)".to_owned(),
        // These three carry their message in `detail`; without one, the texts jsonata-js uses.
        Code::D3137 => "$error() function evaluated".to_owned(),
        Code::D3138 => "$single() expected exactly one match but found more than one: narrow the predicate".to_owned(),
        Code::D3139 => "$single() expected exactly one match but found none".to_owned(),
        Code::D3140 => format!(
            "Malformed URL passed to {}{}",
            function(error, "a URL function"),
            error.value.as_deref().map(|value| format!(": {value}")).unwrap_or_default()
        ),
        Code::D3141 => "$assert() statement failed".to_owned(),
        // writ's own bounds.
        Code::U1001 => format!(
            "the expression or the data nests too deeply{}: flatten it, or split the work into steps",
            limit(error)
        ),
        Code::U1003 => "the evaluation was stopped by its host before it finished".to_owned(),
        Code::U1004 => format!(
            "the regular expression uses a feature writ does not support{}: rewrite it without that feature",
            error.token.as_deref().or(error.value.as_deref()).map(|feature| format!(" ({feature})")).unwrap_or_default()
        ),
        Code::U1006 => format!(
            "the evaluation used up its step limit{}: do less work per evaluation, or raise the limit",
            limit(error)
        ),
        Code::U1007 => format!(
            "the evaluation built a string or used more memory than its limit{} allows: build smaller values, or raise the limit",
            limit(error)
        ),
        Code::U1008 => format!(
            "the answer's JSON text is longer than {} bytes, the most an answer may take (a value that \
             holds the same array or object many times over is written out in full each time): return \
             less, such as a count, a sample or a summary",
            error.value.as_deref().unwrap_or("the limit")
        ),
        _ => return None,
    };
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn every_code_has_its_own_message_with_or_without_fields() {
        // S0303 always carries jsonata-js's own text as its detail.
        for &code in Code::ALL.iter().filter(|&&code| code != Code::S0303) {
            let bare = Error::new(code);
            let full = Error::new(code)
                .with_token("tok")
                .with_value("\"val\"")
                .with_value2("\"val2\"")
                .with_index(2);
            for error in [&bare, &full] {
                let message = known(error.details()).unwrap_or_else(|| panic!("{code} has no message"));
                assert!(
                    !message.is_empty() && !message.contains(code.as_str()),
                    "{code}: {message}"
                );
                assert!(
                    !message.contains("  ") && !message.ends_with(' '),
                    "{code}: {message:?}"
                );
            }
            // A message never leaves a field slot empty.
            let message = describe(bare.details());
            assert!(
                !message.contains("''") && !message.contains("()()"),
                "{code}: {message}"
            );
        }
    }

    #[test]
    fn messages_name_the_fields_they_are_given() {
        let error = Error::new(Code::T2001).with_token("+").with_value("\"abc\"");
        assert_eq!(
            describe(error.details()),
            "the left side of '+' must be a number, found \"abc\""
        );
        let error = Error::new(Code::T0410)
            .with_token("substring")
            .with_index(2)
            .with_value("true");
        assert_eq!(
            describe(error.details()),
            "argument 2 of $substring() does not match the function's signature, found true: check the types and \
             the number of arguments"
        );
        let error = Error::new(Code::T2009)
            .with_token("<")
            .with_value("1")
            .with_value2("\"a\"");
        assert!(
            describe(error.details()).starts_with("the values 1 and \"a\" either side of '<' must have the same type")
        );
        let error = Error::new(Code::T1005).with_token("sum");
        assert!(describe(error.details()).contains("did you mean $sum()?"));
        let error = Error::new(Code::D1012).with_value("50");
        assert!(describe(error.details()).contains("time limit of 50 ms"));
        let error = Error::new(Code::D2015).with_value("1000");
        assert!(describe(error.details()).contains("limit of 1000 items"));
        let error = Error::new(Code::U1006).with_value("100");
        assert!(describe(error.details()).contains("step limit of 100"));
        let error = Error::new(Code::S0208).with_value("1").with_token("x");
        assert!(
            describe(error.details()).starts_with(
                "parameter 1 of the function definition, 'x', is not a variable: write it with a $, as $x"
            )
        );
        let error = Error::new(Code::S0202).with_value(")").with_token("]");
        assert_eq!(describe(error.details()), "expected ')' here but found ']'");
        assert!(describe(Error::new(Code::S0208).details()).starts_with("a parameter of the function definition"));
        assert!(describe(Error::new(Code::D1001).details()).starts_with("the result is out of range"));
    }

    #[test]
    fn a_detail_is_the_whole_message() {
        assert_eq!(
            describe(Error::new(Code::D3137).with_detail("Too Expensive").details()),
            "Too Expensive"
        );
        assert_eq!(
            describe(Error::new(Code::D3141).with_detail("Too Expensive").details()),
            "Too Expensive"
        );
        assert_eq!(
            describe(Error::new(Code::T2001).with_token("+").with_detail("custom").details()),
            "custom"
        );
    }

    #[test]
    fn the_texts_the_suite_pins_hold_without_a_detail() {
        assert_eq!(
            describe(Error::new(Code::D3137).details()),
            "$error() function evaluated"
        );
        assert_eq!(
            describe(Error::new(Code::D3141).details()),
            "$assert() statement failed"
        );
        let error = Error::new(Code::D3140)
            .with_token("decodeUrl")
            .with_value("\"%E0%A4%A\"");
        assert_eq!(
            describe(error.details()),
            "Malformed URL passed to $decodeUrl(): \"%E0%A4%A\""
        );
    }

    #[test]
    fn a_code_without_a_message_still_says_what_it_carries() {
        let error = Error::new(Code::S0303).with_token("foo").with_value("1");
        assert_eq!(describe(error.details()), "error S0303 at 'foo' about 1");
    }
}
