//! Target profiles: the per-architecture numbers the analyses need (register
//! file, occupancy limits, pipe widths, latency in cycles per latency class).
//!
//! Seed: `000_ed667d9feced6e07.txt`, Phase 24 "Software Pipelining Algorithm" →
//! "Pipe width values from code_object+16" (the seven pipes and their sm_80
//! widths), "Latency Class Table" (the 13 class codes) and "Stall Cycle
//! Calculator (sub_91E900)" (the 32/64-cycle caps); `004_fa10da99f88b4a9e.txt`
//! (introduction: 64 → 96 registers per thread drops an SM from 32 to 21 warps,
//! which fixes the occupancy formula below).
//!
//! Sources and assumptions, per field:
//!
//! - **Register file, registers per thread, warps and threads per SM, allocation
//!   unit**: the public CUDA C Programming Guide table "Technical
//!   Specifications per Compute Capability" and the CUDA occupancy calculator:
//!   64 K 32-bit registers per SM, at most 255 per thread, registers allocated per
//!   warp in units of 256 (8 per thread); 32 warps / 1024 threads per SM on
//!   sm_75, 64 / 2048 on sm_80 and sm_90, 48 / 1536 on sm_86 and sm_89.
//! - **Pipe widths**: the seed gives sm_80 only (ALU 4, FMA 4, DFMA 1, MMA 1,
//!   LSU 2, TEX 1, BRA/SMEM 1). The seed's sm_80 numbers are the per-SM-
//!   sub-partition lane counts of the public Ampere GA100 whitepaper divided by 4
//!   (16 INT32 → 4, 16 FP32 → 4, 8 LD/ST → 2), except DFMA which the seed keeps
//!   at 1. Other targets use the same rule on their whitepapers' sub-partition
//!   counts: sm_75 (TU102: 16 INT32, 16 FP32, 4 LD/ST) → LSU 1; sm_86/sm_89
//!   (GA102/AD102: 16 INT32, 32 FP32 incl. the shared FP32/INT32 path, 4 LD/ST)
//!   → FMA 8, LSU 1; sm_90 (GH100: 16 INT32, 32 FP32, 8 LD/ST) → FMA 8, LSU 2.
//!   DFMA, MMA, TEX and BRA/SMEM stay 1 (the seed's minimum issue width).
//! - **Cycles per latency class**: the seed says the classifier returns a class
//!   id, not a cycle count, and that the hardware profile maps it to cycles; it
//!   does not give that map. The values here are round numbers from public
//!   micro-benchmark studies of Volta/Turing/Ampere (dependent-issue latency of
//!   ALU/FMA ~4-5 cycles, MUFU ~18, shared memory ~24-32, L2/DRAM hits ~200-400),
//!   the same on every target. They only matter through the 32/64-cycle stall
//!   caps (see [`crate::latency`](mod@crate::latency)), so long classes saturate anyway.
//!
//! No knobs.

use std::fmt;

/// The seven issue pipes of the seed's resource table, in its index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pipe {
    /// Integer ALU (index 0).
    Alu = 0,
    /// FP32 FMA (1).
    Fma = 1,
    /// FP64 (2).
    Dfma = 2,
    /// Tensor cores (3).
    Mma = 3,
    /// Load/store (4).
    Lsu = 4,
    /// Texture (5).
    Tex = 5,
    /// Control / shared-memory slot (6); also where the seed's pipe 8 (SFU) is
    /// clamped to ("if pipe > 6: pipe = 6").
    BraSmem = 6,
}

impl Pipe {
    /// All pipes in index order.
    pub const ALL: [Pipe; 7] = [
        Pipe::Alu,
        Pipe::Fma,
        Pipe::Dfma,
        Pipe::Mma,
        Pipe::Lsu,
        Pipe::Tex,
        Pipe::BraSmem,
    ];

    /// The seed's index (0..=6).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The seed's name: `ALU`, `FMA`, `DFMA`, `MMA`, `LSU`, `TEX`, `BRA`.
    pub fn name(self) -> &'static str {
        match self {
            Pipe::Alu => "ALU",
            Pipe::Fma => "FMA",
            Pipe::Dfma => "DFMA",
            Pipe::Mma => "MMA",
            Pipe::Lsu => "LSU",
            Pipe::Tex => "TEX",
            Pipe::BraSmem => "BRA",
        }
    }
}

impl fmt::Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 13 latency classes of the seed's "Latency Class Table" (the numeric code
/// is the class id `sub_91A0F0` returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LatencyClass {
    /// 1: past-end operands, predicate moves, control transfers (no result
    /// latency).
    Skip = 1,
    /// 6: simple ALU, bitwise, short integer.
    Short = 6,
    /// 7: paired-register operations (64-bit integer, extended precision), FP16
    /// and narrow FP, and FP32 FMA-pipe arithmetic (see [`crate::latency`](mod@crate::latency)).
    MediumShort = 7,
    /// 8: special cases (MUFU transcendental functions).
    Special = 8,
    /// 9: type conversions.
    Conversion = 9,
    /// 10: integer multiply, IMAD, shifts.
    IntMul = 10,
    /// 11: address computations (LEA-like: `cvta`, `mapa`, `isspacep`).
    Address = 11,
    /// 12: memory operations (shared/local, stores, atomics), barriers.
    Standard = 12,
    /// 14: wide memory (128-bit), FP64 stores, async copies.
    Wide = 14,
    /// 16: FP64 variants (DFMA pipe).
    Fp64 = 16,
    /// 20: texture fetches, surface and uniform (constant/param) loads.
    Texture = 20,
    /// 26: global memory loads, uncached access.
    GlobalLoad = 26,
    /// 31: scoreboard / barrier-related operations (bar, fence, mbarrier, waits).
    Scoreboard = 31,
}

impl LatencyClass {
    /// All classes in code order.
    pub const ALL: [LatencyClass; 13] = [
        LatencyClass::Skip,
        LatencyClass::Short,
        LatencyClass::MediumShort,
        LatencyClass::Special,
        LatencyClass::Conversion,
        LatencyClass::IntMul,
        LatencyClass::Address,
        LatencyClass::Standard,
        LatencyClass::Wide,
        LatencyClass::Fp64,
        LatencyClass::Texture,
        LatencyClass::GlobalLoad,
        LatencyClass::Scoreboard,
    ];

    /// The seed's class code (1, 6, 7, ..., 31).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The class with this code.
    pub fn from_code(code: u8) -> Option<LatencyClass> {
        LatencyClass::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Position in [`LatencyClass::ALL`] (0..13).
    pub fn ordinal(self) -> usize {
        LatencyClass::ALL
            .iter()
            .position(|&c| c == self)
            .unwrap_or(0)
    }
}

/// Cycles per latency class, in [`LatencyClass::ALL`] order (see the module
/// documentation for the source).
const CLASS_CYCLES: [u32; 13] = [1, 4, 5, 18, 12, 5, 5, 24, 32, 16, 200, 400, 20];

/// A target profile: everything per-architecture the analyses read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// `sm_80`.
    pub name: &'static str,
    /// 80.
    pub sm: u32,
    /// 32-bit registers in the register file of one SM.
    pub regs_per_sm: u32,
    /// Most registers one thread can use.
    pub max_regs_per_thread: u32,
    /// Registers are allocated per warp in multiples of this many.
    pub reg_alloc_unit_per_warp: u32,
    pub warp_size: u32,
    pub max_warps_per_sm: u32,
    pub max_threads_per_sm: u32,
    /// Issue width of each pipe, indexed by [`Pipe::index`].
    pub pipe_widths: [u32; 7],
    /// Cycles per latency class, indexed by [`LatencyClass::ordinal`].
    pub class_cycles: [u32; 13],
}

impl Target {
    pub const SM75: Target = Target::new("sm_75", 75, 32, [4, 4, 1, 1, 1, 1, 1]);
    pub const SM80: Target = Target::new("sm_80", 80, 64, [4, 4, 1, 1, 2, 1, 1]);
    pub const SM86: Target = Target::new("sm_86", 86, 48, [4, 8, 1, 1, 1, 1, 1]);
    pub const SM89: Target = Target::new("sm_89", 89, 48, [4, 8, 1, 1, 1, 1, 1]);
    pub const SM90: Target = Target::new("sm_90", 90, 64, [4, 8, 1, 1, 2, 1, 1]);

    /// The profiles, oldest first.
    pub const ALL: [Target; 5] = [
        Target::SM75,
        Target::SM80,
        Target::SM86,
        Target::SM89,
        Target::SM90,
    ];

    const fn new(name: &'static str, sm: u32, max_warps: u32, pipe_widths: [u32; 7]) -> Target {
        Target {
            name,
            sm,
            regs_per_sm: 65536,
            max_regs_per_thread: 255,
            reg_alloc_unit_per_warp: 256,
            warp_size: 32,
            max_warps_per_sm: max_warps,
            max_threads_per_sm: max_warps * 32,
            pipe_widths,
            class_cycles: CLASS_CYCLES,
        }
    }

    /// The profile for an architecture name (`sm_90a`, `compute_86`, `sm_80`):
    /// the newest profile not newer than it; sm_75 for older or unknown names,
    /// sm_90 for newer ones.
    pub fn for_arch(arch: &str) -> Target {
        let digits: String = arch
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        Target::for_sm(digits.parse().unwrap_or(0))
    }

    /// The newest profile with `sm <= number` (sm_75 when none).
    pub fn for_sm(number: u32) -> Target {
        Target::ALL
            .into_iter()
            .rev()
            .find(|t| t.sm <= number)
            .unwrap_or(Target::SM75)
    }

    /// The issue width of `pipe`.
    pub fn pipe_width(&self, pipe: Pipe) -> u32 {
        self.pipe_widths[pipe.index()]
    }

    /// Cycles of a latency class.
    pub fn class_cycles(&self, class: LatencyClass) -> u32 {
        self.class_cycles[class.ordinal()]
    }

    /// Registers one warp is allocated when each thread needs `regs_per_thread`
    /// (rounded up to the allocation unit).
    pub fn regs_per_warp(&self, regs_per_thread: u32) -> u32 {
        let raw = regs_per_thread.max(1) * self.warp_size;
        raw.div_ceil(self.reg_alloc_unit_per_warp) * self.reg_alloc_unit_per_warp
    }

    /// Warps per SM that the register file allows at `regs_per_thread`
    /// registers per thread: `floor(regs_per_sm / regs_per_warp)`, at most
    /// [`Target::max_warps_per_sm`]; 0 above [`Target::max_regs_per_thread`].
    /// (64 registers → 32 warps and 96 → 21, the seed 004 example.)
    pub fn occupancy(&self, regs_per_thread: u32) -> u32 {
        if regs_per_thread > self.max_regs_per_thread {
            return 0;
        }
        (self.regs_per_sm / self.regs_per_warp(regs_per_thread)).min(self.max_warps_per_sm)
    }
}

impl Default for Target {
    fn default() -> Target {
        Target::SM80
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm80_pipe_widths_are_the_seeds() {
        let t = Target::SM80;
        let widths: Vec<(String, u32)> = Pipe::ALL
            .iter()
            .map(|&p| (p.name().to_string(), t.pipe_width(p)))
            .collect();
        assert_eq!(
            format!("{widths:?}"),
            r#"[("ALU", 4), ("FMA", 4), ("DFMA", 1), ("MMA", 1), ("LSU", 2), ("TEX", 1), ("BRA", 1)]"#
        );
    }

    #[test]
    fn occupancy_matches_the_seed_example_and_limits() {
        let t = Target::SM80;
        assert_eq!(t.occupancy(64), 32);
        assert_eq!(t.occupancy(96), 21);
        assert_eq!(t.occupancy(32), 64);
        assert_eq!(t.occupancy(1), 64, "capped at max warps");
        assert_eq!(t.occupancy(0), 64);
        assert_eq!(t.occupancy(255), 8); // 255*32 -> 8192 per warp
        assert_eq!(t.occupancy(256), 0);
        // 33 registers round up to 40 per thread (1280 per warp): 51 warps.
        assert_eq!(t.occupancy(33), 51);
        assert_eq!(Target::SM75.occupancy(16), 32);
        assert_eq!(Target::SM86.occupancy(16), 48);
    }

    #[test]
    fn arch_names_pick_the_newest_profile_not_newer() {
        assert_eq!(Target::for_arch("sm_90a").name, "sm_90");
        assert_eq!(Target::for_arch("sm_100a").name, "sm_90");
        assert_eq!(Target::for_arch("compute_86").name, "sm_86");
        assert_eq!(Target::for_arch("sm_87").name, "sm_86");
        assert_eq!(Target::for_arch("sm_52").name, "sm_75");
        assert_eq!(Target::for_arch("garbage").name, "sm_75");
    }

    #[test]
    fn latency_classes_are_the_thirteen_codes() {
        let codes: Vec<u8> = LatencyClass::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes, vec![1, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 26, 31]);
        for c in LatencyClass::ALL {
            assert_eq!(LatencyClass::from_code(c.code()), Some(c));
            assert!(Target::SM80.class_cycles(c) > 0);
        }
        assert_eq!(LatencyClass::from_code(2), None);
    }
}
