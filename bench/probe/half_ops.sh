#!/bin/bash
# bench/probe/half_ops.sh [CARVE]: carve's binary16 arithmetic against the GPU's, bit for bit (run
# on the device machine, from the repository root; needs nvcc, a GPU and python3).
#   1. tests/cxx/half_ops.cu: + - * /, __hfma, __hfma2, a conversion, the comparisons and
#      __hmin/__hmax on 4096 random bit patterns;
#   2. every unary operation on all 65536 bit patterns (hsqrt, hrcp, hexp, hlog, __hneg, __habs,
#      __half2int_rz, half -> float -> half), __hdiv of every pattern by a scrambled other,
#      __int2half_rn, and __hmin/__hmax/__hdiv/__hne on every pair of 16 special values.
# Each kernel runs in the harness `carve bench --emit` writes (built by nvcc) and in `carve run`,
# on the same inputs (the harness fills them with carve's generator). Printed per output: the
# elements whose bits differ (any NaN equals any NaN: the GPU does not promise which NaN), and
# up to 5 examples with the inputs' bits, the GPU's and carve's. Files stay in $OUT (default a
# temporary directory). Exit 0 when it ran (whatever it found), 2 when it could not.
carve=${1:-./carve}
arch=${ARCH:-sm_90}
command -v nvcc >/dev/null || { echo "half-probe: nvcc not found"; exit 2; }
command -v python3 >/dev/null || { echo "half-probe: python3 not found"; exit 2; }
[ -x "$carve" ] || make -s -j16 carve || exit 2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

cat > "$out/half_unary.cu" <<'EOF'
#include <cuda_fp16.h>
#pragma carve launch half_unary grid(256) block(256)
#pragma carve arg a = unsigned short[65536] : iota
#pragma carve arg sq = __half[65536] : zeros out
#pragma carve arg rc = __half[65536] : zeros out
#pragma carve arg ex = __half[65536] : zeros out
#pragma carve arg lg = __half[65536] : zeros out
#pragma carve arg ng = __half[65536] : zeros out
#pragma carve arg ab = __half[65536] : zeros out
#pragma carve arg ri = int[65536] : zeros out
#pragma carve arg rt = __half[65536] : zeros out
#pragma carve arg dv = __half[65536] : zeros out
#pragma carve arg ih = __half[65536] : zeros out
#pragma carve arg smin = __half[256] : zeros out
#pragma carve arg smax = __half[256] : zeros out
#pragma carve arg sdiv = __half[256] : zeros out
#pragma carve arg sne = unsigned char[256] : zeros out
// a[k] is the bit pattern k: a[S[j]] is the special value S[j]
__global__ void half_unary(const __half *a, __half *sq, __half *rc, __half *ex, __half *lg, __half *ng, __half *ab, int *ri,
                           __half *rt, __half *dv, __half *ih, __half *smin, __half *smax, __half *sdiv, unsigned char *sne) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half x = a[i];
  sq[i] = hsqrt(x);
  rc[i] = hrcp(x);
  ex[i] = hexp(x);
  lg[i] = hlog(x);
  ng[i] = __hneg(x);
  ab[i] = __habs(x);
  ri[i] = __half2int_rz(x);
  rt[i] = __float2half(__half2float(x));
  dv[i] = __hdiv(x, a[(i * 40503 + 12345) & 65535]);
  ih[i] = __int2half_rn(i * 37 - 1200000);
  if (i < 256) {
    const int S[16] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x008f};
    __half p = a[S[i >> 4]], q = a[S[i & 15]];
    smin[i] = __hmin(p, q);
    smax[i] = __hmax(p, q);
    sdiv[i] = __hdiv(p, q);
    sne[i] = (unsigned char)(__hne(p, q) | __heq(p, q) << 1 | (p != q) << 2);
  }
}
EOF

# run FILE NAME: the GPU's outputs in $out/NAME/gpu, carve's in $out/NAME/carve, inputs in $out/NAME/in
run() {
  local f=$1 d=$out/$2
  rm -rf "$d"; mkdir -p "$d/gpu" "$d/carve" "$d/in"
  "$carve" bench "$f" --arch "$arch" --emit "$d" >/dev/null 2>"$d/emit.err" || { echo "half-probe: carve bench --emit $f failed:"; cat "$d/emit.err"; return 1; }
  (cd "$d" && nvcc -O3 -arch="$arch" -o harness harness.cu 2>nvcc.err) || { echo "half-probe: nvcc failed on $d/harness.cu:"; head -20 "$d/nvcc.err"; return 1; }
  "$d/harness" 0 "$d/gpu" >"$d/run.out" 2>"$d/run.err" || { echo "half-probe: the harness failed:"; cat "$d/run.err"; return 1; }
  local outs=()
  for g in "$d"/gpu/*.bin; do n=$(basename "$g" .bin); outs+=(--out "$n=$d/carve/$n.bin"); done
  "$carve" run "$f" --dump-inputs "$d/in" "${outs[@]}" >"$d/carve.out" 2>&1 || { echo "half-probe: carve run $f failed:"; tail -5 "$d/carve.out"; return 1; }
}

run tests/cxx/half_ops.cu ops || exit 2
run "$out/half_unary.cu" unary || exit 2

# NAME:KIND:INPUTS per output (KIND h = __half lanes, u8 = bytes, i32 = ints; INPUTS the input
# buffers shown in the examples, index i or, for the special pairs, S[i>>4] and S[i&15])
python3 - "$out" <<'PY'
import struct, sys, os
out = sys.argv[1]
S = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x008f]
def words(path, fmt, size):
    d = open(path, 'rb').read()
    return struct.unpack('<%d%s' % (len(d) // size, fmt), d)
def is_nan(h): return (h & 0x7c00) == 0x7c00 and (h & 0x3ff) != 0
specs = {
  'ops': ['sum:h:a,b', 'diff:h:a,b', 'prod:h:a,b', 'quot:h:a,b', 'fma:h:a,b,c', 'fma2:h:a,b,c', 'conv:h:a', 'cmp:u8:a,b', 'mn:h:a,b', 'mx:h:a,b'],
  'unary': ['sq:h:a', 'rc:h:a', 'ex:h:a', 'lg:h:a', 'ng:h:a', 'ab:h:a', 'ri:i32:a', 'rt:h:a', 'dv:h:a,div', 'ih:h:int',
            'smin:h:pair', 'smax:h:pair', 'sdiv:h:pair', 'sne:u8:pair'],
}
total = 0
for run, outs in specs.items():
    d = os.path.join(out, run)
    ins = {n[:-4]: words(os.path.join(d, 'in', n), 'H', 2) for n in os.listdir(os.path.join(d, 'in')) if n.endswith('.bin')}
    for spec in outs:
        name, kind, inputs = spec.split(':')
        fmt, size = {'h': ('H', 2), 'u8': ('B', 1), 'i32': ('i', 4)}[kind]
        g = words(os.path.join(d, 'gpu', name + '.bin'), fmt, size)
        c = words(os.path.join(d, 'carve', name + '.bin'), fmt, size)
        lanes = 2 if name == 'fma2' else 1
        bad = []
        for k, (x, y) in enumerate(zip(g, c)):
            if x == y or (kind == 'h' and is_nan(x) and is_nan(y)): continue
            bad.append(k)
        total += len(bad)
        print(f"{run:6} {name:5} {len(bad):6} of {len(g):6} differ")
        for k in bad[:5]:
            i = k // lanes
            if inputs == 'pair': shown = f"p=0x{S[i >> 4]:04x} q=0x{S[i & 15]:04x}"
            elif inputs == 'int': shown = f"int {i * 37 - 1200000}"
            elif inputs == 'a,div': shown = f"a=0x{i:04x} b=0x{(i * 40503 + 12345) & 65535:04x}"
            else: shown = ' '.join(f"{n}=0x{ins[n][i]:04x}" for n in inputs.split(','))
            w = 8 if kind == 'i32' else 4 if kind == 'h' else 2
            print(f"         element {k}{' (lane ' + str(k % 2) + ')' if lanes == 2 else ''}: {shown}  gpu=0x{g[k] & 0xffffffff:0{w}x} carve=0x{c[k] & 0xffffffff:0{w}x}")
print(f"half-probe: {total} differing elements in all (files in {out})")
PY
