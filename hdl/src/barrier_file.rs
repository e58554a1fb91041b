//! barrier_file (being written).
