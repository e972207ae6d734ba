//! writ's number-to-string agrees with node's `String(x)` on well over 100,000 doubles, and
//! reading node's text back gives the same double.

use writ_core::{Value, js_number_to_string, parse_json};
use writ_testkit::oracle::js_number_strings;

/// splitmix64: a small, fixed-seed generator, so every run checks the same numbers.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn numbers() -> Vec<f64> {
    let mut rng = SplitMix(20_261_130);
    let mut numbers = vec![
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        5e-324,
        -5e-324,
        0.1 + 0.2,
        1e21,
        1e21_f64.next_down(),
        1e21_f64.next_up(),
        999_999_999_999_999_900_000.0,
        1e-6,
        1e-6_f64.next_down(),
        1e-7,
        9_007_199_254_740_991.0,
        9_007_199_254_740_992.0,
        9_007_199_254_740_993.0,
        -9_007_199_254_740_992.0,
        123_456_789_012_345_680_000.0,
        4.35,
        0.000_001_234_5,
    ];
    // Random bit patterns: every exponent, every mantissa shape.
    while numbers.len() < 45_000 {
        let number = f64::from_bits(rng.next());
        if !number.is_nan() {
            numbers.push(number);
        }
    }
    // Integers of every magnitude up to 2^70, both signs.
    for _ in 0..20_000 {
        let bits = rng.next() % 71;
        let magnitude = (rng.unit() * 2f64.powi(bits as i32)).floor();
        numbers.push(if rng.next().is_multiple_of(2) {
            magnitude
        } else {
            -magnitude
        });
    }
    // Decimals as people write them: an integer over a power of ten.
    for _ in 0..20_000 {
        let digits = (rng.next() % 1_000_000_000) as f64;
        let scale = 10f64.powi((rng.next() % 12) as i32);
        numbers.push(digits / scale);
    }
    // Uniform doubles in [0, 1) and prices with two decimals.
    for _ in 0..10_000 {
        numbers.push(rng.unit());
        numbers.push((rng.unit() * 10_000.0).round() / 100.0);
    }
    // Exact binary fractions with 17 significant digits: where decimal ties, and so the
    // round-half-even rule, show up.
    for _ in 0..5_000 {
        let whole = (1u64 << 47) + rng.next() % (1u64 << 50);
        let eighths = [1.0, 3.0, 5.0, 7.0][(rng.next() % 4) as usize];
        numbers.push(whole as f64 + eighths / 8.0);
    }
    // Powers of ten and their neighbours, across the whole range.
    for exponent in -330..=310 {
        let power: f64 = format!("1e{exponent}").parse().unwrap_or(0.0);
        numbers.extend([power, power.next_up(), power.next_down(), -power]);
    }
    // Powers of two, subnormals included.
    for exponent in -1074..=1023 {
        let power = 2f64.powi(exponent);
        numbers.extend([power, -power]);
    }
    numbers
}

#[test]
fn number_to_string_matches_node_on_over_100k_numbers() {
    let numbers = numbers();
    assert!(numbers.len() >= 100_000, "only {} numbers", numbers.len());
    let expected = js_number_strings(&numbers).unwrap_or_else(|error| panic!("{error}"));
    let mut mismatches = Vec::new();
    for (number, node) in numbers.iter().zip(&expected) {
        let ours = js_number_to_string(*number);
        if &ours != node {
            mismatches.push(format!("{:016x}: writ {ours}, node {node}", number.to_bits()));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} numbers differ, first: {:?}",
        mismatches.len(),
        numbers.len(),
        &mismatches[..mismatches.len().min(10)]
    );
}

#[test]
fn json_text_of_every_finite_number_reads_back_exactly() {
    for number in numbers().into_iter().filter(|number| number.is_finite()) {
        let text = Value::from(number).to_json_string().unwrap_or_default();
        let back = parse_json(&text).unwrap_or_else(|error| panic!("{text}: {error}"));
        let back = back.as_number().unwrap_or(f64::NAN);
        // JSON.stringify writes -0 as 0; every other double survives bit for bit.
        let same = back.to_bits() == number.to_bits() || (number == 0.0 && back == 0.0);
        assert!(same, "{text} read back as {back:e}, not {number:e}");
    }
}
