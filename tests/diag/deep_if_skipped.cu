// expect: check 2 400003:2: error: #error reached the end
// setup: { echo '#if 0'; yes '#if 1' | head -n 200000; yes '#endif' | head -n 200000; echo '#endif'; echo '#error reached the end'; } >deep.cu
// file: $TMP/deep.cu
// 200000 conditionals nested in a skipped block are skipped by a loop, not a recursion per level.
