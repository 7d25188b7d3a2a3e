// expect: check 2 3:9: error: const-qualified type 'const float'
__global__ void k(const float *in) {
  in[0] = 1.0f;
}
