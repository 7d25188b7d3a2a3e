#!/bin/sh
# The format check: every C file under src/ as .clang-format formats it (clang-format --dry-run
# --Werror, which names each place that differs). Exit 0 when the tree is formatted, 1 when a file
# is not; without clang-format it says so and exits 0.
# usage: tools/format-check.sh [CLANG_FORMAT]   (default: $CLANG_FORMAT, else clang-format)
cd "$(dirname "$0")/.." || exit 2
cf=${1:-${CLANG_FORMAT:-clang-format}}
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "format: skipped (no clang-format)"
  exit 0
fi
files=$(find src -name '*.[ch]' | sort)
bad=0
for f in $files; do
  "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || { echo "format: $f is not formatted (clang-format -i $f)"; bad=$((bad + 1)); }
done
n=$(echo "$files" | wc -l)
echo "format: $((n - bad)) of $n files formatted"
[ "$bad" -eq 0 ]
