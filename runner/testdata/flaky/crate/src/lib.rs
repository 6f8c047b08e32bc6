//! A fixture for strobe's retries: one test fails on its first run and
//! passes on the next, one always fails, one always passes. Runs are
//! counted in files under $FLAKY_DIR, which the test sets.

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Counts this test's runs in a file, and returns how many ran before.
    fn runs(name: &str) -> u32 {
        let path = Path::new(&std::env::var("FLAKY_DIR").expect("FLAKY_DIR")).join(name);
        let n: u32 = std::fs::read_to_string(&path).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
        std::fs::write(&path, (n + 1).to_string()).expect("counting runs");
        n
    }

    #[test]
    fn flaky() {
        assert_ne!(runs("flaky"), 0, "first run fails");
    }

    #[test]
    fn always_fails() {
        runs("always_fails");
        panic!("always fails");
    }

    #[test]
    fn passes() {
        runs("passes");
    }
}
