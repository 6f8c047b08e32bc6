use std::sync::Mutex;

static LOCK: Mutex<()> = Mutex::new(());

pub fn double(x: u32) -> u32 {
    x * 2
}

/// Locks LOCK twice: a deadlock.
pub fn lock_twice() {
    let _a = LOCK.lock().unwrap();
    let _b = LOCK.lock().unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }

    #[test]
    fn deadlock() {
        lock_twice();
    }
}
