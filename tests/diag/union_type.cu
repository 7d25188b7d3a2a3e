// expect: check 2 2:1: error: unsupported: unions
union Bits { float f; unsigned int u; };
__global__ void k(union Bits *b, float *a) {
  a[0] = b->f;
}
