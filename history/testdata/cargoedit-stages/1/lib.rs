//! The history fixture's crate; its whole source is swapped between runs
//! (testdata/cargoedit-stages), so tests come, go, fail and get fixed.

pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_keeps_failing() {
        let x = Box::new(1);
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        assert_eq!(add(2, 2), 5, "state {:p} at {}", x, t);
    }

    #[test]
    fn a_breaks() {}

    #[test]
    fn c_gets_fixed() {
        panic!("not yet");
    }

    #[test]
    fn d_goes_away() {}
}
