#!/bin/bash
# Files carve writes and reads beside the kernel (issue #11, items 5, 6, 10, 12): --out and -o
# through a fresh temporary renamed over the target (never a planted link, never a device or
# FIFO replaced), several --out files all or none, failed writes (standard output included) are
# exit 2, and a calibration file that is missing, unreadable, oversized or malformed is an error.
carve=$(realpath "${1:-./carve}")
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "output-cli: FAIL: $2"; fail=$((fail+1)); fi; }
skip() { echo "output-cli: skipped: $1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
f=$PWD/examples/vv.cu
run() { "$carve" run "$f" -D H=8 -D W=8 "$@"; }
"$carve" print "$f" > "$tmp/expected.cu"
run --out C="$tmp/expected.bin" > /dev/null

# several --out files: all or none
d=$tmp/allornone; mkdir "$d"
run --out C="$d/ok.bin" --out a=/nonexistentdir/a.bin >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ -z "$(ls -A "$d")" ]; check $? "--out ok.bin --out /nonexistentdir/a.bin: exit 2 and nothing written (got $rc; $(ls -A "$d"))"
grep -q "cannot write '/nonexistentdir/a.bin': No such file or directory" "$tmp/e"; check $? "names the file and why: $(cat "$tmp/e")"
echo old > "$d/ok.bin"; mkdir "$d/dir"
run --out C="$d/ok.bin" --out a="$d/dir" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ "$(cat "$d/ok.bin")" = old ] && [ "$(ls -A "$d" | tr '\n' ' ')" = "dir ok.bin " ]
check $? "--out onto a directory: exit 2, the other file keeps its contents, no temporary left (got $rc)"
grep -q "cannot write '$d/dir': it is a directory" "$tmp/e"; check $? "says it is a directory: $(cat "$tmp/e")"
run --out C="$d/ok.bin" --out a="$d/a.bin" --out b="$d/b.bin" > /dev/null; check $? "three --out files"
cmp -s "$d/ok.bin" "$tmp/expected.bin" && [ "$(stat -c %s "$d/a.bin")" = 32 ] && [ "$(stat -c %s "$d/b.bin")" = 32 ]
check $? "all three written"
"$carve" run tests/diag/oob_global_read.cu --out out="$d/fault.bin" >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && [ ! -e "$d/fault.bin" ]; check $? "a faulting launch writes no --out file (exit $rc)"

# a link planted where the old temporary name was, links, dangling links
d=$tmp/links; mkdir "$d"; cd "$d" || exit 2
echo precious > victim; ln -s victim out.bin.carve-tmp
run --out C=out.bin >/dev/null; check $? "--out beside a planted link"
[ "$(cat victim)" = precious ] && cmp -s out.bin "$tmp/expected.bin"; check $? "the planted link's target is untouched, out.bin is right"
[ "$(ls -A | tr '\n' ' ')" = "out.bin out.bin.carve-tmp victim " ]; check $? "no temporary left: $(ls -A)"
echo old > real.cu; ln -s real.cu link.cu
"$carve" print "$f" -o link.cu; check $? "-o through a symbolic link"
[ -L link.cu ] && cmp -s real.cu "$tmp/expected.cu"; check $? "the link stays a link, the file it names is written"
ln -s missing dangling.cu
"$carve" print "$f" -o dangling.cu 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && [ ! -e missing ] && grep -q "a symbolic link to a missing file" "$tmp/e"; check $? "a link to nothing is refused (got $rc: $(cat "$tmp/e"))"
"$carve" print "$f" -o . 2>/dev/null; [ $? = 2 ]; check $? "-o onto a directory: exit 2"
cd - >/dev/null || exit 2

# the mode: a new file's from the umask, an existing file's kept
d=$tmp/mode; mkdir "$d"
(umask 027; "$carve" print "$f" -o "$d/new.cu"); [ "$(stat -c %a "$d/new.cu")" = 640 ]; check $? "a new file gets 0666 less the umask ($(stat -c %a "$d/new.cu"))"
echo x > "$d/old.cu"; chmod 751 "$d/old.cu"; "$carve" print "$f" -o "$d/old.cu"
[ "$(stat -c %a "$d/old.cu")" = 751 ]; check $? "a replaced file keeps its mode ($(stat -c %a "$d/old.cu"))"

# a FIFO is written in place, not replaced
d=$tmp/fifo; mkdir "$d"; mkfifo "$d/pipe"
timeout 20 cat "$d/pipe" > "$d/got" & reader=$!
timeout 20 "$carve" print "$f" -o "$d/pipe"; rc=$?
wait $reader
[ $rc = 0 ] && [ -p "$d/pipe" ] && cmp -s "$d/got" "$tmp/expected.cu"; check $? "-o FIFO: written in place, still a FIFO (exit $rc)"

# character devices: written in place, never replaced; a failed write is exit 2. As root a
# rename could replace /dev/full itself, so root tests a copy of the device made with mknod.
if [ "$(id -u)" = 0 ]; then
  if mknod "$tmp/full" c 1 7 2>/dev/null && mknod "$tmp/null" c 1 3 2>/dev/null; then full=$tmp/full; null=$tmp/null
  else full=; null=; skip "character devices (root without mknod)"; fi
else full=/dev/full; null=/dev/null; fi
if [ -n "$full" ] && [ -c "$full" ] && [ -w "$full" ]; then
  "$carve" print "$f" -o "$null"; rc=$?; [ $rc = 0 ] && [ -c "$null" ]; check $? "-o $null: exit 0, still a character device"
  "$carve" print "$f" -o "$full" 2>"$tmp/e"; rc=$?
  [ $rc = 2 ] && [ -c "$full" ] && grep -q "cannot write '$full': No space left on device" "$tmp/e"
  check $? "-o $full: exit 2, still a character device (got $rc: $(cat "$tmp/e"))"
  d=$tmp/dev; mkdir "$d"
  run --out a="$d/a.bin" --out C="$full" >/dev/null 2>&1; rc=$?
  [ $rc = 2 ] && [ -z "$(ls -A "$d")" ]; check $? "--out onto a full device with another --out: exit 2, neither written (got $rc)"
  run --dump-inputs "$d/in" --out C="$null" >/dev/null; check $? "--out onto $null"
fi

# standard output: a failed write is an error
if [ -c /dev/full ] && [ -w /dev/full ]; then
  for cmd in "print $f" "run $f -D H=8 -D W=8" "analyze $f -D H=8 -D W=8" "check $f" "estimate $f -D H=8 -D W=8 --regs 32" "arch h100" "--help"; do
    "$carve" $cmd >/dev/full 2>"$tmp/e"; rc=$?
    [ $rc = 2 ] && grep -q "cannot write to standard output: No space left on device" "$tmp/e"; check $? "carve $cmd >/dev/full: exit 2 (got $rc: $(cat "$tmp/e"))"
  done
else
  skip "standard output on /dev/full (no /dev/full)"
fi
"$carve" check "$f" >&- 2>/dev/null; [ $? = 2 ]; check $? "closed standard output: exit 2"

# --dump-inputs: every buffer or none
d=$tmp/dump; mkdir -p "$d/b.bin"
run --dump-inputs "$d" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && [ ! -e "$d/a.bin" ] && [ ! -e "$d/C.bin" ]; check $? "--dump-inputs with one name taken by a directory: exit 2, none written (got $rc)"

# the calibration file
cal=docs/data/calibration-h200-2026-11-22.json
head -c 4096 /dev/urandom > "$tmp/random"; printf '{"copy_gbps": 12' > "$tmp/broken"; echo '{}' > "$tmp/empty"
echo '[{"copy_gbps": 1}]' > "$tmp/array"; echo '{"copy_gbps": -4, "fp32_gflops": 1}' > "$tmp/negative"
head -c 1100000 /dev/zero | tr '\0' ' ' > "$tmp/big"; (cat "$cal"; head -c 1100000 /dev/zero | tr '\0' ' ') > "$tmp/bigvalid"
cp "$cal" "$tmp/unreadable"; chmod 000 "$tmp/unreadable"
bad() {  # bad FILE WHY: estimate with --calibration FILE exits 2 naming it and why
  timeout 20 "$carve" estimate "$f" -D H=8 -D W=8 --regs 32 --arch h200 --calibration "$1" >"$tmp/o" 2>"$tmp/e"; local rc=$?
  [ $rc = 2 ] && [ ! -s "$tmp/o" ] && grep -qF "carve estimate: calibration file '$1': $2" "$tmp/e"
  check $? "--calibration $1: exit 2, '$2' (got $rc: $(head -c 200 "$tmp/e"))"
}
bad /nonexistent/calibration.json "No such file or directory"
bad "$tmp/random" "not JSON"
bad "$tmp/broken" "not JSON: ',' or '}' expected at line 1, column 17"
bad "$tmp/empty" "none of the measurements carve reads"
bad "$tmp/array" "not a JSON object"
bad "$tmp/negative" '"copy_gbps" is not a positive number'
bad /dev/zero "not a regular file"
bad "$tmp" "a directory"
bad "$tmp/big" "larger than 1 MiB"
bad "$tmp/bigvalid" "larger than 1 MiB"
if [ "$(id -u)" != 0 ]; then bad "$tmp/unreadable" "Permission denied"; else skip "an unreadable calibration file (root reads it)"; fi
"$carve" estimate "$f" -D H=8 -D W=8 --regs 32 --arch h200 --calibration "$cal" | grep -q "ceilings from the calibration file"; check $? "a calibration file is read"
CARVE_CALIBRATION=/nonexistent/c.json "$carve" estimate "$f" --regs 32 >/dev/null 2>&1; [ $? = 2 ]; check $? "\$CARVE_CALIBRATION naming a missing file: exit 2"
HOME=$tmp/home CARVE_CALIBRATION= "$carve" estimate "$f" -D H=8 -D W=8 --regs 32 | grep -q "ceilings from the machine description"
check $? "no calibration file at the default place: the machine description"
mkdir -p "$tmp/home/.cache/carve"; cp "$tmp/broken" "$tmp/home/.cache/carve/calibration.json"
HOME=$tmp/home CARVE_CALIBRATION= "$carve" estimate "$f" --regs 32 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "calibration.json': not JSON" "$tmp/e"; check $? "a broken default calibration file: exit 2 (got $rc)"
CARVE_CALIBRATION=/dev/zero timeout 20 "$carve" arch h100 >/dev/null 2>&1; [ $? = 2 ]; check $? "arch with \$CARVE_CALIBRATION=/dev/zero: exit 2, no hang"
CARVE_CALIBRATION=$tmp/random "$carve" bench "$f" --emit "$tmp/emit" >/dev/null 2>&1; [ $? = 2 ]; check $? "bench with a random calibration file: exit 2"
CARVE_CALIBRATION=$cal "$carve" arch h200 --format json | python3 -c 'import json,sys; assert json.load(sys.stdin)["calibration"]["copy_gbps"] > 0' 2>/dev/null \
  || ! command -v python3 >/dev/null; check $? "arch --format json embeds the calibration"
# issue 11 item 7: an --arg error is said once, not formatted into the buffer it reads
err=$("$carve" run examples/vv.cu --arg 'a=float[10]:nope' 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$err" = "carve: error: --arg a=float[10]:nope: unknown initializer 'nope' (expected zeros, fill, iota, random or file)" ]
check $? "an --arg error reads cleanly: $err"
# "-" is standard output for every command that writes a file with -o: no file named "-"
( cd "$tmp" && "$carve" print "$f" -o - > print.out && "$carve" optimize "$f" -o - > opt.out 2> /dev/null )
rc=$?
[ $rc = 0 ] && [ ! -e "$tmp/-" ] && cmp -s "$tmp/print.out" "$tmp/expected.cu" && grep -q "carve optimize" "$tmp/opt.out"
check $? "print -o - and optimize -o - write standard output, no file named '-' (exit $rc)"
echo "output-cli: $pass passed, $fail failed"
[ $fail = 0 ]
