//! The reason loop over a scripted model: what it accepts, how it corrects, when it gives up.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use writ_model::{Answer, BoxFuture, Model, ModelError, ModelErrorKind, Role, ScriptedModel, Turn, reason};

fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["title", "pages"],
        "properties": {"title": {"type": "string"}, "pages": {"type": "integer", "minimum": 1}},
        "additionalProperties": false,
    })
}

#[tokio::test]
async fn a_valid_first_answer_is_taken_in_one_attempt() {
    let model = ScriptedModel::new(vec![json!({"title": "Q3", "pages": 12})]);
    let reasoned = reason(&model, "Summarise the report.", &schema(), 3).await.unwrap();
    assert_eq!(reasoned.value, json!({"title": "Q3", "pages": 12}));
    assert_eq!(reasoned.attempts, 1);

    let turns = model.turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].output_schema, Some(schema()));
    let roles: Vec<Role> = turns[0].messages.iter().map(|message| message.role).collect();
    assert_eq!(roles, [Role::System, Role::User]);
    assert_eq!(turns[0].messages[1].content, "Summarise the report.");
}

#[tokio::test]
async fn a_schema_failure_is_corrected_by_naming_each_problem() {
    let model = ScriptedModel::new(vec![
        json!({"title": 3, "pages": 0}),
        json!({"title": "Q3", "pages": 12}),
    ]);
    let reasoned = reason(&model, "Summarise the report.", &schema(), 3).await.unwrap();
    assert_eq!(reasoned.value, json!({"title": "Q3", "pages": 12}));
    assert_eq!(reasoned.attempts, 2);

    let turns = model.turns();
    assert_eq!(turns.len(), 2);
    let second = &turns[1].messages;
    let roles: Vec<Role> = second.iter().map(|message| message.role).collect();
    assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::User]);
    // The model sees what it answered, then what was wrong with it, each problem located.
    assert_eq!(
        serde_json::from_str::<Value>(&second[2].content).unwrap(),
        json!({"title": 3, "pages": 0})
    );
    let corrective = &second[3].content;
    assert!(
        corrective.contains("does not satisfy the required JSON Schema"),
        "{corrective}"
    );
    assert!(
        corrective.contains("at /title: 3 is not of type \"string\""),
        "{corrective}"
    );
    assert!(
        corrective.contains("at /pages: 0 is less than the minimum of 1"),
        "{corrective}"
    );
}

#[tokio::test]
async fn a_missing_property_is_named_at_the_root() {
    let model = ScriptedModel::new(vec![json!({"title": "Q3"}), json!({"title": "Q3", "pages": 1})]);
    reason(&model, "p", &schema(), 2).await.unwrap();
    let corrective = &model.turns()[1].messages[3].content;
    assert!(
        corrective.contains("at the root: \"pages\" is a required property"),
        "{corrective}"
    );
}

#[tokio::test]
async fn a_text_answer_is_corrected_as_no_structured_answer() {
    let model = ScriptedModel::new(vec![
        json!("The report has 12 pages."),
        json!({"title": "Q3", "pages": 12}),
    ]);
    let reasoned = reason(&model, "p", &schema(), 2).await.unwrap();
    assert_eq!(reasoned.attempts, 2);
    let second = &model.turns()[1].messages;
    assert_eq!(second[2].role, Role::Assistant);
    assert_eq!(second[2].content, "The report has 12 pages.");
    assert!(
        second[3]
            .content
            .contains("plain text, but a structured answer is required"),
        "{}",
        second[3].content
    );
}

#[tokio::test]
async fn every_attempt_failing_is_reasoning_failed_naming_the_attempts_and_the_last_problem() {
    let model = ScriptedModel::new(vec![
        json!("no"),
        json!({"title": "Q3"}),
        json!({"pages": 2, "title": "x", "extra": 1}),
    ]);
    let error = reason(&model, "p", &schema(), 3).await.unwrap_err();
    assert_eq!(error.code(), "reasoning_failed");
    assert_eq!(error.kind(), ModelErrorKind::ReasoningFailed);
    assert!(error.message().contains("after 3 attempts"), "{error}");
    assert!(error.message().contains("did not satisfy the output schema"), "{error}");
    assert!(error.message().contains("'extra' was unexpected"), "{error}");
    // Exactly max_attempts requests, and no correction after the last.
    let turns = model.turns();
    assert_eq!(turns.len(), 3);
    assert_eq!(turns[2].messages.len(), 6);
}

#[tokio::test]
async fn one_attempt_of_text_fails_saying_so() {
    let model = ScriptedModel::new(vec![json!("prose"), json!({"title": "Q3", "pages": 1})]);
    let error = reason(&model, "p", &schema(), 1).await.unwrap_err();
    assert_eq!(error.code(), "reasoning_failed");
    assert!(error.message().contains("after 1 attempt:"), "{error}");
    assert!(
        error.message().contains("was plain text, not a structured answer"),
        "{error}"
    );
    assert_eq!(model.turns().len(), 1);
}

#[tokio::test]
async fn a_scripted_model_running_out_ends_the_loop_with_its_own_error() {
    let model = ScriptedModel::new(vec![json!({"title": "Q3"})]);
    let error = reason(&model, "p", &schema(), 5).await.unwrap_err();
    assert_eq!(error.code(), "model_exhausted");
    assert!(error.message().contains("all 1 of its answers"), "{error}");
    assert_eq!(model.turns().len(), 2);
}

#[tokio::test]
async fn zero_attempts_and_an_invalid_schema_are_refused_before_asking() {
    let model = ScriptedModel::new(vec![json!({"title": "Q3", "pages": 1})]);
    let error = reason(&model, "p", &schema(), 0).await.unwrap_err();
    assert_eq!(error.code(), "max_attempts_invalid");
    let error = reason(&model, "p", &json!({"type": "nonsense"}), 3).await.unwrap_err();
    assert_eq!(error.code(), "output_schema_invalid");
    assert!(error.message().contains("nonsense"), "{error}");
    assert!(model.turns().is_empty());
}

/// A model whose first answer is unreadable JSON, as a chat-completions server reports it; then
/// the scripted model answers.
struct Unreadable {
    first: AtomicBool,
    then: ScriptedModel,
}

impl Model for Unreadable {
    fn answer(&self, turn: Turn) -> BoxFuture<'_, Result<Answer, ModelError>> {
        if self.first.swap(false, Ordering::SeqCst) {
            return Box::pin(std::future::ready(Err(ModelError::new(
                ModelErrorKind::AnswerNotJson,
                "the model's answer is not JSON: trailing comma at line 1 column 12",
            ))));
        }
        self.then.answer(turn)
    }
}

#[tokio::test]
async fn an_answer_that_is_not_json_is_corrected_and_any_other_model_error_is_returned() {
    let model = Unreadable {
        first: AtomicBool::new(true),
        then: ScriptedModel::new(vec![json!({"title": "Q3", "pages": 1})]),
    };
    let reasoned = reason(&model, "p", &schema(), 2).await.unwrap();
    assert_eq!(reasoned.attempts, 2);
    let second = &model.then.turns()[0].messages;
    assert_eq!(second.len(), 3);
    assert_eq!(second[2].role, Role::User);
    assert!(
        second[2].content.contains("trailing comma at line 1 column 12"),
        "{}",
        second[2].content
    );

    struct Down;
    impl Model for Down {
        fn answer(&self, _turn: Turn) -> BoxFuture<'_, Result<Answer, ModelError>> {
            Box::pin(std::future::ready(Err(ModelError::new(
                ModelErrorKind::Unavailable,
                "down",
            ))))
        }
    }
    let error = reason(&Down, "p", &schema(), 5).await.unwrap_err();
    assert_eq!(error.code(), "model_unavailable");
}

#[tokio::test]
async fn a_huge_wrong_answer_is_quoted_bounded() {
    let huge = "x".repeat(1_000_000);
    let model = ScriptedModel::new(vec![
        json!({"title": huge, "pages": "many"}),
        json!({"title": "t", "pages": 1}),
    ]);
    reason(&model, "p", &schema(), 2).await.unwrap();
    let second = &model.turns()[1].messages;
    assert!(
        second[2].content.len() < 10_000,
        "echo of {} bytes",
        second[2].content.len()
    );
    assert!(
        second[3].content.len() < 10_000,
        "corrective of {} bytes",
        second[3].content.len()
    );
    assert!(
        second[3]
            .content
            .contains("at /pages: \"many\" is not of type \"integer\""),
        "{}",
        second[3].content
    );
}

#[test]
fn reasoning_can_move_between_threads() {
    // A run spawns reasoning on its runtime's worker threads, so the future must be `Send`; this
    // fails to compile if it is not.
    fn assert_send<T: Send>(_: &T) {}
    let model = ScriptedModel::new(Vec::new());
    let schema = schema();
    let future = reason(&model, "p", &schema, 1);
    assert_send(&future);
}
