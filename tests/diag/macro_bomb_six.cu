// expect: check 2 5:49: error: expected ';' before '1'
// Six nested calls expand to 10^6 tokens: within the limits, expanded in well under a second
// and 141 MB (it took 3.77 GB and 3.9 s before tokens were made once); the sum is then not C.
#define X(a) a a a a a a a a a a
__global__ void k(int *p) { int s = X(X(X(X(X(X(1)))))); }
