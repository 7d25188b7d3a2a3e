// expect: check 2 3:17: error: no member named 'q' in 'float4'
__global__ void k(float4 *v, float *out) {
  out[0] = v[0].q;
}
