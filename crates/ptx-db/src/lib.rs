//! Salsa database (being written).
