/* a project header included with angle brackets and found through -I (tests/cxx/run.sh) */
#ifndef SAXPY_UTIL_H
#define SAXPY_UTIL_H
#define SAXPY_BLOCK 128
static __device__ __forceinline__ float axpy1(float a, float x, float y) { return a * x + y; }
#endif
