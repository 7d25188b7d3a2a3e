#!/usr/bin/env bash
# tests/diag/run.sh [CARVE]: run carve on every malformed or unsupported input in tests/diag/
# and check the diagnostic it gives.  CARVE defaults to ./carve (paths relative to the repo
# root, where the script runs).  Run it under a sanitizer build with
#   make build-san/carve && tests/diag/run.sh build-san/carve
#
# Each case is one small .cu file whose leading comment lines say what is expected:
#   // expect: CMD EXIT LINE:COL: SEVERITY: TEXT
#       CMD is check or run; EXIT the exit status (2 front-end/usage error, 1 kernel fault);
#       stderr must hold a line starting "FILE:LINE:COL: SEVERITY: " with TEXT later on it.
#       LOC "carve" instead of LINE:COL means a diagnostic with no source position
#       ("carve: SEVERITY: ...", for command-line flags).
#       EXIT 0 is for a warning on an input that otherwise loads.
#   // flags: FLAGS        (optional) extra flags, put between CMD and FILE
#   // stdout: TEXT        (optional) stdout must contain TEXT (e.g. a kernel still listed)
#   // stderr: TEXT        (optional) stderr must contain TEXT (e.g. the source line quoted)
#   // setup: COMMAND      (optional) a shell command run first in a scratch directory, whose
#                          path is $TMP (to make inputs too large or too deep to keep in git)
#   // file: PATH          (optional) run carve on PATH instead of this file, and expect the
#                          diagnostic at PATH ($TMP expands; e.g. a directory, /dev/zero)
# Whatever is expected, carve must not crash: exit status 0, 1 or 2 only (never >= 128, which
# is a signal), no sanitizer report, and it must finish within $DIAG_TIMEOUT seconds (10).
set -u
cd "$(dirname "$0")/../.." || exit 2
CARVE=${1:-./carve}
TIMEOUT=${DIAG_TIMEOUT:-10}
if [ ! -x "$CARVE" ]; then echo "diag: carve binary '$CARVE' not found (run make)" >&2; exit 2; fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# report FILE WHY: one failure line (DIAG_VERBOSE=1 adds carve's stderr, indented)
report() {
  echo "FAIL $1: $2"
  if [ -n "${DIAG_VERBOSE:-}" ] && [ -s "$tmp/err" ]; then sed 's/^/    | /' "$tmp/err"; fi
  fail=$((fail + 1))
}

for f in tests/diag/*.cu; do
  expect=$(sed -n '1,6{s|^// expect: ||p}' "$f" | head -n 1)
  flags=$(sed -n '1,6{s|^// flags: ||p}' "$f" | head -n 1)
  want_out=$(sed -n '1,6{s|^// stdout: ||p}' "$f" | head -n 1)
  want_err=$(sed -n '1,6{s|^// stderr: ||p}' "$f" | head -n 1)
  setup=$(sed -n '1,6{s|^// setup: ||p}' "$f" | head -n 1)
  input=$(sed -n '1,6{s|^// file: ||p}' "$f" | head -n 1)
  scratch="$tmp/scratch"
  rm -rf "$scratch" && mkdir -p "$scratch"
  input=${input//\$TMP/$scratch}
  flags=${flags//\$TMP/$scratch}
  input=${input:-$f}
  if [ -z "$expect" ]; then report "$f" "no '// expect:' directive"; continue; fi

  # CMD EXIT LOC: SEVERITY: TEXT
  read -r cmd code rest <<<"$expect"
  loc=${rest%%: *}; rest=${rest#*: }
  sev=${rest%%: *}; text=${rest#*: }
  case "$cmd" in check|run) ;; *) report "$f" "bad directive: unknown command '$cmd'"; continue ;; esac
  case "$code" in 0|1|2) ;; *) report "$f" "bad directive: exit status '$code' (0, 1 or 2)"; continue ;; esac
  case "$sev" in error|warning|note) ;; *) report "$f" "bad directive: severity '$sev'"; continue ;; esac
  if [ "$loc" = carve ]; then prefix="carve: $sev: "
  elif [[ "$loc" =~ ^[0-9]+:[0-9]+$ ]]; then prefix="$input:$loc: $sev: "
  else report "$f" "bad directive: location '$loc' (LINE:COL or carve)"; continue; fi

  if [ -n "$setup" ] && ! (cd "$scratch" && TMP="$scratch" bash -c "$setup") >"$tmp/err" 2>&1; then
    report "$f" "setup failed: $setup"; continue
  fi
  # shellcheck disable=SC2086  # flags are split on purpose
  timeout -k 5 "$TIMEOUT" "$CARVE" "$cmd" $flags "$input" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  shown="'${prefix}...$text...' (exit $code)"

  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then report "$f" "HANG: no answer in ${TIMEOUT}s; expected $shown"; continue; fi
  if [ $rc -ge 128 ]; then report "$f" "CRASH: killed by signal $((rc - 128)); expected $shown"; continue; fi
  if grep -q -e 'AddressSanitizer' -e 'LeakSanitizer' -e 'runtime error' "$tmp/err"; then
    report "$f" "CRASH: sanitizer report: $(grep -m1 -e 'AddressSanitizer' -e 'LeakSanitizer' -e 'runtime error' "$tmp/err")"
    continue
  fi
  if [ $rc -gt 2 ]; then report "$f" "exit $rc (only 0, 1 or 2 allowed); expected $shown"; continue; fi
  if [ $rc -eq 0 ] && [ "$code" != 0 ]; then report "$f" "ACCEPTED: exit 0, no error; expected $shown"; continue; fi

  # a stderr line that starts with the prefix and holds TEXT after it
  found=$(awk -v p="$prefix" -v t="$text" \
    'index($0, p) == 1 && index(substr($0, length(p) + 1), t) { print "y"; exit }' "$tmp/err")
  problems=()
  [ "$rc" -ne "$code" ] && problems+=("exit $rc, expected $code")
  if [ -z "$found" ]; then
    got=$(grep -m1 -E ': (error|warning): ' "$tmp/err")
    problems+=("expected $shown; got '${got:-no diagnostic}'")
  fi
  if [ -n "$want_out" ] && ! grep -qF -- "$want_out" "$tmp/out"; then
    problems+=("stdout lacks '$want_out'")
  fi
  if [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$tmp/err"; then
    problems+=("stderr lacks '$want_err'")
  fi
  if [ ${#problems[@]} -eq 0 ]; then pass=$((pass + 1))
  else
    msg=$(printf '%s; ' "${problems[@]}")
    report "$f" "${msg%; }"
  fi
done

echo "diag: $pass passed, $fail failed"
[ $fail -eq 0 ]
