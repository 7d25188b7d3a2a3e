/* the definitions vla_main.c calls: float b[restrict n][m] is float (*restrict b)[m] */
#include <math.h>
void scale(int n, int m, const float a[n][m], float b[restrict n][m]) {
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) b[i][j] = 2 * a[i][j];
}
double norm1(int n, int m, float (*restrict x)[m]) {
  double s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) s += fabs(x[i][j]);
  return s;
}
