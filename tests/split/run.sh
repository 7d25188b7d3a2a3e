#!/bin/bash
# tests/split: the split pass's row walks (src/opt/pass_split.c, bench/holdout4 DIAGNOSIS.md §4b):
# several loops over one row (a max or min by fmaxf, min() or a comparison, a sum, a sum that
# starts at a value, the write) split across the same lanes, each rule in two spellings
# (softmax_a/b, layernorm_a/b, rowmin_a/b, start_a/b), each optimized with --passes split and
# verified by carve at two sizes, one ragged (not a multiple of the lanes, nor of the block); the
# output run again by carve run at a third size; refusals with their reason; the outputs compiled
# by nvcc where it exists. Also canon's global index through a uniform offset (offset_a/b), and
# index helpers with unsigned or size_t parameters in the affine facts (uhelper_a/b).
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "split-walks: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=tests/split

# FILE KERNEL WALKS LANES SIZE-DEFINES... : the walks applied with LANES lanes, verified equal at every size
applies() {
  local f=$1 k=$2 walks=$3 lanes=$4; shift 4
  local name="$(basename $f .cu) $lanes lanes $*"
  "$carve" optimize $f --kernel $k "$@" --passes split --set split.lanes=$lanes --no-estimate --explain -o "$t/o.cu" 2> "$t/plan"
  check $? "$name: optimize exits 0: $(cat "$t/plan")"
  grep -q "^split    applied(lanes=$lanes,along=0): $walks walks of the row split" "$t/plan"; check $? "$name: $walks walks split: $(grep -A1 '^split' "$t/plan")"
  local nv=$(grep -c "^ *verified .*: equal" "$t/plan") bad=$(grep -c "DIFFERENT\|REJECTED" "$t/plan")
  [ "$nv" -ge 4 ] && [ "$bad" = 0 ]; check $? "$name: verified equal at every size ($nv sizes): $(grep -i 'verified\|different' "$t/plan" | tail -5)"
  grep -q "__shfl_xor_sync(group, " "$t/o.cu" && ! grep -q "__shfl_down_sync" "$t/o.cu"; check $? "$name: a butterfly, every lane holds the result"
  if command -v nvcc > /dev/null 2>&1; then
    nvcc -arch=sm_90 -c -o "$t/o.o" -x cu "$t/o.cu" > "$t/nvcc" 2>&1; check $? "$name: nvcc compiles the output: $(tail -3 "$t/nvcc")"
  fi
}
# FILE KERNEL WHY SIZE-DEFINES...: not applied, the reason said
refuses() {
  local f=$1 k=$2 why=$3; shift 3
  "$carve" optimize $f --kernel $k "$@" --passes split --no-estimate -o "$t/o.cu" 2> "$t/plan"
  grep -q "split    not applicable: .*$why" "$t/plan"; check $? "$(basename $f .cu): split refused ($why): $(grep split "$t/plan")"
}

applies $d/softmax_a.cu softmax_rows 3 32 -D ROWS=200 -D COLS=77
applies $d/softmax_a.cu softmax_rows 3 16 -D ROWS=256 -D COLS=128
applies $d/softmax_b.cu softmax2 3 32 -D ROWS=200 -D COLS=77
applies $d/softmax_b.cu softmax2 3 8 -D ROWS=130 -D COLS=40
applies $d/layernorm_a.cu layernorm_kernel 3 32 -D BATCH=160 -D HIDDEN=96
applies $d/layernorm_a.cu layernorm_kernel 3 4 -D BATCH=100 -D HIDDEN=61
applies $d/layernorm_b.cu ln2 2 32 -D BATCH=160 -D HIDDEN=96
applies $d/layernorm_b.cu ln2 2 16 -D BATCH=77 -D HIDDEN=250
applies $d/rowmin_a.cu rowrange 1 32 -D ROWS=300 -D COLS=70
applies $d/rowmin_a.cu rowrange 1 8 -D ROWS=64 -D COLS=3
applies $d/rowmin_b.cu shift 2 32 -D ROWS=300 -D COLS=70
applies $d/rowmin_b.cu shift 2 16 -D ROWS=129 -D COLS=33
applies $d/start_a.cu centre 2 32 -D ROWS=200 -D COLS=50
applies $d/start_a.cu centre 2 4 -D ROWS=90 -D COLS=7
applies $d/start_b.cu centre2 3 32 -D ROWS=200 -D COLS=50
applies $d/start_b.cu centre2 3 8 -D ROWS=65 -D COLS=33

# what the outputs say: softmax's max combined in lane order, the sum and the write by every lane
applies $d/softmax_a.cu softmax_rows 3 32 -D ROWS=200 -D COLS=77
grep -q "m_hi = lane & 16 ? m : m_o;" "$t/o.cu" && grep -q "m = fmaxf(m, m_hi);" "$t/o.cu" && grep -q "sum += __shfl_xor_sync(group, sum, 1, 32);" "$t/o.cu" &&
  grep -q "for (int c = lane; c < cols; c += 32)" "$t/o.cu" && grep -q "for (int c = 1 + lane; c < cols; c += 32)" "$t/o.cu"
check $? "softmax_a: the max in lane order with the kernel's fmaxf, the sum by xor, the walks by lane: $(cat "$t/o.cu")"
"$carve" run "$t/o.cu" -D ROWS=300 -D COLS=50 > "$t/run" 2>&1; check $? "softmax_a: the output runs at another size: $(tail -2 "$t/run")"
applies $d/softmax_b.cu softmax2 3 32 -D ROWS=200 -D COLS=77
grep -q "if (m_hi > m)" "$t/o.cu"; check $? "softmax_b: the max combined by the kernel's own comparison: $(grep -n 'm_hi' "$t/o.cu" | head -3)"
applies $d/rowmin_a.cu rowrange 1 32 -D ROWS=300 -D COLS=70
grep -q "if (lane == 0)" "$t/o.cu" && grep -q "mn = min(mn, mn_o);" "$t/o.cu" && ! grep -q "mn_hi" "$t/o.cu"
check $? "rowmin_a: integers combined in any order, the stores by lane 0: $(grep -n 'lane == 0\|mn_o' "$t/o.cu" | head -4)"
applies $d/start_a.cu centre 2 32 -D ROWS=200 -D COLS=50
grep -q "int s_start = s;" "$t/o.cu" && grep -q "s = s_start + s;" "$t/o.cu"; check $? "start_a: each lane from 0, the start added once: $(grep -n 's_start' "$t/o.cu")"

# refusals and the rest on lane 0
refuses $d/refuse_nan.cu k "takes a NaN term" -D N=100
refuses $d/refuse_neighbour.cu k "'y' is" -D N=100
"$carve" optimize $d/refuse_samecell.cu --kernel k -D N=100 --passes split --no-estimate -o "$t/o.cu" 2> "$t/plan"
grep -q "split    applied.*1 walks of the row .*the rest on lane 0" "$t/plan"; check $? "refuse_samecell: the min split, the loop that stores one element on lane 0: $(grep split "$t/plan")"
# canon's tid rule through a uniform offset (bench/holdout4 DIAGNOSIS §5: lu's `k + 1 + blockIdx.x
# * TILE + threadIdx.x`): the tile constant written as blockDim, so stencil's row matcher finds
# the row; two spellings (a constant interior offset, a parameter and an early return)
for f in offset_a:interior offset_b:interior2; do
  for n in 130 75; do
    "$carve" optimize $d/${f%%:*}.cu --kernel ${f##*:} -D N=$n --passes canon,stencil --no-estimate --explain -o "$t/o.cu" 2> "$t/plan"
    grep -q "^canon    applied: .*tid line 1[23]: blockIdx.x \* 32 + threadIdx.x as blockIdx.x \* blockDim.x + threadIdx.x; tid line 1[34]: blockIdx.y \* 8 + threadIdx.y as" "$t/plan"
    check $? "${f%%:*} N=$n: canon writes the offset index's constants as blockDim: $(grep '^canon' "$t/plan")"
    grep -q "^stencil  applied" "$t/plan" && ! grep -q "DIFFERENT\|REJECTED" "$t/plan"
    check $? "${f%%:*} N=$n: stencil merges rows, verified: $(grep -A6 '^stencil' "$t/plan")"
  done
done
# an index helper with unsigned / size_t parameters fed int arguments (the implicit conversions
# around the arguments): affine to the analyzer, so stencil sees the rows (two spellings)
for f in uhelper_a:k uhelper_b:k2; do
  "$carve" analyze $d/${f%%:*}.cu > "$t/an" 2>&1
  ! grep -q "not affine" "$t/an" && grep -q "exact\]" "$t/an"; check $? "${f%%:*}: every access affine: $(grep global "$t/an" | head -4)"
  for n in 64 96; do
    "$carve" optimize $d/${f%%:*}.cu --kernel ${f##*:} -D N=$n --passes stencil --no-estimate --explain -o "$t/o.cu" 2> "$t/plan"
    grep -q "^stencil  applied" "$t/plan" && ! grep -q "DIFFERENT\|REJECTED" "$t/plan"; check $? "${f%%:*} N=$n: stencil applied, verified: $(grep -A3 '^stencil' "$t/plan")"
  done
done
command -v nvcc > /dev/null 2>&1 || echo "split-walks: nvcc checks skipped (no nvcc)"
echo "split-walks: $pass passed, $fail failed"
[ $fail = 0 ]
