//! Knuth's GB_FLIP portable random number generator (placeholder, filled in by the dlx3 work).
