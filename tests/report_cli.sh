#!/bin/bash
# What a person looks at (issue 16): machine-readable outputs that say what the text says
# (run's faults, check's diagnostics, SARIF on an input error, full rule metadata), the units of
# analyze's table, vector outputs, a --block flag's error at the flag, and `carve report`.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "report-cli: FAIL: $2"; fail=$((fail+1)); fi; }
have_py=1; command -v python3 >/dev/null 2>&1 || { have_py=0; echo "report-cli: JSON checks skipped (no python3)"; }
py() { [ $have_py = 1 ] || return 0; python3 "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/race.cu" <<'CU'
#pragma carve launch k grid(2) block(64)
#pragma carve arg out = int[128] : zeros out
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
CU
cat > "$tmp/oob.cu" <<'CU'
#pragma carve launch k grid(2) block(64)
#pragma carve arg out = int[100] : zeros out
__global__ void k(int *out) { out[blockIdx.x * 64 + threadIdx.x] = 1; }
CU
printf '#pragma carve launch k grid(1) block(32)\n#pragma carve arg a = int[32] : zeros out\n__global__ void k(int *a) { a[0] = b; }\n' > "$tmp/bad.cu"

"$carve" run "$tmp/race.cu" --format json > "$tmp/race.json" 2> "$tmp/race.err"; rc=$?
[ $rc = 1 ] && grep -q "shared-memory race" "$tmp/race.err"; check $? "a race: exit 1, the diagnostic still on stderr"
e=$(grep -n "error: shared-memory race" "$tmp/race.err" | head -n 1 | cut -d: -f1)
n=$(grep -n "note: the other access of the race" "$tmp/race.err" | head -n 1 | cut -d: -f1)
[ -n "$e" ] && [ -n "$n" ] && [ "$e" -lt "$n" ]; check $? "a race: its error first, then the note naming the other access"
py - "$tmp/race.json" <<'PY'; check $? "run --format json: the race's kind, location, block, thread and other access"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "fault" and d["faults"] == 1, d
f = d["fault_details"][0]
assert f["kind"] == "race" and f["line"] == 5 and f["column"] == 3, f
assert f["block"] == [0, 0, 0] and f["thread"] == [32, 0, 0], f
assert f["other_access"]["line"] == 6 and f["other_access"]["column"] == 40, f
assert len(f["notes"]) == 1 and f["notes"][0]["line"] == 6 and "other access" in f["notes"][0]["message"], f
PY
# the fault's facts come from the interpreter's record, not from its text: an assertion whose
# expression says "invalid" is an assertion (reading the text back called it an invalid address)
cat > "$tmp/assert.cu" <<'CU'
#include <cassert>
#pragma carve launch k grid(2) block(64)
#pragma carve arg out = int[128] : zeros out
__global__ void k(int *out) {
  int invalid = blockIdx.x == 1 && threadIdx.x == 40;
  assert(!invalid);
  out[blockIdx.x * 64 + threadIdx.x] = 1;
}
CU
"$carve" run "$tmp/assert.cu" --format json 2>/dev/null > "$tmp/assert.json"
py - "$tmp/assert.json" <<'PY'; check $? "run --format json: a fault's kind, block and thread from its record"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["fault_details"][0]
assert d["faults"] == 1 and d["faults_dropped"] == 0 and len(d["fault_details"]) == 1, d
assert f["kind"] == "assertion" and f["line"] == 6 and f["column"] == 3, f
assert f["block"] == [1, 0, 0] and f["thread"] == [40, 0, 0] and f["notes"] == [] and "other_access" not in f, f
PY
"$carve" run "$tmp/oob.cu" --format json 2>/dev/null > "$tmp/oob.json"
py - "$tmp/oob.json" <<'PY'; check $? "run --format json: an out-of-bounds write with its block and thread"
import json, sys
f = json.load(open(sys.argv[1]))["fault_details"][0]
assert f["kind"] == "out-of-bounds" and f["line"] == 3 and f["block"] == [1, 0, 0] and f["thread"] == [36, 0, 0], f
assert "element 100 of 'out'" in f["message"], f
PY
"$carve" run examples/vv.cu -D W=64 -D H=64 --format json 2>/dev/null | py -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]=="ok" and d["fault_details"]==[] and d["faults_dropped"]==0, d'
check $? "run --format json without a fault: an empty fault list"

"$carve" check "$tmp/bad.cu" --format json > "$tmp/check.json" 2>/dev/null; rc=$?
[ $rc = 2 ]; check $? "check of a bad file exits 2"
py - "$tmp/check.json" <<'PY'; check $? "check --format json carries each diagnostic's message and location"
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["diagnostics"] if x["level"] == "error"]
assert d["errors"] == 1 and len(e) == 1 and e[0]["line"] == 3 and e[0]["column"] == 36, d
assert "undeclared identifier 'b'" in e[0]["message"], e
PY
"$carve" check "$tmp/none.cu" --format json > "$tmp/none.json" 2>/dev/null
py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["errors"]>=1 and d["diagnostics"], d' "$tmp/none.json"; check $? "check --format json of a missing file: still a JSON object with the error"

"$carve" analyze "$tmp/bad.cu" --format sarif > "$tmp/bad.sarif" 2>/dev/null; rc=$?
[ $rc = 2 ] && [ -s "$tmp/bad.sarif" ]; check $? "analyze --format sarif on an input error: exit 2 and a log on stdout"
py - "$tmp/bad.sarif" <<'PY'; check $? "the input error as a toolExecutionNotification, run marked unsuccessful"
import json, sys
s = json.load(open(sys.argv[1]))
inv = s["runs"][0]["invocations"][0]
assert s["version"] == "2.1.0" and inv["executionSuccessful"] is False and s["runs"][0]["results"] == []
n = [x for x in inv["toolExecutionNotifications"] if x["level"] == "error"][0]
assert "undeclared identifier" in n["message"]["text"]
assert n["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
PY
"$carve" analyze examples/vv.cu --grid 0 --format sarif 2>/dev/null | py -c 'import json,sys; s=json.load(sys.stdin); assert s["runs"][0]["invocations"][0]["executionSuccessful"] is False'
check $? "a bad --grid under --format sarif: a failed-run log too"
"$carve" analyze examples/tp_shared.cu -D N=256 --format sarif > "$tmp/ts.sarif"
py - "$tmp/ts.sarif" <<'PY'; check $? "SARIF rules: full description, help with the remedy, helpUri into the docs; no placeholder informationUri"
import json, sys
s = json.load(open(sys.argv[1]))
d = s["runs"][0]["tool"]["driver"]
assert "example.invalid" not in json.dumps(d)
ids = [r["id"] for r in d["rules"]]
assert set(ids) >= {"coalescing", "bank-conflict", "divergence", "reuse", "partition-camping", "occupancy", "launch"}, ids
for r in d["rules"]:
    assert r["shortDescription"]["text"] != r["id"] and len(r["fullDescription"]["text"]) > 40, r
    assert "Remedy:" in r["help"]["text"] and r["helpUri"] == "docs/analyze-json.md#rule-" + r["id"], r
doc = open("docs/analyze-json.md").read()
assert all("### rule-" + i in doc for i in ids), "every rule has its entry in docs/analyze-json.md"
res = [x for x in s["runs"][0]["results"] if x["ruleId"] == "bank-conflict"][0]
assert ids[res["ruleIndex"]] == "bank-conflict" and 0 < res["rank"] <= 100 and res["properties"]["saving_seconds"] > 0, res
PY

out=$("$carve" analyze examples/tp.cu -D H=512 -D W=512)
echo "$out" | grep -q "per request: 32-byte sectors per warp request (global), shared-memory wavefronts per warp request (shared)"; check $? "analyze prints the per-request legend"
echo "$out" | grep -qE "16\.00 sectors +4\.00"; check $? "global units spelled out: $(echo "$out" | grep ' global ' | head -1)"
echo "$out" | grep -qE "\b(sec|wf|tr)\b"; [ $? = 1 ]; check $? "no 'sec', 'wf' or 'tr' units left"
"$carve" analyze examples/tp_shared.cu -D N=256 | grep -qE "[0-9] wavefronts +[0-9.]+ "; check $? "shared units spelled out"
"$carve" analyze examples/tp.cu -D H=512 -D W=512 --arch gt200 | grep -qE "[0-9] transactions +[0-9.]+ "; check $? "cc 1.x units spelled out"
echo "$out" | grep -q "= cost: about [0-9.]*% of the estimated kernel time"; check $? "findings carry their cost"

cat > "$tmp/v4.cu" <<'CU'
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float4[32] : zeros out
__global__ void k(float4 *out) { out[threadIdx.x] = make_float4(threadIdx.x, 1.5f, 2, 3); }
CU
"$carve" run "$tmp/v4.cu" | grep -q "first: (0, 1.5, 2, 3) (1, 1.5, 2, 3) (2, 1.5, 2, 3) (3, 1.5, 2, 3) ..."; check $? "a float4 output's first elements are printed"
out=$("$carve" run examples/vv.cu --block 2048 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "^carve: error: --block 2048: block of 2048 threads: CUDA allows 1 to 1024"; check $? "--block 2048 is the flag's error: $out"
echo "$out" | grep -q "#pragma"; [ $? = 1 ]; check $? "and does not point at the pragma line"
# launch_prepare places it, so every command taking --block does (estimate said it at the pragma)
for c in estimate analyze; do
  out=$("$carve" $c examples/vv.cu --block 64,32 2>&1); rc=$?
  [ $rc = 2 ] && echo "$out" | grep -q "^carve: error: --block 64,32: block of 2048 threads: CUDA allows 1 to 1024"; check $? "$c --block 64,32 is the flag's error: $out"
done
out=$("$carve" estimate examples/vv.cu --block 1024 --arch g80 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "^carve: error: --block 1024: block of 1024 threads: CUDA allows 1 to 512 on the NVIDIA GeForce 8800 GTX (G80)"; check $? "--block 1024 --arch g80: the G80's limit, at the flag: $out"
printf '#pragma carve launch k grid(1) block(2048)\n#pragma carve arg a = int[2048] : zeros out\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\n' > "$tmp/big.cu"
for c in run estimate; do
  out=$("$carve" $c "$tmp/big.cu" 2>&1); rc=$?
  [ $rc = 2 ] && echo "$out" | grep -q "big.cu:1:22: error: block of 2048 threads: CUDA allows 1 to 1024"; check $? "$c: a block(2048) pragma is the pragma's error: $out"
done
"$carve" arch h100 | grep -qiE "anchors|KINDS|calib H|/work|\.md\b|nvidia-h[0-9]|seed-|Firecracker"; [ $? = 1 ]; check $? "carve arch h100 cites no internal notes or machine names"
"$carve" arch h200 | grep -qiE "anchors|KINDS|calib H|/work|\.md\b|nvidia-h[0-9]|seed-|Firecracker"; [ $? = 1 ]; check $? "carve arch h200 cites no internal notes or machine names"
for m in g80 gt200 c1060; do "$carve" arch $m | grep -qiE "anchors|KINDS|/work|\.md\b|seed-"; [ $? = 1 ]; check $? "carve arch $m cites no internal notes"; done

# carve report: one self-contained file, written whole or not at all
abs=$(realpath "$carve"); ( cd "$tmp" && "$abs" report "$OLDPWD/examples/tp_shared.cu" -D N=256 >/dev/null ); rc=$?
[ $rc = 0 ] && [ -s "$tmp/tp_shared.html" ]; check $? "report writes FILE.html in the current directory by default (exit $rc)"
"$carve" report examples/tp_shared.cu -D N=256 -o - --no-estimate > "$tmp/stdout.html"; rc=$?
[ $rc = 0 ] && head -c 15 "$tmp/stdout.html" | grep -q "<!DOCTYPE html>"; check $? "-o - writes the page to standard output"
grep -q "Not run (--no-estimate)" "$tmp/stdout.html"; check $? "--no-estimate skips the optimizer and says so"
py - "$tmp/tp_shared.html" <<'PY'; check $? "the report: well-formed, no script, findings ranked by cost, the bank conflict's line hot, the plan's diff"
import re, sys, xml.etree.ElementTree as ET
s = open(sys.argv[1], encoding="utf-8").read()
root = ET.fromstring(s[len("<!DOCTYPE html>"):])
assert "<script" not in s and "http://" not in s.replace("http://www.w3.org/2000/svg", "")
rows = [tr for tr in root.iter("tr") if tr.get("id")]
assert len(rows) == 30, len(rows)                                   # every source line
hot = [tr.get("id") for tr in rows if tr.get("class") == "hot"]
assert "L29" in hot, hot                                            # the conflicting read's line
text = "".join(root.itertext())
assert "[bank-conflict] shared load of 'tile'" in text and "32.00 wavefronts/request" in text
i, j = text.index("Findings, ranked"), text.index("Source, line by line")
assert "saves about" in text[i:j]
assert "unroll" in text and "#pragma unroll" in text                # the kept step, in the diff
adds = [sp for sp in root.iter("span") if sp.get("class") == "add"]
assert adds and all((sp.text or "").startswith("+ ") for sp in adds)
PY
"$carve" report examples/tp_shared.cu -D N=256 "$tmp/missing-bench.json" -o "$tmp/x.html" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/x.html" ] && grep -q "cannot read" "$tmp/err"; check $? "a missing bench file: exit 2, nothing written"
"$carve" report "$tmp/oob.cu" -o "$tmp/f.html" 2>/dev/null; rc=$?
[ $rc = 1 ] && [ ! -e "$tmp/f.html" ]; check $? "a faulting kernel: exit 1, no report (exit $rc)"
"$carve" report "$tmp/bad.cu" -o "$tmp/b.html" 2>/dev/null; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/b.html" ]; check $? "an input error: exit 2, no report"

# a bench file (the shape of `carve bench --ncu --format json`): measured time and the counters
cat > "$tmp/bench.json" <<'JS'
{"file": "examples/tp_shared.cu", "kernel": "tp_shared", "device": "NVIDIA H200", "median_ms": 0.0052, "ncu": {"duration_ns": 5100},
 "compare": [{"counter": "global load sectors per request", "ncu": "l1tex", "predicted": 4, "measured": 4, "error": 0.0, "tolerance": 0.05, "flagged": false},
  {"counter": "shared load wavefronts per instruction", "ncu": "l1tex", "predicted": 32, "measured": 8, "error": 3.0, "tolerance": 0.05, "flagged": true},
  {"counter": "achieved occupancy (%)", "ncu": "sm", "predicted": null, "measured": 80, "error": null, "tolerance": 0.2, "flagged": false}],
 "predicted_accesses": []}
JS
"$carve" report examples/tp_shared.cu -D N=256 "$tmp/bench.json" -o "$tmp/m.html" >/dev/null; rc=$?
[ $rc = 0 ]; check $? "report with a bench file: exit $rc"
py - "$tmp/m.html" <<'PY'; check $? "the bench file's time and counters: a predicted-measured plot with the flagged one in red, a table"
import sys, xml.etree.ElementTree as ET
s = open(sys.argv[1], encoding="utf-8").read()
root = ET.fromstring(s[len("<!DOCTYPE html>"):])
ns = "{http://www.w3.org/2000/svg}"
text = "".join(root.itertext())
assert "measured (median)" in text and "5.2 us" in text, "the measured time"
flags = [p for p in root.iter(ns + "path") if p.get("class") == "flag"]
oks = [p for p in root.iter(ns + "path") if p.get("class") == "ok"]
assert len(flags) == 1 and len(oks) == 1, (len(flags), len(oks))      # the null prediction is not drawn
assert any(p.get("class") == "measured" for p in root.iter(ns + "path")) or "No FP32 work" in s
assert "beyond tolerance" in text and "+300%" in text
PY

# the tuning space from carve tune's results (recorded on the H100): the front, the carved, the fastest
"$carve" report examples/sad.cu docs/data/tune-sad-h100-2026-11-24/sad.jsonl --no-estimate -o "$tmp/sad.html" > /dev/null; check $? "report with tuning results"
python3 - "$tmp/sad.html" <<'PY'; check $? "the tuning space: 126 configurations, 33 on the front, 63 timed, the fastest 0.0518 ms"
import re, sys
t = open(sys.argv[1]).read()
sec = t[t.index('<h2 id="tune">'):]
assert "126 valid configurations" in sec and "33 of them on the Pareto front" in sec and "63 timed" in sec, sec[:400]
assert len(re.findall(r'class="front"', sec)) == 33 and len(re.findall(r'class="best"', sec)) == 1
assert "fastest: 0.0518 ms" in sec and "Efficiency (eq. 5.1)" in sec
PY
"$carve" report examples/sad.cu docs/data/tune-sad-h100-2026-11-24/sad.jsonl docs/data/tune-sad-h100-2026-11-24/sad.jsonl --no-estimate -o "$tmp/x.html" 2> "$tmp/e" > /dev/null
[ $? = 2 ] && grep -q "two tuning results files" "$tmp/e" && [ ! -e "$tmp/x.html" ]; check $? "two results files: an error, nothing written"
"$carve" report examples/sad.cu --no-estimate -o "$tmp/none.html" > /dev/null && grep -q "No tuning results given" "$tmp/none.html"; check $? "without results the section says how to get them"

# a whole program: each kernel's first recorded launch gets its report (issue 29: "no grid" before)
"$carve" report tests/programs/mm2.cu --no-estimate -o "$tmp/prog.html" > "$tmp/prog.out" 2> "$tmp/prog.err"; check $? "report on a host program: exit 0 ($(head -c 300 "$tmp/prog.err"))"
[ -s "$tmp/prog.mm2_kernel1.html" ] && [ -s "$tmp/prog.mm2_kernel2.html" ]; check $? "one report per kernel the program launched, named after -o's stem"
grep -q "mm2_kernel2" "$tmp/prog.mm2_kernel2.html" && grep -q "tests/programs/mm2.cu" "$tmp/prog.mm2_kernel2.html"; check $? "the report is of that kernel, in the user's file"
grep -q "launch 2 of 2 distinct: mm2_kernel2" "$tmp/prog.err"; check $? "which recorded launch each report is of, on stderr"
"$carve" report tests/programs/mm2.cu --no-estimate --kernel mm2_kernel2 -o "$tmp/one.html" > /dev/null 2>&1 && [ -s "$tmp/one.html" ] && grep -q "mm2_kernel2" "$tmp/one.html"; check $? "--kernel K: that kernel's report, to -o itself"

echo "report-cli: $pass passed, $fail failed"
[ $fail = 0 ]
