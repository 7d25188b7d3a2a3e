#!/bin/bash
# carve print of an async-copy pipeline compiles with nvcc (when installed; no GPU needed), and
# the calls become cp.async instructions: the printer kept them and their header.
carve=${1:-./carve}
pass=0; fail=0
if ! command -v nvcc >/dev/null 2>&1; then
  echo "async: 0 passed, 0 failed, 1 skipped (no nvcc)"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() { if eval "$2"; then pass=$((pass+1)); else echo "async: FAIL: $1"; fail=$((fail+1)); fi; }
for f in tests/async/*.cu; do
  out=$tmp/$(basename "$f")
  check "carve print $f" "\"$carve\" print \"$f\" -o \"$out\" 2>\"$tmp/err\""
  check "the print of $f includes the primitives' header" "grep -q '^#include <cuda_pipeline_primitives.h>' \"$out\""
  check "nvcc compiles the print of $f" "nvcc -arch=sm_90 -ptx \"$out\" -o \"$tmp/x.ptx\" 2>\"$tmp/nvcc.err\" || { head -5 \"$tmp/nvcc.err\"; false; }"
  check "the PTX of $f has cp.async, commit and wait" "grep -q 'cp.async.ca.shared.global\|cp.async.cg.shared.global' \"$tmp/x.ptx\" && grep -q 'cp.async.commit_group' \"$tmp/x.ptx\" && grep -q 'cp.async.wait_group 1' \"$tmp/x.ptx\""
done
echo "async: $pass passed, $fail failed"
[ $fail -eq 0 ]
