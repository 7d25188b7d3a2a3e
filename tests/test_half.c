/* __half semantics against what cuda_fp16.hpp (CUDA 13.0) computes on the GPU: comparisons are
 * PTX setp's (ordered: __hne is false on a NaN), __hmin/__hmax are min/max.f16 (a NaN gives
 * the other operand, -0 < +0), __hdiv is the header's float algorithm (approximate reciprocal,
 * product, correction of tiny results), hsqrt/hrcp round a float result to half. The GPU's
 * approximate instructions are modelled by their correctly rounded values. */
#include "test.h"
#include "../src/interp/half.h"
#include <math.h>
#include <stdint.h>

static bool is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static float to_float(uint16_t h) { return (float)half_to_double(h); }
static uint16_t from_float(float f) { return half_from_double((double)f); }   /* cvt.rn.f16.f32 */

/* cuda_fp16.hpp's device __hdiv, line for line, rcp.approx.ftz.f32 taken as 1.0f / fb */
static uint16_t header_hdiv(uint16_t a, uint16_t b) {
  float fa = to_float(a), fb = to_float(b);
  float rcp = 1.0f / fb;
  float fv = rcp * fa;
  uint16_t v = from_float(fv);
  uint16_t abs = v & 0x7fff;
  if (abs < 0x008f && abs > 0) {   /* __hlt(abs, den) && __hlt(0, abs) */
    float err = fmaf(-fb, fv, fa);
    fv = fmaf(rcp, err, fv);
    v = from_float(fv);
  }
  return v;
}

static uint32_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ull + 1442695040888963407ull; return (uint32_t)(*s >> 33); }

static const uint16_t specials[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001,
                                    0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3555, 0x008f, 0x008e};
#define NSPEC (int)(sizeof specials / sizeof *specials)

static void comparisons(void) {
  int bad = 0;
  for (int i = 0; i < NSPEC; i++)
    for (int j = 0; j < NSPEC; j++) {
      uint16_t a = specials[i], b = specials[j];
      double x = half_to_double(a), y = half_to_double(b);
      bool any_nan = isnan(x) || isnan(y);
      /* setp.{eq,ne,lt,le,gt,ge}.f16: every ordered comparison is false on a NaN */
      bad += half_op(HOP_NE, a, b, 0) != (!any_nan && x != y);
      bad += half_op(HOP_EQ, a, b, 0) != (!any_nan && x == y);
      bad += half_op(HOP_LT, a, b, 0) != (!any_nan && x < y);
      bad += half_op(HOP_GE, a, b, 0) != (!any_nan && x >= y);
    }
  CHECK(bad == 0, "ordered comparisons: %d wrong", bad);
  CHECK(half_op(HOP_NE, 0x7e00, 0x7e00, 0) == 0, "__hne(NaN, NaN) is false (setp.ne is ordered; __hneu is the unordered one)");
  CHECK(half_op(HOP_NE, 0x3c00, 0x7e00, 0) == 0, "__hne(1, NaN) is false");
  CHECK(half_op(HOP_NE, 0x3c00, 0x4000, 0) == 1, "__hne(1, 2) is true");
  CHECK(half_op(HOP_NE, 0x0000, 0x8000, 0) == 0, "__hne(+0, -0) is false");
}

static void min_max(void) {
  CHECK(half_op(HOP_MIN, 0x0000, 0x8000, 0) == 0x8000 && half_op(HOP_MIN, 0x8000, 0x0000, 0) == 0x8000, "__hmin(+0, -0) is -0 either way");
  CHECK(half_op(HOP_MAX, 0x0000, 0x8000, 0) == 0x0000 && half_op(HOP_MAX, 0x8000, 0x0000, 0) == 0x0000, "__hmax(+0, -0) is +0 either way");
  CHECK(half_op(HOP_MIN, 0x7e00, 0x3c00, 0) == 0x3c00 && half_op(HOP_MIN, 0x3c00, 0x7c01, 0) == 0x3c00, "__hmin with one NaN: the other");
  CHECK(half_op(HOP_MAX, 0x7e00, 0xbc00, 0) == 0xbc00, "__hmax with one NaN: the other");
  CHECK(half_op(HOP_MAX, 0x7e00, 0x7c01, 0) == 0x7fff, "__hmax of two NaNs: the canonical NaN");
  CHECK(half_op(HOP_MIN, 0x3c00, 0x4000, 0) == 0x3c00 && half_op(HOP_MAX, 0x3c00, 0x4000, 0) == 0x4000, "min/max of 1 and 2");
  CHECK(half_op(HOP_MIN, 0xfc00, 0x7bff, 0) == 0xfc00, "__hmin(-inf, 65504)");
}

/* carve's division is the correctly rounded quotient; the header's algorithm with a correctly
 * rounded reciprocal gives the same for every pair of finite halves (`test_half --exhaustive`
 * checks all 4.03e9: 0 differ, 6.5 minutes on the 2-core development machine; by default every pair of special values and 2^21
 * random pairs) */
static void division_all(void) {
  long n = 0, bad = 0;
  for (int a = 0; a < 65536; a++) {
    if (((a >> 10) & 31) == 31) continue;
    for (int b = 0; b < 65536; b++) {
      if (((b >> 10) & 31) == 31) continue;
      uint16_t g = header_hdiv((uint16_t)a, (uint16_t)b), c = (uint16_t)half_op(HOP_DIV, (uint64_t)a, (uint64_t)b, 0);
      n++;
      if (g != c && !(is_nan(g) && is_nan(c)) && !bad++) fprintf(stderr, "first difference: %04x / %04x: %04x, carve %04x\n", a, b, g, c);
    }
  }
  printf("__hdiv: %ld pairs of finite halves, %ld differ\n", n, bad);
  CHECK(bad == 0, "__hdiv exhaustively: %ld of %ld pairs differ", bad, n);
}

static void division(void) {
  int bad = 0;
  long n = 0;
  uint16_t first_a = 0, first_b = 0;
  for (int i = 0; i < NSPEC; i++)
    for (int j = 0; j < NSPEC; j++) {
      uint16_t a = specials[i], b = specials[j], g = header_hdiv(a, b), c = (uint16_t)half_op(HOP_DIV, a, b, 0);
      n++;
      if (g != c && !(is_nan(g) && is_nan(c)) && !bad++) { first_a = a; first_b = b; }
    }
  uint64_t s = 12345;
  for (int k = 0; k < (1 << 21); k++) {
    uint16_t a = (uint16_t)lcg(&s), b = (uint16_t)lcg(&s);
    if (is_nan(a) || is_nan(b)) continue;
    uint16_t g = header_hdiv(a, b), c = (uint16_t)half_op(HOP_DIV, a, b, 0);
    n++;
    if (g != c && !(is_nan(g) && is_nan(c)) && !bad++) { first_a = a; first_b = b; }
  }
  CHECK(bad == 0, "__hdiv: %d of %ld pairs differ from cuda_fp16.hpp's algorithm (first %04x / %04x)", bad, n, first_a, first_b);
  CHECK(half_op(HOP_DIV, 0x0001, 0x7bff, 0) == 0x0000 && half_op(HOP_DIV, 0x3c00, 0x0000, 0) == 0x7c00, "division: underflow to 0, 1/0 = inf");
  CHECK(is_nan((uint16_t)half_op(HOP_DIV, 0x0000, 0x0000, 0)), "0/0 is NaN");
}

/* hsqrt and hrcp: sqrt.approx / rcp.approx of the float, then cvt.rn.f16.f32; with the
 * correctly rounded float the result is carve's, for every input */
static void unary(void) {
  int bad = 0, first = -1;
  for (int h = 0; h < 65536; h++) {
    float f = to_float((uint16_t)h);
    uint16_t gs = from_float(sqrtf(f)), gr = from_float(1.0f / f);
    uint16_t cs = (uint16_t)half_op(HOP_SQRT, (uint64_t)h, 0, 0), cr = (uint16_t)half_op(HOP_RCP, (uint64_t)h, 0, 0);
    if ((gs != cs && !(is_nan(gs) && is_nan(cs))) || (gr != cr && !(is_nan(gr) && is_nan(cr)))) { if (first < 0) first = h; bad++; }
  }
  CHECK(bad == 0, "hsqrt/hrcp through float: %d of 65536 inputs differ (first %04x)", bad, first);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--exhaustive")) division_all();
  comparisons();
  min_max();
  division();
  unary();
  return TEST_SUMMARY("test_half");
}
