//! Lowers a PTX file and prints it back (`--dump`: the IR dump instead).
//!
//! `cargo run -p ptx-ir --example ir_round_trip -- FILE [--dump]`

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: ir_round_trip FILE [--dump]");
        std::process::exit(2);
    };
    let dump = args.any(|a| a == "--dump");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let parse = ptx_syntax::parse(&text);
    let (module, errors) = ptx_ir::lower_module(&parse);
    for e in &errors {
        eprintln!("{path}: {e}");
    }
    if dump {
        print!("{}", ptx_ir::ir::dump::dump_module(&module));
    } else {
        print!("{}", ptx_ir::emit_module(&module));
    }
}
