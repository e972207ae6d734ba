//! Evaluates one expression over a JSON file: `cargo run -p writ-jsonata --example try -- EXPR [FILE]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = match args.get(2) {
        Some(path) => writ_core::parse_json(&std::fs::read_to_string(path).expect("readable")).expect("json"),
        None => writ_core::Value::Undefined,
    };
    match writ_jsonata::Expression::compile(&args[1]) {
        Ok(e) => match e.evaluate(&data, &writ_jsonata::Options::default()) {
            Ok(v) => println!("{}", v.to_json_string().unwrap_or_else(|| "undefined".into())),
            Err(err) => println!("error {err}"),
        },
        Err(err) => println!("compile error {err}"),
    }
}
