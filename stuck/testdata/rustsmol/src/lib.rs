//! smol and async-std tests that await forever, for the stuck detector's tests. Each
//! writes a timestamped marker (to $STROBE_MARK_FILE when set) as it
//! starts to wait.

use std::time::{SystemTime, UNIX_EPOCH};

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

/// Awaits a message whose sender is kept alive and never sends.
pub async fn await_message(rx: smol::channel::Receiver<u32>) -> u32 {
    marker("awaiting");
    rx.recv().await.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // smol::block_on: async-io's block_on, which parks the thread or
    // waits in its reactor.
    #[test]
    fn channel_never_sent() {
        smol::block_on(async {
            let (tx, rx) = smol::channel::bounded(1);
            let v = await_message(rx).await;
            drop(tx);
            assert_eq!(v, 1);
        });
    }

    // futures-lite's block_on, without a reactor: the thread parks.
    #[test]
    fn pending_forever() {
        smol::future::block_on(async {
            marker("awaiting");
            smol::future::pending::<()>().await;
        });
    }

    // A task on an executor that block_on drives.
    #[test]
    fn task_never_done() {
        let ex = smol::Executor::new();
        smol::block_on(ex.run(async {
            let (tx, rx) = smol::channel::bounded::<u32>(1);
            let task = ex.spawn(await_message(rx));
            let v = task.await;
            drop(tx);
            assert_eq!(v, 1);
        }));
    }

    // async-std's block_on: async-global-executor's, on async-io.
    #[test]
    fn async_std_never_sent() {
        async_std::task::block_on(async {
            let (tx, rx) = async_std::channel::bounded::<u32>(1);
            marker("awaiting");
            let v = rx.recv().await.unwrap_or(0);
            drop(tx);
            assert_eq!(v, 1);
        });
    }
}
