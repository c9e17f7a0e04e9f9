fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).unwrap();
    let parse = ptx_syntax::parse(&text);
    let mut nodes = std::collections::BTreeMap::new();
    let mut toks = std::collections::BTreeMap::new();
    for e in parse.syntax_node().descendants_with_tokens() {
        match e {
            rowan::NodeOrToken::Node(n) => {
                *nodes.entry(format!("{:?}", n.kind())).or_insert(0) += 1
            }
            rowan::NodeOrToken::Token(t) => {
                *toks.entry(format!("{:?}", t.kind())).or_insert(0) += 1
            }
        }
    }
    println!("nodes {:?}\ntokens {:?}", nodes, toks);
    println!(
        "total nodes {} tokens {}",
        nodes.values().sum::<i32>(),
        toks.values().sum::<i32>()
    );
}
