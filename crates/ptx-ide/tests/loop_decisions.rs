//! The loop decisions in the editor: the code lens over a loop header says
//! what phase 22 decided, the hover shows the whole trail, the code action
//! adds `.pragma "nounroll";` and, once applied, the lens says code 11 and
//! the action offered is the removal; the `knobs` setting changes the lens.

use std::path::Path;

use ptx_ide::{AnalysisHost, TextSize};

const TEXT: &str = ".version 8.0
.target sm_80
.address_size 64

.visible .entry k(
	.param .u64 k_p,
	.param .u32 k_n
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_p];
	ld.param.u32 %r5, [k_n];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
	setp.lt.s32 %p2, %r5, 1;
	@%p2 bra $L__BB0_3;
$L__BB0_1:
	mad.lo.s32 %r2, %r2, 3, %r3;
	xor.b32 %r2, %r2, %r1;
	add.s32 %r3, %r3, 1;
	setp.lt.s32 %p1, %r3, %r5;
	@%p1 bra $L__BB0_1;
$L__BB0_3:
	st.global.u32 [%rd2], %r2;
	ret;
}
";

fn lenses(host: &AnalysisHost, path: &Path) -> Vec<String> {
    host.analysis()
        .code_lenses(path)
        .unwrap()
        .into_iter()
        .map(|l| l.title)
        .collect()
}

fn apply(text: &str, edits: &[ptx_ide::TextEdit]) -> String {
    let mut out = text.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
    for e in edits {
        out.replace_range(
            usize::from(e.range.start())..usize::from(e.range.end()),
            &e.new_text,
        );
    }
    out
}

#[test]
fn lens_hover_and_nounroll_action() {
    let path = Path::new("/w/k.ptx");
    let mut host = AnalysisHost::new();
    // About phase 22's lens: cicc's unroller (which would unroll the loop
    // first and leave a `nounroll` remainder loop to phase 22) is off.
    host.set_knob("disable-LoopUnrollPass", "true").unwrap();
    host.set_file_text(path, TEXT);
    let titles = lenses(&host, path);
    assert!(
        titles
            .iter()
            .any(|t| t.contains("ptxas 22: unrolled x4: unknown trip count, UnrollUnknownCount=4")),
        "{titles:?}"
    );

    // Hover on the header label: the whole trail.
    let at = TextSize::from((TEXT.find("$L__BB0_1:").unwrap() + 2) as u32);
    let hover = host.analysis().hover(path, at).unwrap().unwrap();
    assert!(
        hover.markdown.contains("**Loop decisions**"),
        "{}",
        hover.markdown
    );
    assert!(
        hover.markdown.contains("unroll cost: 5"),
        "{}",
        hover.markdown
    );

    // The action adds the pragma; the lens then says code 11.
    let actions = host.analysis().code_actions(path, at).unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert!(
        actions[0].title.contains("add .pragma"),
        "{}",
        actions[0].title
    );
    let with_pragma = apply(TEXT, &actions[0].edits);
    assert!(with_pragma.contains("$L__BB0_1:\n\t.pragma \"nounroll\";\n\tmad.lo"));
    host.set_file_text(path, with_pragma.clone());
    let titles = lenses(&host, path);
    assert!(
        titles
            .iter()
            .any(|t| t.contains("ptxas 22: not unrolled: code 11")),
        "{titles:?}"
    );

    // And the action now removes it, giving back the original text.
    let actions = host.analysis().code_actions(path, at).unwrap();
    assert!(
        actions[0].title.contains("remove .pragma"),
        "{}",
        actions[0].title
    );
    assert_eq!(apply(&with_pragma, &actions[0].edits), TEXT);

    // The knobs setting changes the decision live.
    host.set_file_text(path, TEXT);
    host.set_knob("LoopUnrollFactor", "1").unwrap();
    let titles = lenses(&host, path);
    assert!(
        titles
            .iter()
            .any(|t| t.contains("ptxas 22: not unrolled: code 24")),
        "{titles:?}"
    );
}
