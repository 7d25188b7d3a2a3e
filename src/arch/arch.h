/* arch: machine descriptions as data.
 *
 * One Machine per GPU the tool models: the H100 and H200 it is verified on (sm_90) and the
 * three GPUs of the papers it reproduces (GeForce 8800 GTX = G80, cc 1.0; GeForce GTX 280 =
 * GT200, cc 1.3; Tesla C1060 = GT200, cc 1.3). Every number in machines.c is written on one
 * line together with the source it was taken from; the same strings are available at run time
 * through machine_source(), so a report can say where a constant came from.
 *
 * Conventions:
 *  - A number that no source gives is 0, and its source string starts with "unknown".
 *    Code that needs such a number must treat 0 as "not known", never as a value. A 0 that
 *    is a real value (no L2 on G80, nothing reserved) has a source string starting "none:".
 *  - Sizes are in bytes, registers in 32-bit registers, clocks in MHz, bandwidths in GB/s
 *    (1e9 bytes per second), throughputs in GFLOP/s (1e9), latencies in SM clock cycles.
 *  - "clock_mhz" is the clock of the SM's arithmetic lanes (the "shader" clock on G80/GT200,
 *    the one clock()/clock64() count), not the graphics core or memory clock. */
#ifndef CARVE_ARCH_H
#define CARVE_ARCH_H
#include <stddef.h>

/* How a warp's global-memory request becomes DRAM/L2 transactions. */
typedef enum {
  /* cc 1.0/1.1. Evaluated per half-warp (16 threads). One transaction only if the words are 4,
   * 8 or 16 B, all 16 lie in one aligned segment of 16 words (64 B, 128 B, or 2 x 128 B), and
   * thread k accesses word k (inactive threads allowed). Otherwise one separate transaction per
   * active thread, each at least mem_sector_bytes (32 B). */
  MEMRULE_CC10,
  /* cc 1.2/1.3. Per half-warp: take the segment holding the lowest active thread's address
   * (32 B for 1-B words, 64 B for 2-B words, 128 B for 4/8/16-B words); gather all active
   * threads addressing it; shrink 128 -> 64 -> 32 B while only one half is used; issue; retire
   * those threads; repeat. Permutations and duplicate words are free. */
  MEMRULE_CC12,
  /* cc >= 2.0 as implemented here for sm_90. Per warp (32 threads): a request costs the number
   * of distinct mem_sector_bytes (32 B) sectors it touches; L1 and L2 lines are mem_line_bytes
   * (128 B) = 4 sectors. */
  MEMRULE_SECTOR32
} MemRule;

/* The unit in which the register file is handed out. */
typedef enum {
  /* cc 1.x: roundup(roundup(warps, warp_alloc_gran) * 32 * regs, unit) per block */
  REGALLOC_PER_BLOCK,
  REGALLOC_PER_WARP /* cc >= 2.0: roundup(regs * 32, unit) per warp */
} RegAlloc;

/* How byte addresses map onto DRAM partitions (channels). */
typedef enum {
  /* partition = (addr / mem_partition_bytes) mod mem_partitions: camping possible */
  PARTMAP_LINEAR,
  PARTMAP_HASHED /* address hashing across partitions/L2 slices; the map is not documented */
} PartMap;

typedef struct {
  const char *field;  /* name of the Machine field, as spelled in this header */
  const char *source; /* where the number came from; "unknown ..." when it is 0 for lack of one */
} MachineSource;

typedef struct Machine {
  const char *name;      /* short key for machine_find(): "h100", "h200", "g80", "gt200", "c1060" */
  const char *long_name; /* product name */
  const char *aliases;   /* other names machine_find() accepts, comma-separated */

  /* ---- compute capability and chip ---- */
  int cc_major, cc_minor;
  int sm_count;
  int warp_size;
  int sub_partitions; /* warp schedulers (SMSPs) per SM; 1 on cc 1.x */

  /* ---- residency limits ---- */
  int max_threads_per_block;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int max_warps_per_sm;

  /* ---- registers ---- */
  int regs_per_sm; /* 32-bit registers in one SM's register file */
  int max_regs_per_block;
  int max_regs_per_thread;
  int reg_alloc_unit;  /* registers are allocated in multiples of this many */
  RegAlloc reg_alloc;  /* ... per block (cc 1.x) or per warp (cc >= 2.0) */
  int warp_alloc_gran; /* warps per block are rounded up to a multiple of this for the
                                  register allocation (cc 1.x) or the register check (sm_90) */

  /* ---- shared memory ---- */
  int smem_per_sm;          /* largest shared-memory carveout of one SM */
  int smem_per_block;       /* per-block limit without opt-in */
  int smem_per_block_optin; /* per-block limit after cudaFuncSetAttribute (== default on cc 1.x) */
  int smem_alloc_unit;      /* per-block shared memory is rounded up to this */
  int smem_reserved_per_block; /* added by the driver to every block before rounding */
  const int
    *smem_carveouts_kb; /* possible per-SM shared sizes, ascending, n_smem_carveouts of them */
  int n_smem_carveouts;
  int l1_smem_bytes; /* combined L1 + shared storage per SM; 0 where they are separate */
  int smem_banks;
  int smem_bank_bytes;
  int smem_conflict_threads; /* threads whose 32-bit accesses are checked together for bank
                                  conflicts: 16 (half-warp) on cc 1.x, 32 on sm_90 (64/128-bit
                                  accesses are split into half-/quarter-warp phases there) */

  /* ---- caches and global memory ---- */
  long long l2_bytes; /* 0: no cache in front of DRAM for ordinary global loads */
  MemRule mem_rule;
  int coalesce_threads; /* threads whose addresses form one request: 16 or 32 */
  int mem_sector_bytes; /* smallest transaction / sector */
  int mem_line_bytes;   /* largest single transaction / cache line */
  PartMap partition_map;
  int mem_partitions;      /* DRAM partitions (channels) for partition camping */
  int mem_partition_bytes; /* interleaving width of one partition */
  int mem_bus_bits;
  double dram_peak_gbps;       /* theoretical peak, read + write */
  double dram_copy_gbps;       /* measured device-to-device copy, bytes read + written */
  double dram_read_gbps;       /* measured streaming read */
  int dram_latency_cycles;     /* global load to use, lowest figure the source gives */
  int dram_latency_cycles_max; /* highest figure where the source gives a range, else == min */
  double l2_read_gbps;         /* measured read bandwidth of an L2-resident buffer */
  int l2_latency_cycles;       /* measured pointer chase over an L2-resident buffer */
  int
    /* measured pointer chase over an L1-resident buffer (0: no L1 for global loads) */
    l1_latency_cycles;
  double smem_read_gbps; /* measured conflict-free shared-memory load bandwidth, whole GPU */

  /* ---- arithmetic ---- */
  double clock_mhz;            /* SM (shader) clock */
  int fp32_lanes_per_sm;       /* FP32 FMA/MAD results per clock per SM */
  int sfu_per_sm;              /* rsqrt/sin/cos/ex2/lg2 results per clock per SM */
  double fp32_peak_gflops;     /* sm_count * fp32_lanes * 2 * clock: FMA/MAD only */
  double fp32_peak_all_gflops; /* vendor-style peak that also counts SFU / dual-issued MUL */
  double fp32_measured_gflops; /* FMA-chain micro-benchmark, where one was run */

  /* ---- overheads ---- */
  double launch_overhead_us;    /* per kernel launch, back to back */
  double barrier_cycles;        /* one __syncthreads in a 1024-thread block (SM clock cycles) */
  double block_dispatch_cycles; /* SM cycles between two blocks the block scheduler hands one SM
                                 * (0: unknown, not charged) */

  const char *notes;            /* caveats that apply to the whole entry */
  const MachineSource *sources; /* one entry per numeric field above */
  int n_sources;
} Machine;

/* The machine whose name or one of whose aliases equals `name` (ASCII case-insensitive;
 * spaces, '-' and '_' are ignored, so "GTX 280", "gtx-280" and "gtx280" are the same);
 * NULL if none. */
const Machine *machine_find(const char *name);

/* machine_find also takes nvcc's names: "sm_90" (or "sm_90a", "compute_90") is the first
 * machine of compute capability 9.0 (h100). machine_sm_name gives the nvcc name for a machine
 * name or an sm/compute name ("h200" -> "sm_90", "sm_80" -> "sm_80"); NULL if it is neither.
 * The result lives until the next call. */
const char *machine_sm_name(const char *name);

/* All machines, in a fixed order (h100, h200, g80, gt200, c1060); *n receives the count. */
const Machine *machine_list(int *n);

/* The source string recorded for `field` of `m` (a field name as in this header, e.g.
 * "sm_count"); NULL if the field has no source entry. */
const char *machine_source(const Machine *m, const char *field);

/* Self-check of one entry: every numeric field has a source, the limits are consistent
 * (max_warps_per_sm * warp_size == max_threads_per_sm, ...), and every 0 has a source
 * starting "unknown" or "none:". Returns 0 if all is well, else writes the first problem
 * into err and returns -1. */
int machine_validate(const Machine *m, char *err, size_t errlen);

#endif
