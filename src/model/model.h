/* model: what a kernel costs before it runs.
 *   occupancy.c  resident blocks and warps per SM from registers, shared memory and block size,
 *                for any machine description (sm_90 rules as NVIDIA's cuda_occupancy.h; the
 *                per-block register allocation of compute capability 1.x, Ryoo Table 2.2)
 *   resources.c  registers, shared memory, spills of a kernel from NVRTC, loaded with dlopen */
#ifndef CARVE_MODEL_H
#define CARVE_MODEL_H
#include "../arch/arch.h"
#include "../front/front.h"

typedef enum {
  LIMIT_NONE,
  LIMIT_WARPS,
  LIMIT_BLOCKS,
  LIMIT_REGISTERS,
  LIMIT_SHARED,
  LIMIT_BLOCK_SIZE
} OccLimit;

typedef struct Occupancy {
  int blocks_per_sm; /* 0: the block cannot run */
  int warps_per_sm;
  double occupancy;                          /* warps_per_sm / max warps */
  OccLimit limit;                            /* the resource that bounds blocks_per_sm */
  int by_warps, by_blocks, by_regs, by_smem; /* each resource's own bound */
  int smem_per_sm; /* shared bytes the resident blocks take, the per-block reserve included */
} Occupancy;

/* threads per block, registers per thread, shared memory per block (static + dynamic) */
Occupancy occupancy(const Machine *m, int threads, int regs, int smem);
const char *occ_limit_name(OccLimit l);

typedef struct Resources {
  bool known;
  int regs;  /* registers per thread */
  int smem;  /* static shared bytes */
  int cmem;  /* constant bytes (bank 0 beyond parameters) */
  int stack; /* stack frame bytes */
  int spill_stores, spill_loads;
  int instructions; /* SASS instructions in the kernel's code (static), -1 unknown */
  bool via_nvcc;    /* NVRTC was absent: an nvcc process compiled it */
  char why[256];    /* when !known: why ("no CUDA toolkit", compile error) */
} Resources;

/* compile the program's device code with NVRTC (in-process) for arch ("sm_90") and read the
 * ptxas report and the cubin for `kernel`; an nvcc process when NVRTC is absent; results
 * cached by source hash */
Resources kernel_resources(Program *p, Obj *kernel, const char *arch);
/* a ptxas -v report (NVRTC's or nvcc's log) read into r for the kernel (lowered: its mangled
 * name when NVRTC gave one, or NULL); false when the log has no report for it */
bool ptxas_parse_log(const char *log, const char *kernel, const char *lowered, Resources *r);
#endif
