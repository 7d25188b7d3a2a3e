#!/bin/sh
# tools/format-check.sh on a scratch tree with the repository's .clang-format: a formatted file
# passes, an unformatted one fails and is named, a missing clang-format is a visible skip.
# usage: tests/format_check.sh [CARVE]   (the carve binary is not used)
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "format-check: FAIL: $2"; fail=$((fail+1)); fi; }
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format-check: skipped (no clang-format)"
  echo "format-check: 0 passed, 0 failed"
  exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tools" "$t/src/x"
cp "$root/tools/format-check.sh" "$t/tools/"; cp "$root/.clang-format" "$t/"
# the house style: two-space indents, short ifs and functions on one line, case labels at the switch
cat > "$t/src/x/ok.c" <<'C'
/* ok: formatted as .clang-format says */
#include "ok.h"

static int twice(int x) { return 2 * x; }

int pick(int k, int *p) {
  if (!p) return -1;
  switch (k) {
  case 0: return twice(*p);
  default: break;
  }
  return *p;
}
C
printf '/* ok.h */\nint pick(int k, int *p);\n' > "$t/src/x/ok.h"
out=$(sh "$t/tools/format-check.sh"); rc=$?
[ $rc = 0 ]; check $? "a formatted tree: exit $rc, want 0 ($out)"
echo "$out" | grep -q "format: 2 of 2 files formatted"; check $? "a formatted tree: the count ($out)"
# four-space indents and a line of 120 columns: not formatted, and the file is named
printf 'int f(int a) {\n    return a;\n}\nint g(int aaaaaaaaaaaa, int bbbbbbbbbbbbbbbbb, int cccccccccccccccccc, int dddddddddddddddddd, int eeeeeeeeeeeeeeeeeeee);\n' > "$t/src/bad.c"
out=$(sh "$t/tools/format-check.sh"); rc=$?
[ $rc = 1 ]; check $? "an unformatted file: exit $rc, want 1"
echo "$out" | grep -q "src/bad.c is not formatted"; check $? "the unformatted file is named ($out)"
echo "$out" | grep -q "ok.c is not formatted"; [ $? != 0 ]; check $? "a formatted file is not named ($out)"
# clang-format -i makes it pass (the check and the formatter agree)
clang-format -i --style=file:"$t/.clang-format" "$t/src/bad.c"
sh "$t/tools/format-check.sh" >/dev/null; check $? "after clang-format -i the tree passes"
# no clang-format: said, and not a failure
out=$(sh "$t/tools/format-check.sh" /nonexistent/clang-format); rc=$?
[ $rc = 0 ] && [ "$out" = "format: skipped (no clang-format)" ]; check $? "no clang-format: exit $rc, '$out'"
echo "format-check: $pass passed, $fail failed"
[ $fail = 0 ]
