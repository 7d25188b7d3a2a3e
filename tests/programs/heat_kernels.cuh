/* The kernels of heat.cu, in a source of their own (as programs keep them in kernel.cu or a
 * header the main file includes). */
#ifndef HEAT_KERNELS_CUH
#define HEAT_KERNELS_CUH

__global__ void heat_step(const float *u, float *v, int nx, int ny, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1)
    v[y * nx + x] = u[y * nx + x] + k * (u[y * nx + x - 1] + u[y * nx + x + 1] + u[(y - 1) * nx + x] + u[(y + 1) * nx + x] - 4.0f * u[y * nx + x]);
}

__global__ void heat_copy(float *u, const float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) u[y * nx + x] = v[y * nx + x];
}
#endif
