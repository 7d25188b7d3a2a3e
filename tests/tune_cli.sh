#!/bin/bash
# carve space and carve tune as a user runs them, without a GPU: the space in three formats, the
# ranked verified survivors (--no-bench), the best written and equal to the original, a tune
# killed with kill -9 and resumed (nothing computed twice, the same answer), Slurm-style tasks
# merged into the single-process answer, the T4 export, and bad input refused.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "tune-cli: FAIL: $2"; fail=$((fail+1)); fi; }
have_py=1; command -v python3 >/dev/null 2>&1 || { have_py=0; echo "tune-cli: JSON checks skipped (no python3)"; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export CARVE_CACHE_DIR="$t/cache"
regs=""
if "$carve" estimate examples/vv.cu 2>&1 | grep -q "no CUDA toolkit"; then regs="--regs 32"; echo "tune-cli: no NVRTC or nvcc: registers assumed (--regs 32)"; fi
MM="examples/mm.cu -D N=128 $regs --skip split,vector,tile"   # the space these checks were written for

# ---- the space ----
"$carve" space $MM > "$t/space.txt"; check $? "carve space runs"
grep -q "^  block.x  *8, 16, 32" "$t/space.txt" && grep -q "^  camping  *off, on" "$t/space.txt"; check $? "the axes are listed: $(head -8 "$t/space.txt")"
grep -q "not applicable: unroll" "$t/space.txt"; check $? "and the passes that do not apply, with why"
grep -qE "^size: 144 points; [0-9]+ violate a constraint, 0 duplicate another's source; 27 distinct valid variants" "$t/space.txt"; check $? "the size before and after constraints: $(grep size: "$t/space.txt")"
grep -q "block=8x1 camping=off .*not a multiple of the warp" "$t/space.txt"; check $? "each constraint says why"
"$carve" space $MM --format csv > "$t/space.csv"; check $? "csv"
[ "$(wc -l < "$t/space.csv")" = 145 ] && head -1 "$t/space.csv" | grep -q '^key,status,why,regs'; check $? "csv: a header and 144 rows"
if [ $have_py = 1 ]; then
  "$carve" space $MM --format json | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert d["size"]==len(d["variants"])==144 and d["constrained"]+d["duplicates"]+d["valid"]==144, d["size"]
ok=[v for v in d["variants"] if v["status"]=="ok"]
assert ok and all(v["efficiency"]>0 and v["utilization"]>0 and v["regs"]>0 and v["est_ms"]>0 for v in ok)'; check $? "json: every valid variant has its metrics"
fi

# ---- tune --no-bench: the ranked, verified survivors and the best written ----
"$carve" tune $MM --no-bench -o "$t/best.cu" > "$t/tune.txt"; check $? "tune --no-bench (carving) exits 0: $(tail -3 "$t/tune.txt")"
grep -q "strategy carving (Hopper front: Efficiency x Utilization per scheduler x estimate, eps 0.01)" "$t/tune.txt" && grep -q "threshold carving left" "$t/tune.txt" \
  && grep -qE "the estimate kept [0-9]+ survivors off the Efficiency x Utilization front and pruned [0-9]+ points on it" "$t/tune.txt"; check $? "carving's stages are reported, the Hopper front by default"
n=$(grep -cE '^  [0-9]+ +block=.* yes$' "$t/tune.txt"); [ "$n" -ge 1 ]; check $? "verified survivors are ranked: $(cat "$t/tune.txt")"
grep -q "kept by" "$t/tune.txt" && [ "$(grep -cE '^  [0-9]+ +block=.*(E x U\(H\)|estimate) +yes$' "$t/tune.txt")" = "$n" ]; check $? "each survivor says which objective kept it"
head -1 "$t/best.cu" | grep -q "^// carve tune: block="; check $? "the best's configuration heads its source"
"$carve" run examples/mm.cu -D N=128 --out C="$t/a.bin" > /dev/null && "$carve" run "$t/best.cu" --out C="$t/b.bin" > /dev/null
cmp -s "$t/a.bin" "$t/b.bin"; check $? "the best runs and writes the original's bytes"
for s in model exhaustive random; do
  "$carve" tune $MM --no-bench --strategy $s --budget 3 --results "$t/shared.jsonl" > "$t/$s.txt"; check $? "--strategy $s"
done
# the metrics cache holds estimates: a record is read back for the same model and machine only
"$carve" tune $MM --no-bench --strategy model --budget 1 > /dev/null 2>&1
n1=$(ls "$CARVE_CACHE_DIR" | wc -l)
"$carve" tune $MM --no-bench --strategy model --budget 1 > /dev/null 2>&1
n2=$(ls "$CARVE_CACHE_DIR" | wc -l)
"$carve" tune $MM --no-bench --strategy model --budget 1 --arch h200 > /dev/null 2>&1
n3=$(ls "$CARVE_CACHE_DIR" | wc -l)
[ "$n1" -gt 0 ] && [ "$n2" = "$n1" ] && [ "$n3" -gt "$n1" ]; check $? "the same tune again adds no cache record ($n1, $n2); another --arch writes its own ($n3)"
[ "$(grep -cE '^  [0-9]+ +block=' "$t/model.txt")" = 3 ] && [ "$(grep -cE '^  [0-9]+ +block=' "$t/random.txt")" = 3 ]; check $? "model and random take --budget"
grep -q "selected 27 of 27" "$t/exhaustive.txt"; check $? "exhaustive selects every distinct valid variant: $(grep selected "$t/exhaustive.txt")"
"$carve" tune $MM --no-bench --front ryoo --results "$t/shared.jsonl" > "$t/ryoo.txt"; grep -q "strategy carving (tie-keeping Pareto front)" "$t/ryoo.txt"; check $? "--front ryoo: Ryoo's front"
tie=$(grep -cE '^  [0-9]+ +block=' "$t/ryoo.txt"); strict=$("$carve" tune $MM --no-bench --strict --results "$t/shared.jsonl" | grep -cE '^  [0-9]+ +block=')
[ "$strict" -le "$tie" ] && [ "$strict" -ge 1 ]; check $? "the strict front is no larger than the tie-keeping one ($strict, $tie)"
"$carve" tune tests/tune/fixed16.cu --no-bench --strategy exhaustive $regs --skip split,vector,tile > "$t/fixed.txt"; check $? "fixed16"
grep -qE 'block=16x16 camping=off .* yes$' "$t/fixed.txt" && grep -qE 'block=32x8 camping=off .* REJECTED' "$t/fixed.txt"; check $? "a kernel correct only at its own block: the other shapes are rejected by verification"
if [ $have_py = 1 ]; then
  "$carve" tune $MM --no-bench --format json --results "$t/shared.jsonl" | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert d["strategy"]=="carving" and d["selected"]==len(d["ranked"])>0 and d["valid"]==27 and 0<d["reduction"]<1, d
assert all(r["verified"] for r in d["ranked"])'; check $? "tune --format json"
  "$carve" tune $MM --no-bench --t4 "$t/t4.json" --results "$t/shared.jsonl" > /dev/null; check $? "--t4"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]=="1.0.0"
r=d["results"]; assert r and all(x["invalidity"] in ("timeout","compile","runtime","correctness","constraints","correct") for x in r)
assert all("block_size_x" in x["configuration"] and "times" in x and "correctness" in x for x in r)' "$t/t4.json"; check $? "T4: schema 1.0.0 fields and Kernel Tuner's block_size_x"
fi

# ---- the summary against a ground truth: timings recorded for every variant (synthetic, from the
# estimate) make the table of Ryoo's 6.2 and 6.3; Appendix A's numbers checked in Python ----
if [ $have_py = 1 ]; then
  cp "$t/shared.jsonl" "$t/gt.jsonl"
  python3 - "$t/gt.jsonl" <<'PY'
import json, sys
p = sys.argv[1]
recs = [json.loads(l) for l in open(p) if l.strip()]
seen = {}
for r in recs:
    if r.get("type") == "static" and r["status"] == "ok" and r["hash"] not in seen:
        seen[r["hash"]] = r
with open(p, "a") as f:
    for i, (h, r) in enumerate(sorted(seen.items())):
        t = round(r["est_ms"] * (1 + 0.37 * ((i * 7) % 11) / 10), 6)
        f.write(json.dumps({"type": "time", "key": r["key"], "hash": h, "status": "ok", "median_ms": t, "min_ms": t, "max_ms": t,
                            "compile_s": 1.0, "verify_s": 0.5, "run_s": 0.1 * (i + 1), "gpu": "synthetic", "why": "", "times": [t],
                            "build": r["build"]}) + "\n")   # as this carve build wrote them (records of another are not trusted)
PY
  "$carve" tune $MM --no-bench --results "$t/gt.jsonl" --format json > "$t/gt.json"; check $? "tune with a ground truth in the results"
  python3 - "$t/gt.jsonl" "$t/gt.json" <<'PY'; check $? "the summary's ground truth: best, evaluation time, random sampling (Appendix A)"
import json, sys
from math import comb
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
d = json.loads(open(sys.argv[2]).read())
times = {r["hash"]: r for r in recs if r.get("type") == "time"}
T = sorted(r["median_ms"] for r in times.values())
S, n = len(T), d["selected"]
emin = lambda n: sum(comb(S - i, n - 1) / comb(S, n) * T[i - 1] for i in range(1, S - n + 2))
g = d["ground_truth"]
assert d["valid"] == S, (d["valid"], S)
assert abs(g["best_ms"] - T[0]) < 1e-9, g
assert abs(g["random_same_n_ms"] - emin(n)) < 1e-6 * T[0], (g["random_same_n_ms"], emin(n))
for frac, key in ((0.9, "random_n_90"), (0.95, "random_n_95")):
    want = next(k for k in range(1, S + 1) if T[0] / emin(k) >= frac - 1e-12)
    assert g[key] == want, (key, g[key], want)
sel = [r["key"] for r in d["ranked"]]
best_sel = min(r["median_ms"] for r in times.values() if r["key"] in sel)
assert abs(g["best_vs_exhaustive"] - T[0] / best_sel) < 1e-3, (g["best_vs_exhaustive"], T[0] / best_sel)
allv = sum(r["compile_s"] + r["verify_s"] + r["run_s"] for r in times.values())
assert abs(g["all_eval_s"] - allv) < 1e-2 and d["selected_eval_s"] < allv, (g["all_eval_s"], allv)
PY
fi

# ---- verification reuses the original's runs between variants of a shape: with one worker, and
# with two (the runs every variant keeping the launch needs are made before they fork, each makes
# the rest for itself); the verdicts are the same ----
SAD="examples/sad.cu -D W=64 -D H=64 -D SR=8 $regs --blocks orig --no-bench --no-cache --strategy exhaustive --progress"
for w in 1 2; do
  "$carve" tune $SAD --workers $w --results "$t/vc$w.jsonl" > "$t/vc$w.txt" 2> "$t/vc$w.err"; check $? "sad with $w worker(s)"
  line=$(grep -a "the original's runs:" "$t/vc$w.err")
  made=$(echo "$line" | sed -n 's/.*runs: \([0-9]*\) made, \([0-9]*\) reused.*/\1/p'); reused=$(echo "$line" | sed -n 's/.*runs: \([0-9]*\) made, \([0-9]*\) reused.*/\2/p')
  [ "${made:-0}" -ge 3 ] && [ "${reused:-0}" -gt $((3 * made)) ]; check $? "$w worker(s): the original's runs are reused more than made: $line"
done
grep -aq "(4 runs before the workers started)" "$t/vc2.err"; check $? "two workers: reduced, ragged, full and the other grid (docs/optimize.md) made once before forking: $(grep -a "original's runs" "$t/vc2.err")"
diff "$t/vc1.txt" "$t/vc2.txt" > /dev/null && [ "$(grep -c '"ok": true' "$t/vc1.jsonl")" -ge 8 ]; check $? "the same variants verified either way: $(diff "$t/vc1.txt" "$t/vc2.txt" | head -4)"

# ---- kill -9 and resume ----
R="$t/kill.jsonl"
KM="examples/mm.cu -D N=512 $regs --no-bench --no-cache --workers 2 --skip split,vector,tile"
"$carve" tune $KM --results "$R" > /dev/null 2>&1 &
pid=$!
for i in $(seq 1 2400); do   # up to 2 minutes: a loaded machine under ASan needs more than 20 s for the first records
  [ -f "$R" ] && [ "$(grep -c '"status": "ok"' "$R")" -ge 6 ] && break
  sleep 0.05
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
before=$(grep -c '"status": "ok"' "$R"); records=$(grep -c '"type": "static"' "$R")
[ "$before" -ge 1 ] && [ "$before" -lt 30 ]; check $? "killed part-way ($before of 30 computed)"
"$carve" tune $KM --results "$R" --progress > "$t/resumed.txt" 2> "$t/resumed.err"; check $? "the resumed tune exits 0"
computed=$(grep -a -o 'static metrics: [0-9]* variants computed here' "$t/resumed.err" | grep -o '[0-9]*')
[ "$computed" = $((144 - records)) ]; check $? "the resume computed only what had no record ($computed, expected $((144 - records)))"
dups=$(grep '"type": "static"' "$R" | sed 's/.*"key": "\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)
[ "$dups" = 0 ]; check $? "no variant has two static records ($dups)"
"$carve" tune $KM --results "$t/fresh.jsonl" > "$t/fresh.txt"
diff "$t/fresh.txt" "$t/resumed.txt" > /dev/null; check $? "the resumed answer equals an uninterrupted one: $(diff "$t/fresh.txt" "$t/resumed.txt" | head -5)"
"$carve" tune $KM --results "$R" --progress > /dev/null 2> "$t/again.err"
grep -aq "static metrics: 0 variants computed here" "$t/again.err" && ! grep -aq "  verified " "$t/again.err"; check $? "a third run computes and verifies nothing: $(grep -a 'computed here' "$t/again.err")"

# records of another problem size are never reused (the space's fingerprint)
"$carve" tune examples/mm.cu -D N=64 $regs --no-bench --no-cache --workers 2 --skip split,vector,tile --results "$R" --progress > /dev/null 2> "$t/other.err"
n64=$(grep -a -o 'static metrics: [0-9]* variants computed here' "$t/other.err" | grep -o '[0-9]*')
[ "${n64:-0}" -gt 0 ]; check $? "another -D size in the same results file is computed afresh ($n64)"

# ---- tasks (a Slurm array's shares) merged equal the single process ----
for k in 0 1 2 3; do "$carve" tune $MM --no-bench --no-cache --tasks 4 --task $k --results "$t/task.$k.jsonl" 2>/dev/null || echo "task $k failed"; done
"$carve" tune --merge "$t"/task.*.jsonl -o "$t/merged.jsonl"; check $? "--merge"
[ "$(grep -c '"type": "static"' "$t/merged.jsonl")" = 144 ]; check $? "the merged file holds each variant once ($(grep -c '"type": "static"' "$t/merged.jsonl"))"
"$carve" tune $MM --no-bench --results "$t/merged.jsonl" --progress > "$t/merged.txt" 2> "$t/merged.err"
grep -aq "static metrics: 0 variants computed here" "$t/merged.err"; check $? "the merged results need no computing"
"$carve" tune $MM --no-bench --no-cache > "$t/single.txt"
diff "$t/single.txt" "$t/merged.txt" > /dev/null; check $? "merged tasks give the single-process answer: $(diff "$t/single.txt" "$t/merged.txt" | head -4)"
"$carve" tune $MM --no-bench --emit-slurm "$t/job.sh" --tasks 4 --results "$t/job.jsonl" > /dev/null; check $? "--emit-slurm"
grep -q "^#SBATCH --array=0-3" "$t/job.sh" && grep -q -- "--task \"\$SLURM_ARRAY_TASK_ID\"" "$t/job.sh" && ! grep '^exec' "$t/job.sh" | grep -q -- "--emit-slurm"; check $? "the sbatch file: an array of 4 tasks, each its share: $(tail -1 "$t/job.sh")"

# ---- without a GPU, tune (not --no-bench) says so: exit 3 ----
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  "$carve" tune examples/vv.cu -D N=4096 $regs --strategy model --budget 1 > /dev/null 2> "$t/nogpu.err"; rc=$?
  [ $rc = 3 ] && grep -Eq "no CUDA (GPU|toolkit)" "$t/nogpu.err"; check $? "no GPU: exit 3 and why (exit $rc: $(cat "$t/nogpu.err"))"
fi

# ---- bad input ----
# ---- --replay: every strategy judged against a stored ground truth (hand-computable) ----
# four variants alike in Efficiency and Utilization, timed 1..4 ms; the estimate ties b and c
# (within 1%) ahead of a and d, so the Hopper front keeps b and c; e violates a constraint
R="$t/gt.jsonl"; : > "$R"
for v in "a 0 1 2.0 1.0" "b 1 2 1.0 2.0" "c 2 3 1.005 3.0" "d 3 4 3.0 4.0"; do
  set -- $v
  echo "{\"type\": \"static\", \"i\": $2, \"space\": \"00000000000000aa\", \"key\": \"block=$1\", \"kernel\": \"k\", \"hash\": \"000000000000000$3\", \"status\": \"ok\", \"why\": \"\", \"regs\": 32, \"smem\": 0, \"threads\": 256, \"blocks_per_sm\": 4, \"spills\": 0, \"instr\": 1000, \"regions\": 10, \"long_regions\": 10, \"efficiency\": 3.6991004e-09, \"utilization\": 100, \"utilization_simple\": 100, \"est_ms\": $4, \"mem_ms\": 0.1, \"mem_bound\": false, \"bottleneck\": \"instruction issue\", \"metric_s\": 0.1}" >> "$R"
  echo "{\"type\": \"time\", \"key\": \"block=$1\", \"hash\": \"000000000000000$3\", \"status\": \"ok\", \"median_ms\": $5, \"min_ms\": $5, \"max_ms\": $5, \"compile_s\": 1, \"verify_s\": 1, \"run_s\": 0.1, \"gpu\": \"test\", \"why\": \"\", \"times\": [$5], \"timestamp\": 1}" >> "$R"
done
echo '{"type": "static", "i": 4, "space": "00000000000000aa", "key": "block=e", "kernel": "k", "hash": "0000000000000005", "status": "constraint", "why": "registers", "metric_s": 0.1}' >> "$R"
"$carve" tune --replay "$R" --budget 1 > "$t/replay.txt"; check $? "--replay exits 0: $(cat "$t/replay.txt")"
grep -q "5 points; 1 violate a constraint, 0 duplicates; 4 distinct valid, 4 verified and timed" "$t/replay.txt" && grep -q "optimum: block=a, 1.0000 ms" "$t/replay.txt"; check $? "--replay: the space and the optimum"
grep -qE "^  carving \(Hopper front\) +2 +60.0% +50.0% +50.0% +1.6667 +-0.500  block=b" "$t/replay.txt"; check $? "--replay: the Hopper front times b and c: best 2 ms, random's expected best of 2 is 5/3, P = -0.5: $(grep Hopper "$t/replay.txt" | head -1)"
grep -qE "^  model top 1 +1 .* 50.0% +2.5000 +0.333  block=b" "$t/replay.txt"; check $? "--replay: the model's top 1: P = (2.5 - 2) / (2.5 - 1) = 1/3"
grep -qE "^  carving \(Ryoo, ties kept\) +4 .* 100.0% +1.0000 +0.000" "$t/replay.txt"; check $? "--replay: Ryoo's front keeps all four ties: random finds the optimum too, P = 0"
grep -qE "^  1 +block=b +E x U\(H\)" "$t/replay.txt" && grep -q "the estimate pruned 2 points" "$t/replay.txt"; check $? "--replay: why each survivor survived, and what the estimate pruned"
if [ $have_py = 1 ]; then
  "$carve" tune --replay "$R" --format json --eps 0 | python3 -c 'import json,sys; d=json.load(sys.stdin)
h=d["strategies"][0]; assert d["valid"]==4 and d["eps"]==0 and h["timed"]==1 and h["best_key"]=="block=b" and abs(h["p"]-1/3)<1e-3, h
assert [s["kept_by"] for s in d["survivors"]]==["front"], d["survivors"]'; check $? "--replay --format json --eps 0: c's 0.5% worse estimate counts, b alone"
fi
grep -v '"key": "block=d", "hash": "0000000000000004", "status": "ok", "median' "$R" > "$t/part.jsonl"
"$carve" tune --replay "$t/part.jsonl" 2> "$t/e0"; [ $? = 3 ] && grep -q "not a ground truth: 1 of 4 distinct valid variants have no time record" "$t/e0"; check $? "--replay of an incomplete ground truth: exit 3: $(cat "$t/e0")"
"$carve" tune --replay "$t/none.jsonl" 2> "$t/e0"; [ $? = 2 ]; check $? "--replay of a missing file: exit 2"
"$carve" tune --replay "$R" examples/mm.cu 2> "$t/e0"; [ $? = 2 ] && grep -q "no input file" "$t/e0"; check $? "--replay takes no kernel"
"$carve" tune $MM --front best 2> "$t/e0"; [ $? = 2 ] && grep -q -- "--front is hopper or ryoo" "$t/e0"; check $? "a bad --front"

"$carve" tune $MM --strategy best 2> "$t/e1"; [ $? = 2 ] && grep -q "carve tune: error: --strategy is carving, model, exhaustive or random" "$t/e1"; check $? "a bad strategy: $(cat "$t/e1")"
"$carve" tune $MM --bogus 2> "$t/e2"; [ $? = 2 ] && grep -q "unknown option '--bogus'" "$t/e2"; check $? "an unknown option: $(cat "$t/e2")"
"$carve" space $MM --no-bench 2> "$t/e3"; [ $? = 2 ] && grep -q "carve space: error: unknown option '--no-bench'" "$t/e3"; check $? "space takes only its own options"
"$carve" tune tests/tune/missing.cu --no-bench 2> "$t/e4"; [ $? = 2 ]; check $? "a missing file: exit 2"
"$carve" tune $MM --budget 0 2> "$t/e5"; [ $? = 2 ] && grep -q -- "--budget needs a whole number" "$t/e5"; check $? "--budget 0"
"$carve" tune --merge "$t/task.0.jsonl" 2> "$t/e6"; [ $? = 2 ] && grep -q -- "--merge needs -o" "$t/e6"; check $? "--merge without -o"
"$carve" tune $MM --no-bench --tasks 2 --task 2 --results "$t/x.jsonl" 2> "$t/e7"; [ $? = 2 ]; check $? "--task outside --tasks"
"$carve" tune examples/mm.cu --kernel nope --no-bench 2> "$t/e8"; [ $? = 2 ] && grep -q "no kernel named 'nope'" "$t/e8"; check $? "an unknown kernel: $(cat "$t/e8")"
"$carve" help tune | grep -q "optimization carving"; check $? "carve help tune"
"$carve" space examples/mm.cu --skip bogus 2> "$t/e9"; [ $? = 2 ] && grep -q -- "--skip: no pass named 'bogus'" "$t/e9"; check $? "--skip names an unknown pass: $(cat "$t/e9")"
"$carve" space examples/mm.cu -D N=128 $regs --passes camping | grep -q "split: left out (--passes)"; check $? "--passes keeps only the named passes in the space"

# ---- sizing a space without building it; the launch shapes kept ----
"$carve" space examples/mm.cu --passes tile --blocks orig --no-metrics > "$t/nm.txt"; check $? "--no-metrics"
combos=$(awk '/^  tile\.[a-z]+ / { n = split($0, v, ","); p = (p ? p : 1) * n } END { print p + 1 }' "$t/nm.txt")   # every parameter value list, times, and tile off
grep -q "^size: $combos points; 0 violate a launch constraint (decided before building); $combos to build" "$t/nm.txt" && grep -q "^  block.x  *16$" "$t/nm.txt"; check $? "--blocks orig: the tile pass's configurations and the original, one shape ($combos): $(tail -1 "$t/nm.txt")"
"$carve" space examples/mm.cu --blocks 32x8,64x4 --passes camping --no-metrics | grep -q "^size: 9 points"; check $? "--blocks 32x8,64x4: those shapes and the original's"
"$carve" space examples/mm.cu --blocks 32x 2> "$t/e10"; [ $? = 2 ] && grep -q -- "--blocks: '32x' is not" "$t/e10"; check $? "a malformed --blocks: $(cat "$t/e10")"

# ---- a host program: the launch it makes, its block shape kept ----
"$carve" tune tests/host/vadd.cu $regs --no-bench --no-cache --strategy exhaustive -o "$t/vadd.cu" > "$t/host.txt" 2> "$t/host.err"; check $? "tune on a host program exits 0: $(tail -2 "$t/host.err")"
grep -q "the program's launch 1 of 1 distinct: vadd<<<(20,1,1), (256,1,1)>>> at line 42" "$t/host.txt" && grep -q "block shape stays" "$t/host.txt"; check $? "it says which launch, and that its block shape stays: $(sed -n 2p "$t/host.txt")"
[ "$(grep -cE '^  [0-9]+ +block=256x1 .* yes$' "$t/host.txt")" -ge 2 ] && ! grep -q REJECTED "$t/host.txt"; check $? "the passes' variants verify on the recorded launch (vector reshapes it)"
grep -q "__global__ void vadd" "$t/vadd.cu" && ! grep -q 'file("' "$t/vadd.cu"; check $? "-o: the tuned kernel, without the temporary files the recorded buffers were read from"
"$carve" space tests/host/vadd.cu $regs --no-metrics -- 3000 | grep -q "vadd<<<(12,1,1)"; check $? "the program's own arguments after --"
"$carve" space tests/host/kernels.cu --launch 3 --no-metrics | grep -q "launch 3 of 4 distinct: saxpy"; check $? "--launch 3"
"$carve" space tests/host/kernels.cu --launch 9 --no-metrics 2> "$t/e11"; [ $? = 2 ] && grep -q "made 4 distinct launches" "$t/e11"; check $? "--launch past the program's launches: $(cat "$t/e11")"
"$carve" tune tests/host/bad/oob.cu --no-bench 2> "$t/e12" > /dev/null; [ $? = 2 ] && grep -q "did not run to its end" "$t/e12"; check $? "a program that faults: exit 2 and why"
# a space too large, the user asked for no narrowing: narrowed by default, said, and how to choose
"$carve" space examples/mm.cu --no-metrics > "$t/nw.txt" 2> "$t/nw.err"; check $? "a too-large space is narrowed by default (exit 0)"
grep -q "^narrowed: the whole space has [0-9]* points, more than 200000" "$t/nw.txt" && grep -q "original block shape only" "$t/nw.txt" && grep -q -- "--passes A,B" "$t/nw.err"; check $? "the narrowing is said, with the options: $(cat "$t/nw.err")"
n=$(sed -n 's/^size: \([0-9]*\) points.*/\1/p' "$t/nw.txt"); [ -n "$n" ] && [ "$n" -le 5000 ] && [ "$n" -gt 1 ]; check $? "narrowed to at most 5000 points (got $n)"
"$carve" space examples/mm.cu --passes tile,split,unroll,vector,camping,scalar --no-metrics 2> "$t/nw2.err" > /dev/null; [ $? = 2 ] && grep -q "narrow it with --passes" "$t/nw2.err"; check $? "a narrowing the user chose that is still too large: exit 2 with how to narrow"

# ---- block dispatch (docs/tune.md, "The model's top 5 and block dispatch"): sad's short blocks ----
"$carve" estimate examples/sad.cu --arch h100 --regs 32 --block 32 --grid 35,6336 > "$t/sad32.txt" && "$carve" estimate examples/sad.cu --arch h100 --regs 32 --block 128 --grid 9,6336 > "$t/sad128.txt"; check $? "estimate of sad at 32- and 128-thread blocks"
grep -q "bound by block dispatch" "$t/sad32.txt" && grep -qE "limits \(ms\):.* blocks 0\.13[0-9]* launch" "$t/sad32.txt"; check $? "32-thread blocks of sad: 1680 blocks per SM x 156 cycles at 1.98 GHz = 0.132 ms of dispatch, the bottleneck: $(grep -E 'estimate:|limits' "$t/sad32.txt" | tr '\n' ' ')"
e32=$(sed -n 's/^  estimate: \([0-9.]*\) ms.*/\1/p' "$t/sad32.txt"); e128=$(sed -n 's/^  estimate: \([0-9.]*\) ms.*/\1/p' "$t/sad128.txt")
awk -v a="$e32" -v b="$e128" 'BEGIN { exit !(a > 1.4 * b) }'; check $? "sad's 32-thread blocks estimate slower than its 128-thread ones, as measured (0.144 vs 0.054 ms on the H100): $e32 vs $e128 ms"
S13=docs/data/tune-replay-2026-11-27-s13/sad.jsonl
if [ -f "$S13" ]; then
  "$carve" tune --replay "$S13" > "$t/s13.txt"; grep -qE "^  model top 5 +5 .* 100.0% .* block=64x1 vector=on vector.factor=2 vector.split=1 unroll=on unroll.factor=4" "$t/s13.txt"; check $? "the recomputed sad records: the model's top 5 hold the optimum: $(grep 'model top 5' "$t/s13.txt")"
else echo "tune-cli: skipped (no $S13)"; fi

echo "tune-cli: $pass passed, $fail failed"
[ $fail = 0 ]
