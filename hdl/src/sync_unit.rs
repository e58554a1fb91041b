//! The `sync_unit` top: will wire the unit blocks to the request/response ports and shared memory.
//! Not written yet: the unit blocks it wires are still being written (see `docs/parts/rtl-infra.md`).
