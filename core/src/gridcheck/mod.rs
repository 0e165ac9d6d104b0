//! Sudoku grid checker (placeholder).
