#!/bin/bash
# Every '#pragma carve' keyword (read from src/front/spec.c, so a new one fails here until it is
# documented) and every exit status (read from src/main.c's header comment) is documented in
# both the man page and the Markdown docs: docs/launch-spec.md for the keywords, README.md and
# 'carve --help' for the exit statuses.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "docs: FAIL: $2"; fail=$((fail+1)); fi; }
man=docs/carve.1; md=docs/launch-spec.md
# the line keywords (spec_line's tok_equal(t, ...)) and the words inside lines (tok_equal(tok|u, ...))
lines=$(grep -o 'tok_equal(t, "[a-z_]*")' src/front/spec.c | sed 's/.*"\(.*\)")/\1/' | sort -u)
words=$(grep -o 'tok_equal(\(tok\|u\|u->next\), "[a-z_]*")' src/front/spec.c | sed 's/.*"\(.*\)")/\1/' | sort -u)
names=$(sed -n 's/.*static const char \*names\[\] = {\(.*\)};/\1/p' src/front/spec.c | tr -d '", ' | tr -s '{}' ' ')
[ "$(echo $lines | wc -w)" -ge 5 ]; check $? "keywords read from spec.c: '$lines'"
for k in $lines $words; do
  grep -q "\b$k\b" "$md"; check $? "'$k' (a #pragma carve keyword) is not in $md"
  sed 's/\\f[BIRP]//g; s/\\-/-/g' "$man" | grep -q "\b$k\b"; check $? "'$k' (a #pragma carve keyword) is not in $man"
done
for b in $(sed -n 's/.*static const char \*names\[\] = {\([^}]*\)};/\1/p' src/front/spec.c | tr -d '",'); do
  grep -q "\b$b(" "$md"; check $? "baseline '$b' is not in $md"
  sed 's/\\f[BIRP]//g' "$man" | grep -q "\b$b(" ; check $? "baseline '$b' is not in $man"
done
# exit statuses: "Exit status: 0 ..., 1 ..., 2 ..., 3 ..." in main.c's header
codes=$(sed -n '1,6p' src/main.c | grep -o '[0-9] [a-z][a-z ]*' | cut -c1 | sort -u | tr '\n' ' ')
[ "$codes" = "0 1 2 3 " ]; check $? "exit statuses read from src/main.c: '$codes'"
exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man")
help=$("$carve" --help)
for c in $codes; do
  echo "$exits" | grep -q "^\.B $c\$"; check $? "exit status $c is not in the man page's EXIT STATUS"
  grep -qi "exit status.*\b$c [a-z]" README.md || sed -n '/^Exit status/,/^$/p' README.md | grep -q "\b$c [a-z]"; check $? "exit status $c is not in README.md"
  echo "$help" | sed -n '/exit status/,$p' | grep -q "\b$c [a-z]"; check $? "exit status $c is not in 'carve --help'"
done
# every pass (its .name in src/opt, so a new pass fails here until it is listed) in optimize's
# --help, as generated from the pass table, in the man page, and in the order the table runs them
opt_help=$("$carve" optimize --help)
passes=$(grep -ho '^ *\.name = "[a-z]*"' src/opt/pass_*.c src/opt/canon.c | sed 's/.*"\(.*\)"/\1/')
[ "$(echo $passes | wc -w)" -ge 10 ]; check $? "passes read from src/opt: '$passes'"
for k in $passes; do
  echo "$opt_help" | grep -q "^  $k  *[a-z#]"; check $? "pass '$k' is not listed by 'carve optimize --help'"
  sed 's/\\f[BIRP]//g' "$man" | grep -q "\b$k\b"; check $? "pass '$k' is not in $man"
done
listed=$(echo "$opt_help" | sed -n '/^passes, in the order/,$p' | grep -o '^  [a-z]*' | tr -d ' ' | tr '\n' ' ')
case "$listed" in "canon "*) true;; *) false;; esac; check $? "optimize --help lists canon first: '$listed'"
echo "docs: $pass passed, $fail failed"
[ $fail = 0 ]
