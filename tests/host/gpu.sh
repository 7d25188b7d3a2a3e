#!/bin/bash
# tests/host/gpu.sh [CARVE]: the host-program corpus built with nvcc and run on the GPU, its
# output compared with `carve run` of the same unedited file. Needs nvcc and a GPU (not part of
# `make test`); run from the repository root. Programs whose output is exact (integers, sums of
# exactly representable values) must match byte for byte; the others (a float max error, a
# float reduction whose atomicAdd order differs) are shown side by side. Then `carve bench --verify`
# of the launches three of them made.
carve=${1:-./carve}
arch=${ARCH:-sm_90}
command -v nvcc >/dev/null || { echo "host-gpu: skipped (no nvcc)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
d=tests/host
exact="vadd kernels libc exitcode symbols coef vla_cuda"
for p in vadd matmul heat kernels libc exitcode symbols coef vla_cuda multi; do
  src=$d/$p.cu; [ $p = multi ] && src="$d/multi/main.cu $d/multi/scale.cu"
  # shellcheck disable=SC2086
  if ! nvcc -arch=$arch -o "$tmp/$p" $src 2>"$tmp/$p.nvcc"; then echo "host-gpu: FAIL: nvcc $p: $(head -5 "$tmp/$p.nvcc")"; fail=$((fail+1)); continue; fi
  "$tmp/$p" >"$tmp/$p.gpu" 2>/dev/null; g=$?
  # shellcheck disable=SC2086
  "$carve" run $src >"$tmp/$p.carve" 2>/dev/null; c=$?
  if [ $g != $c ]; then echo "host-gpu: FAIL: $p exit status: GPU $g, carve $c"; fail=$((fail+1)); continue; fi
  if cmp -s "$tmp/$p.gpu" "$tmp/$p.carve"; then pass=$((pass+1)); echo "host-gpu: $p: identical output"
  elif [[ " $exact " == *" $p "* ]]; then echo "host-gpu: FAIL: $p output differs:"; diff "$tmp/$p.gpu" "$tmp/$p.carve"; fail=$((fail+1))
  else pass=$((pass+1)); echo "host-gpu: $p: output differs where floating point may (GPU < > carve):"; diff "$tmp/$p.gpu" "$tmp/$p.carve"; fi
done
# the launches the programs made, timed by carve bench's harness and verified against the
# interpreter: the harness must give the GPU the __constant__ and __device__ contents the program
# set with cudaMemcpyToSymbol (coef.cu's outputs are all wrong without them)
for p in coef symbols kernels; do
  out=$("$carve" bench --verify --reps 3 $d/$p.cu 2>&1); rc=$?
  if [ $rc = 0 ] && echo "$out" | grep -q "verify" && ! echo "$out" | grep -q FAILED; then pass=$((pass+1)); echo "host-gpu: bench --verify $p: ok"
  else fail=$((fail+1)); echo "host-gpu: FAIL: bench --verify $p (exit $rc):"; echo "$out" | grep -E "verify|error|FAIL" | head -10; fi
done
echo "host-gpu: $pass passed, $fail failed"
[ $fail = 0 ]
