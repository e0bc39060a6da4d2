//! Exporters: pure functions from a finished result to text. None of them
//! measures, launches or prints; the caller decides where the text goes.

pub mod table;
