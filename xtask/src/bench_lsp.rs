//! `cargo xtask bench-lsp [FILE] [--iterations N]`: edit-to-result latency
//! of the language server (default FILE: the dealii module of the shared
//! corpus).
//!
//! The real server (`ptx_lsp::run`) runs in this process on its own thread
//! over `lsp_server::Connection::memory()`; this thread is the client. It
//! initializes, opens the file, waits for its first diagnostics and asks once
//! for the inlay hints of one function (warm-up: the cold analysis). Then, N
//! times, alternating between a few functions: a one-character incremental
//! `didChange` inside the function's body (a digit of an `add`/`mov`
//! immediate toggles, so the file stays valid and each round is a real
//! change), at once followed by `textDocument/inlayHint` for that function's
//! range; the latency is from sending the change until both the
//! `publishDiagnostics` of the new version and the inlay-hint response have
//! arrived. Goal: p50 <= 10 ms, p99 <= 20 ms. Each round also asks for the
//! file's code lenses (function lenses with the register estimate after the
//! pipeline, loop lenses with the unroll decisions), timed on their own from
//! the same change. The client supports `workspace/codeLens/refresh`, as
//! VS Code does, so the server answers at once with the previous version's
//! lenses and asks for a refresh once the edited function's pipeline has
//! run; two figures: the answer, and the fresh lenses (refresh request
//! arrived, lenses asked again and answered). The rounds that edit the
//! largest function are reported apart (the goal: its code lens
//! within the p99 of 20 ms). The first two rounds of edits
//! (each function twice) are a warm-up, reported apart (their maximum) and
//! not in the percentiles: on the VM this runs on, the first edits after a
//! start vary by run from 5 to 35 ms while the machine settles (page faults
//! on memory the host has not backed yet), which says nothing about the
//! server.
//!
//! Memory: the process's `VmRSS` before the server starts (baseline: the
//! client with the file's text read, before it parses it to pick the edits),
//! after the open (first diagnostics and
//! the warm-up hints), and after the edits; `VmHWM` is the peak. Release
//! build (a debug build re-runs itself with `--release`).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{self as lsp, notification as n, request as r};
use ptx_syntax::ast::AstNode;
use serde_json::Value;

use crate::{dealii, display, rerun_in_release};

/// Functions the edits alternate between.
const FUNCTIONS: usize = 4;
/// How long to wait for any one answer before calling the server stuck.
const TIMEOUT: Duration = Duration::from_secs(120);

pub fn run(args: &[String]) -> Result<(), String> {
    let os_args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    let mut file = None;
    let mut iterations = 100;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--iterations" | "-n" => {
                iterations = it
                    .next()
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--iterations needs a positive number")?;
            }
            a if a.starts_with('-') => return Err(format!("bench-lsp: unknown option {a}")),
            a => file = Some(PathBuf::from(a)),
        }
    }
    if let Some(result) = rerun_in_release("bench-lsp", &os_args) {
        return result;
    }
    let path = file.unwrap_or_else(dealii);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    println!(
        "file: {} ({:.3} MB, {} lines)",
        display(&path),
        text.len() as f64 / 1e6,
        text.lines().count()
    );
    let report = measure(&path, text, iterations)?;
    report.print();
    Ok(())
}

/// A function the edits go to.
struct Target {
    name: String,
    lines: usize,
    /// The whole function (header and body), for the inlay-hint request.
    range: lsp::Range,
    /// The digit that toggles.
    digit_at: lsp::Position,
    digit: u8,
    line: u32,
}

struct Report {
    targets: Vec<Target>,
    open_to_diagnostics: f64,
    warm_up_hints: f64,
    hints_per_request: usize,
    open_diagnostics: usize,
    /// Rounds of edits before the timed ones, and the slowest of them.
    warm_up: usize,
    warm_up_max: f64,
    /// Seconds per round: both answers; the diagnostics alone; the hints alone.
    both: Vec<f64>,
    diagnostics: Vec<f64>,
    hints: Vec<f64>,
    /// Seconds per round until the code lenses arrived, and the rounds that
    /// edited the largest function (`targets[0]`); then until the refreshed
    /// lenses arrived.
    lenses: Vec<f64>,
    lenses_largest: Vec<f64>,
    fresh: Vec<f64>,
    fresh_largest: Vec<f64>,
    lenses_per_request: usize,
    rss_baseline: Option<u64>,
    rss_open: Option<u64>,
    rss_after: Option<u64>,
    hwm: Option<u64>,
}

/// Runs the benchmark on `text` (named `path`) for `iterations` edits.
fn measure(path: &Path, text: String, iterations: usize) -> Result<Report, String> {
    // Before the client parses the file to pick its edits: the allocator
    // keeps those pages and the server reuses them.
    let rss_baseline = memory("VmRSS");
    let targets = targets(&text)?;
    let uri: lsp::Uri = format!("file://{}", display(path))
        .parse()
        .map_err(|e| format!("no URI for {}: {e:?}", path.display()))?;

    let mut client = Client::start()?;
    let start = Instant::now();
    client.notify::<n::DidOpenTextDocument>(lsp::DidOpenTextDocumentParams {
        text_document: lsp::TextDocumentItem::new(uri.clone(), "ptx".into(), 1, text),
    });
    let open_diagnostics = client.diagnostics(1)?.len();
    let open_to_diagnostics = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let id = client.send_request::<r::InlayHintRequest>(hint_params(&uri, targets[0].range));
    let warm = client.response(&id)?;
    let warm_up_hints = start.elapsed().as_secs_f64();
    let hints_per_request = warm.as_array().map_or(0, Vec::len);
    let rss_open = memory("VmRSS");

    let mut toggled = vec![false; targets.len()];
    let (mut both, mut diagnostics, mut hints) = (Vec::new(), Vec::new(), Vec::new());
    let (mut lenses, mut lenses_largest) = (Vec::new(), Vec::new());
    let (mut fresh, mut fresh_largest) = (Vec::new(), Vec::new());
    // The first lenses of the file (cold: every function's pipeline); later
    // rounds are answered from the server's cache and refreshed.
    let id = client.send_request::<r::CodeLensRequest>(lens_params(&uri));
    client.response(&id)?;
    let mut lenses_per_request = 0;
    let warm_up = 2 * targets.len();
    let mut warm_up_max: f64 = 0.0;
    for round in 0..warm_up + iterations {
        let which = round % targets.len();
        let t = &targets[which];
        toggled[which] = !toggled[which];
        let digit = if toggled[which] { t.digit ^ 1 } else { t.digit };
        let version = round as i32 + 2;
        let start = Instant::now();
        client.notify::<n::DidChangeTextDocument>(lsp::DidChangeTextDocumentParams {
            text_document: lsp::VersionedTextDocumentIdentifier::new(uri.clone(), version),
            content_changes: vec![lsp::TextDocumentContentChangeEvent {
                range: Some(lsp::Range::new(
                    t.digit_at,
                    lsp::Position::new(t.digit_at.line, t.digit_at.character + 1),
                )),
                range_length: None,
                text: char::from(digit).to_string(),
            }],
        });
        let id = client.send_request::<r::InlayHintRequest>(hint_params(&uri, t.range));
        let lens_id = client.send_request::<r::CodeLensRequest>(lens_params(&uri));
        let mut fresh_id = None;
        let (mut diags_at, mut hints_at, mut lens_at, mut fresh_at) = (None, None, None, None);
        while diags_at.is_none() || hints_at.is_none() || lens_at.is_none() || fresh_at.is_none() {
            match client.recv()? {
                Message::Notification(not) if not.method == n::PublishDiagnostics::METHOD => {
                    let p: lsp::PublishDiagnosticsParams =
                        serde_json::from_value(not.params).map_err(|e| e.to_string())?;
                    // The first publication of the version: its problems
                    // (the debounced optimization remarks follow as hints in
                    // a later one when a round lasts long enough).
                    if p.version == Some(version) && diags_at.is_none() {
                        if p.diagnostics.len() != open_diagnostics {
                            return Err(format!(
                                "the edit of {} changed the diagnostics ({} -> {})",
                                t.name,
                                open_diagnostics,
                                p.diagnostics.len()
                            ));
                        }
                        diags_at = Some(start.elapsed().as_secs_f64());
                    }
                }
                Message::Response(resp) if resp.id == id => {
                    if let Some(e) = resp.error {
                        return Err(format!("inlay hints failed: {} {}", e.code, e.message));
                    }
                    hints_at = Some(start.elapsed().as_secs_f64());
                }
                Message::Response(resp) if resp.id == lens_id => {
                    if let Some(e) = resp.error {
                        return Err(format!("code lenses failed: {} {}", e.code, e.message));
                    }
                    lenses_per_request = resp
                        .result
                        .as_ref()
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    lens_at = Some(start.elapsed().as_secs_f64());
                }
                Message::Request(req) if req.method == r::CodeLensRefresh::METHOD => {
                    let _ = client
                        .conn
                        .sender
                        .send(lsp_server::Response::new_ok(req.id, Value::Null).into());
                    fresh_id = Some(client.send_request::<r::CodeLensRequest>(lens_params(&uri)));
                }
                Message::Response(resp) if Some(&resp.id) == fresh_id.as_ref() => {
                    if let Some(e) = resp.error {
                        return Err(format!("code lenses failed: {} {}", e.code, e.message));
                    }
                    fresh_at = Some(start.elapsed().as_secs_f64());
                }
                _ => {}
            }
        }
        let (d, h) = (diags_at.unwrap_or(0.0), hints_at.unwrap_or(0.0));
        let l = lens_at.unwrap_or(0.0);
        let f = fresh_at.unwrap_or(0.0);
        if std::env::var_os("PTXOPT_BENCH_VERBOSE").is_some() {
            println!(
                "  round {round:3}: function {which}: diagnostics {:7.2} ms, hints {:7.2} ms, \
                 lenses {:7.2} ms, refreshed {:7.2} ms{}",
                d * 1e3,
                h * 1e3,
                l * 1e3,
                f * 1e3,
                if round < warm_up { " (warm-up)" } else { "" }
            );
        }
        if round < warm_up {
            warm_up_max = warm_up_max.max(d.max(h));
            continue;
        }
        diagnostics.push(d);
        hints.push(h);
        both.push(d.max(h));
        lenses.push(l);
        fresh.push(f);
        if which == 0 {
            lenses_largest.push(l);
            fresh_largest.push(f);
        }
    }
    let rss_after = memory("VmRSS");
    let hwm = memory("VmHWM");
    client.shutdown()?;
    Ok(Report {
        targets,
        open_to_diagnostics,
        warm_up_hints,
        hints_per_request,
        open_diagnostics,
        warm_up,
        warm_up_max,
        both,
        diagnostics,
        hints,
        lenses,
        lenses_largest,
        fresh,
        fresh_largest,
        lenses_per_request,
        rss_baseline,
        rss_open,
        rss_after,
        hwm,
    })
}

impl Report {
    fn print(&self) {
        println!("functions edited in turn:");
        for t in &self.targets {
            println!(
                "  {} ({} lines; digit on line {})",
                short(&t.name),
                t.lines,
                t.line + 1
            );
        }
        println!(
            "open -> first diagnostics: {:.1} ms ({} diagnostics); first inlay hints (cold \
             analysis): {:.1} ms ({} hints for the function)",
            self.open_to_diagnostics * 1e3,
            self.open_diagnostics,
            self.warm_up_hints * 1e3,
            self.hints_per_request
        );
        let n = self.both.len();
        println!(
            "warm-up: {} edits (each function twice), not timed below; the slowest took {:.1} ms",
            self.warm_up,
            self.warm_up_max * 1e3
        );
        println!(
            "one-character edit -> diagnostics of the new version and the function's inlay \
             hints ({n} edits):"
        );
        let line = |label: &str, v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(f64::total_cmp);
            println!(
                "  {label:<12} p50 {:7.2} ms  p90 {:7.2} ms  p99 {:7.2} ms  max {:7.2} ms",
                percentile(&v, 50.0) * 1e3,
                percentile(&v, 90.0) * 1e3,
                percentile(&v, 99.0) * 1e3,
                v[v.len() - 1] * 1e3
            );
        };
        line("both", &self.both);
        line("diagnostics", &self.diagnostics);
        line("inlay hints", &self.hints);
        println!("  goal: p50 <= 10 ms, p99 <= 20 ms (both)");
        println!(
            "the same edit -> the file's code lenses ({} lenses; register estimate and loop \
             decisions after the pipeline):",
            self.lenses_per_request
        );
        line("answer", &self.lenses);
        if !self.lenses_largest.is_empty() {
            line("  largest fn", &self.lenses_largest);
        }
        line("refreshed", &self.fresh);
        if !self.fresh_largest.is_empty() {
            line("  largest fn", &self.fresh_largest);
        }
        println!(
            "  goal: p99 <= 20 ms (answer, edits of the largest function); \
             'refreshed' includes the edited function's whole phase pipeline"
        );
        let mib = |kb: Option<u64>| {
            kb.map_or("?".to_string(), |kb| {
                format!("{:.1} MiB", kb as f64 / 1024.0)
            })
        };
        println!(
            "memory (this process, VmRSS): {} before the server (file text read), {} with \
             the file open (+{}), {} after the edits; peak VmHWM {}",
            mib(self.rss_baseline),
            mib(self.rss_open),
            mib(self
                .rss_open
                .zip(self.rss_baseline)
                .map(|(a, b)| a.saturating_sub(b))),
            mib(self.rss_after),
            mib(self.hwm)
        );
    }
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn short(name: &str) -> String {
    if name.len() <= 72 {
        name.to_string()
    } else {
        format!("{}…", &name[..71])
    }
}

/// A field of `/proc/self/status` in kB (Linux only).
fn memory(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

fn lens_params(uri: &lsp::Uri) -> lsp::CodeLensParams {
    lsp::CodeLensParams {
        text_document: lsp::TextDocumentIdentifier::new(uri.clone()),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    }
}

fn hint_params(uri: &lsp::Uri, range: lsp::Range) -> lsp::InlayHintParams {
    lsp::InlayHintParams {
        text_document: lsp::TextDocumentIdentifier::new(uri.clone()),
        range,
        work_done_progress_params: Default::default(),
    }
}

/// Up to [`FUNCTIONS`] functions with a body and an editable immediate: the
/// largest, and others spread over the file.
fn targets(text: &str) -> Result<Vec<Target>, String> {
    let parse = ptx_syntax::parse(text);
    let position = |offset: usize| {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        lsp::Position::new(
            text[..offset].matches('\n').count() as u32,
            text[line_start..offset].encode_utf16().count() as u32,
        )
    };
    let mut all = Vec::new();
    for f in parse.tree().functions() {
        let Some(body) = f.body() else { continue };
        let body_range = body.syntax().text_range();
        let (start, end) = (
            usize::from(body_range.start()),
            usize::from(body_range.end()),
        );
        // The last digit of the first `add`/`mov` whose last operand is a
        // decimal immediate.
        let Some(at) = crate::find_immediate(
            &text[start..end],
            &["add.s32", "add.u32", "mov.u32", "add.s64", "mov.u64"],
        )
        .map(|r| start + r.end - 1) else {
            continue;
        };
        let whole = f.syntax().text_range();
        let (fs, fe) = (usize::from(whole.start()), usize::from(whole.end()));
        let digit_at = position(at);
        all.push(Target {
            name: f.name().map(|n| n.text()).unwrap_or_default(),
            lines: text[fs..fe].lines().count(),
            range: lsp::Range::new(position(fs), position(fe)),
            digit_at,
            digit: text.as_bytes()[at],
            line: digit_at.line,
        });
    }
    if all.is_empty() {
        return Err("no function with an `add`/`mov` immediate to edit".into());
    }
    let largest = (0..all.len()).max_by_key(|&i| all[i].lines).unwrap_or(0);
    let mut picked = vec![largest];
    let spread = FUNCTIONS.min(all.len()).saturating_sub(1);
    for k in 0..spread {
        let i = (k * 2 + 1) * all.len() / (spread * 2);
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    let mut all: Vec<Option<Target>> = all.into_iter().map(Some).collect();
    Ok(picked.into_iter().filter_map(|i| all[i].take()).collect())
}

/// The client end, with the server on its own thread.
struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    pending: VecDeque<Message>,
}

impl Client {
    fn start() -> Result<Client, String> {
        let (server, conn) = Connection::memory();
        let handle = std::thread::Builder::new()
            .name("ptx-lsp-main".into())
            .spawn(move || ptx_lsp::run(server).map_err(|e| e.to_string()))
            .map_err(|e| e.to_string())?;
        let mut client = Client {
            conn,
            server: Some(handle),
            next_id: 0,
            pending: VecDeque::new(),
        };
        // As VS Code: code lenses are refreshed when the server asks.
        let id = client.send_request::<r::Initialize>(lsp::InitializeParams {
            capabilities: lsp::ClientCapabilities {
                workspace: Some(lsp::WorkspaceClientCapabilities {
                    code_lens: Some(lsp::CodeLensWorkspaceClientCapabilities {
                        refresh_support: Some(true),
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        });
        client.response(&id)?;
        client.notify::<n::Initialized>(lsp::InitializedParams {});
        Ok(client)
    }

    fn send_request<R: r::Request>(&mut self, params: R::Params) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let req = Request::new(id.clone(), R::METHOD.to_string(), params);
        let _ = self.conn.sender.send(req.into());
        id
    }

    fn notify<N: n::Notification>(&self, params: N::Params) {
        let not = Notification::new(N::METHOD.to_string(), params);
        let _ = self.conn.sender.send(not.into());
    }

    /// The next message, queued or from the server.
    fn recv(&mut self) -> Result<Message, String> {
        if let Some(msg) = self.pending.pop_front() {
            return Ok(msg);
        }
        self.conn
            .receiver
            .recv_timeout(TIMEOUT)
            .map_err(|e| format!("no answer from the server: {e}"))
    }

    /// The result of request `id` (other messages wait in the queue).
    fn response(&mut self, id: &RequestId) -> Result<Value, String> {
        let mut skipped = VecDeque::new();
        let result = loop {
            match self.recv()? {
                Message::Response(resp) if &resp.id == id => {
                    break match resp.error {
                        Some(e) => Err(format!("request failed: {} {}", e.code, e.message)),
                        None => Ok(resp.result.unwrap_or(Value::Null)),
                    };
                }
                other => skipped.push_back(other),
            }
        };
        skipped.append(&mut self.pending);
        self.pending = skipped;
        result
    }

    /// The diagnostics published for `version`.
    fn diagnostics(&mut self, version: i32) -> Result<Vec<lsp::Diagnostic>, String> {
        loop {
            if let Message::Notification(not) = self.recv()? {
                if not.method == n::PublishDiagnostics::METHOD {
                    let p: lsp::PublishDiagnosticsParams =
                        serde_json::from_value(not.params).map_err(|e| e.to_string())?;
                    if p.version == Some(version) {
                        return Ok(p.diagnostics);
                    }
                }
            }
        }
    }

    fn shutdown(mut self) -> Result<(), String> {
        let id = self.send_request::<r::Shutdown>(());
        self.response(&id)?;
        self.notify::<n::Exit>(());
        match self.server.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err("the server panicked".into()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rounds on a small example: the harness works end to end (not a
    /// timing).
    #[test]
    fn smoke() {
        let path = crate::workspace_root().join("test-data/examples/loops.ptx");
        let text = std::fs::read_to_string(&path).unwrap();
        let report = measure(&path, text, 2).unwrap();
        assert_eq!(report.both.len(), 2);
        assert_eq!(report.lenses.len(), 2);
        assert_eq!(report.fresh.len(), 2);
        assert!(!report.targets.is_empty());
    }
}
