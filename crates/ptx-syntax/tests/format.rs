//! The formatter: idempotent, and it changes nothing but whitespace (the
//! sequence of significant tokens and comments is the same) on every PTX file of
//! test-data and of the shared corpus; snapshots of the layout for a few files.

use std::path::PathBuf;

use ptx_syntax::SyntaxKind;

fn files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = ptx_test_support::ptx_files_recursive(&root.join("test-data"));
    if let Some(corpus) = ptx_test_support::corpus_dir() {
        files.extend(ptx_test_support::ptx_files_recursive(&corpus.join("zluda")));
        files.extend(ptx_test_support::ptx_files_recursive(
            &corpus.join("dealii"),
        ));
    }
    files
}

fn significant_tokens(text: &str) -> Vec<String> {
    ptx_syntax::parse(text)
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() != SyntaxKind::WHITESPACE)
        .map(|t| t.text().to_string())
        .collect()
}

#[test]
fn idempotent_and_whitespace_only() {
    let mut formatted_files = 0;
    for path in files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(once) = ptx_syntax::format::format(&ptx_syntax::parse(&text)) else {
            continue; // syntax errors: left alone
        };
        formatted_files += 1;
        let reparsed = ptx_syntax::parse(&once);
        assert!(
            reparsed.errors().is_empty(),
            "{}: formatted text has errors: {:?}",
            path.display(),
            reparsed.errors()
        );
        assert_eq!(
            significant_tokens(&text),
            significant_tokens(&once),
            "{}: tokens changed",
            path.display()
        );
        let twice = ptx_syntax::format::format(&reparsed).unwrap();
        assert_eq!(once, twice, "{}: not idempotent", path.display());
    }
    assert!(
        formatted_files > 40,
        "only {formatted_files} files formatted"
    );
}

#[test]
fn broken_text_is_left_alone() {
    assert_eq!(
        ptx_syntax::format::format(&ptx_syntax::parse(".entry k( {")),
        None
    );
}

#[test]
fn layout_snapshot() {
    let text = "// header comment\n.version 8.3\n.target sm_80\n.address_size 64\n\n\n.visible .entry k(.param .u64 a,   .param .u32 n) .maxntid 256,1,1\n{\n.reg .pred %p<2>;   .reg .b32 %r<4>;\n  .reg .b64 %rd<3> ;\nld.param.u64 %rd1,[a];\n    mov.u32 %r1,%tid.x; // the lane\n setp.ge.u32   %p1 , %r1, 32;\n@!%p1 bra $L__done;\n{\n.reg .b32 t;\nadd.s32 t, %r1, -1;\n}\nst.global.u32 [%rd1+4],%r1;\n$L__done:\n\tret;\n}\n";
    let once = ptx_syntax::format::format(&ptx_syntax::parse(text)).unwrap();
    expect_test::expect![[r#"
        // header comment
        .version 8.3
        .target sm_80
        .address_size 64

        .visible .entry k(
            .param .u64 a,
            .param .u32 n
        ) .maxntid 256, 1, 1
        {
            .reg .pred %p<2>;
            .reg .b32 %r<4>;
            .reg .b64 %rd<3>;
            ld.param.u64 %rd1, [a];
            mov.u32 %r1, %tid.x; // the lane
            setp.ge.u32 %p1, %r1, 32;
            @!%p1 bra $L__done;
            {
                .reg .b32 t;
                add.s32 t, %r1, -1;
            }
            st.global.u32 [%rd1+4], %r1;
        $L__done:
            ret;
        }
    "#]]
    .assert_eq(&once);
}
