// expect: check 2 2:1: error: unsupported: unions
union Bits { float f; unsigned int u; };
__global__ void k(float *a) {
  a[0] = 1.0f;
}
