#!/bin/bash
# Sound outputs (issue 26): an optimized program is right for every launch it can be run with.
# Each reproducer runs as a user does: carve optimize a program at one size, then carve run the
# output at another (and at the same), and the program's own check must pass.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "sound: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=tests/sound

# vadd optimized at 4700 (19 blocks: vector writes the grid's extent), run at 10000 and 4700
# (--no-estimate: the steps are kept whatever the model says, as the issue's reproducers had them)
"$carve" optimize tests/host/vadd.cu --no-estimate -o "$t/v.cu" -- 4700 2> "$t/plan"; check $? "vadd optimizes: $(cat "$t/plan")"
grep -q "vector   applied, verified" "$t/plan"; check $? "vadd: vector kept: $(cat "$t/plan")"
"$carve" run "$t/v.cu" -- 10000 > "$t/out" 2> "$t/err"; check $? "vadd output at 10000 exits 0: $(cat "$t/out" "$t/err")"
grep -qx "vadd: 10000 elements, 0 errors" "$t/out"; check $? "vadd at 10000: $(cat "$t/out")"
grep -q "vadd_carve_original<<<(40,1,1)" "$t/err"; check $? "vadd at 10000: another grid runs the original: $(cat "$t/err")"
"$carve" run "$t/v.cu" -- 4700 > "$t/out" 2> "$t/err"; grep -qx "vadd: 4700 elements, 0 errors" "$t/out" && grep -q "launch 1: vadd<<<(10,1,1)" "$t/err"; check $? "vadd at 4700 runs the optimized kernel: $(cat "$t/out" "$t/err")"
grep -q "g.x == 19u" "$t/v.cu" && grep -q "the grid (19, 1, 1)" "$t/v.cu"; check $? "the wrapper tests the grid and the header says so"
# vadd optimized at 5120 (20 blocks: no extent written): other even grids run the optimized kernel
"$carve" optimize tests/host/vadd.cu --no-estimate -o "$t/v2.cu" -- 5120 2> /dev/null; check $? "vadd at 5120 optimizes"
"$carve" run "$t/v2.cu" -- 10000 > "$t/out" 2> "$t/err"; grep -qx "vadd: 10000 elements, 0 errors" "$t/out" && grep -q "launch 1: vadd<<<(20,1,1)" "$t/err"; check $? "a grid-generic vector kernel at 10000 (40 blocks): $(cat "$t/out" "$t/err")"
"$carve" run "$t/v2.cu" -- 4700 > "$t/out" 2> "$t/err"; grep -qx "vadd: 4700 elements, 0 errors" "$t/out" && grep -q "vadd_carve_original<<<(19,1,1)" "$t/err"; check $? "an odd grid runs the original: $(cat "$t/out" "$t/err")"

# naive matrix multiply optimized at n=40, run at n=100 and 40
"$carve" optimize $d/mm_naive.cu --no-estimate -o "$t/mm.cu" 2> "$t/plan"; check $? "mm optimizes: $(cat "$t/plan")"
grep -q "tile     applied, verified" "$t/plan"; check $? "mm: tile kept: $(cat "$t/plan")"
for n in 100 40 17; do
  "$carve" run "$t/mm.cu" -- $n > "$t/out" 2>&1; grep -qx "mm: n=$n, 0 wrong" "$t/out"; check $? "mm at n=$n: $(cat "$t/out")"
done
# optimized at n=256 (the tiles divide the extents): n=512 runs the optimized kernel too
"$carve" optimize $d/mm_naive.cu --no-estimate -o "$t/mm2.cu" -- 256 2> "$t/plan"; check $? "mm at 256 optimizes"
grep -q "gridDim" "$t/mm2.cu"; check $? "mm at 256: the tile kernel's extents come from gridDim"

# one kernel launched at n=4700 and n=10000 in one run
"$carve" optimize $d/two_sizes.cu --no-estimate -o "$t/ts.cu" 2> "$t/plan"; check $? "two_sizes optimizes"
"$carve" run "$t/ts.cu" > "$t/out" 2> "$t/err"; grep -qx "scale: 0 and 0 wrong" "$t/out"; check $? "both launches right: $(cat "$t/out" "$t/err")"
"$carve" optimize $d/two_sizes.cu --no-estimate --launch 2 -o "$t/ts2.cu" 2> "$t/plan"; check $? "two_sizes, its second launch"
"$carve" run "$t/ts2.cu" > "$t/out" 2> "$t/err"; grep -qx "scale: 0 and 0 wrong" "$t/out"; check $? "both launches right (optimized for the second): $(cat "$t/out" "$t/err")"

# an atomic sum optimized at n=70000, run at n=10^6
"$carve" optimize $d/atomic_sum.cu --no-estimate -o "$t/as.cu" 2> "$t/plan"; check $? "atomic_sum optimizes"
grep -q "reduce   applied, verified" "$t/plan"; check $? "atomic_sum: reduce kept: $(cat "$t/plan")"
for n in 1000000 70000 4097; do
  "$carve" run "$t/as.cu" -- $n > "$t/out" 2>&1; grep -qx "sum: n=$n, got $n" "$t/out"; check $? "atomic sum at $n: $(cat "$t/out")"
done

# a size macro: optimized at -D N=40, built at N=300 and N=40
"$carve" optimize $d/macro_size.cu --no-estimate -D N=40 -o "$t/ms.cu" 2> "$t/plan"; check $? "macro_size optimizes"
# (N is kept by name, verified at other values: src/opt/sizes.c; pinned by #if before 2026-11-28)
grep -q "sizes    kept by name: N (optimized at 40" "$t/plan" && ! grep -q "^#if (N) == 40" "$t/ms.cu"; check $? "the kernel keeps N by name: $(grep -n '#if' "$t/ms.cu"; grep sizes "$t/plan")"
for n in 300 40 33; do
  "$carve" run "$t/ms.cu" -D N=$n > "$t/out" 2>&1; grep -qx "rowsum: N=$n, 0 wrong" "$t/out" && grep -q "launch 1: rowsum<<<" "$t/out"; check $? "macro_size at N=$n runs the optimized kernel: $(cat "$t/out")"
done

# the program's own aliasing: acc(d, d, n, 4)
"$carve" optimize $d/acc_alias.cu -o "$t/acc.cu" 2> "$t/plan"; check $? "acc_alias optimizes"
grep -q "scalar   not legal: the launch passes one buffer as 'out' and 'in'" "$t/plan"; check $? "scalar is illegal on an aliased launch: $(cat "$t/plan")"
"$carve" run "$t/acc.cu" > "$t/out" 2>&1; grep -q "acc: h\[0\] = 16, 0 wrong" "$t/out"; check $? "acc output: $(cat "$t/out")"
# the same kernel given its own buffers: scalar applies, and the wrapper tests the pointers
sed 's/acc<<<4, 256>>>(d, d, n, 4);/float *e; cudaMalloc((void **)\&e, n * sizeof(float)); cudaMemcpy(e, h, n * sizeof(float), cudaMemcpyHostToDevice); acc<<<4, 256>>>(d, e, n, 4);/' $d/acc_alias.cu > "$t/acc2.cu"
"$carve" optimize "$t/acc2.cu" -o "$t/acc2o.cu" 2> "$t/plan"; grep -q "scalar   applied, verified" "$t/plan"; check $? "scalar on separate buffers: $(cat "$t/plan")"
grep -q "(const void \*)carve_a1 != (const void \*)carve_a0" "$t/acc2o.cu"; check $? "the wrapper tests that the __restrict__ pointers differ"
sed 's/(d, e, n, 4)/(d, d, n, 4)/g' "$t/acc2o.cu" > "$t/acc3.cu"
"$carve" run "$t/acc3.cu" > "$t/out" 2> "$t/err"; grep -q "acc: h\[0\] = 16, 0 wrong" "$t/out" && grep -q "acc_carve_original" "$t/err"; check $? "the output launched with one buffer twice runs the original: $(cat "$t/out" "$t/err")"
# the launch spec's alias(...) binds one buffer twice (what carve optimize replays)
"$carve" run $d/acc_alias.cu --kernel acc --grid 4 --block 256 --arg 'out=float[1024]:fill(1)' --arg 'in=alias(out)' --arg n=1024 --arg reps=4 --out out="$t/o.bin" > /dev/null 2>&1
check $? "--arg in=alias(out) runs"
[ "$(od -An -f -N4 "$t/o.bin" | tr -d ' ')" = 16 ]; check $? "alias(out): one buffer, 1 -> 16: $(od -An -f -N4 "$t/o.bin")"

# an estimate that fails is not "faster": a host program's reshaped variant is estimated with its
# own grid (it was -1, and kept); at n=40 the model calls mm's tiles slower (the naive kernel
# 0.0045 ms, 0.0046 since the counts sample the grid's middle block too) (split skipped: it applies to 16-wide blocks since 2026-11-27 and would run first)
"$carve" optimize $d/mm_naive.cu --skip split -o "$t/mme.cu" 2> "$t/plan"; grep -qE "tile     not kept, the estimate says not faster \(0\.004[56] -> 0\.00" "$t/plan"; check $? "mm at 40: tile estimated and not kept: $(grep tile "$t/plan")"
! grep -q "estimate failed" "$t/plan"; check $? "no estimate fails for a host program's variants: $(cat "$t/plan")"

# two pointers into one allocation, the first at the higher address (k(a + n, a, n)): recorded
# as out = alias(in, 4000), verified so, and the passes that assume no aliasing are not legal
"$carve" optimize $d/halves.cu --no-estimate -o "$t/hv.cu" 2> "$t/plan"; check $? "halves optimizes: $(cat "$t/plan")"
grep -q "vector   not legal: the launch passes one buffer as 'out' and 'in'" "$t/plan"; check $? "halves: vector sees the aliasing: $(grep vector "$t/plan")"
for n in 1000 777; do "$carve" run "$t/hv.cu" -- $n > "$t/out" 2>&1; grep -q "halves: n=$n, 0 wrong" "$t/out"; check $? "halves at $n: $(cat "$t/out")"; done
"$carve" run $d/acc_alias.cu --kernel acc --grid 4 --block 256 --arg 'out=alias(in, 0)' --arg 'in=float[1024]:fill(1)' --arg n=1024 --arg reps=4 --out in="$t/o2.bin" > /dev/null 2>&1
[ "$(od -An -f -N4 "$t/o2.bin" | tr -d ' ')" = 16 ]; check $? "alias() of a later parameter binds its buffer: $(od -An -f -N4 "$t/o2.bin")"

# a host program's kernel has no tol: a reassociated sum (split of x += A y) is verified within
# the reassociation bound on the program's own data, and the output runs to the program's check
"$carve" optimize tests/programs/mvt.cu -I tests/programs -D N=300 --kernel mvt_kernel1 --passes split --no-estimate -o "$t/mvt.cu" 2> "$t/plan"
grep -q "split    applied, verified" "$t/plan"; check $? "host program: split of a sum from x[i] verified within the bound: $(grep split "$t/plan")"
"$carve" run "$t/mvt.cu" -I tests/programs -D N=300 > "$t/out" 2>&1; grep -q "^PASS" "$t/out"; check $? "host program: the split output passes the program's check: $(tail -2 "$t/out")"

# a host program's thread-per-column loop mapped to y (parallel): the program's launch becomes the
# recorded grown grid where the grid and the arguments are the recorded ones, the original elsewhere
"$carve" optimize tests/programs/covar.cu -I tests/programs --kernel covar_kernel --passes parallel --no-estimate -o "$t/cv.cu" 2> "$t/plan"
grep -q "parallel applied, verified" "$t/plan" && grep -q "return dim3(" "$t/cv.cu"; check $? "host program: parallel verified, its grown grid launched: $(grep parallel "$t/plan" | cut -c1-200)"
for sz in "" "-D M=48"; do "$carve" run "$t/cv.cu" -I tests/programs $sz > "$t/out" 2>&1; grep -q "^PASS" "$t/out"; check $? "host program: the parallel output passes the program's check ${sz:-as optimized}: $(tail -2 "$t/out")"; done

# a host program optimized at -D sizes (issue 28): its launch has no `#pragma carve` sizes, so the
# reduced and ragged sizes set the -D macros (M, N) and scale the grid and the scalars alike; two
# reshaping steps (parallel, then tile) are written where the launch is pinned to the recorded one
"$carve" optimize tests/programs/covar.cu -I tests/programs -D M=256 -D N=256 --kernel covar_kernel --passes canon,parallel,tile --no-estimate -o "$t/cvt.cu" 2> "$t/plan"
grep -q "parallel applied, verified" "$t/plan" && grep -q "tile     applied, verified" "$t/plan"; check $? "covar at 256: parallel and tile verified: $(grep 'applied' "$t/plan" | cut -c1-160)"
"$carve" optimize tests/programs/covar.cu -I tests/programs -D M=256 -D N=256 --kernel covar_kernel --passes canon,parallel,tile --no-estimate --explain -o /dev/null 2> "$t/plan2"
grep -q "verified reduced  M=64 N=64 (the -D sizes; grid 1,1,1" "$t/plan2" && grep -q "verified ragged   M=61 N=61" "$t/plan2" && grep -q "verified signed   M=64 N=64" "$t/plan2"; check $? "covar at 256: verified at the -D sizes reduced (grid scaled): $(grep 'verified' "$t/plan2" | head -5)"
"$carve" run "$t/cvt.cu" -I tests/programs -D M=256 -D N=256 > "$t/out" 2>&1; grep -q "^PASS" "$t/out" && grep -q "launch 3: covar_kernel<<<(2,2,1), (16,16,1)>>>" "$t/out"; check $? "covar at 256: the output runs the tiled kernel and passes the program's check: $(grep -E 'PASS|FAIL|launch 3' "$t/out")"
# a mean's split: the bound's n is the loop's trip count (a run on ones gives N / FLOAT_N after
# the division, and the bound was then too tight: rejected before 2026-11-27)
"$carve" optimize tests/programs/covar.cu -I tests/programs -D M=256 -D N=256 --kernel mean_kernel --passes split --no-estimate --explain -o "$t/mean.cu" 2> "$t/plan"
grep -q "split    applied(lanes=[0-9]*,along=0)" "$t/plan" && ! grep -q "REJECTED" "$t/plan" && grep -q "verified signed   M=64 N=64" "$t/plan"; check $? "a mean's split verified within the bound: $(grep -E 'split|signed|DIFFERENT' "$t/plan" | cut -c1-200)"
"$carve" run "$t/mean.cu" -I tests/programs -D M=256 -D N=256 > "$t/out" 2>&1; grep -q "^PASS" "$t/out"; check $? "the mean's split output passes the program's check: $(grep -E 'PASS|FAIL' "$t/out")"
# the full size's sampled blocks run within a warp-step budget: a thread's long loop at the full
# size is skipped and says so, the reduced sizes still verify the step
"$carve" optimize $d/heavy.cu --passes unroll --no-estimate --explain -o /dev/null 2> "$t/plan"
grep -q "verified full     as given, all blocks: skipped (the original takes more than 30000000 warp-steps" "$t/plan" && grep -q "verified reduced  N=64: equal" "$t/plan" && grep -q "^unroll   applied" "$t/plan"; check $? "a full size past the budget is skipped, said; the reduced size verifies: $(grep -E 'unroll|verified' "$t/plan")"

# a product spelled with a typedef (DATA_TYPE): tile's kernel, written anew, parses and verifies
"$carve" optimize $d/typedef_mm.cu --no-estimate --passes tile -o "$t/td.cu" 2> "$t/plan"
grep -q "tile     applied, verified" "$t/plan"; check $? "typedef'd buffers: tile applied and verified: $(grep tile "$t/plan" | cut -c1-200)"

# a kernel no pass changes: the output is the user's text, macros and all
"$carve" optimize tests/host/vadd.cu --passes unroll -o "$t/same.cu" 2>/dev/null; check $? "no pass applies"
tail -n +4 "$t/same.cu" | cmp -s - tests/host/vadd.cu; check $? "an unchanged program is the user's file byte for byte after the header"

echo "sound: $pass passed, $fail failed"
[ $fail = 0 ]
