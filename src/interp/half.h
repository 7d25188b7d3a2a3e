/* half: IEEE binary16 arithmetic for the interpreter's __half and __half2 (half.c) */
#ifndef CARVE_HALF_H
#define CARVE_HALF_H
#include "../front/front.h"
#include <stdint.h>

double half_to_double(uint16_t h);                     /* exact */
uint16_t half_from_double(double d);                   /* to nearest even; NaN is 0x7fff */
uint16_t half_fma(uint16_t a, uint16_t b, uint16_t c); /* a*b + c rounded once */
/* one lane of the HOP_* operations whose operands and result are bits (half2: .x low) */
uint64_t half_op(int op, uint64_t a, uint64_t b, uint64_t c);
#endif
