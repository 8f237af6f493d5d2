//! Helper threads for root-parallel search. Each helper makes its card host
//! once, from the factory, and keeps it for every later search: a host need
//! not be `Send` (the Lua one is not), and loading scripts per move would cost.
//! The pool knows nothing of search: a task is any work done with a host.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::game::CardHost;

/// Makes a card host for a helper thread (each helper needs its own).
pub type HostFactory = Arc<dyn Fn() -> Box<dyn CardHost> + Send + Sync>;

/// Work for a helper, done with the helper's own host; it sends its result
/// back itself.
pub(super) type Task = Box<dyn FnOnce(&dyn CardHost) + Send>;

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
                task(&*host);
            }
        })
        .ok()?;
    Some(sender)
}
