// expect: check 2 6:11: error: member reference base type 'int' is not a struct
// stderr: 10:10: note: in the instance 'get_x<int>' of the template, required here
#pragma carve launch k grid(1) block(1)
template <typename T>
__device__ float get_x(T v) {
  return v.x;
}
__global__ void k(float *a, float2 *b) {
  a[0] = get_x(b[0]);
  a[1] = get_x(3);
}
