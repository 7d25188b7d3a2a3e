/* half: IEEE binary16 (CUDA's __half) as the interpreter computes it: what the code of
 * cuda_fp16.hpp (CUDA 13.0, sm_90) computes on the GPU, bit for bit where its PTX is exactly
 * specified (docs/cxx.md lists where it is not). Every operation is done in double and rounded
 * once to half, to nearest even: add/sub/mul.f16 are correctly rounded, and for +, -, *, / and
 * sqrt double rounding is innocuous, because double's 53 bits are at least 2*11 + 2 (Figueroa,
 * "When is double rounding innocuous?", SIGNUM 1995); fma.rn.f16 rounds the exact a*b + c
 * once, through round-to-odd here (Boldo and Melquiond, "Emulation of FMA and correctly
 * rounded sums", IEEE TC 2008). __hdiv goes through float on the GPU (an approximate
 * reciprocal, a product, a correction for tiny results); with a correctly rounded reciprocal
 * that is the correctly rounded quotient for every pair of finite halves (tests/test_half.c).
 * Comparisons are setp's: ordered, so __hne is false when either operand is NaN. NaN results
 * are the canonical 0x7fff (CUDART_NAN_FP16). */
#include "half.h"
#include <math.h>
#include <string.h>

double half_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0x1f) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexp(m, -24);
  else v = ldexp(m | 0x400, e - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t half_from_double(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  if (isnan(d)) return 0x7fff;
  double a = fabs(d);
  if (a >= 65520.0) return sign | 0x7c00; /* 65504 + half an ulp (32) rounds up to infinity */
  if (a < 0x1p-14) return sign | (uint16_t)nearbyint(a * 0x1p24); /* subnormal: steps of 2^-24 */
  int e;
  frexp(a, &e);                                       /* a in [2^(e-1), 2^e) */
  uint32_t m = (uint32_t)nearbyint(ldexp(a, 11 - e)); /* 1024 .. 2048 */
  int biased = e - 1 + 15;
  if (m == 2048) {
    m = 1024;
    biased++;
  }
  if (biased >= 31) return sign | 0x7c00;
  return (uint16_t)(sign | (uint32_t)biased << 10 | (m - 1024));
}

/* x rounded to odd from s = RN(x) and the exact error e = x - s: the neighbour of x, among
 * the two doubles around it, whose last bit is odd (x itself when e is 0) */
static double round_odd(double s, double e) {
  if (e == 0 || !isfinite(s)) return s;
  double lo, hi;
  if ((e > 0) == (s > 0)) {
    lo = s;
    hi = nextafter(s, s > 0 ? INFINITY : -INFINITY);
  } else {
    lo = nextafter(s, 0);
    hi = s;
  }
  uint64_t b;
  memcpy(&b, &lo, 8);
  return (b & 1) ? lo : hi;
}

uint16_t half_fma(uint16_t a, uint16_t b, uint16_t c) {
  double p = half_to_double(a) * half_to_double(b); /* exact: 22 significant bits */
  double q = half_to_double(c);
  double s = p + q;
  if (!isfinite(s)) return half_from_double(s);
  double bb = s - p, e = (p - (s - bb)) + (q - bb); /* TwoSum: s + e == p + q exactly */
  return half_from_double(round_odd(s, e));
}

/* min.f16 / max.f16 (cuda_fp16.hpp's __hmin, __hmax from sm_80): one NaN gives the other
 * operand, two give the canonical NaN, and -0 is below +0 (the header's host path says so:
 * "hmax(+0.0, -0.0) = +0.0"). Equal values with different bits are only the two zeros. */
static uint16_t half_min_max(uint16_t a, uint16_t b, bool max) {
  double x = half_to_double(a), y = half_to_double(b);
  if (isnan(x)) return isnan(y) ? 0x7fff : b;
  if (isnan(y)) return a;
  if (x == y) return max ? (a & b) : (a | b);
  return (max ? x > y : x < y) ? a : b;
}

/* one lane of a half operation on bits (half2: .x in the low 16 bits) */
uint64_t half_op(int op, uint64_t a, uint64_t b, uint64_t c) {
  uint16_t al = (uint16_t)a, bl = (uint16_t)b, cl = (uint16_t)c;
  uint16_t ah = (uint16_t)(a >> 16), bh = (uint16_t)(b >> 16), ch = (uint16_t)(c >> 16);
  double x = half_to_double(al), y = half_to_double(bl);
  switch (op) {
  case HOP_ADD: return half_from_double(x + y);
  case HOP_SUB: return half_from_double(x - y);
  case HOP_MUL: return half_from_double(x * y);
  case HOP_DIV: return half_from_double(x / y);
  case HOP_FMA: return half_fma(al, bl, cl);
  case HOP_NEG: return al ^ 0x8000u;
  case HOP_ABS: return al & 0x7fffu;
  case HOP_MIN: return half_min_max(al, bl, false);
  case HOP_MAX: return half_min_max(al, bl, true);
  case HOP_SQRT: return half_from_double(sqrt(x));
  case HOP_EXP: return half_from_double(exp(x));
  case HOP_LOG: return half_from_double(log(x));
  case HOP_RCP: return half_from_double(1.0 / x);
  case HOP_EQ: return x == y;
  case HOP_NE: return x < y || x > y; /* ordered (setp.ne.f16): false when either is NaN */
  case HOP_LT: return x < y;
  case HOP_LE: return x <= y;
  case HOP_GT: return x > y;
  case HOP_GE: return x >= y;
  case HOP_ADD2: return half_op(HOP_ADD, al, bl, 0) | half_op(HOP_ADD, ah, bh, 0) << 16;
  case HOP_SUB2: return half_op(HOP_SUB, al, bl, 0) | half_op(HOP_SUB, ah, bh, 0) << 16;
  case HOP_MUL2: return half_op(HOP_MUL, al, bl, 0) | half_op(HOP_MUL, ah, bh, 0) << 16;
  case HOP_FMA2: return (uint64_t)half_fma(al, bl, cl) | (uint64_t)half_fma(ah, bh, ch) << 16;
  case HOP_NEG2: return (a ^ 0x80008000u) & 0xffffffffu;
  case HOP_HALVES2H2: return al | (uint64_t)bl << 16;
  case HOP_LOW: return al;
  case HOP_HIGH: return ah;
  default: return 0;
  }
}
