//! Edition 2024 merges a crate's doctests into one binary, which runs each
//! in a child process of its own: the child's stacks show the doctest's
//! index among the merged ones, sorted by name (`__doctest_0` is
//! `alpha`'s, declared last), not its file and line.

/// Passes.
///
/// ```
/// assert_eq!(rustmain2024::zeta(), 1);
/// ```
pub fn zeta() -> i32 {
    1
}

/// Locks twice.
///
/// ```
/// let m = std::sync::Mutex::new(1);
/// let _a = m.lock().unwrap();
/// let _b = m.lock().unwrap();
/// ```
pub fn alpha() {}
