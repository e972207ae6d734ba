//! Function application: calls (JSONata's `evaluateFunction`), `apply` with its tail-call loop
//! over thunks, lambdas, built-ins with their signatures checked, partial application (`?`),
//! regexes as functions, `~>` and the compositions it makes.
//!
//! The one place a function value is entered, so the context a built-in sees (`Cx::input`,
//! `Cx::env`, `Cx::position`) is saved and restored here and nowhere else.

use std::rc::Rc;

use super::{Cx, Env, describe};
use crate::ast::{Call, Kind, Node};
use crate::error::{Code, Error, Result};
use crate::function::Function;
use crate::functions::{self, Builtin};
use crate::signature::Signature;
use crate::value::Val;

impl Cx<'_> {
    /// Calls `function` with `args` (as a higher-order built-in calls its function argument).
    pub(crate) fn apply(&mut self, function: &Val, args: &[Val]) -> Result<Val> {
        let input = self.input.clone();
        let env = self.env.clone();
        let position = self.position;
        // jsonata-js calls a function argument with a null context.
        let result = self.apply_function(function, args.to_vec(), &Val::Null, &env);
        self.input = input;
        self.env = env;
        self.position = position;
        result
    }

    /// A call: JSONata's `evaluateFunction`; `applied` is the left side of `~>`, the first
    /// argument.
    pub(super) fn call(
        &mut self,
        node: &Node,
        call: &Call,
        applied: Option<Val>,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        if let Some((builtin, signature)) = call.builtin
            && let Kind::Variable(name) = &call.procedure.kind
            && call.procedure.predicate.is_empty()
            && call.procedure.group.is_none()
            && !call.procedure.keep_array
            && env.lookup(name).is_none()
        {
            // A built-in called by its name: no function value is made for it.
            self.meter
                .step()
                .map_err(|e| Error::from(e).at(call.procedure.position))?;
            let args = self.arguments(call, applied, input, env)?;
            self.position = node.position;
            let result = self
                .apply_builtin(builtin, signature, args, input, env)
                .and_then(|result| self.run_thunks(result, input, env));
            return result.map_err(|error| {
                error
                    .at(node.position)
                    .token_unless_named(|| Some(builtin.name.to_string()))
            });
        }
        let procedure = self.eval(&call.procedure, input, env)?;
        if procedure.is_undefined()
            && let Kind::Path(steps) = &call.procedure.kind
            && let Some(Kind::Name(first)) = steps.first().map(|s| &s.kind)
            && (env.lookup(first.key()).is_some() || first.key().as_ascii_str().and_then(functions::lookup).is_some())
        {
            return Err(Error::new(Code::T1005)
                .at(node.position)
                .with_token(first.key().to_string_lossy()));
        }
        let args = self.arguments(call, applied, input, env)?;
        self.position = node.position;
        self.apply_function(&procedure, args, input, env).map_err(|error| {
            error
                .at(node.position)
                .token_unless_named(|| procedure_name(&call.procedure))
        })
    }

    /// A call's arguments, evaluated in order after the left side of `~>`, if any.
    fn arguments(&mut self, call: &Call, applied: Option<Val>, input: &Val, env: &Env) -> Result<Vec<Val>> {
        let mut args = Vec::with_capacity(call.args.len() + 1);
        if let Some(applied) = applied {
            args.push(applied);
        }
        for arg in &call.args {
            args.push(self.eval(arg, input, env)?);
        }
        Ok(args)
    }

    /// Calls a function value, running tail calls in a loop (JSONata's `apply`).
    pub(super) fn apply_function(&mut self, procedure: &Val, args: Vec<Val>, input: &Val, env: &Env) -> Result<Val> {
        let result = self.apply_once(procedure, args, input, env, true)?;
        self.run_thunks(result, input, env)
    }

    /// Runs the tail call a call's result stands for, and the one that stands for, and so on,
    /// in a loop rather than by recursion.
    fn run_thunks(&mut self, mut result: Val, input: &Val, env: &Env) -> Result<Val> {
        loop {
            let Val::Function(function) = &result else {
                return Ok(result);
            };
            let Function::Lambda {
                lambda,
                env: thunk_env,
                input: thunk_input,
            } = function.as_ref()
            else {
                return Ok(result);
            };
            if !lambda.thunk {
                return Ok(result);
            }
            if !matches!(lambda.body.kind, Kind::Call(_)) {
                return Ok(result);
            }
            let (lambda, thunk_env, thunk_input) = (lambda.clone(), thunk_env.clone(), thunk_input.clone());
            let Kind::Call(call) = &lambda.body.kind else {
                return Ok(result);
            };
            let next = self.eval(&call.procedure, &thunk_input, &thunk_env)?;
            let mut next_args = Vec::with_capacity(call.args.len());
            for arg in &call.args {
                next_args.push(self.eval(arg, &thunk_input, &thunk_env)?);
            }
            let position = lambda.body.position;
            result = self.apply_once(&next, next_args, input, env, true).map_err(|error| {
                error
                    .token_unless_named(|| procedure_name(&call.procedure))
                    .at(position)
            })?;
        }
    }

    /// One call without the tail-call loop (JSONata's `applyInner`); `checked` runs the
    /// signature.
    fn apply_once(&mut self, procedure: &Val, args: Vec<Val>, input: &Val, env: &Env, checked: bool) -> Result<Val> {
        let Val::Function(function) = procedure else {
            return Err(Error::new(Code::T1006));
        };
        match function.as_ref() {
            Function::Lambda {
                lambda,
                env: closure,
                input: closure_input,
            } => {
                let args = match (&lambda.signature, checked) {
                    (Some(signature), true) => signature.validate(args, input, "lambda")?,
                    _ => args,
                };
                let frame = Env::child_with_room(Some(closure), lambda.params.len());
                let mut args = args.into_iter();
                for param in &lambda.params {
                    frame.bind(param.clone(), args.next().unwrap_or_default());
                }
                self.eval(&lambda.body, closure_input, &frame)
            }
            Function::Builtin(builtin) if checked => {
                self.apply_builtin(builtin, builtin.parsed_signature(), args, input, env)
            }
            Function::Builtin(builtin) => self.run_builtin(builtin, &args, input, env),
            Function::Partial { function, args: bound } => {
                let mut given = args.into_iter();
                let full: Vec<Val> = bound
                    .iter()
                    .map(|arg| arg.clone().unwrap_or_else(|| given.next().unwrap_or_default()))
                    .collect();
                let target = Val::Function(function.clone());
                // jsonata-js drops a lambda's signature when it partially applies it; a
                // built-in keeps its checks, which its implementation relies on.
                let checked = matches!(function.as_ref(), Function::Builtin(_));
                self.apply_once(&target, full, input, env, checked)
            }
            Function::Regex(pattern) => crate::regex::apply_regex(self, pattern, &args),
            Function::Chain(first, second) => {
                let first_arg = args.into_iter().next().unwrap_or_default();
                let value = self.apply_function(&Val::Function(first.clone()), vec![first_arg], input, env)?;
                self.apply_function(&Val::Function(second.clone()), vec![value], input, env)
            }
            Function::Transform {
                transform,
                env: closure,
                position,
            } => {
                let args = functions::transform_signature().validate(args, input, "transform")?;
                let (transform, closure, position) = (transform.clone(), closure.clone(), *position);
                self.transform(
                    &transform,
                    args.into_iter().next().unwrap_or_default(),
                    &closure,
                    position,
                )
            }
        }
    }

    /// Calls a built-in with its arguments checked against its signature.
    fn apply_builtin(
        &mut self,
        builtin: &'static Builtin,
        signature: &Signature,
        args: Vec<Val>,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        let args = signature.validate(args, input, builtin.name)?;
        self.run_builtin(builtin, &args, input, env)
    }

    /// Runs a built-in on checked arguments, with the call's context and scope at hand.
    fn run_builtin(&mut self, builtin: &'static Builtin, args: &[Val], input: &Val, env: &Env) -> Result<Val> {
        let saved_input = std::mem::replace(&mut self.input, input.clone());
        let saved_env = std::mem::replace(&mut self.env, env.clone());
        let result = (builtin.imp)(self, args);
        self.input = saved_input;
        self.env = saved_env;
        result
    }

    pub(super) fn partial(&mut self, node: &Node, call: &Call, input: &Val, env: &Env) -> Result<Val> {
        let mut args = Vec::with_capacity(call.args.len());
        for arg in &call.args {
            args.push(match arg.kind {
                Kind::Placeholder => None,
                _ => Some(self.eval(arg, input, env)?),
            });
        }
        let procedure = self.eval(&call.procedure, input, env)?;
        let name = procedure_name(&call.procedure).unwrap_or_default();
        if procedure.is_undefined()
            && let Kind::Path(steps) = &call.procedure.kind
            && let Some(Kind::Name(first)) = steps.first().map(|s| &s.kind)
            && (env.lookup(first.key()).is_some() || first.key().as_ascii_str().and_then(functions::lookup).is_some())
        {
            return Err(Error::new(Code::T1007)
                .at(node.position)
                .with_token(first.key().to_string_lossy()));
        }
        let Val::Function(function) = procedure else {
            return Err(Error::new(Code::T1008).at(node.position).with_token(name));
        };
        // Parameters past the written arguments are bound to nothing, not left open.
        let arity = function.arity();
        while args.len() < arity {
            args.push(Some(Val::Undefined));
        }
        Ok(Val::Function(Rc::new(Function::Partial { function, args })))
    }

    pub(super) fn apply_operator(
        &mut self,
        node: &Node,
        lhs: &Node,
        rhs: &Node,
        input: &Val,
        env: &Env,
    ) -> Result<Val> {
        let left = self.eval(lhs, input, env)?;
        if let Kind::Call(call) = &rhs.kind {
            return self.call(rhs, call, Some(left), input, env);
        }
        let function = self.eval(rhs, input, env)?;
        let Val::Function(second) = &function else {
            return Err(Error::new(Code::T2006)
                .at(node.position)
                .with_value(describe(&function)));
        };
        if let Val::Function(first) = &left {
            return Ok(Val::Function(Rc::new(Function::Chain(first.clone(), second.clone()))));
        }
        self.position = node.position;
        self.apply_function(&function, vec![left], input, env)
    }
}

fn procedure_name(procedure: &Node) -> Option<String> {
    match &procedure.kind {
        Kind::Path(steps) => match steps.first().map(|s| &s.kind) {
            Some(Kind::Name(name)) => Some(name.key().to_string_lossy().into_owned()),
            _ => None,
        },
        Kind::Variable(name) => Some(name.to_string_lossy().into_owned()),
        _ => None,
    }
}
