//! cicc's machine pipeliner against the emulator: loops of several shapes
//! (stage-crossing values expanded over registers, loop-carried values,
//! guarded instructions and stores, loads and stores that alias across
//! iterations, exit tests with `@%p` and `@!%p`,
//! 64-bit and descending induction variables), pipelined with the seed's
//! defaults and with forced IIs and stage limits that give 2, 3 and 4
//! stages (and up to 9 with `pipeliner-max-stages` raised). Every thread
//! runs the loop its own number of times: 0 to 11 for the first 48 threads
//! (0, 1, stages - 1, stages and stages + 1 for every stage count up to
//! 10), then `5 t` capped at 60 (large). The original and the pipelined kernel
//! must compute the same buffers, and ptxas must accept the output (when
//! installed).

use std::sync::Arc;

mod common;

use ptx_emu::diff::Verdict;
use ptx_knobs::{knobs, KnobValue};
use ptx_opt::{run_phase, Defaults, PhaseId, RemarkKind};

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// A kernel around `body` (the loop block's instructions before the back
/// edge `@%p1 bra $L__LOOP`). Available: `%r1` = thread id, `%r5` = trip
/// count (0..11 then 5 t up to 60; the loop is skipped for 0), `%r2` = 0 (the
/// counter the body must advance and compare into `%p1`), `%r3`/`%r4` =
/// accumulators (7, 1), `%f1` = 0.0, `%rd3` = this thread's 64-word slice
/// of the buffer `k_a` (filled with `3 i + 1` by a prologue), `%rd6` = 0.
/// After the loop `%r2`, `%r3`, `%r4`, `%f1`, `%rd6` and the slice are
/// written out.
fn kernel(body: &str) -> String {
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out,
	.param .u64 k_a
)
{{
	.reg .pred %p<8>;
	.reg .f32 %f<20>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<20>;

	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u64 %rd2, [k_a];
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p2, %r1, 48;
	rem.u32 %r6, %r1, 12;
	mul.lo.s32 %r7, %r1, 5;
	selp.b32 %r5, %r6, %r7, %p2;
	min.u32 %r5, %r5, 60;
	mul.wide.u32 %rd4, %r1, 256;
	add.s64 %rd3, %rd2, %rd4;
	mov.u32 %r8, 0;
$L__FILL:
	mad.lo.s32 %r9, %r8, 3, 1;
	mul.wide.u32 %rd5, %r8, 4;
	add.s64 %rd5, %rd3, %rd5;
	st.global.u32 [%rd5], %r9;
	add.s32 %r8, %r8, 1;
	setp.ge.u32 %p3, %r8, 64;
	@%p3 bra $L__FILLED;
	bra.uni $L__FILL;
$L__FILLED:
	mov.u32 %r2, 0;
	mov.u32 %r3, 7;
	mov.u32 %r4, 1;
	mov.f32 %f1, 0f00000000;
	mov.u64 %rd6, 0;
	mov.u64 %rd7, %rd3;
	setp.eq.s32 %p3, %r5, 0;
	@%p3 bra $L__DONE;
$L__LOOP:
{body}	@%p1 bra $L__LOOP;
$L__DONE:
	mul.wide.u32 %rd8, %r1, 32;
	add.s64 %rd9, %rd1, %rd8;
	st.global.u32 [%rd9], %r2;
	st.global.u32 [%rd9+4], %r3;
	st.global.u32 [%rd9+8], %r4;
	st.global.f32 [%rd9+12], %f1;
	st.global.u64 [%rd9+16], %rd6;
	ret;
}}
"
    )
}

/// Loop bodies (before the back edge).
fn bodies() -> Vec<(&'static str, String)> {
    vec![
        (
            "int-fp chain with stage-crossing values",
            "	mul.lo.s32 %r10, %r2, %r1;
	xor.b32 %r11, %r10, %r4;
	cvt.rn.f32.s32 %f2, %r11;
	mul.f32 %f3, %f2, 0f3F000000;
	add.f32 %f1, %f1, %f3;
	add.s32 %r4, %r4, %r11;
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "loads and stores aliasing across iterations",
            "	ld.global.u32 %r10, [%rd7];
	ld.global.u32 %r11, [%rd7+4];
	mad.lo.s32 %r12, %r10, 3, %r11;
	add.s32 %r3, %r3, %r12;
	st.global.u32 [%rd7+4], %r12;
	add.s64 %rd7, %rd7, 4;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "guarded instructions and a value used before its def",
            "	and.b32 %r10, %r2, 1;
	setp.eq.s32 %p4, %r10, 0;
	@%p4 add.s32 %r3, %r3, %r11;
	mul.lo.s32 %r11, %r2, 7;
	@!%p4 xor.b32 %r4, %r4, %r11;
	shl.b32 %r12, %r11, 2;
	add.s32 %r4, %r4, %r12;
	add.s32 %r2, %r2, 1;
	setp.ne.s32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "64-bit descending counter",
            "	cvt.u64.u32 %rd10, %r2;
	mul.lo.s64 %rd11, %rd10, %rd10;
	add.s64 %rd6, %rd6, %rd11;
	cvt.u32.u64 %r10, %rd11;
	add.s32 %r3, %r3, %r10;
	add.s32 %r2, %r2, 1;
	sub.s32 %r5, %r5, 1;
	setp.gt.s32 %p1, %r5, 0;
"
            .into(),
        ),
        (
            "predicate and float recurrence",
            "	cvt.rn.f32.u32 %f2, %r2;
	fma.rn.f32 %f1, %f2, 0f3F000000, %f1;
	setp.gt.f32 %p5, %f1, 0f41200000;
	selp.b32 %r10, 3, 5, %p5;
	add.s32 %r3, %r3, %r10;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "loads feeding a reduction",
            "	ld.global.u32 %r10, [%rd7];
	ld.global.u32 %r11, [%rd7+8];
	mul.lo.s32 %r12, %r10, %r11;
	add.s32 %r3, %r3, %r12;
	add.s64 %rd7, %rd7, 4;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "a store beside a load of the next words",
            "	ld.global.u32 %r10, [%rd7+8];
	add.s32 %r3, %r3, %r10;
	mul.lo.s32 %r11, %r2, %r2;
	st.global.u32 [%rd7], %r11;
	add.s64 %rd7, %rd7, 4;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, %r5;
"
            .into(),
        ),
        (
            "a guarded store read back by a load",
            "	and.b32 %r10, %r2, 3;
	setp.ne.s32 %p4, %r10, 0;
	mul.lo.s32 %r11, %r2, %r2;
	@%p4 st.global.u32 [%rd7], %r11;
	ld.global.u32 %r12, [%rd7];
	add.s32 %r3, %r3, %r12;
	add.s64 %rd7, %rd7, 4;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, %r5;
"
            .into(),
        ),
    ]
}

/// The same loop with the exit test inverted: `setp.ge` and `@!%p1 bra`.
fn negated(text: &str) -> Option<String> {
    let t = text.replace("setp.lt.s32 %p1,", "setp.ge.s32 %p1,");
    let t = t.replace("setp.lt.u32 %p1,", "setp.ge.u32 %p1,");
    (t != text).then(|| t.replace("@%p1 bra $L__LOOP;", "@!%p1 bra $L__LOOP;"))
}

/// Runs the pipeliner with `knobs`; returns the remark (kind, message) and
/// the number of loops pipelined after checking the emulator and ptxas.
fn check(text: &str, settings: &[(ptx_knobs::KnobId, KnobValue)], what: &str) -> (bool, String) {
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    assert!(errors.is_empty(), "{what}: {errors:?}\n{text}");
    let f = Arc::new(module.functions[0].clone());
    let mut ctx = Defaults::new(80);
    // Code generation is what these tests check: every schedule found is
    // emitted (the register-peak rule has its filetests).
    ctx.knobs.insert(
        knobs::pipeliner_keep_register_peak.id(),
        KnobValue::Bool(false),
    );
    for (id, v) in settings {
        ctx.knobs.insert(*id, v.clone());
    }
    let out = run_phase(PhaseId::CiccMachinePipeliner, &ctx, &f);
    // The fill loop has two blocks (no remark): the one remark is the loop's.
    let remark = out.remarks.last().expect("a remark for the loop");
    let applied = remark.kind == RemarkKind::Applied;
    let message = remark.message.clone();
    let (report, opt_text) = common::verify_replaced(&module, text, &out.function, 64, what);
    assert_eq!(
        report.verdict(),
        Verdict::Equal,
        "{what} ({message}): {:?} {:?}\n{opt_text}",
        report.problem,
        report.runs
    );
    if applied {
        if let Some(ptxas) = ptx_test_support::ptxas() {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let tag = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let file =
                std::env::temp_dir().join(format!("ptxopt-sms-{}-{tag}.ptx", std::process::id()));
            std::fs::write(&file, &opt_text).expect("write");
            let result = ptx_test_support::run_ptxas(&ptxas, &file, "sm_80");
            let _ = std::fs::remove_file(&file);
            if let Err(e) = result {
                panic!("{what}: ptxas rejects the output: {e}\n{opt_text}");
            }
        }
    }
    (applied, message)
}

fn int(k: ptx_knobs::IntKnob, v: i64) -> (ptx_knobs::KnobId, KnobValue) {
    (k.id(), KnobValue::Int(v))
}

#[test]
fn pipelined_loops_match_the_original_for_every_trip_count() {
    let mut applied = 0;
    let mut stages_seen = std::collections::BTreeSet::new();
    let mut cases: Vec<(String, String)> = Vec::new();
    for (name, body) in bodies() {
        let text = kernel(&body);
        if let Some(neg) = negated(&text) {
            cases.push((format!("{name}, negated exit"), neg));
        }
        cases.push((name.to_string(), text));
    }
    for (name, text) in cases {
        let mut variants: Vec<Vec<(ptx_knobs::KnobId, KnobValue)>> = vec![
            vec![],
            // Long-latency loads need more stages than the default 3.
            vec![
                int(knobs::pipeliner_max_stages, 8),
                int(knobs::pipeliner_ii_search_range, 40),
            ],
        ];
        // A memory recurrence through a load: a large MII.
        variants.push(vec![
            int(knobs::pipeliner_max_mii, 200),
            int(knobs::pipeliner_max_stages, 8),
        ]);
        for ii in [1, 2, 3, 4, 6, 9, 13, 20, 30, 45, 70] {
            variants.push(vec![
                int(knobs::pipeliner_force_ii, ii),
                int(knobs::pipeliner_max_stages, 8),
            ]);
        }
        for v in &variants {
            let (ok, message) = check(&text, v, &format!("{name} {v:?}"));
            if ok {
                applied += 1;
                let stages = message
                    .split('(')
                    .next_back()
                    .and_then(|t| t.split_whitespace().next())
                    .and_then(|t| t.parse::<u32>().ok())
                    .unwrap_or(0);
                stages_seen.insert(stages);
            }
        }
    }
    eprintln!("{applied} pipelined, stage counts {stages_seen:?}");
    assert!(applied >= 20, "only {applied} pipelined");
    for s in [2, 3, 4, 5, 6, 9] {
        assert!(
            stages_seen.contains(&s),
            "no {s}-stage schedule: {stages_seen:?}"
        );
    }
}

#[test]
fn the_default_pipelines_the_chain_loop() {
    let (ok, message) = check(&kernel(&bodies()[0].1), &[], "chain");
    assert!(ok, "{message}");
    assert!(message.starts_with("Pipelined succesfully!"), "{message}");
}

#[test]
fn register_pressure_back_off() {
    use ptx_opt::phases::machine_pipeliner::{sms, Config};
    use ptx_opt::phases::modulo::{renamable, Ddg, DepKinds, UseCounts};
    let text = kernel(&bodies()[0].1);
    let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    let f = &module.functions[0];
    let target = ptx_analysis::Target::for_sm(80);
    let header = f
        .layout
        .iter()
        .copied()
        .find(|&b| f.blocks[b].label.as_deref() == Some("$L__LOOP"))
        .expect("loop");
    let insts = &f.blocks[header].insts;
    let (branch, body) = insts.split_last().expect("body");
    let guard = f.insts[*branch].guard.map(|g| g.reg);
    let renamed = renamable(f, &UseCounts::new(f), header, body, guard);
    let ddg = Ddg::build(f, body, &target, DepKinds::All, &renamed);
    let control: Vec<usize> = vec![body.len() - 1];
    let mut cfg = Config {
        max_mii: 27,
        force_ii: 0,
        ii_search_range: 10,
        max_stages: 3,
        ignore_recmii: false,
        register_pressure: true,
        register_pressure_margin: 5,
        annotate_only: false,
        reg_limit: 255,
    };
    let s = sms(&ddg, &control, &target, &cfg).expect("schedule");
    // Under a limit just below its MaxLive the search backs off to a larger
    // II (fewer values overlap) or gives up.
    cfg.reg_limit = s.max_live - 1;
    cfg.register_pressure_margin = 0;
    match sms(&ddg, &control, &target, &cfg) {
        Ok(t) => assert!(t.ii > s.ii && t.max_live < s.max_live, "{t:?} vs {s:?}"),
        Err(d) => assert!(d.message.contains("register pressure"), "{}", d.message),
    }
    cfg.reg_limit = 1;
    let d = sms(&ddg, &control, &target, &cfg).expect_err("backs off");
    assert!(d.message.contains("register pressure"), "{}", d.message);
    // The margin: 5% of 255 leaves 242.
    cfg.reg_limit = 255;
    cfg.register_pressure_margin = 100;
    assert!(sms(&ddg, &control, &target, &cfg).is_err());
}

/// A body near the size bound (252 instructions) is scheduled in bounded
/// time and stays exact; one over it (300) is refused.
#[test]
fn large_bodies() {
    let body = |groups: usize| {
        let mut b = String::new();
        for g in 0..groups {
            let r = 12 + (g % 20);
            b.push_str(&format!(
                "	mul.lo.s32 %r{r}, %r2, {};\n	xor.b32 %r{r}, %r{r}, %r4;\n	add.s32 %r3, %r3, %r{r};\n	shl.b32 %r4, %r4, 1;\n",
                g + 3
            ));
        }
        b.push_str("	add.s32 %r2, %r2, 1;\n	setp.lt.s32 %p1, %r2, %r5;\n");
        b
    };
    let start = std::time::Instant::now();
    let (_, message) = check(&kernel(&body(62)), &[], "large");
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    assert!(!message.is_empty());
    let (ok, message) = check(&kernel(&body(75)), &[], "too large");
    assert!(!ok && message.contains("at most 256"), "{message}");
}
