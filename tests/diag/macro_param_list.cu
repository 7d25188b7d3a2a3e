// expect: check 2 2:14: error: expected a parameter name in macro definition
#define F(a, ) a
__global__ void k(int *a) {
  a[0] = 1;
}
