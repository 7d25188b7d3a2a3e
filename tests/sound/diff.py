#!/usr/bin/env python3
"""The differential test's kernel-file half (tests/sound_diff.sh): a kernel file optimized by
carve and its output run on data the optimizer never saw: every floating-point buffer of the
launch spec filled with values of both signs (and a few special ones), every block run, each
output buffer compared with the original's. Within the spec's tol, or, where the plan
reassociated a floating-point sum (split, reduce), within the bound the plan states:
|output - original| <= 2 * n * eps * S (S: the original on the data's magnitudes, n: on ones).
usage: diff.py CARVE ORIGINAL.cu OUTPUT.cu TMPDIR [-D X=V ...]; prints one line, exit 0/1."""
import os, re, struct, subprocess, sys, random

carve, orig, out, tmp = sys.argv[1:5]
defs = sys.argv[5:]
text = open(out).read()
env = {}   # an output no pass changed is the user's file: its counts name macros
for m in re.finditer(r'^#define (\w+) (.+)$', text, re.M):
    try: env[m.group(1)] = eval(m.group(2).replace('/', '//'), {}, dict(env))
    except Exception: pass
for d in defs:
    k, _, v = d.partition('=')
    try: env[k] = int(v)
    except ValueError: pass
spec = []
for m in re.finditer(r'^#pragma carve arg (\w+) = (\w+)\[([^\]]+)\] : (.*?)( out)?$', text, re.M):
    name, ty, count, init, is_out = m.groups()
    spec.append((name, ty, int(eval(count.replace('/', '//'), {}, env)), bool(is_out)))
tol = re.search(r'^#pragma carve tol (.*)$', text, re.M)
rel = abs_ = 0.0
if tol:
    r = re.search(r'rel\(([^)]*)\)', tol.group(1)); a = re.search(r'abs\(([^)]*)\)', tol.group(1))
    rel = float(r.group(1)) if r else 0.0; abs_ = float(a.group(1)) if a else 0.0
reassoc = re.search(r'^ \*   (split|reduce)\(', text, re.M) is not None
fmt = {'float': 'f', 'double': 'd'}
rng = random.Random(2026)
special = [0.0, -0.0, 1e-30, -1e-42, 1000.0, -1000.0]

def write(mode):
    args = []
    for name, ty, count, is_out in spec:
        if ty not in fmt:
            continue
        vals = []
        r2 = random.Random(hash(name) & 0xffff)
        for i in range(count):
            x = r2.uniform(-1, 1) if r2.random() > 1 / 61 else special[r2.randrange(6)]
            vals.append(abs(x) if mode == 1 else 1.0 if mode == 2 else x)
        path = os.path.join(tmp, '%s.%d.in' % (name, mode))
        with open(path, 'wb') as f:
            f.write(struct.pack('<%d%s' % (count, fmt[ty]), *vals))
        args += ['--arg', '%s=%s[%d]:file("%s")%s' % (name, ty, count, path, ' out' if is_out else '')]
    return args

def run(src, mode, tag, use_defs):
    args = write(mode)
    outs = []
    for name, ty, count, is_out in spec:
        if is_out:
            p = os.path.join(tmp, '%s.%s.%d.out' % (name, tag, mode))
            args += ['--out', '%s=%s' % (name, p)]
            outs.append((name, ty, count, p))
    cmd = [carve, 'run', src] + (sum([['-D', d] for d in defs], []) if use_defs else []) + args
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr or r.stdout).strip().splitlines()[-1:] 
    res = {}
    for name, ty, count, p in outs:
        data = open(p, 'rb').read()
        if ty in fmt:
            res[name] = struct.unpack('<%d%s' % (count, fmt[ty]), data)
        else:
            res[name] = data
    return res, None

a, err = run(orig, 0, 'orig', True)
if a is None:
    print('skipped (the original does not run on signed data: %s)' % err); sys.exit(0)
b, err = run(out, 0, 'out', True)
if b is None:
    print('DIFFERENT: the output fails: %s' % err); sys.exit(1)
S = n = None
if reassoc:
    S, _ = run(orig, 1, 'mag', True)
    n, _ = run(orig, 2, 'one', True)
bad = 0; first = ''
for name in a:
    x, y = a[name], b[name]
    if isinstance(x, bytes):
        if x != y:
            bad += 1; first = first or '%s differs' % name
        continue
    for i, (u, v) in enumerate(zip(x, y)):
        if u != u and v != v: continue
        if u == v or abs(u - v) <= abs_ + rel * max(abs(u), abs(v)): continue
        if reassoc and S and n:
            eps = 2.0 ** -24 if spec and dict((s[0], s[1]) for s in spec)[name] == 'float' else 2.0 ** -53
            if abs(u - v) <= 2 * max(abs(n[name][i]), 1) * eps * abs(S[name][i]): continue
        bad += 1
        first = first or '%s[%d]: original %.9g, output %.9g' % (name, i, u, v)
print('%d mismatches%s (%d buffers, %s)' % (bad, ': ' + first if first else '', len(a), 'reassociation bound' if reassoc else 'tol'))
sys.exit(1 if bad else 0)
