// expect: check 2 4:10: error: cannot convert '__half2' to 'float'
#include <cuda_fp16.h>
__global__ void k(__half2 *h, float *o) {
  o[0] = h[0];
}
