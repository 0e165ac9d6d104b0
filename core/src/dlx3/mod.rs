//! Knuth's DLX3 (placeholder).
