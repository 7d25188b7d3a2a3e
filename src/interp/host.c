/* host: a CUDA host program run on the CPU. The host function (main) runs in the interpreter as
 * one thread; this file is its runtime: the C library a host program uses and the CUDA runtime
 * API, over one table of allocations (host blocks, device buffers, managed memory) that kernels
 * launched with <<<...>>> share. Everything is deterministic: rand() is glibc's generator, time
 * is a simulated clock (1 ns per interpreter step), events read that clock. */
#include "host.h"
#include "native.h"
#include "../hash.h"
#include "../arch/arch.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef LIMIT_LAUNCH_BYTES
#define LIMIT_LAUNCH_BYTES (8ull << 30) /* the same limit as one launch's buffers (launch.c) */
#endif
#define MAX_BUFFERS (1 << 20)   /* buffer numbers have 20 bits (interp.h addresses) */
#define HANDLE_BASE 0x100000ull /* events and streams: opaque handles, never memory */
/* Every distinct launch configuration is kept (kernel, grid, block, shared bytes, scalars: a
 * few hundred bytes each, found again through a hash table), up to MAX_DISTINCT; copies of the
 * buffers, which a launch needs to be analyzed, only for the launches HostOptions asks for
 * (--launch N, --kernel K's first, by default the first 64 and each kernel's first), up to
 * MAX_RECORDED_BYTES in all: a loop whose scalar argument changes every launch (a time value)
 * must not keep a copy per launch. */
#define MAX_DISTINCT (1 << 20)
#define DEFAULT_COPIED 64
#define MAX_RECORDED_BYTES (1ull << 30)

enum { FILE_STDIN = 1, FILE_STDOUT = 2, FILE_STDERR = 3 };

struct HostWorld {
  Program *p;
  const HostOptions *o;
  Launch HL; /* the host program as a one-thread launch: HL.bufs is the table */
  int cap;
  size_t bytes; /* allocated, for LIMIT_LAUNCH_BYTES */
  FILE *out;
  int32_t rand_r[34]; /* glibc's TYPE_3 additive feedback generator */
  int rand_i;
  uint64_t rand48;
  int last_error;
  struct {
    Node *n;
    uint64_t addr;
  } * strs;
  int nstrs, capstrs;
  uint64_t err_strings[1024];
  double *events; /* simulated time (ms) each event was recorded at */
  int nevents, nstreams;
  Obj **said;
  int nsaid; /* kernels whose reason for running in the interpreter was said */
  RunOptions
    *host_ro; /* the host function's run options: its time limit grows by each launch's time */
  int64_t limits
    [3]; /* cudaDeviceSetLimit/cudaThreadSetLimit: stack, printf FIFO, heap (0: the default) */
  int cache_config;      /* cudaDeviceSetCacheConfig/cudaThreadSetCacheConfig */
  uint64_t kernel_steps; /* warp-steps of every launch so far */
  uint64_t recorded_bytes;
  int *by_hash;
  int hash_cap; /* open addressing: index + 1 into r->rec, by launch_hash */
  Obj **kernels_seen;
  int nseen;   /* kernels with a recorded launch (for each kernel's first) */
  Buf scratch; /* formatted output: held here, not on a frame a fault unwinds */
  bool exited;
  int exit_code;
  int reuse; /* where the search for a freed buffer number to give again goes on */
  HostResult *r;
  NativeMemo *memo; /* kernels sent to the native engine after the interpreter's slice */
};

/* ---------------- the table of allocations ---------------- */
static const char *site(SrcLoc at) { return at.file ? fmt("%s:%d", at.file->name, at.line) : "?"; }

/* A buffer number for a new allocation. A freed buffer keeps its number, so that a pointer to
 * it faults as use after free; when all 2^20 numbers have been given, freed ones are given
 * again, oldest first (a pointer to such a one then reaches the new block): a loop that
 * allocates and frees (a function with a local VLA called a million times) goes on. */
static int buffer_number(HostWorld *hw) {
  if (hw->HL.nbufs < MAX_BUFFERS) {
    if (hw->HL.nbufs == hw->cap) {
      hw->cap = hw->cap ? hw->cap * 2 : 16;
      hw->HL.bufs = xrealloc(hw->HL.bufs, sizeof(Buffer) * (size_t)hw->cap);
    }
    return hw->HL.nbufs++;
  }
  for (int k = 0; k < MAX_BUFFERS; k++) {
    hw->reuse =
      hw->reuse % (MAX_BUFFERS - 1) + 1; /* 1 .. MAX_BUFFERS - 1: buffer 0 is never freed */
    if (hw->HL.bufs[hw->reuse].freed) return hw->reuse;
  }
  return -1;
}

/* a new zeroed buffer; its number, or -1 with *msg */
static int new_buffer(HostCtx *c, BufferKind kind, size_t bytes, const char *how, const char *name,
                      Type *elem, const char **msg) {
  HostWorld *hw = c->hw;
  if (bytes > LIMIT_LAUNCH_BYTES - hw->bytes) {
    *msg = fmt(
      "%s of %zu bytes takes the program's memory past the limit of %llu bytes (LIMIT_LAUNCH_BYTES, docs/limits.md)",
      how, bytes, (unsigned long long)LIMIT_LAUNCH_BYTES);
    return -1;
  }
  void *data = calloc(1, bytes ? bytes : 1);
  if (!data) {
    *msg = fmt("%s: cannot allocate %zu bytes", how, bytes);
    return -1;
  }
  int b = buffer_number(hw);
  if (b < 0) {
    free(data);
    *msg = fmt("%s: more than %d allocations at once", how, MAX_BUFFERS);
    return -1;
  }
  Buffer *B = &hw->HL.bufs[b];
  memset(B, 0, sizeof *B);
  B->data = data;
  hw->bytes += bytes;
  B->bytes = bytes;
  B->elem_ty = elem && elem->size > 0 ? elem : ty_uchar;
  B->count = (int64_t)(bytes / (size_t)B->elem_ty->size);
  B->kind = kind;
  B->how = how;
  B->at = c->at ? tok_loc(c->at->tok) : (SrcLoc){0};
  B->name = name ? name : fmt("%zu-byte block", bytes);
  return b;
}

/* the buffer a pointer returned by an allocator points at (offset 0), or -1 with *msg */
static int block_of(HostWorld *hw, uint64_t a, bool device, const char *fn, const char **msg) {
  int space = ADDR_SPACE(a);
  uint64_t b = (a >> 40) & 0xfffff, off = a & ((1ull << 40) - 1);
  if ((space != SPACE_HOST && space != SPACE_GLOBAL) || b == 0 || b >= (uint64_t)hw->HL.nbufs ||
      off) {
    *msg = fmt("%s of a pointer that no allocation returned", fn);
    return -1;
  }
  Buffer *B = &hw->HL.bufs[b];
  if ((B->kind == BUF_HOST) == device || (int)b == hw->HL.host_vars) {
    *msg = fmt("%s of %s memory ('%s', %s at %s)", fn, B->kind == BUF_HOST ? "host" : "device",
               B->name, B->how, site(B->at));
    return -1;
  }
  if (B->freed) {
    *msg = fmt("%s of memory already freed ('%s', %s at %s)", fn, B->name, B->how, site(B->at));
    return -1;
  }
  return (int)b;
}

static void release(HostWorld *hw, int b) {
  Buffer *B = &hw->HL.bufs[b];
  hw->bytes -= B->bytes;
  free(B->data);
  B->data = NULL;
  B->bytes = 0;
  B->count = 0;
  B->freed = true;
}

static uint64_t addr_of(HostWorld *hw, int b) {
  BufferKind k = hw->HL.bufs[b].kind;
  return k == BUF_HOST ? HOST_ADDR(b, 0) : GLOBAL_ADDR(b, 0);
}

/* a NUL-terminated string at a (at most 1 MiB), in the arena. Measured first, then copied: a
 * bad address faults (and unwinds) before anything is allocated */
const char *host_cstring(HostCtx *c, uint64_t a) {
  uint64_t n = 0;
  while (n < (1u << 20) && *c->mem(c, a + n, 1, false, false)) n++;
  char *r = arena_alloc(n + 1);
  if (n) memcpy(r, c->mem(c, a, n, false, false), n);
  r[n] = 0;
  return r;
}

/* the name the first argument of cudaMalloc(&d_a, n) gives the buffer, and its element type */
static const char *out_name(Node *call, Type **elem) {
  Node *a = call->args;
  *elem = NULL;
  while (a && a->kind == ND_CAST) a = a->lhs;
  if (!a || a->kind != ND_ADDR) return NULL;
  Type *t = a->lhs->ty;
  if (t && t->kind == TY_PTR) *elem = t->base;
  Buf b = {0};
  print_expr(&b, a->lhs);
  char *s = arena_strdup(b.s ? b.s : "?");
  buf_free(&b);
  return s;
}

static void put_ptr(HostCtx *c, uint64_t slot, uint64_t v) {
  memcpy(c->mem(c, slot, 8, true, false), &v, 8);
}

/* ---------------- formatted output ---------------- */
static FILE *stream_of(HostCtx *c, uint64_t f, const char **msg) {
  if (f == FILE_STDOUT) return c->hw->out;
  if (f == FILE_STDERR) return c->hw->o->err ? c->hw->o->err : stderr;
  *msg = f == FILE_STDIN
           ? "writing to stdin"
           : "a FILE * that is not stdout or stderr (carve's host runtime opens no files)";
  return NULL;
}

static Buf *scratch(HostWorld *hw) {
  hw->scratch.len = 0;
  if (hw->scratch.s) hw->scratch.s[0] = 0;
  return &hw->scratch;
}

static HostStatus emit(FILE *o, Buf *b, Val *ret) {
  if (b->len) fwrite(b->s, 1, b->len, o);
  ret->i = (int64_t)b->len;
  return HC_OK;
}

HostStatus host_printf(HostCtx *c, const char *f, const Val *args, Type **tys, int nargs,
                       const char **msg) {
  Buf *b = scratch(c->hw);
  Val ret;
  if (host_format(c, b, f, args, tys, nargs, 0, msg)) return HC_ERROR;
  return emit(c->hw->out, b, &ret);
}

uint64_t host_string(HostCtx *c, Node *str) {
  HostWorld *hw = c->hw;
  for (int i = 0; i < hw->nstrs; i++)
    if (hw->strs[i].n == str) return hw->strs[i].addr;
  const char *msg;
  size_t len = strlen(str->tok->str);
  int b = new_buffer(c, BUF_HOST, len + 1, "string literal",
                     fmt("the string \"%s\"", str->tok->str), ty_char, &msg);
  if (b < 0) return 0;
  memcpy(hw->HL.bufs[b].data, str->tok->str, len + 1);
  if (hw->nstrs == hw->capstrs) {
    hw->capstrs = hw->capstrs ? hw->capstrs * 2 : 16;
    hw->strs = xrealloc(hw->strs, sizeof *hw->strs * (size_t)hw->capstrs);
  }
  hw->strs[hw->nstrs].n = str;
  hw->strs[hw->nstrs++].addr = HOST_ADDR(b, 0);
  return HOST_ADDR(b, 0);
}

/* the simulated clock: 1 ns per interpreter step (host and kernels) */
static double sim_ms(HostCtx *c) { return (double)(c->host_steps + c->hw->kernel_steps) * 1e-6; }
int64_t host_clock(HostCtx *c) { return (int64_t)(sim_ms(c) * 1000); }

/* ---------------- the functions ---------------- */
typedef HostStatus HostFn(HostCtx *c, Node *call, const Val *a, Type **t, int n, Val *ret,
                          const char **msg);
#define FN(name)                                                                          \
  static HostStatus name(HostCtx *c, Node *call, const Val *a, Type **t, int n, Val *ret, \
                         const char **msg)
#define UNUSED (void)call, (void)t, (void)n, (void)msg

static HostStatus alloc_into(HostCtx *c, Node *call, BufferKind kind, const char *how,
                             uint64_t slot, size_t bytes, Val *ret, const char **msg) {
  Type *elem;
  const char *name = out_name(call, &elem);
  int b = new_buffer(c, kind, bytes, how, name, elem, msg);
  if (b < 0) return HC_ERROR;
  put_ptr(c, slot, addr_of(c->hw, b));
  ret->i = 0;
  return HC_OK;
}

FN(h_malloc) {
  UNUSED;
  int b = new_buffer(c, BUF_HOST, a[0].u, "malloc", NULL, NULL, msg);
  if (b < 0) return HC_ERROR;
  ret->u = HOST_ADDR(b, 0);
  return HC_OK;
}
FN(h_calloc) {
  UNUSED;
  uint64_t bytes;
  if (__builtin_mul_overflow(a[0].u, a[1].u, &bytes)) {
    ret->u = 0;
    return HC_OK;
  }
  int b = new_buffer(c, BUF_HOST, bytes, "calloc", NULL, NULL, msg);
  if (b < 0) return HC_ERROR;
  ret->u = HOST_ADDR(b, 0);
  return HC_OK;
}
FN(h_aligned_alloc) {
  UNUSED;
  int b = new_buffer(c, BUF_HOST, a[1].u, "aligned_alloc", NULL, NULL, msg);
  if (b < 0) return HC_ERROR;
  ret->u = HOST_ADDR(b, 0); /* every block starts at a multiple of 2^40 */
  return HC_OK;
}
FN(h_posix_memalign) {
  UNUSED;
  int b = new_buffer(c, BUF_HOST, a[2].u, "posix_memalign", NULL, NULL, msg);
  if (b < 0) return HC_ERROR;
  put_ptr(c, a[0].u, HOST_ADDR(b, 0));
  ret->i = 0;
  return HC_OK;
}
/* free(p) and a variable-length array's release: null is nothing, anything but a block's start an error */
static HostStatus free_block(HostCtx *c, uint64_t addr, const char *what, const char **msg) {
  if (!addr) return HC_OK;
  int b = block_of(c->hw, addr, false, what, msg);
  if (b < 0) return HC_ERROR;
  release(c->hw, b);
  return HC_OK;
}
FN(h_free) {
  UNUSED;
  return free_block(c, a[0].u, "free", msg);
}
FN(h_realloc) {
  UNUSED;
  int old = -1;
  if (a[0].u && (old = block_of(c->hw, a[0].u, false, "realloc", msg)) < 0) return HC_ERROR;
  int b = new_buffer(c, BUF_HOST, a[1].u, "realloc", NULL, NULL, msg);
  if (b < 0) return HC_ERROR;
  if (old >= 0) {
    Buffer *O = &c->hw->HL.bufs[old], *B = &c->hw->HL.bufs[b];
    memcpy(B->data, O->data, O->bytes < B->bytes ? O->bytes : B->bytes);
    release(c->hw, old);
  }
  ret->u = HOST_ADDR(b, 0);
  return HC_OK;
}

/* ---- C99 variable-length arrays: the parser's lowering calls these (parse.c, the VLA section) ---- */
/* the size of len elements of elem bytes, where C evaluates a VLA's size: a count that is not
 * positive is undefined behaviour (C11 6.7.6.2p5), a fault here as under -fsanitize=vla-bound */
FN(h_vla_size) {
  UNUSED;
  uint64_t bytes;
  if (a[0].i <= 0) {
    *msg =
      fmt("variable-length array bound evaluates to %lld, not a positive value", (long long)a[0].i);
    return HC_ERROR;
  }
  if (__builtin_mul_overflow(a[0].u, a[1].u, &bytes) || bytes > (uint64_t)INT64_MAX) {
    *msg = fmt("variable-length array of %lld elements of %llu bytes: its size overflows",
               (long long)a[0].i, (unsigned long long)a[1].u);
    return HC_ERROR;
  }
  ret->u = bytes;
  return HC_OK;
}
/* the innermost element type of the array type t */
static Type *elem_of(Type *t) {
  while (t && t->kind == TY_ARRAY) t = t->base;
  return t;
}
/* a local VLA's storage, when its declaration executes: the previous one of that declaration
 * (a loop) is freed; named by the variable (the hidden pointer that holds it) */
FN(h_vla_alloc) {
  UNUSED;
  if (a[1].u) {
    int old = block_of(c->hw, a[1].u, false, "variable-length array", msg);
    if (old < 0) return HC_ERROR;
    release(c->hw, old);
  }
  Node *v = call->args ? call->args->next : NULL;
  while (v && v->kind == ND_CAST) v = v->lhs;
  bool named = v && v->kind == ND_VAR && v->var->ty->kind == TY_PTR;
  int b = new_buffer(c, BUF_HOST, a[0].u, "variable-length array", named ? v->var->name : NULL,
                     named ? elem_of(v->var->ty->base) : NULL, msg);
  if (b < 0) return HC_ERROR;
  ret->u = HOST_ADDR(b, 0);
  return HC_OK;
}
/* at a return from the function that declared it */
FN(h_vla_free) {
  UNUSED;
  return free_block(c, a[0].u, "variable-length array", msg);
}

/* n bytes at a, for a host-side call: host memory, managed memory, the host's own variables */
static unsigned char *bytes_at(HostCtx *c, uint64_t a, size_t n, bool write) {
  return n ? c->mem(c, a, n, write, false) : NULL;
}

FN(h_memcpy) {
  UNUSED;
  unsigned char *s = bytes_at(c, a[1].u, a[2].u, false), *d = bytes_at(c, a[0].u, a[2].u, true);
  if (a[2].u) memmove(d, s, a[2].u);
  ret->u = a[0].u;
  return HC_OK;
}
FN(h_memset) {
  UNUSED;
  unsigned char *d = bytes_at(c, a[0].u, a[2].u, true);
  if (a[2].u) memset(d, (int)a[1].i, a[2].u);
  ret->u = a[0].u;
  return HC_OK;
}
FN(h_memcmp) {
  UNUSED;
  unsigned char *x = bytes_at(c, a[0].u, a[2].u, false), *y = bytes_at(c, a[1].u, a[2].u, false);
  ret->i = a[2].u ? memcmp(x, y, a[2].u) : 0;
  return HC_OK;
}
FN(h_strlen) {
  UNUSED;
  ret->u = strlen(host_cstring(c, a[0].u));
  return HC_OK;
}
FN(h_strcmp) {
  UNUSED;
  ret->i = strcmp(host_cstring(c, a[0].u), host_cstring(c, a[1].u));
  return HC_OK;
}
FN(h_strncmp) {
  UNUSED;
  ret->i = strncmp(host_cstring(c, a[0].u), host_cstring(c, a[1].u), a[2].u);
  return HC_OK;
}
FN(h_strcpy) {
  UNUSED;
  const char *s = host_cstring(c, a[1].u);
  size_t len = strlen(s) + 1;
  if (!strcmp(call->fn->name, "strncpy") && a[2].u < len) len = a[2].u;
  memcpy(bytes_at(c, a[0].u, len, true), s, len);
  ret->u = a[0].u;
  return HC_OK;
}
/* strcat, strncat: the source (at most n bytes) after the destination's string, then a NUL */
FN(h_strcat) {
  UNUSED;
  size_t d = strlen(host_cstring(c, a[0].u));
  const char *s = host_cstring(c, a[1].u);
  size_t len = strlen(s);
  if (!strcmp(call->fn->name, "strncat") && a[2].u < len) len = a[2].u;
  unsigned char *to = bytes_at(c, a[0].u + d, len + 1, true);
  memcpy(to, s, len);
  to[len] = 0;
  ret->u = a[0].u;
  return HC_OK;
}
/* strchr, strrchr, strstr: the address found inside the first string, or NULL */
FN(h_strfind) {
  UNUSED;
  const char *s = host_cstring(c, a[0].u), *f = call->fn->name, *p;
  if (!strcmp(f, "strstr")) p = strstr(s, host_cstring(c, a[1].u));
  else p = !strcmp(f, "strchr") ? strchr(s, (int)(char)a[1].i) : strrchr(s, (int)(char)a[1].i);
  ret->u = p ? a[0].u + (uint64_t)(p - s) : 0;
  return HC_OK;
}
/* sleep, usleep: no wait (the program's time is carve's simulated clock) */
FN(h_sleep) {
  UNUSED;
  ret->i = 0;
  return HC_OK;
}
FN(h_rand) {
  UNUSED;
  ret->i = host_rand_next(c->hw->rand_r, &c->hw->rand_i);
  return HC_OK;
}
FN(h_srand) {
  UNUSED;
  host_rand_seed(c->hw->rand_r, &c->hw->rand_i, (unsigned)a[0].u);
  return HC_OK;
}
/* POSIX drand48: X' = (0x5DEECE66D X + 0xB) mod 2^48 */
FN(h_drand48) {
  UNUSED;
  c->hw->rand48 = (0x5DEECE66Dull * c->hw->rand48 + 0xB) & ((1ull << 48) - 1);
  ret->d = ldexp((double)c->hw->rand48, -48);
  return HC_OK;
}
FN(h_srand48) {
  UNUSED;
  c->hw->rand48 = (((uint64_t)a[0].i & 0xffffffffu) << 16) | 0x330E;
  return HC_OK;
}

/* atoi and friends; strto*'s end pointer as an address in the string */
FN(h_strto) {
  UNUSED;
  const char *s = host_cstring(c, a[0].u), *name = call->fn->name;
  char *end = (char *)s;
  if (!strcmp(name, "atoi")) ret->i = atoi(s);
  else if (!strcmp(name, "atol")) ret->i = atol(s);
  else if (!strcmp(name, "atof")) ret->d = atof(s);
  else if (!strcmp(name, "strtod")) ret->d = strtod(s, &end);
  else if (!strcmp(name, "strtoul")) ret->u = strtoul(s, &end, (int)a[2].i);
  else ret->i = strtol(s, &end, (int)a[2].i);
  if (n > 1 && name[0] == 's' && a[1].u) put_ptr(c, a[1].u, a[0].u + (uint64_t)(end - s));
  return HC_OK;
}

FN(h_fprintf) {
  UNUSED;
  FILE *o = stream_of(c, a[0].u, msg);
  if (!o) return HC_ERROR;
  const char *f = host_cstring(c, a[1].u);
  Buf *b = scratch(c->hw);
  if (host_format(c, b, f, a, t, n, 2, msg)) return HC_ERROR;
  return emit(o, b, ret);
}
FN(h_printf) {
  UNUSED;
  const char *f = host_cstring(c, a[0].u);
  Buf *b = scratch(c->hw);
  if (host_format(c, b, f, a, t, n, 1, msg)) return HC_ERROR;
  return emit(c->hw->out, b, ret);
}
FN(h_sprintf) {
  UNUSED;
  bool sn = !strcmp(call->fn->name, "snprintf");
  const char *f = host_cstring(c, a[sn ? 2 : 1].u);
  Buf *bp = scratch(c->hw), b;
  if (host_format(c, bp, f, a, t, n, sn ? 3 : 2, msg)) return HC_ERROR;
  b = *bp;
  size_t len = b.len, room = sn ? a[1].u : len + 1;
  size_t w = len + 1 <= room ? len + 1 : room;
  if (w) {
    unsigned char *d = bytes_at(c, a[0].u, w, true);
    if (len) memcpy(d, b.s, w - 1 < len ? w - 1 : len);
    d[w - 1] = 0;
  }
  ret->i = (int64_t)len;
  return HC_OK;
}
FN(h_puts) {
  UNUSED;
  bool f = !strcmp(call->fn->name, "fputs");
  FILE *o = f ? stream_of(c, a[1].u, msg) : c->hw->out;
  if (!o) return HC_ERROR;
  fputs(host_cstring(c, a[0].u), o);
  if (!f) fputc('\n', o);
  ret->i = 1;
  return HC_OK;
}
FN(h_putchar) {
  UNUSED;
  FILE *o = !strcmp(call->fn->name, "fputc") ? stream_of(c, a[1].u, msg) : c->hw->out;
  if (!o) return HC_ERROR;
  fputc((int)a[0].i, o);
  ret->i = (uint8_t)a[0].i;
  return HC_OK;
}
FN(h_fflush) {
  UNUSED;
  fflush(c->hw->out);
  fflush(stderr);
  ret->i = 0;
  return HC_OK;
}
FN(h_exit) {
  UNUSED;
  c->hw->exited = true;
  c->hw->exit_code = !strcmp(call->fn->name, "abort") ? 134 : (int)(a[0].i & 0xff);
  if (c->hw->exit_code == 134 && !n)
    diag_at(DIAG_NOTE, tok_loc(call->tok), "the program called abort()");
  return HC_EXIT;
}
FN(h_time) {
  UNUSED;
  int64_t s = (int64_t)(sim_ms(c) / 1000);
  if (a[0].u) memcpy(c->mem(c, a[0].u, 8, true, false), &s, 8);
  ret->i = s;
  return HC_OK;
}
FN(h_gettime) {
  UNUSED;
  bool tv = !strcmp(call->fn->name, "gettimeofday");
  uint64_t p = tv ? a[0].u : a[1].u;
  double ms = sim_ms(c);
  int64_t v[2] = {(int64_t)(ms / 1000),
                  tv ? (int64_t)fmod(ms * 1000, 1e6) : (int64_t)fmod(ms * 1e6, 1e9)};
  memcpy(c->mem(c, p, 16, true, false), v, 16);
  ret->i = 0;
  return HC_OK;
}

/* ---- CUDA ---- */
FN(h_cudaMalloc) {
  UNUSED;
  const char *f = call->fn->name;
  BufferKind k = !strcmp(f, "cudaMalloc") ? BUF_DEVICE : BUF_MANAGED;
  return alloc_into(c, call, k, f, a[0].u, a[1].u, ret, msg);
}
FN(h_cudaFree) {
  UNUSED;
  ret->i = 0;
  if (!a[0].u) return HC_OK;
  int b = block_of(c->hw, a[0].u, true, call->fn->name, msg);
  if (b < 0) return HC_ERROR;
  release(c->hw, b);
  return HC_OK;
}

/* cudaMemcpy's directions: each side must be the memory the kind names (managed memory is both) */
static const char *side_problem(HostWorld *hw, uint64_t a, bool want_device, const char *side) {
  int s = ADDR_SPACE(a);
  bool device = s == SPACE_GLOBAL;
  if (device) {
    uint64_t b = (a >> 40) & 0xfffff;
    if (b < (uint64_t)hw->HL.nbufs && hw->HL.bufs[b].kind == BUF_MANAGED) return NULL;
  }
  if (device == want_device) return NULL;
  return fmt("the %s is %s memory", side, device ? "device" : "host");
}

FN(h_cudaMemcpy) {
  UNUSED;
  static const char *kinds[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
                                "cudaMemcpyDefault"};
  int64_t kind = a[3].i;
  ret->i = 0;
  if (kind < 0 || kind > 4) {
    *msg = fmt("%s with an invalid direction (%lld)", call->fn->name, (long long)kind);
    return HC_ERROR;
  }
  if (kind != 4) {
    const char *why = side_problem(c->hw, a[0].u, kind & 1, "destination");
    if (!why) why = side_problem(c->hw, a[1].u, kind >= 2, "source");
    if (why) {
      *msg = fmt("%s with %s: %s", call->fn->name, kinds[kind], why);
      return HC_ERROR;
    }
  }
  if (!a[2].u) return HC_OK;
  unsigned char *s = c->mem(c, a[1].u, a[2].u, false, true),
                *d = c->mem(c, a[0].u, a[2].u, true, true);
  memmove(d, s, a[2].u);
  if (c->hw->o->d2h && ADDR_SPACE(a[1].u) == SPACE_GLOBAL && ADDR_SPACE(a[0].u) != SPACE_GLOBAL) {
    uint64_t b = (a[1].u >> 40) & 0xfffff;
    host_log_copy(c->hw->o->d2h, b < (uint64_t)c->hw->HL.nbufs ? c->hw->HL.bufs[b].elem_ty : NULL,
                  d, a[2].u);
  }
  return HC_OK;
}

FN(h_cudaMemset) {
  UNUSED;
  ret->i = 0;
  if (a[2].u) {
    if (ADDR_SPACE(a[0].u) != SPACE_GLOBAL) {
      *msg = fmt("%s of host memory", call->fn->name);
      return HC_ERROR;
    }
    memset(c->mem(c, a[0].u, a[2].u, true, true), (int)a[1].i, a[2].u);
  }
  return HC_OK;
}
/* cudaMemcpyToSymbol(symbol, src, count, offset = 0): the symbol is a __constant__ or __device__
 * variable (an array, whose name is its address) */
FN(h_symbol) {
  UNUSED;
  bool to = !strcmp(call->fn->name, "cudaMemcpyToSymbol");
  uint64_t sym = to ? a[0].u : a[1].u, other = to ? a[1].u : a[0].u, count = a[2].u;
  uint64_t off = n > 3 ? a[3].u : 0;
  ret->i = 0;
  unsigned char *p;
  uint64_t at = (sym & ((1ull << 40) - 1)) + off;
  if (ADDR_SPACE(sym) == SPACE_CONST) {
    if (at + count > (uint64_t)c->hw->p->constant_size || at + count < at) {
      *msg = fmt("%s: %llu bytes at offset %llu run past the __constant__ variable", call->fn->name,
                 (unsigned long long)count, (unsigned long long)off);
      return HC_ERROR;
    }
    p = c->hw->HL.constant + at;
  } else if (ADDR_SPACE(sym) == SPACE_GLOBAL && ((sym >> 40) & 0xfffff) == 0) {
    p = count ? c->mem(c, sym + off, count, to, true) : NULL;
  } else {
    *msg = fmt("%s: the symbol is not a __constant__ or __device__ variable", call->fn->name);
    return HC_ERROR;
  }
  if (!count) return HC_OK;
  unsigned char *q = bytes_at(c, other, count, !to);
  if (to) memcpy(p, q, count);
  else memcpy(q, p, count);
  return HC_OK;
}
FN(h_cuda_ok) {
  UNUSED;
  ret->i = 0;
  return HC_OK;
}
FN(h_getLastError) {
  UNUSED;
  ret->i = c->hw->last_error;
  if (!strcmp(call->fn->name, "cudaGetLastError")) c->hw->last_error = 0;
  return HC_OK;
}
/* the runtime's messages (cudaGetErrorString, CUDA Runtime API, Error Handling) */
static const char *error_text(int64_t e, bool name) {
  static const struct {
    int code;
    const char *name, *text;
  } errs[] = {{0, "cudaSuccess", "no error"},
              {1, "cudaErrorInvalidValue", "invalid argument"},
              {2, "cudaErrorMemoryAllocation", "out of memory"},
              {3, "cudaErrorInitializationError", "initialization error"},
              {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
              {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
              {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
              {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
              {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
              {600, "cudaErrorNotReady", "device not ready"},
              {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
              {719, "cudaErrorLaunchFailure", "unspecified launch failure"}};
  for (size_t i = 0; i < sizeof errs / sizeof *errs; i++)
    if (errs[i].code == e) return name ? errs[i].name : errs[i].text;
  return name ? "cudaErrorUnknown" : "unknown error";
}
FN(h_errorString) {
  UNUSED;
  int64_t e = a[0].i;
  bool name = !strcmp(call->fn->name, "cudaGetErrorName");
  int slot = (int)((e < 0 || e >= 511 ? 511 : e) * 2 + name);
  HostWorld *hw = c->hw;
  if (!hw->err_strings[slot]) {
    const char *s = error_text(e, name);
    int b = new_buffer(c, BUF_HOST, strlen(s) + 1, "cudaGetErrorString",
                       fmt("the string \"%s\"", s), ty_char, msg);
    if (b < 0) return HC_ERROR;
    memcpy(hw->HL.bufs[b].data, s, strlen(s) + 1);
    hw->err_strings[slot] = HOST_ADDR(b, 0);
  }
  ret->u = hw->err_strings[slot];
  return HC_OK;
}
FN(h_getDeviceCount) {
  UNUSED;
  int one = 1;
  memcpy(c->mem(c, a[0].u, 4, true, false), &one, 4);
  ret->i = 0;
  return HC_OK;
}
FN(h_getDevice) {
  UNUSED;
  int zero = 0;
  memcpy(c->mem(c, a[0].u, 4, true, false), &zero, 4);
  ret->i = 0;
  return HC_OK;
}
FN(h_setDevice) {
  UNUSED;
  ret->i = a[0].i == 0 ? 0 : 101;
  return HC_OK;
}
/* the limits and cache preference of the legacy cudaThread* calls (removed in CUDA 13) and their
 * cudaDevice* successors: what was set, else CUDA's defaults (CUDA Runtime API,
 * cudaDeviceSetLimit: a 1 KiB stack, a 1 MiB printf FIFO, an 8 MiB malloc heap); a setting is
 * remembered and changes nothing else */
static int64_t limit_default(int64_t which) {
  return which == 0 ? 1024 : which == 1 ? 1 << 20 : which == 2 ? 8 << 20 : 0;
}
FN(h_setLimit) {
  UNUSED;
  if (a[0].i >= 0 && a[0].i < 3) c->hw->limits[a[0].i] = a[1].i;
  ret->i = a[0].i >= 0 && a[0].i < 3 ? 0 : 1;
  return HC_OK;
}
FN(h_getLimit) {
  UNUSED;
  int64_t v = a[1].i >= 0 && a[1].i < 3 && c->hw->limits[a[1].i] ? c->hw->limits[a[1].i]
                                                                 : limit_default(a[1].i);
  memcpy(c->mem(c, a[0].u, 8, true, false), &v, 8);
  ret->i = a[1].i >= 0 && a[1].i < 3 ? 0 : 1;
  return HC_OK;
}
FN(h_setCacheConfig) {
  UNUSED;
  c->hw->cache_config = (int)a[0].i;
  ret->i = 0;
  return HC_OK;
}
FN(h_getCacheConfig) {
  UNUSED;
  memcpy(c->mem(c, a[0].u, 4, true, false), &c->hw->cache_config, 4);
  ret->i = 0;
  return HC_OK;
}

static void set_member(HostCtx *c, Type *st, uint64_t base, const char *name, int64_t v) {
  Member *m = find_member(st, name);
  if (!m) return;
  unsigned char *p = c->mem(c, base + (uint64_t)m->offset, (size_t)m->ty->size, true, false);
  if (m->ty->kind == TY_ARRAY) {
    for (int i = 0; i < m->ty->array_len; i++) memcpy(p + 4 * i, &(int){(int)v}, 4);
    return;
  }
  if (m->ty->size == 8) memcpy(p, &v, 8);
  else {
    int x = (int)v;
    memcpy(p, &x, 4);
  }
}

/* cudaGetDeviceProperties: the --arch machine's numbers (src/arch/machines.c, each with its
 * source); totalGlobalMem is what carve lets a program allocate (LIMIT_LAUNCH_BYTES) */
FN(h_getDeviceProperties) {
  UNUSED;
  const Machine *M = c->hw->o->machine ? c->hw->o->machine : machine_find("h100");
  Type *st = t[0]->kind == TY_PTR ? t[0]->base : NULL;
  uint64_t base = a[0].u;
  if (!st || st->kind != TY_STRUCT) {
    *msg = "cudaGetDeviceProperties needs a cudaDeviceProp *";
    return HC_ERROR;
  }
  unsigned char *p = c->mem(c, base, (size_t)st->size, true, false);
  memset(p, 0, (size_t)st->size);
  snprintf((char *)p, 256, "%s (carve interpreter)", M->long_name);
  set_member(c, st, base, "totalGlobalMem", (int64_t)LIMIT_LAUNCH_BYTES);
  set_member(c, st, base, "sharedMemPerBlock", M->smem_per_block);
  set_member(c, st, base, "sharedMemPerBlockOptin", M->smem_per_block_optin);
  set_member(c, st, base, "sharedMemPerMultiprocessor", M->smem_per_sm);
  set_member(c, st, base, "regsPerBlock", M->max_regs_per_block);
  set_member(c, st, base, "regsPerMultiprocessor", M->regs_per_sm);
  set_member(c, st, base, "warpSize", M->warp_size);
  set_member(c, st, base, "maxThreadsPerBlock", M->max_threads_per_block);
  set_member(c, st, base, "maxThreadsPerMultiProcessor", M->max_threads_per_sm);
  set_member(c, st, base, "maxBlocksPerMultiProcessor", M->max_blocks_per_sm);
  set_member(c, st, base, "clockRate", (int64_t)(M->clock_mhz * 1000));
  set_member(c, st, base, "totalConstMem", 65536);
  set_member(c, st, base, "major", M->cc_major);
  set_member(c, st, base, "minor", M->cc_minor);
  set_member(c, st, base, "multiProcessorCount", M->sm_count);
  set_member(c, st, base, "memoryBusWidth", M->mem_bus_bits);
  set_member(c, st, base, "l2CacheSize", M->l2_bytes);
  set_member(c, st, base, "concurrentKernels", 1);
  set_member(c, st, base, "managedMemory", 1);
  set_member(c, st, base, "unifiedAddressing", 1);
  /* CUDA's limits on launch shapes (CUDA C++ Programming Guide, Compute Capabilities: before
   * cc 2.0 a block's x and y reach 512, before cc 3.0 a grid's x reaches 65535) */
  bool old = M->cc_major < 2;
  Member *m = find_member(st, "maxThreadsDim");
  if (m) {
    int d[3] = {old ? 512 : 1024, old ? 512 : 1024, 64};
    memcpy(c->mem(c, base + (uint64_t)m->offset, 12, true, false), d, 12);
  }
  if ((m = find_member(st, "maxGridSize"))) {
    int d[3] = {M->cc_major < 3 ? 65535 : 2147483647, 65535, old ? 1 : 65535};
    memcpy(c->mem(c, base + (uint64_t)m->offset, 12, true, false), d, 12);
  }
  ret->i = 0;
  return HC_OK;
}

/* events and streams are handles; an event remembers the simulated clock when recorded */
FN(h_eventCreate) {
  UNUSED;
  HostWorld *hw = c->hw;
  hw->events = xrealloc(hw->events, sizeof(double) * (size_t)(hw->nevents + 1));
  hw->events[hw->nevents] = -1;
  put_ptr(c, a[0].u, HANDLE_BASE + (uint64_t)hw->nevents++);
  ret->i = 0;
  return HC_OK;
}
static int event_of(HostCtx *c, uint64_t h) {
  int64_t i = (int64_t)(h - HANDLE_BASE);
  return i >= 0 && i < c->hw->nevents ? (int)i : -1;
}
FN(h_eventRecord) {
  UNUSED;
  int e = event_of(c, a[0].u);
  ret->i = e < 0 ? 400 : 0;
  if (e >= 0) c->hw->events[e] = sim_ms(c);
  return HC_OK;
}
FN(h_eventSync) {
  UNUSED;
  ret->i = event_of(c, a[0].u) < 0 ? 400 : 0;
  return HC_OK;
}
FN(h_eventElapsed) {
  UNUSED;
  int e0 = event_of(c, a[1].u), e1 = event_of(c, a[2].u);
  if (e0 < 0 || e1 < 0 || c->hw->events[e0] < 0 || c->hw->events[e1] < 0) {
    ret->i = e0 < 0 || e1 < 0 ? 400 : 600;
    return HC_OK;
  }
  float ms = (float)(c->hw->events[e1] - c->hw->events[e0]);
  memcpy(c->mem(c, a[0].u, 4, true, false), &ms, 4);
  ret->i = 0;
  return HC_OK;
}
FN(h_streamCreate) {
  UNUSED;
  put_ptr(c, a[0].u, HANDLE_BASE + (1ull << 30) + (uint64_t)c->hw->nstreams++);
  ret->i = 0;
  return HC_OK;
}

static const struct {
  const char *name;
  HostFn *fn;
} host_fns[] = {
  {"malloc", h_malloc},
  {"calloc", h_calloc},
  {"realloc", h_realloc},
  {"free", h_free},
  {"posix_memalign", h_posix_memalign},
  {"aligned_alloc", h_aligned_alloc},
  {"memcpy", h_memcpy},
  {"memmove", h_memcpy},
  {"memset", h_memset},
  {"memcmp", h_memcmp},
  {"strlen", h_strlen},
  {"strcmp", h_strcmp},
  {"strncmp", h_strncmp},
  {"strcpy", h_strcpy},
  {"strncpy", h_strcpy},
  {"strcat", h_strcat},
  {"strncat", h_strcat},
  {"strchr", h_strfind},
  {"strrchr", h_strfind},
  {"strstr", h_strfind},
  {"sleep", h_sleep},
  {"usleep", h_sleep},
  {"rand", h_rand},
  {"srand", h_srand},
  {"drand48", h_drand48},
  {"srand48", h_srand48},
  {"atoi", h_strto},
  {"atol", h_strto},
  {"atof", h_strto},
  {"strtol", h_strto},
  {"strtoul", h_strto},
  {"strtod", h_strto},
  {"__carve_printf", h_printf},
  {"fprintf", h_fprintf},
  {"sprintf", h_sprintf},
  {"snprintf", h_sprintf},
  {"puts", h_puts},
  {"fputs", h_puts},
  {"putchar", h_putchar},
  {"fputc", h_putchar},
  {"fflush", h_fflush},
  {"exit", h_exit},
  {"abort", h_exit},
  {"time", h_time},
  {"gettimeofday", h_gettime},
  {"clock_gettime", h_gettime},
  {"cudaMalloc", h_cudaMalloc},
  {"cudaMallocManaged", h_cudaMalloc},
  {"cudaMallocHost", h_cudaMalloc},
  {"cudaHostAlloc", h_cudaMalloc},
  {"cudaFree", h_cudaFree},
  {"cudaFreeHost", h_cudaFree},
  {"cudaMemcpy", h_cudaMemcpy},
  {"cudaMemcpyAsync", h_cudaMemcpy},
  {"cudaMemset", h_cudaMemset},
  {"cudaMemsetAsync", h_cudaMemset},
  {"cudaMemcpyToSymbol", h_symbol},
  {"cudaMemcpyFromSymbol", h_symbol},
  {"cudaDeviceSynchronize", h_cuda_ok},
  {"cudaThreadSynchronize", h_cuda_ok},
  {"cudaDeviceReset", h_cuda_ok},
  {"cudaThreadExit", h_cuda_ok},
  {"cudaThreadSetLimit", h_setLimit},
  {"cudaDeviceSetLimit", h_setLimit},
  {"cudaThreadGetLimit", h_getLimit},
  {"cudaDeviceGetLimit", h_getLimit},
  {"cudaThreadSetCacheConfig", h_setCacheConfig},
  {"cudaDeviceSetCacheConfig", h_setCacheConfig},
  {"cudaThreadGetCacheConfig", h_getCacheConfig},
  {"cudaDeviceGetCacheConfig", h_getCacheConfig},
  {"cudaGetLastError", h_getLastError},
  {"cudaPeekAtLastError", h_getLastError},
  {"cudaGetErrorString", h_errorString},
  {"cudaGetErrorName", h_errorString},
  {"cudaGetDeviceCount", h_getDeviceCount},
  {"cudaGetDevice", h_getDevice},
  {"cudaSetDevice", h_setDevice},
  {"cudaGetDeviceProperties", h_getDeviceProperties},
  {"cudaEventCreate", h_eventCreate},
  {"cudaEventCreateWithFlags", h_eventCreate},
  {"cudaEventRecord", h_eventRecord},
  {"cudaEventSynchronize", h_eventSync},
  {"cudaEventQuery", h_eventSync},
  {"cudaEventElapsedTime", h_eventElapsed},
  {"cudaEventDestroy", h_eventSync},
  {"cudaStreamCreate", h_streamCreate},
  {"cudaStreamCreateWithFlags", h_streamCreate},
  {"cudaStreamSynchronize", h_cuda_ok},
  {"cudaStreamDestroy", h_cuda_ok},
  {"__carve_vla_size", h_vla_size},
  {"__carve_vla_alloc", h_vla_alloc},
  {"__carve_vla_free", h_vla_free},
};

bool host_lib_provides(const char *name) {
  for (size_t i = 0; i < sizeof host_fns / sizeof *host_fns; i++)
    if (!strcmp(host_fns[i].name, name)) return true;
  return false;
}

HostStatus host_call(HostCtx *c, Obj *fn, const Val *args, Type **tys, int nargs, Val *ret,
                     const char **msg) {
  if (!fn->host_lib) {
    fn->host_lib = -1;
    for (size_t i = 0; i < sizeof host_fns / sizeof *host_fns; i++)
      if (!strcmp(host_fns[i].name, fn->name)) fn->host_lib = (int)i + 1;
  }
  if (fn->host_lib < 0) {
    *msg = fmt("carve's host runtime does not provide '%s'", fn->name);
    return HC_ERROR;
  }
  ret->u = 0;
  return host_fns[fn->host_lib - 1].fn(c, c->at, args, tys, nargs, ret, msg);
}

/* ---------------- launches ---------------- */
static double wall_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the same configuration as a recorded launch: kernel, grid, block, shared bytes, scalars */
static bool same_launch(const RecordedLaunch *r, Obj *k, const Launch *KL) {
  if (r->kernel != k || r->dyn_shared != KL->dyn_shared ||
      memcmp(r->grid, KL->grid, sizeof r->grid) || memcmp(r->block, KL->block, sizeof r->block))
    return false;
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++) {
    if (q->ty->kind == TY_PTR) continue;
    const ArgSpec *a = r->ov.args[i];
    if (a->scalar.is_float
          ? a->scalar.d != (q->ty->kind == TY_FLOAT ? (double)KL->args[i].f : KL->args[i].d)
          : a->scalar.i != KL->args[i].i)
      return false;
  }
  return true;
}

static unsigned char *copy_bytes_of(const unsigned char *p, size_t n) {
  unsigned char *d = arena_alloc(n ? n : 1);
  if (n) memcpy(d, p, n);
  return d;
}

/* a launch's configuration hashed (FNV-1a over what same_launch compares) */
static uint64_t launch_hash(Obj *k, const Launch *KL) {
  uint64_t h = FNV64_BASIS;
#define MIX(x) (h = fnv1a64_u64(h, (uint64_t)(x)))
  MIX((uintptr_t)k);
  for (int d = 0; d < 3; d++) {
    MIX(KL->grid[d]);
    MIX(KL->block[d]);
  }
  MIX(KL->dyn_shared);
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++)
    if (q->ty->kind != TY_PTR)
      MIX(q->ty->kind == TY_FLOAT ? (uint64_t)KL->args[i].u & 0xffffffffu : KL->args[i].u);
#undef MIX
  return h;
}

/* whether a pointer argument points into device memory (else the launch faults, unrecorded) */
static bool device_pointer(HostWorld *hw, uint64_t v) {
  uint64_t b = (v >> 40) & 0xfffff, off = v & ((1ull << 40) - 1);
  return ADDR_SPACE(v) == SPACE_GLOBAL && b < (uint64_t)hw->HL.nbufs && !hw->HL.bufs[b].freed &&
         off <= hw->HL.bufs[b].bytes;
}

/* a pointer argument as a buffer of the flags' kind: the bytes from the pointer to the end of
 * its allocation, as they are now (device_pointer has said it is one) */
static ArgSpec *recorded_buffer(HostWorld *hw, Obj *q, uint64_t v) {
  ArgSpec *a = arena_alloc(sizeof(ArgSpec));
  a->name = q->name;
  a->tok = q->tok;
  a->is_buffer = true;
  Type *et = unqual(q->ty->base);
  a->elem_ty = et->kind == TY_VOID || et->size <= 0 ? ty_uchar : et;
  a->init = INIT_BYTES;
  uint64_t b = (v >> 40) & 0xfffff, off = v & ((1ull << 40) - 1);
  Buffer *B = &hw->HL.bufs[b];
  a->count = (int64_t)((B->bytes - off) / (size_t)a->elem_ty->size);
  a->bytes = copy_bytes_of(B->data + off, (size_t)a->count * (size_t)a->elem_ty->size);
  hw->recorded_bytes += (uint64_t)a->count * (uint64_t)a->elem_ty->size;
  a->out = true;
  return a;
}

static ArgSpec *recorded_scalar(Obj *q, Val v) {
  ArgSpec *a = arena_alloc(sizeof(ArgSpec));
  a->name = q->name;
  a->tok = q->tok;
  if (q->ty->kind == TY_FLOAT) {
    a->scalar.is_float = true;
    a->scalar.d = v.f;
  } else if (q->ty->kind == TY_DOUBLE) {
    a->scalar.is_float = true;
    a->scalar.d = v.d;
  } else a->scalar.i = v.i;
  return a;
}

/* which new distinct launches get copies of their buffers (HostOptions: --launch N, --kernel
 * K's first; by default the first DEFAULT_COPIED and each kernel's first) */
static bool wants_copy(const HostOptions *o, int number, Obj *k, bool kernel_first) {
  if (o->copy_launch) return number == o->copy_launch;
  if (o->copy_kernel) return kernel_first && !strcmp(k->name, o->copy_kernel);
  return number <= DEFAULT_COPIED || kernel_first;
}

/* the index in r->rec of a launch of KL's configuration, or where a new one goes (-slot - 1) */
static int find_recorded(HostWorld *hw, uint64_t h, const Launch *KL) {
  HostResult *r = hw->r;
  if (r->nrec * 2 >= hw->hash_cap) { /* grow and rehash */
    int cap = hw->hash_cap ? hw->hash_cap * 2 : 256;
    free(hw->by_hash);
    hw->by_hash = xmalloc(sizeof(int) * (size_t)cap);
    hw->hash_cap = cap;
    for (int i = 0; i < r->nrec; i++) {
      size_t j = (size_t)r->rec[i].hash & (size_t)(cap - 1);
      while (hw->by_hash[j]) j = (j + 1) & (size_t)(cap - 1);
      hw->by_hash[j] = i + 1;
    }
  }
  size_t j = (size_t)h & (size_t)(hw->hash_cap - 1);
  for (; hw->by_hash[j]; j = (j + 1) & (size_t)(hw->hash_cap - 1)) {
    RecordedLaunch *rl = &r->rec[hw->by_hash[j] - 1];
    if (rl->hash == h && same_launch(rl, KL->kernel, KL)) return hw->by_hash[j] - 1;
  }
  return -(int)j - 1;
}

/* keep a launch whose configuration is new; its buffers as they are now where wants_copy */
static void record(HostWorld *hw, Node *at, const Launch *KL, int number) {
  HostResult *r = hw->r;
  uint64_t h = launch_hash(KL->kernel, KL);
  int found = find_recorded(hw, h, KL);
  if (found >= 0) {
    r->rec[found].count++;
    return;
  }
  int np = 0, i = 0;
  for (Obj *q = KL->kernel->params; q; q = q->next, np++)
    if (q->ty->kind == TY_PTR && !device_pointer(hw, KL->args[np].u))
      return; /* the launch faults, and is not analyzed */
  if (r->nrec >= MAX_DISTINCT) {
    r->unrecorded++;
    return;
  }
  bool kernel_first = true;
  for (int s = 0; s < hw->nseen; s++) kernel_first &= hw->kernels_seen[s] != KL->kernel;
  if (kernel_first) {
    hw->kernels_seen = xrealloc(hw->kernels_seen, sizeof(Obj *) * (size_t)(hw->nseen + 1));
    hw->kernels_seen[hw->nseen++] = KL->kernel;
  }
  bool copy = wants_copy(hw->o, r->nrec + 1, KL->kernel, kernel_first);
  if (copy && hw->recorded_bytes >= MAX_RECORDED_BYTES) {
    copy = false;
    r->uncopied++;
  }
  ArgSpec **args = arena_alloc(sizeof(ArgSpec *) * (size_t)(np + 1));
  for (Obj *q = KL->kernel->params; q; q = q->next, i++)
    args[i] = q->ty->kind != TY_PTR ? recorded_scalar(q, KL->args[i])
              : copy                ? recorded_buffer(hw, q, KL->args[i].u)
                                    : NULL;
  /* pointers into one allocation: the one at the lowest address keeps the bytes, the others are
   * recorded as aliases of it (alias(P, OFF)), so the launch replayed (carve optimize's
   * verification) binds one buffer, as the program did */
  i = 0;
  for (Obj *q = KL->kernel->params; q; q = q->next, i++) {
    if (q->ty->kind != TY_PTR || !args[i]) continue;
    uint64_t u = KL->args[i].u, ub = (u >> 40) & 0xfffff, uo = u & ((1ull << 40) - 1);
    int j = 0, base = -1;
    uint64_t bo = uo;
    const char *bname = NULL;
    for (Obj *r = KL->kernel->params; r; r = r->next, j++) {
      uint64_t w = KL->args[j].u, wo = w & ((1ull << 40) - 1);
      if (r == q || r->ty->kind != TY_PTR || ((w >> 40) & 0xfffff) != ub) continue;
      if (wo < bo || (wo == bo && j < i && base < 0)) {
        base = j;
        bo = wo;
        bname = r->name;
      }
    }
    if (base >= 0 && (bo < uo || base < i)) {
      args[i]->alias = (char *)bname;
      args[i]->alias_off = (int64_t)(uo - bo);
    }
  }
  if (r->nrec == r->cap_rec) {
    r->cap_rec = r->cap_rec ? r->cap_rec * 2 : 16;
    r->rec = xrealloc(r->rec, sizeof(RecordedLaunch) * (size_t)r->cap_rec);
  }
  hw->by_hash[-found - 1] = r->nrec + 1;
  RecordedLaunch *rl = &r->rec[r->nrec++];
  memset(rl, 0, sizeof *rl);
  rl->kernel = KL->kernel;
  rl->hash = h;
  rl->kept = copy;
  memcpy(rl->grid, KL->grid, sizeof rl->grid);
  memcpy(rl->block, KL->block, sizeof rl->block);
  rl->dyn_shared = KL->dyn_shared;
  rl->site = tok_loc(at->tok);
  rl->first = number;
  rl->count = 1;
  rl->ov.has_grid = rl->ov.has_block = true;
  memcpy(rl->ov.grid, KL->grid, sizeof rl->ov.grid);
  memcpy(rl->ov.block, KL->block, sizeof rl->ov.block);
  rl->ov.dyn_shared = KL->dyn_shared;
  rl->ov.args = args;
  rl->ov.nargs = np;
  if (copy) {
    rl->ov.constant = copy_bytes_of(hw->HL.constant, (size_t)hw->p->constant_size);
    rl->ov.device_vars = copy_bytes_of(hw->HL.bufs[0].data, hw->HL.bufs[0].bytes);
  }
}

void host_launch(HostCtx *c, Node *at, const int64_t grid[3], const int64_t block[3], int64_t shmem,
                 const Val *args, int *status) {
  HostWorld *hw = c->hw;
  Launch KL = hw->HL;
  KL.kernel = at->fn;
  KL.host_code = false;
  memcpy(KL.grid, grid, sizeof KL.grid);
  memcpy(KL.block, block, sizeof KL.block);
  KL.dyn_shared = shmem;
  KL.where = tok_loc(at->tok);
  int np = 0;
  for (Obj *q = at->fn->params; q; q = q->next) np++;
  KL.args = xmalloc(sizeof(Val) * (size_t)(np ? np : 1));
  memcpy(KL.args, args, sizeof(Val) * (size_t)np);
  /* a host stack address means nothing in a kernel: a dereference there is a located fault */
  int i = 0;
  for (Obj *q = at->fn->params; q; q = q->next, i++)
    if (q->ty->kind == TY_PTR && ADDR_SPACE(KL.args[i].u) == SPACE_LOCAL)
      KL.args[i].u = HOST_ADDR(0xfffff, KL.args[i].u & 0xffffffffffull);
  int number = ++hw->r->launches;
  if (!at->fn->body) {
    diag_at(DIAG_ERROR, tok_loc(at->tok), "launch of '%s', which is declared but never defined",
            at->fn->name);
    *status = 2;
    free(KL.args);
    return;
  }
  /* a configuration CUDA refuses (an empty grid, as the last step of a factorization sweep
   * makes; a block over 1024 threads): the launch does not run, cudaGetLastError returns
   * cudaErrorInvalidConfiguration, and the program goes on, as on a GPU */
  bool quiet = diag_quiet;
  int errs = diag_errors;
  diag_quiet = true;
  int bad = launch_check_dims(&KL);
  diag_quiet = quiet;
  diag_errors = errs;
  if (bad) {
    if (!hw->r->invalid_launches++)
      diag_at(DIAG_WARNING, tok_loc(at->tok),
              "launch of '%s': %s; CUDA does not run it and returns cudaErrorInvalidConfiguration "
              "(cudaGetLastError sees it), and so does carve",
              at->fn->name, diag_last_msg);
    hw->last_error = 9;
    *status = 0;
    free(KL.args);
    return;
  }
  if (hw->o->record) record(hw, at, &KL, number);
  RunStats st;
  RunOptions ro = hw->o->kernel_opt;
  fflush(hw->out);
  double launch_t0 = wall_now();
  if (hw->o->native) {
    /* a large launch runs natively, sampled blocks checked in the interpreter first (native.c);
     * why the interpreter ran a kernel instead is said once per kernel */
    NativeOptions no = *hw->o->native;
    no.quiet = true;
    if (!hw->memo) hw->memo = native_memo_new();
    no.memo = hw->memo;
    NativeReport rep;
    *status = native_run_launch(&KL, &ro, &no, &st, &rep);
    if (!strcmp(rep.engine, "native")) {
      hw->r->native_launches++;
      hw->r->native_seconds += rep.native_seconds;
      hw->r->blocks_checked += (uint64_t)rep.blocks_checked;
    } else if (rep.why[0] && *status != 1) {
      bool said = false;
      for (int s = 0; s < hw->nsaid; s++) said |= hw->said[s] == at->fn;
      if (!said) {
        hw->said = xrealloc(hw->said, sizeof(Obj *) * (size_t)(hw->nsaid + 1));
        hw->said[hw->nsaid++] = at->fn;
        fprintf(stderr, "carve: note: the interpreter runs '%s': %s\n", at->fn->name, rep.why);
      }
    }
  } else *status = interp_run(&KL, &ro, &st);
  /* the time limit is for host code: a launch's time does not count */
  if (hw->host_ro) hw->host_ro->seconds_excluded += wall_now() - launch_t0;
  hw->kernel_steps += st.warp_steps;
  hw->r->kernel_lane_ops += st.lane_ops;
  hw->r->kernel_seconds += st.seconds;
  if (*status == 1) hw->last_error = 700;
  free(KL.args);
}

/* ---------------- the program ---------------- */
static int new_world_buffer(HostWorld *hw, BufferKind k, size_t bytes, const char *name) {
  HostCtx c = {hw, NULL, NULL, NULL, 0};
  const char *msg;
  int b = new_buffer(&c, k, bytes, name, name, ty_uchar, &msg);
  if (b < 0) {
    diag_at(DIAG_ERROR, (SrcLoc){0}, "%s", msg);
    return -1;
  }
  return b;
}

/* argv as the program sees it: host strings and a NULL-terminated array of their addresses */
static uint64_t make_argv(HostWorld *hw, int argc, const char **argv) {
  int arr = new_world_buffer(hw, BUF_HOST, sizeof(uint64_t) * (size_t)(argc + 1), "argv");
  if (arr < 0) return 0;
  for (int i = 0; i < argc; i++) {
    size_t len = strlen(argv[i]) + 1;
    int b = new_world_buffer(hw, BUF_HOST, len, fmt("argv[%d]", i));
    if (b < 0) return 0;
    memcpy(hw->HL.bufs[b].data, argv[i], len);
    uint64_t a = HOST_ADDR(b, 0);
    memcpy(hw->HL.bufs[arr].data + 8 * i, &a, 8);
  }
  return HOST_ADDR(arr, 0);
}

/* the host variables' initial values; stdin, stdout and stderr are handles */
static void init_host_vars(HostWorld *hw) {
  Program *p = hw->p;
  unsigned char *base = hw->HL.bufs[hw->HL.host_vars].data;
  init_variables(p->host_globals, base);
  for (Obj *v = p->host_globals; v; v = v->next) {
    uint64_t h = !strcmp(v->name, "stdin")    ? FILE_STDIN
                 : !strcmp(v->name, "stdout") ? FILE_STDOUT
                 : !strcmp(v->name, "stderr") ? FILE_STDERR
                                              : 0;
    if (h && v->ty->kind == TY_PTR) memcpy(base + v->offset, &h, 8);
  }
}

static Obj *host_entry(Program *p, const char *name) {
  Obj *f = find_host_function(p, name);
  Obj *caller = NULL;
  HostSkip *u = f ? host_unread_callee(p, f, &caller) : NULL;
  if (
    u) { /* defined, but its body did not parse: the real cause, not "never defined" at the call */
    diag_at(DIAG_ERROR, u->loc, "%s", u->msg);
    diag_at(DIAG_NOTE, u->loc,
            "the host function '%s' (called by '%s') could not be read, so the program cannot run",
            u->name, caller ? caller->name : f->name);
    return NULL;
  }
  if (f) return f;
  const char *want = name ? name : "main";
  for (HostSkip *h = p->host_skipped; h; h = h->next)
    if (!strcmp(h->name, want)) {
      diag_at(DIAG_ERROR, h->loc, "%s", h->msg);
      diag_at(DIAG_NOTE, h->loc,
              "the host function '%s' could not be read, so the program cannot run", want);
      return NULL;
    }
  diag_at(DIAG_ERROR, (SrcLoc){0}, "%s has no host function '%s'", p->path ? p->path : "the file",
          want);
  return NULL;
}

/* main's arguments: (), (argc), (argc, argv) */
static bool bind_main(HostWorld *hw, Obj *f, int argc, const char **argv) {
  int np = 0;
  for (Obj *q = f->params; q; q = q->next) np++;
  hw->HL.args = xmalloc(sizeof(Val) * (size_t)(np ? np : 1));
  int i = 0;
  for (Obj *q = f->params; q; q = q->next, i++) {
    if (i == 0 && is_integer(q->ty)) hw->HL.args[0].i = argc;
    else if (i == 1 && q->ty->kind == TY_PTR) hw->HL.args[1].u = make_argv(hw, argc, argv);
    else {
      diag_at(
        DIAG_ERROR, tok_loc(q->tok),
        "the host function '%s' takes parameters carve cannot give (main's are int argc, char **argv)",
        f->name);
      return false;
    }
  }
  return true;
}

int host_run(Program *p, const HostOptions *o, HostResult *r) {
  memset(r, 0, sizeof *r);
  r->status = 2;
  Obj *f = host_entry(p, o->func);
  if (!f) return 2;
  HostWorld *hw = xmalloc(sizeof(HostWorld));
  hw->p = p;
  hw->o = o;
  hw->r = r;
  hw->out = o->out ? o->out : stdout;
  hw->rand48 = 0x1234ABCD330Eull;             /* POSIX: drand48 before srand48 */
  host_rand_seed(hw->rand_r, &hw->rand_i, 1); /* C: rand before srand is srand(1) */
  Launch *HL = &hw->HL;
  HL->prog = p;
  HL->kernel = f;
  HL->host_code = true;
  HL->world = hw;
  HL->machine = o->machine;
  for (int d = 0; d < 3; d++) HL->grid[d] = HL->block[d] = 1;
  HL->where = tok_loc(f->tok);
  HL->constant = xmalloc((size_t)p->constant_size + 1);
  int status = 2;
  if (new_world_buffer(hw, BUF_DEVICE, (size_t)p->device_global_size, "__device__ variables") != 0)
    goto done;
  HL->host_vars = new_world_buffer(hw, BUF_HOST, (size_t)p->host_global_size, "host variables");
  if (HL->host_vars < 0) goto done;
  HL->bufs[0].count = p->device_global_size;
  launch_init_globals(HL);
  init_host_vars(hw);
  if (!bind_main(hw, f, o->argc, o->argv)) goto done;
  RunStats st;
  RunOptions ro = o->kernel_opt;
  /* the step limit: the one given; else none where a wall-clock limit applies, else 10^11 */
  ro.max_steps = o->max_steps         ? o->max_steps
                 : o->max_seconds > 0 ? UINT64_MAX / 2
                                      : 100000000000ull;
  ro.max_seconds = o->max_steps ? 0 : o->max_seconds;
  ro.hooks = NULL;
  hw->host_ro = &ro;
  double t0 = wall_now();
  status = interp_run(HL, &ro, &st);
  r->host_seconds = wall_now() - t0;
  /* stopped by the wall-clock limit (the step limit is then out of reach) */
  r->timed_out = status == 2 && st.stopped && !o->max_steps && o->max_seconds > 0;
  r->host_steps = st.warp_steps;
  fflush(hw->out);
  if (status == 0) r->exit_code = hw->exited ? hw->exit_code : (int)(HL->host_ret.i & 0xff);
done:
  r->status = status;
  for (int i = 0; i < HL->nbufs; i++) free(HL->bufs[i].data);
  free(HL->bufs);
  free(HL->args);
  free(HL->constant);
  free(hw->strs);
  free(hw->events);
  free(hw->by_hash);
  free(hw->kernels_seen);
  free(hw->said);
  native_memo_free(hw->memo);
  buf_free(&hw->scratch);
  free(hw);
  return status;
}

void host_result_free(HostResult *r) {
  free(r->rec);
  memset(r, 0, sizeof *r);
}
