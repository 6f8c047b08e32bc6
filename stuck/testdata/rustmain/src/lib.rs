//! Tests that run on their process's main thread, the only one: a doctest
//! (rustdoc builds each into a program of its own under edition 2021) and
//! a custom harness (tests/hangs.rs). Each locks a mutex it already holds.

/// Locks twice.
///
/// ```
/// let m = std::sync::Mutex::new(1);
/// let _a = m.lock().unwrap();
/// let _b = m.lock().unwrap();
/// ```
pub fn relock() {}
