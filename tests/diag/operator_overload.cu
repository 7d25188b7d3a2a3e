// expect: check 2 3:21: error: unsupported C++: operator overloading
struct V { float x; };
__device__ struct V operator+(struct V a, struct V b) { struct V r; r.x = a.x + b.x; return r; }
__global__ void k(float *a) {
  a[0] = 1.0f;
}
