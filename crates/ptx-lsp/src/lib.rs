//! `ptx-lsp`: the language server of ptxopt — the only crate that speaks LSP.
//!
//! The shape is rust-analyzer's: [`run`] does the `initialize` handshake and
//! then one main thread owns the [`ptx_ide::AnalysisHost`] (the salsa
//! database) and the open documents, and loops over two crossbeam channels —
//! messages from the client and results from a small pool of worker threads.
//! Each request's params are parsed on the main thread; it runs on a worker
//! against a database snapshot ([`ptx_ide::Analysis`]), converting positions
//! with that snapshot's line index.
//!
//! Cancellation: an edit (`didChange`, text sync is incremental) sets the
//! file's text, which cancels every query running on a snapshot (salsa unwinds
//! them with `Cancelled::PendingWrite`; the request is answered with
//! `ContentModified`). `$/cancelRequest` cancels only that request's snapshot
//! through its `CancellationToken` (`RequestCanceled`).
//!
//! Robustness: positions are UTF-16 columns (LSP's default encoding),
//! converted by the file's line index. A `didChange` position out of range is
//! clamped, as clients expect: a negative line or column to 0, a column past
//! its line's end to the end of the line, a line past the last to the end of
//! the text. A notification that still cannot be read is logged (stderr and
//! `window/logMessage`) and dropped; the server keeps serving.
//!
//! Diagnostics are pushed (`textDocument/publishDiagnostics`) after every open
//! and change, computed on a worker; closing a document clears them.
//!
//! Settings (`initializationOptions`, or `workspace/didChangeConfiguration`
//! with the same object, optionally under a `"ptxopt"` key):
//! `{ "target": "sm_90", "knobs": { "NAME": value } }`.

// `lsp_types::Uri` caches its parsed parts behind interior mutability; it is
// still hashed by its text, and LSP's own types key maps by it.
#![allow(clippy::mutable_key_type)]

mod config;
mod convert;
mod handlers;
mod main_loop;

use std::error::Error;

use lsp_server::Connection;

/// What can stop the server.
pub type ServerError = Box<dyn Error + Send + Sync>;

/// Runs the server over stdin/stdout until the client says `exit`.
pub fn run_stdio() -> Result<(), ServerError> {
    let (connection, io_threads) = Connection::stdio();
    run(connection)?;
    io_threads.join()?;
    Ok(())
}

/// Runs the server on a connection (stdio, a socket, or
/// `Connection::memory()` in tests) until `shutdown` and `exit`.
pub fn run(connection: Connection) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: lsp_types::InitializeParams = serde_json::from_value(params)?;
    let result = lsp_types::InitializeResult {
        capabilities: main_loop::capabilities(),
        server_info: Some(lsp_types::ServerInfo {
            name: "ptxopt".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    main_loop::main_loop(connection, params)
}
