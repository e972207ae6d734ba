//! Deterministic workload data: mulberry32 from a fixed seed, written as JSON text by writ.
//!
//! The harness generates the data, never a peer, so every side reads the very same bytes.
//! Files carry the scale in their name, so a run at another scale never reuses stale data.
//! The JSONata suite workloads read the official suite's datasets instead, unscaled.

use std::fs;
use std::path::{Path, PathBuf};

use writ_core::{Object, Str, Value, js_number_to_string};

/// The seed every data set starts from.
pub const SEED: u32 = 20_261_130;

/// The mulberry32 generator: 32 bits of state, the same sequence as the common JavaScript one.
pub struct Mulberry32 {
    state: u32,
}

impl Mulberry32 {
    /// A generator started from `seed`.
    pub fn new(seed: u32) -> Mulberry32 {
        Mulberry32 { state: seed }
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x6D2B_79F5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    /// A number in `0..bound`.
    pub fn below(&mut self, bound: u32) -> u32 {
        self.next_u32() % bound
    }
}

/// One data file the workloads read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DataSet {
    /// 10,000 item rows (at scale 1): the first 10,000 of every larger item set.
    Items10k,
    /// 20,000 item rows (at scale 1).
    Items20k,
    /// 200,000 item rows (at scale 1).
    Items200k,
    /// 100,000 doubles (at scale 1).
    Numbers100k,
    /// 1,000 order rows (at scale 1), for the writ-js workloads.
    Rows1k,
    /// 200,000 order rows (at scale 1), for the writ-js workloads.
    Rows200k,
}

impl DataSet {
    /// Every data set.
    pub const ALL: [DataSet; 6] = [
        DataSet::Items10k,
        DataSet::Items20k,
        DataSet::Items200k,
        DataSet::Numbers100k,
        DataSet::Rows1k,
        DataSet::Rows200k,
    ];

    /// The file name's stem, which is also how the header names the set.
    pub fn stem(self) -> &'static str {
        match self {
            DataSet::Items10k => "items-10k",
            DataSet::Items20k => "items-20k",
            DataSet::Items200k => "items-200k",
            DataSet::Numbers100k => "numbers-100k",
            DataSet::Rows1k => "rows-1k",
            DataSet::Rows200k => "rows-200k",
        }
    }

    fn base_count(self) -> usize {
        match self {
            DataSet::Items10k => 10_000,
            DataSet::Items20k => 20_000,
            DataSet::Items200k => 200_000,
            DataSet::Numbers100k => 100_000,
            DataSet::Rows1k => 1_000,
            DataSet::Rows200k => 200_000,
        }
    }

    /// How many rows or numbers the set holds at `scale` (at least one).
    pub fn count(self, scale: f64) -> usize {
        ((self.base_count() as f64 * scale).round() as usize).max(1)
    }

    /// The file name at `scale`, e.g. `items-200k-s1.json`.
    pub fn file_name(self, scale: f64) -> String {
        format!("{}-s{}.json", self.stem(), js_number_to_string(scale))
    }

    /// The JSON text of the set at `scale`.
    pub fn generate(self, scale: f64) -> String {
        let count = self.count(scale);
        let value = match self {
            DataSet::Items10k | DataSet::Items20k | DataSet::Items200k => items(count),
            DataSet::Numbers100k => numbers(count),
            DataSet::Rows1k | DataSet::Rows200k => rows(count),
        };
        value.to_json_string().unwrap_or_default()
    }
}

/// Where a workload's input comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Input {
    /// A generated set, at the run's scale.
    Generated(DataSet),
    /// A dataset of the official JSONata suite, by file stem: fixed, so never scaled.
    Suite(&'static str),
}

impl Input {
    /// The file a worker reads, given the generated sets' paths from [`ensure`].
    pub fn path(self, generated: &[(DataSet, PathBuf)]) -> PathBuf {
        match self {
            Input::Generated(set) => generated
                .iter()
                .find(|(candidate, _)| *candidate == set)
                .map(|(_, path)| path.clone())
                .unwrap_or_default(),
            Input::Suite(name) => suite_dataset(name),
        }
    }

    /// The input's JSON text at `scale`, without writing a file.
    ///
    /// # Errors
    ///
    /// A message naming the file when a suite dataset cannot be read.
    #[cfg(test)]
    pub fn text(self, scale: f64) -> Result<String, String> {
        match self {
            Input::Generated(set) => Ok(set.generate(scale)),
            Input::Suite(name) => {
                let path = suite_dataset(name);
                fs::read_to_string(&path).map_err(|error| format!("cannot read {}: {error}", path.display()))
            }
        }
    }
}

/// The path of the suite's dataset `name`, as writ-jsonata's conformance tests keep it.
fn suite_dataset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/writ-jsonata/tests/jsonata-suite/datasets")
        .join(format!("{name}.json"))
}

/// Writes any data set missing from `dir` at `scale`, and returns every set's path.
///
/// # Errors
///
/// A message naming the path when the directory or a file cannot be written.
pub fn ensure(dir: &Path, scale: f64) -> Result<Vec<(DataSet, PathBuf)>, String> {
    fs::create_dir_all(dir).map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let mut paths = Vec::new();
    for set in DataSet::ALL {
        let path = dir.join(set.file_name(scale));
        if !path.is_file() {
            // Write beside the target and rename, so an interrupted run leaves no partial file.
            let partial = dir.join(format!("{}.partial", set.file_name(scale)));
            fs::write(&partial, set.generate(scale))
                .and_then(|()| fs::rename(&partial, &path))
                .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        }
        paths.push((set, path));
    }
    Ok(paths)
}

const CATEGORIES: [&str; 8] = [
    "kitchen", "office", "garden", "toys", "books", "sports", "tools", "health",
];

const ADJECTIVES: [&str; 10] = [
    "Red", "Blue", "Compact", "Deluxe", "Vintage", "Smart", "Crème", "Großer", "Classic", "Eco",
];

const NOUNS: [&str; 10] = [
    "Mug",
    "Kettle",
    "Lamp",
    "Chair",
    "Desk",
    "Backpack",
    "Skillet 12\"",
    "Café Table",
    "Teapot \u{2615}",
    "Notebook",
];

/// `count` item rows: `{id, name, category, price, age, stock, active}`.
fn items(count: usize) -> Value {
    let mut rng = Mulberry32::new(SEED);
    let keys: Vec<Str> = ["id", "name", "category", "price", "age", "stock", "active"]
        .into_iter()
        .map(Str::from)
        .collect();
    let rows = (0..count)
        .map(|idx| {
            let adjective = ADJECTIVES[rng.below(ADJECTIVES.len() as u32) as usize];
            let noun = NOUNS[rng.below(NOUNS.len() as u32) as usize];
            let fields = [
                Value::from((idx + 1) as f64),
                Value::from(format!("{adjective} {noun} {}", rng.below(1000))),
                Value::from(CATEGORIES[rng.below(CATEGORIES.len() as u32) as usize]),
                Value::from(f64::from(rng.below(10_001)) / 100.0),
                Value::from(f64::from(18 + rng.below(50))),
                Value::from(f64::from(rng.below(1000))),
                Value::from(rng.below(4) != 0),
            ];
            let mut row = Object::with_capacity(keys.len());
            for (key, field) in keys.iter().zip(fields) {
                row.insert(key.clone(), field);
            }
            Value::from(row)
        })
        .collect::<Vec<_>>();
    Value::from(rows)
}

const STATUSES: [&str; 4] = ["open", "sold", "hold", "draft"];

const TAGS: [&str; 5] = ["sale", "new", "eco", "gift", "bulk"];

/// `count` order rows: `{id, name, price, qty, status, tags}`, with zero to three tags each.
fn rows(count: usize) -> Value {
    let mut rng = Mulberry32::new(SEED);
    let keys: Vec<Str> = ["id", "name", "price", "qty", "status", "tags"]
        .into_iter()
        .map(Str::from)
        .collect();
    let rows = (0..count)
        .map(|idx| {
            let adjective = ADJECTIVES[rng.below(ADJECTIVES.len() as u32) as usize];
            let noun = NOUNS[rng.below(NOUNS.len() as u32) as usize];
            let name = format!("{adjective} {noun}");
            let price = f64::from(rng.below(10_001)) / 100.0;
            let qty = f64::from(rng.below(20));
            let status = STATUSES[rng.below(STATUSES.len() as u32) as usize];
            let tags: Vec<Value> = (0..rng.below(4))
                .map(|_| Value::from(TAGS[rng.below(TAGS.len() as u32) as usize]))
                .collect();
            let fields = [
                Value::from((idx + 1) as f64),
                Value::from(name),
                Value::from(price),
                Value::from(qty),
                Value::from(status),
                Value::from(tags),
            ];
            let mut row = Object::with_capacity(keys.len());
            for (key, field) in keys.iter().zip(fields) {
                row.insert(key.clone(), field);
            }
            Value::from(row)
        })
        .collect::<Vec<_>>();
    Value::from(rows)
}

/// `count` finite doubles: a third integers, a third 2-decimal prices, a third random bit
/// patterns (any finite double, subnormals and huge exponents included).
fn numbers(count: usize) -> Value {
    let mut rng = Mulberry32::new(SEED);
    let numbers = (0..count)
        .map(|_| {
            let number = match rng.below(3) {
                0 => f64::from(rng.below(2_000_001)) - 1_000_000.0,
                1 => f64::from(rng.below(1_000_001)) / 100.0,
                _ => loop {
                    let bits = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
                    let number = f64::from_bits(bits);
                    if number.is_finite() {
                        break number;
                    }
                },
            };
            Value::from(number)
        })
        .collect::<Vec<_>>();
    Value::from(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mulberry32_matches_the_javascript_sequence() {
        // From the usual JavaScript mulberry32 with seed 1: ((t ^ t >>> 14) >>> 0).
        let mut rng = Mulberry32::new(1);
        assert_eq!(
            [rng.next_u32(), rng.next_u32(), rng.next_u32()],
            [2_693_262_067, 11_749_833, 2_265_367_787]
        );
    }

    #[test]
    fn data_is_deterministic_and_scaled() {
        let first = DataSet::Items20k.generate(0.001);
        assert_eq!(first, DataSet::Items20k.generate(0.001));
        let rows = writ_core::parse_json(&first).expect("valid JSON");
        assert_eq!(rows.as_array().map(|rows| rows.len()), Some(20));
        assert_eq!(DataSet::Numbers100k.file_name(0.01), "numbers-100k-s0.01.json");
        let rows = writ_core::parse_json(&DataSet::Rows1k.generate(1.0)).expect("valid JSON");
        let rows = rows.as_array().expect("an array of rows");
        assert_eq!(rows.len(), 1000);
        let keys: Vec<String> = rows[0]
            .as_object()
            .expect("a row object")
            .keys()
            .map(|key| key.to_string_lossy().into_owned())
            .collect();
        assert_eq!(keys, ["id", "name", "price", "qty", "status", "tags"]);
    }

    #[test]
    fn smaller_item_sets_are_prefixes_of_larger_ones() {
        let small = DataSet::Items10k.generate(0.001);
        let large = DataSet::Items200k.generate(0.001);
        assert!(large.starts_with(small.trim_end_matches(']')), "{small}");
        let category = writ_core::parse_json(&small).expect("valid JSON");
        let first = category
            .as_array()
            .and_then(|rows| rows.first())
            .and_then(|row| row.as_object());
        assert!(first.and_then(|row| row.get_str("category")).is_some());
    }

    #[test]
    fn suite_datasets_are_read_as_they_are() {
        let text = Input::Suite("dataset5").text(0.001).expect("the suite's dataset5");
        let value = writ_core::parse_json(&text).expect("valid JSON");
        assert!(value.as_object().and_then(|root| root.get_str("Account")).is_some());
    }
}
