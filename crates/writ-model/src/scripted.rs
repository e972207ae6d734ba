//! A model that gives fixed answers in order, for tests and examples.

use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use crate::{Answer, BoxFuture, Model, ModelError, ModelErrorKind, Turn};

/// A model that gives its answers in order: a JSON string is a text answer, any other JSON value a
/// structured answer. Past the last answer it fails with `model_exhausted`.
///
/// It records every turn it receives, answered or not, so tests can check what a model was asked
/// ([`turns`](ScriptedModel::turns)). Concurrent callers take the answers in the order their
/// requests arrive.
///
/// # Example
///
/// ```
/// use serde_json::json;
/// use writ_model::{Answer, Message, Model, ScriptedModel, Turn};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let model = ScriptedModel::new(vec![json!("hello"), json!({"n": 1})]);
/// let turn = Turn { messages: vec![Message::user("hi")], output_schema: None };
/// assert_eq!(model.answer(turn.clone()).await.unwrap(), Answer::Text("hello".into()));
/// assert_eq!(model.answer(turn.clone()).await.unwrap(), Answer::Structured(json!({"n": 1})));
/// assert_eq!(model.answer(turn).await.unwrap_err().code(), "model_exhausted");
/// assert_eq!(model.turns().len(), 3);
/// # });
/// ```
#[derive(Debug)]
pub struct ScriptedModel {
    answers: Vec<Value>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The index of the next answer to give.
    next: usize,
    turns: Vec<Turn>,
}

impl ScriptedModel {
    /// A model that gives `answers` in order.
    pub fn new(answers: Vec<Value>) -> ScriptedModel {
        ScriptedModel {
            answers,
            state: Mutex::new(State::default()),
        }
    }

    /// Every turn received so far, oldest first.
    pub fn turns(&self) -> Vec<Turn> {
        self.state().turns.clone()
    }

    /// The state, whatever a panicking caller left it as: it is a counter and a list, always
    /// consistent between statements.
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Model for ScriptedModel {
    fn answer(&self, turn: Turn) -> BoxFuture<'_, Result<Answer, ModelError>> {
        let mut state = self.state();
        state.turns.push(turn);
        let answer = match self.answers.get(state.next) {
            Some(Value::String(text)) => Ok(Answer::Text(text.clone())),
            Some(value) => Ok(Answer::Structured(value.clone())),
            None => Err(ModelError::new(
                ModelErrorKind::Exhausted,
                format!(
                    "the scripted model has no answer left: it gave all {} of its answers and was asked again \
                     (add answers to the model file's \"answers\")",
                    self.answers.len()
                ),
            )),
        };
        if answer.is_ok() {
            state.next += 1;
        }
        Box::pin(std::future::ready(answer))
    }
}
