#!/usr/bin/env python3
"""Probe ptxas for the instruction samples of ptxas_accepted.txt.

Usage: probe_ptxas.py [FILE...] > ptxas_accepted.txt   (PTXAS=... to pick ptxas)

Input: lines starting with '#' are comments, '@target sm_XX[, opts]' sets the target
the following samples are first tried at (options such as texmode_independent are
kept); other lines are single instructions, bare or as written by this script
('<target> <version> | <instruction>'). Registers follow the naming convention of
the module below (%r .b32, %rd .b64, %h .b16, %b .b8, %f .f32, %fd .f64, %q .b128,
%p .pred).
Output (stdout): '<min target> <min ptx> | <instruction>' for every sample ptxas
accepts, where min target is the lowest target in TARGETS (at .version 9.0) and min
ptx the lowest .version at that target; rejected samples go to stderr with the error.
The Rust test `ptxas_accepts_the_samples_at_their_target_and_version` rebuilds the
same module (keep PRELUDE and `sample_module` in tests/table.rs alike).
"""
import fileinput, os, re, subprocess, sys, tempfile

PTXAS = os.environ.get("PTXAS") or os.path.join(
    os.environ.get("PTXOPT_CUDA_HOME", os.path.expanduser("~/.cache/ptxopt/cuda-13.0.88")),
    "bin", "ptxas")
TARGETS = ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a",
           "sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f",
           "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f",
           "sm_121", "sm_121a", "sm_121f"]
VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3",
            "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1",
            "6.2", "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5",
            "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6",
            "8.7", "8.8", "9.0"]

PRELUDE = """.version {ver}
.target {tgt}
.address_size 64
.global .align 16 .b8 gbuf[1024];
.shared .align 16 .b8 sbuf[1024];
.shared .align 8 .b64 mbar;
.const .align 16 .b8 cbuf[1024];
.global .texref tex0;
{samp}
.global .surfref surf0;
.func (.param .b32 fr) fn(.param .b32 fa) {{ ret; }}
.func fn0() {{ ret; }}
.visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128]) {{
 .reg .pred %p<20>;
 .reg .b8 %b<20>;
 .reg .b16 %h<40>;
 .reg .b32 %r<200>;
 .reg .b64 %rd<100>;
 .reg .f32 %f<100>;
 .reg .f64 %fd<40>;
 {b128}
 .local .align 16 .b8 lbuf[64];
 .param .b32 pa;
 .param .b32 pr;
 ts: .branchtargets L0, L1;
 fproto: .callprototype (.param .b32 _) _ (.param .b32 _);
 fproto0: .callprototype _ ();
L0:
L1:
"""
BODY_END = " ret;\n}\n"

def compile_lines(lines, tgt, ver):
    """Returns the set of indices (into lines) that ptxas reports errors for, or
    None if the file failed without line numbers (then all are suspect)."""
    opts = ""
    base = tgt
    b128 = ".reg .b128 %q<10>;" if tuple(map(int, ver.split("."))) >= (8, 3) else ""
    samp = ".global .samplerref samp0;" if "texmode_independent" in tgt else ""
    text = PRELUDE.format(ver=ver, tgt=tgt, b128=b128, samp=samp)
    first = text.count("\n") + 1
    body = "".join(" " + l.rstrip(";") + ";\n" for l in lines)
    text += body + BODY_END
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(text)
        name = f.name
    arch = tgt.split(",")[0].strip()
    r = subprocess.run([PTXAS, "-arch=" + arch, name, "-o", "/dev/null"],
                       capture_output=True, text=True)
    os.unlink(name)
    bad = {}
    fatal = None
    for m in re.finditer(r"line (\d+); (error|fatal)\s*:\s*(.*)", r.stderr):
        n = int(m.group(1)) - first
        if 0 <= n < len(lines):
            bad.setdefault(n, m.group(3))
            if m.group(2) == "fatal":
                fatal = n if fatal is None else min(fatal, n)
        else:
            bad.setdefault(-1, m.group(3))
    # An error without a line number (32-bit addressing, a kernel mixing
    # .cta_group::1 and ::2, ...): the lines must be checked one by one.
    lineless = [l for l in r.stderr.splitlines()
                if re.search(r"(error|fatal)\s*:", l) and not re.search(r"line \d+;", l)
                and "Ptx assembly aborted" not in l]
    if r.returncode != 0 and (not bad or lineless):
        bad[-1] = r.stderr.strip()
    if fatal is not None and -1 not in bad:
        # ptxas stops at a fatal (syntax) error: check the lines after it again.
        for n in [n for n in bad if n > fatal]:
            del bad[n]
        rest = compile_lines(lines[fatal + 1:], tgt, ver)
        for n, e in rest.items():
            bad.setdefault(n + fatal + 1 if n >= 0 else -1, e)
    return bad

def check_all(lines, tgt, ver):
    """Per-line error map; falls back to single-line compiles on global errors."""
    bad = compile_lines(lines, tgt, ver)
    if -1 in bad:
        bad = {}
        for i, l in enumerate(lines):
            b = compile_lines([l], tgt, ver)
            if b:
                bad[i] = next(iter(b.values()))
    return bad

def main():
    groups = []  # (target, [lines])
    tgt = "sm_100a"
    for raw in fileinput.input():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@target"):
            tgt = line.split(None, 1)[1].strip()
            continue
        if " | " in line:  # an annotated line of a previous run
            line = line.split(" | ", 1)[1]
        groups.append((tgt, line))
    # 1. every sample must assemble at its declared target, .version 9.0
    by_tgt = {}
    for i, (t, l) in enumerate(groups):
        by_tgt.setdefault(t, []).append(i)
    ok = []
    retry = {}
    nbad = 0
    for t, idx in by_tgt.items():
        bad = check_all([groups[i][1] for i in idx], t, "9.0")
        for k, i in enumerate(idx):
            if k in bad:
                retry.setdefault(i, bad[k])
            else:
                ok.append(i)
    pending = list(retry)
    for t in TARGETS:
        if not pending:
            break
        bad = check_all([groups[i][1] for i in pending], t, "9.0")
        rest = []
        for k, i in enumerate(pending):
            if k in bad:
                rest.append(i)
            else:
                ok.append(i)
        pending = rest
    # Instructions removed in later versions (vote and shfl without .sync):
    # try the oldest .version of the oldest target.
    fixed = {}
    floor = next(v for v in VERSIONS if not compile_lines([], TARGETS[0], v))
    for v in VERSIONS[VERSIONS.index(floor):]:
        if not pending:
            break
        bad = check_all([groups[i][1] for i in pending], TARGETS[0], v)
        rest = []
        for k, i in enumerate(pending):
            if k in bad:
                rest.append(i)
            else:
                fixed[i] = (TARGETS[0], v)
                ok.append(i)
        pending = rest
    for i in pending:
        nbad += 1
        print(f"REJECTED [{groups[i][0]}] {groups[i][1]}  --  {retry[i]}", file=sys.stderr)
    ok.sort()
    # 2. minimum target (.version 9.0)
    min_t = {i: t for i, (t, _) in fixed.items()}
    pending = [i for i in ok if i not in fixed]
    for t in TARGETS:
        if not pending:
            break
        bad = check_all([groups[i][1] for i in pending], t, "9.0")
        rest = []
        for k, i in enumerate(pending):
            if k in bad:
                rest.append(i)
            else:
                min_t[i] = t
        pending = rest
    for i in pending:
        min_t[i] = groups[i][0]
    # 3. minimum version at that target
    min_v = {i: v for i, (_, v) in fixed.items()}
    by_t = {}
    for i in ok:
        if i not in fixed:
            by_t.setdefault(min_t[i], []).append(i)
    for t, idx in by_t.items():
        pending = idx
        floor = next(v for v in VERSIONS if not compile_lines([], t, v))
        for v in VERSIONS[VERSIONS.index(floor):]:
            if not pending:
                break
            bad = check_all([groups[i][1] for i in pending], t, v)
            rest = []
            for k, i in enumerate(pending):
                if k in bad:
                    rest.append(i)
                else:
                    min_v[i] = v
            pending = rest
        for i in pending:
            min_v[i] = "9.0"
    print("# Instructions that ptxas 13.0.88 accepts, one a line, each with the lowest")
    print("# target and .version it accepts the instruction at. Generated by")
    print("# probe_ptxas.py from this file (it reads the instruction after ' | ').")
    declared = "sm_100a"
    for i in ok:
        if groups[i][0] != declared:
            declared = groups[i][0]
            print(f"@target {declared}")
        t = min_t[i].split(",")[0]
        print(f"{t} {min_v[i]} | {groups[i][1].rstrip(';')}")
    print(f"{len(ok)} accepted, {nbad} rejected", file=sys.stderr)

main()
