//! Shared helpers of the integration tests: data folders, a small JSON reader.

#![allow(dead_code)]

use std::collections::BTreeMap;

#[allow(unused_imports)] // each test binary uses a different subset
pub use ptx_test_support::{corpus_dir, test_data};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => &[],
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => Some(*n as u64),
            _ => None,
        }
    }

    pub fn is_true(&self) -> bool {
        matches!(self, Json::Bool(true))
    }
}

/// Parses JSON text (enough of it for the corpus manifest).
pub fn parse_json(text: &str) -> Json {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let v = value(bytes, &mut pos);
    skip_ws(bytes, &mut pos);
    assert_eq!(pos, bytes.len(), "trailing data in JSON");
    v
}

fn skip_ws(b: &[u8], pos: &mut usize) {
    while *pos < b.len() && b[*pos].is_ascii_whitespace() {
        *pos += 1;
    }
}

fn value(b: &[u8], pos: &mut usize) -> Json {
    skip_ws(b, pos);
    match b[*pos] {
        b'{' => {
            *pos += 1;
            let mut m = BTreeMap::new();
            loop {
                skip_ws(b, pos);
                if b[*pos] == b'}' {
                    *pos += 1;
                    break;
                }
                let Json::Str(k) = value(b, pos) else {
                    panic!("object key")
                };
                skip_ws(b, pos);
                assert_eq!(b[*pos], b':');
                *pos += 1;
                let v = value(b, pos);
                m.insert(k, v);
                skip_ws(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
            Json::Obj(m)
        }
        b'[' => {
            *pos += 1;
            let mut a = Vec::new();
            loop {
                skip_ws(b, pos);
                if b[*pos] == b']' {
                    *pos += 1;
                    break;
                }
                a.push(value(b, pos));
                skip_ws(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
            Json::Arr(a)
        }
        b'"' => {
            *pos += 1;
            let mut s = String::new();
            while b[*pos] != b'"' {
                if b[*pos] == b'\\' {
                    *pos += 1;
                    match b[*pos] {
                        b'n' => s.push('\n'),
                        b't' => s.push('\t'),
                        b'u' => {
                            let hex = std::str::from_utf8(&b[*pos + 1..*pos + 5]).unwrap();
                            s.push(
                                char::from_u32(u32::from_str_radix(hex, 16).unwrap())
                                    .unwrap_or('?'),
                            );
                            *pos += 4;
                        }
                        c => s.push(c as char),
                    }
                    *pos += 1;
                } else {
                    let start = *pos;
                    while b[*pos] != b'"' && b[*pos] != b'\\' {
                        *pos += 1;
                    }
                    s.push_str(std::str::from_utf8(&b[start..*pos]).unwrap());
                }
            }
            *pos += 1;
            Json::Str(s)
        }
        b't' => {
            *pos += 4;
            Json::Bool(true)
        }
        b'f' => {
            *pos += 5;
            Json::Bool(false)
        }
        b'n' => {
            *pos += 4;
            Json::Null
        }
        _ => {
            let start = *pos;
            while *pos < b.len()
                && (b[*pos] == b'-'
                    || b[*pos] == b'.'
                    || b[*pos] == b'e'
                    || b[*pos] == b'E'
                    || b[*pos] == b'+'
                    || b[*pos].is_ascii_digit())
            {
                *pos += 1;
            }
            Json::Num(
                std::str::from_utf8(&b[start..*pos])
                    .unwrap()
                    .parse()
                    .unwrap(),
            )
        }
    }
}

/// A kernel `t(.param .u64 t_out)` with the usual registers declared and
/// `%rd0` holding the output pointer; `module` goes before it.
pub fn kernel(module: &str, body: &str) -> String {
    format!(
        ".version 8.5\n.target sm_90\n.address_size 64\n{module}\n.visible .entry t(\n\t.param .u64 t_out\n)\n{{\n\t.reg .pred %p<16>;\n\t.reg .b16 %h<16>;\n\t.reg .b32 %r<64>;\n\t.reg .b64 %rd<32>;\n\t.reg .f32 %f<32>;\n\t.reg .f64 %fd<16>;\n\tld.param.u64 %rd0, [t_out];\n{body}\n\tret;\n}}\n"
    )
}

/// Runs kernel `t` of `text` with `block` threads in one CTA and an output
/// buffer of `words` zeroed 32-bit words; returns the words.
pub fn run_words(text: &str, block: u32, words: usize) -> Result<Vec<u32>, ptx_emu::EmuError> {
    let mut emu = ptx_emu::Emulator::from_ptx(text)?;
    let mut args = [ptx_emu::KernelArg::Buffer(ptx_emu::Buffer::from_slice(
        &vec![0u32; words],
    ))];
    let cfg = ptx_emu::LaunchConfig {
        grid: ptx_emu::Dim3::x(1),
        block: ptx_emu::Dim3::x(block),
        dynamic_smem: 256,
    };
    emu.launch("t", cfg, &mut args)?;
    Ok(args[0].buffer().unwrap().to_vec())
}

/// One thread running `body`; returns 64 output words.
pub fn one(body: &str) -> Vec<u32> {
    let text = kernel("", body);
    run_words(&text, 1, 64).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// One thread with module-level declarations.
pub fn one_with(module: &str, body: &str) -> Vec<u32> {
    let text = kernel(module, body);
    run_words(&text, 1, 64).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Two words as a u64 (little-endian).
pub fn w64(words: &[u32], i: usize) -> u64 {
    words[i] as u64 | (words[i + 1] as u64) << 32
}
