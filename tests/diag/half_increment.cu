// expect: check 2 4:7: error: unsupported: '++' and '--' on '__half'
#include <cuda_fp16.h>
__global__ void k(__half *h) {
  h[0]++;
}
