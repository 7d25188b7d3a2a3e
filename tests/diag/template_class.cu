// expect: check 2 3:16: error: unsupported C++: data members of a class template (member functions are)
template <typename T>
struct Vec { T x, y; };
__global__ void k(float *a) { Vec<float> v; a[0] = 1.0f; }
