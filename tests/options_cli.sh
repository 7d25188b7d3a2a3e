#!/bin/bash
# Each command takes only its own options: every option of another command is rejected with
# exit 2 and one line naming the command and the flag; each command's documented options work
# (one run with all of them), in both spellings (--flag VALUE, --flag=VALUE); bad values and
# argument counts are usage errors.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "options-cli: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
f=examples/vv.cu
small="-D H=8 -D W=8"

# the issue's case: bench's and analyze's and estimate's flags given to check
"$carve" check $f --ncu --reps 3 --fail-on warning --regs 32 >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/e")" = "carve check: error: unknown option '--ncu' (see 'carve check --help')" ] && [ ! -s "$tmp/o" ]
check $? "check --ncu: exit 2 and one line naming the command and the flag (got $rc: $(cat "$tmp/e"))"

# one parser (src/options.c) for every command, space and tune included: a typo of one of the
# command's own options is named (at most 2 edits, a transposition one; one-letter options never)
said() {  # said EXPECTED-LINE CARVE-ARGS...: exit 2, that one line on stderr, nothing on stdout
  local want=$1; shift
  "$carve" "$@" >"$tmp/o" 2>"$tmp/e"; local rc=$?
  [ $rc = 2 ] && [ "$(cat "$tmp/e")" = "$want" ] && [ ! -s "$tmp/o" ]; check $? "carve $*: exit 2 with '$want' (got $rc: $(head -c 300 "$tmp/e"))"
}
said "carve analyze: error: unknown option '--kernle' (did you mean '--kernel'?)" analyze $f --kernle vv
said "carve run: error: unknown option '--blocks' (did you mean '--block'?)" run $f --blocks 4
said "carve bench: error: unknown option '--flush-l3' (did you mean '--flush-l2'?)" bench $f --flush-l3
said "carve check: error: unknown option '--kernle' (see 'carve check --help')" check $f --kernle vv
said "carve run: error: unknown option '-K' (see 'carve run --help')" run $f -K x
said "carve tune: error: unknown option '--budgt' (did you mean '--budget'?)" tune examples/mm.cu --budgt 3
said "carve tune: error: unknown option '--stirct' (did you mean '--strict'?)" tune examples/mm.cu --stirct
said "carve space: error: unknown option '--no-bench' (see 'carve space --help')" space examples/mm.cu --no-bench
said "carve space: error: unknown option '--worker=2' (did you mean '--workers'?)" space examples/mm.cu --worker=2
said "carve space: error: --no-metrics takes no value (see 'carve space --help')" space examples/mm.cu --no-metrics=1
said "carve tune: error: --budget needs a whole number (see 'carve tune --help')" tune examples/mm.cu --budget
said "carve tune: error: --strategy is carving, model, exhaustive or random (see 'carve tune --help')" tune examples/mm.cu --strategy=best
# the spellings tune shares with the other commands: -DN=1, -Idir, --name=VALUE
"$carve" space examples/mm.cu -DN=64 -Iexamples --kernel=mm --no-metrics --format=json > "$tmp/o" 2> "$tmp/e"
check $? "space -DN=64 -Iexamples --kernel=mm --format=json: $(head -c 300 "$tmp/e")"
grep -q '"size": [1-9]' "$tmp/o"; check $? "space --no-metrics --format=json prints the size: $(head -c 200 "$tmp/o")"

# every option with a sample value, and the options each command documents (carve COMMAND --help)
values=("-D N=4" "-I ." "--kernel vv" "--format json" "-o $tmp/x" "--grid 1" "--block 32" "--shared 0" "--arg h=8"
        "--out C=$tmp/x" "--max-steps 100" "--no-race-check" "--dump-inputs $tmp/d" "--verify" "--verify-blocks 2" "--ncu"
        "--flush-l2" "--baseline" "--no-baseline" "--emit $tmp/e" "--reps 3" "--timeout 5" "--arch h100" "--blocks 4"
        "--regs 32" "--fail-on warning" "--calibration $tmp/c" "--rank" "--max-seconds 5")
declare -A accepts=(
  [check]="-D -I --format"
  [print]="-D -I --kernel -o"
  [run]="-D -I --kernel --grid --block --shared --arg --arch --out --max-steps --no-race-check --dump-inputs --format"
  [analyze]="-D -I --kernel --grid --block --shared --arg --arch --blocks --format --fail-on --max-steps --max-seconds"
  [estimate]="-D -I --kernel --grid --block --shared --arg --arch --regs --calibration --format --rank --max-steps --max-seconds"
  [bench]="-D -I --kernel --grid --block --shared --arg --reps --flush-l2 --verify --verify-blocks --ncu --baseline --no-baseline --arch --timeout --calibration --format --emit --max-steps --max-seconds"
  [arch]="--format"
  [calibrate]="--out --arch")
for cmd in check print run analyze estimate bench arch calibrate; do
  case $cmd in arch|calibrate) file="";; *) file=$f;; esac
  for v in "${values[@]}"; do
    opt=${v%% *}
    case " ${accepts[$cmd]} " in *" $opt "*) continue;; esac
    "$carve" $cmd $file $v >"$tmp/o" 2>"$tmp/e"; rc=$?
    # unknown, and where one of the command's own options is a typo away, suggested (--blocks to run: --block)
    [ $rc = 2 ] && grep -qxE "carve $cmd: error: unknown option '$opt' \((see 'carve $cmd --help'|did you mean '--[a-z-]+'\?)\)" "$tmp/e" \
      && [ "$(wc -l < "$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ]
    check $? "carve $cmd rejects $opt (got $rc: $(head -c 200 "$tmp/e"))"
  done
  "$carve" $cmd --help >"$tmp/o"; rc=$?
  [ $rc = 0 ] && head -1 "$tmp/o" | grep -q "^usage: carve $cmd"; check $? "carve $cmd --help (exit $rc)"
  "$carve" help $cmd | cmp -s - "$tmp/o"; check $? "carve help $cmd is carve $cmd --help"
  # the usage text names every option the command takes
  for opt in ${accepts[$cmd]}; do
    grep -q -- "$opt" "$tmp/o"; check $? "carve $cmd --help mentions $opt"
  done
done

# each command with all of its options
cal=docs/data/calibration-h200-2026-11-22.json
"$carve" check $f -D H=8 -DW=8 -I . -Iexamples --format json > "$tmp/o"; check $? "check with all its options"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); assert a["kernels"][0]["launch"]["block"]==[16,16,1]' "$tmp/o" 2>/dev/null || ! command -v python3 >/dev/null
check $? "check --format json parses"
"$carve" print $f $small -I . --kernel vv -o "$tmp/p.cu"; check $? "print with all its options"
grep -q "__global__ void vv" "$tmp/p.cu"; check $? "print -o wrote the kernel"
"$carve" run $f $small -I . --kernel vv --grid 1,1 --block=8,8 --shared 0 --arg h=8 --arg 'b=float[8]:fill(2)' --out C="$tmp/c.bin" \
  --max-steps 1e7 --no-race-check --dump-inputs "$tmp/in" --format=json > "$tmp/o"; check $? "run with all its options"
[ "$(stat -c %s "$tmp/c.bin")" = 256 ] && [ -f "$tmp/in/a.bin" ]; check $? "run wrote --out and --dump-inputs"
grep -q '"status": "ok"' "$tmp/o"; check $? "run --format=json"
"$carve" analyze $f $small -I . --kernel vv --grid 1,1 --block 8,8 --shared 0 --arg w=8 --arch g80 --blocks 2 --format sarif --fail-on error > "$tmp/o"
check $? "analyze with all its options"
grep -q '"version": "2.1.0"' "$tmp/o"; check $? "analyze --format sarif"
"$carve" estimate $f $small -I . --kernel vv --grid 1,1 --block 8,8 --shared 0 --arg w=8 --arch h200 --regs 32 --calibration $cal --format json > "$tmp/o"
check $? "estimate with all its options"
grep -q '"ceilings": "calibration file"' "$tmp/o"; check $? "estimate --calibration is read"
"$carve" estimate --rank bench/families/tp_naive.cu bench/families/tp_padded.cu -D N=64 -I . --regs=32 --arch=h100 --format text > "$tmp/o"
check $? "estimate --rank with its options"
CARVE_NVCC=/nonexistent "$carve" bench $f $small -I . --kernel vv --grid 1,1 --block 8,8 --shared 0 --arg w=8 --reps 3 --flush-l2 --verify \
  --verify-blocks 2 --ncu --baseline --no-baseline --arch sm_90 --timeout 5 --calibration $cal --format json --emit "$tmp/emit" > "$tmp/o"
check $? "bench with all its options (--emit needs no toolkit)"
[ -f "$tmp/emit/harness.cu" ]; check $? "bench --emit wrote the harness"
"$carve" arch h100 --format json > "$tmp/o"; check $? "arch with its options"
CARVE_NVCC=/nonexistent "$carve" calibrate --out "$tmp/cal.json" --arch sm_90 2>"$tmp/e"; rc=$?
[ $rc = 3 ] && grep -q "no CUDA toolkit" "$tmp/e"; check $? "calibrate takes --out and --arch (exit 3 without a toolkit, got $rc)"

# bad values, missing values, argument counts: exit 2 and the reason
usage() {  # usage EXPECTED-MESSAGE CARVE-ARGS...
  local want=$1; shift
  "$carve" "$@" >"$tmp/o" 2>"$tmp/e"; local rc=$?
  [ $rc = 2 ] && grep -qF -- "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; check $? "carve $*: exit 2 with '$want' (got $rc: $(head -c 200 "$tmp/e"))"
}
usage "carve check: error: --format takes text or json (see 'carve check --help')" check $f --format sarif
usage "carve analyze: error: --format takes text, json or sarif" analyze $f --format xml
usage "carve arch: error: --format takes text or json" arch --format xml
usage "--regs needs a register count (1-255)" estimate $f --regs 0
usage "--regs needs a register count (1-255)" estimate $f --regs 256
usage "--regs needs a register count (1-255)" estimate $f --regs=12x
usage "--blocks needs a positive number" analyze $f --blocks 0
usage "--reps needs a positive number" bench $f --reps x
usage "--verify-blocks needs a positive number" bench $f --verify-blocks -3
usage "--timeout needs a positive number" bench $f --timeout 99999999999999999999
usage "--fail-on takes warning or error" analyze $f --fail-on never
usage "--shared needs a non-negative byte count" run $f --shared -1
usage "--max-steps needs a positive number" run $f --max-steps 0
usage "--out needs NAME=PATH" run $f --out C
usage "carve run: error: --kernel needs a name" run $f --kernel
usage "carve print: error: -o needs a path" print $f -o
usage "carve estimate: error: --calibration needs a file" estimate $f --calibration
usage "carve bench: error: --verify takes no value" bench $f --verify=1
usage "carve check: error: no input file" check
usage "carve analyze: error: more than one input file ('$f' and 'examples/mm.cu')" analyze $f examples/mm.cu
usage "carve estimate: error: more than one input file" estimate $f examples/mm.cu
usage "carve estimate: error: --rank needs two or more files" estimate --rank $f
usage "carve estimate: error: --kernel and --rank" estimate --rank $f examples/mm.cu --kernel vv
usage "carve estimate: error: unknown --arch 'zz'" estimate $f --arch zz
usage "carve analyze: error: unknown --arch 'zz'" analyze $f --arch zz
usage "carve arch: error: more than one machine name" arch h100 h200
usage "carve calibrate: error: unexpected argument 'x'" calibrate x
usage "carve calibrate: error: unknown option '--calibration'" calibrate --calibration x
"$carve" frobnicate $f >/dev/null 2>"$tmp/e"; [ $? = 2 ] && grep -q "carve: unknown command 'frobnicate'" "$tmp/e"; check $? "unknown command"
"$carve" --version | grep -q "^carve [0-9]"; check $? "--version"
# nvcc's -arch of a part carve does not describe: run says nothing, a model warns and uses the h100
"$carve" run $f -arch=sm_80 > /dev/null 2> "$tmp/e"; [ $? = 0 ] && ! grep -q "warning\|error" "$tmp/e"; check $? "run -arch=sm_80 runs without a warning: $(cat "$tmp/e")"
"$carve" estimate $f -arch=sm_89 > /dev/null 2> "$tmp/e"; [ $? = 0 ] && grep -q "warning: no machine description for sm_89.*modeled as the h100" "$tmp/e"; check $? "estimate -arch=sm_89 warns: $(cat "$tmp/e")"
usage "no machine description for --arch 'sm_21'" run $f --arch sm_21
echo "options-cli: $pass passed, $fail failed"
[ $fail = 0 ]
