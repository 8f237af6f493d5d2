//! [`ScriptError`]: what the script layer reports when a script fails or a
//! run is refused.

use std::fmt;

/// A script that failed, or a run the engine refused: the message names the
/// card or planet and says why (`card 'water': can_play failed: …`), as it is
/// shown to players and deck designers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScriptError {
    message: String,
}

impl ScriptError {
    pub fn new(message: impl Into<String>) -> ScriptError {
        ScriptError { message: message.into() }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScriptError {}

impl From<String> for ScriptError {
    fn from(message: String) -> ScriptError {
        ScriptError { message }
    }
}

impl From<&str> for ScriptError {
    fn from(message: &str) -> ScriptError {
        ScriptError::new(message)
    }
}

/// The message, for callers that report failures as text.
impl From<ScriptError> for String {
    fn from(e: ScriptError) -> String {
        e.message
    }
}
