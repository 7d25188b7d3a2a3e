#!/usr/bin/env python3
"""bench/holdout-summarize.py OUTDIR [SIZES [RUN-SIZES]]: the RESULTS.md tables of a holdout test,
read from the output folder of bench/holdout3/run.sh, bench/holdout4/run.sh or
bench/holdout5/run.sh (one script for the three; it replaces holdout3's and holdout4's
summarize.py). It reads OUTDIR/summary.tsv (program, size, step, exit status, seconds, verdict),
the plans OUTDIR/P.SIZE.plan.txt and the estimates OUTDIR/P.estimate.txt (size s1) and
OUTDIR/P.SIZE.estimate.txt. The programs come in the order summary.tsv first names them; the
optimize sizes (SIZES, comma-separated) and the sizes each output ran at (RUN-SIZES) default to
those summary.tsv holds."""
import os
import re
import sys

out = sys.argv[1]
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "summary.tsv")) if l.strip()]
steps, progs, osizes, rsizes = {}, [], [], []
for f in rows:
    f += [""] * (6 - len(f))
    steps[(f[0], f[1], f[2])] = f[3:]
    if f[0] not in progs:
        progs.append(f[0])
    if f[2] == "optimize" and f[1] not in osizes:
        osizes.append(f[1])
    if f[2].startswith("opt-run-") and f[2][8:] not in rsizes:
        rsizes.append(f[2][8:])
if len(sys.argv) > 2:
    osizes = sys.argv[2].split(",")
if len(sys.argv) > 3:
    rsizes = sys.argv[3].split(",")


def plan(path):
    """the kernels of a plan: name, grid, block, kept passes, estimate before/after, refusals"""
    ks, cur = [], None
    if not os.path.exists(path):
        return ks
    for line in open(path, errors="replace"):
        m = re.match(r"carve optimize: launch \d+ of \d+ distinct: ([\w<>, ]+?)<<<\(([^)]*)\), \(([^)]*)\)>>>", line)
        if m:
            cur = dict(name=m.group(1), grid=m.group(2), block=m.group(3), kept=[], before=None,
                       after=None, refused=[])
            ks.append(cur)
            continue
        m = re.match(r"carve optimize: (\w+)\s+(applied|not kept|not legal|not applicable|failed|FAILED to apply|rejected)(.*)", line)
        if m and cur is not None:
            p, what, rest = m.group(1), m.group(2), m.group(3)
            e = re.search(r"estimate ([0-9.e+-]+) -> ([0-9.e+-]+) ms", rest)
            if e and cur["before"] is None:
                cur["before"] = e.group(1)
            if what == "applied":
                cur["kept"].append(p)
                if e:
                    cur["after"] = e.group(2)
            elif what in ("not kept", "not legal", "failed", "FAILED to apply", "rejected"):
                cur["refused"].append((p, what, rest.strip(", :")[:200]))
    return ks


def estimates(path):
    """kernel -> the estimate in ms carve estimate printed for its first launch"""
    e, cur = {}, None
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            m = re.match(r"carve estimate: launch \d+ of \d+ distinct: ([\w<>, ]+?)<<<", line)
            if m:
                cur = m.group(1)
            m = re.match(r"\s+estimate: ([0-9.e+-]+) ms", line)
            if m and cur and cur not in e:
                e[cur] = "%.4f" % float(m.group(1))
    return e


def written(path):
    """the kernels whose kept steps are in the output of a plan: a kept pass, and no warning that
    the steps are not written in (a launch in host code carve could not read)"""
    names = set(re.sub(r"<.*", "", k["name"]) for k in plan(path) if k["kept"])
    if os.path.exists(path):
        for m in re.finditer(r"the steps kept for '(\w+)' are not in the output", open(path, errors="replace").read()):
            names.discard(m.group(1))
    return names


def ran(path, opt):
    """which kernels a run of an output launched: 'opt' when the launches of the kernels with
    steps written in (opt) ran those, 'orig' when they ran the kept originals (*_carve_original:
    the size or shape did not meet the optimized one's tests), 'opt+orig' both, 'as written' when
    the output has no step written in"""
    if not opt:
        return "as written"
    if not os.path.exists(path):
        return ""
    names = set(re.findall(r"^\s+launch \d+: (\w+)", open(path, errors="replace").read(), re.M))
    o = any(n in opt for n in names)
    g = any(n.endswith("_carve_original") and n[:-len("_carve_original")] in opt for n in names)
    return "opt+orig" if o and g else "opt" if o else "orig" if g else ""


def verdict(s, path=None, opt=None):
    if s[0] == "-":
        return "not run"
    if s[0] == "0":
        r = ran(path, opt) if path else ""
        return ("PASSED" if "PASSED" in s[2] else "rc 0") + ((" (%s)" % r) if r else "")
    return "rc %s %s" % (s[0], s[2][:60])


def estimate_file(p, size):
    return os.path.join(out, p + (".estimate.txt" if size == "s1" else ".%s.estimate.txt" % size))


print("| program | opt. size | kernel | launch grid / block | passes kept | estimate before -> after (ms) | optimize s | output at %s | nvcc |" % " / ".join(rsizes))
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for p in progs:
    for size in osizes:
        opt = steps.get((p, size, "optimize"), ["-", "-", ""])
        opt_names = written(os.path.join(out, "%s.%s.plan.txt" % (p, size)))
        runs = " / ".join(verdict(steps.get((p, size, "opt-run-" + r), ["-", "-", ""]),
                                  os.path.join(out, "%s.%s.optrun-%s.txt" % (p, size, r)), opt_names)
                          for r in rsizes)
        nv = steps.get((p, size, "nvcc"), ["-", "-", ""])
        nvs = "ok" if nv[0] == "0" else ("not run" if nv[0] == "-" else "rc=%s" % nv[0])
        ks = plan(os.path.join(out, "%s.%s.plan.txt" % (p, size)))
        est = estimates(estimate_file(p, size))
        if not ks:
            print("| %s | %s | (none) | | | | %s (rc %s) | %s | %s |" % (p, size, opt[1], opt[0], runs, nvs))
        seen = set()
        first = True
        for k in ks:
            if k["name"] in seen and not k["kept"]:
                continue
            seen.add(k["name"])
            b = k["before"] or (est.get(k["name"], "?") + "*")
            a = k["after"] or b
            print("| %s | %s | %s | (%s) / (%s) | %s | %s -> %s | %s | %s | %s |" % (
                p if first else "", size if first else "", k["name"], k["grid"], k["block"],
                ", ".join(k["kept"]) or "none", b, a,
                ("%s (rc %s)" % (opt[1], opt[0])) if first else "", runs if first else "",
                nvs if first else ""))
            first = False

pre = [("s1", "check"), ("s1", "run"), ("s1", "analyze"), ("s1", "estimate")] + \
      [(s, "estimate") for s in osizes if s != "s1"]
if any(k[2] == "check" for k in steps):
    print()
    print("Steps before optimize (at s1):")
    print()
    print("| program | %s |" % " | ".join("%s (%s)" % (st, sz) for sz, st in pre))
    print("|%s" % (" --- |" * (len(pre) + 1)))
    for p in progs:
        cells = []
        for size, st in pre:
            s = steps.get((p, size, st), ["-", "-", ""])
            cells.append("rc %s, %s s%s" % (s[0], s[1], (", " + s[2][:50].replace("|", "/")) if s[2] else ""))
        print("| %s | %s |" % (p, " | ".join(cells)))

print()
print("Refusals (not kept / not legal / failed) per kernel, first size that showed each:")
print()
for p in progs:
    shown = set()
    for size in osizes:
        for k in plan(os.path.join(out, "%s.%s.plan.txt" % (p, size))):
            for (ps, what, why) in k["refused"]:
                key = (k["name"], ps, what)
                if key in shown:
                    continue
                shown.add(key)
                print("- %s %s (%s): %s %s: %s" % (p, k["name"], size, ps, what, why.replace("|", "/")))
