//! Parses a file N times (default 5) and drops the trees; for instruction counts
//! under `valgrind --tool=callgrind`, which are repeatable on a busy machine.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("path");
    let n: usize = args.next().map_or(5, |s| s.parse().unwrap());
    let text = std::fs::read_to_string(path).unwrap();
    for _ in 0..n {
        let p = ptx_syntax::parse(&text);
        std::hint::black_box(&p);
    }
}
