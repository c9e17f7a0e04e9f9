fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).unwrap();
    let n = 30;
    let t = std::time::Instant::now();
    let mut errs = 0;
    for _ in 0..n {
        let (tokens, _) = ptx_syntax::lexer::tokenize(&text);
        errs += tokens.len();
    }
    let lex = t.elapsed().as_secs_f64() / n as f64;
    let mut parse = 0.0;
    for _ in 0..n {
        let t = std::time::Instant::now();
        let p = ptx_syntax::parse(&text);
        parse += t.elapsed().as_secs_f64() / n as f64;
        errs += p.errors().len();
    }
    let mb = text.len() as f64 / 1e6;
    println!(
        "lex {:.1} MB/s, lex+parse {:.1} MB/s ({errs})",
        mb / lex,
        mb / parse
    );
}
