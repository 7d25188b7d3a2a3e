/* interp: the SIMT reference interpreter (see interp.h for the model). */
#include "interp.h"
#include "half.h"
#include "host.h"
#include "../arch/arch.h"
#include "../front/limits_parse.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define CARVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CARVE_ASAN 1
#endif
#endif
#ifdef CARVE_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
void __asan_unpoison_memory_region(const volatile void *addr, size_t size);
#endif

#define W 32
#define FULL 0xffffffffu
#define OFF_MASK ((1ull << 40) - 1)
/* calls inside one another (docs/limits.md): a kernel's, as deep as the template instances the
 * parser makes (nvcc inlines such chains; true device recursion is bounded on a GPU by its stack,
 * 1 KB a thread by default), and a host program's, bounded on a CPU by its 8 MiB stack; carve's
 * frames are allocated as a call first reaches a depth */
#ifndef MAX_CALL_DEPTH
#define MAX_CALL_DEPTH 1024
#endif
#ifndef MAX_HOST_CALL_DEPTH
#define MAX_HOST_CALL_DEPTH 100000
#endif
/* helpers with large frames stay out of eval, whose frame every level of a tree pays for */
#define NOINLINE __attribute__((noinline))

/* Every warp runs on a C stack of the interpreter's own (mmap'ed without reserving memory, so
 * only the pages the code reaches are touched; a guard page below), never on the caller's:
 * eval and exec recurse once per level of the tree, so the stack is sized from the parser's
 * limits (limits_parse.h) times the bytes a level takes. Those were measured on the deepest
 * chains (tests/test_interp.c's test_depth_limits; -O2 / ASan -O1): a + b chains 608 / 4325
 * bytes per level, float a*b + c chains (FMA) 1232 / 5136, p[0].p member/index chains
 * 944 / 6936, && chains 896 / 4757, nested statements 368-720 / 2205-2765, nested calls as
 * arguments (parser recursion, at most LIMIT_EXPR_NESTING) 1952 / 8750. A warp that goes
 * deeper anyway (recursion through deep code) stops with a located fault when it reaches
 * STACK_MARGIN, which is left for reporting it. */
#ifdef CARVE_ASAN
#define EXPR_LEVEL_BYTES 7168
#define STMT_LEVEL_BYTES 3072
#define NEST_LEVEL_BYTES 9216
#define STACK_MARGIN ((size_t)1 << 20)
#else
#define EXPR_LEVEL_BYTES 1280
#define STMT_LEVEL_BYTES 768
#define NEST_LEVEL_BYTES 2048
#define STACK_MARGIN ((size_t)256 << 10)
#endif
#define PAGE_BYTES ((size_t)4096)
#define WARP_STACK ((STACK_MARGIN + (size_t)LIMIT_EXPR_DEPTH * EXPR_LEVEL_BYTES + (size_t)LIMIT_STMT_NESTING * STMT_LEVEL_BYTES + \
                     (size_t)LIMIT_EXPR_NESTING * NEST_LEVEL_BYTES + PAGE_BYTES - 1) & ~(PAGE_BYTES - 1))

/* host code is one thread whose calls recurse as a C program's do: its stack is large enough for
 * MAX_HOST_CALL_DEPTH calls of a small function (1.8 KB of carve's stack a level at -O2;
 * reserved, not touched, until used) */
#ifdef CARVE_ASAN
#define HOST_WARP_STACK ((size_t)4 << 30)
#else
#define HOST_WARP_STACK ((size_t)1 << 30)
#endif
#define STACK_BYTES(I) ((I)->host ? HOST_WARP_STACK : WARP_STACK)

typedef enum { WS_READY, WS_BARRIER, WS_DONE } WarpState;

typedef struct Frame {
  Obj *fn;
  Val *regs;           /* nslots x 32 */
  uint64_t base;       /* offset of the frame in each thread's local stack */
  Mask ret_mask;       /* lanes that executed return */
  Val ret[W];
  uint64_t ret_addr;   /* struct results: the caller's temporary */
} Frame;

typedef struct Interp Interp;

/* an async copy (__pipeline_memcpy_async) a thread issued and has not waited for: performed
 * only at the __pipeline_wait_prior that covers its group (docs/DESIGN.md, "Async copies") */
typedef struct AsyncCopy {
  Node *at;
  uint64_t dst, src;
  uint32_t group;      /* the thread's commit count when it was issued */
  uint8_t lane, size, zfill;
} AsyncCopy;

typedef struct Warp {
  Interp *I;
  uintptr_t stack_floor;  /* eval and exec stop with a fault below this address (see WARP_STACK) */
  int index;           /* warp index in the block */
  Mask valid;          /* lanes that are threads of the block */
  Mask exited;         /* lanes that returned from the kernel */
  uint32_t tid[3][W];
  int linear_tid[W];
  WarpState state;
  Node *barrier_at;
  Mask barrier_mask;
  int barrier_pred_count;  /* __syncthreads_count etc. */
  int barrier_result;
  Frame *frame;
  Frame **frames;      /* one per depth reached, each allocated once: regs buffers are kept and
                        * reused across calls, and a Frame never moves */
  int *reg_cap, nframes;
  int depth;
  uint64_t sp;         /* top of the thread-local stacks (same offset in every lane's stack) */
  Mask *brk, *cont;    /* innermost loop/switch: lanes that broke / continued */
  int access;          /* what the address being computed is for: 0 read, 1 write, 2 address-of */
  uint64_t steps;      /* steps this warp has taken in this block */
  ucontext_t ctx;
  void *stack;         /* WARP_STACK bytes above a guard page */
  jmp_buf fault_jmp;
  void *fake_stack;
  AsyncCopy *pending;  /* issued, not yet performed, in issue order (all lanes) */
  int npending, pending_cap;
  uint32_t committed[W];  /* __pipeline_commit calls per lane in this block */
} Warp;

struct Interp {
  Launch *L;
  const RunOptions *opt;
  RunStats *st;
  uint64_t max_steps;
  int64_t block_id[3];
  int64_t block_linear;
  int nthreads, nwarps;
  Warp *warps;
  unsigned char *shared;
  size_t shared_size, dyn_base;
  unsigned char *local;       /* nthreads x local_size */
  size_t local_size;
  /* race shadow: per shared byte */
  uint32_t *w_epoch, *r_epoch;
  uint16_t *w_warp, *r_warp;
  Node **w_node, **r_node;   /* the access that set the shadow, for the race report */
  uint32_t epoch;
  int reports;
  bool fault;
  ucontext_t sched_ctx;
  void *sched_fake_stack;
  const void *sched_stack_bottom;
  size_t sched_stack_size;
  Warp *running;
  bool coroutines;
  int nstacks;         /* warps[0..nstacks-1].stack are mapped */
  bool stopped;        /* the step limit was reached (I->fault is set too, to stop every loop) */
  bool dev_ok;         /* host code: a runtime call (cudaMemcpy) may reach device memory now */
  double t0, last_progress;   /* progress: start and last line printed (seconds) */
  bool progress_shown;
  bool time_out;              /* host code stopped by RunOptions.max_seconds */
  uint64_t host_ticks;        /* host code: loop iterations, for the progress line */
  bool host, world;           /* L->host_code, L->world != NULL: read on hot paths */
  size_t abandoned;    /* ASan: how far below a stack's top frames were left by a longjmp */
  int64_t async_pending;      /* async copies pending in the block, all warps (ASYNC_MAX_PENDING) */
  Node *async_unwaited_at;    /* the first copy a thread ended without waiting for */
};

/* async copies pending in one block at once: carve's bound on the memory they take (32 bytes
 * each, 32 MiB), far above a pipeline's stages x copies per thread x threads */
#define ASYNC_MAX_PENDING ((int64_t)1 << 20)

/* ---------------- faults ---------------- */
/* leave the warp's code for its warp_entry (a fault, or the sampling cap). Under ASan the frames
 * jumped over keep their poisoned redzones (ASan does not clean a stack this large on longjmp):
 * remember how deep, so the next warp to start on the stack unpoisons that much. */
static _Noreturn void unwind_warp(Warp *w) {
#ifdef CARVE_ASAN
  size_t depth = (size_t)((uintptr_t)w->stack + STACK_BYTES(w->I) - (uintptr_t)__builtin_frame_address(0));
  if (depth > w->I->abandoned) w->I->abandoned = depth;
#endif
  longjmp(w->fault_jmp, 1);
}

static void thread_desc(Warp *w, int lane, char *buf, size_t n) {
  Interp *I = w->I;
  snprintf(buf, n, "block (%lld,%lld,%lld) thread (%u,%u,%u)", (long long)I->block_id[0], (long long)I->block_id[1],
           (long long)I->block_id[2], w->tid[0][lane], w->tid[1][lane], w->tid[2][lane]);
}

const char *fault_kind_name(FaultKind k) {
  static const char *names[FAULT_NKINDS] = {
    [FAULT_OUT_OF_BOUNDS] = "out-of-bounds", [FAULT_MISALIGNED] = "misaligned", [FAULT_NULL_POINTER] = "null-pointer",
    [FAULT_INVALID_ADDRESS] = "invalid-address", [FAULT_MEMORY_SPACE] = "memory-space", [FAULT_FREED_MEMORY] = "freed-memory",
    [FAULT_CONSTANT_WRITE] = "constant-write", [FAULT_DIVISION_BY_ZERO] = "division-by-zero", [FAULT_RACE] = "race",
    [FAULT_DIVERGENT_BARRIER] = "divergent-barrier", [FAULT_DIVERGENT_COLLECTIVE] = "divergent-collective", [FAULT_SHUFFLE] = "shuffle",
    [FAULT_STACK_OVERFLOW] = "stack-overflow", [FAULT_UNDEFINED_FUNCTION] = "undefined-function", [FAULT_ASSERTION] = "assertion",
    [FAULT_RUNTIME_ERROR] = "runtime-error", [FAULT_UNSUPPORTED] = "unsupported", [FAULT_KERNEL_LAUNCH] = "kernel-fault",
    [FAULT_INTERNAL] = "internal",
  };
  return k >= 0 && k < FAULT_NKINDS && names[k] ? names[k] : "fault";
}

/* the fault as data, in RunStats (the first RUN_MAX_FAULT_RECORDS; the count has them all) */
static void record_fault(Interp *I, FaultKind kind, Node *n, Node *other, const Warp *w, int lane, const char *msg) {
  RunStats *st = I->st;
  if (st->nfault >= RUN_MAX_FAULT_RECORDS) return;
  Fault *f = &st->fault[st->nfault++];
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->at = n;
  f->other = other;
  f->in_kernel = !I->L->host_code;
  memcpy(f->block, I->block_id, sizeof f->block);
  f->lane = f->in_kernel && w ? lane : -1;
  if (f->lane >= 0)
    for (int d = 0; d < 3; d++) f->thread[d] = w->tid[d][lane];
  snprintf(f->message, sizeof f->message, "%s", msg);
}

/* a fault of the warp: counted, recorded, reported (the first max_reports: the error, then the
 * other access of a race as a note), and the warp unwound */
#define fault_at(w, kind, n, lane, ...) fault_raise(w, kind, n, NULL, lane, __VA_ARGS__)
static _Noreturn void fault_raise(Warp *w, FaultKind kind, Node *n, Node *other, int lane, const char *f, ...)
    __attribute__((format(printf, 6, 7)));
static _Noreturn void fault_raise(Warp *w, FaultKind kind, Node *n, Node *other, int lane, const char *f, ...) {
  Interp *I = w->I;
  I->fault = true;
  I->st->faults++;
  bool print = I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10);
  if (print || I->st->nfault < RUN_MAX_FAULT_RECORDS) {
    va_list ap;
    va_start(ap, f);
    char *msg = vfmt(f, ap);
    va_end(ap);
    char where[128] = "";
    if (lane >= 0 && !I->L->host_code) thread_desc(w, lane, where, sizeof where);
    else lane = -1;
    char *text = fmt("%s%s%s", msg, lane >= 0 ? " in " : "", where);
    record_fault(I, kind, n, other, w, lane, text);
    if (print) {
      diag_at(DIAG_ERROR, n ? tok_loc(n->tok) : (SrcLoc){0}, "%s", text);
      if (other) diag_at(DIAG_NOTE, tok_loc(other->tok), "the other access of the race (by another warp)");
    }
  }
  unwind_warp(w);
}

/* ---------------- memory ---------------- */
static const char *space_name(int s) {
  static const char *names[] = {"invalid", "global", "shared", "local", "constant", "host"};
  return s >= 0 && s <= 5 ? names[s] : "invalid";
}

/* a host program's buffer for a message: its name and where it was allocated */
static const char *buffer_desc(const Buffer *buf) {
  if (!buf) return "a host stack variable or an invalid address";
  if (!buf->how) return fmt("'%s'", buf->name);
  return fmt("'%s', %s at %s:%d", buf->name, buf->how, buf->at.file ? buf->at.file->name : "?", buf->at.line);
}

/* host programs: whether this code may touch the memory at a (host or global space): kernels
 * reach device and managed memory, host code host and managed memory (and device memory only
 * inside cudaMemcpy and its kin); freed memory is nobody's */
static NOINLINE __attribute__((cold)) void host_memory_check(Warp *w, Node *at, int lane, uint64_t a, const char *what) {
  Interp *I = w->I;
  uint64_t b = (a >> 40) & 0xfffff;
  Buffer *buf = b < (uint64_t)I->L->nbufs ? &I->L->bufs[b] : NULL;
#define desc buffer_desc(buf)
  bool host_space = ADDR_SPACE(a) == SPACE_HOST;
  if (host_space && !I->L->host_code)
    fault_at(w, FAULT_MEMORY_SPACE, at, lane, "the kernel %ss host memory (%s): a kernel reaches device memory only (cudaMalloc, cudaMallocManaged)", what, desc);
  if (!buf) fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s at an invalid address 0x%llx", what, (unsigned long long)a);
  if (host_space != (buf->kind == BUF_HOST)) fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s at an invalid address 0x%llx", what, (unsigned long long)a);
  if (buf->freed) fault_at(w, FAULT_FREED_MEMORY, at, lane, "%s of freed memory (%s)", what, desc);
  if (I->L->host_code && buf->kind == BUF_DEVICE && !I->dev_ok)
    fault_at(w, FAULT_MEMORY_SPACE, at, lane, "host code %ss device memory (%s): copy it with cudaMemcpy, or allocate it with cudaMallocManaged", what, desc);
#undef desc
}

/* host code reaching device memory (outside cudaMemcpy and its kin): checked once per warp-wide
 * access, in host code only, so kernels pay nothing for it */
static void host_device_check(Warp *w, Node *at, const uint64_t *addr, Mask m, bool write) {
  Interp *I = w->I;
  if (__builtin_expect(!I->host, 1) || I->dev_ok) return;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1) || ADDR_SPACE(addr[l]) != SPACE_GLOBAL) continue;
    uint64_t b = (addr[l] >> 40) & 0xfffff;
    if (b < (uint64_t)I->L->nbufs && I->L->bufs[b].kind == BUF_DEVICE) host_memory_check(w, at, l, addr[l], write ? "write" : "read");
  }
}

/* host pointer for `size` bytes at device address a, or a fault */
static unsigned char *resolve(Warp *w, Node *at, int lane, uint64_t a, int size, bool write) {
  Interp *I = w->I;
  int space = ADDR_SPACE(a);
  uint64_t off = a & OFF_MASK;
  const char *what = write ? "write" : "read";
  if (a == 0) fault_at(w, FAULT_NULL_POINTER, at, lane, "%s of %d bytes through a null pointer", what, size);
  if (size > 1 && (a & (uint64_t)(size > 16 ? 15 : size - 1)) && size <= 16 && (size & (size - 1)) == 0)
    fault_at(w, FAULT_MISALIGNED, at, lane, "misaligned %s %s of %d bytes at offset %llu", space_name(space), what, size, (unsigned long long)off);
  switch (space) {
  case SPACE_HOST:   /* the same table as global memory; kernels may not (host_memory_check) */
    host_memory_check(w, at, lane, a, what);
    /* fallthrough */
  case SPACE_GLOBAL: {
    uint64_t b = (a >> 40) & 0xfffff;
    if (b >= (uint64_t)I->L->nbufs) fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s of %d bytes at an invalid global address", what, size);
    Buffer *buf = &I->L->bufs[b];
    if (off + (uint64_t)size > buf->bytes) {
      if (buf->freed) host_memory_check(w, at, lane, a, what);   /* freed: 0 bytes, and said so */
      /* an index below 0 borrows from the buffer number: report it against the buffer above */
      if (b + 1 < (uint64_t)I->L->nbufs && off + size > OFF_MASK / 2) {
        Buffer *nb = &I->L->bufs[b + 1];
        long long el = (long long)(off - (OFF_MASK + 1)) / (nb->elem_ty ? nb->elem_ty->size : 1);
        fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds global %s of %d bytes: element %lld of '%s' (%lld elements)", what, size, el,
                 nb->name, (long long)nb->count);
      }
      long long el = (long long)off / (buf->elem_ty ? buf->elem_ty->size : 1);
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds %s %s of %d bytes: element %lld of '%s' (%lld elements)", space_name(space), what, size, el,
               buf->name, (long long)buf->count);
    }
    return buf->data + off;
  }
  case SPACE_SHARED:
    if (off + (uint64_t)size > I->shared_size)
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds shared %s of %d bytes at byte %lld (the block has %zu bytes of shared memory)", what,
               size, (long long)(int64_t)off, I->shared_size);
    return I->shared + off;
  case SPACE_LOCAL: {
    uint64_t t = (a >> 40) & 0xfffff;
    if (t >= (uint64_t)I->nthreads || off + (uint64_t)size > I->local_size)
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds local %s of %d bytes (a local array indexed out of range?)", what, size);
    return I->local + t * I->local_size + off;
  }
  case SPACE_CONST:
    if (write) fault_at(w, FAULT_CONSTANT_WRITE, at, lane, "write to __constant__ memory");
    if (off + (uint64_t)size > (uint64_t)I->L->prog->constant_size)
      fault_at(w, FAULT_OUT_OF_BOUNDS, at, lane, "out-of-bounds constant read of %d bytes", size);
    return I->L->constant + off;
  default:
    fault_at(w, FAULT_INVALID_ADDRESS, at, lane, "%s of %d bytes at an invalid address 0x%llx", what, size, (unsigned long long)a);
  }
}

static void race_check(Warp *w, Node *at, int lane, uint64_t a, int size, bool write) {
  Interp *I = w->I;
  if (I->opt->no_race_check) return;
  uint64_t off = a & OFF_MASK;
  uint16_t me = (uint16_t)w->index;
  for (uint64_t b = off; b < off + (uint64_t)size; b++) {
    Node *other = NULL;
    const char *msg = NULL;
    /* an async copy's write lands at any time from its issue to its thread's wait: say so */
    const char *mine = at->kind == ND_CALL && at->builtin == BI_PIPE_COPY ? "async copy's write" : write ? "write" : "read";
    if (I->w_epoch[b] == I->epoch && I->w_warp[b] != me) {
      other = I->w_node[b];
      bool async = other && other->kind == ND_CALL && other->builtin == BI_PIPE_COPY;
      msg = fmt("shared-memory race: this %s of byte %llu and %s by warp %d with no __syncthreads between them", mine,
                (unsigned long long)b, async ? "an async copy's write (pending until its thread's __pipeline_wait_prior)" : "a write",
                I->w_warp[b]);
    } else if (write && I->r_epoch[b] == I->epoch && I->r_warp[b] != me) {
      other = I->r_node[b];
      msg = fmt("shared-memory race: this %s of byte %llu and a read by %s with no __syncthreads between them", mine,
                (unsigned long long)b, I->r_warp[b] == 0xffff ? "several warps" : fmt("warp %d", I->r_warp[b]));
    }
    if (msg) fault_raise(w, FAULT_RACE, at, other, lane, "%s", msg);
  }
  for (uint64_t b = off; b < off + (uint64_t)size; b++) {
    if (write) { I->w_epoch[b] = I->epoch; I->w_warp[b] = me; I->w_node[b] = at; }
    else if (I->r_epoch[b] != I->epoch) { I->r_epoch[b] = I->epoch; I->r_warp[b] = me; I->r_node[b] = at; }
    else if (I->r_warp[b] != me) I->r_warp[b] = 0xffff;
  }
}

static Val read_scalar(const unsigned char *p, Type *t) {
  Val v;
  switch (t->kind) {
  case TY_FLOAT: memcpy(&v.f, p, 4); v.u &= 0xffffffffu; memcpy(&v.f, p, 4); return v;
  case TY_DOUBLE: memcpy(&v.d, p, 8); return v;
  case TY_BOOL: v.i = *p != 0; return v;
  default: break;
  }
  switch (t->size) {
  case 1: v.i = t->is_unsigned ? (int64_t)*(const uint8_t *)p : (int64_t)*(const int8_t *)p; return v;
  case 2: { uint16_t x; memcpy(&x, p, 2); v.i = t->is_unsigned ? (int64_t)x : (int64_t)(int16_t)x; return v; }
  case 4: { uint32_t x; memcpy(&x, p, 4); v.i = t->is_unsigned ? (int64_t)x : (int64_t)(int32_t)x; return v; }
  default: memcpy(&v.u, p, 8); return v;
  }
}

static void write_scalar(unsigned char *p, Type *t, Val v) {
  switch (t->kind) {
  case TY_FLOAT: memcpy(p, &v.f, 4); return;
  case TY_DOUBLE: memcpy(p, &v.d, 8); return;
  case TY_BOOL: *p = v.i != 0; return;
  default: break;
  }
  switch (t->size) {
  case 1: *p = (uint8_t)v.u; return;
  case 2: { uint16_t x = (uint16_t)v.u; memcpy(p, &x, 2); return; }
  case 4: { uint32_t x = (uint32_t)v.u; memcpy(p, &x, 4); return; }
  default: memcpy(p, &v.u, 8); return;
  }
}

static void hook_access(Warp *w, Node *at, AccessKind k, int size, const uint64_t *addr, Mask m) {
  const Hooks *h = w->I->opt->hooks;
  if (h && h->access && m) {
    int space = ADDR_SPACE(addr[__builtin_ctz(m)]);
    h->access(h->ctx, at, space, k, size, addr, m, w->I->block_linear, w->index);
  }
}
static void hook_branch(Warp *w, Node *at, Mask active, Mask taken) {
  const Hooks *h = w->I->opt->hooks;
  if (h && h->branch && active) h->branch(h->ctx, at, active, taken, w->I->block_linear, w->index);
}

static void load(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, Val *out) {
  hook_access(w, at, ACC_LOAD, t->size, addr, m);
  host_device_check(w, at, addr, m, false);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) { out[l].u = 0; continue; }
    unsigned char *p = resolve(w, at, l, addr[l], t->size, false);
    if (ADDR_SPACE(addr[l]) == SPACE_SHARED) race_check(w, at, l, addr[l], t->size, false);
    out[l] = read_scalar(p, t);
  }
}

/* Lanes of one warp that store different bytes to one shared-memory address in one
 * instruction: "which thread performs the final write is undefined" (CUDA C++ Programming
 * Guide, SIMT Architecture). Accesses are aligned, so lanes overlap only at equal addresses.
 * bytes(l) gives what lane l stores. */
typedef const void *StoredBytes(Warp *w, Node *at, int lane, const void *ctx);
static void same_address_check(Warp *w, Node *at, int size, const uint64_t *addr, Mask m, StoredBytes *bytes, const void *ctx) {
  /* m: the lanes that store to shared memory */
  if (w->I->opt->no_race_check) return;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    for (int k = 0; k < l; k++) {
      if (!(m >> k & 1) || addr[k] != addr[l]) continue;
      if (!memcmp(bytes(w, at, k, ctx), bytes(w, at, l, ctx), (size_t)size)) continue;
      Interp *I = w->I;
      fault_at(w, FAULT_RACE, at, -1, "shared-memory race: threads (%u,%u,%u) and (%u,%u,%u) of block (%lld,%lld,%lld), in one warp, store different "
               "values to byte %llu in one instruction (which value remains is undefined)", w->tid[0][k], w->tid[1][k], w->tid[2][k],
               w->tid[0][l], w->tid[1][l], w->tid[2][l], (long long)I->block_id[0], (long long)I->block_id[1], (long long)I->block_id[2],
               (unsigned long long)(addr[l] & OFF_MASK));
    }
  }
}

typedef struct { Type *t; const Val *v; unsigned char buf[2][8]; int which; } ScalarBytes;
static const void *scalar_bytes(Warp *w, Node *at, int lane, const void *ctx) {
  ScalarBytes *sb = (ScalarBytes *)ctx;
  unsigned char *b = sb->buf[sb->which ^= 1];
  write_scalar(b, sb->t, sb->v[lane]);
  return b;
}
typedef struct { const uint64_t *src; int size; } CopiedBytes;
static const void *copied_bytes(Warp *w, Node *at, int lane, const void *ctx) {
  const CopiedBytes *cb = ctx;
  return resolve(w, at, lane, cb->src[lane], cb->size, false);
}

static void store(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, const Val *v) {
  hook_access(w, at, ACC_STORE, t->size, addr, m);
  host_device_check(w, at, addr, m, true);
  Mask shared = 0;
  bool rising = true;   /* lane addresses rising: no two lanes share one (the usual case) */
  uint64_t prev = 0;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    unsigned char *p = resolve(w, at, l, addr[l], t->size, true);
    if (ADDR_SPACE(addr[l]) == SPACE_SHARED) {
      race_check(w, at, l, addr[l], t->size, true);
      shared |= 1u << l;
      rising &= addr[l] > prev;
      prev = addr[l];
    }
    write_scalar(p, t, v[l]);
  }
  if (shared && !rising) {
    ScalarBytes sb = {t, v, {{0}}, 0};
    same_address_check(w, at, t->size, addr, shared, scalar_bytes, &sb);
  }
}

/* struct copies: dst <- src, size bytes, per lane */
static void copy_bytes(Warp *w, Node *at, int size, const uint64_t *dst, const uint64_t *src, Mask m) {
  hook_access(w, at, ACC_LOAD, size, src, m);
  hook_access(w, at, ACC_STORE, size, dst, m);
  host_device_check(w, at, src, m, false);
  host_device_check(w, at, dst, m, true);
  Mask shared = 0;
  for (int l = 0; l < W; l++) if ((m >> l & 1) && ADDR_SPACE(dst[l]) == SPACE_SHARED) shared |= 1u << l;
  CopiedBytes cb = {src, size};
  if (shared) same_address_check(w, at, size, dst, shared, copied_bytes, &cb);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    unsigned char *s = resolve(w, at, l, src[l], size, false);
    unsigned char *d = resolve(w, at, l, dst[l], size, true);
    if (ADDR_SPACE(src[l]) == SPACE_SHARED) race_check(w, at, l, src[l], size, false);
    if (ADDR_SPACE(dst[l]) == SPACE_SHARED) race_check(w, at, l, dst[l], size, true);
    memmove(d, s, (size_t)size);
  }
}

static uint64_t local_addr(Warp *w, int lane, uint64_t off) {
  return ((uint64_t)SPACE_LOCAL << 60) | ((uint64_t)w->linear_tid[lane] << 40) | off;
}

/* reserve `size` bytes of per-thread temporary storage; returns its offset */
static uint64_t alloc_local(Warp *w, Node *at, int size) {
  uint64_t a = (w->sp + 15) & ~15ull;
  if (a + (uint64_t)size > w->I->local_size)
    fault_at(w, FAULT_STACK_OVERFLOW, at, -1, "thread-local stack overflow (%zu bytes per thread); deep recursion or large local arrays?", w->I->local_size);
  w->sp = a + (uint64_t)size;
  return a;
}

/* ---------------- conversions ---------------- */
static int64_t norm_int(Type *t, int64_t v) {
  switch (t->size) {
  case 1: return t->kind == TY_BOOL ? v != 0 : t->is_unsigned ? (int64_t)(uint8_t)v : (int64_t)(int8_t)v;
  case 2: return t->is_unsigned ? (int64_t)(uint16_t)v : (int64_t)(int16_t)v;
  case 4: return t->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
  default: return v;
  }
}

/* float -> integer as the GPU does it (cvt.rzi saturates, NaN gives 0) */
static int64_t f2i(double x, Type *t) {
  if (x != x) return 0;
  if (t->kind == TY_BOOL) return x != 0;
  int bits = t->size * 8;
  if (t->is_unsigned) {
    double max = bits == 64 ? 18446744073709551615.0 : (double)((1ull << bits) - 1);
    if (x <= 0) return 0;
    if (x >= max) return bits == 64 ? (int64_t)UINT64_MAX : (int64_t)((1ull << bits) - 1);
    return (int64_t)(uint64_t)x;
  }
  double max = bits == 64 ? 9223372036854775807.0 : (double)((1ll << (bits - 1)) - 1);
  double min = bits == 64 ? -9223372036854775808.0 : -(double)(1ll << (bits - 1));
  if (x >= max) return bits == 64 ? INT64_MAX : (1ll << (bits - 1)) - 1;
  if (x <= min) return bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
  return (int64_t)x;
}

static Val convert(Val v, Type *from, Type *to) {
  Val r;
  if (to->kind == TY_FLOAT) {
    if (from->kind == TY_FLOAT) return v;
    if (from->kind == TY_DOUBLE) r.f = (float)v.d;
    else if (from->is_unsigned && from->size == 8) r.f = (float)v.u;
    else r.f = (float)v.i;
    return r;
  }
  if (to->kind == TY_DOUBLE) {
    if (from->kind == TY_DOUBLE) return v;
    if (from->kind == TY_FLOAT) r.d = (double)v.f;
    else if (from->is_unsigned && from->size == 8) r.d = (double)v.u;
    else r.d = (double)v.i;
    return r;
  }
  if (to->kind == TY_BOOL) {
    r.i = from->kind == TY_FLOAT ? v.f != 0 : from->kind == TY_DOUBLE ? v.d != 0 : v.i != 0;
    return r;
  }
  if (to->kind == TY_PTR) { r.u = v.u; return r; }
  if (from->kind == TY_FLOAT) { r.i = f2i(v.f, to); return r; }
  if (from->kind == TY_DOUBLE) { r.i = f2i(v.d, to); return r; }
  r.i = norm_int(to, v.i);
  return r;
}

/* ---------------- evaluation ---------------- */
static void eval(Warp *w, Node *n, Mask m, Val *out);
static Mask exec(Warp *w, Node *n, Mask m);
static void eval_launch(Warp *w, Node *n, Mask m);
static void eval_host_call(Warp *w, Node *n, Mask m, Val *out);
static HostCtx host_ctx(Warp *w, Node *at);
static void eval_addr(Warp *w, Node *n, Mask m, uint64_t *out);

/* the second line of defence behind the parser's nesting limits (see WARP_STACK) */
static _Noreturn __attribute__((noinline, cold)) void stack_exhausted(Warp *w, Node *n) {
  fault_at(w, FAULT_STACK_OVERFLOW, n, -1, "code nested too deeply to interpret: the warp's stack (%zu MiB) is used up at call depth %d "
           "(recursion through deeply nested expressions?)", STACK_BYTES(w->I) >> 20, w->depth);
}
#define STACK_GUARD(w, n) \
  do { char probe_; if (__builtin_expect((uintptr_t)&probe_ < (w)->stack_floor, 0)) stack_exhausted(w, n); } while (0)

/* The step limit is not a fault: the code may be correct and only long. The run stops, says
 * where it was and how to go on, and the launch's status is 2. */
static _Noreturn NOINLINE void stop_at(Warp *w, Node *n) {
  Interp *I = w->I;
  I->fault = I->stopped = true;
  I->st->stopped = true;
  if (I->progress_shown) fputs("\r\033[K", stderr);
  I->progress_shown = false;
  const char *who = I->L->host_code ? fmt("the host function '%s'", I->L->kernel->name) : fmt("kernel '%s'", I->L->kernel->name);
  if (I->time_out)
    fprintf(diag_out, "carve: stopped: %s ran past its time limit of %g s (raise with --max-seconds, or give --max-steps for an exact step limit)\n",
            who, I->opt->max_seconds);
  else fprintf(diag_out, "carve: stopped: step limit %llu reached in %s (raise with --max-steps)\n", (unsigned long long)I->max_steps, who);
  if (I->L->host_code) diag_at(DIAG_NOTE, tok_loc(n->tok), "the host program was here");
  else {
    char where[128];
    thread_desc(w, __builtin_ctz(w->valid), where, sizeof where);
    int64_t total = I->L->grid[0] * I->L->grid[1] * I->L->grid[2];
    diag_at(DIAG_NOTE, tok_loc(n->tok), "warp %d of %s was here, after %llu of %lld blocks", w->index, where, (unsigned long long)I->st->blocks_run,
            (long long)total);
  }
  unwind_warp(w);
}

static double now_seconds(void);
/* the host program's progress line: how long it has run and where it is (its loops can be long:
 * one thread interpreted) */
static NOINLINE void host_progress(Warp *w, Node *n) {
  Interp *I = w->I;
  double t = now_seconds(), el = t - I->t0;
  if (I->opt->max_seconds > 0 && el - I->opt->seconds_excluded > I->opt->max_seconds) {
    I->time_out = true;
    stop_at(w, n);
  }
  if (!I->opt->progress) return;
  if (el < 1.0 || t - I->last_progress < 0.5) return;
  I->last_progress = t;
  I->progress_shown = true;
  SrcLoc at = tok_loc(n->tok);
  fprintf(stderr, "\r\033[K%s: host code running for %.0f s (%.0f M steps/s), at %s:%d", I->L->kernel->name, el,
          (double)I->st->warp_steps / el / 1e6, at.file ? at.file->name : "?", at.line);
  fflush(stderr);
}

static inline void step(Warp *w, Node *n, Mask m) {
  RunStats *st = w->I->st;
  st->warp_steps++;
  if (__builtin_expect(w->I->opt->warp_step_cap && ++w->steps > w->I->opt->warp_step_cap, 0)) {
    /* sampling: this warp has shown enough; it stops as if it had exited */
    st->warps_truncated++;
    unwind_warp(w);
  }
  st->lane_ops += (uint64_t)__builtin_popcount(m);
  if (__builtin_expect(st->warp_steps > w->I->max_steps, 0)) stop_at(w, n);
}

static Mask truth(Type *t, const Val *v, Mask m) {
  Mask r = 0;
  if (t->kind == TY_FLOAT) { for (int l = 0; l < W; l++) r |= (Mask)(v[l].f != 0) << l; }
  else if (t->kind == TY_DOUBLE) { for (int l = 0; l < W; l++) r |= (Mask)(v[l].d != 0) << l; }
  else { for (int l = 0; l < W; l++) r |= (Mask)(v[l].i != 0) << l; }
  return r & m;
}

static Mask eval_cond(Warp *w, Node *n, Mask m) {
  Val v[W];
  eval(w, n, m, v);
  return truth(n->ty, v, m);
}

/* the value of an lvalue that names memory or a register */
static bool is_reg_var(Node *n) {
  return n->kind == ND_VAR && (n->var->sc == SC_LOCAL || n->var->sc == SC_PARAM) && !n->var->in_memory;
}

static int elem_size(Type *t) { return t->base->size > 0 ? t->base->size : 1; }

/* integer binary operation on 64-bit canonical values, wrapped to t */
static void int_binop(Warp *w, Node *n, Mask m, const Val *a, const Val *b, Val *out, NodeKind k, Type *t) {
  bool u = t->is_unsigned;
  int bits = t->size * 8;
  switch (k) {
  case ND_ADD: for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u + b[l].u)); return;
  case ND_SUB: for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u - b[l].u)); return;
  case ND_MUL: for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u * b[l].u)); return;
  case ND_DIV: case ND_MOD:
    for (int l = 0; l < W; l++) {
      if (!(m >> l & 1)) { out[l].i = 0; continue; }
      if (b[l].i == 0) fault_at(w, FAULT_DIVISION_BY_ZERO, n, l, "integer %s by zero", k == ND_DIV ? "division" : "remainder");
      if (u) {
        uint64_t x = bits == 64 ? a[l].u : a[l].u & ((1ull << bits) - 1), y = bits == 64 ? b[l].u : b[l].u & ((1ull << bits) - 1);
        out[l].i = norm_int(t, (int64_t)(k == ND_DIV ? x / y : x % y));
      } else if (b[l].i == -1) {
        out[l].i = norm_int(t, k == ND_DIV ? (int64_t)(0 - a[l].u) : 0);  /* INT_MIN / -1 wraps, as on the GPU */
      } else {
        out[l].i = norm_int(t, k == ND_DIV ? a[l].i / b[l].i : a[l].i % b[l].i);
      }
    }
    return;
  case ND_BITAND: for (int l = 0; l < W; l++) out[l].i = a[l].i & b[l].i; return;
  case ND_BITOR: for (int l = 0; l < W; l++) out[l].i = a[l].i | b[l].i; return;
  case ND_BITXOR: for (int l = 0; l < W; l++) out[l].i = a[l].i ^ b[l].i; return;
  case ND_SHL:
    /* PTX shl clamps the shift amount: shifting by the width or more gives 0 */
    for (int l = 0; l < W; l++) {
      uint64_t s = b[l].u;
      out[l].i = (s >= (uint64_t)bits) ? 0 : norm_int(t, (int64_t)(a[l].u << s));
    }
    return;
  case ND_SHR:
    for (int l = 0; l < W; l++) {
      uint64_t s = b[l].u;
      if (u) {
        uint64_t x = bits == 64 ? a[l].u : a[l].u & ((1ull << bits) - 1);
        out[l].i = s >= (uint64_t)bits ? 0 : (int64_t)(x >> s);
      } else {
        out[l].i = s >= (uint64_t)bits ? (a[l].i < 0 ? -1 : 0) : a[l].i >> s;
      }
    }
    return;
  default: break;
  }
#define CMP(op) \
  if (u) for (int l = 0; l < W; l++) out[l].i = a[l].u op b[l].u; \
  else for (int l = 0; l < W; l++) out[l].i = a[l].i op b[l].i; \
  return;
  switch (k) {
  case ND_EQ: CMP(==)
  case ND_NE: CMP(!=)
  case ND_LT: CMP(<)
  case ND_LE: CMP(<=)
  case ND_GT: CMP(>)
  case ND_GE: CMP(>=)
  default: break;
  }
#undef CMP
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: integer operator %d", k);
}

#define FLOAT_OPS(T, F)                                                                 \
  switch (k) {                                                                          \
  case ND_ADD: for (int l = 0; l < W; l++) out[l].F = a[l].F + b[l].F; return;           \
  case ND_SUB: for (int l = 0; l < W; l++) out[l].F = a[l].F - b[l].F; return;           \
  case ND_MUL: for (int l = 0; l < W; l++) out[l].F = a[l].F * b[l].F; return;           \
  case ND_DIV: for (int l = 0; l < W; l++) out[l].F = a[l].F / b[l].F; return;           \
  case ND_EQ: for (int l = 0; l < W; l++) out[l].i = a[l].F == b[l].F; return;           \
  case ND_NE: for (int l = 0; l < W; l++) out[l].i = a[l].F != b[l].F; return;           \
  case ND_LT: for (int l = 0; l < W; l++) out[l].i = a[l].F < b[l].F; return;            \
  case ND_LE: for (int l = 0; l < W; l++) out[l].i = a[l].F <= b[l].F; return;           \
  case ND_GT: for (int l = 0; l < W; l++) out[l].i = a[l].F > b[l].F; return;            \
  case ND_GE: for (int l = 0; l < W; l++) out[l].i = a[l].F >= b[l].F; return;           \
  default: break;                                                                       \
  }

static void float_binop(Warp *w, Node *n, const Val *a, const Val *b, Val *out, NodeKind k, Type *t) {
  if (t->kind == TY_FLOAT) { FLOAT_OPS(float, f) }
  else { FLOAT_OPS(double, d) }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: float operator %d", k);
}

/* a op b where both have the operation type t (after the usual conversions) */
static void binop(Warp *w, Node *n, Mask m, const Val *a, const Val *b, Val *out, NodeKind k, Type *t) {
  if (is_flonum(t)) float_binop(w, n, a, b, out, k, t);
  else int_binop(w, n, m, a, b, out, k, t);
}

/* x*y + z fused as nvcc does by default (-fmad=true); sub: x*y - z or z - x*y */
static NOINLINE void fused(Warp *w, Node *mul, Node *other, bool mul_is_lhs, bool sub, Mask m, Val *out, Type *t) {
  Val x[W], y[W], *z = out;   /* the addend goes straight into out: a smaller frame per level */
  step(w, mul, m);
  eval(w, mul->lhs, m, x);
  eval(w, mul->rhs, m, y);
  eval(w, other, m, z);
  if (t->kind == TY_FLOAT) {
    for (int l = 0; l < W; l++) {
      float p = x[l].f, q = y[l].f, c = z[l].f;
      out[l].f = !sub ? fmaf(p, q, c) : mul_is_lhs ? fmaf(p, q, -c) : fmaf(-p, q, c);
    }
  } else {
    for (int l = 0; l < W; l++) {
      double p = x[l].d, q = y[l].d, c = z[l].d;
      out[l].d = !sub ? fma(p, q, c) : mul_is_lhs ? fma(p, q, -c) : fma(-p, q, c);
    }
  }
}

static void eval_add_sub(Warp *w, Node *n, Mask m, Val *out) {
  Type *lt = n->lhs->ty, *rt = n->rhs->ty;
  bool sub = n->kind == ND_SUB;
  /* nvcc contracts a*b + c on the device; the host compiler for x86-64 has no FMA by default */
  if (n->contract && !w->I->host) {
    bool lhs_mul = n->lhs->kind == ND_MUL && n->lhs->ty->kind == n->ty->kind;
    if (lhs_mul) fused(w, n->lhs, n->rhs, true, sub, m, out, n->ty);
    else fused(w, n->rhs, n->lhs, false, sub, m, out, n->ty);
    return;
  }
  Val a[W], b[W];
  eval(w, n->lhs, m, a);
  eval(w, n->rhs, m, b);
  if (is_pointer_like(lt) && is_pointer_like(rt)) {
    int sz = elem_size(lt);
    for (int l = 0; l < W; l++) out[l].i = (int64_t)(a[l].u - b[l].u) / sz;
    return;
  }
  if (is_pointer_like(lt)) {
    int sz = elem_size(lt);
    for (int l = 0; l < W; l++) out[l].u = sub ? a[l].u - (uint64_t)b[l].i * (uint64_t)sz : a[l].u + (uint64_t)b[l].i * (uint64_t)sz;
    return;
  }
  if (is_pointer_like(rt)) {
    int sz = elem_size(rt);
    for (int l = 0; l < W; l++) out[l].u = b[l].u + (uint64_t)a[l].i * (uint64_t)sz;
    return;
  }
  binop(w, n, m, a, b, out, n->kind, n->ty);
}

/* the address of a variable (memory-resident locals, shared, constant, device globals) */
static uint64_t var_base(Warp *w, Obj *v) {
  Interp *I = w->I;
  switch (v->sc) {
  case SC_SHARED: return ((uint64_t)SPACE_SHARED << 60) | (uint64_t)v->offset;
  case SC_EXTERN_SHARED: return ((uint64_t)SPACE_SHARED << 60) | (uint64_t)I->dyn_base;
  case SC_CONSTANT: return ((uint64_t)SPACE_CONST << 60) | (uint64_t)v->offset;
  case SC_DEVICE_GLOBAL: return GLOBAL_ADDR(0, v->offset);
  case SC_HOST_GLOBAL: return I->L->host_vars ? HOST_ADDR(I->L->host_vars, v->offset) : 0;
  default: return 0;
  }
}

static void eval_addr(Warp *w, Node *n, Mask m, uint64_t *out) {
  switch (n->kind) {
  case ND_VAR: {
    Obj *v = n->var;
    if (v->sc == SC_LOCAL || v->sc == SC_PARAM) {
      if (!v->in_memory) fault_at(w, FAULT_INTERNAL, n, -1, "internal: address of register variable '%s'", v->name);
      uint64_t off = w->frame->base + (uint64_t)v->offset;
      for (int l = 0; l < W; l++) out[l] = local_addr(w, l, off);
      return;
    }
    uint64_t a = var_base(w, v);
    for (int l = 0; l < W; l++) out[l] = a;
    return;
  }
  case ND_DEREF: {
    Val p[W];
    eval(w, n->lhs, m, p);
    for (int l = 0; l < W; l++) out[l] = p[l].u;
    return;
  }
  case ND_INDEX: {
    Val p[W], i[W];
    int access = w->access;
    eval(w, n->lhs, m, p);
    eval(w, n->rhs, m, i);
    uint64_t sz = (uint64_t)elem_size(n->lhs->ty);
    Type *at = n->lhs->ty;
    if (at->kind == TY_ARRAY && at->array_len > 0) {
      /* a declared array: its own bounds, not just its memory area's (a[32] must not reach b) */
      int64_t hi = at->array_len + (access == 2 ? 1 : 0);
      for (int l = 0; l < W; l++)
        if ((m >> l & 1) && (i[l].i < 0 || i[l].i >= hi)) {
          Buf name = {0};
          print_expr(&name, n->lhs);
          char *nm = arena_strdup(name.s ? name.s : "?");
          buf_free(&name);
          fault_at(w, FAULT_OUT_OF_BOUNDS, n, l, "out-of-bounds %s %s of %d bytes: element %lld of '%s' (%d elements)", space_name(ADDR_SPACE(p[l].u)),
                   access == 1 ? "write" : access == 2 ? "address" : "read", (int)sz, (long long)i[l].i, nm, at->array_len);
        }
    }
    for (int l = 0; l < W; l++) out[l] = p[l].u + (uint64_t)i[l].i * sz;
    return;
  }
  case ND_MEMBER: {
    if (n->arrow) {
      Val p[W];
      eval(w, n->lhs, m, p);
      for (int l = 0; l < W; l++) out[l] = p[l].u + (uint64_t)n->member->offset;
    } else {
      Val s[W];
      eval(w, n->lhs, m, s);   /* a struct value is its address */
      for (int l = 0; l < W; l++) out[l] = s[l].u + (uint64_t)n->member->offset;
    }
    return;
  }
  case ND_CAST: if (n->implicit) { eval_addr(w, n->lhs, m, out); return; } break;
  default: break;
  }
  if (n->ty->kind == TY_STRUCT) {   /* an rvalue struct (call result, make_float4) */
    Val s[W];
    eval(w, n, m, s);
    for (int l = 0; l < W; l++) out[l] = s[l].u;
    return;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: not an lvalue");
}

/* read an lvalue */
static void read_lvalue(Warp *w, Node *n, Mask m, Val *out) {
  if (is_reg_var(n)) { memcpy(out, w->frame->regs + (size_t)n->var->slot * W, sizeof(Val) * W); return; }
  uint64_t a[W];
  w->access = (n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT) ? 2 : 0;
  eval_addr(w, n, m, a);
  if (n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT) { for (int l = 0; l < W; l++) out[l].u = a[l]; return; }
  load(w, n, n->ty, a, m, out);
}

static void write_lvalue(Warp *w, Node *n, Mask m, const Val *v, const uint64_t *addr) {
  if (is_reg_var(n)) {
    Val *r = w->frame->regs + (size_t)n->var->slot * W;
    for (int l = 0; l < W; l++) if (m >> l & 1) r[l] = v[l];
    return;
  }
  if (n->ty->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, n, n->ty->size, addr, src, m);
    return;
  }
  store(w, n, n->ty, addr, m, v);
}

static NOINLINE void eval_assign(Warp *w, Node *n, Mask m, Val *out) {
  Val v[W];
  uint64_t a[W];
  eval(w, n->rhs, m, v);
  if (!is_reg_var(n->lhs)) { w->access = 1; eval_addr(w, n->lhs, m, a); }
  write_lvalue(w, n->lhs, m, v, a);
  if (n->ty->kind == TY_STRUCT) { for (int l = 0; l < W; l++) out[l].u = a[l]; return; }
  memcpy(out, v, sizeof v);
}

/* lhs op= rhs, ++, --: read, compute in the operation type, convert back, write */
static NOINLINE void eval_rmw(Warp *w, Node *n, Mask m, Val *out) {
  Node *lv = n->lhs;
  Type *lt = lv->ty;
  uint64_t a[W];
  Val old[W], rhs[W], res[W];
  bool reg = is_reg_var(lv);
  if (!reg) { w->access = 1; eval_addr(w, lv, m, a); }
  if (reg) memcpy(old, w->frame->regs + (size_t)lv->var->slot * W, sizeof old);
  else load(w, lv, lt, a, m, old);
  if (n->kind == ND_ASSIGN_OP) {
    Type *ct = n->cast_ty;
    if (lt->kind == TY_PTR) {
      eval(w, n->rhs, m, rhs);
      int sz = elem_size(lt);
      for (int l = 0; l < W; l++)
        res[l].u = n->op == ND_ADD ? old[l].u + (uint64_t)rhs[l].i * (uint64_t)sz : old[l].u - (uint64_t)rhs[l].i * (uint64_t)sz;
    } else if (n->contract && !w->I->host) {
      /* s += a*b  ->  fma(a, b, s);  s -= a*b  ->  fma(-a, b, s) */
      Val x[W], y[W];
      eval(w, n->rhs->lhs, m, x);
      eval(w, n->rhs->rhs, m, y);
      bool sub = n->op == ND_SUB;
      for (int l = 0; l < W; l++) {
        Val c = convert(old[l], lt, ct);
        if (ct->kind == TY_FLOAT) res[l].f = fmaf(sub ? -x[l].f : x[l].f, y[l].f, c.f);
        else res[l].d = fma(sub ? -x[l].d : x[l].d, y[l].d, c.d);
        res[l] = convert(res[l], ct, lt);
      }
    } else {
      eval(w, n->rhs, m, rhs);
      Val c[W];
      for (int l = 0; l < W; l++) c[l] = convert(old[l], lt, ct);
      binop(w, n, m, c, rhs, res, n->op, ct);
      for (int l = 0; l < W; l++) res[l] = convert(res[l], ct, lt);
    }
    write_lvalue(w, lv, m, res, a);
    memcpy(out, res, sizeof res);
    return;
  }
  int delta = (n->kind == ND_PREINC || n->kind == ND_POSTINC) ? 1 : -1;
  for (int l = 0; l < W; l++) {
    if (lt->kind == TY_PTR) res[l].u = old[l].u + (uint64_t)(int64_t)(delta * elem_size(lt));
    else if (lt->kind == TY_FLOAT) res[l].f = old[l].f + (float)delta;
    else if (lt->kind == TY_DOUBLE) res[l].d = old[l].d + delta;
    else if (lt->kind == TY_BOOL) res[l].i = delta > 0 ? 1 : !old[l].i;
    else res[l].i = norm_int(lt, (int64_t)(old[l].u + (uint64_t)(int64_t)delta));
  }
  write_lvalue(w, lv, m, res, a);
  memcpy(out, (n->kind == ND_PREINC || n->kind == ND_PREDEC) ? res : old, sizeof res);
}

/* ---- builtins ---- */
static inline int bits_f2i(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline float bits_i2f(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline long long bits_d2l(double d) { long long i; memcpy(&i, &d, 8); return i; }
static inline double bits_l2d(long long i) { double d; memcpy(&d, &i, 8); return d; }
static inline int sat_i32(double x) { return x != x ? 0 : x >= 2147483647.0 ? 2147483647 : x <= -2147483648.0 ? (-2147483647 - 1) : (int)x; }
static inline unsigned sat_u32(double x) { return x != x ? 0 : x >= 4294967295.0 ? 4294967295u : x <= 0 ? 0 : (unsigned)x; }
static inline long long sat_i64(double x) { return x != x ? 0 : x >= 9.2233720368547758e18 ? INT64_MAX : x <= -9.2233720368547758e18 ? INT64_MIN : (long long)x; }
static inline int sx24(int x) { return (int)((unsigned)x << 8) >> 8; }

static void eval_math(Warp *w, Node *n, Mask m, Val *out) {
  Val av[3][W];
  memset(av, 0, sizeof av);
  int i = 0;
  for (Node *a = n->args; a && i < 3; a = a->next, i++) eval(w, a, m, av[i]);
  if (n->ival == 1) {   /* sincos(x, &s, &c) */
    Val s[W], c[W];
    bool fl = n->args->ty->kind == TY_FLOAT;
    for (int l = 0; l < W; l++) {
      if (fl) { s[l].f = sinf(av[0][l].f); c[l].f = cosf(av[0][l].f); }
      else { s[l].d = sin(av[0][l].d); c[l].d = cos(av[0][l].d); }
    }
    uint64_t ps[W], pc[W];
    for (int l = 0; l < W; l++) { ps[l] = av[1][l].u; pc[l] = av[2][l].u; }
    Type *t = fl ? ty_float : ty_double;
    store(w, n, t, ps, m, s);
    store(w, n, t, pc, m, c);
    return;
  }
#define ARG_F(k, l) av[k][l].f
#define ARG_D(k, l) av[k][l].d
#define ARG_I(k, l) (int)av[k][l].i
#define ARG_U(k, l) (unsigned)av[k][l].u
#define ARG_L(k, l) (long long)av[k][l].i
#define ARG_Q(k, l) (unsigned long long)av[k][l].u
#define SET_F(l, v) out[l].f = (float)(v)
#define SET_D(l, v) out[l].d = (double)(v)
#define SET_I(l, v) out[l].i = (int)(v)
#define SET_U(l, v) out[l].i = (int64_t)(unsigned)(v)
#define SET_L(l, v) out[l].i = (long long)(v)
#define SET_Q(l, v) out[l].u = (unsigned long long)(v)
#define T_F float
#define T_D double
#define T_I int
#define T_U unsigned
#define T_L long long
#define T_Q unsigned long long
#define T__ int
#define GET_F(v) (v).f
#define GET_D(v) (v).d
#define GET_I(v) (int)(v).i
#define GET_U(v) (unsigned)(v).u
#define GET_L(v) (long long)(v).i
#define GET_Q(v) (unsigned long long)(v).u
#define GET__(v) 0
  switch (n->math->id) {
#define M(name, ret, t1, t2, t3, expr)                 \
  case MATH_##name:                                    \
    for (int l = 0; l < W; l++) {                      \
      T_##t1 a = GET_##t1(av[0][l]);                   \
      T_##t2 b = GET_##t2(av[1][l]);                   \
      T_##t3 c = GET_##t3(av[2][l]);                   \
      (void)a; (void)b; (void)c;                       \
      SET_##ret(l, (expr));                            \
    }                                                  \
    return;
#include "../front/mathfns.def"
#undef M
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: math function");
}

static Val atomic_op(Builtin b, Type *t, Val old, Val v, Val cmp) {
  Val r = old;
  bool fl = t->kind == TY_FLOAT, db = t->kind == TY_DOUBLE, u = t->is_unsigned;
  switch (b) {
  case BI_ATOMIC_ADD:
    if (fl) r.f = old.f + v.f;
    else if (db) r.d = old.d + v.d;
    else r.i = norm_int(t, (int64_t)(old.u + v.u));
    return r;
  case BI_ATOMIC_SUB: r.i = norm_int(t, (int64_t)(old.u - v.u)); return r;
  case BI_ATOMIC_EXCH: return v;
  case BI_ATOMIC_MIN: return (u ? v.u < old.u : v.i < old.i) ? v : old;
  case BI_ATOMIC_MAX: return (u ? v.u > old.u : v.i > old.i) ? v : old;
  case BI_ATOMIC_INC: r.i = (old.u >= v.u) ? 0 : norm_int(t, (int64_t)(old.u + 1)); return r;
  case BI_ATOMIC_DEC: r.i = (old.u == 0 || old.u > v.u) ? v.i : norm_int(t, (int64_t)(old.u - 1)); return r;
  case BI_ATOMIC_CAS: return old.u == cmp.u ? v : old;
  case BI_ATOMIC_AND: r.i = old.i & v.i; return r;
  case BI_ATOMIC_OR: r.i = old.i | v.i; return r;
  case BI_ATOMIC_XOR: r.i = old.i ^ v.i; return r;
  default: return r;
  }
}

static NOINLINE void eval_atomic(Warp *w, Node *n, Mask m, Val *out) {
  Val p[W], a1[W], a2[W];
  eval(w, n->args, m, p);
  eval(w, n->args->next, m, a1);
  if (n->builtin == BI_ATOMIC_CAS) eval(w, n->args->next->next, m, a2);
  Type *t = n->ty;
  uint64_t addr[W];
  for (int l = 0; l < W; l++) addr[l] = p[l].u;
  hook_access(w, n, ACC_ATOMIC, t->size, addr, m);
  host_device_check(w, n, addr, m, true);
  /* lanes in order: a deterministic serialization of the warp's atomics */
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) { out[l].u = 0; continue; }
    unsigned char *q = resolve(w, n, l, addr[l], t->size, true);
    Val old = read_scalar(q, t);
    Val nv = n->builtin == BI_ATOMIC_CAS ? atomic_op(n->builtin, t, old, a2[l], a1[l]) : atomic_op(n->builtin, t, old, a1[l], a1[l]);
    write_scalar(q, t, nv);
    out[l] = old;
  }
}

static NOINLINE void eval_shfl(Warp *w, Node *n, Mask m, Val *out) {
  Val mask[W], v[W], s[W], wd[W];
  eval(w, n->args, m, mask);
  eval(w, n->args->next, m, v);
  eval(w, n->args->next->next, m, s);
  if (n->nargs == 4) eval(w, n->args->next->next->next, m, wd);
  else for (int l = 0; l < W; l++) wd[l].i = 32;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) { out[l].u = 0; continue; }
    int width = (int)wd[l].i;
    if (width < 1 || width > 32 || (width & (width - 1)))
      fault_at(w, FAULT_SHUFFLE, n, l, "shuffle width %d is not a power of 2 between 1 and 32", width);
    if (!((uint32_t)mask[l].u >> l & 1)) fault_at(w, FAULT_SHUFFLE, n, l, "lane calls a shuffle with a mask (0x%08x) that excludes itself", (unsigned)mask[l].u);
    int seg = l & ~(width - 1), src = l;
    switch (n->builtin) {
    case BI_SHFL: src = seg + (int)(s[l].i & (width - 1)); break;
    case BI_SHFL_UP: src = (l - seg) >= (int)s[l].u ? l - (int)s[l].u : l; break;
    case BI_SHFL_DOWN: src = (l - seg) + (int64_t)s[l].u < width ? l + (int)s[l].u : l; break;
    default: { int x = l ^ (int)(s[l].i & 31); src = (x & ~(width - 1)) == seg ? x : l; break; }
    }
    /* the value of a lane that is not active or not in the mask is undefined (CUDA C++
     * Programming Guide, Warp Shuffle Functions): the interpreter reports it */
    if (src != l && (!(m >> src & 1) || !((uint32_t)mask[l].u >> src & 1)))
      fault_at(w, FAULT_SHUFFLE, n, l, "shuffle reads lane %d, which is %s: its value is undefined", src, !(m >> src & 1) ? "not active" : "not in the mask");
    out[l] = v[src];
  }
}

static int popc64(uint64_t x) { return __builtin_popcountll(x); }

static NOINLINE void eval_printf(Warp *w, Node *n, Mask m) {
  enum { MAXA = 16 };
  Val vals[MAXA][W];
  Type *tys[MAXA];
  int na = 0;
  for (Node *a = n->args->next; a && na < MAXA; a = a->next) na++;
  int i = 0;
  for (Node *a = n->args->next; a && i < MAXA; a = a->next, i++) {
    Node *e = a;
    tys[i] = e->ty;
    eval(w, e, m, vals[i]);
  }
  FILE *o = w->I->opt->printf_out ? w->I->opt->printf_out : stdout;
  const char *f = n->args->tok->str;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    int k = 0;
    for (const char *p = f; *p; p++) {
      if (*p != '%') { fputc(*p, o); continue; }
      if (p[1] == '%') { fputc('%', o); p++; continue; }
      char spec[32];
      int sl = 0;
      spec[sl++] = *p++;
      while (*p && strchr("-+ #0123456789.", *p) && sl < 20) spec[sl++] = *p++;
      while (*p && strchr("hlLzjt", *p)) p++;
      if (!*p) break;
      char conv = *p;
      if (k >= na) { fputs("<missing>", o); continue; }
      Val v = vals[k][l];
      Type *t = tys[k++];
      if (strchr("diouxXc", conv)) {
        spec[sl++] = 'l'; spec[sl++] = 'l'; spec[sl++] = conv; spec[sl] = 0;
        long long x = is_flonum(t) ? (long long)(t->kind == TY_FLOAT ? v.f : v.d) : v.i;
        if (strchr("ouxX", conv) && t->size == 4) x = (long long)(uint32_t)x;
        fprintf(o, spec, x);
      } else if (strchr("fFeEgGaA", conv)) {
        spec[sl++] = conv; spec[sl] = 0;
        fprintf(o, spec, t->kind == TY_FLOAT ? (double)v.f : t->kind == TY_DOUBLE ? v.d : (double)v.i);
      } else if (conv == 'p') {
        fprintf(o, "0x%llx", (unsigned long long)v.u);
      } else if (conv == 's') {
        fputs("(string)", o);
      } else {
        fputc(conv, o);
      }
    }
  }
}

static void barrier(Warp *w, Node *n, Mask m, int pred_count);

/* C++ (docs/cxx.md): __half and __half2 intrinsics and operators; halves are bits (half.c) */
static NOINLINE void eval_half(Warp *w, Node *n, Mask m, Val *out) {
  Val v[3][W];
  int k = 0;
  for (Node *a = n->args; a && k < 3; a = a->next, k++) eval(w, a, m, v[k]);
  Type *t0 = n->args ? n->args->ty : NULL;
  if (n->ival == HOP_H22F2) {
    uint64_t tmp = alloc_local(w, n, 8);
    for (int l = 0; l < W; l++) {
      out[l].u = local_addr(w, l, tmp);
      if (!(m >> l & 1)) continue;
      for (int h = 0; h < 2; h++) {
        Val f = {0};
        f.f = (float)half_to_double((uint16_t)(v[0][l].u >> (16 * h)));
        write_scalar(resolve(w, n, l, local_addr(w, l, tmp + 4u * (unsigned)h), 4, true), ty_float, f);
      }
    }
    return;
  }
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) { out[l].u = 0; continue; }
    Val a = v[0][l], b = k > 1 ? v[1][l] : a, c = k > 2 ? v[2][l] : a;
    double x = t0 && t0->kind == TY_DOUBLE ? a.d : t0 && t0->kind == TY_FLOAT ? a.f : t0 && t0->is_unsigned ? (double)a.u : (double)a.i;
    switch (n->ival) {
    case HOP_F2H: case HOP_I2H: out[l].u = half_from_double(t0->kind == TY_FLOAT ? (double)a.f : x); break;
    case HOP_F2H2: out[l].u = half_from_double(a.f) * 0x10001u; break;
    case HOP_FLOATS2H2: out[l].u = half_from_double(a.f) | (uint64_t)half_from_double(b.f) << 16; break;
    case HOP_H2F: case HOP_LOWF: out[l].u = 0; out[l].f = (float)half_to_double((uint16_t)a.u); break;
    case HOP_HIGHF: out[l].u = 0; out[l].f = (float)half_to_double((uint16_t)(a.u >> 16)); break;
    case HOP_H2I: {
      double d = trunc(half_to_double((uint16_t)a.u));
      out[l].i = isnan(d) ? 0 : d >= 2147483647.0 ? 2147483647 : d <= -2147483648.0 ? INT32_MIN : (int64_t)d;
      break;
    }
    default: out[l].u = half_op((int)n->ival, a.u, b.u, c.u); break;
    }
  }
}

/* C++ (docs/cxx.md): cooperative groups. Methods run what they lowered to (lhs); reduce over
 * a tile is the xor butterfly of shuffles CUDA's implementation does, so every lane of a tile
 * gets the same value, combined in that order */
static Val cg_combine(NodeKind op, Type *t, Val a, Val b) {
  Val r = a;
  bool f = t->kind == TY_FLOAT, d = t->kind == TY_DOUBLE, u = t->is_unsigned;
  switch (op) {
  case ND_ADD:
    if (f) { r.u = 0; r.f = a.f + b.f; } else if (d) r.d = a.d + b.d; else r.u = a.u + b.u;
    break;
  case ND_LT: case ND_GT: {
    bool lt = f ? a.f < b.f : d ? a.d < b.d : u ? a.u < b.u : a.i < b.i;
    bool gt = f ? a.f > b.f : d ? a.d > b.d : u ? a.u > b.u : a.i > b.i;
    r = (op == ND_LT ? lt : gt) ? a : b;
    break;
  }
  case ND_BITAND: r.u = a.u & b.u; break;
  case ND_BITOR: r.u = a.u | b.u; break;
  default: r.u = a.u ^ b.u; break;
  }
  if (!f && !d) {   /* back to the type's width */
    unsigned char buf[8];
    write_scalar(buf, t, r);
    r = read_scalar(buf, t);
  }
  return r;
}

static NOINLINE void eval_cg(Warp *w, Node *n, Mask m, Val *out) {
  switch (n->ival) {
  case CG_THIS_BLOCK: for (int l = 0; l < W; l++) out[l].i = 0; return;
  case CG_TILED: for (int l = 0; l < W; l++) out[l].i = n->ty->cg_group; return;
  case CG_METHOD: case CG_SYNC: eval(w, n->lhs, m, out); return;
  default: break;
  }
  Val v[W], nv[W];
  int size = n->args->ty->cg_group;
  eval(w, n->args->next, m, v);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    Mask seg = (size == 32 ? FULL : ((1u << size) - 1) << (l & ~(size - 1)));
    if ((m & seg) != seg) fault_at(w, FAULT_DIVERGENT_COLLECTIVE, n, l, "cooperative_groups::reduce: only some threads of the tile of %d call it", size);
  }
  for (int o = size / 2; o >= 1; o /= 2) {
    for (int l = 0; l < W; l++) nv[l] = (m >> l & 1) ? cg_combine(n->op, n->ty, v[l], v[l ^ o]) : v[l];
    memcpy(v, nv, sizeof v);
  }
  memcpy(out, v, sizeof v);
}

/* ---- async copies (<cuda_pipeline_primitives.h>; docs/DESIGN.md, "Async copies") ----
 * A copy is checked and recorded where a thread issues it and performed at the
 * __pipeline_wait_prior that covers its group: a copy never waited for never arrives. The
 * hardware may write the destination at any time from issue to wait, so the race shadow has it
 * written by the thread at the issue, in every barrier interval the copy stays pending, and at
 * the wait. */
static NOINLINE void eval_pipe_copy(Warp *w, Node *n, Mask m) {
  Interp *I = w->I;
  Val d[W], s[W], sz[W], zf[W];
  Node *a = n->args;
  eval(w, a, m, d);
  eval(w, a->next, m, s);
  eval(w, a->next->next, m, sz);
  if (a->next->next->next) eval(w, a->next->next->next, m, zf);
  else for (int l = 0; l < W; l++) zf[l].u = 0;
  uint64_t dst[W], src[W];
  Mask reads = 0;
  for (int l = 0; l < W; l++) {
    dst[l] = d[l].u;
    src[l] = s[l].u;
    if (!(m >> l & 1)) continue;
    unsigned long long size = sz[l].u, z = zf[l].u;
    if (size != 4 && size != 8 && size != 16)
      fault_at(w, FAULT_RUNTIME_ERROR, n, l, "__pipeline_memcpy_async of %llu bytes: size_and_align must be 4, 8 or 16", size);
    if (z > size) fault_at(w, FAULT_RUNTIME_ERROR, n, l, "__pipeline_memcpy_async with zfill %llu, more than its size_and_align %llu", z, size);
    resolve(w, n, l, dst[l], (int)size, true);   /* null, aligned to its size, in bounds */
    if (ADDR_SPACE(dst[l]) != SPACE_SHARED)
      fault_at(w, FAULT_MEMORY_SPACE, n, l, "the destination of __pipeline_memcpy_async is %s memory: it must be shared memory", space_name(ADDR_SPACE(dst[l])));
    if (src[l] && ADDR_SPACE(src[l]) != SPACE_GLOBAL)
      fault_at(w, FAULT_MEMORY_SPACE, n, l, "the source of __pipeline_memcpy_async is %s memory: it must be global memory", space_name(ADDR_SPACE(src[l])));
    if (src[l] & (size - 1))
      fault_at(w, FAULT_MISALIGNED, n, l, "misaligned __pipeline_memcpy_async source: global offset %llu is not a multiple of its size_and_align %llu",
               (unsigned long long)(src[l] & OFF_MASK), size);
    if (size > z) { resolve(w, n, l, src[l], (int)(size - z), false); reads |= 1u << l; }
    else if (!src[l]) fault_at(w, FAULT_NULL_POINTER, n, l, "__pipeline_memcpy_async from a null pointer");
  }
  if (!m) return;
  /* lanes of one warp copying different data to one address in one instruction: a race, as for stores */
  for (int l = 0; l < W && !I->opt->no_race_check; l++)
    for (int k = 0; k < l && (m >> l & 1); k++)
      if ((m >> k & 1) && dst[k] == dst[l] && (src[k] != src[l] || sz[k].u != sz[l].u || zf[k].u != zf[l].u))
        fault_at(w, FAULT_RACE, n, -1, "shared-memory race: threads (%u,%u,%u) and (%u,%u,%u) of block (%lld,%lld,%lld), in one warp, copy different "
                 "data to byte %llu in one __pipeline_memcpy_async (which remains is undefined)", w->tid[0][k], w->tid[1][k], w->tid[2][k],
                 w->tid[0][l], w->tid[1][l], w->tid[2][l], (long long)I->block_id[0], (long long)I->block_id[1], (long long)I->block_id[2],
                 (unsigned long long)(dst[l] & OFF_MASK));
  int size = (int)sz[__builtin_ctz(m)].u;
  hook_access(w, n, ACC_LOAD, size, src, reads);
  hook_access(w, n, ACC_STORE, size, dst, m);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    race_check(w, n, l, dst[l], (int)sz[l].u, true);
    if (I->async_pending >= ASYNC_MAX_PENDING)
      fault_at(w, FAULT_UNSUPPORTED, n, l, "more than %lld async copies pending in one block (carve's limit): wait for them sooner", (long long)ASYNC_MAX_PENDING);
    if (w->npending == w->pending_cap) {
      w->pending_cap = w->pending_cap ? 2 * w->pending_cap : 64;
      w->pending = xrealloc(w->pending, sizeof *w->pending * (size_t)w->pending_cap);
    }
    w->pending[w->npending++] = (AsyncCopy){n, dst[l], src[l], w->committed[l], (uint8_t)l, (uint8_t)sz[l].u, (uint8_t)zf[l].u};
    I->async_pending++;
  }
}

/* the copy arrives: its bytes read now, its destination written by its thread now */
static void perform_copy(Warp *w, const AsyncCopy *c) {
  int bytes = c->size - c->zfill;
  unsigned char *d = resolve(w, c->at, c->lane, c->dst, c->size, true);
  race_check(w, c->at, c->lane, c->dst, c->size, true);
  if (bytes) memmove(d, resolve(w, c->at, c->lane, c->src, bytes, false), (size_t)bytes);
  memset(d + bytes, 0, c->zfill);
}

/* __pipeline_wait_prior(N): every copy of the thread's committed groups but the N most recent */
static NOINLINE void eval_pipe_wait(Warp *w, Node *n, Mask m) {
  Val a[W];
  eval(w, n->args, m, a);
  uint32_t upto[W];   /* groups below this are complete */
  for (int l = 0; l < W; l++) upto[l] = (m >> l & 1) && a[l].u < w->committed[l] ? w->committed[l] - (uint32_t)a[l].u : 0;
  int k = 0;
  for (int i = 0; i < w->npending; i++) {
    AsyncCopy c = w->pending[i];
    if (c.group < upto[c.lane]) { perform_copy(w, &c); w->I->async_pending--; }
    else w->pending[k++] = c;
  }
  w->npending = k;
}

/* a new barrier interval: the copies still pending may land in it */
static void pending_written(Warp *w) {
  for (int i = 0; i < w->npending; i++) {
    const AsyncCopy *c = &w->pending[i];
    race_check(w, c->at, c->lane, c->dst, c->size, true);
  }
}

static NOINLINE void eval_builtin(Warp *w, Node *n, Mask m, Val *out) {
  Val a[W];
  switch (n->builtin) {
  case BI_SYNCTHREADS: barrier(w, n, m, 0); return;
  case BI_SYNCTHREADS_COUNT: case BI_SYNCTHREADS_AND: case BI_SYNCTHREADS_OR: {
    eval(w, n->args, m, a);
    int c = 0;
    for (int l = 0; l < W; l++) if ((m >> l & 1) && a[l].i) c++;
    barrier(w, n, m, c);
    int total = w->barrier_result, all = w->I->nthreads;
    int r = n->builtin == BI_SYNCTHREADS_COUNT ? total : n->builtin == BI_SYNCTHREADS_AND ? total == all : total > 0;
    for (int l = 0; l < W; l++) out[l].i = r;
    return;
  }
  case BI_SYNCWARP: case BI_THREADFENCE: case BI_THREADFENCE_BLOCK:
    if (n->args) eval(w, n->args, m, a);
    return;
  case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_EXCH: case BI_ATOMIC_MIN: case BI_ATOMIC_MAX:
  case BI_ATOMIC_INC: case BI_ATOMIC_DEC: case BI_ATOMIC_CAS: case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
    eval_atomic(w, n, m, out);
    return;
  case BI_SHFL: case BI_SHFL_UP: case BI_SHFL_DOWN: case BI_SHFL_XOR: eval_shfl(w, n, m, out); return;
  case BI_BALLOT: case BI_ANY: case BI_ALL: {
    Val mk[W];
    eval(w, n->args, m, mk);
    eval(w, n->args->next, m, a);
    Mask bits = 0;
    for (int l = 0; l < W; l++) if ((m >> l & 1) && a[l].i) bits |= 1u << l;
    for (int l = 0; l < W; l++) {
      Mask sel = (Mask)mk[l].u & m;
      Mask b = bits & sel;
      out[l].i = n->builtin == BI_BALLOT ? (int64_t)b : n->builtin == BI_ANY ? b != 0 : b == sel;
    }
    return;
  }
  case BI_ACTIVEMASK: for (int l = 0; l < W; l++) out[l].i = (int64_t)m; return;
  case BI_POPC: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = __builtin_popcount((uint32_t)a[l].u); return;
  case BI_POPCLL: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = popc64(a[l].u); return;
  case BI_CLZ: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = (uint32_t)a[l].u ? __builtin_clz((uint32_t)a[l].u) : 32; return;
  case BI_CLZLL: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = a[l].u ? __builtin_clzll(a[l].u) : 64; return;
  case BI_FFS: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = __builtin_ffs((int)(uint32_t)a[l].u); return;
  case BI_FFSLL: eval(w, n->args, m, a); for (int l = 0; l < W; l++) out[l].i = __builtin_ffsll((long long)a[l].u); return;
  case BI_BREV:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) {
      uint32_t x = (uint32_t)a[l].u, r = 0;
      for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
      out[l].i = r;
    }
    return;
  case BI_LDG: {
    eval(w, n->args, m, a);
    uint64_t addr[W];
    for (int l = 0; l < W; l++) addr[l] = a[l].u;
    if (n->ty->kind == TY_STRUCT) {
      uint64_t tmp = alloc_local(w, n, n->ty->size), dst[W];
      for (int l = 0; l < W; l++) { dst[l] = local_addr(w, l, tmp); out[l].u = dst[l]; }
      copy_bytes(w, n, n->ty->size, dst, addr, m);
      return;
    }
    load(w, n, n->ty, addr, m, out);
    return;
  }
  case BI_MIN: case BI_MAX: {
    Val b[W];
    eval(w, n->args, m, a);
    eval(w, n->args->next, m, b);
    Type *t = n->ty;
    bool mx = n->builtin == BI_MAX;
    for (int l = 0; l < W; l++) {
      bool lt;
      if (t->kind == TY_FLOAT) { out[l].f = mx ? fmaxf(a[l].f, b[l].f) : fminf(a[l].f, b[l].f); continue; }
      if (t->kind == TY_DOUBLE) { out[l].d = mx ? fmax(a[l].d, b[l].d) : fmin(a[l].d, b[l].d); continue; }
      lt = t->is_unsigned ? a[l].u < b[l].u : a[l].i < b[l].i;
      out[l] = (lt != mx) ? a[l] : b[l];
    }
    return;
  }
  case BI_ABS:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = norm_int(n->ty, a[l].i < 0 ? (int64_t)(0 - a[l].u) : a[l].i);
    return;
  case BI_MATH: eval_math(w, n, m, out); return;
  case BI_MAKE_VECTOR: {
    Type *t = n->ty;
    uint64_t tmp = alloc_local(w, n, t->size);
    uint64_t dst[W];
    Member *mem = t->members;
    for (Node *arg = n->args; arg; arg = arg->next, mem = mem->next) {
      eval(w, arg, m, a);
      for (int l = 0; l < W; l++) dst[l] = local_addr(w, l, tmp + (uint64_t)mem->offset);
      for (int l = 0; l < W; l++)
        if (m >> l & 1) write_scalar(resolve(w, n, l, dst[l], mem->ty->size, true), mem->ty, a[l]);
    }
    for (int l = 0; l < W; l++) out[l].u = local_addr(w, l, tmp);
    return;
  }
  case BI_PRINTF:
    if (w->I->L->host_code) { eval_host_call(w, n, m, out); return; }
    eval_printf(w, n, m);
    for (int l = 0; l < W; l++) out[l].i = 0;
    return;
  case BI_CLOCK:
    if (w->I->L->host_code) { HostCtx c = host_ctx(w, n); int64_t t = host_clock(&c); for (int l = 0; l < W; l++) out[l].i = t; return; }
    for (int l = 0; l < W; l++) out[l].i = (int64_t)w->I->st->warp_steps;
    return;
  case BI_HALF: eval_half(w, n, m, out); return;
  case BI_CG: eval_cg(w, n, m, out); return;
  case BI_PIPE_COPY: eval_pipe_copy(w, n, m); return;
  case BI_PIPE_COMMIT: for (int l = 0; l < W; l++) w->committed[l] += m >> l & 1; return;
  case BI_PIPE_WAIT: eval_pipe_wait(w, n, m); return;
  case BI_ASSERT:   /* C++ (docs/cxx.md): a failed assert is a fault with its text; a string
                     * literal is a non-null pointer, so assert(c && "why") and assert(!"why") need nothing special */
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++)
      if ((m >> l & 1) && !a[l].i) {   /* the front end's checks of what carve cannot run say "unsupported: ..." */
        const char *t = n->args->next->tok->str;
        if (!strncmp(t, "unsupported: ", 13)) fault_at(w, FAULT_ASSERTION, n, l, "%s", t);
        fault_at(w, FAULT_ASSERTION, n, l, "assertion '%s' failed", t);
      }
    return;
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: builtin %d", n->builtin);
}

/* ---- calls ---- */
static void bind_param(Warp *w, Frame *f, Obj *p, Mask m, const Val *v, Node *at) {
  if (!p->in_memory) {
    Val *r = f->regs + (size_t)p->slot * W;
    memcpy(r, v, sizeof(Val) * W);
    return;
  }
  uint64_t dst[W];
  for (int l = 0; l < W; l++) dst[l] = local_addr(w, l, f->base + (uint64_t)p->offset);
  if (p->ty->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, at, p->ty->size, dst, src, m);
  } else {
    for (int l = 0; l < W; l++)
      if (m >> l & 1) write_scalar(resolve(w, at, l, dst[l], p->ty->size, true), p->ty, v[l]);
  }
}

static Frame *push_frame(Warp *w, Obj *fn, Node *at) {
  int limit = w->I->host ? MAX_HOST_CALL_DEPTH : MAX_CALL_DEPTH;
  if (w->depth > limit)   /* the entry frame (the kernel, main) and `limit` calls inside it */
    fault_at(w, FAULT_STACK_OVERFLOW, at, -1, "call depth exceeds %d (runaway recursion? docs/limits.md)", limit);
  int d = w->depth;
  if (d == w->nframes) {
    int cap = w->nframes ? w->nframes * 2 : 4;
    if (cap > limit + 1) cap = limit + 1;
    w->frames = xrealloc(w->frames, sizeof(Frame *) * (size_t)cap);
    w->reg_cap = xrealloc(w->reg_cap, sizeof(int) * (size_t)cap);
    for (int i = w->nframes; i < cap; i++) { w->frames[i] = NULL; w->reg_cap[i] = 0; }
    w->nframes = cap;
  }
  if (!w->frames[d]) w->frames[d] = xmalloc(sizeof(Frame));
  Frame *f = w->frames[d];
  int need = fn->nslots ? fn->nslots : 1;
  if (w->reg_cap[d] < need) {
    free(f->regs);
    f->regs = xmalloc(sizeof(Val) * W * (size_t)need);
    w->reg_cap[d] = need;
  } else {
    memset(f->regs, 0, sizeof(Val) * W * (size_t)need);
  }
  f->fn = fn;
  f->ret_mask = 0;
  f->ret_addr = 0;
  f->base = alloc_local(w, at, fn->frame_size ? fn->frame_size : 16);
  w->depth++;
  return f;
}

static void pop_frame(Warp *w, Frame *f) {
  (void)f;
  w->depth--;
}

static NOINLINE void eval_call(Warp *w, Node *n, Mask m, Val *out) {
  Obj *fn = n->fn;
  if (!fn->body && fn->unread)   /* defined, but its definition did not parse: the cause (front end) */
    fault_at(w, FAULT_UNDEFINED_FUNCTION, n, -1, "call to '%s', whose definition carve could not read: %s", fn->name, fn->unread);
  if (!fn->body) fault_at(w, FAULT_UNDEFINED_FUNCTION, n, -1, "call to '%s', which is declared but never defined", fn->name);
  uint64_t saved_sp = w->sp;
  uint64_t ret_tmp = 0;
  if (n->ty->kind == TY_STRUCT) ret_tmp = alloc_local(w, n, n->ty->size);
  Frame *caller = w->frame;
  Frame *f = push_frame(w, fn, n);
  /* arguments are evaluated in the caller's frame and bound one by one into the callee's */
  Node *a = n->args;
  for (Obj *p = fn->params; p && a; p = p->next, a = a->next) {
    Val v[W];
    eval(w, a, m, v);
    bind_param(w, f, p, m, v, n);
  }
  f->ret_addr = ret_tmp;
  Mask *brk = w->brk, *cont = w->cont;
  w->brk = w->cont = NULL;
  w->frame = f;
  /* a fault inside unwinds through longjmp; the frame leaks only then (the launch stops) */
  exec(w, fn->body, m);
  w->frame = caller;
  w->brk = brk;
  w->cont = cont;
  if (n->ty->kind == TY_STRUCT) {
    for (int l = 0; l < W; l++) out[l].u = local_addr(w, l, ret_tmp);
    uint64_t src[W], dst[W];
    for (int l = 0; l < W; l++) { src[l] = f->ret[l].u; dst[l] = out[l].u; }
    copy_bytes(w, n, n->ty->size, dst, src, m & f->ret_mask);
    w->sp = ret_tmp + (uint64_t)n->ty->size;
  } else {
    memcpy(out, f->ret, sizeof f->ret);
    w->sp = saved_sp;
  }
  pop_frame(w, f);
}

/* ---- host programs: runtime calls and launches (host.c) ---- */
static unsigned char *host_mem(HostCtx *c, uint64_t a, size_t n, bool write, bool device) {
  Warp *w = c->warp;
  Interp *I = w->I;
  bool saved = I->dev_ok;
  I->dev_ok = device;
  uint64_t one[W] = {a};
  host_device_check(w, c->at, one, 1, write);
  unsigned char *p = resolve(w, c->at, 0, a, 1, write);
  if (n > 1) {
    unsigned char *q = resolve(w, c->at, 0, a + n - 1, 1, write);
    if (q != p + n - 1)
      fault_at(w, FAULT_OUT_OF_BOUNDS, c->at, -1, "the %zu bytes from address 0x%llx run past the end of their memory", n, (unsigned long long)a);
  }
  I->dev_ok = saved;
  return p;
}

static HostCtx host_ctx(Warp *w, Node *at) {
  HostCtx c = {w->I->L->world, w, at, host_mem, w->I->st->warp_steps};
  return c;
}

/* a call of the host runtime (or printf in host code): arguments for lane 0 */
static NOINLINE void eval_host_call(Warp *w, Node *n, Mask m, Val *out) {
  enum { MAXA = 32 };
  Interp *I = w->I;
  if (!I->L->host_code) fault_at(w, FAULT_UNSUPPORTED, n, -1, "call of the host function '%s' in device code", n->fn->name);
  Val args[MAXA], v[W], ret = {0};
  Type *tys[MAXA];
  int na = 0;
  for (Node *a = n->args; a; a = a->next, na++) {
    if (na == MAXA) fault_at(w, FAULT_UNSUPPORTED, n, -1, "more than %d arguments to a host runtime function", MAXA);
    eval(w, a, m, v);
    args[na] = v[0];
    tys[na] = a->ty;
  }
  if (I->progress_shown) { fputs("\r\033[K", stderr); I->progress_shown = false; }   /* the program's output, not on our line */
  HostCtx c = host_ctx(w, n);
  const char *msg = NULL;
  HostStatus hs = n->fn ? host_call(&c, n->fn, args, tys, na, &ret, &msg)
                        : host_printf(&c, n->args->tok->str, args + 1, tys + 1, na - 1, &msg);
  if (hs == HC_ERROR) fault_at(w, FAULT_RUNTIME_ERROR, n, -1, "%s", msg);
  if (hs == HC_EXIT) unwind_warp(w);   /* exit(): the program ends, not a fault */
  for (int l = 0; l < W; l++) out[l] = ret;
}

/* a launch's grid or block: an integer, or a dim3 (a struct: its address) */
static void launch_dims(Warp *w, Node *e, Mask m, int64_t d[3]) {
  Val v[W];
  eval(w, e, m, v);
  if (e->ty->kind != TY_STRUCT) { d[0] = e->ty->is_unsigned ? (int64_t)v[0].u : v[0].i; d[1] = d[2] = 1; return; }
  for (int i = 0; i < 3; i++) {
    uint32_t x;
    memcpy(&x, resolve(w, e, 0, v[0].u + 4 * (uint64_t)i, 4, false), 4);
    d[i] = x;
  }
}

static NOINLINE void eval_launch(Warp *w, Node *n, Mask m) {
  Interp *I = w->I;
  if (!I->L->host_code) fault_at(w, FAULT_UNSUPPORTED, n, -1, "a kernel launch inside a kernel is not supported");
  int64_t g[3], b[3], sh = 0;
  launch_dims(w, n->cond, m, g);
  launch_dims(w, n->then, m, b);
  Val v[W];
  if (n->els) { eval(w, n->els, m, v); sh = v[0].i; }
  if (n->inc) eval(w, n->inc, m, v);   /* the stream: every stream runs in program order */
  /* on this frame, not the heap: evaluating an argument may fault and unwind */
  enum { MAX_LAUNCH_ARGS = 512 };   /* CUDA's 4 KB of parameters holds at most 512 pointers */
  Val args[MAX_LAUNCH_ARGS];
  if (n->nargs > MAX_LAUNCH_ARGS) fault_at(w, FAULT_UNSUPPORTED, n, -1, "a launch with more than %d arguments", MAX_LAUNCH_ARGS);
  int i = 0;
  for (Node *a = n->args; a; a = a->next, i++) { eval(w, a, m, v); args[i] = v[0]; }
  if (I->progress_shown) { fputs("\r\033[K", stderr); I->progress_shown = false; }
  HostCtx c = host_ctx(w, n);
  int status;
  host_launch(&c, n, g, b, sh, args, &status);
  if (!status) return;
  /* the kernel's fault or stop was reported where it happened; this is where it was launched */
  diag_at(DIAG_NOTE, tok_loc(n->tok), "in this launch of '%s' (grid (%lld,%lld,%lld), block (%lld,%lld,%lld))", n->fn->name, (long long)g[0],
          (long long)g[1], (long long)g[2], (long long)b[0], (long long)b[1], (long long)b[2]);
  I->fault = true;
  if (status == 1) {
    I->st->faults++;
    record_fault(I, FAULT_KERNEL_LAUNCH, n, NULL, w, -1, fmt("the launch of '%s' faulted", n->fn->name));
  }
  else I->stopped = I->st->stopped = true;
  unwind_warp(w);
}

/* ---- the expression dispatcher ---- */
static void eval(Warp *w, Node *n, Mask m, Val *out) {
  STACK_GUARD(w, n);
  step(w, n, m);
  const Hooks *hk = w->I->opt->hooks;
  if (__builtin_expect(hk && hk->node != NULL, 0)) hk->node(hk->ctx, n, m);
  switch (n->kind) {
  case ND_NUM:
    if (n->ty->kind == TY_FLOAT) { float f = (float)n->fval; for (int l = 0; l < W; l++) out[l].f = f; }
    else if (n->ty->kind == TY_DOUBLE) { for (int l = 0; l < W; l++) out[l].d = n->fval; }
    else { int64_t v = norm_int(n->ty, n->ival); for (int l = 0; l < W; l++) out[l].i = v; }
    return;
  case ND_SIZEOF: for (int l = 0; l < W; l++) out[l].i = n->ival; return;
  case ND_STR: {
    /* a string literal is never null: in device code an address in the constant space past
     * any __constant__ area (which can hold 64 KiB), one per literal (line, column); conditions
     * (assert(p && "why"), if ("x")) see it true, and a read of its characters is a fault */
    uint64_t a = (uint64_t)SPACE_CONST << 60 | 1ull << 39 | (uint64_t)(uint32_t)n->tok->line << 16 | (uint16_t)n->tok->col;
    if (w->I->L->host_code) { HostCtx c = host_ctx(w, n); a = host_string(&c, n); }
    for (int l = 0; l < W; l++) out[l].u = a;
    return;
  }
  case ND_LAUNCH: eval_launch(w, n, m); return;
  case ND_VAR:
    if (is_reg_var(n)) { memcpy(out, w->frame->regs + (size_t)n->var->slot * W, sizeof(Val) * W); return; }
    read_lvalue(w, n, m, out);
    return;
  case ND_SPECIAL: {
    Interp *I = w->I;
    switch (n->sreg) {
    case SR_TID: for (int l = 0; l < W; l++) out[l].i = w->tid[n->dim][l]; return;
    case SR_CTAID: for (int l = 0; l < W; l++) out[l].i = I->block_id[n->dim]; return;
    case SR_NTID: for (int l = 0; l < W; l++) out[l].i = I->L->block[n->dim]; return;
    case SR_NCTAID: for (int l = 0; l < W; l++) out[l].i = I->L->grid[n->dim]; return;
    default: for (int l = 0; l < W; l++) out[l].i = 32; return;
    }
  }
  case ND_ADD: case ND_SUB: eval_add_sub(w, n, m, out); return;
  case ND_MUL: case ND_DIV: case ND_MOD: case ND_BITAND: case ND_BITOR: case ND_BITXOR: case ND_SHL: case ND_SHR: {
    Val a[W], b[W];
    eval(w, n->lhs, m, a);
    eval(w, n->rhs, m, b);
    binop(w, n, m, a, b, out, n->kind, n->ty);
    return;
  }
  case ND_EQ: case ND_NE: case ND_LT: case ND_LE: case ND_GT: case ND_GE: {
    Val a[W], b[W];
    eval(w, n->lhs, m, a);
    eval(w, n->rhs, m, b);
    Type *t = n->lhs->ty;
    if (is_pointer_like(t) || is_pointer_like(n->rhs->ty)) t = ty_ulong;
    binop(w, n, m, a, b, out, n->kind, t);
    return;
  }
  case ND_LOGAND: case ND_LOGOR: {
    Mask l = eval_cond(w, n->lhs, m);
    bool and = n->kind == ND_LOGAND;
    Mask need = and ? l : m & ~l;
    hook_branch(w, n, m, need);
    Mask r = need ? eval_cond(w, n->rhs, need) : 0;
    Mask res = and ? r : (l | r);
    for (int i = 0; i < W; i++) out[i].i = res >> i & 1;
    return;
  }
  case ND_NOT: {
    Mask t = eval_cond(w, n->lhs, FULL);
    for (int l = 0; l < W; l++) out[l].i = !(t >> l & 1);
    return;
  }
  case ND_NEG: {
    Val a[W];
    eval(w, n->lhs, m, a);
    if (n->ty->kind == TY_FLOAT) for (int l = 0; l < W; l++) out[l].f = -a[l].f;
    else if (n->ty->kind == TY_DOUBLE) for (int l = 0; l < W; l++) out[l].d = -a[l].d;
    else for (int l = 0; l < W; l++) out[l].i = norm_int(n->ty, (int64_t)(0 - a[l].u));
    return;
  }
  case ND_POS: eval(w, n->lhs, m, out); return;
  case ND_BITNOT: {
    Val a[W];
    eval(w, n->lhs, m, a);
    for (int l = 0; l < W; l++) out[l].i = norm_int(n->ty, ~a[l].i);
    return;
  }
  case ND_COND: {
    Mask c = eval_cond(w, n->cond, m);
    hook_branch(w, n, m, c);
    Val a[W], b[W];
    if (c) eval(w, n->then, c, a);
    if (m & ~c) eval(w, n->els, m & ~c, b);
    for (int l = 0; l < W; l++) out[l] = (c >> l & 1) ? a[l] : b[l];
    return;
  }
  case ND_COMMA: {
    Val t[W];
    eval(w, n->lhs, m, t);
    eval(w, n->rhs, m, out);
    return;
  }
  case ND_CAST: {
    Val a[W];
    eval(w, n->lhs, m, a);
    Type *from = n->lhs->ty, *to = n->ty;
    if (to->kind == TY_VOID || to->kind == TY_STRUCT) { memcpy(out, a, sizeof a); return; }
    if (from->kind == TY_ARRAY) from = ty_ulong;
    for (int l = 0; l < W; l++) out[l] = convert(a[l], from, to);
    return;
  }
  case ND_ADDR: {
    uint64_t a[W];
    w->access = 2;
    eval_addr(w, n->lhs, m, a);
    for (int l = 0; l < W; l++) out[l].u = a[l];
    return;
  }
  case ND_DEREF: case ND_INDEX: case ND_MEMBER: read_lvalue(w, n, m, out); return;
  case ND_ASSIGN: eval_assign(w, n, m, out); return;
  case ND_ASSIGN_OP: case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC: eval_rmw(w, n, m, out); return;
  case ND_CALL:
    if (n->fn && !n->fn->body && n->fn->is_host_lib) eval_host_call(w, n, m, out);
    else if (n->fn) eval_call(w, n, m, out);
    else eval_builtin(w, n, m, out);
    return;
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: cannot evaluate node kind %d", n->kind);
}

/* ---------------- statements ---------------- */
static void init_memory(Warp *w, Node *at, Type *t, const uint64_t *addr, Node *init, Mask m) {
  if (init->kind == ND_INIT_LIST) {
    Node *e = init->elems;
    if (t->kind == TY_ARRAY) {
      for (int i = 0; i < t->array_len; i++) {
        uint64_t a[W];
        for (int l = 0; l < W; l++) a[l] = addr[l] + (uint64_t)i * (uint64_t)t->base->size;
        if (e) { init_memory(w, at, t->base, a, e, m); e = e->next; }
        else {
          /* zero the rest */
          for (int l = 0; l < W; l++)
            if (m >> l & 1) memset(resolve(w, at, l, a[l], t->base->size, true), 0, (size_t)t->base->size);
        }
      }
      return;
    }
    for (Member *mem = t->members; mem; mem = mem->next) {
      uint64_t a[W];
      for (int l = 0; l < W; l++) a[l] = addr[l] + (uint64_t)mem->offset;
      if (e) { init_memory(w, at, mem->ty, a, e, m); e = e->next; }
      else for (int l = 0; l < W; l++)
        if (m >> l & 1) memset(resolve(w, at, l, a[l], mem->ty->size, true), 0, (size_t)mem->ty->size);
    }
    return;
  }
  Val v[W];
  eval(w, init, m, v);
  if (t->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, at, t->size, addr, src, m);
    return;
  }
  for (int l = 0; l < W; l++)
    if (m >> l & 1) write_scalar(resolve(w, at, l, addr[l], t->size, true), t, v[l]);
}

static void exec_decl(Warp *w, Node *n, Mask m) {
  Obj *v = n->var;
  if (v->sc != SC_LOCAL || !n->decl_init) return;
  if (!v->in_memory) {
    Val val[W];
    eval(w, n->decl_init, m, val);
    Val *r = w->frame->regs + (size_t)v->slot * W;
    for (int l = 0; l < W; l++) if (m >> l & 1) r[l] = val[l];
    return;
  }
  uint64_t a[W];
  for (int l = 0; l < W; l++) a[l] = local_addr(w, l, w->frame->base + (uint64_t)v->offset);
  init_memory(w, n, v->ty, a, n->decl_init, m);
}

/* run a loop body with its own break/continue masks */
static Mask loop(Warp *w, Node *n, Mask m) {
  const Hooks *hk = w->I->opt->hooks;
  if (hk && hk->node) hk->node(hk->ctx, n, m);   /* the loop is entered (loop nodes are statements) */
  Mask active = m, done = 0;
  Mask *sb = w->brk, *sc = w->cont;
  bool first = true;
  for (;;) {
    if (n->kind != ND_DO || !first) {
      if (n->cond) {
        Mask c = eval_cond(w, n->cond, active);
        hook_branch(w, n, active, c);
        done |= active & ~c;
        active &= c;
      }
    }
    first = false;
    if (!active) break;
    /* host code: now and then, the progress line and the wall-clock limit (per iteration, not
     * per node: the hot path) */
    if (__builtin_expect(w->I->host, 0) && !(++w->I->host_ticks & 0xffff) && (w->I->opt->progress || w->I->opt->max_seconds > 0)) host_progress(w, n);
    Mask brk = 0, cont = 0;
    w->brk = &brk;
    w->cont = &cont;
    Mask normal = exec(w, n->then, active);
    w->brk = sb;
    w->cont = sc;
    done |= brk;
    active = normal | cont;
    if (n->kind == ND_FOR && n->inc && active) {
      Val t[W];
      uint64_t save = w->sp;
      eval(w, n->inc, active, t);
      w->sp = save;
    }
  }
  return done;
}

static Mask exec_switch(Warp *w, Node *n, Mask m) {
  Val v[W];
  eval(w, n->cond, m, v);
  Mask matched = 0;
  for (Node *c = n->cases; c; c = c->case_next) {
    if (c->is_default) continue;
    for (int l = 0; l < W; l++) if ((m >> l & 1) && v[l].i == c->case_val) matched |= 1u << l;
  }
  Mask brk = 0;
  Mask *sb = w->brk;
  w->brk = &brk;
  Mask active = 0, entered = 0;
  Node *body = n->then;
  Node *stmts = body->kind == ND_BLOCK ? body->stmts : body;
  for (Node *s = stmts; s; s = s->next) {
    if (s->kind == ND_CASE) {
      Mask enter = 0;
      if (s->is_default) enter = m & ~matched;
      else for (int l = 0; l < W; l++) if ((m >> l & 1) && v[l].i == s->case_val) enter |= 1u << l;
      hook_branch(w, s, m, enter);
      active |= enter;
      entered |= enter;
      if (active) active = exec(w, s->lhs, active);
      continue;
    }
    if (active) active = exec(w, s, active);
    if (body->kind != ND_BLOCK) break;
  }
  w->brk = sb;
  return active | brk | (m & ~entered);   /* no case matched and no default: past the switch */
}

/* Execute a statement for the lanes in m; returns the lanes that continue normally after it
 * (lanes that break, continue or return leave through the warp's masks). */
static Mask exec(Warp *w, Node *n, Mask m) {
  if (!m) return 0;
  STACK_GUARD(w, n);
  switch (n->kind) {
  case ND_BLOCK: {
    uint64_t save = w->sp;
    for (Node *s = n->stmts; s && m; s = s->next) m = exec(w, s, m);
    w->sp = save;
    return m;
  }
  case ND_DECL: { uint64_t save = w->sp; exec_decl(w, n, m); w->sp = save; return m; }
  case ND_EXPR_STMT: {
    Val t[W];
    uint64_t save = w->sp;
    eval(w, n->lhs, m, t);
    w->sp = save;
    return m;
  }
  case ND_NULL_STMT: case ND_PRAGMA: return m;
  case ND_IF: {
    Mask c = eval_cond(w, n->cond, m);
    hook_branch(w, n, m, c);
    Mask out = 0;
    if (c) out |= exec(w, n->then, c);
    if (m & ~c) out |= n->els ? exec(w, n->els, m & ~c) : (m & ~c);
    return out;
  }
  case ND_FOR: {
    uint64_t save = w->sp;
    if (n->init) for (Node *d = n->init; d; d = d->next) exec(w, d, m);
    Mask r = loop(w, n, m);
    w->sp = save;
    return r;
  }
  case ND_WHILE: case ND_DO: return loop(w, n, m);
  case ND_SWITCH: return exec_switch(w, n, m);
  case ND_CASE: return exec(w, n->lhs, m);
  case ND_BREAK: *w->brk |= m; return 0;
  case ND_CONTINUE: *w->cont |= m; return 0;
  case ND_RETURN: {
    Frame *f = w->frame;
    if (n->lhs) {
      Val v[W];
      eval(w, n->lhs, m, v);
      for (int l = 0; l < W; l++) if (m >> l & 1) f->ret[l] = v[l];
    }
    f->ret_mask |= m;
    if (w->depth == 1) w->exited |= m;
    return 0;
  }
  default: {
    Val t[W];
    eval(w, n, m, t);
    return m;
  }
  }
}

/* ---------------- barriers and warps ---------------- */
static void yield_to_scheduler(Warp *w) {
  Interp *I = w->I;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(&w->fake_stack, I->sched_stack_bottom, I->sched_stack_size);
#endif
  swapcontext(&w->ctx, &I->sched_ctx);
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(w->fake_stack, NULL, NULL);
#endif
}

static void barrier(Warp *w, Node *n, Mask m, int pred_count) {
  Mask live = w->valid & ~w->exited;
  if (m != live) {
    int lane = __builtin_ctz(live & ~m ? live & ~m : live);
    char who[128];
    thread_desc(w, lane, who, sizeof who);
    fault_at(w, FAULT_DIVERGENT_BARRIER, n, __builtin_ctz(m), "__syncthreads reached by only part of a warp: %d of its %d live threads arrive (%s does not)",
             __builtin_popcount(m), __builtin_popcount(live), who);
  }
  if (!w->I->coroutines) {
    /* single-warp blocks without coroutines: the barrier is trivially complete */
    w->barrier_result = pred_count;
    w->I->epoch++;
    return;
  }
  w->state = WS_BARRIER;
  w->barrier_at = n;
  w->barrier_mask = m;
  w->barrier_pred_count = pred_count;
  yield_to_scheduler(w);
  if (w->I->fault) unwind_warp(w);
  if (w->npending) pending_written(w);
}

static void run_kernel_body(Warp *w) {
  Interp *I = w->I;
  Launch *L = I->L;
  Mask m = w->valid;
  w->sp = 0;
  w->depth = 0;
  w->exited = 0;
  Frame *f = push_frame(w, L->kernel, NULL);
  w->frame = f;
  int i = 0;
  for (Obj *p = L->kernel->params; p; p = p->next, i++) {
    Val v[W];
    for (int l = 0; l < W; l++) v[l] = L->args[i];
    bind_param(w, f, p, m, v, NULL);
  }
  exec(w, L->kernel->body, m);
  if (w->npending) {   /* copies its threads never waited for: never performed (warned) */
    I->st->async_unwaited += (uint64_t)w->npending;
    if (!I->async_unwaited_at) I->async_unwaited_at = w->pending[0].at;
  }
  if (L->host_code) L->host_ret = f->ret[0];
  pop_frame(w, f);
  w->frame = NULL;
}

static __thread Interp *carve_current_interp;

static void warp_entry(void) {
  /* makecontext passes no pointer portably: the scheduler leaves the warp in I->running */
  Interp *I = carve_current_interp;
  Warp *w = I->running;
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(NULL, &I->sched_stack_bottom, &I->sched_stack_size);
#endif
  if (!setjmp(w->fault_jmp)) run_kernel_body(w);
  else if (w->frame) { w->frame = NULL; }
  w->state = WS_DONE;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(NULL, I->sched_stack_bottom, I->sched_stack_size);
#endif
  setcontext(&I->sched_ctx);
}

static void resume(Interp *I, Warp *w) {
  I->running = w;
  carve_current_interp = I;
#ifdef CARVE_ASAN
  __sanitizer_start_switch_fiber(&I->sched_fake_stack, w->stack, STACK_BYTES(I));
#endif
  swapcontext(&I->sched_ctx, &w->ctx);
#ifdef CARVE_ASAN
  __sanitizer_finish_switch_fiber(I->sched_fake_stack, NULL, NULL);
#endif
}

/* ASan: frames left poisoned on a stack, warp_entry's own (it ends by setcontext) and those a
 * longjmp skipped, are cleaned before the stack is used again */
static void unpoison_stack(Interp *I, void *stack) {
#ifdef CARVE_ASAN
  size_t dirty = I->abandoned + ((size_t)64 << 10);
  if (dirty > STACK_BYTES(I)) dirty = STACK_BYTES(I);
  __asan_unpoison_memory_region((unsigned char *)stack + STACK_BYTES(I) - dirty, dirty);
#else
  (void)I; (void)stack;
#endif
}

static void start_warp_context(Interp *I, Warp *w) {
  w->stack_floor = (uintptr_t)w->stack + STACK_MARGIN;
  unpoison_stack(I, w->stack);
  getcontext(&w->ctx);
  w->ctx.uc_stack.ss_sp = w->stack;
  w->ctx.uc_stack.ss_size = STACK_BYTES(I);
  w->ctx.uc_link = NULL;
  makecontext(&w->ctx, warp_entry, 0);
  w->state = WS_READY;
}

/* one block with barriers: run warps until all wait at a barrier, check it, release them */
static void run_block_coroutines(Interp *I) {
  for (int i = 0; i < I->nwarps; i++) start_warp_context(I, &I->warps[i]);
  for (;;) {
    for (int i = 0; i < I->nwarps && !I->fault; i++)
      if (I->warps[i].state == WS_READY) resume(I, &I->warps[i]);
    if (I->fault) {
      /* let every suspended warp unwind so nothing is left half-run */
      for (int i = 0; i < I->nwarps; i++)
        if (I->warps[i].state == WS_BARRIER) { I->warps[i].state = WS_READY; resume(I, &I->warps[i]); }
      return;
    }
    Warp *first = NULL;
    int waiting = 0, total = 0;
    for (int i = 0; i < I->nwarps; i++) {
      Warp *w = &I->warps[i];
      if (w->state != WS_BARRIER) continue;
      waiting++;
      total += w->barrier_pred_count;
      if (!first) first = w;
      else if (w->barrier_at != first->barrier_at) {
        I->fault = true;
        I->st->faults++;
        const char *msg = fmt("divergent __syncthreads: warp %d waits here while warp %d waits at line %d, in block (%lld,%lld,%lld)", w->index,
                              first->index, tok_loc(first->barrier_at->tok).line, (long long)I->block_id[0], (long long)I->block_id[1],
                              (long long)I->block_id[2]);
        record_fault(I, FAULT_DIVERGENT_BARRIER, w->barrier_at, first->barrier_at, NULL, -1, msg);
        if (I->reports++ < (I->opt->max_reports ? I->opt->max_reports : 10)) diag_at(DIAG_ERROR, tok_loc(w->barrier_at->tok), "%s", msg);
        for (int k = 0; k < I->nwarps; k++)
          if (I->warps[k].state == WS_BARRIER) { I->warps[k].state = WS_READY; resume(I, &I->warps[k]); }
        return;
      }
    }
    if (!waiting) return;   /* all done */
    I->epoch++;
    for (int i = 0; i < I->nwarps; i++)
      if (I->warps[i].state == WS_BARRIER) { I->warps[i].state = WS_READY; I->warps[i].barrier_result = total; }
  }
}

/* warps of a kernel without barriers run one after the other, each to its end, on one stack */
static void run_block_plain(Interp *I) {
  const Hooks *h = I->opt->hooks;
  for (int i = 0; i < I->nwarps && !I->fault; i++)
    if (!h || !h->want_warp || h->want_warp(h->ctx, I->block_linear, i, I->nwarps)) {
      Warp *w = &I->warps[i];
      w->stack = I->warps[0].stack;
      start_warp_context(I, w);
      resume(I, w);
    }
}

static void setup_block(Interp *I, int64_t bx, int64_t by, int64_t bz) {
  Launch *L = I->L;
  I->block_id[0] = bx; I->block_id[1] = by; I->block_id[2] = bz;
  I->block_linear = bx + L->grid[0] * (by + L->grid[1] * bz);
  memset(I->shared, I->opt->poison_shared ? 0xff : 0, I->shared_size);
  I->epoch++;
  I->async_pending = 0;
  for (int wi = 0; wi < I->nwarps; wi++) {
    Warp *w = &I->warps[wi];
    w->I = I;
    w->index = wi;
    w->valid = 0;
    w->steps = 0;
    w->state = WS_READY;
    w->npending = 0;
    memset(w->committed, 0, sizeof w->committed);
    for (int l = 0; l < W; l++) {
      int t = wi * W + l;
      w->linear_tid[l] = t < I->nthreads ? t : 0;
      if (t < I->nthreads) {
        w->valid |= 1u << l;
        w->tid[0][l] = (uint32_t)(t % L->block[0]);
        w->tid[1][l] = (uint32_t)((t / L->block[0]) % L->block[1]);
        w->tid[2][l] = (uint32_t)(t / (L->block[0] * L->block[1]));
      } else {
        w->tid[0][l] = w->tid[1][l] = w->tid[2][l] = 0;
      }
    }
  }
}

static size_t kernel_local_size(Program *p, bool host) {
  size_t max_frame = 16;
  for (Obj *f = p->funcs; f; f = f->next) if ((size_t)f->frame_size > max_frame) max_frame = (size_t)f->frame_size;
  size_t s = max_frame * 8 + 4096 + (size_t)16 * MAX_CALL_DEPTH;   /* and MAX_CALL_DEPTH small frames */
  /* the host program is one thread: a C stack's worth (arrays in main's frame) */
  if (host) s = max_frame * 8 + ((size_t)8 << 20);
  return s < 16384 ? 16384 : s;
}

/* a warp stack with a guard page below it; NULL if it cannot be mapped */
static void *map_stack(Interp *I) {
  unsigned char *s = mmap(NULL, STACK_BYTES(I) + PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (s == MAP_FAILED) return NULL;
  mprotect(s, PAGE_BYTES, PROT_NONE);
  return s + PAGE_BYTES;
}
static void unmap_stack(Interp *I, void *s) {
  if (!s) return;
  unpoison_stack(I, s);   /* the next mapping there starts clean */
  munmap((unsigned char *)s - PAGE_BYTES, STACK_BYTES(I) + PAGE_BYTES);
}

/* The configuration against the machine's limits (CUDA's, common to every machine, are
 * launch_check_dims's); 0, or 2 after a diagnostic. */
static int check_config(Interp *I, const Machine *M) {
  Launch *L = I->L;
  SrcLoc at = L->where.file ? L->where : tok_loc(L->kernel->tok);
  if (launch_check_dims(L)) return 2;
  int64_t nthreads = L->block[0] * L->block[1] * L->block[2];
  if (nthreads > M->max_threads_per_block) {
    diag_at(DIAG_ERROR, at, "block of %lld threads: CUDA allows 1 to %d on the %s", (long long)nthreads, M->max_threads_per_block, M->long_name);
    return 2;
  }
  I->nthreads = (int)nthreads;
  I->nwarps = (I->nthreads + W - 1) / W;
  double total_warps = (double)L->grid[0] * (double)L->grid[1] * (double)L->grid[2] * I->nwarps;
  if (total_warps > (double)I->max_steps) {
    diag_at(DIAG_ERROR, at, "the launch has %.3g warps, more than the step limit (%llu) lets the interpreter run; use a smaller problem or raise --max-steps",
            total_warps, (unsigned long long)I->max_steps);
    return 2;
  }
  I->dyn_base = ((size_t)L->prog->shared_size + 15) & ~(size_t)15;
  if (L->kernel->has_extern_shared && L->dyn_shared == 0)
    diag_at(DIAG_WARNING, tok_loc(L->kernel->tok), "kernel '%s' declares extern __shared__ memory but the launch gives 0 bytes (use shared(BYTES))", L->kernel->name);
  int64_t limit = M->smem_per_block_optin;
  if (L->dyn_shared < 0 || L->dyn_shared > limit || (int64_t)I->dyn_base + L->dyn_shared > limit) {
    diag_at(DIAG_ERROR, tok_loc(L->kernel->tok), "block needs %lld bytes of shared memory; a block on the %s can have at most %lld",
            (long long)I->dyn_base + (long long)L->dyn_shared, M->long_name, (long long)limit);
    return 2;
  }
  I->shared_size = I->dyn_base + (size_t)L->dyn_shared;
  return 0;
}

static int alloc_interp(Interp *I) {
  Launch *L = I->L;
  size_t sh = I->shared_size + 1;
  I->shared = xmalloc(sh);
  I->w_epoch = xmalloc(sh * 4);
  I->r_epoch = xmalloc(sh * 4);
  I->w_warp = xmalloc(sh * 2);
  I->r_warp = xmalloc(sh * 2);
  I->w_node = xmalloc(sh * sizeof(Node *));
  I->r_node = xmalloc(sh * sizeof(Node *));
  I->local_size = kernel_local_size(L->prog, L->host_code);
  I->local = xmalloc(I->local_size * (size_t)I->nthreads);
  I->warps = xmalloc(sizeof(Warp) * (size_t)I->nwarps);   /* zeroed: no pending copies */
  I->coroutines = L->kernel->uses_barrier && I->nwarps > 1;
  /* warps that wait at barriers each keep a stack; others run one at a time on one */
  I->nstacks = I->coroutines ? I->nwarps : 1;
  for (int i = 0; i < I->nstacks; i++)
    if (!(I->warps[i].stack = map_stack(I))) {
      diag_at(DIAG_ERROR, tok_loc(L->kernel->tok), "cannot map a warp stack of %zu MiB", STACK_BYTES(I) >> 20);
      return 2;
    }
  return 0;
}

static void free_interp(Interp *I) {
  if (I->warps) {
    for (int i = 0; i < I->nstacks; i++) unmap_stack(I, I->warps[i].stack);
    for (int i = 0; i < I->nwarps; i++)
      for (int d = 0; d < I->warps[i].nframes; d++) {
        if (I->warps[i].frames[d]) free(I->warps[i].frames[d]->regs);
        free(I->warps[i].frames[d]);
      }
    for (int i = 0; i < I->nwarps; i++) { free(I->warps[i].frames); free(I->warps[i].reg_cap); }
    for (int i = 0; i < I->nwarps; i++) free(I->warps[i].pending);
  }
  free(I->warps);
  free(I->local);
  free(I->shared);
  free(I->w_epoch); free(I->r_epoch); free(I->w_warp); free(I->r_warp); free(I->w_node); free(I->r_node);
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *duration(double s) {
  if (s < 60) return fmt("%.0f s", s);
  if (s < 3600) return fmt("%.0f min %02.0f s", floor(s / 60), fmod(s, 60));
  return fmt("%.0f h %02.0f min", floor(s / 3600), fmod(s / 60, 60));
}

/* a line on the terminal, rewritten in place, for launches running over a second: blocks done,
 * the rate and the time left at that rate (final: erase it) */
static void progress(Interp *I, int64_t done, int64_t total, bool final) {
  if (!I->opt->progress) return;
  if (final) {
    if (I->progress_shown) fputs("\r\033[K", stderr);
    I->progress_shown = false;
    return;
  }
  double t = now_seconds(), el = t - I->t0;
  if (I->L->host_code || el < 1.0 || t - I->last_progress < 0.5 || !done) return;
  I->last_progress = t;
  I->progress_shown = true;
  double rate = (double)I->st->lane_ops / el / 1e6;
  fprintf(stderr, "\r\033[K%s: block %lld of %lld, %.0f M lane-ops/s, %s left", I->L->kernel->name, (long long)done, (long long)total, rate,
          duration(el * (double)(total - done) / (double)done));
  fflush(stderr);
}

static void run_blocks(Interp *I) {
  Launch *L = I->L;
  const Hooks *h = I->opt->hooks;
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2], done = 0;
  for (int64_t bz = 0; bz < L->grid[2] && !I->fault; bz++)
    for (int64_t by = 0; by < L->grid[1] && !I->fault; by++)
      for (int64_t bx = 0; bx < L->grid[0] && !I->fault; bx++) {
        int64_t lin = bx + L->grid[0] * (by + L->grid[1] * bz);
        if (h && h->want_block && !h->want_block(h->ctx, lin)) continue;
        setup_block(I, bx, by, bz);
        if (I->coroutines) run_block_coroutines(I);
        else run_block_plain(I);
        I->st->blocks_run++;
        if (!I->fault) progress(I, ++done, total, false);
      }
  progress(I, done, total, true);
}

uint64_t launch_step_limit(const Launch *L, uint64_t given) {
  if (given) return given;
  if (L->host_code) return 100000000000ull;
  double warps = (double)L->grid[0] * (double)L->grid[1] * (double)L->grid[2] * (double)((L->block[0] * L->block[1] * L->block[2] + W - 1) / W);
  double scaled = warps * 1e6;
  return scaled > 2e9 ? (scaled < 1.8e19 ? (uint64_t)scaled : UINT64_MAX) : 2000000000ull;
}

int interp_run(Launch *L, const RunOptions *opt, RunStats *st) {
  static const RunOptions defaults;
  if (!opt) opt = &defaults;
  memset(st, 0, sizeof *st);
  Interp I = {0};
  I.L = L;
  I.opt = opt;
  I.st = st;
  I.max_steps = launch_step_limit(L, opt->max_steps);
  I.host = L->host_code;
  I.world = L->world != NULL;
  st->step_limit = I.max_steps;
  const Machine *M = L->machine ? L->machine : machine_find("h100");
  if (check_config(&I, M)) return 2;
  if (alloc_interp(&I)) { free_interp(&I); return 2; }
  I.t0 = I.last_progress = now_seconds();
  run_blocks(&I);
  st->seconds = now_seconds() - I.t0;
  free_interp(&I);
  if (I.reports > 10) diag_at(DIAG_NOTE, (SrcLoc){0}, "%d more faults not shown", I.reports - 10);
  if (st->async_unwaited && !I.fault && !I.stopped)
    diag_at(DIAG_WARNING, tok_loc(I.async_unwaited_at->tok),
            "%llu async cop%s (__pipeline_memcpy_async, the first issued here) never waited for by %s thread: %s data never arrives "
            "(carve performs a copy at the __pipeline_wait_prior that covers it; on the GPU when it lands is undefined)",
            (unsigned long long)st->async_unwaited, st->async_unwaited == 1 ? "y" : "ies", st->async_unwaited == 1 ? "its" : "their",
            st->async_unwaited == 1 ? "its" : "their");
  return I.stopped ? 2 : I.fault ? 1 : 0;
}
