//! Evaluates one expression over a JSON file and says how long it took:
//! `cargo run -p writ-jsonata --example try -- EXPR [FILE] [TIMEOUT_MS]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = match args.get(2).filter(|p| !p.is_empty()) {
        Some(path) => writ_core::parse_json(&std::fs::read_to_string(path).expect("readable")).expect("json"),
        None => writ_core::Value::Undefined,
    };
    let mut options = writ_jsonata::Options::default();
    if let Some(ms) = args.get(3) {
        options.limits = writ_jsonata::JsonataLimits {
            timeout: Some(ms.parse().expect("ms")),
            ..writ_jsonata::JsonataLimits::UNBOUNDED
        };
    }
    if let Some(n) = std::env::var("EVALS").ok().and_then(|r| r.parse::<u32>().ok()) {
        let e = writ_jsonata::Expression::compile(&args[1]).expect("compiles");
        let started = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(e.evaluate(&data, &options).ok());
        }
        eprintln!("{:?} per evaluation", started.elapsed() / n);
        return;
    }
    let repeat: usize = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    for _ in 1..repeat {
        let started = std::time::Instant::now();
        let e = writ_jsonata::Expression::compile(&args[1]).expect("compiles");
        let _ = e.evaluate(&data, &options);
        eprintln!("{:?}", started.elapsed());
    }
    let started = std::time::Instant::now();
    match writ_jsonata::Expression::compile(&args[1]) {
        Ok(e) => match e.evaluate(&data, &options) {
            Ok(v) => println!("{}", v.to_json_string().unwrap_or_else(|| "undefined".into())),
            Err(err) => println!("error {err}"),
        },
        Err(err) => println!("compile error {err}"),
    }
    eprintln!("{:?}", started.elapsed());
}
