/* C99 VLA parameters across two C files (with vla_util.c): prototypes with [*], const and
 * restrict in the brackets, a typedef of a VLA type whose count changes after it */
#include <stdio.h>
#include <stdlib.h>
void scale(int n, int m, const float a[n][m], float b[*][*]);
double norm1(int, int, float (*)[*]);
int main(void) {
  int n = 4, m = 3;
  float (*a)[m] = malloc(sizeof *a * n), (*b)[m] = malloc(n * sizeof(float[m]));
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i][j] = i - j;
  scale(n, m, (const float (*)[m])a, b);
  typedef int T[n];
  n++;
  T t;
  printf("%g %zu %zu %g\n", norm1(n - 1, m, b), sizeof(T), sizeof t, b[3][0]);
  return 0;
}
