// expect: check 2 4:18: error: unsupported C++: member functions
struct Acc {
  int total;
  __device__ int get() { return total; }
};
__global__ void k(struct Acc *p, int *a) {
  a[0] = p->total;
}
