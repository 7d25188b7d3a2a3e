/* The occupancy calculator against NVIDIA's cuda_occupancy.h (compiled here as C when the CUDA
 * toolkit is installed) over block sizes x registers x shared memory, and against the cc 1.x
 * cases of Ryoo's thesis. */
#include "../src/model/model.h"
#include "../src/model/metrics.h"
#include "test.h"

#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>
#define HAVE_OCC 1
#endif

static void test_against_header(void) {
#ifdef HAVE_OCC
  const Machine *m = machine_find("h100");
  cudaOccDeviceProp p = {0};
  p.computeMajor = 9; p.computeMinor = 0;
  p.maxThreadsPerBlock = m->max_threads_per_block;
  p.maxThreadsPerMultiprocessor = m->max_threads_per_sm;
  p.regsPerBlock = m->max_regs_per_block;
  p.regsPerMultiprocessor = m->regs_per_sm;
  p.warpSize = m->warp_size;
  p.sharedMemPerBlock = (size_t)m->smem_per_block;
  p.sharedMemPerMultiprocessor = (size_t)m->smem_per_sm;
  p.numSms = m->sm_count;
  p.sharedMemPerBlockOptin = (size_t)m->smem_per_block_optin;
  p.reservedSharedMemPerBlock = (size_t)m->smem_reserved_per_block;
  int compared = 0, equal = 0;
  int sizes[] = {32, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024};
  int regs[] = {16, 24, 32, 40, 48, 64, 72, 96, 128, 168, 255};
  int smems[] = {0, 1024, 4096, 12288, 16384, 32768, 48000, 49152};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (size_t j = 0; j < sizeof regs / sizeof *regs; j++)
      for (size_t k = 0; k < sizeof smems / sizeof *smems; k++) {
        cudaOccFuncAttributes f = {0};
        f.maxThreadsPerBlock = 1024;
        f.numRegs = regs[j];
        f.sharedSizeBytes = (size_t)smems[k];
        f.partitionedGCConfig = PARTITIONED_GC_OFF;
        f.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        f.maxDynamicSharedSizeBytes = 49152;
        cudaOccDeviceState s = {0};
        s.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
        cudaOccResult r = {0};
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &f, &s, sizes[i], 0) != CUDA_OCC_SUCCESS) continue;
        Occupancy o = occupancy(m, sizes[i], regs[j], smems[k]);
        compared++;
        if (o.blocks_per_sm == r.activeBlocksPerMultiprocessor) equal++;
        else if (equal + 5 > compared)
          fprintf(stderr, "occupancy %d threads %d regs %d smem: carve %d, cuda_occupancy.h %d\n", sizes[i], regs[j], smems[k],
                  o.blocks_per_sm, r.activeBlocksPerMultiprocessor);
      }
  CHECK(compared > 1000 && equal == compared, "sm_90 occupancy equals cuda_occupancy.h in %d of %d configurations", equal, compared);
#else
  printf("model: cuda_occupancy.h comparison skipped (no CUDA toolkit)\n");
#endif
}

static void test_paper_machines(void) {
  /* Ryoo Fig. 5.6 (8800 GTX): 256 threads, 13 registers -> 2 blocks per SM (B_SM = 2) */
  const Machine *g80 = machine_find("g80");
  Occupancy o = occupancy(g80, 256, 13, 2088);
  CHECK(o.blocks_per_sm == 2, "G80, 256 threads x 13 regs: %d blocks per SM (Ryoo: 2), limited by %s", o.blocks_per_sm, occ_limit_name(o.limit));
  /* 10 registers: the 768-thread limit gives 3 blocks of 256 */
  o = occupancy(g80, 256, 10, 2088);
  CHECK(o.blocks_per_sm == 3 && o.limit == LIMIT_WARPS, "G80, 256 x 10 regs: 3 blocks by threads (%d, %s)", o.blocks_per_sm, occ_limit_name(o.limit));
  /* shared memory: 16 KB per SM, 5 KB blocks -> 3 */
  o = occupancy(g80, 64, 8, 5120);
  CHECK(o.blocks_per_sm == 3 && o.limit == LIMIT_SHARED, "G80, 5 KB shared: %d blocks (%s)", o.blocks_per_sm, occ_limit_name(o.limit));
  const Machine *h = machine_find("h100");
  o = occupancy(h, 1024, 32, 0);
  CHECK(o.blocks_per_sm == 2 && o.occupancy == 1.0, "H100 1024 x 32 regs: 2 blocks, full occupancy");
  o = occupancy(h, 32, 16, 0);
  CHECK(o.blocks_per_sm == 32 && o.limit == LIMIT_BLOCKS && o.occupancy == 0.5, "H100 32-thread blocks: 32 blocks, 50%% (%s)", occ_limit_name(o.limit));
  o = occupancy(h, 2048, 16, 0);
  CHECK(o.blocks_per_sm == 0 && o.limit == LIMIT_BLOCK_SIZE, "H100 2048-thread block cannot run");
}

/* Ryoo Fig. 5.6: tiled MM on the 8800 GTX: Instr 15150, Regions 769, 2^24 threads, W_TB 8, B_SM 2 */
static void test_ryoo_worked_example(void) {
  double eff = ryoo_efficiency(15150, 16777216.0), util = ryoo_utilization(15150, 769, 8, 2);
  CHECK(eff > 3.93e-12 && eff < 3.94e-12, "Efficiency %.4g (Ryoo: 3.93e-12)", eff);
  CHECK(util > 226 && util < 227.5, "Utilization %.1f (Ryoo: about 227)", util);
  Occupancy o = occupancy(machine_find("g80"), 256, 13, 2088);
  CHECK(o.blocks_per_sm == 2, "B_SM = %d (Ryoo: 2)", o.blocks_per_sm);
}

int main(void) {
  test_ryoo_worked_example();
  test_against_header();
  test_paper_machines();
  return TEST_SUMMARY("model");
}
