//! Analyses (being written).
