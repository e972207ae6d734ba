//! Model files and the environment: each kind read, each mistake refused with a clear error.

use serde_json::{Value, json};
use writ_model::{Answer, Message, Turn, model_from_env_with, model_from_file, model_from_file_with};

fn error_of(file: Value) -> writ_model::ModelError {
    model_from_file_with(&file, |_| None)
        .err()
        .expect("the file is refused")
}

fn text_turn() -> Turn {
    Turn {
        messages: vec![Message::user("hi")],
        output_schema: None,
    }
}

#[tokio::test]
async fn a_scripted_file_gives_its_answers_in_order() {
    let model = model_from_file(&json!({"kind": "scripted", "answers": ["first", {"n": 2}]})).unwrap();
    assert_eq!(model.answer(text_turn()).await.unwrap(), Answer::Text("first".into()));
    assert_eq!(
        model.answer(text_turn()).await.unwrap(),
        Answer::Structured(json!({"n": 2}))
    );
    assert_eq!(model.answer(text_turn()).await.unwrap_err().code(), "model_exhausted");
}

#[test]
fn an_openai_file_builds_a_model_with_every_field() {
    let file = json!({
        "kind": "openai",
        "baseUrl": "http://127.0.0.1:1/v1",
        "model": "local",
        "apiKeyEnv": "WRIT_TEST_KEY",
        "structuredOutput": "jsonSchema",
        "timeoutMs": 2500,
    });
    let lookup = |name: &str| (name == "WRIT_TEST_KEY").then(|| String::from("sk-1"));
    assert!(model_from_file_with(&file, lookup).is_ok());
    assert!(model_from_file(&json!({"kind": "openai", "baseUrl": "https://example.invalid/v1", "model": "m"})).is_ok());
}

#[test]
fn a_missing_key_variable_is_named() {
    let file = json!({"kind": "openai", "baseUrl": "http://127.0.0.1:1/v1", "model": "m", "apiKeyEnv": "WRIT_MODEL_TEST_KEY_THAT_IS_NEVER_SET"});
    let error = model_from_file(&file).err().unwrap();
    assert_eq!(error.code(), "model_key_missing");
    assert!(
        error
            .message()
            .contains("WRIT_MODEL_TEST_KEY_THAT_IS_NEVER_SET, which is not set"),
        "{error}"
    );
    let error = model_from_file_with(&file, |_| Some(String::new())).err().unwrap();
    assert_eq!(error.code(), "model_key_missing");
    assert!(error.message().contains("which is empty"), "{error}");
}

#[test]
fn an_unknown_kind_is_refused_with_the_closest_kind() {
    let error = error_of(json!({"kind": "openia", "baseUrl": "x", "model": "m"}));
    assert_eq!(error.code(), "model_file_invalid");
    assert!(
        error
            .message()
            .contains("kind \"openia\" is not known (did you mean \"openai\"?"),
        "{error}"
    );
    let error = error_of(json!({"kind": "anthropic"}));
    assert!(
        error.message().contains("the kinds are \"scripted\" and \"openai\""),
        "{error}"
    );
    assert!(!error.message().contains("did you mean"), "{error}");
}

#[test]
fn each_mistake_names_its_field() {
    let cases = [
        (json!([]), "a model file is a JSON object, found an array"),
        (json!({}), "has no \"kind\""),
        (json!({"kind": 1}), "\"kind\" is a string, found a number"),
        (json!({"kind": "scripted"}), "needs \"answers\""),
        (
            json!({"kind": "scripted", "answers": "yes"}),
            "\"answers\" is an array of answers, found a string",
        ),
        (json!({"kind": "openai", "model": "m"}), "needs \"baseUrl\""),
        (json!({"kind": "openai", "baseUrl": "http://h/v1"}), "needs \"model\""),
        (
            json!({"kind": "openai", "baseUrl": "http://h/v1", "model": ""}),
            "\"model\" is empty",
        ),
        (
            json!({"kind": "openai", "baseUrl": "http://h/v1", "model": 3}),
            "\"model\" is a string, found a number",
        ),
        (
            json!({"kind": "openai", "baseUrl": "localhost:8080", "model": "m"}),
            "is not an http or https URL",
        ),
        (
            json!({"kind": "openai", "baseUrl": "not a url", "model": "m"}),
            "is not a URL",
        ),
        (
            json!({"kind": "openai", "baseUrl": "http://h/v1", "model": "m", "structuredOutput": "tools"}),
            "\"structuredOutput\" is \"toolCall\" or \"jsonSchema\", found \"tools\"",
        ),
        (
            json!({"kind": "openai", "baseUrl": "http://h/v1", "model": "m", "timeoutMs": 0}),
            "\"timeoutMs\" is a whole number of milliseconds from 1 to 3600000, found 0",
        ),
        (
            json!({"kind": "openai", "baseUrl": "http://h/v1", "model": "m", "timeoutMs": 1.5}),
            "found 1.5",
        ),
        (
            json!({"kind": "openai", "baseURL": "http://h/v1", "model": "m"}),
            "a field \"baseURL\" that the openai kind does not have (did you mean \"baseUrl\"?",
        ),
        (
            json!({"kind": "scripted", "answers": [], "baseUrl": "http://h"}),
            "a field \"baseUrl\" that the scripted kind does not have (its fields are kind, answers)",
        ),
    ];
    for (file, expected) in cases {
        let error = error_of(file.clone());
        assert_eq!(error.code(), "model_file_invalid", "{file}");
        assert!(error.message().contains(expected), "{file}: {error}");
    }
}

#[test]
fn the_environment_names_the_model() {
    let error = model_from_env_with(|_| None).err().unwrap();
    assert_eq!(error.code(), "model_unconfigured");
    assert!(error.message().contains("OPENAI_MODEL"), "{error}");

    let env = |name: &str| match name {
        "OPENAI_MODEL" => Some(String::from("gpt-test")),
        "OPENAI_BASE_URL" => Some(String::from("ftp://h/v1")),
        _ => None,
    };
    let error = model_from_env_with(env).err().unwrap();
    assert_eq!(error.code(), "model_unconfigured");
    assert!(
        error
            .message()
            .starts_with("OPENAI_BASE_URL \"ftp://h/v1\" is not an http or https URL"),
        "{error}"
    );

    assert!(model_from_env_with(|name| (name == "OPENAI_MODEL").then(|| String::from("gpt-test"))).is_ok());
}
