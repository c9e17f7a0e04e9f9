//! Lists the instructions of PTX files that the emulator does not implement
//! (they decode to `Op::Unsupported` and fail only if executed), with counts.
//! `cargo run --release -p ptx-emu --example emu_coverage -- FILE.ptx...`

use std::collections::BTreeMap;

fn main() {
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let parse = ptx_syntax::parse(&text);
        let (module, _) = ptx_ir::lower_module(&parse);
        let emu = match ptx_emu::Emulator::new(&module) {
            Ok(emu) => emu,
            Err(e) => {
                println!("{path}: cannot prepare: {e}");
                continue;
            }
        };
        let mut count = 0;
        for f in &emu.program().funcs {
            for inst in &f.code {
                if let ptx_emu::op::Op::Unsupported(what) = &inst.op {
                    *total.entry(what.to_string()).or_insert(0) += 1;
                    count += 1;
                }
            }
        }
        println!("{path}: {count} unsupported instructions");
    }
    for (what, n) in total {
        println!("{n:5}  {what}");
    }
}
