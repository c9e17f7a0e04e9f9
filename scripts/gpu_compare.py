#!/usr/bin/env python3
"""Run kernels on the emulator (`ptxopt run ... --out DIR`) and on a real GPU
(through the CUDA driver, with cupy) on the same inputs; compare bit for bit.

For each case, `ptxopt run` writes DIR/argN.in.bin (each buffer before the
launch), DIR/argN.bin (after) and DIR/run.json (kernel, grid, block, dynamic
shared memory, scalar bytes). This script loads the PTX with
`cupy.RawModule(code=ptx_text)`, launches the kernel with the same scalars and
copies of the input buffers, and compares every buffer with the emulator's
output: bit for bit, except that any NaN matches any NaN (per element of the
buffer's element type). It prints a table and exits 1 on a mismatch or a
failed run, 2 on a usage error, 0 otherwise.

    python3 scripts/gpu_compare.py --ptxopt target/release/ptxopt
    python3 scripts/gpu_compare.py --dry-run          # emulator side only
    python3 scripts/gpu_compare.py --case "test-data/examples/saxpy.ptx --kernel saxpy \
        --grid 4 --block 256 --arg u32:1000 --arg f32:2 --arg buf:f32:1024:random \
        --arg buf:f32:1024:1.0"

Run it from the repository root. Without --case it runs the built-in cases
(kernels whose results do not depend on the order of floating-point atomics).
"""

import argparse
import json
import os
import shlex
import struct
import subprocess
import sys
import tempfile

# Built-in cases: arguments of `ptxopt run` (after `run`).
DEFAULT_CASES = [
    "test-data/examples/saxpy.ptx --kernel saxpy --grid 4 --block 256 "
    "--arg u32:1000 --arg f32:1.7 --arg buf:f32:1024:random --arg buf:f32:1024:random",
    "test-data/examples/saxpy_debug.ptx --kernel saxpy --grid 3 --block 128 "
    "--arg u32:300 --arg f32:-0.5 --arg buf:f32:384:random --arg buf:f32:384:iota",
    "test-data/examples/histogram.ptx --kernel histogram --grid 4 --block 256 "
    "--arg buf:u8:4096:random --arg buf:u32:256:zero --arg u32:4096",
]

ELEM = {
    # name: (struct code, size, is_float)
    "u8": ("B", 1, False), "s8": ("b", 1, False), "b8": ("B", 1, False),
    "u16": ("H", 2, False), "s16": ("h", 2, False), "f16": ("H", 2, False),
    "bf16": ("H", 2, False),
    "u32": ("I", 4, False), "s32": ("i", 4, False),
    "u64": ("Q", 8, False), "s64": ("q", 8, False),
    "f32": ("I", 4, True), "f64": ("Q", 8, True),
}


def is_nan_bits(bits, size):
    if size == 4:
        return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x007FFFFF) != 0
    if size == 8:
        return ((bits & 0x7FF0000000000000) == 0x7FF0000000000000
                and (bits & 0x000FFFFFFFFFFFFF) != 0)
    return False


def compare_bytes(a, b, elem):
    """(mismatching elements, first index or None, values) of two buffers."""
    code, size, is_float = ELEM.get(elem, ("B", 1, False))
    if len(a) != len(b):
        return (max(len(a), len(b)), 0, ("len %d" % len(a), "len %d" % len(b)))
    n = len(a) // size
    va = struct.unpack("<%d%s" % (n, code), a[: n * size])
    vb = struct.unpack("<%d%s" % (n, code), b[: n * size])
    bad, first = 0, None
    for i, (x, y) in enumerate(zip(va, vb)):
        if x == y or (is_float and is_nan_bits(x, size) and is_nan_bits(y, size)):
            continue
        bad += 1
        if first is None:
            first = (i, x, y)
    if a[n * size:] != b[n * size:]:
        bad += 1
        first = first or (n, "tail", "tail")
    if first is None:
        return (0, None, None)
    return (bad, first[0], (first[1], first[2]))


def run_emulator(ptxopt, case, out_dir):
    cmd = [ptxopt, "run"] + shlex.split(case) + ["--out", out_dir]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, (proc.stderr or "").strip().splitlines()


def scalar_value(arg, np):
    raw = bytes.fromhex(arg["bytes_hex"])
    ty = arg["type"]
    code, size, _ = ELEM.get(ty, ("B", len(raw), False))
    if ty in ("f32",):
        return np.frombuffer(raw, dtype=np.float32)[0]
    if ty in ("f64",):
        return np.frombuffer(raw, dtype=np.float64)[0]
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[len(raw)]
    if ty.startswith("s"):
        dtype = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[len(raw)]
    return np.frombuffer(raw, dtype=dtype)[0]


def run_gpu(manifest, out_dir):
    """Runs the kernel on the GPU; {index: bytes after} for every buffer."""
    import cupy  # noqa: imported only when a GPU run is wanted
    import numpy as np

    with open(manifest["file"], encoding="utf-8") as f:
        ptx = f.read()
    module = cupy.RawModule(code=ptx)
    kernel = module.get_function(manifest["kernel"])
    args, buffers = [], {}
    for arg in manifest["args"]:
        if arg["kind"] == "scalar":
            args.append(scalar_value(arg, np))
        elif arg["kind"] == "pointer":
            args.append(np.uint64(arg["value"]))
        else:
            with open(os.path.join(out_dir, arg["input"]), "rb") as f:
                data = np.frombuffer(f.read(), dtype=np.uint8)
            dev = cupy.asarray(data) if data.size else cupy.zeros(1, dtype=np.uint8)
            buffers[arg["index"]] = (dev, data.size)
            args.append(dev)
    kernel(tuple(manifest["grid"]), tuple(manifest["block"]), tuple(args),
           shared_mem=manifest["dynamic_smem"])
    cupy.cuda.runtime.deviceSynchronize()
    return {i: cupy.asnumpy(dev)[:n].tobytes() for i, (dev, n) in buffers.items()}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ptxopt", default="target/release/ptxopt",
                   help="the ptxopt binary (default: target/release/ptxopt)")
    p.add_argument("--case", action="append", default=[],
                   help="arguments of `ptxopt run` (quoted); repeatable; default: built-in cases")
    p.add_argument("--work-dir", help="where the run folders go (default: a temporary folder)")
    p.add_argument("--dry-run", action="store_true",
                   help="run only the emulator side (no GPU, no cupy)")
    args = p.parse_args(argv)
    if not os.path.exists(args.ptxopt):
        print("gpu_compare: error: no ptxopt binary at %s (cargo build --release -p ptxopt)"
              % args.ptxopt, file=sys.stderr)
        return 2
    cases = args.case or DEFAULT_CASES
    work = args.work_dir or tempfile.mkdtemp(prefix="gpu_compare-")
    rows, failed = [], False
    for n, case in enumerate(cases):
        out_dir = os.path.join(work, "case%d" % n)
        rc, err = run_emulator(args.ptxopt, case, out_dir)
        label = " ".join(shlex.split(case)[:3])
        if rc != 0:
            failed = True
            rows.append((label, "-", "emulator failed (exit %d): %s" % (rc, err[-1] if err else "")))
            continue
        with open(os.path.join(out_dir, "run.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        if args.dry_run:
            for a in manifest["args"]:
                if a["kind"] == "buffer":
                    size = os.path.getsize(os.path.join(out_dir, a["output"]))
                    rows.append((label, "arg%d" % a["index"],
                                 "emulator ok (%s x %d, %d bytes)" % (a["elem"], a["count"], size)))
            continue
        try:
            gpu = run_gpu(manifest, out_dir)
        except Exception as e:  # noqa: report and go on
            failed = True
            rows.append((label, "-", "GPU run failed: %s" % e))
            continue
        for a in manifest["args"]:
            if a["kind"] != "buffer":
                continue
            with open(os.path.join(out_dir, a["output"]), "rb") as f:
                emu = f.read()
            bad, first, vals = compare_bytes(emu, gpu[a["index"]], a["elem"])
            if bad:
                failed = True
                status = "MISMATCH: %d elements, first [%d] emulator %s gpu %s" % (
                    bad, first, hex(vals[0]) if isinstance(vals[0], int) else vals[0],
                    hex(vals[1]) if isinstance(vals[1], int) else vals[1])
            else:
                status = "equal (%d bytes)" % len(emu)
            rows.append((label, "arg%d" % a["index"], status))
    w0 = max([len(r[0]) for r in rows] + [4])
    w1 = max([len(r[1]) for r in rows] + [6])
    print("%-*s  %-*s  %s" % (w0, "case", w1, "buffer", "result"))
    for r in rows:
        print("%-*s  %-*s  %s" % (w0, r[0], w1, r[1], r[2]))
    if args.dry_run:
        print("(dry run: emulator side only; outputs under %s)" % work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
