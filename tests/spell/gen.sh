#!/bin/bash
# gen.sh FILE.cu OUTDIR: equivalent spellings of a bundled kernel, one file each, for the spelling
# suite (tests/spell/run.sh). Each spelling is one rewrite of the source text that keeps the
# computation (bit for bit: no floating-point operation is reordered) and changes only how it
# is written, the way people write the same kernel:
#   loopvar   the first counted loop's counter declared before the loop: `int i; for (i = 0; ...)`
#   le        the first counted loop's `i < E` as `i <= E - 1`
#   while     the first counted loop with a one-statement body as `int i = S; while (i < E) { ...; i++; }`
#   tile      blockIdx.d * blockDim.d spelled with the launch's block size: `blockIdx.x * 16`
#   swap      the two thread-index declarations in the other order
#   unsigned  the thread indices declared `unsigned int`
#   early     the guard `if (c) { ... }` around the rest of the kernel as `if (!(c)) return; ...`
#   nested    a guard `if (a && b) {` as `if (a) if (b) {`
#   global    an accumulator `float s = 0.0f; for (...) s += e; OUT[i] = s;` accumulated in OUT[i]
#   ptrrow    a load `A[r * w + k]` in a loop over k through a pointer row `const T *A_row = A + r * w`
#   declfirst the accumulator declared first in the kernel, before the thread indices
#   shape     another block shape: block(16, 16) over grid((X+15)/16, (Y+15)/16) as block(32, 8)
#             over grid((X+31)/32, (Y+7)/8), block(128 or 256) over (X+127)/128 as 64 over (X+63)/64
#   alias     the thread indices through a tutorial's names: `int tx = threadIdx.x, bx = blockIdx.x;`
#             declared before the first index, which reads `bx * blockDim.x + tx`
#   deref     in the line after the first counted loop, a load `P[e]` as `*(P + e)`
#   compound  the first accumulation `s += e;` into a register as `s = s + (e);`
#   commute   the same as `s = (e) + s;`
# A rewrite whose pattern the file does not have writes nothing; the files written are listed
# on standard output (one path a line). Only bash, sed and awk are needed.
set -u
f=$1
out=$2
mkdir -p "$out"
base=$(basename "$f" .cu)

emit() {   # emit NAME: stdin is the spelling; kept only if it differs from the original
  local name=$1 tmp="$out/$base.$1.cu"
  cat > "$tmp"
  if cmp -s "$tmp" "$f"; then rm -f "$tmp"; else echo "$tmp"; fi
}

# the first `for (int V = S; V < E; V++)` line's number, variable
first_for=$(grep -nE '^[[:space:]]*for \(int [A-Za-z_][A-Za-z0-9_]* = [^;]*; [A-Za-z_][A-Za-z0-9_]* < [^;]*; [A-Za-z_][A-Za-z0-9_]*\+\+\)' "$f" | head -1 | cut -d: -f1)
if [ -n "$first_for" ]; then
  var=$(sed -n "${first_for}p" "$f" | sed -E 's/^[[:space:]]*for \(int ([A-Za-z_][A-Za-z0-9_]*) = .*/\1/')
  # the loop stands in a statement list (not the body of an if or loop without braces): the line
  # before it ends a statement or opens a block
  prev=$(sed -n "$((first_for - 1))p" "$f" | sed -E 's:/\*.*\*/::; s/[[:space:]]*$//')
  inlist=1; case "$prev" in *'{'|*';'|*'}') inlist=0;; esac
  # declared once in the file: a counter moved out of its loop cannot collide with another
  if [ $inlist = 0 ] && [ "$(grep -cE "for \(int $var = " "$f")" = 1 ]; then
    sed -E "${first_for}s/for \(int ($var) = /int \1; for (\1 = /" "$f" | emit loopvar
  fi
  sed -E "${first_for}s/; ($var) < ([^;]*);/; \1 <= \2 - 1;/" "$f" | emit le
  # while: the body is the next line, one statement
  [ $inlist = 0 ] && awk -v L="$first_for" -v V="$var" '
    NR == L { line = $0; if (match(line, /for \(int [^;]*;/) == 0) { print; next }
              ind = line; sub(/for.*/, "", ind)
              init = line; sub(/.*for \(/, "", init); sub(/;.*/, "", init)
              cond = line; sub(/^[^;]*; /, "", cond); sub(/;.*/, "", cond)
              rest = line; sub(/.*\+\+\)/, "", rest)
              if (rest !~ /^[[:space:]]*$/) { print; next }
              getline body
              if (body ~ /^[[:space:]]*\{/ || body !~ /;[[:space:]]*(\/\*.*\*\/)?[[:space:]]*$/) { print; print body; next }
              print ind init ";"; print ind "while (" cond ") {"; print body; print ind "    " V "++;"; print ind "}"; next }
    { print }' "$f" | emit while
fi

# tile: the launch's block sizes in place of blockDim
launch=$(grep -m1 -E '^#pragma carve launch' "$f")
if [ -n "$launch" ] && echo "$launch" | grep -q 'block('; then
  blk=$(echo "$launch" | sed -E 's/.*block\(([^)]*)\).*/\1/')
  bx=$(echo "$blk" | cut -d, -f1 | tr -d ' ')
  by=$(echo "$blk" | cut -s -d, -f2 | tr -d ' ')
  if echo "$bx" | grep -qE '^[A-Za-z0-9_]+$'; then
    s="s/blockIdx\.x \* blockDim\.x/blockIdx.x * $bx/g"
    if [ -n "$by" ] && echo "$by" | grep -qE '^[A-Za-z0-9_]+$'; then s="$s; s/blockIdx\.y \* blockDim\.y/blockIdx.y * $by/g"; fi
    sed -E "$s" "$f" | emit tile
  fi
fi

# swap and unsigned: the thread-index declarations
ix=$(grep -nE '^[[:space:]]*int [A-Za-z_][A-Za-z0-9_]* = blockIdx\.[xy] \* blockDim\.[xy] \+ threadIdx\.[xy];' "$f" | cut -d: -f1)
nix=$(echo "$ix" | grep -c .)
if [ "$nix" = 2 ]; then
  a=$(echo "$ix" | head -1); b=$(echo "$ix" | tail -1)
  if [ $((b - a)) = 1 ]; then
    awk -v A="$a" 'NR == A { hold = $0; next } NR == A + 1 { print; print hold; next } { print }' "$f" | emit swap
  fi
fi
if [ "$nix" -ge 1 ]; then
  sed -E '/^[[:space:]]*int [A-Za-z_][A-Za-z0-9_]* = blockIdx\.[xy] \* blockDim\.[xy] \+ threadIdx\.[xy];/s/^([[:space:]]*)int /\1unsigned int /' "$f" | emit unsigned
fi

# early: `if (c) {` whose closing brace is the kernel's last statement
awk '
  { l[NR] = $0 }
  END {
    start = 0
    for (i = 1; i <= NR; i++) if (l[i] ~ /^__global__/) start = i
    if (!start) { for (i = 1; i <= NR; i++) print l[i]; exit }
    # the kernel ends at the first line "}" after start
    end = 0
    for (i = start; i <= NR; i++) if (l[i] ~ /^\}/) { end = i; break }
    g = 0
    for (i = start; i < end; i++) if (l[i] ~ /^    if \(.*\) \{[[:space:]]*$/) { g = i; break }
    if (!g || l[end - 1] !~ /^    \}[[:space:]]*$/) { for (i = 1; i <= NR; i++) print l[i]; exit }
    # the braces between g and end-1 balance: the if encloses exactly those lines
    depth = 0
    for (i = g; i < end - 1; i++) { t = l[i]; o = gsub(/\{/, "{", t); c = gsub(/\}/, "}", t); depth += o - c; if (depth <= 0 && i > g) break }
    if (i != end - 1 || depth != 1) { for (i = 1; i <= NR; i++) print l[i]; exit }
    cond = l[g]; sub(/^    if \(/, "", cond); sub(/\) \{[[:space:]]*$/, "", cond)
    for (i = 1; i <= NR; i++) {
      if (i == g) print "    if (!(" cond ")) return;"
      else if (i == end - 1) continue
      else if (i > g && i < end - 1) { t = l[i]; sub(/^    /, "", t); print t }
      else print l[i]
    }
  }' "$f" | emit early

# nested: a guard with one && (and no ||) split into two ifs
sed -E '0,/^    if \(([^&|()]*(\([^()]*\))?[^&|()]*) && ([^&|]*)\) \{[[:space:]]*$/s//    if (\1) if (\3) {/' "$f" | emit nested

# global and declfirst: `T s = 0...;` just before a for, `s += e;` in it, `OUT[i] = s;` after
awk '
  { l[NR] = $0 }
  END {
    d = 0
    for (i = 1; i < NR; i++)
      if (l[i] ~ /^[[:space:]]*float [A-Za-z_][A-Za-z0-9_]* = 0(\.0f?)?f?;[[:space:]]*$/ && l[i + 1] ~ /^[[:space:]]*for \(/) { d = i; break }
    if (!d) { for (i = 1; i <= NR; i++) print l[i]; exit }
    s = l[d]; sub(/^[[:space:]]*float /, "", s); sub(/ =.*/, "", s)
    # the only uses: the declaration, one `s += e;` line, one `X[...] = s;` line
    upd = 0; st = 0; n = 0
    for (i = 1; i <= NR; i++) {
      t = l[i]; k = gsub("[^A-Za-z0-9_]" s "[^A-Za-z0-9_]", "&", t); n += k
      if (l[i] ~ ("^[[:space:]]*" s " \\+= .*;[[:space:]]*$")) upd = i
      if (l[i] ~ ("^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*\\[[^]]*\\] = " s ";")) st = i
    }
    if (!upd || !st || n != 3 || upd < d || st < upd) { for (i = 1; i <= NR; i++) print l[i]; exit }
    lhs = l[st]; sub(/^[[:space:]]*/, "", lhs); sub(" = " s ";.*", "", lhs)
    ind = l[d]; sub(/[^[:space:]].*/, "", ind)
    for (i = 1; i <= NR; i++) {
      if (i == d) print ind lhs " = 0.0f;"
      else if (i == upd) { t = l[i]; sub(s " \\+= ", lhs " += ", t); print t }
      else if (i == st) continue
      else print l[i]
    }
  }' "$f" | emit global
awk '
  { l[NR] = $0 }
  END {
    d = 0; open = 0
    for (i = 1; i <= NR; i++) if (l[i] ~ /^__global__/) { open = i + 1; break }
    for (i = 1; i < NR; i++)
      if (l[i] ~ /^[[:space:]]*float [A-Za-z_][A-Za-z0-9_]* = 0(\.0f?)?f?;[[:space:]]*$/ && l[i + 1] ~ /^[[:space:]]*for \(/) { d = i; break }
    if (!d || !open || l[open] !~ /^\{/ || d == open + 1) { for (i = 1; i <= NR; i++) print l[i]; exit }
    t = l[d]; sub(/^[[:space:]]*/, "    ", t)
    for (i = 1; i <= NR; i++) { if (i == d) continue; print l[i]; if (i == open) print t }
  }' "$f" | emit declfirst

# ptrrow: in the line after the first counted loop, P[R * W + V] with V its counter
if [ -n "$first_for" ]; then
  nxt=$((first_for + 1))
  m=$(sed -n "${nxt}p" "$f" | grep -oE "[A-Za-z_][A-Za-z0-9_]*\[[A-Za-z_][A-Za-z0-9_]* \* [A-Za-z_][A-Za-z0-9_]* \+ $var\]" | head -1)
  if [ -n "$m" ]; then
    p=$(echo "$m" | sed -E 's/\[.*//')
    off=$(echo "$m" | sed -E "s/^[^[]*\[(.*) \+ $var\]$/\1/")
    ty=$(grep -m1 -oE "(const )?[a-z]+ \*$p[,)]" "$f" | sed -E "s/ \*$p[,)]//")
    if [ -n "$ty" ] && ! echo "$off" | grep -qw "$var"; then
      ind=$(sed -n "${first_for}p" "$f" | sed -E 's/[^[:space:]].*//')
      awk -v L="$first_for" -v decl="${ind}${ty} *${p}_row = ${p} + ${off};" -v from="$m" -v to="${p}_row[$var]" '
        NR == L { print decl }
        NR == L + 1 { i = index($0, from); if (i) $0 = substr($0, 1, i - 1) to substr($0, i + length(from)) }
        { print }' "$f" | emit ptrrow
    fi
  fi
fi

# alias: the index declarations read tx/ty/bx/by, declared just before the first of them
if [ "$nix" -ge 1 ] && ! grep -qwE 'tx|ty|bx|by' "$f"; then
  a=$(echo "$ix" | head -1)
  ind=$(sed -n "${a}p" "$f" | sed -E 's/[^[:space:]].*//')
  awk -v A="$a" -v decl="${ind}int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;" '
    NR == A { print decl }
    /^[[:space:]]*int [A-Za-z_][A-Za-z0-9_]* = blockIdx\.[xy] \* blockDim\.[xy] \+ threadIdx\.[xy];/ {
      gsub(/blockIdx\.x/, "bx"); gsub(/blockIdx\.y/, "by"); gsub(/threadIdx\.x/, "tx"); gsub(/threadIdx\.y/, "ty") }
    { print }' "$f" | emit alias
fi

# deref: in the line after the first counted loop, the first load P[e] (e without brackets) as *(P + e)
if [ -n "$first_for" ]; then
  nxt=$((first_for + 1))
  m=$(sed -n "${nxt}p" "$f" | grep -oE "[A-Za-z_][A-Za-z0-9_]*\[[^][]*\]" | head -1)
  if [ -n "$m" ] && grep -qE "\*${m%%[*}[,)]" "$f"; then
    p=${m%%[*}; e=${m#*[}; e=${e%]}
    awk -v L="$nxt" -v from="$m" -v to="*(${p} + ${e})" '
      NR == L { i = index($0, from); if (i) $0 = substr($0, 1, i - 1) to substr($0, i + length(from)) }
      { print }' "$f" | emit deref
  fi
fi

# compound and commute: the first `s += e;` with s a plain name
acc=$(grep -nE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]* \+= [^;]*;[[:space:]]*(/\*.*\*/)?[[:space:]]*$' "$f" | head -1 | cut -d: -f1)
if [ -n "$acc" ]; then
  sed -E "${acc}s/^([[:space:]]*)([A-Za-z_][A-Za-z0-9_]*) \+= ([^;]*);/\1\2 = \2 + (\3);/" "$f" | emit compound
  sed -E "${acc}s/^([[:space:]]*)([A-Za-z_][A-Za-z0-9_]*) \+= ([^;]*);/\1\2 = (\3) + \2;/" "$f" | emit commute
fi

# shape: the same threads in blocks of another shape (kernels that read only global indices)
if ! grep -qE '__shared__|__syncthreads|__shfl|gridDim|atomic' "$f"; then
  sed -E '/^#pragma carve launch/{
    s/grid\(\(([^)+]*)\+15\)\/16, \(([^)+]*)\+15\)\/16\) block\(16, 16\)/grid((\1+31)\/32, (\2+7)\/8) block(32, 8)/
    s/grid\(\(([^)+]*)\+255\)\/256\) block\(256\)/grid((\1+63)\/64) block(64)/
    s/grid\(\(([^)+]*)\+127\)\/128\) block\(128\)/grid((\1+63)\/64) block(64)/
  }' "$f" | emit shape
fi
