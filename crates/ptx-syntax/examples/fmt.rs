//! Prints the canonical layout of a PTX file (the formatter's output).
fn main() {
    let path = std::env::args().nth(1).expect("usage: fmt FILE");
    let text = std::fs::read_to_string(path).unwrap();
    match ptx_syntax::format::format(&ptx_syntax::parse(&text)) {
        Some(out) => print!("{out}"),
        None => eprintln!("syntax errors: left unchanged"),
    }
}
