#!/bin/bash
# docs/DESIGN.md's map matches the tree (issue 31): every path its table names exists (`src/x.[ch]`,
# `pass_*.c`; a name without a directory is in the directory of the cell's path before it), and
# every source file under src/ and every file under tools/ is named by a row. The same reader is
# tested first on a map written here.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "design-map: FAIL: $2"; fail=$((fail+1)); fi; }
if ! command -v python3 >/dev/null 2>&1; then
  echo "design-map: skipped (no python3)"; echo "design-map: 0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/map.py" <<'PY'
import glob, os, re, sys
doc, root = sys.argv[1], sys.argv[2]
os.chdir(root)
named, missing = set(), []
for line in open(doc):
    if not line.startswith('| `'):
        continue
    d = None
    for tok in re.findall(r'`([^`]+)`', line.split('|')[1]):
        if '/' in tok:
            path, d = tok, os.path.dirname(tok.rstrip('/'))
        else:
            path = os.path.join(d, tok) if d else tok
        found = glob.glob(path)
        if not found:
            missing.append(path)
        named.update(p.rstrip('/') for p in found)
files = [f for pat in ('src/**/*.[ch]', 'src/**/*.def', 'src/**/*.inc', 'tools/*')
         for f in glob.glob(pat, recursive=True)]
for f in missing:
    print('named, not in the tree:', f)
for f in sorted(set(files) - named):
    print('in the tree, no row:', f)
PY
# the reader on a small tree: a row for a gone file and a file without a row are both said
mkdir -p "$tmp/t/src/a" "$tmp/t/tools"; touch "$tmp/t/src/a/x.c" "$tmp/t/src/a/x.h" "$tmp/t/src/a/y.c" "$tmp/t/src/a/z.c" "$tmp/t/tools/t.sh"
printf '| file | what |\n| --- | --- |\n| `src/a/x.[ch]`, `y.c` | x |\n| `src/a/gone.c` | g |\n| `tools/t.sh` | t |\n' > "$tmp/t/map.md"
python3 "$tmp/map.py" "$tmp/t/map.md" "$tmp/t" > "$tmp/o"
[ "$(cat "$tmp/o")" = "named, not in the tree: src/a/gone.c
in the tree, no row: src/a/z.c" ]; check $? "the reader finds a gone file and an unnamed one: $(cat "$tmp/o")"
# the tree
python3 "$tmp/map.py" "$PWD/docs/DESIGN.md" "$PWD" > "$tmp/o"
[ ! -s "$tmp/o" ]; check $? "docs/DESIGN.md's map and the tree: $(cat "$tmp/o")"
echo "design-map: $pass passed, $fail failed"
[ $fail = 0 ]
