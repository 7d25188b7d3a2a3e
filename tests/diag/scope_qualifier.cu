// expect: check 2 3:10: error: use of undeclared function 'mylib::norm'
__global__ void k(float *a) {
  a[0] = mylib::norm(a[1]) + std::sqrt(a[2]);
}
