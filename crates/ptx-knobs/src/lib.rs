//! Knob registry (being written).
