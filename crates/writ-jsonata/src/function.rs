//! Function values: lambdas with their closures, built-ins, partial applications, regular
//! expressions and compositions made by `~>`.

use std::rc::Rc;
use std::sync::Arc;

use crate::ast::{Lambda, Transform};
use crate::eval::Env;
use crate::functions::Builtin;
use crate::regex::Pattern;
use crate::value::Val;

/// A function value.
pub(crate) enum Function {
    /// A lambda and what it closed over: the environment and the context it was defined in.
    Lambda { lambda: Arc<Lambda>, env: Env, input: Val },
    /// A built-in function.
    Builtin(&'static Builtin),
    /// A partial application: `function` with `args`, where `None` is a `?` still to fill.
    Partial {
        function: Rc<Function>,
        args: Vec<Option<Val>>,
    },
    /// A regular expression: called on a string, it gives its first match.
    Regex(Arc<Pattern>),
    /// `f ~> g` with two functions: `g(f(x))`.
    Chain(Rc<Function>, Rc<Function>),
    /// A transform `| pattern | update, delete |` and the scope it was made in.
    Transform {
        transform: Arc<Transform>,
        env: Env,
        position: usize,
    },
}

impl Function {
    /// How many arguments the function declares (for `$map` and friends, which pass the index
    /// and the array only to functions that take them).
    pub(crate) fn arity(&self) -> usize {
        match self {
            Function::Lambda { lambda, .. } => lambda.params.len(),
            Function::Builtin(builtin) => builtin.arity(),
            Function::Partial { args, .. } => args.iter().filter(|arg| arg.is_none()).count(),
            Function::Regex(_) => 1,
            Function::Chain(first, _) => first.arity(),
            Function::Transform { .. } => 1,
        }
    }
}
