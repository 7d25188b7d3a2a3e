/* Helpers shared by the naive whole programs in this folder (written for carve's tests in the
 * style of public naive GPU benchmark suites: sizes as macros, a CPU reference, a relative
 * comparison, a verdict). */
#ifndef PROGRAMS_COMMON_H
#define PROGRAMS_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

static float absVal(float a) { return a < 0 ? -a : a; }

static float percentDiff(double val1, double val2) {
  if (absVal(val1) < 0.01 && absVal(val2) < 0.01) return 0.0f;
  return 100.0f * absVal(absVal(val1 - val2) / absVal(val1 + 0.00000001f));
}

static int compareResults(const float *ref, const float *got, int n, const char *what) {
  int fail = 0;
  for (int i = 0; i < n; i++)
    if (percentDiff(ref[i], got[i]) > PERCENT_DIFF_ERROR_THRESHOLD) fail++;
  printf("%s: %d of %d elements differ by more than %.2f%%\n", what, fail, n, PERCENT_DIFF_ERROR_THRESHOLD);
  return fail;
}
#endif
