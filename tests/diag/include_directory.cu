// expect: check 2 3:10: error: cannot open include file 'tests/diag/.': Is a directory
// A directory is refused as a directory (it was "Input/output error" from a failed read).
#include "."
__global__ void k(int *a) { a[0] = 1; }
