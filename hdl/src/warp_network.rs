//! warp_network (being written).
