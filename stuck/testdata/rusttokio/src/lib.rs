//! Tokio tests that await forever, for the stuck detector's tests. Each
//! writes a timestamped marker (to $STROBE_MARK_FILE when set) as it
//! starts to wait.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::{oneshot, Notify};

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

/// Awaits a reply whose sender is kept alive and never sends.
pub async fn await_reply(rx: oneshot::Receiver<u32>) -> u32 {
    marker("awaiting");
    rx.await.unwrap_or(0)
}

/// Awaits a notification no one sends.
pub async fn await_notified(n: &Notify) {
    marker("awaiting");
    n.notified().await;
}

/// Takes two std mutexes in opposite orders on two blocking threads.
#[inline(never)]
pub fn lock_a_then_b(a: &Mutex<()>, b: &Mutex<()>) {
    let _first = a.lock().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    marker("blocked");
    let _second = b.lock().unwrap();
}

#[inline(never)]
pub fn lock_b_then_a(a: &Mutex<()>, b: &Mutex<()>) {
    let _first = b.lock().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let _second = a.lock().unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn oneshot_never_sent() {
        let (tx, rx) = oneshot::channel();
        let v = await_reply(rx).await;
        drop(tx);
        assert_eq!(v, 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn notify_never_notified() {
        let n = Notify::new();
        await_notified(&n).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn blocking_deadlock() {
        let a = Arc::new(Mutex::new(()));
        let b = Arc::new(Mutex::new(()));
        let (a1, b1) = (a.clone(), b.clone());
        let t1 = tokio::task::spawn_blocking(move || lock_a_then_b(&a1, &b1));
        let t2 = tokio::task::spawn_blocking(move || lock_b_then_a(&a, &b));
        t1.await.unwrap();
        t2.await.unwrap();
    }

    #[tokio::test]
    async fn quick() {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}
