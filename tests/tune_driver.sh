#!/bin/bash
# carve tune's timing driver without a GPU: a stand-in nvcc (tests/tune/fake-nvcc) builds each
# harness batch into a script that speaks the harness's protocol and writes zeros as outputs, and
# tests/tune/zero.cu writes zeros at every launch, so its variants verify on this "GPU". Checked:
# every variant timed once, in parallel builds of several batches; a resumed tune times nothing
# again, also after kill -9 in the middle of timing; a batch nvcc refuses costs only the variants
# it refuses; a launch error or a hang costs only that variant; two GPU workers; --time.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "tune-driver: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export CARVE_CACHE_DIR="$t/cache" CARVE_ASSUME_GPU=1 CARVE_NVCC="$PWD/tests/tune/fake-nvcc" FAKE_LOG="$t/log"
unset FAKE_NVCC_FAIL FAKE_HANG FAKE_DIE FAKE_SLEEP
regs=""
if "$carve" estimate examples/vv.cu 2>&1 | grep -q "no CUDA toolkit"; then regs="--regs 32"; fi
Z="tests/tune/zero.cu --passes vector $regs --strategy exhaustive --workers 2"
times_of() { grep -c '"type": "time"' "$1"; }
status_count() { grep '"type": "time"' "$1" | grep -c "\"status\": \"$2\""; }
# static and verify records kept: only timing repeats; a build cache of its own (faults are injected at build time)
fresh() { grep -v '"type": "time"' "$t/all.jsonl" > "$t/$1.jsonl"; : > "$t/log"; export CARVE_CACHE_DIR="$t/cache-$1"; }

# ---- every variant timed once, batches built in parallel ----
"$carve" tune $Z --results "$t/all.jsonl" --batch 4 --builds 3 --format json > "$t/all.json" 2> "$t/all.err"; check $? "the exhaustive tune on the fake GPU exits 0: $(tail -3 "$t/all.err")"
valid=$(sed 's/.*"valid": \([0-9]*\).*/\1/' "$t/all.json")
[ "${valid:-0}" -ge 20 ] && [ "$(times_of "$t/all.jsonl")" = "$valid" ] && [ "$(status_count "$t/all.jsonl" ok)" = "$valid" ]; check $? "each of the $valid distinct valid variants timed once and verified on the GPU ($(times_of "$t/all.jsonl") records)"
grep -q '"ground_truth"' "$t/all.json"; check $? "the ground truth is complete"
[ "$(wc -l < "$t/log")" = $(( (valid + 3) / 4 )) ]; check $? "one harness run per batch of 4 ($(wc -l < "$t/log") runs)"
grep -q '"gpu": "Fake GPU all"' "$t/all.jsonl"; check $? "the device the harness names is recorded"
: > "$t/log"
"$carve" tune $Z --results "$t/all.jsonl" --progress > /dev/null 2> "$t/again.err"
[ ! -s "$t/log" ] && grep -q "$valid of $valid variants already timed" "$t/again.err" && [ "$(times_of "$t/all.jsonl")" = "$valid" ]; check $? "a resumed tune times nothing again: $(grep already "$t/again.err")"

# ---- the build cache: the same batches again are not rebuilt, and time the same ----
grep -v '"type": "time"' "$t/all.jsonl" > "$t/cached.jsonl"; : > "$t/log"
FAKE_NVCC_LOG="$t/builds" "$carve" tune $Z --results "$t/cached.jsonl" --batch 4 --builds 3 > /dev/null 2>&1; check $? "a tune from the build cache exits 0"
[ ! -s "$t/builds" ] && [ "$(status_count "$t/cached.jsonl" ok)" = "$valid" ] && [ "$(wc -l < "$t/log")" = $(( (valid + 3) / 4 )) ]; check $? "the cached harnesses run, nvcc runs no build ($(cat "$t/builds" 2>/dev/null | wc -l) builds, $(status_count "$t/cached.jsonl" ok) ok)"
grep -v '"type": "time"' "$t/all.jsonl" > "$t/nocache.jsonl"
FAKE_NVCC_LOG="$t/builds2" "$carve" tune $Z --results "$t/nocache.jsonl" --batch 4 --no-cache > /dev/null 2>&1
[ "$(wc -l < "$t/builds2")" = $(( (valid + 3) / 4 )) ]; check $? "--no-cache builds every batch ($(wc -l < "$t/builds2") builds)"

# ---- nvcc refuses the variants with float4 stores: their batches are halved until each stands alone ----
fresh refuse
FAKE_NVCC_FAIL=float4 "$carve" tune $Z --results "$t/refuse.jsonl" --batch 8 > /dev/null 2>&1
nc=$(status_count "$t/refuse.jsonl" compile); nok=$(status_count "$t/refuse.jsonl" ok)
[ "$nc" -ge 1 ] && [ "$nok" -ge 1 ] && [ $((nc + nok)) = "$valid" ]; check $? "a refused build costs only the variants refused ($nc compile, $nok ok of $valid)"
! grep '"status": "compile"' "$t/refuse.jsonl" | grep -q 'vector=off'; check $? "no variant without vector stores is charged"
grep '"status": "compile"' "$t/refuse.jsonl" | head -1 | grep -q "fake-nvcc refuses"; check $? "nvcc's message is the reason"

# ---- a launch error, and a hang past --timeout, each cost their variant only ----
fresh die
FAKE_DIE=float2 "$carve" tune $Z --results "$t/die.jsonl" --batch 64 > /dev/null 2>&1
nr=$(status_count "$t/die.jsonl" runtime); nok=$(status_count "$t/die.jsonl" ok)
[ "$nr" -ge 1 ] && [ $((nr + nok)) = "$valid" ] && [ "$(wc -l < "$t/log")" -gt 1 ]; check $? "a launch error: that variant 'runtime', the harness restarted after it ($nr runtime, $nok ok, $(wc -l < "$t/log") runs)"
fresh hang
FAKE_HANG=float2 "$carve" tune $Z --results "$t/hang.jsonl" --batch 64 --timeout 2 > /dev/null 2>&1
nt=$(status_count "$t/hang.jsonl" timeout); nok=$(status_count "$t/hang.jsonl" ok)
[ "$nt" = "$nr" ] && [ $((nt + nok)) = "$valid" ]; check $? "a hang past --timeout: that variant 'timeout' ($nt timeout, $nok ok)"
grep '"status": "timeout"' "$t/hang.jsonl" | head -1 | grep -q "no result within 2 s"; check $? "the timeout says so"

# ---- two workers sharing the GPUs 0 and 1: batches claimed from one queue ----
fresh two
"$carve" tune $Z --results "$t/two.jsonl" --batch 4 --gpus 0,1 > /dev/null 2>&1; check $? "--gpus 0,1"
[ "$(times_of "$t/two.jsonl")" = "$valid" ] && grep -q '"gpu": "Fake GPU 0"' "$t/two.jsonl" && grep -q '"gpu": "Fake GPU 1"' "$t/two.jsonl"; check $? "each worker on its device (CUDA_VISIBLE_DEVICES), every variant once ($(times_of "$t/two.jsonl"))"
# a slow GPU (device 1: 0.3 s a variant, device 0 none) takes fewer batches than a fast one
fresh steal
FAKE_SLEEP_GPU=1 FAKE_SLEEP=0.3 "$carve" tune $Z --results "$t/steal.jsonl" --batch 2 --builds 2 --gpus 0,1 > /dev/null 2>&1
n0=$(grep -c '"gpu": "Fake GPU 0"' "$t/steal.jsonl"); n1=$(grep -c '"gpu": "Fake GPU 1"' "$t/steal.jsonl")
[ "$(times_of "$t/steal.jsonl")" = "$valid" ] && [ "$n0" -gt "$n1" ] && [ "$n1" -ge 1 ]; check $? "the faster GPU claims more batches (GPU 0 $n0, GPU 1 $n1 variants)"
# one of two workers killed: the other takes every batch left unclaimed; a resume times the rest once
fresh kill2
FAKE_SLEEP=0.2 "$carve" tune $Z --results "$t/kill2.jsonl" --batch 2 --builds 1 --gpus 0,1 > /dev/null 2>&1 &
pid=$!
victim=""
for i in $(seq 1 1200); do
  if [ "$(times_of "$t/kill2.jsonl")" -ge 4 ]; then victim=$(pgrep -P $pid | head -1); [ -n "$victim" ] && kill -9 "$victim"; break; fi
  sleep 0.05
done
wait $pid 2> /dev/null
part=$(times_of "$t/kill2.jsonl")
[ -n "$victim" ] && [ "$part" -lt "$valid" ] && [ "$part" -ge $((valid - 4)) ]; check $? "one worker killed: the other timed all but the victim's claimed batches ($part of $valid)"
"$carve" tune $Z --results "$t/kill2.jsonl" --batch 2 > /dev/null 2>&1
dups=$(grep '"type": "time"' "$t/kill2.jsonl" | sed 's/.*"hash": "\([0-9a-f]*\)".*/\1/' | sort | uniq -d | wc -l)
[ "$(times_of "$t/kill2.jsonl")" = "$valid" ] && [ "$dups" = 0 ]; check $? "the resume completes the space, nothing timed twice ($(times_of "$t/kill2.jsonl") records, $dups twice)"

# ---- kill -9 in the middle of timing, then resume: nothing lost, nothing timed twice ----
fresh kill
FAKE_SLEEP=0.2 "$carve" tune $Z --results "$t/kill.jsonl" --batch 4 > /dev/null 2>&1 &
pid=$!
for i in $(seq 1 1200); do [ "$(times_of "$t/kill.jsonl")" -ge 6 ] && break; sleep 0.05; done
kill -9 $pid 2> /dev/null; wait $pid 2> /dev/null
before=$(times_of "$t/kill.jsonl")
[ "$before" -ge 1 ] && [ "$before" -lt "$valid" ]; check $? "killed part-way through timing ($before of $valid)"
sleep 1   # the orphaned harness dies at its next write
"$carve" tune $Z --results "$t/kill.jsonl" --batch 4 > /dev/null 2>&1; check $? "the resumed tune exits 0"
dups=$(grep '"type": "time"' "$t/kill.jsonl" | sed 's/.*"hash": "\([0-9a-f]*\)".*/\1/' | sort | uniq -d | wc -l)
[ "$(times_of "$t/kill.jsonl")" = "$valid" ] && [ "$dups" = 0 ]; check $? "after the resume every variant has exactly one time ($(times_of "$t/kill.jsonl") records, $dups twice)"

# ---- --time: no batch starts after it; a later run finishes ----
fresh budget
FAKE_SLEEP=0.3 "$carve" tune $Z --results "$t/budget.jsonl" --batch 2 --builds 1 --time 3 --progress > /dev/null 2> "$t/budget.err"
part=$(times_of "$t/budget.jsonl")
[ "$part" -ge 1 ] && [ "$part" -lt "$valid" ] && grep -q "time budget spent" "$t/budget.err"; check $? "--time 3 stops starting batches ($part of $valid timed)"
"$carve" tune $Z --results "$t/budget.jsonl" --batch 2 > /dev/null 2>&1
[ "$(times_of "$t/budget.jsonl")" = "$valid" ]; check $? "the next run times the rest ($(times_of "$t/budget.jsonl"))"
echo "tune-driver: $pass passed, $fail failed"
[ $fail = 0 ]
