//! Sandboxed Lua on writ-core's engine seam: a [`Sandbox`] is an [`Engine`], a checked chunk a
//! [`Program`].
//!
//! A chunk's instructions are charged to the caller's [`Meter`] and its time is the meter's;
//! only the memory ceiling, which no meter counts, comes from [`Limits::max_memory_bytes`] (the
//! sandbox's own ceiling when unset).

use std::sync::Arc;

use writ_core::{
    Category, Diagnostic, Engine, ErrorCode, Host, LimitField, LimitName, Limits, Meter, Object, Program, Source,
    Validation, Value,
};

use crate::{Code, Error, Sandbox};

/// The Lua cell's limit names at the JSON edge, as seed 000's `status()` names them.
pub const LIMIT_NAMES: &[LimitName] = &[
    LimitName::count("timeoutMs", LimitField::Milliseconds),
    LimitName::count("instructionLimit", LimitField::Steps),
    LimitName::count("memoryCeilingBytes", LimitField::MemoryBytes),
];

impl ErrorCode for Code {
    fn as_str(self) -> &'static str {
        Code::as_str(self)
    }

    fn category(self) -> Category {
        match self {
            Code::Syntax => Category::Syntax,
            Code::BytecodeRefused => Category::Refused,
            Code::InstructionLimit | Code::Timeout | Code::Memory | Code::Stack => Category::Budget,
            Code::Runtime | Code::Unrepresentable | Code::Sandbox => Category::Runtime,
        }
    }
}

impl From<&Error> for Diagnostic {
    fn from(error: &Error) -> Diagnostic {
        let diagnostic = Diagnostic::of(error.code(), error.message());
        // `lua-runtime` covers what a chunk raises and Luau's own type errors.
        if error.code() == Code::Runtime && error.is_type_error() {
            diagnostic.with_category(Category::Type)
        } else {
            diagnostic
        }
    }
}

impl From<Error> for Diagnostic {
    fn from(error: Error) -> Diagnostic {
        Diagnostic::from(&error)
    }
}

/// A chunk that compiles in the sandbox, ready to run.
#[derive(Clone, Debug)]
struct Chunk {
    sandbox: Sandbox,
    source: Arc<str>,
    memory_ceiling_bytes: usize,
}

impl Program for Chunk {
    fn evaluate(
        &self,
        input: &Value,
        _bindings: &Object,
        meter: &mut Meter,
        _host: &dyn Host,
    ) -> Result<Value, Diagnostic> {
        self.sandbox
            .evaluate_metered(&self.source, input, meter, self.memory_ceiling_bytes)
            .map_err(Diagnostic::from)
    }
}

impl Sandbox {
    /// The chunk for `source`, compiled (and cached) in one of the sandbox's VMs.
    fn chunk(&self, source: Source<'_>, limits: &Limits) -> Result<Chunk, Diagnostic> {
        let source = source.require_text("Lua")?;
        self.check(&source)?;
        let memory_ceiling_bytes = limits
            .max_memory_bytes
            .map_or(self.limits().memory_ceiling_bytes, |bytes| {
                usize::try_from(bytes).unwrap_or(usize::MAX)
            });
        Ok(Chunk {
            sandbox: self.clone(),
            source: Arc::from(source.as_ref()),
            memory_ceiling_bytes,
        })
    }
}

impl Engine for Sandbox {
    fn language(&self) -> &'static str {
        "lua"
    }

    fn limit_names(&self) -> &'static [LimitName] {
        LIMIT_NAMES
    }

    fn default_limits(&self) -> Limits {
        let limits = self.limits();
        Limits {
            steps: Some(limits.instruction_limit),
            time: Some(limits.timeout),
            max_memory_bytes: Some(limits.memory_ceiling_bytes as u64),
            ..Limits::UNLIMITED
        }
    }

    fn compile(&self, source: Source<'_>, limits: &Limits) -> Result<Arc<dyn Program>, Diagnostic> {
        Ok(Arc::new(self.chunk(source, limits)?))
    }

    fn validate(&self, source: Source<'_>, limits: &Limits) -> Result<Validation, Diagnostic> {
        self.chunk(source, limits).map(|_| Validation::default())
    }
}
