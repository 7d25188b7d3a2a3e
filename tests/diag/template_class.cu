// expect: check 2 3:1: error: unsupported C++: class templates (carve instantiates function templates)
template <typename T>
struct Vec { T x, y; };
__global__ void k(float *a) { a[0] = 1.0f; }
