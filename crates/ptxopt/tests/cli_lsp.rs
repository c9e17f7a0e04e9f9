//! `ptxopt lsp` over real stdio: initialize, open a file with an error, receive
//! its diagnostics, shut down cleanly (exit status 0).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn send(stdin: &mut impl Write, value: &str) {
    write!(stdin, "Content-Length: {}\r\n\r\n{}", value.len(), value).unwrap();
    stdin.flush().unwrap();
}

fn receive(reader: &mut impl BufRead) -> String {
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    String::from_utf8(body).unwrap()
}

#[test]
fn stdio_session_publishes_diagnostics_and_exits_cleanly() {
    // As VS Code's language client starts it (`TransportKind.stdio` adds
    // `--stdio`); Neovim's e2e test starts plain `ptxopt lsp`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .args(["lsp", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());

    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    );
    let init = receive(&mut stdout);
    assert!(
        init.contains(r#""id":1"#) && init.contains("capabilities"),
        "{init}"
    );
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    );

    let text = ".version 8.3\\n.target sm_80\\n.address_size 64\\n.visible .entry k()\\n{\\n    .reg .b32 %r<2>;\\n    add.s32 %r1, %r9, 1;\\n    ret;\\n}\\n";
    let open = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"file:///tmp/k.ptx","languageId":"ptx","version":1,"text":"{text}"}}}}}}"#
    );
    send(&mut stdin, &open);
    let diagnostics = loop {
        let message = receive(&mut stdout);
        if message.contains("textDocument/publishDiagnostics") {
            break message;
        }
    };
    assert!(
        diagnostics.contains("undeclared register `%r9`"),
        "{diagnostics}"
    );
    assert!(diagnostics.contains(r#""line":6"#), "{diagnostics}");

    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
    );
    loop {
        if receive(&mut stdout).contains(r#""id":2"#) {
            break;
        }
    }
    send(&mut stdin, r#"{"jsonrpc":"2.0","method":"exit"}"#);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
