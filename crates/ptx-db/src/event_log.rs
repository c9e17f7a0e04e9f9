//! A record of which queries executed, for incrementality tests.
//!
//! [`EventLog::new_database`] builds a [`RootDatabase`] whose salsa event
//! callback records every `WillExecute` event. [`EventLog::take`] returns the
//! queries executed since the last call as `query(argument)` strings: the
//! query's name (`ingredient_debug_name`) and, for a query on a file or kernel,
//! the file's name or the kernel's name. Snapshot the list with expect-test to
//! prove what did, and did not, re-run after an edit.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use salsa::plumbing::AsId;
use salsa::{Database, DatabaseKeyIndex, EventKind, Id};

use crate::queries::kernels;
use crate::RootDatabase;

/// The executed-query log of one database (shared by its clones).
#[derive(Clone, Default)]
pub struct EventLog {
    executed: Arc<Mutex<Vec<DatabaseKeyIndex>>>,
}

impl EventLog {
    /// A database that logs into a new log.
    pub fn new_database() -> (RootDatabase, EventLog) {
        let log = EventLog::default();
        let sink = log.executed.clone();
        let db = RootDatabase::with_event_callback(Box::new(move |event| {
            if let EventKind::WillExecute { database_key } = event.kind {
                sink.lock().expect("no poisoned lock").push(database_key);
            }
        }));
        (db, log)
    }

    /// The queries executed since the last call, in execution order, as
    /// `query(argument)`.
    pub fn take(&self, db: &RootDatabase) -> Vec<String> {
        let keys = std::mem::take(&mut *self.executed.lock().expect("no poisoned lock"));
        let names = argument_names(db);
        keys.into_iter()
            .map(|key| {
                let query = db.ingredient_debug_name(key.ingredient_index());
                match names.get(&key.key_index()) {
                    Some(arg) => format!("{query}({arg})"),
                    None => format!("{query}(?)"),
                }
            })
            .collect()
    }
}

/// Names for the ids of files (their file name) and kernels (their name).
/// Reads `kernels` of every file: call it after the queries under test, so it
/// finds them memoized.
fn argument_names(db: &RootDatabase) -> FxHashMap<Id, String> {
    let mut names = FxHashMap::default();
    for file in db.files() {
        let path = file.path(db);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        for (i, chunk) in file.chunks(db).iter().enumerate() {
            names.insert(chunk.as_id(), format!("{name}#{i}"));
        }
        names.insert(file.as_id(), name);
        for kernel in kernels(db, file) {
            names.insert(kernel.as_id(), kernel.name(db).clone());
        }
    }
    names
}
