//! MRPA's verification mode (`verify-update-mcse` with `print-verify`) on
//! random edits of every function of test-data (and of the corpus when it
//! is there): instructions moved within and between blocks, cloned with
//! fresh results, deleted; after each edit the incremental update must
//! equal a full recomputation (0 mismatches).

mod common;

use ptx_analysis::mrpa::{Mrpa, MrpaConfig};
use ptx_ir::ir::def_use::Access;
use ptx_ir::ir::{BlockId, Function};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Positions of the non-terminator instructions of a block.
fn movable(f: &Function, b: BlockId) -> Vec<usize> {
    f.blocks[b]
        .insts
        .iter()
        .enumerate()
        .filter(|(_, &i)| !f.insts[i].is_terminator())
        .map(|(k, _)| k)
        .collect()
}

/// Where a non-terminator may go in a block: before its terminator.
fn insert_limit(f: &Function, b: BlockId) -> usize {
    let insts = &f.blocks[b].insts;
    match insts.last() {
        Some(&i) if f.insts[i].is_terminator() => insts.len() - 1,
        _ => insts.len(),
    }
}

fn edit_and_verify(func: &Function, seed: u64, edits: usize) -> usize {
    let mut f = func.clone();
    let config = MrpaConfig {
        incremental: true,
        verify: true,
        print: true,
    };
    let mut t = Mrpa::new(&f, config);
    let mut rng = Rng(seed | 1);
    let blocks: Vec<BlockId> = f.layout.clone();
    let mut done = 0;
    for _ in 0..edits {
        let from = blocks[rng.below(blocks.len())];
        let cands = movable(&f, from);
        if cands.is_empty() {
            continue;
        }
        let pos = cands[rng.below(cands.len())];
        let inst = f.blocks[from].insts[pos];
        let changed = match rng.below(4) {
            // Move within the block or to another one.
            0 | 1 => {
                let to = blocks[rng.below(blocks.len())];
                f.blocks[from].insts.remove(pos);
                let limit = insert_limit(&f, to);
                let at = rng.below(limit + 1);
                f.blocks[to].insts.insert(at, inst);
                vec![from, to]
            }
            // Clone with fresh results, next to the original.
            2 => {
                let Some(copy) = f.clone_inst(inst) else {
                    continue;
                };
                let mut defs = Vec::new();
                ptx_ir::ir::def_use::visit_defs_and_uses(&f.insts[inst], |a, r| {
                    if a == Access::Def {
                        defs.push(r);
                    }
                });
                let fresh: Vec<_> = defs.iter().map(|&r| f.clone_reg(r)).collect();
                f.insts[copy].map_regs(|a, r| {
                    if a == Access::Def {
                        defs.iter()
                            .position(|&d| d == r)
                            .and_then(|k| fresh[k])
                            .unwrap_or(r)
                    } else {
                        r
                    }
                });
                f.insert_after(inst, copy);
                vec![from]
            }
            // Delete.
            _ => {
                f.remove_inst(inst);
                t.forget(inst);
                vec![from]
            }
        };
        if let Err(e) = t.update(&f, &changed) {
            panic!("{} (seed {seed}, edit {done}): {}", f.name(), e.message);
        }
        done += 1;
    }
    done
}

#[test]
fn incremental_updates_match_full_recomputation() {
    let mut files = common::ptx_files_recursive(&common::test_data());
    if let Some(corpus) = common::corpus_dir() {
        files.extend(common::ptx_files(&corpus.join("zluda/spirv_run")));
    }
    let mut functions = 0;
    let mut edits = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        if !errors.is_empty() {
            continue;
        }
        for (k, f) in module.functions.iter().enumerate() {
            if f.insts.len() > 2000 {
                continue;
            }
            functions += 1;
            edits += edit_and_verify(
                f,
                0x9e37_79b9 ^ (k as u64 * 7919) ^ path.as_os_str().len() as u64,
                40,
            );
        }
    }
    println!("{functions} functions, {edits} verified updates, 0 mismatches");
    assert!(
        functions > 50 && edits > 1000,
        "{functions} functions, {edits} edits"
    );
}
