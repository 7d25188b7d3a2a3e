#!/bin/bash
# tests/cxx/gpu.sh [CARVE]: the C++ corpus on a GPU (not part of `make test`: it needs one).
# Each file is built by nvcc through `carve bench --verify`, run, and its outputs compared with
# the interpreter's: half_ops.cu bit for bit (binary16 rounding of + - * / fma and conversions),
# the others within their files' tolerances.
carve=${1:-./carve}
pass=0; fail=0
for f in tests/cxx/*.cu; do
  case $f in *fast_math*) continue;; esac
  flags=$(sed -n 's|^// cxx-flags: ||p' "$f")
  out=$("$carve" bench "$f" $flags --verify --reps 3 2>&1); rc=$?
  if [ $rc = 0 ] && ! echo "$out" | grep -q FAILED; then pass=$((pass+1)); else fail=$((fail+1)); echo "cxx-gpu: FAIL $f (exit $rc)"; fi
  echo "$out" | grep -E "verify|error" | sed "s|^|  $(basename "$f"): |"
done
echo "cxx-gpu: $pass passed, $fail failed"
[ $fail -eq 0 ]
