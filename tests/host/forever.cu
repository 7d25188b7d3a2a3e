// A program whose launch comes before a loop that never ends (a server's event loop, a bug):
// the commands that want only its launches stop it by a wall-clock limit (default 60 s,
// --max-seconds) or an exact step count (--max-steps), never after hours (issue 26, item 9).
__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }
int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  k<<<1, 32>>>(d);
  volatile int x = 0;
  for (;;) x++;
  return 0;
}
