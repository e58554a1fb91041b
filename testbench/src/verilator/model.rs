//! A loaded Verilator model: the shared library built by [`super::builder`], driven through the
//! shim's `extern "C"` functions.

use super::builder::{Built, SHIM_ABI};
use super::Port;
use libloading::Library;
use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type EvalFn = unsafe extern "C" fn(*mut c_void);
type SetFn = unsafe extern "C" fn(*mut c_void, c_int, *const u32);
type GetFn = unsafe extern "C" fn(*mut c_void, c_int, *mut u32);
type TraceOpenFn = unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int;
type TraceDumpFn = unsafe extern "C" fn(*mut c_void, u64);
type TraceFlushFn = unsafe extern "C" fn(*mut c_void);
type IntFn = unsafe extern "C" fn() -> c_int;

/// One instance of a Verilated design. Ports are addressed by their index in [`Model::ports`].
pub struct Model {
    handle: *mut c_void,
    new: NewFn,
    eval: EvalFn,
    set: SetFn,
    get: GetFn,
    free: FreeFn,
    trace_open: TraceOpenFn,
    trace_dump: TraceDumpFn,
    trace_flush: TraceFlushFn,
    ports: Vec<Port>,
    traced: bool,
    // Dropped last: the function pointers above point into it.
    _lib: Library,
}

// The model is owned by one thread at a time; Verilator models are not shared between threads
// here, only moved.
unsafe impl Send for Model {}

impl Model {
    /// Load a built model and create one instance of it.
    pub fn load(built: &Built) -> Result<Model, String> {
        Self::load_path(&built.library, &built.ports)
    }

    /// Load `library` (a shim built for `ports`).
    pub fn load_path(library: &Path, ports: &[Port]) -> Result<Model, String> {
        let err = |e: libloading::Error| format!("{}: {e}", library.display());
        // SAFETY: the library is one we generated; its symbols have the types declared above
        // (checked by the ABI number and the port table below).
        unsafe {
            let lib = Library::new(library).map_err(err)?;
            let abi: IntFn = *lib.get::<IntFn>(b"smsync_abi\0").map_err(err)?;
            if abi() != SHIM_ABI as c_int {
                return Err(format!("{}: shim ABI {} but this crate expects {SHIM_ABI}", library.display(), abi()));
            }
            let count: IntFn = *lib.get::<IntFn>(b"smsync_port_count\0").map_err(err)?;
            if count() as usize != ports.len() {
                return Err(format!("{}: library has {} ports, expected {}", library.display(), count(), ports.len()));
            }
            let traced: IntFn = *lib.get::<IntFn>(b"smsync_traced\0").map_err(err)?;
            let new: NewFn = *lib.get::<NewFn>(b"smsync_new\0").map_err(err)?;
            let model = Model {
                handle: new(),
                new,
                eval: *lib.get(b"smsync_eval\0").map_err(err)?,
                set: *lib.get(b"smsync_set\0").map_err(err)?,
                get: *lib.get(b"smsync_get\0").map_err(err)?,
                free: *lib.get(b"smsync_free\0").map_err(err)?,
                trace_open: *lib.get(b"smsync_trace_open\0").map_err(err)?,
                trace_dump: *lib.get(b"smsync_trace_dump\0").map_err(err)?,
                trace_flush: *lib.get(b"smsync_trace_flush\0").map_err(err)?,
                ports: ports.to_vec(),
                traced: traced() != 0,
                _lib: lib,
            };
            Ok(model)
        }
    }

    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Replace the instance by a new one of the same library: every register and memory back
    /// at its initial value, every input 0, as after [`Model::load`] (a power cycle, not a
    /// reset: the design's reset keeps what its RTL keeps, e.g. RAM contents). An open trace
    /// ends with the old instance.
    pub fn renew(&mut self) {
        // SAFETY: `handle` came from `new` of this library and is not used after `free`.
        unsafe {
            (self.free)(self.handle);
            self.handle = (self.new)();
        }
    }

    /// Words (32 bits each) that port `index` occupies.
    pub fn words(&self, index: usize) -> usize {
        self.ports[index].width.div_ceil(32)
    }

    /// Drive input port `index`. `value` is least-significant word first; missing words are zero,
    /// extra words and bits above the port width are ignored.
    pub fn set(&mut self, index: usize, value: &[u32]) {
        assert!(index < self.ports.len(), "port index {index} out of range");
        let words = self.words(index);
        if value.len() >= words {
            // SAFETY: `value` has at least as many words as the shim reads for this port.
            unsafe { (self.set)(self.handle, index as c_int, value.as_ptr()) }
            return;
        }
        // Zero-extend (on the stack for ports up to 1024 bits: no allocation in hot loops).
        let mut small = [0u32; 32];
        let mut big = Vec::new();
        let buf: &mut [u32] = if words <= small.len() {
            &mut small[..words]
        } else {
            big.resize(words, 0);
            &mut big
        };
        buf[..value.len()].copy_from_slice(value);
        // SAFETY: `buf` has as many words as the shim reads for this port.
        unsafe { (self.set)(self.handle, index as c_int, buf.as_ptr()) }
    }

    /// Read port `index` into `out` (which must hold at least [`Model::words`] words); no
    /// allocation, for hot loops.
    pub fn get_into(&self, index: usize, out: &mut [u32]) {
        assert!(index < self.ports.len(), "port index {index} out of range");
        assert!(out.len() >= self.words(index), "buffer of {} words for a {}-word port", out.len(), self.words(index));
        // SAFETY: `out` has at least as many words as the shim writes for this port.
        unsafe { (self.get)(self.handle, index as c_int, out.as_mut_ptr()) }
    }

    /// Read port `index` (inputs read back what was driven), least-significant word first.
    pub fn get(&self, index: usize) -> Vec<u32> {
        assert!(index < self.ports.len(), "port index {index} out of range");
        let mut buf = vec![0u32; self.words(index)];
        // SAFETY: `buf` has as many words as the shim writes for this port.
        unsafe { (self.get)(self.handle, index as c_int, buf.as_mut_ptr()) }
        buf
    }

    /// Settle the design (Verilator `eval`).
    pub fn eval(&mut self) {
        unsafe { (self.eval)(self.handle) }
    }

    /// Whether the library was built with `--trace`.
    pub fn traced(&self) -> bool {
        self.traced
    }

    /// Start writing a VCD to `path`. Fails if the model was built without tracing.
    pub fn trace_to(&mut self, path: &Path) -> Result<(), String> {
        if !self.traced {
            return Err("this model was built without tracing (BuildOptions { trace: true, .. })".into());
        }
        let c = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
        unsafe { (self.trace_open)(self.handle, c.as_ptr()) };
        Ok(())
    }

    /// Record the current values at `time` (no-op without an open trace).
    pub fn trace_dump(&mut self, time: u64) {
        unsafe { (self.trace_dump)(self.handle, time) }
    }

    pub fn trace_flush(&mut self) {
        unsafe { (self.trace_flush)(self.handle) }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        unsafe { (self.free)(self.handle) }
    }
}
