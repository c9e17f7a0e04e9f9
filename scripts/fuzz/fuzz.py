#!/usr/bin/env python3
"""Differential fuzzer for ptxopt: random kernels, `ptxopt verify`, ptxas.

    python3 scripts/fuzz/fuzz.py --kind all --count 50
    python3 scripts/fuzz/fuzz.py --kind cuda --seeds 100..200 --minutes 30

Per case (one generator, one seed):

1. generate the kernel: `cuda` (gen_cuda.py, compiled with
   `nvcc -arch=sm_80 -ptx` once at `-Xcicc -O0` and once at the default -O3),
   `ptx-loops` (gen_ptx_loops.py), `alu` (gen_alu.py) or `mem` (gen_mem.py);
2. for each PTX file: `ptxopt verify FILE --seed 1`, then
   `ptxopt verify FILE --seed R KNOBS` with a random seed R and a random knob
   set from KNOB_SETS (both drawn from the kind and seed, so a rerun repeats
   them), then `ptxopt build FILE -o OUT KNOBS` and
   `ptxas -arch=TARGET OUT -o /dev/null` (TARGET: the knob set's --arch, else
   the file's .target).

Failures: a verify difference (a `DIFFERENT` line), an emulation error only
in the optimized kernel, ptxas rejecting ptxopt's output (while accepting the
input), ptxopt exiting non-zero otherwise (a crash: exit >= 101 or a signal),
or any command running past --timeout. Each is saved to OUT/fail/KIND-SEED/
(source, PTX, ptxopt's output, report.txt with every command, run from that
folder, and its output). Not failures, only counted: kernels verify skips,
runs where only the *original* kernel stops (the emulator's limitation or a
generator bug; saved to OUT/notes/), and generator errors (nvcc rejecting the
source, ptxas rejecting the generated PTX; saved to OUT/generator-errors/).

Exit status: 1 if any failure, 2 on a usage error, else 0.
"""

import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import gen_alu  # noqa: E402
import gen_cuda  # noqa: E402
import gen_mem  # noqa: E402
import gen_ptx_loops  # noqa: E402

GENERATORS = {"cuda": gen_cuda, "ptx-loops": gen_ptx_loops, "alu": gen_alu, "mem": gen_mem}

# Knob sets for the second verify run and the build (`[]`: the defaults). All
# knobs must exist in `ptxopt knobs`: an unknown knob is a usage error (exit 2)
# and shows up as a failure.
KNOB_SETS = [
    [], [], ["--arch", "sm_90"], ["--arch", "sm_75"],
    ["--knob", "LoopUnrollFactor=2"],
    ["--knob", "LoopUnrollFactor=3"],
    ["--knob", "LoopUnrollFactor=4"],
    ["--knob", "LoopUnrollFactor=5"],
    ["--knob", "LoopUnrollFactor=3", "--knob", "LoopUnrollNonInnermost=false"],
    ["--knob", "UnrollUnknownCount=8"],
    ["--knob", "UnrollUnknownCount=8", "--knob", "LoopUnrollUnknownMultiBlock=true"],
    ["--knob", "UnrollUnknownCount=2", "--knob", "UnrollBudget=1000", "--knob", "UnrollInstLimit=200"],
    ["--knob", "EpilogueLoopUnrollCount=2", "--knob", "LoopUnrollFactor=2"],
    ["--knob", "EpilogueLoopUnrollCount=2", "--knob", "LoopUnrollFactor=2",
     "--knob", "LoopUnrollUnknownMultiBlock=true"],
    ["--knob", "DisablePartialUnrollOverflowCheck=true", "--knob", "LoopUnrollFactor=4"],
    ["--knob", "UnrollBudget=2000", "--knob", "UnrollInstLimit=500",
     "--knob", "UnrollFullInstLimit=5000", "--knob", "UnrollSmallLoopLimit=50"],
    ["--knob", "PerformLoopFusion=1"],
    ["--knob", "PerformLoopFusion=1", "--knob", "LoopUnroll=false",
     "--knob", "disable-LoopUnrollPass=true"],
    ["--knob", "PerformLoopFusion=1", "--knob", "PerformLoopFusionBudget=500", "--arch", "sm_90"],
    ["--knob", "LoopInversion=false"],
    ["--knob", "LoopPeelInversion=true"],
    ["--knob", "LoopPeelInversion=true", "--knob", "EnableSingleThreadPeelingLoops=true",
     "--knob", "LoopInversionBudget=200"],
    ["--knob", "AdvancedPhaseBackPropVReg=true"],
    ["--knob", "SpeculativeHoistCommonInsts=true", "--knob", "EnableGvnCseMode=6"],
    ["--knob", "EnableGvnCseMode=3"],
    ["--knob", "EnableGvnCseMode=2", "--arch", "sm_90"],
    ["--knob", "CopyPropUseReachingDefs=true", "--knob", "CopyPropForceGlobal=true",
     "--knob", "CopyPropAddr=true"],
    ["--knob", "UseNewLoopInvariantRoutineForHoisting=true",
     "--knob", "EnableHoistLowLatencyInstMidBlock=true", "--knob", "HoistBudget=0",
     "--knob", "HoistLoopInvBudget=1000"],
    ["--knob", "HoistLate=1", "--knob", "HoistCBOLoad=1", "--knob", "HoistCBOMode=1"],
    ["--knob", "ForceLateCommoning=true", "--knob", "DistributeAndReassociateMulBudget=100",
     "--knob", "ReassociateLargeImmInUIADD64=true", "--arch", "sm_90"],
    ["--knob", "nvptx-enable-machine-sink=true", "--knob", "unroll-count=3"],
    ["--knob", "unroll-count=2"],
    ["--knob", "unroll-count=3", "--knob", "unroll-runtime-epilog=true"],
    ["--knob", "unroll-count=4", "--knob", "unroll-peel-count=2"],
    ["--knob", "unroll-peel-count=1"],
    ["--knob", "unroll-allow-partial=true", "--knob", "unroll-partial-threshold=1000"],
    ["--knob", "unroll-allow-partial=true", "--knob", "unroll-allow-remainder=true",
     "--knob", "unroll-runtime-epilog=true"],
    ["--knob", "unroll-threshold=3000", "--knob", "unroll-max-upperbound=32",
     "--knob", "unroll-full-max-count=64"],
    ["--knob", "pipeliner-ignore-recmii=true", "--knob", "pipeliner-max-stages=6",
     "--knob", "pipeliner-keep-register-peak=false"],
    ["--knob", "pipeliner-force-ii=3", "--knob", "pipeliner-max-mii=100"],
    ["--knob", "OkToPipelineNoUnroll=1", "--knob", "GemmPipelinerEnabled=true"],
    ["--knob", "nv-remat-default-max-reg=8", "--knob", "reg-target-adjust=-10",
     "--knob", "nv-remat-block-max-cost=10000"],
    ["--knob", "inline-threshold=10000", "--knob", "enable-mcse=true", "--knob", "rp-aware-mcse=false"],
]

OUTPUT_LIMIT = 20000  # characters of each command's output kept in report.txt


class Runner:
    """Runs commands in a case folder and keeps a log for report.txt."""

    def __init__(self, cwd, timeout, env):
        self.cwd = cwd
        self.timeout = timeout
        self.env = env
        self.log = []

    def __call__(self, cmd):
        shown = " ".join(shlex.quote(str(c)) for c in cmd)
        p = subprocess.Popen([str(c) for c in cmd], cwd=self.cwd, env=self.env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
        try:
            out, _ = p.communicate(timeout=self.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
            out = (out or "") + "\n[killed after %ss]\n" % self.timeout
            rc = None
        self.log.append((shown, rc, out))
        return rc, out


def crashed(rc):
    return rc is None or rc < 0 or rc >= 101


def describe_rc(rc):
    if rc is None:
        return "timeout"
    if rc < 0:
        return "signal %d" % -rc
    return "exit %d" % rc


def ptx_target(path):
    m = re.search(r"^\s*\.target\s+(sm_\w+)", Path(path).read_text(), re.M)
    return m.group(1) if m else "sm_80"


def check_ptx(run, args, ptx, rnd, knob_sets):
    """Verify, build and ptxas one PTX file. Returns (failures, notes, generator_errors)."""
    failures, notes, generr = [], [], []
    knobs = rnd.choice(knob_sets)
    vseed = rnd.randint(2, 100000)
    for extra in (["--seed", "1"], ["--seed", str(vseed)] + knobs):
        rc, out = run([args.ptxopt, "verify", ptx] + extra)
        what = "%s: verify %s" % (ptx, " ".join(extra))
        if crashed(rc):
            failures.append("%s: crash (%s)" % (what, describe_rc(rc)))
            continue
        if "skipped (" in out:
            notes.append("skipped")
        lines = [l for l in out.splitlines() if "DIFFERENT" in l]
        orig = [l for l in lines if "the original kernel stops" in l]
        real = [l for l in lines if l not in orig]
        if real:
            kind = "optimized-error" if any("the optimized kernel stops" in l for l in real) else "different"
            failures.append("%s: %s: %s" % (what, kind, real[0][-300:]))
        elif orig:
            notes.append("original-error")
        elif rc != 0:
            failures.append("%s: %s without a DIFFERENT line" % (what, describe_rc(rc)))
    opt = ptx.replace(".ptx", ".opt.ptx")
    rc, out = run([args.ptxopt, "build", ptx, "-o", opt] + knobs)
    if rc != 0:
        failures.append("%s: build %s: %s" % (ptx, " ".join(knobs), describe_rc(rc)))
        return failures, notes, generr
    # The output keeps the input's `.target` (`--arch` says what to
    # optimize for, not what to emit): ptxas checks it for that target (an
    # `--arch sm_75` build of an sm_80 file is still sm_80 PTX).
    target = ptx_target(Path(run.cwd) / ptx)
    rc, out = run([args.ptxas, "-arch=" + target, opt, "-o", "/dev/null"])
    if rc != 0:
        rc_in, _ = run([args.ptxas, "-arch=" + target, ptx, "-o", "/dev/null"])
        if rc_in == 0:
            failures.append("%s: ptxas -arch=%s rejects the output (%s)" % (opt, target, describe_rc(rc)))
        else:
            generr.append("%s: ptxas -arch=%s rejects the input too" % (ptx, target))
    return failures, notes, generr


def run_case(args, kind, seed, env):
    """One case. Returns (failures, notes, generator_errors, case folder)."""
    wd = Path(args.out) / "work" / ("%s-%d" % (kind, seed))
    shutil.rmtree(wd, ignore_errors=True)
    wd.mkdir(parents=True)
    run = Runner(str(wd), args.timeout, env)
    rnd = random.Random("%s-%d" % (kind, seed))
    src = GENERATORS[kind].generate(seed)
    failures, notes, generr = [], [], []
    if kind == "cuda":
        (wd / "k.cu").write_text(src)
        ptxs = []
        for level, flags in (("O0", ["-Xcicc", "-O0"]), ("O3", [])):
            ptx = "k-%s.ptx" % level
            rc, _ = run([args.nvcc, "-arch=sm_80", "-ptx"] + flags + ["-o", ptx, "k.cu"])
            if rc != 0:
                generr.append("k.cu: nvcc %s: %s" % (level, describe_rc(rc)))
            else:
                ptxs.append(ptx)
    else:
        (wd / "k.ptx").write_text(src)
        ptxs = ["k.ptx"]
    for ptx in ptxs:
        f, n, g = check_ptx(run, args, ptx, rnd, args.knob_list)
        failures += f
        notes += n
        generr += g
    folder = None
    if failures or generr or "original-error" in notes:
        sub = "fail" if failures else ("generator-errors" if generr else "notes")
        folder = Path(args.out) / sub / wd.name
        shutil.rmtree(folder, ignore_errors=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(wd), str(folder))
        with open(folder / "report.txt", "w") as f:
            f.write("%s seed %d\n" % (kind, seed))
            for line in failures + generr + sorted(set(notes)):
                f.write("  %s\n" % line)
            f.write("\nCommands, run in this folder:\n\n")
            for shown, rc, out in run.log:
                f.write("$ %s\n# %s\n" % (shown, describe_rc(rc)))
                if len(out) > OUTPUT_LIMIT:
                    out = "[... %d characters left out ...]\n" % (len(out) - OUTPUT_LIMIT) + out[-OUTPUT_LIMIT:]
                f.write(out if out.endswith("\n") or not out else out + "\n")
                f.write("\n")
    elif not args.keep:
        shutil.rmtree(wd, ignore_errors=True)
    return failures, notes, generr, folder


def parse_seeds(args):
    if args.seeds:
        m = re.fullmatch(r"(\d+)\.\.(\d+)", args.seeds)
        if not m:
            print("fuzz.py: --seeds takes A..B (A included, B not), such as 1..100", file=sys.stderr)
            sys.exit(2)
        return iter(range(int(m.group(1)), int(m.group(2))))
    if args.count is None:
        if args.minutes is not None:
            return iter(range(args.start, sys.maxsize))  # until the time limit
        args.count = 20
    return iter(range(args.start, args.start + args.count))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.split("\n")[2:]))
    ap.add_argument("--ptxopt", default=str(REPO / "target" / "release" / "ptxopt"),
                    help="the ptxopt binary (default: target/release/ptxopt of the repository)")
    ap.add_argument("--cuda-home", default=os.environ.get("PTXOPT_CUDA_HOME")
                    or str(Path.home() / ".cache" / "ptxopt" / "cuda-13.0.88"),
                    help="CUDA toolkit with bin/nvcc and bin/ptxas (default: $PTXOPT_CUDA_HOME, "
                         "else ~/.cache/ptxopt/cuda-13.0.88)")
    ap.add_argument("--out", default=str(REPO / "target" / "fuzz"),
                    help="results folder (default: target/fuzz of the repository)")
    ap.add_argument("--kind", choices=["cuda", "ptx-loops", "alu", "mem", "all"], default="all")
    ap.add_argument("--seeds", help="seed range A..B (A included, B not)")
    ap.add_argument("--count", type=int, help="number of seeds per kind (default 20, or no limit with --minutes)")
    ap.add_argument("--start", type=int, default=1, help="first seed with --count (default 1)")
    ap.add_argument("--minutes", type=float, help="stop starting cases after this many minutes")
    ap.add_argument("--knob-sets", choices=["default", "all"], default="all",
                    help="all: the second verify run and the build use a random knob set of KNOB_SETS; "
                         "default: they use the default settings")
    ap.add_argument("--knobs", metavar="ARGS",
                    help="use this one knob set instead, such as \"--knob LoopUnrollFactor=3 --arch sm_90\"")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per command (default 120)")
    ap.add_argument("--progress", type=float, default=30, help="seconds between progress lines (default 30)")
    ap.add_argument("--keep", action="store_true", help="keep the work folders of passing cases")
    args = ap.parse_args()

    args.ptxopt = str(Path(args.ptxopt).resolve())
    args.out = str(Path(args.out).resolve())
    cuda_bin = Path(args.cuda_home).expanduser() / "bin"
    args.nvcc, args.ptxas = str(cuda_bin / "nvcc"), str(cuda_bin / "ptxas")
    kinds = list(GENERATORS) if args.kind == "all" else [args.kind]
    args.knob_list = KNOB_SETS if args.knob_sets == "all" else [[]]
    if args.knobs is not None:
        args.knob_list = [shlex.split(args.knobs)]
    need = [args.ptxopt, args.ptxas] + ([args.nvcc] if "cuda" in kinds else [])
    missing = [p for p in need if not os.access(p, os.X_OK)]
    if missing:
        print("fuzz.py: not found or not executable: %s (see --ptxopt and --cuda-home)" % ", ".join(missing),
              file=sys.stderr)
        return 2
    seeds = parse_seeds(args)
    env = dict(os.environ, PATH=str(cuda_bin) + os.pathsep + os.environ.get("PATH", ""))
    Path(args.out).mkdir(parents=True, exist_ok=True)

    start = time.time()
    deadline = start + args.minutes * 60 if args.minutes is not None else None
    ran = {k: 0 for k in kinds}
    failed = {k: 0 for k in kinds}
    skipped = {k: 0 for k in kinds}
    orig_err = {k: 0 for k in kinds}
    gen_err = {k: 0 for k in kinds}
    fail_dirs = []
    last = start

    def line():
        per = " ".join("%s %d" % (k, ran[k]) for k in kinds)
        return "[%4.0fs] cases: %s | %d failed, %d with skipped kernels, %d original-only errors, %d generator errors" % (
            time.time() - start, per, sum(failed.values()), sum(skipped.values()),
            sum(orig_err.values()), sum(gen_err.values()))

    interrupted = False
    try:
        for seed in seeds:
            if deadline is not None and time.time() >= deadline:
                break
            for kind in kinds:
                if deadline is not None and time.time() >= deadline:
                    break
                failures, notes, generr, folder = run_case(args, kind, seed, env)
                ran[kind] += 1
                if failures:
                    failed[kind] += 1
                    fail_dirs.append(str(folder))
                    print("FAIL %s-%d -> %s" % (kind, seed, folder), flush=True)
                    for f in failures:
                        print("  " + f, flush=True)
                if generr:
                    gen_err[kind] += 1
                    print("generator error %s-%d -> %s: %s" % (kind, seed, folder, generr[0]), flush=True)
                skipped[kind] += "skipped" in notes
                orig_err[kind] += "original-error" in notes
                if time.time() - last >= args.progress:
                    last = time.time()
                    print(line(), flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted", flush=True)

    if not args.keep:
        shutil.rmtree(Path(args.out) / "work", ignore_errors=True)
    print(line())
    for k in kinds:
        print("  %-9s %d cases, %d failed, %d with skipped kernels, %d original-only errors, %d generator errors" % (
            k, ran[k], failed[k], skipped[k], orig_err[k], gen_err[k]))
    if fail_dirs:
        print("failures in %s:" % (Path(args.out) / "fail"))
        for d in fail_dirs:
            print("  " + d)
    if sum(failed.values()):
        return 1
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
