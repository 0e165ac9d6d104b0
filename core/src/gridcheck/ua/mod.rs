//! Unavoidable sets (UA) of a grid (being written).
