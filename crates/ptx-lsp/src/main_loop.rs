//! The main loop: one thread owns the database and the documents and selects
//! over client messages and worker results; requests run on a pool of worker
//! threads, each on its own database snapshot.
//!
//! Work is foreground or background. Foreground: what the user waits for
//! while typing (requests, the problems of a new version, a document's first
//! code lenses). Background: the phase pipeline behind refreshed code lenses
//! and the optimization remarks, which after an edit of a large function
//! costs several times the foreground's work. Background jobs wait until no
//! foreground job is queued or running ([`State::deferred`]), then run on a
//! worker of their own at a lower OS priority (nice +10 on Linux, see
//! [`lower_priority`]), so on a two-core machine the pipeline refresh of one
//! edit no longer takes the core the next keystroke's hints need.

use std::collections::{HashMap, HashSet};
use std::thread;

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use ptx_ide::{AnalysisHost, CancellationToken, Cancelled};

use crate::config::Settings;
use crate::convert;
use crate::handlers;
use crate::ServerError;

pub(crate) fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_lens_provider: Some(lsp::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        rename_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        semantic_tokens_provider: Some(
            lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp::SemanticTokensOptions {
                    legend: lsp::SemanticTokensLegend {
                        token_types: convert::TOKEN_TYPES.to_vec(),
                        token_modifiers: convert::TOKEN_MODIFIERS.to_vec(),
                    },
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    ..Default::default()
                },
            ),
        ),
        ..Default::default()
    }
}

/// An open document (its text is the database's: one copy of a large file,
/// not three).
pub(crate) struct Document {
    pub version: i32,
}

/// What a worker sends back.
enum Task {
    Response(Response),
    /// A request whose snapshot was cancelled.
    Cancelled(RequestId, Cancelled),
    Diagnostics {
        uri: lsp::Uri,
        version: i32,
        diagnostics: Vec<lsp::Diagnostic>,
    },
    /// [`REMARKS_DELAY`] has passed since this version of the document was
    /// set: publish its remarks if it is still the current one.
    RemarksDue {
        uri: lsp::Uri,
        version: i32,
    },
    /// The code lenses of `version` of a document under settings generation
    /// `settings`, computed on a worker: the answer to `reply_to` when a
    /// request waits for them, and the new cache entry.
    Lenses {
        uri: lsp::Uri,
        version: i32,
        settings: u64,
        lenses: Vec<lsp::CodeLens>,
        reply_to: Option<RequestId>,
    },
    /// A lens job found its snapshot cancelled (a newer edit came in).
    LensesCancelled {
        uri: lsp::Uri,
        version: i32,
        settings: u64,
        reply_to: Option<RequestId>,
        why: Cancelled,
    },
    /// A foreground job finished (after the task it sent, if any).
    ForegroundDone,
}

/// Background work waiting for the foreground to finish: what to start, not
/// a job holding a snapshot (a snapshot held while waiting would block the
/// next edit, which waits for every snapshot to be dropped).
enum Deferred {
    /// Refresh the code lenses of this version under this settings generation.
    Lenses {
        uri: lsp::Uri,
        version: i32,
        settings: u64,
    },
    /// Publish the remarks of this version.
    Remarks { uri: lsp::Uri, version: i32 },
}

/// The last code lenses computed for a document: which version and settings
/// generation they belong to. See [`State::on_code_lens`].
struct CachedLenses {
    version: i32,
    settings: u64,
    lenses: Vec<lsp::CodeLens>,
}

/// How long the optimization remarks of a document wait after an edit. They
/// need the phase pipeline of the edited functions, which is far more work
/// than the problems and the hints the user is waiting for while typing, so
/// they are computed once typing pauses (an edit within the delay starts it
/// again), on a worker, and published with the problems as hints.
const REMARKS_DELAY: std::time::Duration = std::time::Duration::from_millis(150);

type Job = Box<dyn FnOnce() + Send>;

struct State {
    sender: Sender<Message>,
    host: AnalysisHost,
    docs: HashMap<lsp::Uri, Document>,
    /// The foreground workers' queue.
    jobs: Sender<Job>,
    /// The background worker's queue.
    background: Sender<Job>,
    /// Foreground jobs sent and not yet finished.
    foreground: usize,
    /// Background work held back while `foreground > 0`.
    deferred: Vec<Deferred>,
    tasks: Sender<Task>,
    /// Requests running on workers, with the token that cancels each.
    in_flight: HashMap<RequestId, CancellationToken>,
    /// Whether the client re-asks for code lenses when told to
    /// (`workspace/codeLens/refresh`): then an edit's lens request is
    /// answered at once from [`State::lenses`] and refreshed when the new
    /// ones are ready (see [`State::on_code_lens`]).
    lens_refresh: bool,
    lenses: HashMap<lsp::Uri, CachedLenses>,
    /// Lens jobs running: (document, version, settings generation).
    lens_jobs: HashSet<(lsp::Uri, i32, u64)>,
    /// Bumped by every settings change (knobs and target change the lenses).
    settings_generation: u64,
    next_server_request: i32,
}

pub(crate) fn main_loop(
    connection: Connection,
    params: lsp::InitializeParams,
) -> Result<(), ServerError> {
    let (job_tx, job_rx) = unbounded::<Job>();
    let (task_tx, task_rx) = unbounded::<Task>();
    let workers = thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let handles: Vec<_> = (0..workers)
        .map(|i| {
            let rx = job_rx.clone();
            thread::Builder::new()
                .name(format!("ptx-lsp-worker-{i}"))
                // The main thread's 8 MiB rather than the default 2 MiB: trees
                // are at most `ptx_syntax::MAX_NESTING` deep, and every walk
                // of one fits 1 MiB (`ptx-db/tests/deep_nesting.rs`); this is
                // headroom.
                .stack_size(8 << 20)
                .spawn(move || {
                    for job in rx {
                        job();
                    }
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    drop(job_rx);
    let (background_tx, background_rx) = unbounded::<Job>();
    let background = thread::Builder::new()
        .name("ptx-lsp-background".to_string())
        .stack_size(8 << 20)
        .spawn(move || {
            lower_priority();
            for job in background_rx {
                job();
            }
        })?;
    let mut state = State {
        sender: connection.sender.clone(),
        host: AnalysisHost::new(),
        docs: HashMap::new(),
        jobs: job_tx,
        background: background_tx,
        foreground: 0,
        deferred: Vec::new(),
        tasks: task_tx,
        in_flight: HashMap::new(),
        lens_refresh: params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        lenses: HashMap::new(),
        lens_jobs: HashSet::new(),
        settings_generation: 0,
        next_server_request: 0,
    };
    if let Some(options) = &params.initialization_options {
        state.apply_settings(&Settings::from_json(options));
    }
    let result = state.run(&connection, &task_rx);
    drop(state);
    for h in handles.into_iter().chain([background]) {
        let _ = h.join();
    }
    result
}

/// Lowers the calling thread's scheduling priority (nice +10): under
/// contention Linux's scheduler then gives a nice-0 thread about nine times
/// its share. Linux keeps a nice value per thread, and `setpriority` with
/// the thread's id sets only that thread's; std has no call for it, hence
/// `libc`. Elsewhere the thread keeps the default priority (the deferral of
/// [`State::deferred`] still applies).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` has no preconditions; `setpriority` only reads its
    // arguments, and a failure (say, a sandbox forbidding it) leaves the
    // priority as it was, which is harmless.
    unsafe {
        let tid = libc::gettid();
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

impl State {
    fn run(&mut self, connection: &Connection, tasks: &Receiver<Task>) -> Result<(), ServerError> {
        loop {
            select! {
                recv(connection.receiver) -> msg => {
                    let Ok(msg) = msg else { return Ok(()) };
                    match msg {
                        Message::Request(req) => {
                            if connection.handle_shutdown(&req)? {
                                return Ok(());
                            }
                            self.on_request(req);
                        }
                        Message::Notification(not) => {
                            if not.method == lsp::notification::Exit::METHOD {
                                return Ok(());
                            }
                            // A malformed notification is logged and dropped:
                            // the server keeps serving.
                            let method = not.method.clone();
                            if let Err(e) = self.on_notification(not) {
                                self.log(&format!("dropped `{method}`: {e}"));
                            }
                        }
                        Message::Response(_) => {}
                    }
                }
                recv(tasks) -> task => {
                    if let Ok(task) = task {
                        self.on_task(task)?;
                    }
                }
            }
        }
    }

    fn send(&self, msg: impl Into<Message>) {
        let _ = self.sender.send(msg.into());
    }

    fn notify<N: lsp::notification::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params));
    }

    /// Logs a message on stderr and to the client (`window/logMessage`).
    fn log(&self, message: &str) {
        eprintln!("ptxopt lsp: {message}");
        self.notify::<lsp::notification::LogMessage>(lsp::LogMessageParams {
            typ: lsp::MessageType::WARNING,
            message: message.to_string(),
        });
    }

    fn on_task(&mut self, task: Task) -> Result<(), ServerError> {
        match task {
            Task::Response(resp) => {
                if self.in_flight.remove(&resp.id).is_some() {
                    self.send(resp);
                }
            }
            Task::Cancelled(id, why) => {
                if self.in_flight.remove(&id).is_some() {
                    let (code, message) = match why {
                        Cancelled::Local => (ErrorCode::RequestCanceled, "canceled by client"),
                        _ => (ErrorCode::ContentModified, "content modified"),
                    };
                    self.send(Response::new_err(id, code as i32, message.to_string()));
                }
            }
            Task::Diagnostics {
                uri,
                version,
                diagnostics,
            } => {
                // Only publish for the document's current version.
                if self.docs.get(&uri).is_some_and(|d| d.version == version) {
                    self.notify::<lsp::notification::PublishDiagnostics>(
                        lsp::PublishDiagnosticsParams {
                            uri,
                            diagnostics,
                            version: Some(version),
                        },
                    );
                }
            }
            Task::RemarksDue { uri, version } => {
                if self.docs.get(&uri).is_some_and(|d| d.version == version) {
                    self.defer(Deferred::Remarks { uri, version });
                }
            }
            Task::Lenses {
                uri,
                version,
                settings,
                lenses,
                reply_to,
            } => {
                self.lens_jobs.remove(&(uri.clone(), version, settings));
                if let Some(id) = reply_to {
                    if self.in_flight.remove(&id).is_some() {
                        self.send(Response::new_ok(id, &lenses));
                    }
                }
                let current = self.docs.get(&uri).is_some_and(|d| d.version == version)
                    && settings == self.settings_generation;
                if current {
                    let was_stale = self
                        .lenses
                        .get(&uri)
                        .is_some_and(|c| c.version != version || c.settings != settings);
                    self.lenses.insert(
                        uri,
                        CachedLenses {
                            version,
                            settings,
                            lenses,
                        },
                    );
                    if was_stale {
                        // The client was answered with the previous lenses:
                        // tell it to ask again (it gets these at once).
                        self.next_server_request += 1;
                        let id = RequestId::from(format!("ptxopt-{}", self.next_server_request));
                        self.send(Request::new(
                            id,
                            lsp::request::CodeLensRefresh::METHOD.to_string(),
                            (),
                        ));
                    }
                }
            }
            Task::LensesCancelled {
                uri,
                version,
                settings,
                reply_to,
                why,
            } => {
                self.lens_jobs.remove(&(uri, version, settings));
                if let Some(id) = reply_to {
                    self.on_task(Task::Cancelled(id, why))?;
                }
            }
            Task::ForegroundDone => {
                self.foreground -= 1;
                if self.foreground == 0 {
                    for work in std::mem::take(&mut self.deferred) {
                        self.start_background(work);
                    }
                }
            }
        }
        Ok(())
    }

    /// A code lens request from a client that supports
    /// `workspace/codeLens/refresh`. The lenses of a function come from its
    /// phase pipeline (the register estimate, the loop decisions), which
    /// after an edit of a large function takes far longer than a keystroke
    /// (dealii's largest function: about 100 ms). So the answer never waits
    /// for it when there is something to show: lenses of the current version
    /// are answered from the cache; after an edit, the previous version's
    /// lenses (their lines moved with the edits, see
    /// [`State::shift_lenses`]) are answered at once while a worker computes
    /// the new ones, and once those are in the cache the client is told to
    /// refresh (it asks again and gets them from the cache). Only the very
    /// first request of a document waits for the computation.
    fn on_code_lens(&mut self, req: Request) {
        let id = req.id.clone();
        let uri = match serde_json::from_value::<lsp::CodeLensParams>(req.params) {
            Ok(p) => p.text_document.uri,
            Err(e) => {
                self.send(Response::new_err(
                    id,
                    ErrorCode::InvalidParams as i32,
                    e.to_string(),
                ));
                return;
            }
        };
        let Some(version) = self.docs.get(&uri).map(|d| d.version) else {
            // Not an open document: nothing to cache; compute and answer.
            self.start_lens_job(uri, 0, Some(id));
            return;
        };
        let settings = self.settings_generation;
        match self.lenses.get(&uri) {
            Some(c) if c.version == version && c.settings == settings => {
                let resp = Response::new_ok(id, &c.lenses);
                self.send(resp);
            }
            Some(c) => {
                let resp = Response::new_ok(id, &c.lenses);
                self.send(resp);
                if !self.lens_jobs.contains(&(uri.clone(), version, settings)) {
                    self.start_lens_job(uri, version, None);
                }
            }
            None => self.start_lens_job(uri, version, Some(id)),
        }
    }

    /// Computes the lenses of `uri` (see [`Task::Lenses`]): in the
    /// foreground when `reply_to` waits for them, else as background work.
    fn start_lens_job(&mut self, uri: lsp::Uri, version: i32, reply_to: Option<RequestId>) {
        let settings = self.settings_generation;
        self.lens_jobs.insert((uri.clone(), version, settings));
        match reply_to {
            Some(id) => {
                let job = self.lens_job(uri, version, settings, Some(id));
                self.spawn_foreground(job);
            }
            None => self.defer(Deferred::Lenses {
                uri,
                version,
                settings,
            }),
        }
    }

    /// The job computing the lenses of `uri` on a snapshot taken now.
    fn lens_job(
        &mut self,
        uri: lsp::Uri,
        version: i32,
        settings: u64,
        reply_to: Option<RequestId>,
    ) -> Job {
        let analysis = self.host.analysis();
        if let Some(id) = &reply_to {
            self.in_flight
                .insert(id.clone(), analysis.cancellation_token());
        }
        let tasks = self.tasks.clone();
        Box::new(move || {
            let task = match handlers::code_lenses(&analysis, &uri) {
                Ok(lenses) => Task::Lenses {
                    uri,
                    version,
                    settings,
                    lenses,
                    reply_to,
                },
                Err(why) => Task::LensesCancelled {
                    uri,
                    version,
                    settings,
                    reply_to,
                    why,
                },
            };
            drop(analysis);
            let _ = tasks.send(task);
        })
    }

    /// Sends a foreground job to the workers and counts it until it has
    /// finished (or unwound: the count must not stay up, or the background
    /// would wait forever).
    fn spawn_foreground(&mut self, job: Job) {
        struct Done(Sender<Task>);
        impl Drop for Done {
            fn drop(&mut self) {
                let _ = self.0.send(Task::ForegroundDone);
            }
        }
        self.foreground += 1;
        let done = Done(self.tasks.clone());
        let _ = self.jobs.send(Box::new(move || {
            let _done = done;
            job();
        }));
    }

    /// Starts background work now when no foreground job is pending, else
    /// once the last one has finished.
    fn defer(&mut self, work: Deferred) {
        if self.foreground == 0 {
            self.start_background(work);
        } else {
            self.deferred.push(work);
        }
    }

    /// Sends background work to the background worker, on a snapshot taken
    /// now, unless a newer version or settings change made it moot.
    fn start_background(&mut self, work: Deferred) {
        match work {
            Deferred::Lenses {
                uri,
                version,
                settings,
            } => {
                let current = self.docs.get(&uri).is_some_and(|d| d.version == version)
                    && settings == self.settings_generation;
                if !current {
                    self.lens_jobs.remove(&(uri, version, settings));
                    return;
                }
                let job = self.lens_job(uri, version, settings, None);
                let _ = self.background.send(job);
            }
            Deferred::Remarks { uri, version } => {
                if self.docs.get(&uri).is_some_and(|d| d.version == version) {
                    let job = self.remarks_job(uri, version);
                    let _ = self.background.send(job);
                }
            }
        }
    }

    /// Moves the cached lenses of `uri` with an edit of `range` (positions of
    /// the text before it) replaced by `text`: lenses below it by the change
    /// in line count, lenses on removed lines to its first line. Columns are
    /// kept (a lens is shown above its line; the refresh brings exact ones).
    fn shift_lenses(&mut self, uri: &lsp::Uri, range: lsp::Range, text: &str) {
        let Some(cached) = self.lenses.get_mut(uri) else {
            return;
        };
        let added = text.matches('\n').count() as i64;
        let removed = i64::from(range.end.line.saturating_sub(range.start.line));
        let delta = added - removed;
        if delta == 0 {
            return;
        }
        for lens in &mut cached.lenses {
            for pos in [&mut lens.range.start, &mut lens.range.end] {
                if pos.line > range.end.line {
                    pos.line = (i64::from(pos.line) + delta).max(0) as u32;
                } else if pos.line > range.start.line {
                    pos.line = range.start.line;
                }
            }
        }
    }

    fn apply_settings(&mut self, settings: &Settings) {
        self.settings_generation += 1;
        let errors = settings.apply(&mut self.host);
        for message in errors {
            self.notify::<lsp::notification::ShowMessage>(lsp::ShowMessageParams {
                typ: lsp::MessageType::WARNING,
                message: format!("ptxopt settings: {message}"),
            });
        }
    }

    fn on_notification(&mut self, not: Notification) -> Result<(), ServerError> {
        use lsp::notification as n;
        match not.method.as_str() {
            n::DidOpenTextDocument::METHOD => {
                let p: lsp::DidOpenTextDocumentParams = serde_json::from_value(not.params)?;
                let doc = p.text_document;
                self.set_document(doc.uri, doc.text, doc.version);
            }
            n::DidChangeTextDocument::METHOD => {
                let mut params = not.params;
                convert::clamp_change_positions(&mut params);
                let p: lsp::DidChangeTextDocumentParams = serde_json::from_value(params)?;
                let uri = p.text_document.uri;
                if !self.docs.contains_key(&uri) {
                    return Ok(());
                }
                // Each change goes to the database as a range and its
                // replacement: only the chunks around it are looked at, no
                // copy or comparison of the whole text.
                let path = convert::path_of(&uri);
                for change in p.content_changes {
                    match change.range {
                        Some(range) => {
                            self.shift_lenses(&uri, range, &change.text);
                            // The positions are in the text after the previous
                            // change: the line index of the current revision.
                            let index = self.host.line_index(&path);
                            let range = convert::text_range(&index, range);
                            if !self.host.edit_file_text(&path, range, &change.text) {
                                // Not expected: a converted range lies within
                                // the text, on character boundaries.
                                self.log(&format!("dropped an edit of {uri:?} at {range:?}"));
                            }
                        }
                        None => {
                            // A whole new text: the old lenses' lines mean
                            // nothing in it.
                            self.lenses.remove(&uri);
                            self.host.set_file_text(path.clone(), change.text);
                        }
                    }
                }
                self.document_changed(uri, p.text_document.version);
            }
            n::DidCloseTextDocument::METHOD => {
                let p: lsp::DidCloseTextDocumentParams = serde_json::from_value(not.params)?;
                self.docs.remove(&p.text_document.uri);
                self.lenses.remove(&p.text_document.uri);
                self.notify::<n::PublishDiagnostics>(lsp::PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                });
            }
            n::DidChangeConfiguration::METHOD => {
                let p: lsp::DidChangeConfigurationParams = serde_json::from_value(not.params)?;
                self.apply_settings(&Settings::from_json(&p.settings));
            }
            n::Cancel::METHOD => {
                let p: lsp::CancelParams = serde_json::from_value(not.params)?;
                let id: RequestId = match p.id {
                    lsp::NumberOrString::Number(i) => i.into(),
                    lsp::NumberOrString::String(s) => s.into(),
                };
                if let Some(token) = self.in_flight.get(&id) {
                    token.cancel();
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Records a document's new text (cancelling what runs on snapshots) and
    /// schedules its diagnostics.
    fn set_document(&mut self, uri: lsp::Uri, text: String, version: i32) {
        self.lenses.remove(&uri);
        self.host.set_file_text(convert::path_of(&uri), text);
        self.document_changed(uri, version);
    }

    /// Records a document's new version (its text is set) and schedules its
    /// diagnostics.
    fn document_changed(&mut self, uri: lsp::Uri, version: i32) {
        self.docs.insert(uri.clone(), Document { version });
        let analysis = self.host.analysis();
        let tasks = self.tasks.clone();
        self.spawn_foreground(Box::new(move || {
            let path = convert::path_of(&uri);
            // The line index is a query: built once per revision, on a worker,
            // and shared with the requests on this revision.
            let Ok(index) = analysis.line_index(&path) else {
                return;
            };
            // Two publications: the problems of the text now, then, once
            // typing pauses (`REMARKS_DELAY`), the same list with the
            // optimization remarks as hints (`publish_remarks`).
            let Ok(problems) = analysis.diagnostics(&path) else {
                return;
            };
            let diagnostics: Vec<lsp::Diagnostic> = problems
                .iter()
                .map(|d| convert::diagnostic(&index, d))
                .collect();
            let _ = tasks.send(Task::Diagnostics {
                uri: uri.clone(),
                version,
                diagnostics,
            });
            drop(analysis);
            std::thread::spawn(move || {
                std::thread::sleep(REMARKS_DELAY);
                let _ = tasks.send(Task::RemarksDue { uri, version });
            });
        }));
    }

    /// The job publishing the problems of a document with its optimization
    /// remarks as hints (see `convert::remark`); nothing when it has no
    /// remarks (the problems alone are published already).
    fn remarks_job(&mut self, uri: lsp::Uri, version: i32) -> Job {
        let analysis = self.host.analysis();
        let tasks = self.tasks.clone();
        Box::new(move || {
            let path = convert::path_of(&uri);
            let published = analysis.line_index(&path).and_then(|index| {
                let remarks = analysis.remarks(&path)?;
                if remarks.is_empty() {
                    return Ok(None);
                }
                let mut out: Vec<lsp::Diagnostic> = analysis
                    .diagnostics(&path)?
                    .iter()
                    .map(|d| convert::diagnostic(&index, d))
                    .collect();
                out.extend(remarks.iter().map(|r| convert::remark(&index, r)));
                Ok(Some(out))
            });
            drop(analysis);
            if let Ok(Some(diagnostics)) = published {
                let _ = tasks.send(Task::Diagnostics {
                    uri,
                    version,
                    diagnostics,
                });
            }
        })
    }

    fn on_request(&mut self, req: Request) {
        if self.lens_refresh && req.method == lsp::request::CodeLensRequest::METHOD {
            self.on_code_lens(req);
            return;
        }
        let id = req.id.clone();
        let analysis = self.host.analysis();
        let token = analysis.cancellation_token();
        let job = match handlers::dispatch(req) {
            Ok(job) => job,
            Err(resp) => {
                self.send(resp);
                return;
            }
        };
        self.in_flight.insert(id.clone(), token);
        let tasks = self.tasks.clone();
        self.spawn_foreground(Box::new(move || {
            let task = match job(&analysis) {
                Ok(Ok(value)) => Task::Response(Response::new_ok(id, value)),
                Ok(Err(message)) => Task::Response(Response::new_err(
                    id,
                    ErrorCode::InvalidParams as i32,
                    message,
                )),
                Err(cancelled) => Task::Cancelled(id, cancelled),
            };
            drop(analysis);
            let _ = tasks.send(task);
        }));
    }
}
