//! copy_engine (being written).
