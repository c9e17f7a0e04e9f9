#!/usr/bin/env python3
"""Delta-debugging reducer over the lines of a PTX file.

    python3 scripts/fuzz/reduce.py FILE [-o OUT] [--grep PATTERN] -- CMD...

Removes instruction lines, labels, comments and blank lines (never the
module header, declarations, parameters or braces) for as long as CMD still
reports the failure. In CMD, `{}` stands for the candidate file (a copy with
FILE's name in a temporary folder); without `{}` the path is appended. The
failure is still there when CMD exits non-zero, or, with `--grep`, when its
output (stdout and stderr) matches the regular expression PATTERN. A command
running past --timeout counts as not failing. Removing a label that a branch
still names makes invalid PTX, which fails most commands; pass `--grep` with
the message of the original failure to keep such candidates out.

Writes the smallest failing file to OUT (default: FILE with `.min` before
the extension) after every improvement. Exit status: 0 when done, 1 when FILE
itself does not fail, 2 on a usage error.

    python3 scripts/fuzz/reduce.py k.ptx --grep 'is not declared' -- \\
        target/release/ptxopt verify {} --knob LoopUnrollFactor=3
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

KEEP_PREFIXES = (".reg", ".param", ".shared", ".local", ".version", ".target", ".address_size", ".visible",
                 ".entry", ".func", ".global", ".const", ".extern", ".weak", "{", "}", ")", "(")


def removable(line):
    s = line.strip()
    if not s or s.startswith("//"):
        return True
    if s.startswith(KEEP_PREFIXES):
        return False
    if s.startswith((".pragma", ".loc", ".file")):
        return True
    return s.endswith(";") or s.endswith(":")


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        print("usage: reduce.py FILE [-o OUT] [--grep PATTERN] [--timeout S] -- CMD...", file=sys.stderr)
        return 2
    cut = argv.index("--")
    ap = argparse.ArgumentParser(description="Delta-debugging reducer over the lines of a PTX file.")
    ap.add_argument("file")
    ap.add_argument("-o", "--out")
    ap.add_argument("--grep", help="the failure is this regular expression in CMD's output")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run of CMD (default 120)")
    args = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    if not cmd:
        ap.error("no command after --")
    if not any("{}" in c for c in cmd):
        cmd = cmd + ["{}"]
    pattern = re.compile(args.grep) if args.grep else None
    root, ext = os.path.splitext(args.file)
    out_path = args.out or root + ".min" + (ext or ".ptx")
    with open(args.file) as f:
        lines = f.read().split("\n")

    tmp = tempfile.mkdtemp(prefix="ptxopt-reduce-")
    cand = os.path.join(tmp, os.path.basename(args.file))
    runs = 0

    def fails(ls):
        nonlocal runs
        runs += 1
        with open(cand, "w") as f:
            f.write("\n".join(ls))
        try:
            r = subprocess.run([c.replace("{}", cand) for c in cmd], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return False
        if pattern:
            return pattern.search(r.stdout) is not None
        return r.returncode != 0

    def save(ls):
        with open(out_path, "w") as f:
            f.write("\n".join(ls))

    try:
        if not fails(lines):
            print("reduce.py: %s does not fail with this command" % args.file, file=sys.stderr)
            return 1
        cur = lines
        n = max(1, sum(map(removable, cur)) // 2)
        while True:
            idxs = [i for i, l in enumerate(cur) if removable(l)]
            progress = False
            i = 0
            while i < len(idxs):
                chunk = set(idxs[i:i + n])
                t = [l for j, l in enumerate(cur) if j not in chunk]
                if fails(t):
                    cur = t
                    idxs = [j for j, l in enumerate(cur) if removable(l)]
                    progress = True
                    save(cur)
                else:
                    i += n
            if n == 1 and not progress:
                break
            if n > 1 or not progress:
                n = max(1, n // 2)
        save(cur)
        print("%s: %d -> %d lines (%d runs) -> %s" % (args.file, len(lines), len(cur), runs, out_path))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
