//! cicc `machine-scheduler` against the emulator: random straight-line
//! kernels (seeded) that reuse a small pool of registers (RAW, WAR and WAW
//! hazards everywhere), read and write the same global and shared words
//! (memory order through aliasing accesses), guard instructions with
//! predicates that are themselves redefined, chain carries (`add.cc` /
//! `addc`), and put `bar.sync`, `ld.volatile` and `membar` in between. Each
//! is scheduled with the default knobs, with `nvptx-sched4reg`, and with
//! `--maxrregcount 16` (pressure first); the scheduled kernel must compute
//! the same buffers as the original, and enough of them must actually be
//! reordered for the test to mean something.

use std::sync::Arc;

mod common;

use ptx_analysis::target::Target;
use ptx_emu::diff::Verdict;
use ptx_knobs::{knobs, KnobId, KnobValue};
use ptx_opt::{run_phase, Defaults, PassContext, PhaseId, RemarkKind};

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const REGS: u64 = 8;

fn kernel(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    let mut body = String::new();
    let r = |rng: &mut Rng| format!("%r{}", 1 + rng.below(REGS));
    // Per thread: 16 words of `out` (slots 0-7 for memory traffic, 8-15 for
    // the final registers), 8 words of `in`, 8 words of shared memory.
    body.push_str(
        "ld.param.u64 %rd1, [k_out];\nld.param.u64 %rd2, [k_in];\n\
         cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r20, %tid.x;\nmul.wide.u32 %rd5, %r20, 64;\nadd.s64 %rd6, %rd3, %rd5;\n\
         mul.wide.u32 %rd7, %r20, 32;\nadd.s64 %rd8, %rd4, %rd7;\n\
         shl.b32 %r21, %r20, 5;\nmov.u32 %r22, sbuf;\nadd.s32 %r23, %r22, %r21;\n",
    );
    for k in 1..=REGS {
        body.push_str(&format!("add.s32 %r{k}, %r20, {};\n", rng.below(100)));
    }
    body.push_str("setp.lt.u32 %p1, %r1, 50;\nsetp.gt.u32 %p2, %r2, 20;\n");
    let n = 20 + rng.below(30);
    for _ in 0..n {
        let (a, b, c) = (r(&mut rng), r(&mut rng), r(&mut rng));
        let slot = rng.below(8) * 4;
        let line = match rng.below(20) {
            0..=4 => {
                let op = ["add.s32", "mul.lo.s32", "xor.b32", "sub.s32", "and.b32"]
                    [rng.below(5) as usize];
                format!("{op} {a}, {b}, {c};")
            }
            5 => format!("shl.b32 {a}, {b}, {};", rng.below(5)),
            6 => format!("ld.global.u32 {a}, [%rd6+{slot}];"),
            7 => format!("ld.global.u32 {a}, [%rd8+{slot}];"),
            8 => format!("st.global.u32 [%rd6+{slot}], {b};"),
            9 => format!("ld.shared.u32 {a}, [%r23+{slot}];"),
            10 => format!("st.shared.u32 [%r23+{slot}], {b};"),
            11 => format!("@%p1 add.s32 {a}, {b}, 7;"),
            12 => format!("@!%p2 mul.lo.s32 {a}, {b}, {c};"),
            13 => format!(
                "setp.lt.u32 %p{}, {b}, {};",
                1 + rng.below(2),
                rng.below(200)
            ),
            14 => format!(
                "add.cc.u32 {a}, {b}, {c};\naddc.u32 {}, {c}, 0;",
                r(&mut rng)
            ),
            15 => "bar.sync 0;".to_string(),
            16 => format!("ld.volatile.global.u32 {a}, [%rd6+{slot}];"),
            17 => "membar.cta;".to_string(),
            18 => format!("selp.b32 {a}, {b}, {c}, %p2;"),
            _ => format!("@%p2 st.global.u32 [%rd6+{slot}], {b};"),
        };
        body.push_str(&line);
        body.push('\n');
    }
    for k in 1..=REGS {
        body.push_str(&format!("st.global.u32 [%rd6+{}], %r{k};\n", 28 + 4 * k));
    }
    format!(
        "{HEADER}.shared .align 4 .b8 sbuf[2048];\n\
         .visible .entry k(.param .u64 k_out, .param .u64 k_in)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<12>;\n{body}ret;\n}}\n"
    )
}

/// Defaults plus `--maxrregcount`.
struct Ctx {
    base: Defaults,
    max_regs: Option<u32>,
}

impl PassContext for Ctx {
    fn knob(&self, id: KnobId) -> KnobValue {
        self.base.knob(id)
    }
    fn target(&self) -> Target {
        self.base.target()
    }
    fn max_regs(&self) -> Option<u32> {
        self.max_regs
    }
}

/// Schedules `text` under `ctx`; returns whether the phase reordered it.
fn check(text: &str, ctx: &Ctx, what: &str) -> bool {
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    assert!(errors.is_empty(), "{what}: {errors:?}\n{text}");
    let f = Arc::new(module.functions[0].clone());
    let out = run_phase(PhaseId::CiccMachineScheduler, ctx, &f);
    if Arc::ptr_eq(&out.function, &f) {
        return false;
    }
    assert!(
        out.remarks.iter().any(|r| r.kind == RemarkKind::Applied),
        "{what}: changed without a remark"
    );
    let (report, opt_text) = common::verify_replaced(&module, text, &out.function, 32, what);
    assert_eq!(
        report.verdict(),
        Verdict::Equal,
        "{what}: {:?} {:?}\n--- original\n{text}\n--- scheduled\n{opt_text}",
        report.problem,
        report.runs
    );
    true
}

#[test]
fn scheduled_random_kernels_match_the_original() {
    let mut sched4reg = Defaults::new(80);
    sched4reg
        .knobs
        .insert(knobs::nvptx_sched4reg.id(), KnobValue::Bool(true));
    let contexts = [
        (
            "default",
            Ctx {
                base: Defaults::new(80),
                max_regs: None,
            },
        ),
        (
            "nvptx-sched4reg",
            Ctx {
                base: sched4reg,
                max_regs: None,
            },
        ),
        (
            "maxrregcount 16",
            Ctx {
                base: Defaults::new(80),
                max_regs: Some(16),
            },
        ),
    ];
    let mut reordered = 0;
    let mut total = 0;
    for seed in 0..60 {
        let text = kernel(seed);
        for (name, ctx) in &contexts {
            total += 1;
            if check(&text, ctx, &format!("seed {seed}, {name}")) {
                reordered += 1;
            }
        }
    }
    eprintln!("{reordered} of {total} schedules reordered");
    assert!(
        reordered * 4 >= total,
        "only {reordered} of {total} schedules reordered anything"
    );
}
