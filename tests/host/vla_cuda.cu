// A CUDA program whose host code holds its matrices in variable-length arrays, as g++ (nvcc's
// host compiler) accepts them: pointers to VLA rows from malloc with a cast, local VLAs, sizeof
// of VLA types. The kernel transposes and scales; the host checks every element against a
// reference computed in a local 2D VLA.
#include <stdio.h>
#include <stdlib.h>

__global__ void transpose_scale(const float *in, float *out, int rows, int cols, float s) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = s * in[r * cols + c];
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 37, cols = argc > 2 ? atoi(argv[2]) : 23;
  float (*a)[cols] = (float (*)[cols])malloc(sizeof(float[rows][cols]));
  float (*t)[rows] = (float (*)[rows])malloc(rows * sizeof *t * cols / rows);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) a[r][c] = (float)((r * 7 + c * 3) % 17);
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(float[rows][cols]));
  cudaMalloc(&d_out, sizeof(float[cols][rows]));
  cudaMemcpy(d_in, a, sizeof(float[rows][cols]), cudaMemcpyHostToDevice);
  dim3 block(16, 8), grid((cols + 15) / 16, (rows + 7) / 8);
  transpose_scale<<<grid, block>>>(d_in, d_out, rows, cols, 2.0f);
  cudaMemcpy(t, d_out, sizeof(float[cols][rows]), cudaMemcpyDeviceToHost);
  float ref[cols][rows];
  for (int c = 0; c < cols; c++)
    for (int r = 0; r < rows; r++) ref[c][r] = 2.0f * a[r][c];
  int errors = 0;
  double sum = 0;
  for (int c = 0; c < cols; c++)
    for (int r = 0; r < rows; r++) { errors += t[c][r] != ref[c][r]; sum += t[c][r]; }
  printf("vla_cuda %dx%d: %d errors, sum %.1f, %zu bytes per row\n", rows, cols, errors, sum, sizeof ref[0]);
  cudaFree(d_in);
  cudaFree(d_out);
  free(a);
  free(t);
  return errors != 0;
}
