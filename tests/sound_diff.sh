#!/bin/bash
# The differential test (issue 26, "Done when"): carve optimize every bundled example, every
# tests/ kernel file and host program with a launch, and a generated family of host programs;
# then run each output at sizes and data it was not verified with (and with aliased pointers
# where the program allows), against the original: 0 mismatches outside the stated bounds.
# --no-estimate keeps every legal verified step (the most rewritten code under test); small sizes.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "sound-diff: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
have_py=1; command -v python3 >/dev/null 2>&1 || have_py=0

# 1. kernel files (the bundled examples at their interpreter sizes, the tests' spec kernels):
#    every floating-point buffer on signed and special data, every block (tests/sound/diff.py)
if [ $have_py = 1 ]; then
  kfiles=$(grep -v '^#' examples/sizes.txt | sed 's/|.*//' | awk 'NF { f = $1; $1 = ""; print "examples/" f "|" $0 }')
  for r in tests/reduce/atomic_int.cu tests/reduce/atomic_max.cu tests/reduce/tree_idx.cu tests/reduce/tree_seq.cu tests/tile/*.cu \
           tests/sound/partial.cu tests/sound/psum.cu tests/sound/acc_spec.cu; do
    grep -q "^#pragma carve launch" "$r" && kfiles="$kfiles
$r|"
  done
  while IFS='|' read -r f defs; do
    [ -n "$f" ] || continue
    D=(); for x in $defs; do D+=(-D "$x"); done
    b=$(basename "$f" .cu); mkdir -p "$t/$b"
    "$carve" optimize "$f" "${D[@]}" --no-estimate -o "$t/$b/out.cu" 2> "$t/$b/plan" > /dev/null
    check $? "$f optimizes: $(tail -2 "$t/$b/plan")"
    res=$(python3 tests/sound/diff.py "$carve" "$f" "$t/$b/out.cu" "$t/$b" $defs 2>&1); rc=$?
    check $rc "$f: the output against the original on signed data: $res"
    echo "$res" | grep -q "^skipped" && echo "sound-diff: $f: $res"
  done <<< "$kfiles"
else
  echo "sound-diff: kernel files skipped (no python3)"
fi

# 2. host programs: optimized at their own size, run at others, the program's own output compared
same() {   # same FILE OUT ARGS...: the program and its output print the same at these arguments
  local f=$1 o=$2; shift 2
  local a b
  a=$("$carve" run "$f" "$@" 2>/dev/null); b=$("$carve" run "$o" "$@" 2>/dev/null)
  [ "$a" = "$b" ] && [ -n "$a" ]; check $? "$(basename "$f") at $*: the output prints what the original does: '$a' / '$b'"
}
hp() {   # hp FILE [-D ..] -- SIZES...: optimize at the default, run at each size (one argv word list, ',' separated)
  local f=$1; shift
  local opt=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do opt+=("$1"); shift; done; shift
  local o="$t/$(basename "$f" .cu).$RANDOM.cu"
  "$carve" optimize "$f" "${opt[@]}" --no-estimate -o "$o" 2> "$o.plan" > /dev/null; check $? "$f optimizes: $(tail -2 "$o.plan")"
  for s in "$@"; do
    case "$s" in -D*) same "$f" "$o" -D "${s#-D}";; *) IFS=',' read -ra w <<< "$s"; same "$f" "$o" -- "${w[@]}";; esac
  done
}
hp tests/host/vadd.cu -- 5000 4097 10007 64
hp tests/host/scale_args.cu -- 3000 5001,64 777,256 4096,32
hp tests/host/matmul.cu -- 40 17 33
hp tests/host/heat.cu -- ""
hp tests/host/kernels.cu -- ""
hp tests/sound/mm_naive.cu -- 40 17 64 100
hp tests/sound/atomic_sum.cu -- 70000 4097 100003
hp tests/sound/two_sizes.cu -- ""
hp tests/sound/acc_alias.cu -- ""
hp tests/sound/macro_size.cu -D N=40 -- -DN=40 -DN=97 -DN=256

# 3. a generated family: element-wise 1-D and 2-D, a row sum (float and int), an atomic sum,
#    a naive multiply, each at a few block sizes; optimized at one n, run at others (a prime
#    among them), and with one buffer passed as two pointers where the kernel allows it
gen() {   # gen KIND BLOCK > file.cu
  local kind=$1 B=$2
  cat <<H
#include <stdio.h>
#include <stdlib.h>
H
  case $kind in
  axpy) cat <<K
__global__ void k(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000, alias = argc > 2;
  float *h = (float *)malloc(n * sizeof(float)), *x, *y;
  for (int i = 0; i < n; i++) h[i] = (float)(i % 23) - 11.0f;
  cudaMalloc((void **)&x, n * sizeof(float)); cudaMalloc((void **)&y, n * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice); cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + $B - 1) / $B, $B>>>(alias ? y : x, y, 0.5f, n);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n; i++) s += h[i] * (i % 7 + 1);
  printf("axpy n=%d: %.6f %.6f %.6f\n", n, s, h[0], h[n - 1]);
  return 0;
}
K
  ;;
  ew2d) cat <<K
__global__ void k(const float *A, float *C, int h, int w) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < h && c < w) C[r * w + c] = 2.0f * A[r * w + c] - A[(r * w + c + 1) % (h * w)];
}
int main(int argc, char **argv) {
  int h = argc > 1 ? atoi(argv[1]) : 48, w = h + 5;
  float *hA = (float *)malloc(h * w * sizeof(float)), *A, *C;
  for (int i = 0; i < h * w; i++) hA[i] = (float)(i % 31) * 0.25f - 3.0f;
  cudaMalloc((void **)&A, h * w * sizeof(float)); cudaMalloc((void **)&C, h * w * sizeof(float));
  cudaMemcpy(A, hA, h * w * sizeof(float), cudaMemcpyHostToDevice);
  dim3 b($B), g((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
  k<<<g, b>>>(A, C, h, w);
  cudaMemcpy(hA, C, h * w * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < h * w; i++) s += hA[i] * (i % 5 + 1);
  printf("ew2d %dx%d: %.4f\n", h, w, s);
  return 0;
}
K
  ;;
  rowsum|rowsumi) local T=float; [ $kind = rowsumi ] && T=int; cat <<K
__global__ void k(const $T *a, $T *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    $T s = 0;
    for (int j = 0; j < n; j++) s += a[r * n + j];
    out[r] += s;
  }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  $T *h = ($T *)malloc(n * n * sizeof($T)), *a, *o;
  for (int i = 0; i < n * n; i++) h[i] = ($T)(i % 9) - ($T)4;
  cudaMalloc((void **)&a, n * n * sizeof($T)); cudaMalloc((void **)&o, n * sizeof($T));
  cudaMemcpy(a, h, n * n * sizeof($T), cudaMemcpyHostToDevice); cudaMemcpy(o, h, n * sizeof($T), cudaMemcpyHostToDevice);
  k<<<(n + $B - 1) / $B, $B>>>(a, o, n);
  cudaMemcpy(h, o, n * sizeof($T), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n; i++) s += (double)h[i] * (i % 3 + 1);
  printf("rowsum n=%d: %.3f\n", n, s);
  return 0;
}
K
  ;;
  asum) cat <<K
__global__ void k(const int *x, int *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000, r = 0;
  int *h = (int *)malloc(n * sizeof(int)), *x, *s;
  for (int i = 0; i < n; i++) h[i] = i % 13 - 6;
  cudaMalloc((void **)&x, n * sizeof(int)); cudaMalloc((void **)&s, sizeof(int));
  cudaMemcpy(x, h, n * sizeof(int), cudaMemcpyHostToDevice); cudaMemcpy(s, &r, sizeof(int), cudaMemcpyHostToDevice);
  k<<<(n + $B - 1) / $B, $B>>>(x, s, n);
  cudaMemcpy(&r, s, sizeof(int), cudaMemcpyDeviceToHost);
  printf("asum n=%d: %d\n", n, r);
  return 0;
}
K
  ;;
  mm) cat <<K
__global__ void k(const float *A, const float *B, float *C, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n) {
    float s = 0.0f;
    for (int q = 0; q < n; q++) s += A[r * n + q] * B[q * n + c];
    C[r * n + c] = s;
  }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 32;
  float *h = (float *)malloc(n * n * sizeof(float)), *A, *B, *C;
  for (int i = 0; i < n * n; i++) h[i] = (float)(i % 7) - 3.0f;
  cudaMalloc((void **)&A, n * n * sizeof(float)); cudaMalloc((void **)&B, n * n * sizeof(float)); cudaMalloc((void **)&C, n * n * sizeof(float));
  cudaMemcpy(A, h, n * n * sizeof(float), cudaMemcpyHostToDevice); cudaMemcpy(B, h, n * n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 b($B), g((n + b.x - 1) / b.x, (n + b.y - 1) / b.y);
  k<<<g, b>>>(A, B, C, n);
  cudaMemcpy(h, C, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n * n; i++) s += h[i] * (i % 5 + 1);
  printf("mm n=%d: %.1f\n", n, s);
  return 0;
}
K
  ;;
  esac
}
fam() { local kind=$1 B=$2; shift 2; local f="$t/fam_${kind}_$(echo "$B" | tr -c '0-9\n' _).cu"; gen $kind "$B" > "$f"; hp "$f" -- "$@"; }
fam axpy 64 3000 3001 4099 1000,alias 3000,alias
fam axpy 256 3000 12289 17 3000,alias
fam ew2d "16, 16" 48 31 67
fam ew2d "32, 8" 48 64 23
fam rowsum 32 64 37 128
fam rowsumi 64 64 97 3
fam asum 256 20000 65536 100003 5
fam asum 128 20000 7
fam mm "16, 16" 32 17 48
fam mm "32, 8" 32 64 29

# the outputs compared hold rewritten code: steps kept over all plans, by pass
kept=$(cat "$t"/*/plan "$t"/*.plan 2>/dev/null | grep -o "^carve optimize: [a-z]* *applied, verified" | awk '{print $3}' | sort | uniq -c | tr -s ' ' | tr '\n' ',')
n=$(cat "$t"/*/plan "$t"/*.plan 2>/dev/null | grep -c "applied, verified")
echo "sound-diff: $n kept steps in the outputs compared:$kept"
[ "$n" -ge 40 ]; check $? "at least 40 kept steps under test ($n)"
echo "sound-diff: $pass passed, $fail failed"
[ $fail = 0 ]
