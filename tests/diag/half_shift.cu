// expect: check 2 3:44: error: invalid operands to shift ('__half' and 'int')
#include <cuda_fp16.h>
__global__ void k(__half *h) { h[0] = h[1] << 1; }
