// One buffer bound to both pointers (alias(out)), as tests/sound/acc_alias.cu's program launches
// it: each thread reads and writes its own element, so the kernel is defined; 1 becomes 16. Used
// by the mutation test (tests/test_opt.c): scalar replacement that ignores the aliasing is caught.
#ifndef N
#define N 1024
#endif
#pragma carve launch acc grid((N + 255) / 256) block(256)
#pragma carve arg out = float[N] : fill(1) out
#pragma carve arg in = alias(out)
#pragma carve arg n = N
#pragma carve arg reps = 4

__global__ void acc(float *out, const float *in, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int r = 0; r < reps; r++) out[i] += in[i];
}
