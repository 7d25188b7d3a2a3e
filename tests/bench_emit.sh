#!/bin/bash
# carve bench --emit writes a harness that nvcc compiles, whose inputs are byte-identical to the
# interpreter's (checked with the harness's --dump-inputs mode, which needs no GPU).
carve=${1:-./carve}
pass=0; fail=0
if ! command -v nvcc >/dev/null 2>&1; then
  echo "bench-emit: skipped (no nvcc)"; echo "bench-emit: 0 passed, 0 failed, 1 skipped"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "bench-emit: FAIL: $2"; fail=$((fail+1)); fi; }
# float, uchar with range, int iota, float4 (vectors), two outputs, a baseline with cuBLAS
for spec in "examples/mm.cu -D N=64" "examples/sad.cu -D W=32 -D H=24 -D SR=8" "examples/scan.cu -D N=1000" \
            "examples/mriq.cu -D NX=100 -D NK=50" "examples/vv.cu -D H=40 -D W=50" "examples/strsm.cu -D N=48 -D M=64"; do
  set -- $spec; f=$1; shift
  name=$(basename "$f" .cu); d=$tmp/$name; mkdir -p "$d/cpu" "$d/gpu"
  "$carve" bench "$f" "$@" --baseline --emit "$d" >/dev/null 2>"$d/err"; check $? "emit $f: $(head -2 "$d/err")"
  build=$(grep '^nvcc' "$d/build.sh")
  (cd "$d" && eval "$build" -Xcudafe --diag_suppress=177 2>"$d/nvcc.err"); check $? "nvcc builds the harness of $f: $(head -3 "$d/nvcc.err")"
  [ -x "$d/harness" ] || continue
  "$d/harness" --dump-inputs "$d/gpu"; check $? "harness --dump-inputs for $f"
  "$carve" run "$f" "$@" --dump-inputs "$d/cpu" >/dev/null 2>&1; check $? "carve run --dump-inputs $f"
  for b in "$d"/cpu/*.bin; do
    cmp -s "$b" "$d/gpu/$(basename "$b")"; check $? "$f: input $(basename "$b") identical on CPU and GPU"
  done
done
# no toolkit: a plain message and exit 3
CARVE_NVCC=/nonexistent/nvcc "$carve" bench examples/mm.cu -D N=64 2>"$tmp/e"; rc=$?
[ $rc = 3 ] && grep -q "no CUDA toolkit" "$tmp/e"; check $? "exit 3 and a message without nvcc (got $rc: $(cat "$tmp/e"))"
echo "bench-emit: $pass passed, $fail failed"
[ $fail = 0 ]
