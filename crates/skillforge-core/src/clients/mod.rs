//! Each client's whole model, one folder per client.

pub mod codex;
