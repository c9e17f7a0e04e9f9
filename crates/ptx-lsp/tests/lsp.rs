//! In-process tests of the language server over `Connection::memory()`: a
//! client drives the real main loop, and the answers are snapshotted.

use std::collections::VecDeque;
use std::thread::JoinHandle;

use expect_test::{expect, Expect};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{self as lsp, notification as n, request as r};
use serde_json::{json, Value};

const LOOP: &str = "\
.version 8.5
.target sm_80
.address_size 64

.global .align 4 .u32 counter;

.func (.param .b32 ret) twice(.param .b32 x)
{
\t.reg .b32 %t<2>;
\tld.param.b32 %t0, [x];
\tadd.s32 %t1, %t0, %t0;
\tst.param.b32 [ret], %t1;
\tret;
}

.visible .entry k(.param .u64 k_param_0)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<4>;
\t.reg .f32 %f<3>;
\t.reg .b64 %rd<3>;
\t.reg .b32 %acc;

\tld.param.u64 %rd1, [k_param_0];
\tmov.u32 %r1, 0;
\tmov.f32 %f1, 0f00000000;
\tmov.u32 %acc, 0;
$L__loop:
\tadd.f32 %f1, %f1, 0f3F800000;
\tadd.s32 %acc, %acc, %r1;
\tadd.s32 %r1, %r1, 1;
\tsetp.lt.s32 %p1, %r1, 16;
\t@%p1 bra $L__loop;
\tst.global.u32 [counter], %acc;
\tst.global.f32 [%rd1], %f1;
\tret;
}
";

struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    next_id: i32,
    notifications: VecDeque<Notification>,
    /// `workspace/codeLens/refresh` requests answered and not yet awaited
    /// (see [`Client::await_lens_refresh`]).
    refreshes: usize,
}

impl Client {
    fn new(initialization_options: Option<Value>) -> Client {
        Client::with_params(lsp::InitializeParams {
            initialization_options,
            ..Default::default()
        })
    }

    /// A client that supports `workspace/codeLens/refresh`.
    fn with_lens_refresh() -> Client {
        Client::with_params(lsp::InitializeParams {
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
        })
    }

    fn with_params(params: lsp::InitializeParams) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || ptx_lsp::run(server).expect("server ran"));
        let mut client = Client {
            conn,
            server: Some(handle),
            next_id: 0,
            notifications: VecDeque::new(),
            refreshes: 0,
        };
        let caps = client.request::<r::Initialize>(params);
        assert!(caps["capabilities"]["hoverProvider"] == json!(true));
        client.notify::<n::Initialized>(lsp::InitializedParams {});
        client
    }

    fn send_request<R: r::Request>(&mut self, params: R::Params) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let req = Request::new(id.clone(), R::METHOD.to_string(), params);
        self.conn.sender.send(req.into()).unwrap();
        id
    }

    /// The response to `id`: `Ok(result)` or `Err((code, message))`.
    fn response(&mut self, id: RequestId) -> Result<Value, (i32, String)> {
        loop {
            match self.conn.receiver.recv().expect("server alive") {
                Message::Response(resp) if resp.id == id => {
                    return match resp.error {
                        Some(e) => Err((e.code, e.message)),
                        None => Ok(resp.result.unwrap_or(Value::Null)),
                    }
                }
                other => self.other_message(other),
            }
        }
    }

    /// Keeps a notification for later, answers a lens refresh request (and
    /// counts it); anything else is unexpected.
    fn other_message(&mut self, msg: Message) {
        match msg {
            Message::Notification(not) => self.notifications.push_back(not),
            Message::Request(req) if req.method == r::CodeLensRefresh::METHOD => {
                let resp = lsp_server::Response::new_ok(req.id, Value::Null);
                self.conn.sender.send(resp.into()).unwrap();
                self.refreshes += 1;
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    /// Waits for the server's next `workspace/codeLens/refresh` request (one
    /// answered while waiting for something else counts).
    fn await_lens_refresh(&mut self) {
        while self.refreshes == 0 {
            let msg = self.conn.receiver.recv().expect("server alive");
            self.other_message(msg);
        }
        self.refreshes -= 1;
    }

    fn request<R: r::Request>(&mut self, params: R::Params) -> Value {
        let id = self.send_request::<R>(params);
        self.response(id).expect("a result")
    }

    fn notify<N: n::Notification>(&self, params: N::Params) {
        let not = Notification::new(N::METHOD.to_string(), params);
        self.conn.sender.send(not.into()).unwrap();
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify::<n::DidOpenTextDocument>(lsp::DidOpenTextDocumentParams {
            text_document: lsp::TextDocumentItem::new(
                uri.parse().unwrap(),
                "ptx".into(),
                1,
                text.into(),
            ),
        });
    }

    /// The next notification of method `method`.
    fn notification(&mut self, method: &str) -> Value {
        if let Some(i) = self.notifications.iter().position(|n| n.method == method) {
            return self.notifications.remove(i).unwrap().params;
        }
        loop {
            match self.conn.receiver.recv().expect("server alive") {
                Message::Notification(not) if not.method == method => return not.params,
                Message::Notification(not) => self.notifications.push_back(not),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// The next publication of the text's problems. The server publishes
    /// twice per version when a file has optimization remarks: the problems
    /// first, then the same list with the remarks as hints; this skips the
    /// second kind (see [`Client::diagnostics_with_remarks`]).
    fn diagnostics(&mut self) -> lsp::PublishDiagnosticsParams {
        self.publication(false)
    }

    /// The next publication that carries optimization remarks.
    fn diagnostics_with_remarks(&mut self) -> lsp::PublishDiagnosticsParams {
        self.publication(true)
    }

    /// The next publication with (or without) optimization remarks.
    fn publication(&mut self, with_remarks: bool) -> lsp::PublishDiagnosticsParams {
        loop {
            let p: lsp::PublishDiagnosticsParams =
                serde_json::from_value(self.notification(n::PublishDiagnostics::METHOD)).unwrap();
            if p.diagnostics.iter().any(is_remark) == with_remarks {
                return p;
            }
        }
    }
}

fn is_remark(d: &lsp::Diagnostic) -> bool {
    d.source.as_deref() == Some("ptxopt remarks")
}

impl Drop for Client {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let id = self.send_request::<r::Shutdown>(());
        self.response(id).expect("shutdown answered");
        self.notify::<n::Exit>(());
        self.server
            .take()
            .unwrap()
            .join()
            .expect("server stopped cleanly");
    }
}

const URI: &str = "file:///t/loop.ptx";

fn uri() -> lsp::Uri {
    URI.parse().unwrap()
}

fn doc() -> lsp::TextDocumentIdentifier {
    lsp::TextDocumentIdentifier::new(uri())
}

/// The position of the `nth` (0-based) occurrence of `needle` in `text`, plus
/// `delta` columns (ASCII text).
fn at(text: &str, needle: &str, nth: usize, delta: u32) -> lsp::Position {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle} #{nth}"))
        .0;
    let line = text[..offset].matches('\n').count() as u32;
    let col = (offset - text[..offset].rfind('\n').map_or(0, |i| i + 1)) as u32;
    lsp::Position::new(line, col + delta)
}

fn tdp(text: &str, needle: &str, nth: usize, delta: u32) -> lsp::TextDocumentPositionParams {
    lsp::TextDocumentPositionParams::new(doc(), at(text, needle, nth, delta))
}

/// `line:col-line:col` (1-based lines, as editors show them).
fn show_range(range: &Value) -> String {
    let r: lsp::Range = serde_json::from_value(range.clone()).unwrap();
    format!(
        "{}:{}-{}:{}",
        r.start.line + 1,
        r.start.character,
        r.end.line + 1,
        r.end.character
    )
}

fn show_diags(p: &lsp::PublishDiagnosticsParams) -> String {
    let mut out = format!("version {:?}\n", p.version);
    for d in &p.diagnostics {
        out.push_str(&format!(
            "{}:{} {:?} {}\n",
            d.range.start.line + 1,
            d.range.start.character,
            d.severity.unwrap(),
            d.message
        ));
    }
    out
}

fn check(actual: String, expect: Expect) {
    expect.assert_eq(&actual);
}

#[test]
fn diagnostics_on_open_change_and_fix() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    check(
        show_diags(&c.diagnostics()),
        expect![[r#"
        version Some(1)
    "#]],
    );

    // An incremental edit that breaks the file: `%r1` -> `%r9` (undeclared).
    let pos = at(LOOP, "add.s32 %r1, %r1, 1", 0, 13);
    let edit = |version: i32, text: &str| lsp::DidChangeTextDocumentParams {
        text_document: lsp::VersionedTextDocumentIdentifier::new(uri(), version),
        content_changes: vec![change(pos.line, pos.character, pos.character + 3, text)],
    };
    c.notify::<n::DidChangeTextDocument>(edit(2, "%r9"));
    check(
        show_diags(&c.diagnostics()),
        expect![[r#"
        version Some(2)
        31:14 Error undeclared register `%r9`
    "#]],
    );

    // The fix clears them.
    c.notify::<n::DidChangeTextDocument>(edit(3, "%r1"));
    check(
        show_diags(&c.diagnostics()),
        expect![[r#"
        version Some(3)
    "#]],
    );

    // Closing clears them too.
    c.notify::<n::DidCloseTextDocument>(lsp::DidCloseTextDocumentParams {
        text_document: doc(),
    });
    check(
        show_diags(&c.diagnostics()),
        expect![[r#"
        version None
    "#]],
    );
}

#[test]
fn examples_have_no_diagnostics() {
    let mut c = Client::new(None);
    let paths = ptx_test_support::ptx_files(&ptx_test_support::test_data().join("examples"));
    assert!(!paths.is_empty());
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let uri = format!("file://{}", path.display());
        c.open(&uri, &text);
        let d = c.diagnostics();
        // Optimization remarks come as hints; nothing else may.
        assert!(
            d.diagnostics
                .iter()
                .all(|x| x.severity == Some(lsp::DiagnosticSeverity::HINT)),
            "{}: {}",
            path.display(),
            show_diags(&d)
        );
        // Every IDE feature answers on real code without failing.
        let td = lsp::TextDocumentIdentifier::new(uri.parse().unwrap());
        let hints = c.request::<r::InlayHintRequest>(lsp::InlayHintParams {
            text_document: td.clone(),
            range: lsp::Range::new(lsp::Position::new(0, 0), lsp::Position::new(10_000, 0)),
            work_done_progress_params: Default::default(),
        });
        assert!(!hints.as_array().unwrap().is_empty(), "{}", path.display());
        let lenses = c.request::<r::CodeLensRequest>(lsp::CodeLensParams {
            text_document: td,
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        });
        assert!(!lenses.as_array().unwrap().is_empty(), "{}", path.display());
    }
}

fn hover(c: &mut Client, text: &str, needle: &str, nth: usize, delta: u32) -> String {
    let v = c.request::<r::HoverRequest>(lsp::HoverParams {
        text_document_position_params: tdp(text, needle, nth, delta),
        work_done_progress_params: Default::default(),
    });
    if v.is_null() {
        return "null".into();
    }
    format!(
        "{}\n{}",
        show_range(&v["range"]),
        v["contents"]["value"].as_str().unwrap()
    )
}

#[test]
fn hover_instruction_register_label() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.diagnostics();
    check(
        hover(&mut c, LOOP, "add.f32", 0, 1),
        expect![[r#"
        29:1-29:8
        **`add.f32`** — Add two values: d = a + b (integer, floating point, half precision, packed, or f32 = f16/bf16 + f32).

        ```ptx
        add.type d, a, b;
        add{.sat}.s32 d, a, b;
        add{.rnd}{.ftz}{.sat}.f32 d, a, b;
        add{.rnd}{.ftz}.f32x2 d, a, b;
        add{.rnd}.f64 d, a, b;
        add{.rnd}{.ftz}{.sat}.f16 d, a, b;
        add{.rnd}{.ftz}{.sat}.f16x2 d, a, b;
        add{.rnd}.bf16 d, a, b;
        add{.rnd}.bf16x2 d, a, b;
        add{.rnd}{.sat}.f32.atype d, a, c;
        ```

        - latency class MediumShort (7), pipe FMA, 5 cycles (stall 5) on sm_80
        - live registers: before R 5 P 0, after R 5 P 0"#]],
    );
    check(
        hover(&mut c, LOOP, "ld.param.u64", 0, 4),
        expect![[r#"
        24:1-24:13
        **`ld.param.u64`** — Load a register variable (scalar or vector) from a state space.

        ```ptx
        ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};
        ld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};
        ld.volatile{.ss}{.level::prefetch_size}{.vec}.type d, [a];
        ld.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};
        ld.acquire.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};
        ld.mmio.relaxed.sys{.global}.type d, [a];
        ```

        - latency class Texture (20), pipe TEX, 200 cycles (stall 64) on sm_80
        - live registers: before R 0 P 0, after R 2 P 0"#]],
    );
    check(
        hover(&mut c, LOOP, "%r1", 1, 1),
        expect![[r#"
        30:21-30:24
        **`%r1`** register

        ```ptx
        .reg .b32 %r<4>;
        ```

        - type `.b32`, class R
        - 2 defs, 3 uses
        - live range: 8 instructions"#]],
    );
    check(
        hover(&mut c, LOOP, "%acc", 0, 1),
        expect![[r#"
        22:11-22:15
        **`%acc`** register

        ```ptx
        .reg .b32 %acc;
        ```

        - type `.b32`, class R
        - 2 defs, 2 uses
        - live range: 7 instructions"#]],
    );
    check(
        hover(&mut c, LOOP, "$L__loop", 1, 2),
        expect![[r#"
            33:10-33:18
            **`$L__loop`** label

            - block bb1, loop depth 1
            - loop header: depth 1, trip count 16
              (%r1 = 0; step +1; while %r1 < 16 (s32, compare after increment))
            - ResMII 1, RecMII 5

            **Loop decisions**

            - `cicc loop-unroll`: fully unrolled (16 iterations)
              - trip count: 16
              - body size: 5
              - multiplier: 1
              - threshold: 300
              - full unroll size: 50
              - level: full
              - decision: full unroll (16 iterations)"#]],
    );
    check(
        hover(&mut c, LOOP, "k_param_0", 1, 0),
        expect![[r#"
        24:21-24:30
        **`k_param_0`** parameter

        ```ptx
        .param .u64 k_param_0
        ```"#]],
    );
    check(
        hover(&mut c, LOOP, "counter", 1, 0),
        expect![[r#"
        34:16-34:23
        **`counter`** variable

        ```ptx
        .global .align 4 .u32 counter;
        ```"#]],
    );
    check(hover(&mut c, LOOP, "\n\n", 0, 0), expect!["null"]);
}

/// The register estimate after the pipeline: on the function's name, and on
/// the instruction where it peaks, the registers live there with the lines
/// of their definition and last use.
#[test]
fn hover_register_estimate_and_peak() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.diagnostics();
    check(
        hover(&mut c, LOOP, ".entry k", 0, 8),
        expect![[r#"
            16:16-16:17
            **`k`** function

            ```ptx
            .visible .entry k(.param .u64 k_param_0)
            ```

            - ≈ 8 registers after ptxas (likely 8-11), 0 warps/SM lost to registers; occupancy 64/64 warps/SM"#]],
    );
    check(
        hover(&mut c, LOOP, "st.global.f32", 0, 1),
        expect![[r#"
            35:1-35:14
            **`st.global.f32`** — Store a register variable (scalar or vector) to a state space.

            ```ptx
            st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
            st{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
            st.volatile{.ss}{.vec}.type [a], b;
            st.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
            st.release.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
            st.mmio.relaxed.sys{.global}.type [a], b;
            ```

            - latency class Standard (12), pipe LSU, 24 cycles (stall 24) on sm_80
            - live registers: before R 3 P 0, after R 0 P 0
            - **peak register pressure**: 3 units live here (≈ 8 registers after ptxas (likely 8-11), 0 warps/SM lost to registers)
              - `%rd1` (2 units): defined line 24, last used line 35
              - `%f1` (1 unit): defined line 26, last used line 35"#]],
    );
}

#[test]
fn inlay_hints() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.diagnostics();
    let v = c.request::<r::InlayHintRequest>(lsp::InlayHintParams {
        text_document: doc(),
        range: lsp::Range::new(at(LOOP, ".visible", 0, 0), lsp::Position::new(999, 0)),
        work_done_progress_params: Default::default(),
    });
    let mut out = String::new();
    for h in v.as_array().unwrap() {
        let p: lsp::Position = serde_json::from_value(h["position"].clone()).unwrap();
        out.push_str(&format!(
            "{}:{} {}\n",
            p.line + 1,
            p.character,
            h["label"].as_str().unwrap()
        ));
    }
    check(
        out,
        expect![[r#"
            16:17 ≈ 8 regs as written
            24:1 max R 5 P 0
            24:32 R 2 P 0
            25:16 R 3 P 0
            26:25 R 4 P 0
            27:17 R 5 P 0
            28:9 max R 5 P 1
            28:9 loop depth 1 trips 16
            29:30 R 5 P 0
            30:25 R 5 P 0
            31:21 R 5 P 0
            32:26 R 5 P 1
            33:19 R 5 P 0
            34:1 max R 4 P 0
            34:31 R 3 P 0
            35:27 R 0 P 0
            36:5 R 0 P 0
        "#]],
    );
}

fn locations(v: &Value) -> String {
    match v {
        Value::Array(items) => items
            .iter()
            .map(|l| show_range(&l["range"]) + "\n")
            .collect(),
        Value::Null => "null\n".into(),
        l => show_range(&l["range"]) + "\n",
    }
}

#[test]
fn definition_and_references() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.diagnostics();
    let mut out = String::new();
    for (needle, nth) in [
        ("%r1", 2),
        ("%acc", 3),
        ("$L__loop", 1),
        ("k_param_0", 1),
        ("counter", 1),
        ("[x]", 0),
        ("%t0", 1),
        ("ret;", 0),
    ] {
        let delta = u32::from(needle.starts_with('['));
        let def = c.request::<r::GotoDefinition>(lsp::GotoDefinitionParams {
            text_document_position_params: tdp(LOOP, needle, nth, delta),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        });
        let refs = if needle == "ret;" {
            Value::Null
        } else {
            c.request::<r::References>(lsp::ReferenceParams {
                text_document_position: tdp(LOOP, needle, nth, delta),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
                context: lsp::ReferenceContext {
                    include_declaration: true,
                },
            })
        };
        out.push_str(&format!(
            "{needle}#{nth}: definition {}references:\n{}",
            locations(&def),
            locations(&refs)
        ));
    }
    check(
        out,
        expect![[r#"
        %r1#2: definition 19:11-19:13
        references:
        19:11-19:13
        25:9-25:12
        30:21-30:24
        31:9-31:12
        31:14-31:17
        32:18-32:21
        %acc#3: definition 22:11-22:15
        references:
        22:11-22:15
        27:9-27:13
        30:9-30:13
        30:15-30:19
        34:26-34:30
        $L__loop#1: definition 28:0-28:8
        references:
        28:0-28:8
        33:10-33:18
        k_param_0#1: definition 16:30-16:39
        references:
        16:30-16:39
        24:21-24:30
        counter#1: definition 5:22-5:29
        references:
        5:22-5:29
        34:16-34:23
        [x]#0: definition 7:42-7:43
        references:
        7:42-7:43
        10:20-10:21
        %t0#1: definition 9:11-9:13
        references:
        9:11-9:13
        10:14-10:17
        11:14-11:17
        11:19-11:22
        ret;#0: definition null
        references:
        null
    "#]],
    );
}

#[test]
fn document_and_workspace_symbols() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.open("file:///t/other.ptx", ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry kernel_two()\n{\n\tret;\n}\n");
    c.diagnostics();
    c.diagnostics();
    let v = c.request::<r::DocumentSymbolRequest>(lsp::DocumentSymbolParams {
        text_document: doc(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    fn walk(v: &Value, depth: usize, out: &mut String) {
        for s in v.as_array().unwrap() {
            out.push_str(&format!(
                "{:indent$}{} kind {} {}\n",
                "",
                s["name"].as_str().unwrap(),
                s["kind"],
                show_range(&s["selectionRange"]),
                indent = depth * 2
            ));
            if let Some(children) = s.get("children") {
                walk(children, depth + 1, out);
            }
        }
    }
    let mut out = String::new();
    walk(&v, 0, &mut out);
    check(
        out,
        expect![[r#"
        counter kind 13 5:22-5:29
        twice kind 12 7:24-7:29
          ret kind 8 7:19-7:22
          x kind 8 7:42-7:43
        k kind 6 16:16-16:17
          k_param_0 kind 8 16:30-16:39
          $L__loop kind 20 28:0-28:8
    "#]],
    );

    let v = c.request::<r::WorkspaceSymbolRequest>(lsp::WorkspaceSymbolParams {
        query: "K".into(),
        ..Default::default()
    });
    let out: String = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {} {}\n",
                s["name"].as_str().unwrap(),
                s["location"]["uri"].as_str().unwrap(),
                show_range(&s["location"]["range"])
            )
        })
        .collect();
    check(
        out,
        expect![[r#"
        k file:///t/loop.ptx 16:16-16:17
        kernel_two file:///t/other.ptx 4:16-4:26
    "#]],
    );
}

fn lenses(c: &mut Client) -> String {
    let v = c.request::<r::CodeLensRequest>(lsp::CodeLensParams {
        text_document: doc(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    v.as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{} {}\n",
                show_range(&l["range"]),
                l["command"]["title"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn code_lenses_follow_the_target_setting() {
    let mut c = Client::new(Some(json!({ "target": "sm_75" })));
    c.open(URI, LOOP);
    c.diagnostics();
    check(
        lenses(&mut c),
        expect![[r#"
            7:24-7:29 max live R 1 P 0; ≈ 4 registers after ptxas (likely 4-6), 0 warps/SM lost to registers; occupancy 32/32 warps on sm_75
            16:16-16:17 max live R 5 P 1; ≈ 4 registers after ptxas (likely 4-6), 0 warps/SM lost to registers; occupancy 32/32 warps on sm_75
            28:0-28:8 loop depth 1: trip count 16
            28:0-28:8 cicc: fully unrolled (16 iterations)
        "#]],
    );
    // Back to the file's own `.target` (sm_80), through the configuration.
    c.notify::<n::DidChangeConfiguration>(lsp::DidChangeConfigurationParams {
        settings: json!({ "ptxopt": { "target": null, "knobs": { "NoSuchKnob": 1 } } }),
    });
    let msg = c.notification(n::ShowMessage::METHOD);
    check(
        msg["message"].as_str().unwrap().to_string(),
        expect!["ptxopt settings: unknown knob `NoSuchKnob`"],
    );
    check(
        lenses(&mut c),
        expect![[r#"
            7:24-7:29 max live R 1 P 0; ≈ 8 registers after ptxas (likely 8-11), 0 warps/SM lost to registers; occupancy 64/64 warps on sm_80
            16:16-16:17 max live R 5 P 1; ≈ 8 registers after ptxas (likely 8-11), 0 warps/SM lost to registers; occupancy 64/64 warps on sm_80
            28:0-28:8 loop depth 1: trip count 16
            28:0-28:8 cicc: fully unrolled (16 iterations)
        "#]],
    );
}

/// The line of `LOOP`'s exit test and the column of its bound (`16`).
fn loop_bound() -> (u32, u32) {
    let line = LOOP
        .lines()
        .position(|l| l.contains("setp.lt.s32"))
        .unwrap();
    let col = LOOP.lines().nth(line).unwrap().find("16").unwrap();
    (line as u32, col as u32)
}

/// The change that puts `text` in place of columns `from..to` of `line`.
fn change(line: u32, from: u32, to: u32, text: &str) -> lsp::TextDocumentContentChangeEvent {
    lsp::TextDocumentContentChangeEvent {
        range: Some(lsp::Range::new(
            lsp::Position::new(line, from),
            lsp::Position::new(line, to),
        )),
        range_length: None,
        text: text.into(),
    }
}

/// A client that supports `workspace/codeLens/refresh` gets the previous
/// lenses at once after an edit (their lines moved with it), then a refresh
/// request, then the new lenses.
#[test]
fn code_lenses_after_an_edit_come_stale_then_refreshed() {
    let mut c = Client::with_lens_refresh();
    c.open(URI, LOOP);
    c.diagnostics();
    let first = lenses(&mut c);
    assert!(
        first.contains("28:0-28:8 loop depth 1: trip count 16"),
        "{first}"
    );
    // The lenses of an unchanged version come from the cache.
    assert_eq!(lenses(&mut c), first);
    // One notification: a line inserted at the top, then the loop bound
    // 16 -> 8 (positions after the first change).
    let (setp, col) = loop_bound();
    c.notify::<n::DidChangeTextDocument>(lsp::DidChangeTextDocumentParams {
        text_document: lsp::VersionedTextDocumentIdentifier::new(URI.parse().unwrap(), 2),
        content_changes: vec![
            change(0, 0, 0, "// moved\n"),
            change(setp + 1, col, col + 2, "8"),
        ],
    });
    let stale = lenses(&mut c);
    assert!(
        stale.contains("29:0-29:8 loop depth 1: trip count 16"),
        "{stale}"
    );
    // The server asks the client to refresh once the new lenses are ready.
    c.await_lens_refresh();
    let fresh = lenses(&mut c);
    assert!(
        fresh.contains("29:0-29:8 loop depth 1: trip count 8"),
        "{fresh}"
    );
    assert!(!fresh.contains("trip count 16"), "{fresh}");
}

/// Two edits in a row, each followed by a lens request, sent without
/// waiting: the refresh the first one started (background work, deferred
/// while the edits' problems are computed) is moot once the second edit is
/// in, and a refresh brings the lenses of the last version.
#[test]
fn code_lens_refresh_after_two_quick_edits_is_the_last_versions() {
    let mut c = Client::with_lens_refresh();
    c.open(URI, LOOP);
    c.diagnostics();
    let first = lenses(&mut c);
    assert!(first.contains("trip count 16"), "{first}");
    let (setp, col) = loop_bound();
    // 16 -> 12, then 12 -> " 8" (both two characters wide).
    let mut asked = Vec::new();
    for (version, to) in [(2, "12"), (3, " 8")] {
        c.notify::<n::DidChangeTextDocument>(lsp::DidChangeTextDocumentParams {
            text_document: lsp::VersionedTextDocumentIdentifier::new(URI.parse().unwrap(), version),
            content_changes: vec![change(setp, col, col + 2, to)],
        });
        asked.push(c.send_request::<r::CodeLensRequest>(lsp::CodeLensParams {
            text_document: doc(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        }));
    }
    // Answered at once from the cache: the first version's lenses, or for
    // the second request the first edit's if its refresh came in between.
    for id in asked {
        let stale = c.response(id).expect("lenses").to_string();
        assert!(
            stale.contains("trip count 16") || stale.contains("trip count 12"),
            "{stale}"
        );
    }
    // At most two refreshes: the first edit's (when it won the race) and
    // the last version's.
    for _ in 0..2 {
        c.await_lens_refresh();
        let fresh = lenses(&mut c);
        if fresh.contains("trip count 8") {
            assert!(!fresh.contains("trip count 12"), "{fresh}");
            return;
        }
        assert!(fresh.contains("trip count 12"), "{fresh}");
    }
    panic!("no refresh brought the last version's lenses");
}

#[test]
fn semantic_tokens_folding_and_rename() {
    let text = ".version 8.5\n.target sm_80\n.address_size 64\n// one\n// two\n.visible .entry e(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %v;\nL1:\n\tmov.u32 %v, %tid.x;\n\tbra L1;\n}\n";
    let mut c = Client::new(None);
    c.open(URI, text);
    c.diagnostics();
    let v = c.request::<r::SemanticTokensFullRequest>(lsp::SemanticTokensParams {
        text_document: doc(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let data: Vec<u32> = serde_json::from_value(v["data"].clone()).unwrap();
    let mut out = String::new();
    let (mut line, mut col) = (0, 0);
    for t in data.chunks(5) {
        if t[0] > 0 {
            col = 0;
        }
        line += t[0];
        col += t[1];
        let l = text.lines().nth(line as usize).unwrap();
        let tok = &l[col as usize..(col + t[2]) as usize];
        out.push_str(&format!(
            "{} {tok:?} type {} mods {}\n",
            line + 1,
            t[3],
            t[4]
        ));
    }
    check(
        out,
        expect![[r#"
        1 ".version" type 2 mods 0
        1 "8.5" type 7 mods 0
        2 ".target" type 2 mods 0
        3 ".address_size" type 2 mods 0
        3 "64" type 7 mods 0
        4 "// one" type 9 mods 0
        5 "// two" type 9 mods 0
        6 ".visible" type 2 mods 0
        6 ".entry" type 2 mods 0
        6 "e" type 6 mods 1
        7 ".param" type 2 mods 0
        7 ".u64" type 2 mods 0
        7 "p" type 5 mods 1
        10 ".reg" type 2 mods 0
        10 ".b32" type 2 mods 0
        10 "%v" type 3 mods 1
        11 "L1" type 4 mods 1
        12 "mov" type 0 mods 0
        12 ".u32" type 1 mods 0
        12 "%v" type 3 mods 0
        12 "%tid" type 3 mods 2
        12 ".x" type 3 mods 2
        13 "bra" type 0 mods 0
        13 "L1" type 4 mods 0
    "#]],
    );

    let v = c.request::<r::FoldingRangeRequest>(lsp::FoldingRangeParams {
        text_document: doc(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let out: String = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}..{} {}\n", f["startLine"], f["endLine"], f["kind"]))
        .collect();
    check(
        out,
        expect![[r#"
        3..4 "comment"
        5..7 "region"
        8..13 "region"
    "#]],
    );

    let rename = |c: &mut Client, needle: &str, new: &str| {
        let id = c.send_request::<r::Rename>(lsp::RenameParams {
            text_document_position: tdp(text, needle, 1, 1),
            new_name: new.into(),
            work_done_progress_params: Default::default(),
        });
        match c.response(id) {
            Ok(v) => v["changes"][URI]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    format!(
                        "{} {}\n",
                        show_range(&e["range"]),
                        e["newText"].as_str().unwrap()
                    )
                })
                .collect::<String>(),
            Err((code, message)) => format!("error {code}: {message}\n"),
        }
    };
    let out = rename(&mut c, "%v", "%value")
        + &rename(&mut c, "L1", "$L__top")
        + &rename(&mut c, "L1", "9bad");
    check(
        out,
        expect![[r#"
        10:11-10:13 %value
        12:9-12:11 %value
        11:0-11:2 $L__top
        13:5-13:7 $L__top
        error -32602: `9bad` is not a valid name here
    "#]],
    );
}

#[test]
fn cancellation_and_unknown_requests() {
    let mut c = Client::new(None);
    c.open(URI, LOOP);
    c.diagnostics();
    // A request cancelled by the client (or by an edit racing it) is answered
    // with a result or with RequestCanceled / ContentModified, never dropped.
    let id = c.send_request::<r::InlayHintRequest>(lsp::InlayHintParams {
        text_document: doc(),
        range: lsp::Range::new(lsp::Position::new(0, 0), lsp::Position::new(999, 0)),
        work_done_progress_params: Default::default(),
    });
    c.notify::<n::Cancel>(lsp::CancelParams {
        id: lsp::NumberOrString::Number(c.next_id),
    });
    c.notify::<n::DidChangeTextDocument>(lsp::DidChangeTextDocumentParams {
        text_document: lsp::VersionedTextDocumentIdentifier::new(uri(), 2),
        content_changes: vec![lsp::TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: LOOP.replace("16", "32"),
        }],
    });
    match c.response(id) {
        Ok(v) => assert!(v.is_array()),
        Err((code, _)) => assert!(code == -32800 || code == -32801, "{code}"),
    }
    // The edit was applied: the trip count is now 32.
    assert!(hover(&mut c, &LOOP.replace("16", "32"), "$L__loop", 1, 1).contains("trip count 32"));
    // Cancelling a request that is already answered is harmless.
    c.notify::<n::Cancel>(lsp::CancelParams {
        id: lsp::NumberOrString::Number(1),
    });

    let id = c.send_request::<r::Completion>(lsp::CompletionParams {
        text_document_position: tdp(LOOP, "ret", 0, 0),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    });
    check(
        format!("{:?}", c.response(id)),
        expect![[r#"Err((-32601, "unknown request textDocument/completion"))"#]],
    );
}

#[test]
fn formatting_returns_the_canonical_layout() {
    let text = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry e(.param .u64 p)\n{\n.reg .b32 %v;\nL1:\n\tmov.u32   %v,%tid.x; // lane\n\tbra L1;\n}\n";
    let mut c = Client::new(None);
    c.open(URI, text);
    c.diagnostics();
    let v = c.request::<r::Formatting>(lsp::DocumentFormattingParams {
        text_document: doc(),
        options: lsp::FormattingOptions {
            tab_size: 4,
            insert_spaces: true,
            ..Default::default()
        },
        work_done_progress_params: Default::default(),
    });
    let edits: Vec<lsp::TextEdit> = serde_json::from_value(v).unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].range.start, lsp::Position::new(0, 0));
    check(
        edits[0].new_text.clone(),
        expect![[r#"
            .version 8.5
            .target sm_80
            .address_size 64
            .visible .entry e(.param .u64 p)
            {
                .reg .b32 %v;
            L1:
                mov.u32 %v, %tid.x; // lane
                bra L1;
            }
        "#]],
    );
}

/// Sends a `didChange` of `uri` given as raw JSON changes (positions an
/// `lsp_types::Position` cannot hold).
fn raw_change(c: &Client, version: i32, changes: Value) {
    let params = json!({
        "textDocument": { "uri": URI, "version": version },
        "contentChanges": changes,
    });
    let not = Notification::new(n::DidChangeTextDocument::METHOD.to_string(), params);
    c.conn.sender.send(not.into()).unwrap();
}

fn formatted(c: &mut Client) -> String {
    let v = c.request::<r::Formatting>(lsp::DocumentFormattingParams {
        text_document: doc(),
        options: lsp::FormattingOptions {
            tab_size: 4,
            insert_spaces: true,
            ..Default::default()
        },
        work_done_progress_params: Default::default(),
    });
    let edits: Vec<lsp::TextEdit> = serde_json::from_value(v).unwrap();
    edits.iter().map(|e| e.new_text.as_str()).collect()
}

#[test]
fn non_ascii_edits_and_invalid_positions_keep_the_server_serving() {
    let mut c = Client::new(None);
    c.open(URI, "к");
    assert_eq!(c.diagnostics().version, Some(1));
    // The edit that used to panic: UTF-16 column 1 is the end of "к" (2 bytes).
    raw_change(
        &c,
        2,
        json!([{ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "text": "ее\n" }]),
    );
    assert_eq!(c.diagnostics().version, Some(2));
    // Emoji (a surrogate pair: 2 columns) after the Cyrillic.
    raw_change(
        &c,
        3,
        json!([{ "range": { "start": { "line": 0, "character": 2 }, "end": { "line": 0, "character": 2 } }, "text": "😀x" }]),
    );
    assert_eq!(c.diagnostics().version, Some(3));
    raw_change(
        &c,
        4,
        json!([{ "range": { "start": { "line": 0, "character": 4 }, "end": { "line": 0, "character": 5 } }, "text": "中" }]),
    );
    assert_eq!(c.diagnostics().version, Some(4));
    // Negative positions clamp to the start of the text.
    raw_change(
        &c,
        5,
        json!([{ "range": { "start": { "line": -3, "character": -1 }, "end": { "line": -3, "character": 0 } }, "text": "// " }]),
    );
    assert_eq!(c.diagnostics().version, Some(5));
    // Positions past the end (and past u32) clamp to the end of the text.
    raw_change(
        &c,
        6,
        json!([
            { "range": { "start": { "line": 99, "character": 0 }, "end": { "line": 4294967296u64, "character": 7 } }, "text": ".version   8.5\n" },
            { "range": { "start": { "line": 0, "character": 400 }, "end": { "line": 0, "character": 400 } }, "text": " ok" }
        ]),
    );
    assert_eq!(c.diagnostics().version, Some(6));
    // A notification that is not a `didChange` at all is logged and dropped.
    raw_change(&c, 7, json!("garbage"));
    let log: lsp::LogMessageParams =
        serde_json::from_value(c.notification(n::LogMessage::METHOD)).unwrap();
    assert!(log.message.contains("didChange"), "{}", log.message);
    // The server still answers, on the text the edits gave.
    check(
        formatted(&mut c),
        expect![[r#"
            // ее😀中 ok
            .version 8.5
        "#]],
    );
}

#[test]
fn optimization_remarks_are_hints() {
    let mut c = Client::new(None);
    let text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";
    c.open("file:///remarks.ptx", text);
    // The problems first (none), then the same list with the remarks.
    assert!(c.diagnostics().diagnostics.is_empty());
    let d = c.diagnostics_with_remarks();
    let hints: Vec<String> = d
        .diagnostics
        .iter()
        .map(|x| {
            format!(
                "{:?} {}:{} {:?} {}",
                x.severity, x.range.start.line, x.range.start.character, x.code, x.message
            )
        })
        .collect();
    expect![[r#"
        Some(Hint) 11:1 Some(String("applied")) [cicc machine-scheduler] reordered 2 of 4 instructions in bb0: schedule length 30 -> 29 cycles, live units 3 -> 3; `st.global.u32` up 1 (depth 24)
        Some(Hint) 10:1 Some(String("applied")) [16 OriPerformLiveDeadFirst] removed dead `add.s32` defining %r2 (never read by code that stays)"#]].assert_eq(&hints.join("\n"));
}
