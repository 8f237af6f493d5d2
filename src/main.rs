//! The `alien-checkers` command: play, check and test content, count and measure.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
