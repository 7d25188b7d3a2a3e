/* native: kernels compiled to native code on the CPU, the interpreter kept as the checker.
 *
 * native_emit.c translates a kernel from carve's AST into C: the threads of a block become loops
 * (one C function per thread for kernels without barriers; for kernels with __syncthreads the
 * body is split at every barrier into thread loops, MCUDA's loop fission: Stratton, Stone, Hwu,
 * LCPC 2008, with every local of the kernel promoted to a per-thread record). Arithmetic follows
 * interp.c exactly: the same operations in the same order and precision, fmaf where add_type
 * marked a contraction, the GPU's answers where C leaves things undefined (saturating float to
 * integer conversions, clamped shifts, INT_MIN / -1), the same libm calls (mathfns.def).
 * native.c compiles it with the system's C compiler ($CC or cc), caches the shared object by
 * source hash, loads it (dlopen) and runs the blocks over the machine's cores (pthreads).
 * What it cannot translate is named (construct and line) and the launch runs in the interpreter. */
#ifndef CARVE_NATIVE_H
#define CARVE_NATIVE_H
#include "interp.h"

typedef enum { ENGINE_AUTO, ENGINE_NATIVE, ENGINE_INTERP } EngineKind;
typedef enum { CHECK_SAMPLE, CHECK_ALL, CHECK_NONE } CheckKind;

/* the translation of one kernel (native_emit.c) */
typedef struct NativeCode {
  char *src;     /* the C source (malloc'ed), NULL when the kernel cannot be translated */
  char why[320]; /* why not: the construct and its line */
  bool barriers; /* split at barriers: per-thread records of tstate_size bytes */
  bool ordered;  /* atomics whose order shows in the result: blocks in order, one core */
} NativeCode;
/* translate kernel k of p (p's layout must be final: program_finish) */
void native_emit(Program *p, Obj *k, NativeCode *out);

typedef struct NativeOptions {
  EngineKind engine; /* auto: native for launches of at least native_threshold lane-threads */
  CheckKind check;   /* sample: the interpreter runs sampled blocks and they are compared */
  int check_blocks;  /* blocks the sample check runs (0: 4) */
  int threads;       /* worker threads (0: the machine's cores) */
  bool quiet;        /* no note on stderr saying which engine ran */
  /* kernels whose launch outlasted the interpreter's slice: their later launches go native at
   * once (the caller's, kept across a program's launches: native_memo_new; NULL: none kept) */
  struct NativeMemo *memo;
} NativeOptions;
typedef struct NativeMemo NativeMemo;
NativeMemo *native_memo_new(void);
void native_memo_free(NativeMemo *m);

typedef struct NativeReport {
  const char *engine; /* "native" or "interpreter" */
  char why[400];      /* why the interpreter ran (fallback), or "" */
  bool cached;        /* the compiled kernel came from the cache */
  double compile_seconds, native_seconds, check_seconds;
  int64_t blocks_checked; /* blocks the interpreter ran as the check */
  int threads;            /* worker threads the native run used */
} NativeReport;

/* Launches of at least this many threads use the native engine under ENGINE_AUTO; a smaller
 * one (a few threads with long loops) is interpreted for at most NATIVE_SLICE_SECONDS, and one
 * that does not end in that time starts again natively, as do the kernel's later launches. */
#define NATIVE_THRESHOLD 65536
#define NATIVE_SLICE_SECONDS 2.0

/* Run launch L with the engine o chooses: natively (checked against the interpreter on sampled
 * blocks, or on all of them) or in the interpreter. The return value and stats are interp_run's
 * (stats->lane_ops is counted only where the interpreter ran: the check's blocks under native);
 * a fault found by the check is reported as the interpreter reports it. The buffers of L hold
 * the launch's results afterwards, whichever engine ran. */
int native_run_launch(Launch *L, const RunOptions *ro, const NativeOptions *o, RunStats *st,
                      NativeReport *rep);

/* Only the native engine: 0 ran, 1 a fault the native code detects (division by zero,
 * divergent barrier: L's buffers are then undefined), 2 cannot translate or compile (why). No
 * check. For benchmarks and tests. */
int native_run_only(Launch *L, int threads, NativeReport *rep);
#endif
