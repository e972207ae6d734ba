//! The built-in functions, one module per family, and the table the evaluator looks names up in.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::error::Result;
use crate::eval::Cx;
use crate::signature::Signature;
use crate::value::Val;

mod aggregate;
mod array;
mod datetime;
mod meta;
mod number;
mod object;
mod string;

pub(crate) use array::merge_sort_by;
pub(crate) use string::to_string;

/// A built-in's implementation: the arguments, already checked against the signature (the
/// context filled in where the signature says so).
pub(crate) type Imp = fn(&mut Cx<'_>, &[Val]) -> Result<Val>;

/// One built-in function.
pub(crate) struct Builtin {
    /// Its name, without `$`.
    pub name: &'static str,
    /// Its signature in JSONata's notation (`<s-nn?:s>`).
    pub signature: &'static str,
    /// What it does.
    pub imp: Imp,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "${}", self.name)
    }
}

impl Builtin {
    /// Its parsed signature.
    pub(crate) fn parsed_signature(&'static self) -> &'static Signature {
        &TABLE.get(self.name).expect("every built-in is in the table").1
    }

    /// How many arguments a higher-order function passes it: as many as the signature
    /// declares, except where jsonata-js's implementation declares fewer (`$string`'s `prettify`
    /// has a default; `$zip` takes its arrays as a rest parameter).
    pub(crate) fn arity(&'static self) -> usize {
        match self.name {
            "string" => 1,
            "zip" => 0,
            _ => self.parsed_signature().arity(),
        }
    }
}

/// A quick hash for the table's short ASCII names (FNV-1a): the table is looked up on every
/// call of a built-in, and its keys are ours, not an attacker's.
#[derive(Default)]
struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

type NameTable = HashMap<&'static str, (&'static Builtin, Signature), std::hash::BuildHasherDefault<NameHasher>>;

static TABLE: LazyLock<NameTable> = LazyLock::new(|| {
    let families: [&'static [Builtin]; 7] = [
        aggregate::TABLE,
        array::TABLE,
        datetime::TABLE,
        meta::TABLE,
        number::TABLE,
        object::TABLE,
        string::TABLE,
    ];
    families
        .into_iter()
        .flatten()
        .map(|builtin| {
            let signature = Signature::parse(builtin.signature)
                .unwrap_or_else(|error| panic!("the signature of ${} does not parse: {error}", builtin.name));
            (builtin.name, (builtin, signature))
        })
        .collect()
});

/// The built-in called `name` (without `$`), if there is one.
pub(crate) fn lookup(name: &str) -> Option<&'static Builtin> {
    TABLE.get(name).map(|(builtin, _)| *builtin)
}

/// The signature of a transform function: one object or array, giving an object.
pub(crate) fn transform_signature() -> &'static Signature {
    static SIGNATURE: LazyLock<Signature> =
        LazyLock::new(|| Signature::parse("<(oa):o>").expect("the transform signature parses"));
    &SIGNATURE
}
