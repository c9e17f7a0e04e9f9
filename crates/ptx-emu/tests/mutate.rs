//! The mutation API of `ptx-ir` against the emulator and ptxas: real kernels
//! (`test-data/examples/*.ptx`, `test-data/emu/bench_loop.ptx`) are lowered,
//! edited, checked by the IR verifier, emitted with the `ptx-ir` emitter and
//! lowered again, run against the original with the differential check
//! (`ptx_emu::diff`, every buffer bit for bit on generated inputs), and given
//! to ptxas 13.0.88 when `PTXOPT_CUDA_HOME` has it (skipped when absent
//! unless `PTXOPT_REQUIRE_PTXAS=1`).
//!
//! - `split_blocks_and_insert_trap_blocks`: every block with two or more
//!   instructions is split in the middle, then a block holding only `trap`
//!   is inserted after every block. `insert_block_after` must keep every
//!   fall-through with an explicit `bra` (or `ret`), so no `trap` is ever
//!   reached.
//! - `unroll_loops_by_two_with_fresh_registers`: every loop whose blocks
//!   are contiguous in the layout from the header to a latch ending in
//!   `@%p bra header`, entered only at the header and left only at the
//!   latch, is unrolled by two: its blocks are cloned with fresh registers
//!   for everything they write (`clone_region`), the copy copies the
//!   loop-carried values in at its start and out before its back branch
//!   (`new_mov`), the original latch's back edge goes to the copy and the
//!   copy's to the original header (`redirect_edge`); the exit test stays in
//!   both. The example kernels' loops run once on the generated inputs (their
//!   trip counts come from scalars), so [`LOOPS`] adds a kernel whose loops
//!   run many times: a four-block loop of `n` iterations (left from the
//!   copy) and a one-block loop of 5 (left from the original).

mod common;

use ptx_emu::diff::{verify as diff, Verdict, VerifyOptions};
use ptx_ir::ir::{BlockId, Function, Inst, InstId, Module, Opcode};

/// Loops that run many times on the differential check's inputs (`n` is
/// the number of threads: 32, 64, 256).
const LOOPS: &str = "
.version 8.0
.target sm_90
.address_size 64

.visible .entry loops(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<4>;
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd1, %rd4;
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, 0;
    mov.u32 %r4, %r2;
    cvt.rn.f32.u32 %f1, %r2;
$L_head:
    and.b32 %r5, %r3, 1;
    setp.eq.u32 %p1, %r5, 0;
    @%p1 bra $L_even;
    mad.lo.s32 %r4, %r4, 3, %r3;
    fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;
    bra $L_latch;
$L_even:
    xor.b32 %r4, %r4, %r3;
    shr.u32 %r6, %r4, 3;
    add.s32 %r4, %r4, %r6;
$L_latch:
    add.s32 %r3, %r3, 1;
    setp.lt.u32 %p2, %r3, %r1;
    @%p2 bra $L_head;
    mov.u32 %r7, 0;
$L_single:
    add.s32 %r7, %r7, 1;
    mul.lo.s32 %r4, %r4, 5;
    setp.lt.u32 %p3, %r7, 5;
    @%p3 bra $L_single;
    mul.wide.u32 %rd2, %r2, 8;
    add.s64 %rd3, %rd1, %rd2;
    cvt.rzi.u32.f32 %r8, %f1;
    st.global.v2.u32 [%rd3], {%r4, %r8};
    ret;
}
";

/// The kernels edited: (name, text).
fn kernels() -> Vec<(String, String)> {
    let data = common::test_data();
    let mut files = ptx_test_support::ptx_files(&data.join("examples"));
    files.push(data.join("emu/bench_loop.ptx"));
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    out.push(("loops (inline)".to_string(), LOOPS.to_string()));
    out
}

fn lower(text: &str) -> Module {
    let parse = ptx_syntax::parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "{errors:?}");
    module
}

/// Verifies `edited`, emits it, lowers the text again (verifying that too),
/// runs every kernel against `original` and gives the text to ptxas.
fn check_edit(name: &str, original: &Module, edited: &Module, what: &str) {
    for f in &edited.functions {
        if let Err(errors) = ptx_ir::verify(f) {
            panic!("{name}: {}: verifier: {errors:#?}", f.name());
        }
    }
    let text = ptx_ir::emit_module(edited);
    let again = lower(&text);
    for f in &again.functions {
        if let Err(errors) = ptx_ir::verify(f) {
            panic!("{name}: re-lowered {}: verifier: {errors:#?}", f.name());
        }
    }
    let opts = VerifyOptions::default();
    for f in &original.functions {
        if f.sig.kind != ptx_ir::ir::FunctionKind::Entry {
            continue;
        }
        let report = diff(original, &again, f.name(), &opts);
        assert_eq!(
            report.verdict(),
            Verdict::Equal,
            "{name}: {} after {what}: {report:#?}\n{text}",
            f.name()
        );
    }
    ptxas_accepts(name, &text, what);
}

fn ptxas_accepts(name: &str, text: &str, what: &str) {
    let Some(ptxas) = ptx_test_support::ptxas() else {
        return;
    };
    let file = std::env::temp_dir().join(format!(
        "ptxopt-mutate-{}-{}-{}.ptx",
        std::process::id(),
        what.replace(' ', "_"),
        name.replace([' ', '(', ')'], "_")
    ));
    std::fs::write(&file, text).unwrap();
    let arch = ptx_test_support::arch_for(text);
    let result = ptx_test_support::run_ptxas(&ptxas, &file, &arch);
    let _ = std::fs::remove_file(&file);
    if let Err(out) = result {
        panic!("{name}: ptxas rejects the text after {what}:\n{out}\n{text}");
    }
}

fn trap() -> Inst {
    Inst {
        guard: None,
        opcode: Opcode::new("trap", Vec::new()),
        operands: Vec::new(),
        locs: Default::default(),
        range: Default::default(),
    }
}

fn split_and_insert_traps(f: &mut Function) -> usize {
    let blocks: Vec<BlockId> = f.layout.clone();
    let mut splits = 0;
    for b in blocks {
        let insts = &f.blocks[b].insts;
        if insts.len() >= 2 {
            let middle = insts[insts.len() / 2];
            f.split_block(middle).expect("split");
            splits += 1;
        }
    }
    let blocks: Vec<BlockId> = f.layout.clone();
    for b in blocks {
        let new = f.insert_block_after(b).expect("insert");
        let t = f.add_inst(trap(), None);
        assert!(f.insert_at_end(new, t));
    }
    splits
}

#[test]
fn split_blocks_and_insert_trap_blocks() {
    let mut total = 0;
    for (name, text) in kernels() {
        let original = lower(&text);
        let mut edited = original.clone();
        for f in &mut edited.functions {
            total += split_and_insert_traps(f);
        }
        check_edit(&name, &original, &edited, "split and trap blocks");
    }
    assert!(total > 20, "too few splits: {total}");
}

/// The loops of `f` that [`unroll_by_two`] handles: `(header, latch)` where
/// the latch ends with a guarded `bra header`, the blocks from the header to
/// the latch are contiguous in the layout, nothing outside branches into
/// them but to the header, and nothing inside branches out of them.
fn simple_loops(f: &Function) -> Vec<(usize, usize)> {
    let pos = |b: BlockId| f.layout.iter().position(|&x| x == b);
    let mut loops = Vec::new();
    for (l, &latch) in f.layout.iter().enumerate() {
        let Some(&last) = f.blocks[latch].insts.last() else {
            continue;
        };
        let inst = &f.insts[last];
        if inst.opcode.name != "bra" || inst.guard.is_none() {
            continue;
        }
        let Some(h) = f.branch_targets_of(inst).first().and_then(|&b| pos(b)) else {
            continue;
        };
        if h > l {
            continue;
        }
        let header = f.layout[h];
        let inside = |b: BlockId| pos(b).is_some_and(|p| h <= p && p <= l);
        let ok = f.layout.iter().enumerate().all(|(p, &b)| {
            let targets = f.successors(b);
            if h <= p && p <= l {
                // Inside: only the latch may leave (by falling through).
                targets.iter().all(|&t| inside(t) || p == l)
            } else {
                targets.iter().all(|&t| !inside(t) || t == header)
            }
        });
        if ok {
            loops.push((h, l));
        }
    }
    loops
}

/// Unrolls the loop of layout positions `h..=l` by two (see the module
/// documentation); returns the copies of the header and the latch.
fn unroll_by_two(f: &mut Function, h: usize, l: usize) -> (BlockId, BlockId) {
    let region: Vec<BlockId> = f.layout[h..=l].to_vec();
    let (header, latch) = (region[0], region[region.len() - 1]);
    let clone = f.clone_region(&region, latch).expect("clone");
    let (header2, latch2) = (clone.blocks[&header], clone.blocks[&latch]);
    for (&orig, &copy) in &clone.blocks {
        assert_eq!(f.blocks[copy].insts.len(), f.blocks[orig].insts.len());
    }
    let mut pairs: Vec<_> = clone.regs.iter().map(|(&o, &n)| (o, n)).collect();
    pairs.sort();
    for &(old, new) in pairs.iter().rev() {
        // In: fresh <- original, at the start of the copy.
        let copy_in = f.new_mov(new, old).expect("mov in");
        assert!(f.insert_at_start(header2, copy_in));
    }
    for &(old, new) in &pairs {
        // Out: original <- fresh, before the copy's back branch.
        let copy_out = f.new_mov(old, new).expect("mov out");
        assert!(f.insert_before_terminator(latch2, copy_out));
    }
    assert!(f.redirect_edge(latch, header, header2));
    assert!(f.redirect_edge(latch2, header2, header));
    assert_eq!(f.successors(latch)[0], header2);
    assert_eq!(f.successors(latch2)[0], header);
    (header2, latch2)
}

/// The registers of `inst` (for checking that the copy uses fresh ones).
fn regs_of(f: &Function, i: InstId) -> Vec<String> {
    let mut out = Vec::new();
    let inst = &f.insts[i];
    if let Some(g) = inst.guard {
        out.push(f.regs[g.reg].name.to_string());
    }
    for op in &inst.operands {
        op.for_each_reg(&mut |r| out.push(f.regs[r].name.to_string()));
    }
    out
}

#[test]
fn unroll_loops_by_two_with_fresh_registers() {
    let mut unrolled = Vec::new();
    for (name, text) in kernels() {
        let original = lower(&text);
        let mut edited = original.clone();
        let mut any = false;
        for f in &mut edited.functions {
            // Unroll from the last loop back, so earlier positions stay valid.
            let mut loops = simple_loops(f);
            loops.reverse();
            for (h, l) in loops {
                let blocks = l - h + 1;
                let (header2, latch2) = unroll_by_two(f, h, l);
                // The copy writes only fresh registers, but for its copy-outs.
                let start = f.layout.iter().position(|&b| b == header2).unwrap();
                let end = f.layout.iter().position(|&b| b == latch2).unwrap();
                for &b in &f.layout[start..=end] {
                    for &i in &f.blocks[b].insts {
                        let du = ptx_ir::ir::defs_and_uses(&f.insts[i]);
                        let fresh = du.defs.iter().all(|&r| f.regs[r].decl.is_none());
                        let is_copy_out = f.insts[i].opcode.name == "mov"
                            && regs_of(f, i).last().is_some_and(|r| r.starts_with("%ir_"));
                        assert!(fresh || is_copy_out, "{name}: {:?}", regs_of(f, i));
                    }
                }
                unrolled.push(format!("{name}: {} ({blocks} blocks)", f.name()));
                any = true;
            }
        }
        if any {
            check_edit(&name, &original, &edited, "unroll by two");
        }
    }
    eprintln!("unrolled: {unrolled:#?}");
    assert!(unrolled.len() >= 6, "too few loops unrolled: {unrolled:?}");
    assert!(
        unrolled.iter().any(|l| l.contains("(4 blocks)")),
        "{unrolled:?}"
    );
}
