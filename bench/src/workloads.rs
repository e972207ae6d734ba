//! The workloads' writ side: what one iteration does, and the check string its result gives.
//!
//! Each workload has a twin in `bench/peers/node.mjs` under the same name; the two must
//! compute the same check string from their results, or the harness refuses the figures.

use std::hint::black_box;

use writ_core::{Value, js_number_to_string, parse_json, write_js_number};

use crate::data::DataSet;

/// One workload: its name, the data it reads, and how to prepare it for timing.
pub struct Workload {
    /// `area/workload/size`, identical on every side.
    pub name: &'static str,
    /// The data file the worker is given.
    pub data: DataSet,
    /// Prepares the workload from the data file's text (untimed).
    pub load: fn(String) -> Result<Box<dyn Task>, String>,
}

/// A prepared workload.
pub trait Task {
    /// Runs one timed iteration, keeping its result for [`Task::check`].
    fn iterate(&mut self);

    /// The check string of the last iteration's result (untimed).
    fn check(&self) -> String;
}

/// Every workload, in the order the table lists them.
pub const WORKLOADS: &[Workload] = &[
    Workload {
        name: "json/parse/items-20k",
        data: DataSet::Items20k,
        load: load_parse,
    },
    Workload {
        name: "json/stringify/items-20k",
        data: DataSet::Items20k,
        load: load_stringify,
    },
    Workload {
        name: "value/filter-sum/items-200k",
        data: DataSet::Items200k,
        load: load_filter_sum,
    },
    Workload {
        name: "number/to-string/100k",
        data: DataSet::Numbers100k,
        load: load_to_string,
    },
];

/// The workload called `name`.
pub fn find(name: &str) -> Option<&'static Workload> {
    WORKLOADS.iter().find(|workload| workload.name == name)
}

/// 32-bit FNV-1a over `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash: u32, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// `<length in bytes>:<FNV-1a as 8 hex digits>`, the check of a text output.
pub fn text_check(text: &str) -> String {
    format!("{}:{:08x}", text.len(), fnv1a(text.as_bytes()))
}

fn parse(text: &str) -> Result<Value, String> {
    parse_json(text).map_err(|error| format!("the data file is not JSON: {error}"))
}

fn rows(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], |rows| rows.as_slice())
}

fn price(row: &Value) -> Option<f64> {
    row.as_object()?.get_str("price")?.as_number()
}

struct ParseTask {
    text: String,
    last: Value,
}

fn load_parse(text: String) -> Result<Box<dyn Task>, String> {
    parse(&text)?;
    Ok(Box::new(ParseTask {
        text,
        last: Value::Undefined,
    }))
}

impl Task for ParseTask {
    fn iterate(&mut self) {
        // Replacing the last result frees it inside the timing, as a collector would.
        self.last = parse_json(black_box(&self.text)).unwrap_or_default();
    }

    /// `<rows>:<sum of price in row order>`.
    fn check(&self) -> String {
        let rows = rows(&self.last);
        let sum = rows.iter().filter_map(price).fold(0.0, |sum, price| sum + price);
        format!("{}:{}", rows.len(), js_number_to_string(sum))
    }
}

struct StringifyTask {
    value: Value,
    last: String,
}

fn load_stringify(text: String) -> Result<Box<dyn Task>, String> {
    Ok(Box::new(StringifyTask {
        value: parse(&text)?,
        last: String::new(),
    }))
}

impl Task for StringifyTask {
    fn iterate(&mut self) {
        self.last = black_box(&self.value).to_json_string().unwrap_or_default();
    }

    fn check(&self) -> String {
        text_check(&self.last)
    }
}

struct FilterSumTask {
    items: Value,
    last: f64,
}

fn load_filter_sum(text: String) -> Result<Box<dyn Task>, String> {
    Ok(Box::new(FilterSumTask {
        items: parse(&text)?,
        last: 0.0,
    }))
}

impl Task for FilterSumTask {
    fn iterate(&mut self) {
        let mut sum = 0.0;
        for row in rows(black_box(&self.items)) {
            if let Some(price) = price(row)
                && price > 50.0
            {
                sum += price;
            }
        }
        self.last = black_box(sum);
    }

    fn check(&self) -> String {
        js_number_to_string(self.last)
    }
}

struct ToStringTask {
    numbers: Vec<f64>,
    out: String,
}

fn load_to_string(text: String) -> Result<Box<dyn Task>, String> {
    let numbers = rows(&parse(&text)?)
        .iter()
        .map(|number| number.as_number().ok_or("the numbers file holds a non-number"))
        .collect::<Result<Vec<f64>, _>>()?;
    Ok(Box::new(ToStringTask {
        numbers,
        out: String::new(),
    }))
}

impl Task for ToStringTask {
    fn iterate(&mut self) {
        self.out.clear();
        for (idx, &number) in black_box(&self.numbers).iter().enumerate() {
            if idx > 0 {
                self.out.push(',');
            }
            write_js_number(number, &mut self.out);
        }
        black_box(&self.out);
    }

    fn check(&self) -> String {
        text_check(&self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
    }

    #[test]
    fn every_workload_checks_small_data() {
        for workload in WORKLOADS {
            let text = workload.data.generate(0.0001);
            let mut task = (workload.load)(text).expect("loads");
            task.iterate();
            assert!(!task.check().is_empty(), "{}", workload.name);
        }
    }
}
