// expect: check 2 3:1025: error: statements nested too deeply (limit 1024, LIMIT_STMT_NESTING
// stderr: too many errors (100): the rest of the file is not read (LIMIT_ERRORS
// setup: { echo '__device__ int f(int a) { return a; }'; echo '__global__ void k(int *p, int x) {'; head -c 20876 /dev/zero | tr '\0' '{'; head -c 32632 /dev/zero | tr '\0' '}'; echo; } >deep.cu
// file: $TMP/deep.cu
// fuzz_front's timeout: 11,756 stray '}' each printed the 53 KB line (266 s); now 100 errors, lines cut.
