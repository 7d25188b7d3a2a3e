/* C99 variable-length arrays as host code uses them, valid C: tests/host/run.sh compiles it with
 * the system's C compiler too and compares the outputs byte for byte. Pointers to VLAs from
 * malloc (a .c file: void * converts implicitly), VLA parameters (int n, int m, float a[n][m]),
 * sizeof evaluated at run time, local VLAs in loops and recursion, row pointer arithmetic,
 * typedefs and casts of VLA types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pt { int x, y; };

static void fill(int n, int m, float a[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = i * 100 + j;
}
static double total(int n, int m, float a[][m]) {
  double s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) s += a[i][j];
  return s;
}
static float corner(int n, int m, float (*a)[m]) { return a[n - 1][m - 1]; }
static int sum3(int a, int b, int c, int (*x)[b][c]) {
  int s = 0;
  for (int i = 0; i < a; i++) for (int j = 0; j < b; j++) for (int k = 0; k < c; k++) s += x[i][j][k] * (i + 1);
  return s;
}
static int local_sum(int n) {
  int v[n];
  for (int i = 0; i < n; i++) v[i] = i * i;
  int s = 0;
  for (int i = 0; i < n; i++) { if (i == 7) return s + 1000; s += v[i]; }
  return s;
}
static int fact_vla(int n) {   /* recursion: each frame its own VLA */
  int v[n + 1];
  v[n] = n;
  if (n <= 1) return 1;
  int r = v[n] * fact_vla(n - 1);
  return r + v[n] - n;
}
static void early(int n, int *out) {
  double d[n][2];
  d[0][0] = 1;
  if (n < 3) { *out = (int)sizeof d; return; }
  *out = (int)(sizeof d + sizeof d[0]);
}

int main(void) {
  int n = 3, m = 5;
  float (*a)[m] = malloc(sizeof(float[n][m]));
  fill(n, m, a);
  printf("sizes %zu %zu %zu %zu\n", sizeof(float[n][m]), sizeof *a, sizeof a[0], sizeof(a[1][2]));
  printf("values %g %g %g %.1f\n", a[2][4], a[1][0], corner(n, m, a), total(n, m, a));
  /* pointer arithmetic on rows */
  float (*p)[m] = a;
  p++;
  printf("p++ %g\n", p[0][1]);
  ++p;
  printf("++p %g %ld\n", (*p)[3], (long)(p - a));
  p -= 2;
  p += 1;
  printf("p+=-= %g %g %ld\n", (*(p + 1))[2], *(*(a + 2) + 3), (long)(&a[2] - p));
  float (*q)[m] = p--;
  printf("post %g %g\n", q[0][0], p[0][0]);
  /* a size fixed at the declaration */
  int k = 4;
  int v[k];
  k = 100;
  for (int i = 0; i < 4; i++) v[i] = i + k;
  printf("sizeof v %zu %d %zu\n", sizeof v, v[3], sizeof(int[k]));
  /* local 2D and 3D VLAs, in a loop */
  long acc = 0;
  for (int r = 1; r <= 4; r++) {
    int b[r][r + 1];
    for (int i = 0; i < r; i++) for (int j = 0; j <= r; j++) b[i][j] = i * 10 + j;
    memset(b[0], 0, sizeof b[0]);
    int c[2][r][3];
    for (int i = 0; i < 2; i++) for (int j = 0; j < r; j++) for (int t = 0; t < 3; t++) c[i][j][t] = i + j + t;
    acc += b[r - 1][r] + (long)sizeof b + (long)sizeof c + sum3(2, r, 3, c);
  }
  printf("loop %ld\n", acc);
  /* a typedef of a VLA type, and casts of a flat buffer */
  typedef double row_t[m];
  row_t *rows = (row_t *)calloc(n, sizeof(row_t));
  rows[1][2] = 7.5;
  double *flat = (double *)rows;
  printf("typedef %zu %g %g\n", sizeof(row_t), flat[1 * m + 2], ((double (*)[m])flat)[1][2]);
  /* VLA of structs, chars */
  struct pt pts[n];
  for (int i = 0; i < n; i++) { pts[i].x = i; pts[i].y = i * i; }
  char buf[n * 8];
  snprintf(buf, sizeof buf, "%d-%d", pts[2].x, pts[2].y);
  printf("structs %s %zu %zu\n", buf, sizeof pts, strlen(buf));
  int out1, out2;
  early(2, &out1);
  early(5, &out2);
  printf("funcs %d %d %d %d\n", local_sum(5), local_sum(10), fact_vla(6), out1 + out2);
  /* iterating over rows; sizeof evaluates an operand of VLA type (C11 6.5.3.4p2) */
  double s = 0;
  for (float (*r)[m] = a; r < a + n; r++) s += (*r)[m - 1];
  int i = 0;
  size_t sz = sizeof a[i++];
  size_t sz2 = sizeof(a[i++][0]);   /* not a VLA: not evaluated */
  printf("rows %g %zu %zu %d\n", s, sz, sz2, i);
  /* a size whose count changes between uses of the same type name */
  size_t sizes = 0;
  for (int c = 1; c <= 3; c++) sizes += sizeof(char[c][c + 1]);
  printf("sizes %zu\n", sizes);
  free(rows);
  free(a);
  return 0;
}
