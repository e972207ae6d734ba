//! Medians and human-readable durations for the report.

/// The median of `values` (the mean of the middle two for an even count; NaN when empty).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => f64::NAN,
        len if len % 2 == 1 => sorted[mid],
        _ => (sorted[mid - 1] + sorted[mid]) / 2.0,
    }
}

/// A duration in nanoseconds, in the largest unit that keeps it at least 1, with three
/// significant digits: `85.3 ns`, `412 µs`, `3.21 ms`, `1.50 s`.
pub fn human_ns(ns: f64) -> String {
    let (value, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn human_units() {
        assert_eq!(human_ns(85.34), "85.3 ns");
        assert_eq!(human_ns(412_000.0), "412 µs");
        assert_eq!(human_ns(3_214_000.0), "3.21 ms");
        assert_eq!(human_ns(1.5e9), "1.50 s");
    }
}
