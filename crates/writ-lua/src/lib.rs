//! writ-lua: sandboxed Lua for seed 000's lua cell.
#![deny(missing_docs)]
