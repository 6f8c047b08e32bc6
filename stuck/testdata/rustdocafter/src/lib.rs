//! A doctest that hangs after the unit tests passed: the whole suite runs
//! the unit tests (libtest's JSON, which names each test as it starts),
//! then the doctests (rustdoc's human output, which names one only once
//! it ends).

/// Adds.
///
/// ```
/// assert_eq!(rustdocafter::add(1, 2), 3);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Locks twice.
///
/// ```
/// let m = std::sync::Mutex::new(0);
/// let _a = m.lock().unwrap();
/// let _b = m.lock().unwrap();
/// ```
pub fn hang() {}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(2, 2), 4);
    }
}
