// expect: check 2 5:37: error: the number of tokens made for the translation unit exceeds the limit of 8388608 tokens (LIMIT_TOKENS
// Seven nested calls of a macro that repeats its argument ten times make 10^7 tokens from
// 117 bytes; the token budget stops it (once 3.7 KB per expanded token, 18.8 GB for this file).
#define X(a) a a a a a a a a a a
__global__ void k(int *p) { int s = X(X(X(X(X(X(X(1))))))); }
