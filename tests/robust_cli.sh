#!/usr/bin/env bash
# tests/robust_cli.sh [CARVE]: records and reports that must not mislead (issue 26, items 5-9),
# as a user meets them: a file of 5,000 kernels checked in one walk; analyze of a small launch
# runs every warp and fails on the fault it finds; an empty grid in a host loop is CUDA's
# cudaErrorInvalidConfiguration, not the end of the program; more than 64 distinct launches;
# the host step limit and wall-clock deadline of the launch-only commands; deep host recursion
# and templates; carve tune's results file (a failed append is an error, two tunes share one
# file, records of another build re-checked, temporary directories removed on SIGTERM).
set -u
cd "$(dirname "$0")/.." || exit 2
CARVE=${1:-./carve}
case "$CARVE" in /*) ;; *) CARVE=$PWD/$CARVE ;; esac
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# expect NAME COND...: pass if the command succeeds
expect() { local name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }

# ---- item 7: carve check of 5,000 kernels is one walk (was 28.5 s on this 2-core machine) ----
for i in $(seq 0 4999); do echo "__global__ void k$i(float *a) { a[threadIdx.x] = $i.0f; }"; done > "$tmp/k5000.cu"
echo 'int main() { float *d; cudaMalloc(&d, 128); k4999<<<1, 32>>>(d); return 0; }' >> "$tmp/k5000.cu"
# one walk, not one per kernel: the time grows linearly (5x the kernels, well under 12x the time;
# a walk per kernel is quadratic, 25x), a ratio measured in one run, not a time limit
for i in $(seq 0 999); do echo "__global__ void k$i(float *a) { a[threadIdx.x] = $i.0f; }"; done > "$tmp/k1000.cu"
echo 'int main() { float *d; cudaMalloc(&d, 128); k999<<<1, 32>>>(d); return 0; }' >> "$tmp/k1000.cu"
ms() { echo $(( $(date +%s%N) / 1000000 )); }
start=$(ms); "$CARVE" check "$tmp/k1000.cu" > /dev/null 2>&1; ms1000=$(( $(ms) - start ))
start=$(ms)
timeout 60 "$CARVE" check "$tmp/k5000.cu" > "$tmp/out" 2>&1; rc=$?
ms5000=$(( $(ms) - start ))
[ "$ms1000" -lt 100 ] && ms1000=100
expect "check of 5,000 kernels: exit 0 (got $rc)" [ "$rc" -eq 0 ]
expect "check of 5,000 kernels: every kernel listed" [ "$(grep -c '__global__ void k' "$tmp/out")" -eq 5000 ]
expect "check of 5,000 kernels: the host launch found" grep -q 'k4999.*' "$tmp/out"
expect "check of 5,000 kernels: the host launch found (line)" grep -q 'launched by the host code at line 5001' "$tmp/out"
expect "check of 5,000 kernels in under 12x the time of 1,000 (${ms5000} ms against ${ms1000} ms)" [ "$ms5000" -lt $((12 * ms1000)) ]

# ---- item 8: an empty grid is cudaErrorInvalidConfiguration and the program goes on ----
"$CARVE" run tests/host/sweep_empty.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "sweep_empty: exit 0 (got $rc: $(head -3 "$tmp/err"))" [ "$rc" -eq 0 ]
expect "sweep_empty: cudaGetLastError sees the empty launch" grep -qx 'left 0: invalid configuration argument (invalid configuration)' "$tmp/out"
expect "sweep_empty: the program went on" grep -qx 'h\[0\]=4 h\[999\]=1' "$tmp/out"
expect "sweep_empty: a located warning" grep -q "sweep_empty.cu:15:5: warning: launch of 'step': grid (0,1,1)" "$tmp/err"
expect "sweep_empty: counted in the summary" grep -q '1 launch not run: a configuration CUDA refuses' "$tmp/err"
"$CARVE" analyze tests/host/sweep_empty.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "sweep_empty: analyze takes its launches (got $rc)" [ "$rc" -eq 0 ]

# ---- item 8: more than 64 distinct launches are recorded; the selected one is analyzed ----
"$CARVE" run tests/host/many_launches.cu > "$tmp/out" 2> "$tmp/err"
expect "many_launches: 102 distinct" grep -q '102 launches (102 distinct)' "$tmp/err"
expect "many_launches: launch 102 listed" grep -q 'launch 102: last<<<(2,1,1), (128,1,1)>>>' "$tmp/err"
"$CARVE" analyze tests/host/many_launches.cu --launch 102 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "many_launches: analyze --launch 102 (got $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
expect "many_launches: analyze --launch 102 is that launch" grep -q 'last<<<(2,1,1), (128,1,1)>>> on h100' "$tmp/out"
"$CARVE" estimate tests/host/many_launches.cu --launch 80 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "many_launches: estimate --launch 80 (got $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
"$CARVE" analyze tests/host/many_launches.cu --launch 103 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "many_launches: --launch 103 is an error" [ "$rc" -eq 2 ]
expect "many_launches: --launch 103 says how many" grep -q 'made 102 distinct launches' "$tmp/err"

# ---- item 6: analyze of a one-block launch runs all 4 warps and fails on thread 40's store ----
cat > "$tmp/oob40.cu" <<'CU'
#pragma carve launch k grid(GRID) block(128)
#pragma carve arg a = float[12800] : zeros out
__global__ void k(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 40) a[i + 100000] = 1.0f;
  else a[i] = 2.0f;
}
CU
"$CARVE" analyze "$tmp/oob40.cu" -D GRID=1 --fail-on error > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "analyze one block: exit 1 on the fault (got $rc)" [ "$rc" -eq 1 ]
expect "analyze one block: thread 40's store named" grep -q 'out-of-bounds global write.*thread (40,0,0)' "$tmp/err"
expect "analyze one block: 4 of 4 warps" grep -q '4 of 4 warps in each' "$tmp/out"
if command -v python3 > /dev/null 2>&1; then
  "$CARVE" analyze "$tmp/oob40.cu" -D GRID=100 --format sarif 2> /dev/null > "$tmp/sarif"
  expect "SARIF of a sampled launch: sampled, and a located note for the unreached store" python3 -c '
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
assert inv["properties"]["sampled"] is True, inv
notes = [n for n in inv["toolExecutionNotifications"] if "not reached" in n["message"]["text"]]
assert len(notes) == 1 and notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 5, notes' "$tmp/sarif"
  "$CARVE" analyze "$tmp/oob40.cu" -D GRID=100 --format json 2> /dev/null > "$tmp/json"
  expect "JSON of a sampled launch: sampled true" python3 -c '
import json, sys; d = json.load(open(sys.argv[1])); assert d["sampled"] is True and d["unreached"], d["sampled"]' "$tmp/json"
else
  echo "robust: skipped (python3 not found): SARIF and JSON checks"
fi

# ---- item 9: the host limits of the commands that want only the launches ----
for cmd in analyze estimate optimize; do
  start=$(date +%s)
  extra=()
  [ $cmd = optimize ] && extra=(-o "$tmp/o.cu")
  timeout 60 "$CARVE" $cmd tests/host/forever.cu --max-steps 1000000 "${extra[@]}" > "$tmp/out" 2> "$tmp/err"; rc=$?
  expect "$cmd --max-steps on a for(;;): exit 2 (got $rc)" [ "$rc" -eq 2 ]
  expect "$cmd --max-steps: the step limit named" grep -q 'step limit 1000000 reached in the host function' "$tmp/err"
  timeout 60 "$CARVE" $cmd tests/host/forever.cu --max-seconds 1 "${extra[@]}" > "$tmp/out" 2> "$tmp/err"; rc=$?
  secs=$(( $(date +%s) - start ))
  # stopped after its launch: the launch recorded is used, and that is said
  expect "$cmd --max-seconds 1 on a for(;;) after a launch: exit 0 (got $rc)" [ "$rc" -eq 0 ]
  expect "$cmd --max-seconds 1: the time limit named" grep -q 'ran past its time limit of 1 s' "$tmp/err"
  expect "$cmd --max-seconds 1: the stop and the launches recorded said" grep -q "carve $cmd: the host program was stopped after 1 s in host code (--max-seconds); 1 launch recorded (1 distinct); launches after that point are not seen" "$tmp/err"
  expect "$cmd: both stops within 20 s (took ${secs}s)" [ "$secs" -lt 20 ]
done
timeout 60 "$CARVE" space tests/host/forever.cu --no-metrics --max-seconds 1 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "space --max-seconds 1 on a for(;;) after a launch: exit 0 (got $rc)" [ "$rc" -eq 0 ]
expect "space --max-seconds 1: the stop said" grep -q 'the host program was stopped after 1 s in host code' "$tmp/err"
expect "space --max-seconds 1: the time limit named" grep -q 'ran past its time limit of 1 s' "$tmp/err"
timeout 60 "$CARVE" space tests/host/forever.cu --no-metrics --max-steps 100000 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "space --max-steps: exit 2 (got $rc)" [ "$rc" -eq 2 ]
expect "space --max-steps: the step limit named" grep -q 'step limit 100000 reached' "$tmp/err"
"$CARVE" analyze tests/host/forever.cu --max-seconds 0 > /dev/null 2> "$tmp/err"; rc=$?
expect "--max-seconds 0 is a usage error (got $rc)" [ "$rc" -eq 2 ]
# carve run wants the whole program: no wall-clock limit, its step limit stays 10^11
"$CARVE" run tests/host/forever.cu --max-steps 100000 > /dev/null 2> "$tmp/err"; rc=$?
expect "run --max-steps on a for(;;): stopped, exit 2 (got $rc)" [ "$rc" -eq 2 ]

# ---- item 9: host recursion 50,000 deep and a template 1,000 deep run ----
"$CARVE" run tests/host/recursion_deep.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "recursion 50,000 deep: exit 0 (got $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
expect "recursion 50,000 deep: its answer" grep -qx 'depth 50000, h\[31\] = 50031' "$tmp/out"
"$CARVE" run tests/host/recursion_deep.cu -- 100000 > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "recursion past 100,000 calls: a located fault, exit 1 (got $rc)" [ "$rc" -eq 1 ]
expect "recursion past 100,000: the limit named" grep -q 'recursion_deep.cu:6:.*call depth exceeds 100000' "$tmp/err"
"$CARVE" run tests/cxx/template_deep.cu --out a="$tmp/a.bin" > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "template 400 deep: exit 0 (got $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
expect "template 400 deep: a[31] = 431" [ "$(od -An -t d4 -j 124 -N 4 "$tmp/a.bin" 2>/dev/null | tr -d ' ')" = 431 ]
sed 's/f<400>/f<1000>/' tests/cxx/template_deep.cu > "$tmp/template_1000.cu"
case "$CARVE" in
  *build-san*)   # a sanitizer build's frames are several times larger: 1,000 levels are refused there by the stack check
    "$CARVE" check "$tmp/template_1000.cu" > /dev/null 2> "$tmp/err"
    expect "template 1,000 deep under ASan: a located error, not a crash" grep -q 'nested too deeply for carve.s stack' "$tmp/err" ;;
  *)
    "$CARVE" run "$tmp/template_1000.cu" --out a="$tmp/a.bin" > "$tmp/out" 2> "$tmp/err"; rc=$?
    expect "template 1,000 deep: exit 0 (got $rc: $(head -2 "$tmp/err"))" [ "$rc" -eq 0 ]
    expect "template 1,000 deep: a[31] = 1031" [ "$(od -An -t d4 -j 124 -N 4 "$tmp/a.bin" 2>/dev/null | tr -d ' ')" = 1031 ] ;;
esac
(ulimit -s 2048; "$CARVE" check "$tmp/template_1000.cu" > /dev/null 2> "$tmp/err"); rc=$?
expect "template 1,000 deep in a 2 MiB stack: refused with a located error, exit 2 (got $rc)" [ "$rc" -eq 2 ]
expect "template 1,000 deep in a 2 MiB stack: the stack named" grep -q "template_1000.cu:6:51: error: template instances nested too deeply for carve's stack" "$tmp/err"

# ---- item 5: carve tune's results file ----
export CARVE_CACHE_DIR="$tmp/cache"
MM=(examples/mm.cu -D N=128 --regs 32 --skip split,vector,tile --no-bench)
"$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/whole.jsonl" > "$tmp/whole.txt" 2> "$tmp/err"; rc=$?
whole=$(wc -l < "$tmp/whole.jsonl")
expect "tune: a whole run (got $rc, $whole records)" [ "$rc" -eq 0 ] && [ "$whole" -gt 100 ]
expect "tune: every record names its build" [ "$(grep -c '"build": "[0-9a-f]\{16\}"' "$tmp/whole.jsonl")" -eq "$whole" ]
# the disk fills after 50 records: exit 2, what was kept said, no table; a resume finishes
CARVE_RESULTS_FAIL_AFTER=50 "$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/full.jsonl" > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "tune on a full disk: exit 2 (got $rc)" [ "$rc" -eq 2 ]
expect "tune on a full disk: says how many records were lost and what was kept" \
  grep -q "records could not be written to $tmp/full.jsonl (No space left on device.*it holds the 50 whole records" "$tmp/err"
expect "tune on a full disk: no table that looks whole" [ ! -s "$tmp/out" ]
expect "tune on a full disk: 50 records in the file" [ "$(wc -l < "$tmp/full.jsonl")" -eq 50 ]
"$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/full.jsonl" > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "tune resumed after the disk had room: exit 0 (got $rc)" [ "$rc" -eq 0 ]
expect "tune resumed: as many records as a whole run" [ "$(wc -l < "$tmp/full.jsonl")" -eq "$whole" ]
expect "tune resumed: the same table" cmp -s "$tmp/out" "$tmp/whole.txt"
"$CARVE" tune "${MM[@]}" --no-cache --results /dev/full > /dev/null 2> "$tmp/err"; rc=$?
expect "tune --results /dev/full: exit 2 (got $rc)" [ "$rc" -eq 2 ]
expect "tune --results /dev/full: the error named" grep -q 'could not be written to /dev/full (No space left on device)' "$tmp/err"
# two tunes on one file: the second waits for the first's lock and reuses its records
"$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/two.jsonl" > "$tmp/a.txt" 2> "$tmp/a.err" &
first=$!
for _ in $(seq 100); do [ -s "$tmp/two.jsonl" ] && break; sleep 0.1; done
"$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/two.jsonl" > "$tmp/b.txt" 2> "$tmp/b.err"; rb=$?
wait $first; ra=$?
expect "two tunes on one file: both exit 0 ($ra, $rb)" [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
expect "two tunes on one file: the work done once ($(wc -l < "$tmp/two.jsonl") records, a whole run $whole)" [ "$(wc -l < "$tmp/two.jsonl")" -eq "$whole" ]
expect "two tunes on one file: the second waited" grep -q 'is being written by another carve; waiting' "$tmp/b.err"
expect "two tunes on one file: the same answer" cmp -s "$tmp/a.txt" "$tmp/b.txt"
# records of another build: re-checked, not trusted
sed 's/"build": "[0-9a-f]*"/"build": "0123456789abcdef"/' "$tmp/whole.jsonl" > "$tmp/old.jsonl"
"$CARVE" tune "${MM[@]}" --no-cache --results "$tmp/old.jsonl" > "$tmp/out" 2> "$tmp/err"; rc=$?
expect "another build's records: exit 0 (got $rc)" [ "$rc" -eq 0 ]
expect "another build's records: said" grep -q "$whole records in $tmp/old.jsonl were written by another carve build: not trusted" "$tmp/err"
expect "another build's records: every verdict made again" [ "$(grep -c '"type": "verify"' "$tmp/old.jsonl")" -eq $(( 2 * $(grep -c '"type": "verify"' "$tmp/whole.jsonl") )) ]
expect "another build's records: the same table" cmp -s "$tmp/out" "$tmp/whole.txt"
# a tune stopped by SIGTERM (and SIGINT) leaves no temporary directory
mkdir -p "$tmp/tmpdir"
BIG=(examples/mm.cu -D N=256 --regs 32 --skip split,tile --no-bench --no-cache --strategy exhaustive)
TMPDIR="$tmp/tmpdir" "$CARVE" tune "${BIG[@]}" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do [ "$(find "$tmp/tmpdir" | wc -l)" -gt 10 ] && break; sleep 0.1; done
made=$(find "$tmp/tmpdir" | wc -l)
kill -TERM $pid; wait $pid; rc=$?
expect "SIGTERM: the tune had its temporary directory ($made entries)" [ "$made" -gt 10 ]
expect "SIGTERM: the tune died of it (got $rc)" [ "$rc" -eq 143 ]
expect "SIGTERM: no temporary directory left ($(ls "$tmp/tmpdir"))" [ -z "$(ls "$tmp/tmpdir")" ]
if command -v python3 > /dev/null 2>&1; then
  TMPDIR="$tmp/tmpdir" python3 -c '
import os, signal, subprocess, sys, time
d = os.environ["TMPDIR"]
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for _ in range(200):
    if sum(len(f) + len(s) for _, s, f in os.walk(d)) > 10: break
    time.sleep(0.1)
made = sum(len(f) + len(s) for _, s, f in os.walk(d))
p.send_signal(signal.SIGINT)
rc = p.wait()
assert made > 10 and rc == -signal.SIGINT and not os.listdir(d), (made, rc, os.listdir(d))' "$CARVE" tune "${BIG[@]}"
  expect "SIGINT: no temporary directory left" [ $? -eq 0 ]
fi
unset CARVE_CACHE_DIR

echo "robust: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
