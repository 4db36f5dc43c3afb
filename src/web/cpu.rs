//! CPU-heavy work (password hashing, map generation) away from the event loop and from the
//! threads that run the database's work.

use crate::game::{GameError, GameResult};
use tokio::sync::Semaphore;

/// Runs each job on a thread of its own, at most `n` at a time: a flood of logins neither
/// takes the database's threads nor memory without bound (each hash takes 19 MiB).
pub struct CpuSlots {
    slots: Semaphore,
}

impl CpuSlots {
    pub fn new(n: usize) -> CpuSlots {
        CpuSlots {
            slots: Semaphore::new(n.max(1)),
        }
    }

    pub async fn run<T, F>(&self, f: F) -> GameResult<T>
    where
        T: Send + 'static,
        F: FnOnce() -> GameResult<T> + Send + 'static,
    {
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|e| GameError::Internal(format!("cpu slots closed: {e}")))?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("grognard-cpu".into())
            .spawn(move || {
                // The request may have gone meanwhile; nobody waits for the answer then.
                let _ = tx.send(f());
            })
            .map_err(|e| GameError::Internal(format!("cpu thread: {e}")))?;
        rx.await
            .map_err(|_| GameError::Internal("cpu task failed".into()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    #[actix_web::test]
    async fn jobs_run_at_most_n_at_a_time_and_a_panic_is_an_error() {
        let cpu = Arc::new(CpuSlots::new(2));
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        // Jobs meet in pairs, so two certainly run at once; then each works long enough that,
        // were the limit not kept, the other jobs would have started meanwhile.
        let pair = Arc::new(Barrier::new(2));
        let jobs: Vec<_> = (0..8)
            .map(|i| {
                let (cpu, now, most, pair) = (cpu.clone(), now.clone(), most.clone(), pair.clone());
                actix_web::rt::spawn(async move {
                    cpu.run(move || {
                        let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(running, Ordering::SeqCst);
                        pair.wait();
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        now.fetch_sub(1, Ordering::SeqCst);
                        Ok(i * 10)
                    })
                    .await
                })
            })
            .collect();
        let mut values = Vec::new();
        for job in jobs {
            values.push(job.await.unwrap().unwrap());
        }
        assert_eq!(values, (0..8).map(|i| i * 10).collect::<Vec<_>>());
        assert_eq!(most.load(Ordering::SeqCst), 2);
        let failed = cpu
            .run(|| -> GameResult<()> { panic!("hash failed") })
            .await;
        assert!(matches!(failed, Err(GameError::Internal(_))), "{failed:?}");
        // The slot of the job that panicked is given back.
        assert_eq!(cpu.run(|| Ok(1)).await.unwrap(), 1);
    }
}
