// expect: check 2 2:22: error: unsupported: bit-fields
struct Flags { int a : 3; int b : 5; };
__global__ void k(struct Flags *f, int *out) {
  out[0] = f->a;
}
