#!/bin/sh
# The native engine against the interpreter (docs/native.md): every bundled example at the sizes of
# examples/sizes.txt, and every kernel of tests/ with a launch specification, run by both engines;
# each output buffer must be bit-identical (the same checksum of its bytes). A kernel the native
# engine cannot translate runs in the interpreter and is listed with the construct; a difference
# fails. Also: --engine/--check usage errors, a fault found by the check, a division by zero the
# native code reports, the compiled-kernel cache.
carve=${1:-./carve}
pass=0; fail=0; native=0; fallback=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CARVE_NATIVE_CACHE="$tmp/cache"
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then echo "native: skipped (no C compiler: \$CC or cc)"; echo "native: 0 passed, 0 failed"; exit 0; fi
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# compare one launch: $1 label, then carve run arguments
compare() {
  label=$1; shift
  "$carve" run "$@" --engine interp >"$tmp/i.out" 2>"$tmp/i.err"; ri=$?
  if [ $ri -ne 0 ]; then echo "  $label: the interpreter says status $ri; not compared"; return; fi
  "$carve" run "$@" --engine native --check all >"$tmp/n.out" 2>"$tmp/n.err"; rn=$?
  if [ $rn -ne 0 ]; then bad "$label: native status $rn"; cat "$tmp/n.err"; return; fi
  if grep -q "the interpreter runs" "$tmp/n.err"; then
    case "$label" in tests/native/*) bad "$label: fell back to the interpreter: $(cat "$tmp/n.err")"; return;; esac
    fallback=$((fallback + 1))
    echo "  $label: interpreter ($(sed -n 's/.*the interpreter runs [^:]*: //p' "$tmp/n.err" | head -1))"
  elif grep -q "differ" "$tmp/n.err"; then
    bad "$label: $(grep differ "$tmp/n.err")"; return
  else
    native=$((native + 1))
  fi
  grep 'output ' "$tmp/i.out" | sed 's/first:.*//' >"$tmp/i.sum"
  grep 'output ' "$tmp/n.out" | sed 's/first:.*//' >"$tmp/n.sum"
  if cmp -s "$tmp/i.sum" "$tmp/n.sum" && [ -s "$tmp/i.sum" ]; then ok
  else bad "$label: outputs differ"; diff "$tmp/i.sum" "$tmp/n.sum" | head -5; fi
}

# the bundled examples at their interpreter sizes
while read -r file defs; do
  case "$file" in ''|\#*) continue;; esac
  defs=${defs%%|*}
  set -- $defs
  dflags=""
  for d in "$@"; do dflags="$dflags -D $d"; done
  compare "examples/$file" examples/$file $dflags
done < examples/sizes.txt

# every kernel of tests/ with a launch specification (not the malformed-input corpus, not host programs)
for f in $(grep -rl '#pragma carve launch' tests --include='*.cu' | grep -v '^tests/diag/' | sort); do
  grep -q '^int main\|^int  *main' "$f" && continue
  grep '#pragma carve launch .* grid(' "$f" | sed 's/.*#pragma carve launch *//; s/ grid(.*//' | sort -u >"$tmp/kernels"
  inc=$(dirname "$f")/inc
  while read -r k; do
    if [ -d "$inc" ]; then compare "$f:$k" "$f" --kernel "$k" -I "$inc"; else compare "$f:$k" "$f" --kernel "$k"; fi
  done <"$tmp/kernels"
done

# the optimizer's outputs (warp shuffles, float4 loads, pointer alignment tests, shared tiles, barriers),
# run at the sizes they were optimized at (an output with no step kept is the user's file, default sizes)
for spec in "sum.cu N=100000" "mv.cu H=256 W=256" "tp.cu H=256 W=256" "rd.cu N=100000 SEG=1000" "conv.cu N=48 K=5" \
            "reduce_shared.cu N=65536" "stencil.cu N=100000" "histogram.cu N=65536" "mm_acc.cu N=64"; do
  set -- $spec; f=$1; shift
  dflags=""; for d in "$@"; do dflags="$dflags -D $d"; done
  if "$carve" optimize examples/$f $dflags -o "$tmp/opt_$f" >/dev/null 2>&1; then compare "optimized $f" "$tmp/opt_$f" $dflags
  else bad "carve optimize examples/$f failed"; fi
done

# usage errors name the flag
"$carve" run examples/mm.cu -D N=16 --engine fast >/dev/null 2>"$tmp/e"; r=$?
if [ $r -eq 2 ] && grep -q -- "--engine takes native, interp or auto" "$tmp/e"; then ok; else bad "--engine fast: status $r"; fi
"$carve" run examples/mm.cu -D N=16 --check most >/dev/null 2>"$tmp/e"; r=$?
if [ $r -eq 2 ] && grep -q -- "--check takes sample, all or none" "$tmp/e"; then ok; else bad "--check most: status $r"; fi

# --check none still checks the configuration: more shared memory than a block can have is an error, as in the interpreter
"$carve" run tests/native/edges.cu --kernel tree --shared 999999 --engine native --check none >"$tmp/o" 2>&1; r=$?
if [ $r -eq 2 ] && grep -q "block needs 999999 bytes of shared memory" "$tmp/o"; then ok; else bad "--check none, shared 999999: status $r"; cat "$tmp/o"; fi

# auto: a small launch stays in the interpreter, a large one runs natively and says so
"$carve" run examples/mm.cu -D N=16 >"$tmp/o" 2>&1
if grep -q "lane-ops/s" "$tmp/o" && ! grep -q "native" "$tmp/o"; then ok; else bad "auto, small launch: not the interpreter"; cat "$tmp/o"; fi
"$carve" run examples/mm.cu -D N=512 >"$tmp/o" 2>&1
if grep -q "native on" "$tmp/o" && grep -q "checked 4 blocks" "$tmp/o"; then ok; else bad "auto, large launch: not native"; cat "$tmp/o"; fi
# JSON says which engine ran
"$carve" run examples/mm.cu -D N=512 --format json 2>/dev/null | grep -q '"engine": "native"' && ok || bad "json: no engine"

# the second run finds the compiled kernel in the cache
"$carve" run examples/mm.cu -D N=512 >"$tmp/o" 2>&1
if grep -q "cached" "$tmp/o"; then ok; else bad "cache: not reused"; cat "$tmp/o"; fi

# a fault in a sampled block: the check (the interpreter) reports it, status 1, nothing native
cat >"$tmp/oob.cu" <<'K'
#pragma carve launch oob grid(1024) block(128)
#pragma carve arg x = float[131072] : random(1)
#pragma carve arg y = float[131072] : zeros out
__global__ void oob(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i + 1];
}
K
"$carve" run "$tmp/oob.cu" >"$tmp/o" 2>&1; r=$?
if [ $r -eq 1 ] && grep -q "out-of-bounds" "$tmp/o"; then ok; else bad "oob: status $r"; cat "$tmp/o"; fi

# an out-of-bounds write in a block the check did not run: the native run (a child process, buffers
# between inaccessible gigabytes) stops, carve does not; the interpreter says where
cat >"$tmp/oob2.cu" <<'K'
#pragma carve launch oob2 grid(1024) block(128)
#pragma carve arg x = float[131072] : random(1)
#pragma carve arg y = float[131072] : zeros out
__global__ void oob2(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
  if (blockIdx.x == 700 && threadIdx.x == 5) y[i + 200000] = 1.0f;
}
K
"$carve" run "$tmp/oob2.cu" >"$tmp/o" 2>&1; r=$?
if [ $r -eq 1 ] && grep -q "the native run stopped with" "$tmp/o" && grep -q "element 289605 of 'y'" "$tmp/o"; then ok
else bad "out of bounds outside the sample: status $r"; cat "$tmp/o"; fi

# a division by zero in a block the check did not run: the native code notices, the interpreter says where
cat >"$tmp/div.cu" <<'K'
#pragma carve launch divz grid(1024) block(128)
#pragma carve arg x = int[131072] : iota(1)
#pragma carve arg y = int[131072] : zeros out
__global__ void divz(const int *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = 1000 / (x[i] - 70001);
}
K
"$carve" run "$tmp/div.cu" >"$tmp/o" 2>&1; r=$?
if [ $r -eq 1 ] && grep -q "division by zero" "$tmp/o" && grep -q "the native run found an integer division by zero" "$tmp/o"; then ok
else bad "division by zero: status $r"; cat "$tmp/o"; fi

# a barrier in divergent code: the native run reports it, the interpreter runs the launch
cat >"$tmp/divb.cu" <<'K'
#pragma carve launch divb grid(1024) block(64)
#pragma carve arg y = int[65536] : zeros out
__global__ void divb(int *y) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 700 && threadIdx.x < 16) __syncthreads();
  y[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
K
"$carve" run "$tmp/divb.cu" >"$tmp/o" 2>&1; r=$?
if [ $r -eq 1 ] && grep -q "the native run found a divergent barrier" "$tmp/o" && grep -q "error: .*__syncthreads" "$tmp/o"; then ok; else bad "divergent barrier: status $r"; cat "$tmp/o"; fi

# a loop that never ends in a block the check did not run: the native run is stopped once it takes
# longer than the interpreter would (10 s plus 4x the check's time per block), and the interpreter's step limit applies
cat >"$tmp/hang.cu" <<'K'
#pragma carve launch hang grid(1024) block(128)
#pragma carve arg y = int[131072] : zeros out
__global__ void hang(int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (blockIdx.x == 700 && k >= 0) k = (k + 1) & 0xffff;
  y[i] = k;
}
K
"$carve" run "$tmp/hang.cu" --max-steps 1e7 >"$tmp/o" 2>&1; r=$?
if [ $r -eq 2 ] && grep -q "the native run took longer than the interpreter would" "$tmp/o" && grep -q "step limit" "$tmp/o"; then ok
else bad "endless loop: status $r"; cat "$tmp/o"; fi

# launches of few threads with long loops (tests/native/long_loops.cu: 2048 threads, 200000 iterations
# each): the interpreter's slice (2 s) ends, the native engine runs them; a recording command reaches
# and records both launches (the second was hidden behind the first's interpretation before)
"$carve" run tests/native/long_loops.cu --route interp >"$tmp/o" 2>&1; r=$?
if [ $r -eq 0 ] && grep -q "long_loops: PASSED" "$tmp/o" && grep -q "engines: 2 launches on the native engine" "$tmp/o"; then ok
else bad "long loops, run: status $r"; cat "$tmp/o"; fi
"$carve" analyze tests/native/long_loops.cu --route interp --max-seconds 1 >"$tmp/o" 2>&1; r=$?
if [ $r -eq 0 ] && grep -q "launch 2 of 2 distinct: mix" "$tmp/o" && grep -q "analyze: engines: 2 launches on the native engine" "$tmp/o"; then ok
else bad "long loops, analyze: status $r"; cat "$tmp/o"; fi
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  if [ -f build/libcarve_cudart.so ]; then
    "$carve" analyze tests/native/long_loops.cu --route nvcc --max-seconds 1 >"$tmp/o" 2>&1; r=$?
    if [ $r -eq 0 ] && grep -q "launch 2 of 2 distinct: mix" "$tmp/o" && grep -q "engines: 2 launches on the native engine" "$tmp/o"; then ok
    else bad "long loops, analyze on the nvcc route: status $r"; cat "$tmp/o"; fi
  else echo "  long loops on the nvcc route: skipped (build/libcarve_cudart.so not built: make cudart)"; fi
else echo "  long loops on the nvcc route: skipped (no nvcc)"; fi

# a program of several buffers: kernels given their pointers reach only those (the others are not
# copied for the launch); one reading a table of device pointers falls back (the native engine does
# not translate pointers stored in memory: the run stops, the interpreter runs it); the same sums
"$carve" run tests/native/reach.cu --route interp --engine interp >"$tmp/ri" 2>&1
"$carve" run tests/native/reach.cu --route interp --engine native --check all >"$tmp/rn" 2>&1; r=$?
if [ $r -eq 0 ] && grep -q "^reach: " "$tmp/ri" && [ "$(grep '^reach: ' "$tmp/ri")" = "$(grep '^reach: ' "$tmp/rn")" ] &&
   grep -q "engines: 2 launches on the native engine" "$tmp/rn" && ! grep -q "differ" "$tmp/rn"; then ok
else bad "reach: status $r"; cat "$tmp/ri" "$tmp/rn"; fi

echo "  ($native launches ran natively, bit-identical; $fallback ran in the interpreter)"
[ $native -ge 20 ] && ok || bad "only $native launches ran natively"
echo "native: $pass passed, $fail failed"
[ $fail -eq 0 ]
