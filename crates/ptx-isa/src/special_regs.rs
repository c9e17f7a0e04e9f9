//! Predefined (special) registers: `%tid`, `%laneid`, `%clock64`, ...
//!
//! Numbered families (`%pm0`..`%pm7`, `%pm0_64`..`%pm7_64`, `%envreg0`..`%envreg31`,
//! `%reserved_smem_offset_0`/`_1`) are listed one register at a time; look names up
//! with [`special_reg`], which also accepts the components of vector registers
//! (`%tid.x`).

use crate::{v, PtxVersion};

/// One special register (or family, such as `%envreg<32>`).
#[derive(Clone, Copy, Debug)]
pub struct SpecialReg {
    /// Written with its `%`: `"%tid"`.
    pub name: &'static str,
    /// Type of the register (or of each component for vector ones), with its dot.
    pub ty: &'static str,
    /// Whether it has `.x .y .z` components (`%tid.x`).
    pub vector: bool,
    pub min_ptx: PtxVersion,
    pub min_sm: u32,
    pub summary: &'static str,
}

const fn r(
    name: &'static str,
    ty: &'static str,
    vector: bool,
    min_ptx: PtxVersion,
    min_sm: u32,
    summary: &'static str,
) -> SpecialReg {
    SpecialReg {
        name,
        ty,
        vector,
        min_ptx,
        min_sm,
        summary,
    }
}

#[rustfmt::skip]
pub static SPECIAL_REGS: &[SpecialReg] = &[
    r("%tid", ".u32", true, v(1, 0), 0, "Thread identifier within the CTA (.x, .y, .z)."),
    r("%ntid", ".u32", true, v(1, 0), 0, "Number of threads in the CTA, per dimension (.x, .y, .z)."),
    r("%laneid", ".u32", false, v(1, 3), 0, "Lane number of the thread within its warp (0..WARP_SZ-1)."),
    r("%warpid", ".u32", false, v(1, 3), 0, "Warp identifier within the CTA (may change during execution)."),
    r("%nwarpid", ".u32", false, v(2, 0), 20, "Maximum number of warp identifiers."),
    r("%ctaid", ".u32", true, v(1, 0), 0, "CTA identifier within the grid (.x, .y, .z)."),
    r("%nctaid", ".u32", true, v(1, 0), 0, "Number of CTAs in the grid, per dimension (.x, .y, .z)."),
    r("%smid", ".u32", false, v(1, 3), 0, "Identifier of the SM the thread runs on (may change during execution)."),
    r("%nsmid", ".u32", false, v(2, 0), 20, "Maximum number of SM identifiers."),
    r("%gridid", ".u64", false, v(1, 0), 0, "Temporal grid launch number (64-bit since PTX 3.0)."),
    r("%is_explicit_cluster", ".pred", false, v(7, 8), 90, "Whether the launch used an explicit cluster size."),
    r("%clusterid", ".u32", true, v(7, 8), 90, "Cluster identifier within the grid (.x, .y, .z)."),
    r("%nclusterid", ".u32", true, v(7, 8), 90, "Number of clusters in the grid, per dimension (.x, .y, .z)."),
    r("%cluster_ctaid", ".u32", true, v(7, 8), 90, "CTA identifier within the cluster (.x, .y, .z)."),
    r("%cluster_nctaid", ".u32", true, v(7, 8), 90, "Number of CTAs in the cluster, per dimension (.x, .y, .z)."),
    r("%cluster_ctarank", ".u32", false, v(7, 8), 90, "Rank of the CTA within the cluster."),
    r("%cluster_nctarank", ".u32", false, v(7, 8), 90, "Number of CTAs in the cluster."),
    r("%lanemask_eq", ".u32", false, v(2, 0), 20, "Mask with the bit of the thread's own lane set."),
    r("%lanemask_le", ".u32", false, v(2, 0), 20, "Mask with the bits of lanes less than or equal to the thread's lane set."),
    r("%lanemask_lt", ".u32", false, v(2, 0), 20, "Mask with the bits of lanes less than the thread's lane set."),
    r("%lanemask_ge", ".u32", false, v(2, 0), 20, "Mask with the bits of lanes greater than or equal to the thread's lane set."),
    r("%lanemask_gt", ".u32", false, v(2, 0), 20, "Mask with the bits of lanes greater than the thread's lane set."),
    r("%clock", ".u32", false, v(1, 0), 0, "32-bit cycle counter (low word)."),
    r("%clock_hi", ".u32", false, v(5, 0), 20, "Upper 32 bits of the 64-bit cycle counter %clock64."),
    r("%clock64", ".u64", false, v(2, 0), 20, "64-bit cycle counter."),
    r("%pm0", ".u32", false, v(1, 3), 0, "Performance monitoring counter 0."),
    r("%pm1", ".u32", false, v(1, 3), 0, "Performance monitoring counter 1."),
    r("%pm2", ".u32", false, v(1, 3), 0, "Performance monitoring counter 2."),
    r("%pm3", ".u32", false, v(1, 3), 0, "Performance monitoring counter 3."),
    r("%pm4", ".u32", false, v(3, 0), 20, "Performance monitoring counter 4."),
    r("%pm5", ".u32", false, v(3, 0), 20, "Performance monitoring counter 5."),
    r("%pm6", ".u32", false, v(3, 0), 20, "Performance monitoring counter 6."),
    r("%pm7", ".u32", false, v(3, 0), 20, "Performance monitoring counter 7."),
    r("%pm0_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 0."),
    r("%pm1_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 1."),
    r("%pm2_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 2."),
    r("%pm3_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 3."),
    r("%pm4_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 4."),
    r("%pm5_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 5."),
    r("%pm6_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 6."),
    r("%pm7_64", ".u64", false, v(4, 0), 50, "64-bit performance monitoring counter 7."),
    r("%envreg0", ".b32", false, v(2, 1), 20, "Driver-defined environment register 0."),
    r("%envreg1", ".b32", false, v(2, 1), 20, "Driver-defined environment register 1."),
    r("%envreg2", ".b32", false, v(2, 1), 20, "Driver-defined environment register 2."),
    r("%envreg3", ".b32", false, v(2, 1), 20, "Driver-defined environment register 3."),
    r("%envreg4", ".b32", false, v(2, 1), 20, "Driver-defined environment register 4."),
    r("%envreg5", ".b32", false, v(2, 1), 20, "Driver-defined environment register 5."),
    r("%envreg6", ".b32", false, v(2, 1), 20, "Driver-defined environment register 6."),
    r("%envreg7", ".b32", false, v(2, 1), 20, "Driver-defined environment register 7."),
    r("%envreg8", ".b32", false, v(2, 1), 20, "Driver-defined environment register 8."),
    r("%envreg9", ".b32", false, v(2, 1), 20, "Driver-defined environment register 9."),
    r("%envreg10", ".b32", false, v(2, 1), 20, "Driver-defined environment register 10."),
    r("%envreg11", ".b32", false, v(2, 1), 20, "Driver-defined environment register 11."),
    r("%envreg12", ".b32", false, v(2, 1), 20, "Driver-defined environment register 12."),
    r("%envreg13", ".b32", false, v(2, 1), 20, "Driver-defined environment register 13."),
    r("%envreg14", ".b32", false, v(2, 1), 20, "Driver-defined environment register 14."),
    r("%envreg15", ".b32", false, v(2, 1), 20, "Driver-defined environment register 15."),
    r("%envreg16", ".b32", false, v(2, 1), 20, "Driver-defined environment register 16."),
    r("%envreg17", ".b32", false, v(2, 1), 20, "Driver-defined environment register 17."),
    r("%envreg18", ".b32", false, v(2, 1), 20, "Driver-defined environment register 18."),
    r("%envreg19", ".b32", false, v(2, 1), 20, "Driver-defined environment register 19."),
    r("%envreg20", ".b32", false, v(2, 1), 20, "Driver-defined environment register 20."),
    r("%envreg21", ".b32", false, v(2, 1), 20, "Driver-defined environment register 21."),
    r("%envreg22", ".b32", false, v(2, 1), 20, "Driver-defined environment register 22."),
    r("%envreg23", ".b32", false, v(2, 1), 20, "Driver-defined environment register 23."),
    r("%envreg24", ".b32", false, v(2, 1), 20, "Driver-defined environment register 24."),
    r("%envreg25", ".b32", false, v(2, 1), 20, "Driver-defined environment register 25."),
    r("%envreg26", ".b32", false, v(2, 1), 20, "Driver-defined environment register 26."),
    r("%envreg27", ".b32", false, v(2, 1), 20, "Driver-defined environment register 27."),
    r("%envreg28", ".b32", false, v(2, 1), 20, "Driver-defined environment register 28."),
    r("%envreg29", ".b32", false, v(2, 1), 20, "Driver-defined environment register 29."),
    r("%envreg30", ".b32", false, v(2, 1), 20, "Driver-defined environment register 30."),
    r("%envreg31", ".b32", false, v(2, 1), 20, "Driver-defined environment register 31."),
    r("%globaltimer", ".u64", false, v(3, 1), 30, "64-bit global nanosecond timer."),
    r("%globaltimer_lo", ".u32", false, v(3, 1), 30, "Lower 32 bits of %globaltimer."),
    r("%globaltimer_hi", ".u32", false, v(3, 1), 30, "Upper 32 bits of %globaltimer."),
    r("%reserved_smem_offset_begin", ".b32", false, v(7, 6), 80, "Start offset of the reserved shared memory region."),
    r("%reserved_smem_offset_end", ".b32", false, v(7, 6), 80, "End offset of the reserved shared memory region."),
    r("%reserved_smem_offset_cap", ".b32", false, v(7, 6), 80, "Total size of the reserved shared memory region."),
    r("%reserved_smem_offset_0", ".b32", false, v(7, 6), 80, "Offset 0 within the reserved shared memory region (%reserved_smem_offset_<2>)."),
    r("%reserved_smem_offset_1", ".b32", false, v(7, 6), 80, "Offset 1 within the reserved shared memory region (%reserved_smem_offset_<2>)."),
    r("%total_smem_size", ".u32", false, v(4, 1), 20, "Total shared memory (static and dynamic, excluding reserved) allocated to the CTA."),
    r("%aggr_smem_size", ".u32", false, v(8, 1), 90, "Total shared memory of the CTA including the reserved region."),
    r("%dynamic_smem_size", ".u32", false, v(4, 1), 20, "Dynamically allocated shared memory of the CTA."),
    r("%current_graph_exec", ".u64", false, v(8, 0), 50, "Handle of the CUDA graph executable the kernel was launched from (0 if none)."),
];

/// Finds a special register by name: `"%laneid"`, `"%envreg7"`, or a component of
/// a vector register, `"%tid.x"` (`.x`, `.y`, `.z` or `.w`; the whole vector is
/// `"%tid"`).
pub fn special_reg(name: &str) -> Option<&'static SpecialReg> {
    if let Some(reg) = SPECIAL_REGS.iter().find(|r| r.name == name) {
        return Some(reg);
    }
    let (base, component) = name.rsplit_once('.')?;
    if !matches!(component, "x" | "y" | "z" | "w") {
        return None;
    }
    SPECIAL_REGS.iter().find(|r| r.vector && r.name == base)
}
