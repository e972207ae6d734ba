//! Criterion benches of writ-js evaluation (being written).
fn main() {}
