#!/usr/bin/env python3
"""Share of kernel launches `ptxopt verify` gives a verdict on.

Runs `ptxopt verify FILE` over every ptxas-accepted PTX file of the shared
corpus, of test-data (test-data/rejected excluded) and of
target/bench-quality (when `cargo xtask bench-quality` has filled it), parses
the per-launch lines and prints the share of launches with a verdict (equal,
equal with both runs stopping at the same point, different) and the rest by
reason. Exit status 0.

    cargo build --release -p ptxopt
    PTXOPT_CUDA_HOME=$(../shared/tools/cuda-toolchain.sh) \
        python3 scripts/verify_share.py [--ptxopt target/release/ptxopt] [--jobs 2] [-v]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

LAUNCH = re.compile(r"^(?P<file>.*?): (?P<kernel>\S+) grid \S+ block \S+(?: \(.*?\))?: (?P<what>.*)$")
PROBLEM = re.compile(r"^(?P<file>.*?): (?P<kernel>\S+): error: (?P<what>.*)$")


def ptx_files(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        if os.path.basename(dirpath) == "rejected":
            continue
        out.extend(os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".ptx"))
    return out


def arch_for(text):
    m = re.search(r"^\s*\.target\s+(?:sm|compute)_(\d+)([a-z]?)", text, re.M)
    if not m:
        return "sm_75"
    n = int(m.group(1))
    return "sm_75" if n < 75 else f"sm_{n}{m.group(2)}"


def ptxas_accepts(ptxas, path):
    if ptxas is None:
        return True
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
        r = subprocess.run(
            [ptxas, f"-arch={arch_for(text)}", path, "-o", "/dev/null"],
            capture_output=True,
            timeout=300,
        )
        return r.returncode == 0
    except Exception:
        return False


def reason(what):
    """A short bucket for a launch line's outcome."""
    if what.startswith("equal (both"):
        kind = reason(what[len("equal (both stop at "):]).split(": ", 1)[-1]
        return f"verdict: equal, both stop at the same point ({kind})"
    if what.startswith("equal"):
        return "verdict: equal"
    if what.startswith("DIFFERENT"):
        return "verdict: different"
    w = what
    if "unsupported" in w:
        m = re.search(r"unsupported: `([a-z0-9_]+)", w)
        return "skipped: unsupported " + (m.group(1) if m else w[:60])
    for key, label in [
        ("out-of-bounds", None),
        ("misaligned", "misaligned"),
        ("undefined value", "undefined register"),
        ("step limit", "step limit"),
        (": trap", "trap"),
        ("bad call", "bad call"),
        ("barrier divergence", "barrier divergence"),
        ("warp divergence", "warp divergence"),
        ("malformed", "malformed"),
        ("bad kernel arguments", "bad arguments"),
        ("bad launch", "bad launch"),
    ]:
        if key in w:
            if label is None:
                m = re.search(r"access to (\w+)", w)
                label = "out-of-bounds " + (m.group(1) if m else "?")
            side = "optimized" if "optimized kernel" in w else "original"
            return f"{side}: {label}"
    return "other: " + w[:80]


def verify(ptxopt, path, timeout):
    try:
        r = subprocess.run(
            [ptxopt, "verify", path], capture_output=True, text=True, timeout=timeout
        )
        stdout, timed_out = r.stdout, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        stdout = out.decode(errors="replace") if isinstance(out, bytes) else out
        timed_out = True
    rows = []
    for line in stdout.splitlines():
        m = LAUNCH.match(line)
        if m:
            rows.append((m["kernel"], reason(m["what"])))
            continue
        m = PROBLEM.match(line)
        if m:
            rows.append((m["kernel"], "problem: " + m["what"][:60]))
    if timed_out:
        # The launches printed before the limit count; the rest is one row.
        rows.append(("?", "timeout (the rest of the file)"))
        return path, rows
    if not rows and r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ["?"])[0]
        rows.append(("?", "file: " + first[:80]))
    return path, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxopt", default="target/release/ptxopt")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-v", "--verbose", action="store_true", help="list each launch without a verdict")
    ap.add_argument("paths", nargs="*", help="files or folders (default: corpus, test-data, bench-quality)")
    args = ap.parse_args()
    roots = args.paths
    if not roots:
        corpus = os.environ.get("PTXOPT_CORPUS", "../shared/corpus")
        roots = [corpus, "test-data", "target/bench-quality"]
    files = []
    for root in roots:
        if os.path.isfile(root):
            files.append(root)
        elif os.path.isdir(root):
            files.extend(ptx_files(root))
    cuda = os.environ.get("PTXOPT_CUDA_HOME")
    ptxas = os.path.join(cuda, "bin", "ptxas") if cuda else None
    if ptxas and not os.path.exists(ptxas):
        ptxas = None
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        ok = list(pool.map(lambda p: (p, ptxas_accepts(ptxas, p)), files))
        accepted = [p for p, a in ok if a]
        results = list(pool.map(lambda p: verify(args.ptxopt, p, args.timeout), accepted))
    counts = collections.Counter()
    for path, rows in results:
        for kernel, why in rows:
            counts[why] += 1
            if args.verbose and not why.startswith("verdict"):
                print(f"  {path}: {kernel}: {why}")
    total = sum(counts.values())
    verdicts = sum(n for k, n in counts.items() if k.startswith("verdict"))
    print(f"{len(accepted)} ptxas-accepted files of {len(files)}; {total} kernel launches")
    print(f"verdict: {verdicts} of {total} ({100.0 * verdicts / max(total, 1):.1f}%)")
    for why, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:5}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
