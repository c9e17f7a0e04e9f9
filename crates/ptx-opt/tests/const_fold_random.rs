//! Constant folding against the emulator on random constants: kernels of
//! `mov`s of random immediates feeding integer, float, half, `cvt` and
//! `setp` instructions of many forms, each result stored. The kernel after
//! phase 13 (GeneralOptimizeEarly) must fold (almost) everything and store
//! the same bytes on the emulator (`ptx_emu::diff`) as the original.

use std::sync::Arc;

use ptx_emu::diff::{self, Side, Verdict, VerifyOptions};
use ptx_opt::{run_phase, Defaults, PhaseId};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Integer bits with a bias toward edge cases.
    fn int(&mut self, bits: u32) -> u64 {
        let m = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let v = match self.below(8) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => self.below(40),
            4 => m >> 1,
            5 => (m >> 1) + 1,
            6 => m - self.below(40),
            _ => self.next(),
        };
        v & m
    }
    fn f32(&mut self) -> u32 {
        const SPECIAL: [u32; 12] = [
            0,
            0x8000_0000,
            0x3F80_0000,
            0xBF80_0000,
            0x3F00_0000,
            0x4040_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x0000_0001,
            0x7F7F_FFFF,
            0x0080_0000,
        ];
        match self.below(3) {
            0 => SPECIAL[self.below(12) as usize],
            1 => ((self.below(60) as u32 + 97) << 23) | (self.next() as u32 & 0x807F_FFFF),
            _ => self.next() as u32,
        }
    }
    fn f64(&mut self) -> u64 {
        match self.below(3) {
            0 => (f32::from_bits(self.f32()) as f64).to_bits(),
            1 => ((self.below(200) + 923) << 52) | (self.next() & 0x800F_FFFF_FFFF_FFFF),
            _ => self.next(),
        }
    }
    fn f16(&mut self) -> u64 {
        const SPECIAL: [u64; 8] = [0, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0x7E00, 0x0001, 0x7BFF];
        if self.below(3) == 0 {
            SPECIAL[self.below(8) as usize]
        } else {
            self.next() & 0xffff
        }
    }
}

/// Register classes: `r` b32, `d` b64, `h` b16, `f` f32, `g` f64, `p` pred;
/// `H` is a b16 register holding an f16/bf16 value.
const FORMS: &[(&str, char, &str)] = &[
    ("add.s32", 'r', "rr"),
    ("sub.s32", 'r', "rr"),
    ("mul.lo.s32", 'r', "rr"),
    ("mul.hi.s32", 'r', "rr"),
    ("mul.hi.u32", 'r', "rr"),
    ("mad.lo.u32", 'r', "rrr"),
    ("mad.hi.sat.s32", 'r', "rrr"),
    ("div.s32", 'r', "rr"),
    ("div.u32", 'r', "rr"),
    ("rem.s32", 'r', "rr"),
    ("rem.u32", 'r', "rr"),
    ("shl.b32", 'r', "rr"),
    ("shr.s32", 'r', "rr"),
    ("shr.u32", 'r', "rr"),
    ("and.b32", 'r', "rr"),
    ("or.b32", 'r', "rr"),
    ("xor.b32", 'r', "rr"),
    ("min.s32", 'r', "rr"),
    ("max.u32", 'r', "rr"),
    ("add.sat.s32", 'r', "rr"),
    ("sub.sat.s32", 'r', "rr"),
    ("mul24.lo.s32", 'r', "rr"),
    ("mad24.hi.u32", 'r', "rrr"),
    ("sad.s32", 'r', "rrr"),
    ("bfe.s32", 'r', "rrr"),
    ("bfe.u32", 'r', "rrr"),
    ("bfi.b32", 'r', "rrrr"),
    ("prmt.b32", 'r', "rrr"),
    ("prmt.b32.ecl", 'r', "rrr"),
    ("popc.b32", 'r', "r"),
    ("clz.b32", 'r', "r"),
    ("brev.b32", 'r', "r"),
    ("not.b32", 'r', "r"),
    ("neg.s32", 'r', "r"),
    ("abs.s32", 'r', "r"),
    ("cnot.b32", 'r', "r"),
    ("bfind.u32", 'r', "r"),
    ("bfind.shiftamt.s32", 'r', "r"),
    ("shf.l.clamp.b32", 'r', "rrr"),
    ("shf.r.wrap.b32", 'r', "rrr"),
    ("dp4a.s32.u32", 'r', "rrr"),
    ("dp2a.lo.u32.s32", 'r', "rrr"),
    ("fns.b32", 'r', "rrr"),
    ("bmsk.clamp.b32", 'r', "rr"),
    ("szext.wrap.s32", 'r', "rr"),
    ("lop3.b32", 'r', "rrr"),
    ("add.s64", 'd', "dd"),
    ("mul.lo.u64", 'd', "dd"),
    ("mul.hi.s64", 'd', "dd"),
    ("div.s64", 'd', "dd"),
    ("rem.u64", 'd', "dd"),
    ("shl.b64", 'd', "dr"),
    ("shr.s64", 'd', "dr"),
    ("mul.wide.s32", 'd', "rr"),
    ("mad.wide.u32", 'd', "rrd"),
    ("add.s16", 'h', "hh"),
    ("mul.lo.u16", 'h', "hh"),
    ("mul.wide.s16", 'r', "hh"),
    ("min.s16", 'h', "hh"),
    ("add.f32", 'f', "ff"),
    ("add.rz.f32", 'f', "ff"),
    ("sub.rm.f32", 'f', "ff"),
    ("mul.rp.f32", 'f', "ff"),
    ("mul.ftz.f32", 'f', "ff"),
    ("add.sat.f32", 'f', "ff"),
    ("fma.rn.f32", 'f', "fff"),
    ("fma.rz.ftz.sat.f32", 'f', "fff"),
    ("mad.rn.f32", 'f', "fff"),
    ("div.rn.f32", 'f', "ff"),
    ("div.rz.f32", 'f', "ff"),
    ("div.rn.ftz.f32", 'f', "ff"),
    ("sqrt.rn.f32", 'f', "f"),
    ("sqrt.rm.f32", 'f', "f"),
    ("rcp.rn.f32", 'f', "f"),
    ("min.f32", 'f', "ff"),
    ("max.NaN.f32", 'f', "ff"),
    ("abs.f32", 'f', "f"),
    ("neg.f32", 'f', "f"),
    ("copysign.f32", 'f', "ff"),
    ("add.rn.f64", 'g', "gg"),
    ("mul.rm.f64", 'g', "gg"),
    ("fma.rz.f64", 'g', "ggg"),
    ("div.rn.f64", 'g', "gg"),
    ("sqrt.rp.f64", 'g', "g"),
    ("rcp.rn.f64", 'g', "g"),
    ("min.f64", 'g', "gg"),
    ("add.f16", 'H', "HH"),
    ("mul.rn.f16", 'H', "HH"),
    ("fma.rn.f16", 'H', "HHH"),
    ("fma.rn.sat.f16", 'H', "HHH"),
    ("min.f16", 'H', "HH"),
    ("neg.f16", 'H', "H"),
    ("add.rn.bf16", 'H', "HH"),
    ("cvt.rzi.s32.f32", 'r', "f"),
    ("cvt.rni.u32.f64", 'r', "g"),
    ("cvt.rn.f32.s64", 'f', "d"),
    ("cvt.rz.f32.u32", 'f', "r"),
    ("cvt.rz.f16.f32", 'H', "f"),
    ("cvt.rn.bf16.f32", 'H', "f"),
    ("cvt.f32.f16", 'f', "H"),
    ("cvt.f32.bf16", 'f', "H"),
    ("cvt.sat.s8.s32", 'h', "r"),
    ("cvt.u16.u64", 'h', "d"),
    ("cvt.s64.s16", 'd', "h"),
    ("cvt.rn.f32.f64", 'f', "g"),
    ("cvt.f64.f32", 'g', "f"),
    ("cvt.rmi.f32.f32", 'f', "f"),
    ("cvt.rn.f16x2.f32", 'r', "ff"),
    ("cvt.rni.sat.u8.f32", 'h', "f"),
    ("setp.lt.s32", 'p', "rr"),
    ("setp.ne.f32", 'p', "ff"),
    ("setp.gtu.f64", 'p', "gg"),
    ("setp.ge.u64", 'p', "dd"),
    ("setp.num.f32", 'p', "ff"),
    ("setp.lo.u32", 'p', "rr"),
];

struct Gen {
    rng: Rng,
    body: String,
    next: [u32; 6],
    store: u32,
}

impl Gen {
    fn reg(&mut self, class: char) -> String {
        let (i, prefix) = match class {
            'r' => (0, "%r"),
            'd' => (1, "%rd"),
            'h' | 'H' => (2, "%rs"),
            'f' => (3, "%f"),
            'g' => (4, "%fd"),
            _ => (5, "%p"),
        };
        self.next[i] += 1;
        format!("{prefix}{}", self.next[i])
    }

    /// A register set to a random constant by `mov`.
    fn constant(&mut self, class: char) -> String {
        let r = self.reg(class);
        let line = match class {
            'r' => format!("mov.b32 {r}, {};", self.rng.int(32)),
            'd' => format!("mov.b64 {r}, {};", self.rng.int(64)),
            'h' => format!("mov.b16 {r}, {};", self.rng.int(16)),
            'H' => format!("mov.b16 {r}, {};", self.rng.f16()),
            'f' => format!("mov.f32 {r}, 0f{:08X};", self.rng.f32()),
            _ => format!("mov.f64 {r}, 0d{:016X};", self.rng.f64()),
        };
        self.body.push_str(&format!("\t{line}\n"));
        r
    }

    fn store(&mut self, class: char, r: &str) {
        let off = self.store * 8;
        self.store += 1;
        let line = match class {
            'r' | 'f' => format!("st.global.b32 [%rd1+{off}], {r};"),
            'd' | 'g' => format!("st.global.b64 [%rd1+{off}], {r};"),
            'h' | 'H' => format!("st.global.b16 [%rd1+{off}], {r};"),
            _ => {
                let s = self.reg('r');
                self.body.push_str(&format!("\tselp.b32 {s}, 1, 0, {r};\n"));
                format!("st.global.b32 [%rd1+{off}], {s};")
            }
        };
        self.body.push_str(&format!("\t{line}\n"));
    }
}

fn kernel(seed: u64, count: usize) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        body: String::new(),
        next: [0; 6],
        store: 0,
    };
    g.next[1] = 1; // %rd1 is the buffer
    for _ in 0..count {
        let (op, dst, srcs) = FORMS[g.rng.below(FORMS.len() as u64) as usize];
        let ops: Vec<String> = srcs.chars().map(|c| g.constant(c)).collect();
        let d = g.reg(dst);
        let mut line = format!("\t{op} {d}, {}", ops.join(", "));
        if op.starts_with("lop3") {
            line.push_str(&format!(", {}", g.rng.below(256)));
        }
        g.body.push_str(&format!("{line};\n"));
        g.store(dst, &d);
    }
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_p\n)\n{{\n\t.reg .pred %p<{}>;\n\t.reg .b16 %rs<{}>;\n\t.reg .b32 %r<{}>;\n\t.reg .b64 %rd<{}>;\n\t.reg .f32 %f<{}>;\n\t.reg .f64 %fd<{}>;\n\n\tld.param.u64 %rd1, [k_p];\n{}\tret;\n}}\n",
        g.next[5] + 1,
        g.next[2] + 1,
        g.next[0] + 1,
        g.next[1] + 1,
        g.next[3] + 1,
        g.next[4] + 1,
        g.body
    )
}

#[test]
fn folds_agree_with_the_emulator() {
    let ctx = Defaults::new(90);
    let mut folded = 0u64;
    let mut insts = 0u64;
    for seed in 1..=200u64 {
        let text = kernel(seed, 40);
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        assert!(errors.is_empty(), "seed {seed}: {errors:?}\n{text}");
        let mut optimized = module.clone();
        for f in optimized.functions.iter_mut() {
            let input = Arc::new(f.clone());
            let out = run_phase(PhaseId::GeneralOptimizeEarly, &ctx, &input);
            folded += out
                .stats
                .iter()
                .find(|s| s.name == "instructions folded")
                .map_or(0, |s| s.value);
            *f = (*out.function).clone();
        }
        insts += 40;
        let opt_text = ptx_ir::emit_module(&optimized);
        let report = diff::verify_sources(
            Side {
                module: &module,
                text: Some(&text),
            },
            Side {
                module: &optimized,
                text: Some(&opt_text),
            },
            "k",
            &VerifyOptions {
                shapes: vec![(ptx_emu::Dim3::x(1), ptx_emu::Dim3::x(1))],
                ..VerifyOptions::default()
            },
        );
        assert_eq!(
            report.verdict(),
            Verdict::Equal,
            "seed {seed}: {:?} {:?}\n--- original\n{text}\n--- folded\n{opt_text}",
            report.problem,
            report
                .runs
                .iter()
                .map(|r| format!("{:?}", r.outcome))
                .collect::<Vec<_>>()
        );
    }
    // Everything but division by zero folds (the count includes the
    // `selp` that stores each predicate).
    eprintln!("folded {folded} (generated {insts} instructions)");
    assert!(folded * 10 >= insts * 9, "folded {folded} of {insts}");
}
