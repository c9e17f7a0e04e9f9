//! The shared test helpers (see the `ptx-test-support` crate).

#![allow(unused_imports)]

pub use ptx_test_support::*;
