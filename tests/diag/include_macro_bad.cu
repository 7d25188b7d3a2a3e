// expect: check 2 3:10: error: #include expects "FILENAME" or <FILENAME> (the macro 'BAD' expands to neither)
#define BAD 42
#include BAD
__global__ void k(float *a) { a[0] = 1.0f; }
