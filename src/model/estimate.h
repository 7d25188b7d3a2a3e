/* estimate: everything `carve estimate` reports about one kernel launch, computed as a value.
 * estimate_kernel prints nothing on standard output (the kernel's faults and launch errors are
 * diagnostics, on diag_out), never exits, and frees what it allocates except the result's own
 * arena; a search can call it many times on one loaded program. src/report/ prints results. */
#ifndef CARVE_ESTIMATE_H
#define CARVE_ESTIMATE_H
#include "metrics.h"

typedef enum { UNROLL_NONE, UNROLL_PARTIAL, UNROLL_FULL } UnrollKind;

typedef struct EstimateLoop {
  int line;
  double entries_per_thread, iterations_per_entry; /* measured */
  double unroll;                                   /* nvcc's modelled unroll factor */
  int64_t static_trip;                             /* compile-time trip count, -1 if none */
  UnrollKind unrolled;
} EstimateLoop;

typedef struct EstimateOptions {
  int regs;                 /* > 0: registers per thread instead of ptxas's report (--regs) */
  const Ceilings *ceilings; /* NULL: the machine description's */
} EstimateOptions;

typedef struct EstimateResult {
  int status;                /* 0 ok; 1 the kernel faulted, 2 an error (both diagnosed) */
  Arena *arena;              /* the result's strings; estimate_free deletes it */
  const char *file, *kernel; /* copies: the program may be freed before the result */
  const Machine *m;
  Resources res;
  const char *compiler; /* where the resources come from: "--regs", "nvrtc", "nvcc" */
  int threads, smem;    /* per block; smem includes the dynamic part */
  Occupancy oc;
  int64_t blocks, per_wave; /* blocks in the grid and in one wave over the SMs (0: none fit) */
  double waves, tail;       /* waves, and how full the last one is (0-1) */
  double threads_sampled;
  bool truncated; /* a sampled warp hit the step cap: counts are lower bounds */
  double lanes[CL_N], per_thread[CL_N]; /* instructions by class, sampled and per thread */
  EstimateLoop loops[32];
  int nloops;
  Estimate e;
  CuMAPz cz;
  const char *ceilings_source;
  double roofline; /* seconds at the ceilings for the minimum work (0: none) */
  const char *roofline_by;
  double vs_roofline; /* the estimate over the roofline */
} EstimateResult;

/* estimate kernel k of p for the launch of its spec with ov over it, on machine m */
int estimate_kernel(Program *p, Obj *k, const LaunchOverrides *ov, const Machine *m,
                    const EstimateOptions *o, EstimateResult *r);
void estimate_free(EstimateResult *r);

/* variants ordered by estimated time (stable), each against the fastest */
typedef struct RankEntry {
  const EstimateResult *r;
  double vs_best; /* its time over the fastest's */
  bool close;     /* within 5% of the fastest: the model cannot tell them apart */
} RankEntry;
typedef struct Ranking {
  RankEntry *e;
  int n;
} Ranking; /* e[0] is the fastest */
Ranking estimate_rank(const EstimateResult *rs, int n);
void ranking_free(Ranking *rk);
#endif
