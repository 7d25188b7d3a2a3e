// C++ host code carve's front end does not read (a struct with a member function, a reference,
// std::vector): carve runs it built by nvcc, and `carve optimize` writes the kernel's launch back
// from its tokens. The launch comes before the kernel's definition (a prototype at the top).
#include <cmath>
#include <cstdio>
#include <vector>

#ifndef ROWS
#define ROWS 256
#endif
#ifndef COLS
#define COLS 256
#endif

__global__ void rowsum(const float *a, float *y, int rows, int cols);

struct Problem {
  int rows, cols;
  size_t bytes() const { return (size_t)rows * cols * sizeof(float); }
};

static void launch(const Problem &p, const float *da, float *dy) {
  rowsum<<<(p.rows + 127) / 128, 128>>>(da, dy, p.rows, p.cols);
}

int main() {
  Problem p{ROWS, COLS};
  std::vector<float> a((size_t)p.rows * p.cols), y(p.rows);
  for (size_t i = 0; i < a.size(); i++) a[i] = (float)((i * 7) % 13) / 4.0f - 1.5f;
  float *da, *dy;
  cudaMalloc(&da, p.bytes());
  cudaMalloc(&dy, p.rows * sizeof(float));
  cudaMemcpy(da, a.data(), p.bytes(), cudaMemcpyHostToDevice);
  launch(p, da, dy);
  cudaMemcpy(y.data(), dy, p.rows * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < p.rows; r++) {
    double ref = 0;
    for (int c = 0; c < p.cols; c++) ref += a[(size_t)r * p.cols + c];
    if (std::fabs(y[r] - ref) > 1e-3 * (1 + std::fabs(ref))) bad++;
  }
  printf("rowsum: %s\n", bad ? "FAILED" : "PASSED");
  cudaFree(da);
  cudaFree(dy);
  return bad != 0;
}

__global__ void rowsum(const float *a, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += a[r * cols + c];
    y[r] = s;
  }
}
