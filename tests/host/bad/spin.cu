// Runs forever: stopped at the step limit, not a fault.
__global__ void spin(int *flag) {
  while (flag[0] == 0) { }
}
int main(void) {
  int *f;
  cudaMalloc(&f, sizeof(int));
  cudaMemset(f, 0, sizeof(int));
  spin<<<1, 32>>>(f);
  return 0;
}
