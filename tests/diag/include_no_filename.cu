// expect: check 2 2:2: error: #include expects "FILENAME" or <FILENAME>
#include
__global__ void k(int *a) {
  a[0] = 1;
}
