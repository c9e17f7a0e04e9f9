//! The emulator never panics: every kernel of the project's examples, with
//! each single line deleted in turn (dangling registers, missing branches,
//! broken loops), is prepared and launched on small zeroed buffers; each
//! launch either succeeds or returns an error.

mod common;

use ptx_emu::{Buffer, Dim3, ElemType, Emulator, KernelArg, LaunchConfig};

fn launch_all(text: &str) {
    let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    let Ok(mut emu) = Emulator::with_source(&module, text) else {
        return;
    };
    emu.set_step_limit(200_000);
    let kernels: Vec<String> = emu.kernels().iter().map(|k| k.to_string()).collect();
    for k in kernels {
        let f = &emu.program().funcs[emu.program().by_name[&k] as usize];
        let mut args: Vec<KernelArg> = f
            .kparams
            .iter()
            .map(|p| {
                if p.size == 8 {
                    KernelArg::Buffer(Buffer::zeroed(ElemType::U8, 4096))
                } else {
                    KernelArg::Value(vec![0; p.size as usize])
                }
            })
            .collect();
        let cfg = LaunchConfig {
            grid: Dim3::x(2),
            block: Dim3::xy(32, 2),
            dynamic_smem: 64,
        };
        let _ = emu.launch(&k, cfg, &mut args);
    }
}

#[test]
fn examples_with_a_line_deleted() {
    let dir = common::test_data().join("examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        launch_all(&text);
        let lines: Vec<&str> = text.lines().collect();
        for skip in 0..lines.len() {
            // Only lines inside function bodies are interesting.
            let l = lines[skip].trim_start();
            if l.is_empty()
                || l.starts_with("//")
                || l.starts_with(".loc")
                || l.starts_with('.') && !l.starts_with(".reg")
            {
                continue;
            }
            let mutated: String = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            launch_all(&mutated);
        }
    }
}
