//! Scopes: the variable bindings an evaluation makes, each scope inside the one it was made in.
//!
//! A scope is shared (closures and tuple-stream items keep theirs alive), so it is its own
//! piece, apart from the walk that makes scopes: everything else only binds and looks up.

use std::cell::RefCell;
use std::rc::Rc;

use writ_core::Str;

use crate::value::{Entries, Val};

/// A scope: variable bindings and the scope it sits in.
#[derive(Clone)]
pub(crate) struct Env(Rc<Frame>);

/// One scope's bindings.
struct Frame {
    bindings: RefCell<Vec<(Str, Val)>>,
    /// A tuple-stream item whose keys are bound here too, shared rather than copied (bindings
    /// made in the scope later take precedence).
    tuple: Option<Rc<Entries>>,
    parent: Option<Env>,
}

impl Drop for Frame {
    /// Closures bind values that hold closures: a chain as long as the evaluation made it,
    /// dropped on heap-grown stack segments.
    fn drop(&mut self) {
        let bindings = std::mem::take(self.bindings.get_mut());
        let tuple = self.tuple.take();
        let parent = self.parent.take();
        if !bindings.is_empty() || tuple.is_some() || parent.is_some() {
            crate::value::drop_deep((bindings, tuple, parent));
        }
    }
}

impl Env {
    /// A scope with no bindings inside `parent`.
    pub(crate) fn child(parent: Option<&Env>) -> Env {
        Env::child_with_room(parent, 0)
    }

    /// A scope inside `parent` with room for `room` bindings (a call's parameters) made at once.
    #[inline]
    pub(super) fn child_with_room(parent: Option<&Env>, room: usize) -> Env {
        Env(Rc::new(Frame {
            bindings: RefCell::new(Vec::with_capacity(room)),
            tuple: None,
            parent: parent.cloned(),
        }))
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
            if let Some((_, value)) = frame.bindings.borrow().iter().find(|(k, _)| k == name) {
                return Some(value.clone());
            }
            if let Some(tuple) = &frame.tuple
                && let Some((_, value)) = tuple.iter().find(|(k, _)| k == name)
            {
                return Some(value.clone());
            }
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }

    /// Runs `read` on the value of `name` where it is bound, here or in an enclosing scope;
    /// `None` when nothing binds it.
    pub(crate) fn with_value<R>(&self, name: &Str, read: impl FnOnce(&Val) -> R) -> Option<R> {
        let mut frame = &self.0;
        loop {
            let bindings = frame.bindings.try_borrow().ok()?;
            if let Some((_, value)) = bindings.iter().find(|(k, _)| k == name) {
                return Some(read(value));
            }
            drop(bindings);
            if let Some(tuple) = &frame.tuple
                && let Some((_, value)) = tuple.iter().find(|(k, _)| k == name)
            {
                return Some(read(value));
            }
            match &frame.parent {
                Some(parent) => frame = &parent.0,
                None => return None,
            }
        }
    }

    /// Unbinds everything bound in this scope, keeping its room for the next bindings.
    #[inline]
    pub(super) fn unbind_all(&self) {
        let mut bindings = self.0.bindings.borrow_mut();
        if !bindings.is_empty() {
            // A closure bound here may hold a chain of scopes as long as the evaluation made it.
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || bindings.clear());
        }
    }

    /// Whether nothing but this handle holds the scope.
    pub(super) fn is_only_holder(&self) -> bool {
        Rc::strong_count(&self.0) == 1
    }

    /// A scope inside this one binding every key of `tuple` (a tuple-stream item).
    pub(super) fn with_tuple(&self, tuple: &Val) -> Env {
        Env(Rc::new(Frame {
            bindings: RefCell::new(Vec::new()),
            tuple: match tuple {
                Val::Record(entries) => Some(entries.clone()),
                _ => None,
            },
            parent: Some(self.clone()),
        }))
    }
}
