//! Rust tests that hang or pass slowly, for the stuck detector's tests.
//! Each stuck test blocks or spins in a function named for what it does
//! and writes a timestamped marker (to $STROBE_MARK_FILE when set) at the
//! moment it starts to.

use std::sync::Mutex;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub fn marker(what: &str) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    let line = format!("STROBE-MARK {} {}.{:09}\n", what, now.as_secs(), now.subsec_nanos());
    if let Ok(path) = std::env::var("STROBE_MARK_FILE") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = f.write_all(line.as_bytes());
        }
    }
}

#[inline(never)]
pub fn lock_a_then_b(a: &Mutex<()>, b: &Mutex<()>) {
    let _first = a.lock().unwrap();
    thread::sleep(Duration::from_millis(100));
    marker("blocked");
    let _second = b.lock().unwrap();
}

#[inline(never)]
pub fn lock_b_then_a(a: &Mutex<()>, b: &Mutex<()>) {
    let _first = b.lock().unwrap();
    thread::sleep(Duration::from_millis(100));
    let _second = a.lock().unwrap();
}

#[inline(never)]
pub fn spin_forever() -> u64 {
    marker("spinning");
    let mut n: u64 = 1;
    loop {
        n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        std::hint::black_box(n);
    }
}

#[inline(never)]
pub fn sleep_an_hour() {
    marker("sleeping");
    thread::sleep(Duration::from_secs(3600));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn deadlock() {
        let a = Arc::new(Mutex::new(()));
        let b = Arc::new(Mutex::new(()));
        let (a1, b1) = (a.clone(), b.clone());
        let t1 = thread::spawn(move || lock_a_then_b(&a1, &b1));
        let t2 = thread::spawn(move || lock_b_then_a(&a, &b));
        t1.join().unwrap();
        t2.join().unwrap();
    }

    #[test]
    fn busy_loop() {
        spin_forever();
    }

    #[test]
    fn sleeps_past_the_timeout() {
        sleep_an_hour();
    }

    #[test]
    fn sleep_then_pass() {
        thread::sleep(Duration::from_secs(9));
    }

    #[test]
    fn quick() {}
}
