/* interp_impl.h: what the interpreter's files share, private to src/interp (the public
 * interface is interp.h). The interpreter is one machine split along its seams:
 *   interp.c    evaluation and statements: eval, exec, calls, host calls and launches
 *   mem.c       faults, and memory: address checks, races, loads and stores
 *   builtins.c  builtins: math, atomics, shuffles, printf, halves, cooperative groups, async copies
 *   warps.c     barriers, the warps' coroutines, the block loop and interp_run
 * Its state is the Interp of one launch (below), reached from every Warp as w->I and passed
 * explicitly; the one file-scope variable is warps.c's thread-local Interp pointer, which
 * makecontext's entry point needs because it takes no pointer argument. */
#ifndef CARVE_INTERP_IMPL_H
#define CARVE_INTERP_IMPL_H
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
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
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
#define WARP_STACK                                                    \
  ((STACK_MARGIN + (size_t)LIMIT_EXPR_DEPTH * EXPR_LEVEL_BYTES +      \
    (size_t)LIMIT_STMT_NESTING * STMT_LEVEL_BYTES +                   \
    (size_t)LIMIT_EXPR_NESTING * NEST_LEVEL_BYTES + PAGE_BYTES - 1) & \
   ~(PAGE_BYTES - 1))

/* host code is one thread whose calls recurse as a C program's do: its stack is large enough for
 * MAX_HOST_CALL_DEPTH calls of a small function (1.8 KB of carve's stack a level at -O2;
 * reserved, not touched, until used) */
#ifdef CARVE_ASAN
#define HOST_WARP_STACK ((size_t)4 << 30)
#else
#define HOST_WARP_STACK ((size_t)1 << 30)
#endif
#define STACK_BYTES(I) ((I)->host ? HOST_WARP_STACK : WARP_STACK)

/* WS_GRID: waiting at a grid-wide sync (grid_group::sync), released when every block's live
 * warps wait there (warps.c, run_grid_together) */
typedef enum { WS_READY, WS_BARRIER, WS_DONE, WS_GRID } WarpState;

/* one block's state while the blocks of a launch with a grid-wide sync run together: what
 * Interp holds for the block it runs, saved and restored around each turn (block_load,
 * block_save in warps.c) */
typedef struct BlockCtx {
  int64_t block_id[3], block_linear;
  struct Warp *warps;
  unsigned char *shared, *local;
  uint32_t *w_epoch, *r_epoch;
  uint16_t *w_warp, *r_warp;
  struct Node **w_node, **r_node;
  int64_t async_pending;
  bool finished;
} BlockCtx;

typedef struct Frame {
  Obj *fn;
  Val *regs;     /* nslots x 32 */
  uint64_t base; /* offset of the frame in each thread's local stack */
  Mask ret_mask; /* lanes that executed return */
  Val ret[W];
  uint64_t ret_addr; /* struct results: the caller's temporary */
} Frame;

typedef struct Interp Interp;

/* an async copy (__pipeline_memcpy_async) a thread issued and has not waited for: performed
 * only at the __pipeline_wait_prior that covers its group (docs/DESIGN.md, "Async copies") */
typedef struct AsyncCopy {
  Node *at;
  uint64_t dst, src;
  uint32_t group; /* the thread's commit count when it was issued */
  uint8_t lane, size, zfill;
} AsyncCopy;

typedef struct Warp {
  Interp *I;
  uintptr_t stack_floor; /* eval and exec stop with a fault below this address (see WARP_STACK) */
  int index;             /* warp index in the block */
  Mask valid;            /* lanes that are threads of the block */
  Mask exited;           /* lanes that returned from the kernel */
  uint32_t tid[3][W];
  int linear_tid[W];
  WarpState state;
  Node *barrier_at;
  Mask barrier_mask;
  int barrier_pred_count; /* __syncthreads_count etc. */
  int barrier_result;
  Frame *frame;
  Frame **frames; /* one per depth reached, each allocated once: regs buffers are kept and
                        * reused across calls, and a Frame never moves */
  int *reg_cap, nframes;
  int depth;
  uint64_t sp;      /* top of the thread-local stacks (same offset in every lane's stack) */
  Mask *brk, *cont; /* innermost loop/switch: lanes that broke / continued */
  int access;       /* what the address being computed is for: 0 read, 1 write, 2 address-of */
  uint64_t steps;   /* steps this warp has taken in this block */
  ucontext_t ctx;
  void *stack; /* WARP_STACK bytes above a guard page */
  jmp_buf fault_jmp;
  void *fake_stack;
  AsyncCopy *pending; /* issued, not yet performed, in issue order (all lanes) */
  int npending, pending_cap;
  uint32_t committed[W]; /* __pipeline_commit calls per lane in this block */
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
  unsigned char *local; /* nthreads x local_size */
  size_t local_size;
  /* race shadow: per shared byte */
  uint32_t *w_epoch, *r_epoch;
  uint16_t *w_warp, *r_warp;
  Node **w_node, **r_node; /* the access that set the shadow, for the race report */
  uint32_t epoch;
  int reports;
  bool fault;
  ucontext_t sched_ctx;
  void *sched_fake_stack;
  const void *sched_stack_bottom;
  size_t sched_stack_size;
  Warp *running;
  bool coroutines;
  int nstacks;  /* warps[0..nstacks-1].stack are mapped */
  bool stopped; /* the step limit was reached (I->fault is set too, to stop every loop) */
  bool dev_ok;  /* host code: a runtime call (cudaMemcpy) may reach device memory now */
  double t0, last_progress; /* progress: start and last line printed (seconds) */
  double cpu0;              /* the thread's processor time at the start (RunOptions.cut_seconds) */
  bool progress_shown;
  bool time_out;           /* host code stopped by RunOptions.max_seconds */
  uint64_t host_ticks;     /* host code: loop iterations, for the progress line */
  bool host, world;        /* L->host_code, L->world != NULL: read on hot paths */
  size_t abandoned;        /* ASan: how far below a stack's top frames were left by a longjmp */
  int64_t async_pending;   /* async copies pending in the block, all warps (ASYNC_MAX_PENDING) */
  Node *async_unwaited_at; /* the first copy a thread ended without waiting for */
  BlockCtx *blocks;        /* a launch with a grid-wide sync: every block, run together */
  int64_t nblocks;         /* their number (0: blocks run one after another) */
};

/* the most warps a launch with a grid-wide sync may have: each keeps a stack mapping while all
 * blocks run together (two memory maps each, under Linux's default 65530) */
#define GRID_SYNC_MAX_WARPS 16384

/* async copies pending in one block at once: carve's bound on the memory they take (32 bytes
 * each, 32 MiB), far above a pipeline's stages x copies per thread x threads */
#define ASYNC_MAX_PENDING ((int64_t)1 << 20)

/* ---------------- shared helpers ---------------- */
/* a fault of the warp (mem.c's fault_raise): reported, recorded, and the warp unwound */
#define fault_at(w, kind, n, lane, ...) fault_raise(w, kind, n, NULL, lane, __VA_ARGS__)

/* a scalar of type t read from / written to memory, in the GPU's byte layout */
static inline Val read_scalar(const unsigned char *p, Type *t) {
  Val v;
  switch (t->kind) {
  case TY_FLOAT:
    memcpy(&v.f, p, 4);
    v.u &= 0xffffffffu;
    memcpy(&v.f, p, 4);
    return v;
  case TY_DOUBLE: memcpy(&v.d, p, 8); return v;
  case TY_BOOL: v.i = *p != 0; return v;
  default: break;
  }
  switch (t->size) {
  case 1:
    v.i = t->is_unsigned ? (int64_t) * (const uint8_t *)p : (int64_t) * (const int8_t *)p;
    return v;
  case 2: {
    uint16_t x;
    memcpy(&x, p, 2);
    v.i = t->is_unsigned ? (int64_t)x : (int64_t)(int16_t)x;
    return v;
  }
  case 4: {
    uint32_t x;
    memcpy(&x, p, 4);
    v.i = t->is_unsigned ? (int64_t)x : (int64_t)(int32_t)x;
    return v;
  }
  default: memcpy(&v.u, p, 8); return v;
  }
}

static inline void write_scalar(unsigned char *p, Type *t, Val v) {
  switch (t->kind) {
  case TY_FLOAT: memcpy(p, &v.f, 4); return;
  case TY_DOUBLE: memcpy(p, &v.d, 8); return;
  case TY_BOOL: *p = v.i != 0; return;
  default: break;
  }
  switch (t->size) {
  case 1: *p = (uint8_t)v.u; return;
  case 2: {
    uint16_t x = (uint16_t)v.u;
    memcpy(p, &x, 2);
    return;
  }
  case 4: {
    uint32_t x = (uint32_t)v.u;
    memcpy(p, &x, 4);
    return;
  }
  default: memcpy(p, &v.u, 8); return;
  }
}

/* the address of offset off in lane's thread-local stack */
static inline uint64_t local_addr(Warp *w, int lane, uint64_t off) {
  return ((uint64_t)SPACE_LOCAL << 60) | ((uint64_t)w->linear_tid[lane] << 40) | off;
}

/* an integer wrapped to t's width and signedness (bool: 0 or 1) */
static inline int64_t norm_int(Type *t, int64_t v) {
  switch (t->size) {
  case 1:
    return t->kind == TY_BOOL ? v != 0 : t->is_unsigned ? (int64_t)(uint8_t)v : (int64_t)(int8_t)v;
  case 2: return t->is_unsigned ? (int64_t)(uint16_t)v : (int64_t)(int16_t)v;
  case 4: return t->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
  default: return v;
  }
}

/* a branch for the hooks (analysis, model): the lanes that were active and those that took it */
static inline void hook_branch(Warp *w, Node *at, Mask active, Mask taken) {
  const Hooks *h = w->I->opt->hooks;
  if (h && h->branch && active) h->branch(h->ctx, at, active, taken, w->I->block_linear, w->index);
}

/* The functions the files call of one another. Private to src/interp, yet global symbols of
 * libcarve.a: a name that clashed with another directory's would fail the link, never silently. */
/* mem.c: faults */
_Noreturn void unwind_warp(Warp *w);
void thread_desc(Warp *w, int lane, char *buf, size_t n);
void record_fault(Interp *I, FaultKind kind, Node *n, Node *other, const Warp *w, int lane,
                  const char *msg);
_Noreturn void fault_raise(Warp *w, FaultKind kind, Node *n, Node *other, int lane, const char *f,
                           ...) __attribute__((format(printf, 6, 7)));
/* mem.c: memory */
const char *space_name(int s);
void host_device_check(Warp *w, Node *at, const uint64_t *addr, Mask m, bool write);
unsigned char *resolve(Warp *w, Node *at, int lane, uint64_t a, int size, bool write);
void race_check(Warp *w, Node *at, int lane, uint64_t a, int size, bool write);
void hook_access(Warp *w, Node *at, AccessKind k, int size, const uint64_t *addr, Mask m);
void load(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, Val *out);
void store(Warp *w, Node *at, Type *t, const uint64_t *addr, Mask m, const Val *v);
void copy_bytes(Warp *w, Node *at, int size, const uint64_t *dst, const uint64_t *src, Mask m);
uint64_t alloc_local(Warp *w, Node *at, int size);

/* interp.c: evaluation, statements and calls */
void eval(Warp *w, Node *n, Mask m, Val *out);
Mask exec(Warp *w, Node *n, Mask m);
void bind_param(Warp *w, Frame *f, Obj *p, Mask m, const Val *v, Node *at);
Frame *push_frame(Warp *w, Obj *fn, Node *at);
void pop_frame(Warp *w, Frame *f);
HostCtx host_ctx(Warp *w, Node *at);
NOINLINE void eval_host_call(Warp *w, Node *n, Mask m, Val *out);

/* builtins.c */
NOINLINE void eval_builtin(Warp *w, Node *n, Mask m, Val *out);
void pending_written(Warp *w);

/* warps.c */
void barrier(Warp *w, Node *n, Mask m, int pred_count);
void grid_barrier(Warp *w, Node *n, Mask m);
double now_seconds(void);
#endif
