//! The `alien-checkers` command: play, check and test content, count and measure.

mod cli;

use std::process::ExitCode;

/// mimalloc: scripted games allocate many small, short-lived objects (Lua
/// tables, state copies), which it serves faster than the system allocator
/// (ARCHITECTURE.md, "Dependencies"). The library leaves the choice to binaries.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::run()
}
