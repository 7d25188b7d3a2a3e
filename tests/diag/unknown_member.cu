// expect: check 2 5:14: error: no member named 'z' in 'struct P'
struct P { float x, y; };
__global__ void k(struct P *p, float *out) {
  struct P q = p[0];
  out[0] = q.z;
}
