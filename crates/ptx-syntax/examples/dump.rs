fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).unwrap();
    let parse = ptx_syntax::parse(&text);
    print!("{}", ptx_syntax::debug_tree(&parse.syntax_node()));
    for e in parse.errors() {
        println!("error {:?}: {}", e.range, e.message);
    }
}
