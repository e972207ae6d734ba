//! The OpenAI-compatible client against a small HTTP/1.1 server on 127.0.0.1 that records each
//! request and answers from a script.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use writ_model::{
    Answer, Message, Model, OpenAiConfig, OpenAiModel, StructuredOutput, Turn, model_from_file_with, reason,
};

/// What the server does with one request.
enum Reply {
    /// Answers with this status and JSON body, then closes the connection.
    Send(u16, String),
    /// Reads the request and never answers.
    Hang,
}

fn ok(body: Value) -> Reply {
    Reply::Send(200, body.to_string())
}

/// One request as the server read it.
#[derive(Debug)]
struct Request {
    line: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A server answering one request per connection, in order, from `replies`; past the last it
/// stops accepting. Returns its base URL and the requests it has read.
async fn serve(replies: Vec<Reply>) -> (String, Arc<Mutex<Vec<Request>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&requests);
    tokio::spawn(async move {
        let mut hung = Vec::new();
        for reply in replies {
            let (mut stream, _) = listener.accept().await.unwrap();
            let request = read_request(&mut stream).await;
            recorded.lock().unwrap().push(request);
            match reply {
                Reply::Send(status, body) => {
                    let head = format!(
                        "HTTP/1.1 {status} Status\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    );
                    stream.write_all(head.as_bytes()).await.unwrap();
                    stream.write_all(body.as_bytes()).await.unwrap();
                    stream.shutdown().await.unwrap();
                }
                // Held open, unanswered, until the test's runtime ends.
                Reply::Hang => hung.push(stream),
            }
        }
        std::future::pending::<()>().await;
        drop(hung);
    });
    (base_url, requests)
}

async fn read_request(stream: &mut TcpStream) -> Request {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|window| window == b"\r\n\r\n") {
            break at;
        }
        let n_read = stream.read(&mut buffer).await.unwrap();
        assert!(n_read > 0, "the client closed before sending its headers");
        bytes.extend_from_slice(&buffer[..n_read]);
    };
    let head = String::from_utf8(bytes[..head_end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap().to_owned();
    let headers: Vec<(String, String)> = lines
        .map(|header| {
            let (name, value) = header.split_once(':').unwrap();
            (name.trim().to_ascii_lowercase(), value.trim().to_owned())
        })
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .map(|(_, value)| value.parse().unwrap())
        .expect("the request has a content-length");
    let mut body = bytes[head_end + 4..].to_vec();
    while body.len() < length {
        let n_read = stream.read(&mut buffer).await.unwrap();
        assert!(n_read > 0, "the client closed before sending its body");
        body.extend_from_slice(&buffer[..n_read]);
    }
    Request {
        line,
        headers,
        body: serde_json::from_slice(&body).unwrap(),
    }
}

fn model(base_url: &str, structured_output: StructuredOutput, api_key: Option<&str>) -> OpenAiModel {
    OpenAiModel::new(OpenAiConfig {
        base_url: base_url.to_owned(),
        model: String::from("test-model"),
        api_key: api_key.map(str::to_owned),
        structured_output,
        timeout: Duration::from_secs(20),
    })
    .unwrap()
}

fn schema() -> Value {
    json!({"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}})
}

fn schema_turn() -> Turn {
    Turn {
        messages: vec![
            Message::system("Answer with JSON."),
            Message::user("Where is the Louvre?"),
        ],
        output_schema: Some(schema()),
    }
}

fn tool_call_reply(arguments: &str) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "submit", "arguments": arguments}}],
            },
        }],
    })
}

fn content_reply(content: &str) -> Value {
    json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]})
}

#[tokio::test]
async fn a_forced_tool_call_is_asked_for_and_its_arguments_are_the_answer() {
    let (base_url, requests) = serve(vec![ok(tool_call_reply(r#"{"city": "Paris"}"#))]).await;
    let model = model(&base_url, StructuredOutput::ToolCall, Some("sk-test"));
    let answer = model.answer(schema_turn()).await.unwrap();
    assert_eq!(answer, Answer::Structured(json!({"city": "Paris"})));

    let requests = requests.lock().unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(
        request.body,
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "Answer with JSON."},
                {"role": "user", "content": "Where is the Louvre?"},
            ],
            "tools": [{
                "type": "function",
                "function": {
                    "name": "submit",
                    "description": "Submit your answer. Call this exactly once, with the answer as the arguments.",
                    "parameters": schema(),
                },
            }],
            "tool_choice": {"type": "function", "function": {"name": "submit"}},
        })
    );
}

#[tokio::test]
async fn a_json_schema_response_format_is_asked_for_and_the_content_is_the_answer() {
    let (base_url, requests) = serve(vec![ok(content_reply(r#"{"city": "Paris"}"#))]).await;
    let model = model(&base_url, StructuredOutput::JsonSchema, None);
    let answer = model.answer(schema_turn()).await.unwrap();
    assert_eq!(answer, Answer::Structured(json!({"city": "Paris"})));

    let requests = requests.lock().unwrap();
    let request = &requests[0];
    assert_eq!(request.header("authorization"), None, "no key, no Authorization header");
    assert_eq!(
        request.body["response_format"],
        json!({"type": "json_schema", "json_schema": {"name": "answer", "schema": schema(), "strict": false}})
    );
    assert!(request.body.get("tools").is_none());
    assert!(request.body.get("tool_choice").is_none());
}

#[tokio::test]
async fn a_text_turn_asks_for_no_structure_and_answers_text() {
    let (base_url, requests) = serve(vec![ok(content_reply("In Paris."))]).await;
    let model = model(&base_url, StructuredOutput::ToolCall, None);
    let turn = Turn {
        messages: vec![Message::user("Where is the Louvre?")],
        output_schema: None,
    };
    assert_eq!(model.answer(turn).await.unwrap(), Answer::Text("In Paris.".into()));
    let body = &requests.lock().unwrap()[0].body;
    assert_eq!(
        body,
        &json!({"model": "test-model", "messages": [{"role": "user", "content": "Where is the Louvre?"}]})
    );
}

#[tokio::test]
async fn a_schema_that_is_not_an_object_is_wrapped_and_the_answer_unwrapped() {
    let (base_url, requests) = serve(vec![ok(tool_call_reply(r#"{"value": ["Paris", "Lyon"]}"#))]).await;
    let model = model(&base_url, StructuredOutput::ToolCall, None);
    let array = json!({"type": "array", "items": {"type": "string"}});
    let turn = Turn {
        messages: vec![Message::user("Two French cities?")],
        output_schema: Some(array.clone()),
    };
    assert_eq!(
        model.answer(turn).await.unwrap(),
        Answer::Structured(json!(["Paris", "Lyon"]))
    );
    let parameters = &requests.lock().unwrap()[0].body["tools"][0]["function"]["parameters"];
    assert_eq!(
        parameters,
        &json!({"type": "object", "properties": {"value": array}, "required": ["value"], "additionalProperties": false})
    );
}

#[tokio::test]
async fn prose_instead_of_the_tool_call_is_a_text_answer() {
    let (base_url, _) = serve(vec![ok(content_reply("I think Paris."))]).await;
    let model = model(&base_url, StructuredOutput::ToolCall, None);
    assert_eq!(
        model.answer(schema_turn()).await.unwrap(),
        Answer::Text("I think Paris.".into())
    );
}

#[tokio::test]
async fn a_401_is_auth_failed_quoting_the_server_and_is_not_retried() {
    let body = json!({"error": {"message": "Incorrect API key provided: sk-bad.", "type": "invalid_request_error", "code": "invalid_api_key"}});
    let (base_url, requests) = serve(vec![Reply::Send(401, body.to_string()), ok(tool_call_reply("{}"))]).await;
    let model = model(&base_url, StructuredOutput::ToolCall, Some("sk-bad"));
    let error = model.answer(schema_turn()).await.unwrap_err();
    assert_eq!(error.code(), "model_auth_failed");
    assert!(error.message().contains("401"), "{error}");
    assert!(
        error.message().contains("\"Incorrect API key provided: sk-bad.\""),
        "{error}"
    );
    assert_eq!(requests.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_400_is_an_http_error_quoting_a_plain_body() {
    let (base_url, _) = serve(vec![Reply::Send(400, String::from("model 'nope' not found"))]).await;
    let error = model(&base_url, StructuredOutput::ToolCall, None)
        .answer(schema_turn())
        .await
        .unwrap_err();
    assert_eq!(error.code(), "model_http_error");
    assert!(error.message().contains("\"model 'nope' not found\""), "{error}");
}

#[tokio::test]
async fn a_500_is_retried_and_the_next_200_answers() {
    let (base_url, requests) = serve(vec![
        Reply::Send(500, json!({"error": {"message": "overloaded"}}).to_string()),
        ok(tool_call_reply(r#"{"city": "Paris"}"#)),
    ])
    .await;
    let model = model(&base_url, StructuredOutput::ToolCall, Some("sk-test"));
    assert_eq!(
        model.answer(schema_turn()).await.unwrap(),
        Answer::Structured(json!({"city": "Paris"}))
    );
    let requests = requests.lock().unwrap();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].body, requests[1].body, "the retry sends the same request");
    assert_eq!(requests[1].header("authorization"), Some("Bearer sk-test"));
}

#[tokio::test]
async fn a_server_failing_every_try_is_unavailable_after_three() {
    let failure = || Reply::Send(503, json!({"error": {"message": "try later"}}).to_string());
    let (base_url, requests) = serve(vec![failure(), failure(), failure(), ok(tool_call_reply("{}"))]).await;
    let error = model(&base_url, StructuredOutput::ToolCall, None)
        .answer(schema_turn())
        .await
        .unwrap_err();
    assert_eq!(error.code(), "model_unavailable");
    assert!(error.message().contains("after 3 tries"), "{error}");
    assert!(error.message().contains("\"try later\""), "{error}");
    assert_eq!(requests.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_429_through_every_try_is_rate_limited() {
    let limited = || Reply::Send(429, json!({"error": {"message": "slow down"}}).to_string());
    let (base_url, requests) = serve(vec![limited(), limited(), limited()]).await;
    let error = model(&base_url, StructuredOutput::ToolCall, None)
        .answer(schema_turn())
        .await
        .unwrap_err();
    assert_eq!(error.code(), "model_rate_limited");
    assert_eq!(requests.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn malformed_replies_are_reply_invalid() {
    let replies = [
        String::from("<html>not json</html>"),
        json!({"object": "list", "data": []}).to_string(),
        json!({"choices": []}).to_string(),
        tool_call_reply("{}")
            .to_string()
            .replace("\"arguments\":\"{}\"", "\"arguments\":null"),
    ];
    for reply in replies {
        let (base_url, _) = serve(vec![Reply::Send(200, reply.clone())]).await;
        let error = model(&base_url, StructuredOutput::ToolCall, None)
            .answer(schema_turn())
            .await
            .unwrap_err();
        assert_eq!(error.code(), "model_reply_invalid", "{reply}");
        assert!(error.message().contains("is not a chat completion"), "{error}");
    }
}

#[tokio::test]
async fn arguments_that_are_not_json_are_answer_not_json_and_reason_corrects_them() {
    let (base_url, requests) = serve(vec![
        ok(tool_call_reply(r#"{"city": "Paris",}"#)),
        ok(tool_call_reply(r#"{"city": "Paris"}"#)),
    ])
    .await;
    let model = model(&base_url, StructuredOutput::ToolCall, None);
    let reasoned = reason(&model, "Where is the Louvre?", &schema(), 3).await.unwrap();
    assert_eq!(reasoned.value, json!({"city": "Paris"}));
    assert_eq!(reasoned.attempts, 2);
    let requests = requests.lock().unwrap();
    let messages = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    let corrective = messages[2]["content"].as_str().unwrap();
    assert_eq!(messages[2]["role"], "user");
    assert!(corrective.contains("is not JSON"), "{corrective}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let (base_url, requests) = serve(vec![Reply::Hang, ok(tool_call_reply("{}"))]).await;
    let model = OpenAiModel::new(OpenAiConfig {
        base_url,
        model: String::from("test-model"),
        api_key: None,
        structured_output: StructuredOutput::ToolCall,
        timeout: Duration::from_millis(300),
    })
    .unwrap();
    let started = Instant::now();
    let error = model.answer(schema_turn()).await.unwrap_err();
    assert_eq!(error.code(), "model_timeout");
    assert!(error.message().contains("within 300 ms"), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "stopped after {:?}",
        started.elapsed()
    );
    assert_eq!(requests.lock().unwrap().len(), 1, "a timeout is not retried");
}

#[tokio::test]
async fn a_server_that_is_not_there_is_unavailable() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let error = model(&base_url, StructuredOutput::ToolCall, None)
        .answer(schema_turn())
        .await
        .unwrap_err();
    assert_eq!(error.code(), "model_unavailable");
    assert!(
        error.message().contains("could not be reached after 3 tries"),
        "{error}"
    );
}

#[tokio::test]
async fn a_model_file_reads_its_key_from_the_named_variable() {
    let (base_url, requests) = serve(vec![ok(content_reply(r#"{"city": "Paris"}"#))]).await;
    let file = json!({"kind": "openai", "baseUrl": base_url, "model": "file-model", "apiKeyEnv": "MY_KEY", "structuredOutput": "jsonSchema"});
    let model = model_from_file_with(&file, |name| (name == "MY_KEY").then(|| String::from("sk-file"))).unwrap();
    assert_eq!(
        model.answer(schema_turn()).await.unwrap(),
        Answer::Structured(json!({"city": "Paris"}))
    );
    let requests = requests.lock().unwrap();
    assert_eq!(requests[0].header("authorization"), Some("Bearer sk-file"));
    assert_eq!(requests[0].body["model"], "file-model");
    assert!(requests[0].body.get("response_format").is_some());
}
