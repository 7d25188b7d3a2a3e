// expect: check 2 1:261: error: constant expression nested too deeply (limit 256, LIMIT_EXPR_NESTING
// setup: { printf '#if '; head -c 200000 /dev/zero | tr '\0' '!'; echo 0; echo '#endif'; } >deep.cu
// file: $TMP/deep.cu
// 200000 prefix operators in #if: the token-level constant evaluator bounds its recursion (it crashed).
