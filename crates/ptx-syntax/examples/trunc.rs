fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            for cut in [end, end - line.len() / 2] {
                if !text.is_char_boundary(cut) {
                    continue;
                }
                eprint!("\r{path} {cut}          ");
                let p = ptx_syntax::parse(&text[..cut]);
                let _ = ptx_syntax::check::diagnostics(&p);
            }
        }
    }
    eprintln!("\ndone");
}
