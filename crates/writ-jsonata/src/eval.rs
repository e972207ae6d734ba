//! The evaluator: walks the tree over [`Val`]s, charging a [`Meter`].

use std::cell::RefCell;
use std::rc::Rc;

use writ_core::{Meter, Str, Value};

use crate::Options;
use crate::ast::Node;
use crate::error::{Error, Result};
use crate::function::Function;
use crate::value::Val;

/// A scope: variable bindings and the scope it sits in.
#[derive(Clone)]
pub(crate) struct Env(Rc<Frame>);

pub(crate) struct Frame {
    bindings: RefCell<Vec<(Str, Val)>>,
    parent: Option<Env>,
}

impl Env {
    /// A scope with no bindings inside `parent`.
    pub(crate) fn child(parent: Option<&Env>) -> Env {
        Env(Rc::new(Frame { bindings: RefCell::new(Vec::new()), parent: parent.cloned() }))
    }

    /// Binds `name` in this scope (replacing an earlier binding of it here).
    pub(crate) fn bind(&self, name: Str, value: Val) {
        let mut bindings = self.0.bindings.borrow_mut();
        match bindings.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = value,
            None => bindings.push((name, value)),
        }
    }

    /// The value of `name` here or in an enclosing scope.
    pub(crate) fn lookup(&self, name: &Str) -> Option<Val> {
        let mut frame = &self.0;
        loop {
            if let Some((_, value)) = frame.bindings.borrow().iter().rev().find(|(k, _)| k == name) {
                return Some(value.clone());
            }
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }
}

/// What an evaluation carries: its meter, its host, and what a built-in needs to know about
/// the call it serves.
pub(crate) struct Cx<'a> {
    meter: Meter,
    options: &'a Options,
    now: Option<f64>,
    /// The context item of the current call (`$` where the built-in was called).
    pub(crate) input: Val,
    /// The scope the current call was made in (`$eval` evaluates there).
    pub(crate) env: Env,
    /// Where the current call is, for errors.
    pub(crate) position: usize,
}

impl<'a> Cx<'a> {
    /// Charges one step.
    pub(crate) fn step(&mut self) -> Result<()> {
        self.meter.step().map_err(|e| Error::from(e).at(self.position))
    }

    /// Charges `n` steps: a built-in's work over `n` items or characters, charged before it runs.
    pub(crate) fn steps(&mut self, n: u64) -> Result<()> {
        self.meter.steps(n).map_err(|e| Error::from(e).at(self.position))
    }

    /// Charges building a string of `len` code units.
    pub(crate) fn charge_string(&mut self, len: usize) -> Result<()> {
        self.meter.charge_string(len).map_err(|e| Error::from(e).at(self.position))
    }

    /// Charges building a sequence or array of `len` items (D2015 past the sequence limit).
    pub(crate) fn charge_array(&mut self, len: usize) -> Result<()> {
        self.meter.charge_array(len).map_err(|e| Error::from(e).at(self.position))
    }

    /// Milliseconds since the epoch from the host, the same for the whole evaluation.
    pub(crate) fn now_millis(&mut self) -> f64 {
        *self.now.get_or_insert_with(|| self.options.host.now_millis())
    }

    /// A random number in `[0, 1)` from the host.
    pub(crate) fn random(&mut self) -> f64 {
        self.options.host.random()
    }

    /// Calls `function` with `args` (as a higher-order built-in calls its function argument).
    pub(crate) fn apply(&mut self, function: &Val, args: &[Val]) -> Result<Val> {
        let _ = (function, args);
        todo!()
    }

    /// Evaluates `source` over `input` in the caller's scope, under this evaluation's budget
    /// (`$eval`).
    pub(crate) fn eval_source(&mut self, source: &str, input: Val) -> Result<Val> {
        let _ = (source, input);
        todo!()
    }
}

/// Evaluates `root` over `input`: the entry point behind [`crate::Expression::evaluate`].
pub(crate) fn evaluate_root(root: &Node, input: &Value, options: &Options, meter: Meter) -> Result<Value> {
    let _ = (root, input, options, meter, Function::arity);
    todo!()
}
