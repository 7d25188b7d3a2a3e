// expect: check 2 2:18: error: '#' is not followed by a macro parameter
#define STR(x)   #y
__global__ void k(int *a) {
  a[0] = 1;
}
