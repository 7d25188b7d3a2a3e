/* metrics.c: dynamic counts, Ryoo's metrics, and the bottleneck time estimate */
#ifndef CARVE_METRICS_H
#define CARVE_METRICS_H
#include "../interp/interp.h"
#include "../analysis/analysis.h"
#include "model.h"

enum {
  CL_INT,
  CL_FP32,
  CL_FP64,
  CL_SFU,
  CL_CVT,
  CL_GLD,
  CL_GST,
  CL_ATOM,
  CL_SLD,
  CL_SST,
  CL_LOCAL,
  CL_BAR,
  CL_BRANCH,
  CL_N
};

typedef struct Counts {
  double lanes[CL_N];    /* thread-instructions by class, over the sampled threads */
  double warp_ins[CL_N]; /* warp-instructions by class */
  double regions_lanes;  /* global-load consumers (stalls on memory), thread-weighted */
  /* the same stalls by how far (in this warp's instructions) the use lies from the load: weight
   * and weight x distance per bin of STALL_BIN instructions; a use far enough away hides the
   * latency behind the warp's own issue */
  double stall_w[32], stall_wd[32];
  double shared_regions_lanes;           /* shared-load consumers */
  double threads_sampled, warps_sampled; /* lanes and warps the counts cover */
  double steps_per_warp; /* interpreter warp-steps per sampled warp (how long a whole warp runs) */
  int
    prologue; /* instructions every thread runs once (S2R, parameter loads, EXIT), included above */
  /* the loops the sampled threads ran (Ryoo annotated trip counts by hand; these are measured) */
  struct LoopCount {
    Node *loop;
    double entries, iterations, unroll;
    int64_t static_trip;
  } loops[32];
  int nloops;
  bool truncated; /* some warp hit the step cap: counts are lower bounds */
  /* what ran (faults are checked there only): blocks, and in each the first and last warp, or
   * all of them when the kernel has barriers */
  uint64_t blocks_run;
  double idle_share; /* share of the grid's blocks whose warps leave at once (an empty tile of a
                            * triangle returns before any work; count_instructions' probe), 0 none */
  int warps_per_block, warps_run_per_block;
  int faults; /* faults found and diagnosed */
  /* per source line of the kernel's file: warp instructions and memory stalls (lanes), for
   * saying where the time goes; counts_free releases them */
  SrcFile *file;
  double *line_ins, *line_stalls;
  int nlines;
  /* node id -> the share of a load's executions that load (the rest reuse a value an earlier
   * unrolled copy loaded: cost_share_region); NULL when none is shared */
  double *load_fresh;
  int nload_fresh;
} Counts;
void counts_free(Counts *c);

/* cost.c: what nvcc -O3 makes of each node (hoisting, unrolling, strength reduction, FMA), from
 * the kernel's facts (its loop tree); the facts must outlive the model and stay current */
typedef struct CostModel CostModel;
CostModel *cost_model_new(const Facts *f);
void cost_model_free(CostModel *cm);
double cost_factor(const CostModel *cm, const Node *n); /* instructions per evaluation, relative */
int cost_hoisted_from(const CostModel *cm, const Node *n); /* loop index it leaves, or -1 */
double cost_hoist_copies(const CostModel *cm,
                         const Node *n); /* its values per entry of that loop (unrolled copies) */
int cost_loop_index(const CostModel *cm, const Node *loop_stmt);
int cost_loops(const CostModel *cm);
Node *cost_loop_node(const CostModel *cm, int loop);
double cost_loop_unroll(const CostModel *cm, int loop);
int64_t cost_loop_trip(const CostModel *cm, int loop);
bool cost_copy_constant(const CostModel *cm, Node *e); /* known at compile time in each body copy */
double cost_stall_share(const CostModel *cm,
                        const Node *n); /* 1/(loads overlapped per wait) in the node's loop */
bool cost_if_predicated(const CostModel *cm,
                        const Node *n); /* an if issued for the whole warp, taken or not */
int cost_vector_width(const CostModel *cm,
                      const Node *access); /* elements per merged access (1, 2, 4) */
bool cost_in_registers(const CostModel *cm,
                       const Node *access); /* a local array ptxas keeps in registers */
int cost_prologue(const CostModel *cm);     /* instructions each thread runs once */
/* where loaded values go: a load's register variable (NULL: unknown, used at once), and a
 * register read copied whole into another register variable (NULL: a real use) */
Obj *cost_load_dest(const CostModel *cm, const Node *load);
Obj *cost_copy_to(const CostModel *cm, const Node *read);
Obj *cost_reg_base(const Node *access); /* the variable an element access s.x, a[i] ends at */
/* a load the copies of a fully unrolled loop may share (the loop's index), or -1: the counting
 * hooks charge it only for addresses no earlier copy loaded */
int cost_share_region(const CostModel *cm, const Node *access);
bool cost_share_root(const CostModel *cm,
                     const Node *loop_stmt); /* entering it starts new copies */

/* run a few sampled blocks (first warps) and count per-thread instructions by class */
int count_instructions(Launch *L, Counts *c, int max_blocks);
double ryoo_efficiency(double instr, double threads);                                  /* eq. 5.1 */
double ryoo_utilization(double instr, double regions, int w_tb, int b_sm);             /* eq. 5.2 */
double ryoo_utilization_simple(double instr, double long_regions, int w_tb, int b_sm); /* eq. 6.1 */
/* eq. 5.2 per warp scheduler, with barriers, the warp's own work, the grid's tail and idle
 * schedulers (metrics.c); in units of the machine's global latency; grid_blocks <= 0: unknown */
double hopper_utilization(double instr, double regions, double long_regions, int threads_per_block,
                          int b_sm, double grid_blocks, const Machine *m);

typedef struct Ceilings { /* what one GPU sustains (calibration file, else the machine table) */
  double dram_gbps, l2_gbps, shared_gbps, fp32_gflops, latency_ns, launch_us, clock_mhz,
    l2_latency_ns;
  double barrier_cycles, shared_latency_cycles;
  double
    l1_latency_cycles; /* an L1 hit's load-to-use latency; 0: global loads are not cached in L1 */
  const char *source;
} Ceilings;
Ceilings ceilings_for(const Machine *m, const char *calibration_path);

enum { B_ISSUE, B_SFU, B_DRAM, B_L2, B_L1, B_LATENCY, B_ATOMIC, B_BLOCKS, B_LAUNCH, B_N };
/* the total of the limits t (seconds): their 3-norm, L1 and L2 as one term (the larger), plus
 * the launch overhead (metrics.c) */
double limits_overlap(const double t[B_N]);
typedef struct Estimate {
  double t[B_N]; /* seconds each limit would take */
  double total;  /* seconds: the largest limit plus launch overhead */
  int bottleneck;
  double instr_per_thread, regions_per_thread, threads;
  double
    long_regions_per_thread; /* Ryoo's LongRegions: 1 + global-load stalls (barriers excluded) */
  double utilization_simple; /* eq. 6.1 */
  double chain_s; /* one warp's critical path: its stalls in sequence plus its own issue */
  double efficiency, utilization;
  double waves;
  double dram_bytes, l2_bytes, shared_bytes;
  double
    dram_min_bytes; /* every buffer once (read-modify-written ones twice): the roofline's bytes */
  double warp_instructions;    /* SASS warp instructions, the whole grid */
  int warps_per_sm, occ_limit; /* resident warps and the resource that bounds them (OccLimit) */
  double
    l1_wavefronts; /* L1/shared data-pipe wavefronts: shared wavefronts + global 128-byte lines */
  /* where the bottleneck's work comes from: the largest contributors and their shares */
  struct Hotspot {
    int line, col;
    double share;
    const char *what, *measure;
  } hot[3]; /* what: the access, or NULL for a line */
  int nhot;
} Estimate;
const char *bottleneck_name(int b);

/* CuMAPz's memory factors (Kim and Shrivastava, eqs. 1-8), in the normalized mode of
 * shared/reference/seed-cumapz.md 3.9: larger is better; mpe is their product */
typedef struct CuMAPz {
  double data_reuse, lat_hiding, bw_util, ch_skew, shm_eff, branch_eff, mpe;
} CuMAPz;
CuMAPz cumapz_factors(const Analysis *a, const Machine *m, Occupancy oc);
Estimate estimate_time(Launch *L, const Machine *m, const Counts *c, const Analysis *a,
                       Occupancy oc, Ceilings ce);
/* L2's global load sectors over the warps' distinct ones (the L1 shared by a block's warps, and
 * what it lets go before a warp loads it again); *per_load: the L1 miss rate of sector loads */
double l1_miss_ratio(const Analysis *a, const Machine *m, Occupancy oc, double *per_load);
#endif
