/* host_lib.c: the parts of the host runtime (host.c) that need no allocation table: printf's
 * conversions, glibc's rand (so a program's random inputs match its native run), and the
 * whole-program check's log of device-to-host copies (interp.h, shared with the nvcc route's
 * runtime, src/rt/cudart.c). */
#include "host.h"
#include <string.h>

/* printf's conversions over the arguments from k on; HC_ERROR with *msg on a bad format */
HostStatus host_format(HostCtx *c, Buf *out, const char *f, const Val *args, Type **tys, int nargs,
                       int k, const char **msg) {
  for (const char *p = f; *p; p++) {
    if (*p != '%') {
      buf_putc(out, *p);
      continue;
    }
    if (p[1] == '%') {
      buf_putc(out, '%');
      p++;
      continue;
    }
    char spec[40];
    int sl = 0;
    spec[sl++] = *p++;
    while (*p && strchr("-+ #0", *p) && sl < 8) spec[sl++] = *p++;
    for (int part = 0; part < 2; part++) {
      if (part && *p == '.') spec[sl++] = *p++;
      else if (part) break;
      if (*p == '*') {
        if (k >= nargs) {
          *msg = "printf: '*' with no argument for it";
          return HC_ERROR;
        }
        sl += snprintf(spec + sl, 12, "%d", (int)args[k++].i);
        p++;
      }
      while (*p >= '0' && *p <= '9' && sl < 30) spec[sl++] = *p++;
    }
    while (*p && strchr("hlLzjtq", *p)) p++;
    char conv = *p;
    if (!conv) break;
    if (conv == 'n') {
      *msg = "printf: '%n' is not supported";
      return HC_ERROR;
    }
    if (k >= nargs) {
      *msg = fmt("printf: the format's conversion '%%%c' has no argument", conv);
      return HC_ERROR;
    }
    Val v = args[k];
    Type *t = tys[k++];
    double d = t->kind == TY_FLOAT    ? (double)v.f
               : t->kind == TY_DOUBLE ? v.d
               : t->is_unsigned       ? (double)v.u
                                      : (double)v.i;
    if (strchr("diouxXc", conv)) {
      long long x = is_flonum(t) ? (long long)d : v.i;
      if (strchr("ouxX", conv) && t->size == 4) x = (long long)(uint32_t)x;
      if (conv == 'c') {
        spec[sl++] = 'c';
        spec[sl] = 0;
        buf_printf(out, spec, (int)x);
        continue;
      }
      spec[sl++] = 'l';
      spec[sl++] = 'l';
      spec[sl++] = conv;
      spec[sl] = 0;
      buf_printf(out, spec, x);
    } else if (strchr("fFeEgGaA", conv)) {
      spec[sl++] = conv;
      spec[sl] = 0;
      buf_printf(out, spec, d);
    } else if (conv == 's') {
      spec[sl++] = 's';
      spec[sl] = 0;
      buf_printf(out, spec, v.u ? host_cstring(c, v.u) : "(null)");
    } else if (conv == 'p') {
      buf_printf(out, "0x%llx", (unsigned long long)v.u);
    } else {
      *msg = fmt("printf: unknown conversion '%%%c'", conv);
      return HC_ERROR;
    }
  }
  return HC_OK;
}

/* rand: glibc's random_r TYPE_3, so outputs match the program run natively */
void host_rand_seed(int32_t r[34], int *at, unsigned seed) {
  int32_t s[344];
  s[0] = (int32_t)(seed ? seed : 1);
  for (int i = 1; i < 31; i++) {
    int64_t v = (16807ll * s[i - 1]) % 2147483647;
    s[i] = (int32_t)(v < 0 ? v + 2147483647 : v);
  }
  for (int i = 31; i < 34; i++) s[i] = s[i - 31];
  for (int i = 34; i < 344; i++) s[i] = (int32_t)((uint32_t)s[i - 31] + (uint32_t)s[i - 3]);
  memcpy(r, s + 310, sizeof(int32_t) * 34);
  *at = 0;
}
int host_rand_next(int32_t r[34], int *at) {
  int i = *at;
  int32_t v = (int32_t)((uint32_t)r[(i + 34 - 31) % 34] + (uint32_t)r[(i + 34 - 3) % 34]);
  r[i] = v;
  *at = (i + 1) % 34;
  return (int)((uint32_t)v >> 1);
}

/* one device-to-host copy in the whole-program check's log (interp.h) */
void host_log_copy(FILE *f, const Type *elem, const void *data, uint64_t n) {
  unsigned char kind = !elem                     ? HOST_LOG_BYTES
                       : elem->kind == TY_FLOAT  ? HOST_LOG_FLOAT
                       : elem->kind == TY_DOUBLE ? HOST_LOG_DOUBLE
                                                 : HOST_LOG_BYTES;
  long at = ftell(f);
  bool over = at < 0 || (uint64_t)at + n > HOST_LOG_LIMIT;
  fputc(over ? 'T' : 'D', f);
  fputc(kind, f);
  fwrite(&n, sizeof n, 1, f);
  if (!over) fwrite(data, 1, n, f);
}
