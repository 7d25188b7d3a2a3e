// FLT_MAX as <float.h> spells it (3.40282347e+38F) is the largest float, not infinity: a float
// constant is rounded to float in one step (bench/holdout5/repro/fltmax.cu read it as inf).
#include <stdio.h>
#include <float.h>
#include <math.h>
__global__ void k(float *out) {
  float m = -FLT_MAX;
  out[0] = m;
  out[1] = FLT_MAX;
  out[2] = 3.4028235e38f;  /* rounds to FLT_MAX too */
  out[3] = 0x1.fffffep127f;
  out[4] = FLT_MIN;
}
int main(void) {
  float h[5], *d;
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  float host = -FLT_MAX;
  printf("host %s\n", !isinf(host) && host == -3.4028234663852886e+38 ? "ok" : "bad");
  printf("device %s\n", h[0] == -3.4028234663852886e+38f && h[1] == h[2] && h[2] == h[3] &&
                          !isinf(h[1]) && h[4] == 1.17549435e-38f ? "ok" : "bad");
  cudaFree(d);
  return 0;
}
