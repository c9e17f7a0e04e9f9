//! Checks beyond syntax.
