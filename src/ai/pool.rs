//! Helper threads for root-parallel search. Each helper makes its card host
//! once, from the factory, and keeps it for every later search: a host need
//! not be `Send` (the Lua one is not), and loading scripts per move would cost.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use super::mcts::{HostFactory, Job, ThreadResult};

/// One search for a helper: run `iterations` of `job` from `seed`, then send
/// `(index, result)` on `reply`.
pub(super) struct Task {
    pub job: Arc<Job>,
    pub seed: u64,
    pub iterations: u32,
    pub deadline: Option<Instant>,
    pub index: usize,
    pub reply: Sender<(usize, ThreadResult)>,
}

/// Helper threads, started on first use. Dropping the pool closes the task
/// channels, and each helper ends after its current task.
pub(super) struct Pool {
    factory: HostFactory,
    helpers: Vec<Sender<Task>>,
}

impl Pool {
    pub fn new(factory: HostFactory) -> Pool {
        Pool { factory, helpers: Vec::new() }
    }

    pub fn factory(&self) -> HostFactory {
        Arc::clone(&self.factory)
    }

    /// Hands `task` to helper `i`, starting or restarting it if needed.
    /// Returns false if no helper could take it (the caller goes without).
    pub fn submit(&mut self, i: usize, task: Task) -> bool {
        while self.helpers.len() <= i {
            match spawn(self.factory.clone()) {
                Some(helper) => self.helpers.push(helper),
                None => return false,
            }
        }
        match self.helpers[i].send(task) {
            Ok(()) => true,
            // The helper died (its host panicked): start a new one and retry once.
            Err(failed) => match spawn(self.factory.clone()) {
                Some(helper) => {
                    self.helpers[i] = helper;
                    self.helpers[i].send(failed.0).is_ok()
                }
                None => false,
            },
        }
    }
}

fn spawn(factory: HostFactory) -> Option<Sender<Task>> {
    let (sender, receiver): (Sender<Task>, Receiver<Task>) = channel();
    std::thread::Builder::new()
        .name("ismcts-helper".into())
        .spawn(move || {
            let host = factory();
            for task in receiver {
                let result = task.job.run(&*host, task.seed, task.iterations, task.deadline);
                // The searcher may have given up waiting; nothing to do then.
                let _ = task.reply.send((task.index, result));
            }
        })
        .ok()?;
    Some(sender)
}
