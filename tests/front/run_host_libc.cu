// The C library that PolyBench- and Rodinia-style host code calls, interpreted by carve (issue 29):
// struct timezone with gettimeofday, strcat/strncat/strchr/strrchr/strstr, usleep, assert.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <assert.h>
#include <unistd.h>
#include <time.h>
#include <sys/time.h>
#define N 64
__global__ void root(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = sqrtf((float)i);
}
double rtclock() {
  struct timezone Tzp;
  struct timeval Tp;
  int stat = gettimeofday(&Tp, &Tzp);
  if (stat != 0) printf("Error return from gettimeofday: %d", stat);
  return Tp.tv_sec + Tp.tv_usec * 1.0e-6;
}
int main() {
  double t0 = rtclock();
  float *h = (float *)malloc(N * sizeof(float)), *d;
  assert(h != NULL);
  cudaMalloc((void **)&d, N * sizeof(float));
  root<<<1, N>>>(d, N);
  cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  double e = 0;
  for (int i = 0; i < N; i++) e += fabs(h[i] - sqrt((double)i));
  char buf[64];
  strcpy(buf, "ab");
  strcat(buf, "cd");
  strncat(buf, "efgh", 2);
  int strings = !strcmp(buf, "abcdef") && strchr(buf, 'c') == buf + 2 && strrchr(buf, 'z') == NULL &&
                strstr(buf, "de") == buf + 3 && strstr(buf, "x") == NULL;
  usleep(10);
  printf("time %s, strings %s, error %s\n", rtclock() - t0 >= 0 ? "ok" : "bad", strings ? "ok" : "bad", e < 1e-3 ? "ok" : "bad");
  free(h);
  cudaFree(d);
  return 0;
}
