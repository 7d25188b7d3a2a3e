#!/bin/bash
# tools/rewrap-comments.py: comments over 100 columns rewrapped, nothing else changed. A file with
# each kind of comment (a one-line block, a paragraph, a table's row, //, one after code, one in
# a macro) and a string that looks like a comment is rewrapped to the text expected here; the
# string and the macro's line stay over the limit; run again it changes nothing.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "rewrap-comments: FAIL: $2"; fail=$((fail+1)); fi; }
if ! command -v python3 >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
  echo "rewrap-comments: skipped (no python3 or cc)"; echo "rewrap-comments: 0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.c" <<'C'
/* a block comment whose single line is far too long for the column limit of one hundred columns, so wrapped */
int x; /* a trailing comment after code that pushes this line well past the limit of one hundred columns */
const char *s = "/* not a comment: a string that is long enough to pass the column limit of one hundred */";
/* a paragraph whose first line runs past the limit of one hundred columns because it is long enough and
 * whose second line is prose and takes the rest. */
/* rows:
 *   name.c    what it holds, a description long enough to run past the limit of one hundred columns here
 *   other.c   another row */
// a line comment that is much too long for the limit of one hundred columns and so it wraps onto the
// next line of its own comment
#define M(a) \
  ((a) + 1) /* a comment in a macro long enough to pass the limit of one hundred columns, left as is */
C
cat > "$tmp/want.c" <<'C'
/* a block comment whose single line is far too long for the column limit of one hundred columns, so
 * wrapped */
/* a trailing comment after code that pushes this line well past the limit of one hundred columns */
int x;
const char *s = "/* not a comment: a string that is long enough to pass the column limit of one hundred */";
/* a paragraph whose first line runs past the limit of one hundred columns because it is long enough
 * and whose second line is prose and takes the rest. */
/* rows:
 *   name.c    what it holds, a description long enough to run past the limit of one hundred columns
 *             here
 *   other.c   another row */
// a line comment that is much too long for the limit of one hundred columns and so it wraps onto
// the next line of its own comment
#define M(a) \
  ((a) + 1) /* a comment in a macro long enough to pass the limit of one hundred columns, left as is */
C
python3 tools/rewrap-comments.py "$tmp/a.c" > "$tmp/o" 2>&1; check $? "the tool's exit: $(cat "$tmp/o")"
grep -q "a.c: 7 -> 2 lines over 100" "$tmp/o"; check $? "it says what it did: $(cat "$tmp/o")"
diff "$tmp/want.c" "$tmp/a.c" > "$tmp/d"; check $? "the rewrapped text: $(cat "$tmp/d")"
cp "$tmp/a.c" "$tmp/b.c"; python3 tools/rewrap-comments.py "$tmp/a.c" > "$tmp/o"
cmp -s "$tmp/a.c" "$tmp/b.c" && [ ! -s "$tmp/o" ]; check $? "a second run changes nothing: $(cat "$tmp/o")"
# the tree's own files stay as they are where no comment is over the limit (src/hash.h)
python3 tools/rewrap-comments.py --check src/hash.h > "$tmp/o"; [ ! -s "$tmp/o" ]; check $? "hash.h needs nothing: $(cat "$tmp/o")"
echo "rewrap-comments: $pass passed, $fail failed"
[ $fail = 0 ]
