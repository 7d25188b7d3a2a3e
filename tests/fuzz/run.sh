#!/usr/bin/env bash
# tests/fuzz/run.sh [CARVE]: the fuzzers build (CI builds every target it documents) and replay
# their regression inputs. fuzz_cli is plain C and always built; fuzz_front needs clang with
# libFuzzer (FUZZ_CC, default clang) and is skipped, visibly, without it.
#   - fuzz_cli: built, its usage checked, and a short run with a fixed seed over the bundled
#     examples must work end to end (it finds what it finds: the run's findings are not judged
#     here, `make fuzz-cli` is where they are kept)
#   - fuzz_front: built, and every regression input (tests/fuzz/regress) and seed replayed
#     through the harness (-runs=0): no crash, no sanitizer report, no round-trip failure; and
#     through its preprocessor-only mode (FUZZ_PP_ONLY=1), whose oracle checks every token's
#     place lies in its file's text
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0 fail=0 skip=0
check() { if [ "$1" = 0 ]; then pass=$((pass + 1)); else echo "fuzz: FAIL: $2"; fail=$((fail + 1)); fi; }

out=$(make -s build/fuzz/fuzz_cli 2>&1); check $? "make build/fuzz/fuzz_cli: $out"
build/fuzz/fuzz_cli >/dev/null 2>&1; check $(( $? == 2 ? 0 : 1 )) "fuzz_cli without arguments exits 2 (usage)"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$(build/fuzz/fuzz_cli -carve "${1:-./carve}" -seconds 3 -seed 1 -out "$tmp/cli" examples/vv.cu 2>&1)
echo "$out" | grep -q -E '^fuzz-cli: [0-9]+ executions in'; check $? "fuzz_cli runs and reports: $out"

cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "fuzz: fuzz_front skipped ($cc not found)"
  skip=$((skip + 1))
else
  out=$(make -s build/fuzz/fuzz_front 2>&1); rc=$?
  check $rc "make build/fuzz/fuzz_front with $cc: $(echo "$out" | grep -m3 -E 'error|warning')"
  if [ $rc = 0 ]; then
    # the host-program and C++ corpora are seeds too (read where they are, not copied; libFuzzer takes folders)
    out=$(build/fuzz/fuzz_front -runs=0 tests/fuzz/regress tests/fuzz/seeds examples tests/host tests/cxx 2>&1)
    check $? "fuzz_front replays its regression inputs: $(echo "$out" | grep -m3 -E 'ERROR|SUMMARY|printed|stable')"
    out=$(FUZZ_PP_ONLY=1 build/fuzz/fuzz_front -runs=0 tests/fuzz/regress tests/fuzz/seeds examples tests/diag tests/host tests/cxx 2>&1)
    check $? "fuzz_front (FUZZ_PP_ONLY) replays them: $(echo "$out" | grep -m3 -E 'ERROR|SUMMARY|outside')"
  fi
fi
echo "fuzz: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
