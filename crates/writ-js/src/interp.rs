//! The interpreter: runs a checked [`Program`] against contexts, charging a [`Meter`].

use writ_core::{Meter, Object, Value};

use crate::ast::{Lambda, Program};
use crate::error::{Error, Result};
use crate::tables::Global;

/// Steps are charged per 16 characters read or written.
pub(crate) const CHARS_PER_STEP: usize = 16;

/// One evaluation's state: its meter, its contexts, and the frames of the arrows running.
pub(crate) struct Cx<'r> {
    /// The budget of this evaluation.
    pub(crate) meter: Meter,
    program: &'r Program,
    contexts: &'r [&'r Object],
    slots: Vec<Value>,
    bases: Vec<usize>,
}

/// A function a built-in may call back: an arrow written as its callback, or a one-argument
/// global standing in for one (`rows.filter(Boolean)`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Callback<'r> {
    /// A written arrow.
    Lambda(&'r Lambda),
    /// A callable global, called with the first argument alone.
    Global(Global),
}

impl Callback<'_> {
    /// How many of the arguments a built-in offers the callback actually reads, so that a
    /// built-in need not build the rest.
    pub(crate) fn arity(&self) -> usize {
        match self {
            Callback::Lambda(lambda) => lambda.params.len(),
            Callback::Global(_) => 1,
        }
    }
}

/// The evaluated arguments of a built-in call.
pub(crate) struct Args<'a, 'r> {
    /// The argument values in order, spread arguments expanded. The callback's position
    /// holds `undefined` when [`Args::callback`] is set.
    pub(crate) values: &'a [Value],
    /// The callback, when one was written where the built-in takes it.
    pub(crate) callback: Option<Callback<'r>>,
    /// The built-in's name, for messages (`map`, `Math.max`).
    pub(crate) name: &'static str,
}

impl<'r> Args<'_, 'r> {
    /// How many arguments were passed (a missing argument is not `undefined` for every
    /// built-in: `toSpliced` tells them apart).
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// Argument `index`, or `undefined` when it was not passed.
    pub(crate) fn get(&self, index: usize) -> &Value {
        self.values.get(index).unwrap_or(&Value::Undefined)
    }

    /// The callback, or the error JavaScript raises when the argument is not a function.
    pub(crate) fn callback(&self, index: usize) -> Result<Callback<'r>> {
        match self.callback {
            Some(callback) => Ok(callback),
            None => Err(Error::runtime(format!(
                "{} is not a function: \"{}\" takes a callback, as in rows.{}(r => …)",
                crate::coerce::describe(self.get(index)),
                self.name,
                self.name
            ))),
        }
    }
}

impl<'r> Cx<'r> {
    /// Starts an evaluation of `program` over `contexts` (searched last to first).
    pub(crate) fn new(meter: Meter, program: &'r Program, contexts: &'r [&'r Object]) -> Cx<'r> {
        Cx { meter, program, contexts, slots: Vec::new(), bases: Vec::new() }
    }

    /// Charges `n` steps.
    #[inline]
    pub(crate) fn steps(&mut self, n: u64) -> Result<()> {
        self.meter.steps(n).map_err(Error::from)
    }

    /// Charges reading `len` characters: a step per 16.
    #[inline]
    pub(crate) fn text(&mut self, len: usize) -> Result<()> {
        self.steps(len.div_ceil(CHARS_PER_STEP) as u64)
    }

    /// Charges building a string of `len` characters, before it is built: the string cap, the
    /// total allocation, and `1 + len/16` steps.
    #[inline]
    pub(crate) fn string(&mut self, len: usize) -> Result<()> {
        self.meter.charge_string(len)?;
        self.steps(1 + len.div_ceil(CHARS_PER_STEP) as u64)
    }

    /// Charges building an array of `len` items, before it is built: the array cap, the total
    /// allocation, and `1 + len` steps.
    #[inline]
    pub(crate) fn array(&mut self, len: usize) -> Result<()> {
        self.meter.charge_array(len)?;
        self.steps(1 + len as u64)
    }

    /// Reads the clock now: after building something expensive, such as a locale formatter.
    pub(crate) fn check_clock(&mut self) -> Result<()> {
        self.meter.check_clock().map_err(Error::from)
    }

    /// Calls `callback` with `args` (extra arguments are ignored, missing ones are
    /// `undefined`), charging the arrow's node count.
    pub(crate) fn call(&mut self, callback: Callback<'r>, args: &[Value]) -> Result<Value> {
        let _ = (callback, args, self.program, self.contexts, &self.slots, &self.bases);
        Err(Error::guardrail("callbacks are not wired yet"))
    }

    /// Calls `callback` as an array method does: `(item, index, array)`, building only the
    /// arguments the callback reads.
    pub(crate) fn call_item(&mut self, callback: Callback<'r>, item: &Value, index: usize, array: &Value) -> Result<Value> {
        match callback.arity() {
            0 => self.call(callback, &[]),
            1 => self.call(callback, std::slice::from_ref(item)),
            2 => self.call(callback, &[item.clone(), Value::Number(index as f64)]),
            _ => self.call(callback, &[item.clone(), Value::Number(index as f64), array.clone()]),
        }
    }
}
