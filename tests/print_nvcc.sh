#!/bin/bash
# carve print's output must compile with nvcc (when nvcc is installed; no GPU needed).
carve=${1:-./carve}
pass=0; fail=0
if ! command -v nvcc >/dev/null 2>&1; then
  echo "print-nvcc: skipped (no nvcc)"
  echo "print-nvcc: 0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in examples/*.cu tests/front/printable.cu; do
  [ -f "$f" ] || continue
  out=$tmp/$(basename "$f")
  if ! "$carve" print "$f" -o "$out" 2>"$tmp/err"; then
    echo "print-nvcc: carve print $f failed: $(head -3 "$tmp/err")"; fail=$((fail+1)); continue
  fi
  if nvcc -arch=sm_90 -c "$out" -o "$tmp/x.o" 2>"$tmp/nvcc.err"; then pass=$((pass+1))
  else echo "print-nvcc: nvcc rejects the print of $f:"; grep -v "pragma" "$tmp/nvcc.err" | head -5; fail=$((fail+1)); fi
done
echo "print-nvcc: $pass passed, $fail failed"
[ $fail -eq 0 ]
