// A multi-kernel pipeline with time-stepping: a 2D heat equation (Jacobi stencil, buffers
// swapped every step), the total heat by a shared-memory reduction every few steps.
#include <stdio.h>
#include <stdlib.h>

#define BX 16
#define BY 8

__global__ void init_grid(float *u, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) {
    int cx = nx / 2, cy = ny / 2;
    u[y * nx + x] = (abs(x - cx) < 3 && abs(y - cy) < 3) ? 100.0f : 0.0f;
  }
}

__global__ void step(const float *u, float *v, int nx, int ny, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) {
    if (x < nx && y < ny) v[y * nx + x] = u[y * nx + x];
    return;
  }
  int i = y * nx + x;
  v[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - 4.0f * u[i]);
}

__global__ void total(const float *u, float *sum, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? u[i] : 0.0f;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}

int main(void) {
  const int nx = 64, ny = 48, steps = 120;
  const float alpha = 0.2f;
  size_t bytes = nx * ny * sizeof(float);
  float *u, *v, *sum;
  cudaMalloc(&u, bytes);
  cudaMalloc(&v, bytes);
  cudaMallocManaged(&sum, sizeof(float));
  dim3 block(BX, BY), grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  init_grid<<<grid, block>>>(u, nx, ny);
  for (int t = 1; t <= steps; t++) {
    step<<<grid, block>>>(u, v, nx, ny, alpha);
    float *tmp = u; u = v; v = tmp;
    if (t % 40 == 0) {
      *sum = 0.0f;
      total<<<(nx * ny + 255) / 256, 256>>>(u, sum, nx * ny);
      cudaDeviceSynchronize();
      printf("step %3d: total heat %.3f\n", t, *sum);
    }
  }
  float *h = (float *)malloc(bytes);
  cudaMemcpy(h, u, bytes, cudaMemcpyDeviceToHost);
  printf("centre %.4f, corner %.4f\n", h[(ny / 2) * nx + nx / 2], h[0]);
  cudaFree(u); cudaFree(v); cudaFree(sum);
  free(h);
  return 0;
}
