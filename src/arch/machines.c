/* machines: the machine table. See arch.h for units and conventions.
 *
 * Each machine is an X-list: one line per field, X(field, value, "source"). The same list
 * builds the Machine initializer and its MachineSource table, so a number and its source
 * cannot drift apart. A 0 whose source starts "unknown" means no source gave the number; a 0
 * whose source starts "none:" is a real zero.
 *
 * Abbreviations used in the sources:
 * Every source names a public document (NVIDIA's guides, data sheets and headers, a paper) or a
 * reading carve made, with its date and device; `carve arch NAME` prints them as they are here.
 *  Ryoo        S. Ryoo, PhD thesis, UIUC 2008: Table 2.1, Table 2.2, ch. 2.2.1.
 *  CuMAPz      Y. Kim, A. Shrivastava, "Memory Performance Estimation of CUDA Programs"
 *              (DAC 2011; [P] = stated in the paper, [X] = a fact from outside it).
 *  Yang        Y. Yang et al., "A GPGPU Compiler for Memory Optimization and Parallelism
 *              Management", PLDI 2010, sec. 2 table.
 *  Cornelis    J. Cornelis, MSc thesis, VUB 2010 (GPU anti-patterns).
 *  R&M 2009    G. Ruetsch, P. Micikevicius, "Optimizing Matrix Transpose in CUDA", NVIDIA 2009.
 *  OccCalc     NVIDIA CUDA_Occupancy_calculator.xls (CUDA 3.x-4.x), "GPU Data" sheet, as
 *              transcribed in github.com/gabyx/CudaFramework
 *              include/CudaFramework/General/GPUDefines.hpp.
 *  PG-1x       NVIDIA CUDA (C) Programming Guide 3.x-4.x, appendix "Compute Capabilities"
 *              (G in 3.x, F in 4.x), cc 1.x columns and sections on global/shared memory.
 *  PG          NVIDIA CUDA C++ Programming Guide (CUDA 12/13), table "Technical Specifications
 *              per Compute Capability" and the arithmetic-instruction throughput table.
 *  calibrate   bench/calibrate.cu (`carve calibrate`) run on 2026-11-22 (driver 580.159.04, CUDA
 *              13.0; each figure the median of 9 timed runs after 2 warm-ups): on an H100 80GB HBM3
 *              twice, on an H200 141GB three times. Where runs differ, the entry gives the first
 *              and the range. */
#include "arch.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define X_INIT(f, v, s) .f = v,
#define X_SRC(f, v, s) {#f, s},

/* ------------------------------------------------------------------------------------------ */
/* NVIDIA H100 SXM5 80GB HBM3, sm_90                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Shared-memory carveout steps of cc 9.0, KB: read by carve on an H100 80GB HBM3 (CUDA 13.0,
 * 2026-11-22), from cuda_occupancy.h cudaOccAlignUpShmemSizeVoltaPlus, case 9. */
static const int sm90_carveouts_kb[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

/* the escaped newlines of an X-list stay where each line ends (aligned, one long source string
 * would push every backslash of the list past 100 columns) */
// clang-format off
#define H100_FIELDS(X) \
  X(cc_major, 9, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (cudaGetDeviceProperties on an H100 80GB HBM3)") \
  X(cc_minor, 0, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (cudaGetDeviceProperties on an H100 80GB HBM3)") \
  X(sm_count, 132, \
    "cudaGetDeviceProperties multiProcessorCount = 132, read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22); NVIDIA H100 datasheet (SXM5): 132 SMs") \
  X(warp_size, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (cudaGetDeviceProperties)") \
  X(sub_partitions, 4, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cuda_occupancy.h cudaOccSubPartitionsPerMultiprocessor; ncu 'maximum of 16 warps per scheduler'") \
  X(max_threads_per_block, 1024, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (cudaGetDeviceProperties maxThreadsPerBlock)") \
  X(max_threads_per_sm, 2048, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (maxThreadsPerMultiProcessor)") \
  X(max_blocks_per_sm, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (maxBlocksPerMultiProcessor; cuda_occupancy.h case 9)") \
  X(max_warps_per_sm, 64, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (2048 threads / 32)") \
  X(regs_per_sm, 65536, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (regsPerMultiprocessor)") \
  X(max_regs_per_block, 65536, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (regsPerBlock)") \
  X(max_regs_per_thread, 255, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (ptxas cap, CUDA Programming Guide; cuda_occupancy.h allows 256 in its check)") \
  X(reg_alloc_unit, 256, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cuda_occupancy.h cudaOccRegAllocationGranularity = 256 for cc 3-12 (= 8 regs/thread)") \
  X(reg_alloc, REGALLOC_PER_WARP, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): regsPerWarp = roundup(numRegs*32, 256)") \
  X(warp_alloc_gran, 4, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): the register 'hardware check' rounds warps per block up to a multiple of the 4 sub-partitions") \
  X(smem_per_sm, 233472, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (sharedMemPerMultiprocessor = 228 KB, max carveout)") \
  X(smem_per_block, 49152, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (sharedMemPerBlock = 48 KB without cudaFuncSetAttribute)") \
  X(smem_per_block_optin, 232448, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (sharedMemPerBlockOptin = 227 KB)") \
  X(smem_alloc_unit, 128, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cuda_occupancy.h cudaOccSMemAllocationGranularity case 9") \
  X(smem_reserved_per_block, 1024, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (reservedSharedMemPerBlock; ncu 'Driver Shared Memory Per Block 1.02 KB')") \
  X(n_smem_carveouts, 10, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cudaOccAlignUpShmemSizeVoltaPlus case 9 steps 0..228 KB") \
  X(l1_smem_bytes, 262144, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 256 KB combined L1 + shared per SM (NVIDIA Hopper Tuning Guide; NVIDIA H100 Tensor Core GPU Architecture whitepaper)") \
  X(smem_banks, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): CUDA Programming Guide; ncu shared wavefronts on an H100 80GB HBM3 (2026-11-22)") \
  X(smem_bank_bytes, 4, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): bank = (byte address / 4) mod 32") \
  X(smem_conflict_threads, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): conflicts counted per warp for 32-bit accesses; float2 per half-warp, float4 per quarter-warp (ncu)") \
  X(l2_bytes, 52428800LL, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (l2CacheSize = 52428800 B); PyTorch reported 50 MB of L2 on an H100 80GB HBM3 (2026-11-13)") \
  X(mem_rule, MEMRULE_SECTOR32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 32-B sectors, 128-B L1/L2 lines (Nsight Compute Kernel Profiling Guide; ncu sectors/request measured)") \
  X(coalesce_threads, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): one request per warp instruction (ncu l1tex requests)") \
  X(mem_sector_bytes, 32, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 32-B sectors (Nsight Compute Kernel Profiling Guide; measured)") \
  X(mem_line_bytes, 128, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): L1 and L2 lines are 128 B = 4 sectors") \
  X(partition_map, PARTMAP_HASHED, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): address hashing across L2 slices and channels (GPGPU-Sim PR #80 IPOLY hash discussion); Yang et al., PLDI 2010, sec. 6 'largely gone'") \
  X(mem_partitions, 0, \
    "unknown: hashed; NVIDIA documents no partition count usable for a camping model") \
  X(mem_partition_bytes, 0, "unknown: hashed interleaving, width not documented") \
  X(mem_bus_bits, 5120, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (memoryBusWidth)") \
  X(dram_peak_gbps, 3352.0, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 2 x 2619 MHz x 640 B from memoryBusWidth and cudaDevAttrMemoryClockRate; datasheet 3.35 TB/s") \
  X(dram_copy_gbps, 2982.9, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cudaMemcpy D2D of 1 GiB, bytes read + written, 2982.9 and 2992.2 GB/s; a PyTorch copy on an H100 80GB HBM3 (2026-11-13): about 3.0 TB/s; read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 2852 GB/s with a float4 grid-stride copy of 4 GiB") \
  X(dram_read_gbps, 2996.7, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): streaming float4 read of 1 GiB, 2996.7 and 2999.9 GB/s") \
  X(dram_latency_cycles, 683, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): one-thread pointer chase (ld.global.cg, random 128-B slots over 256 MB, L2 flushed) 683.2 and 682.5 cycles = 345 ns; includes the chase's address arithmetic and any TLB misses") \
  X(dram_latency_cycles_max, 683, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): one figure, see dram_latency_cycles") \
  X(l2_read_gbps, 7574.9, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): ld.global.cg float4 reads of a 13 MB (about L2/4) resident buffer, 7574.9 and 7619.7 GB/s") \
  X(l2_latency_cycles, 328, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): pointer chase over a 13 MB L2-resident buffer, 327.6 and 327.5 cycles = 166 ns (average over both L2 partitions)") \
  X(l1_latency_cycles, 40, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-24): one-thread pointer chase over 16 KB with ld.global.ca after a pass that fills L1, 39.8 cycles in 3 runs (the chase's address arithmetic included, as in the L2 and DRAM figures)") \
  X(smem_read_gbps, 32447.3, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): conflict-free LDS.128 at full occupancy, 32447.3 and 32496.8 GB/s (97% of 132 x 128 B x 1.98 GHz)") \
  X(clock_mhz, 1980.0, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (cudaDevAttrClockRate = 1980000 kHz, max boost); carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): clock64 / event time during the chase 1978 MHz") \
  X(fp32_lanes_per_sm, 128, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22) (132 SM x 128 lanes); CUDA C++ Programming Guide throughput table, cc 9.0: 128 FP32 FMA/clk/SM") \
  X(sfu_per_sm, 16, \
    "CUDA C++ Programming Guide arithmetic throughput table, cc 9.0: 16 results/clk/SM for rsqrt, sin, cos, ex2, lg2 (4 MUFU results per clock per sub-partition)") \
  X(fp32_peak_gflops, 66908.16, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 132 SM x 128 x 2 x 1.98 GHz = 66.9 TFLOP/s (datasheet 67)") \
  X(fp32_peak_all_gflops, 66908.16, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): no extra dual-issue term on sm_90; same as fp32_peak_gflops") \
  X(fp32_measured_gflops, 64758.0, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 8 independent FFMA chains per thread, full occupancy, 64758.0 and 64841.4 GFLOP/s; read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 64.3-64.8 TFLOP/s") \
  X(launch_overhead_us, 3.89, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): empty <<<1,1>>> kernel, 5000 launches back to back, 3.89 and 3.49 us per launch (in a virtual machine); launch + cudaStreamSynchronize round trip 9.3 / 8.7 us") \
  X(barrier_cycles, 76.62, \
    "carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): __syncthreads loop in one 1024-thread block, differenced over 10000 vs 110000 barriers: 76.62 cycles = 38.7 ns in both runs") \
  X(block_dispatch_cycles, 156.0, \
    "fitted on two H100 80GB HBM3 measurements in the estimate's own 3-norm (least squares of log error over four times): carve bench tests/tune/dispatch.cu (2026-11-27), 32- and 128-thread blocks, 1680 and 420 blocks per SM, 0.1388 and 0.0393 ms, dispatch the only large limit (160-164 cycles alone); sad at 64- and 128-thread blocks (docs/data/tune-replay-2026-11-27/sad.jsonl, 2026-11-24), 816 and 432 blocks per SM at equal occupancy, 75.7 and 53.9 us (167 cycles alone in the 3-norm; 112, the earlier figure, was their plain difference, as if both were dispatch alone)")
// clang-format on

static const MachineSource h100_src[] = {
  H100_FIELDS(X_SRC){
    "smem_carveouts_kb",
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): cudaOccAlignUpShmemSizeVoltaPlus case 9 (0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KB)"},
};

/* ------------------------------------------------------------------------------------------ */
/* NVIDIA H200 141GB HBM3e, sm_90. Same GH100 processor as the H100 (NVIDIA H200 datasheet), so the
 * per-SM  */
/* limits of cc 9.0 are the H100's; they were read on an H100 80GB HBM3, not off an H200.         */
/* ------------------------------------------------------------------------------------------ */

#define SM90_LIMIT \
  "cc 9.0 limit (CUDA C++ Programming Guide 'Technical Specifications per Compute Capability'); read on an H100 80GB HBM3 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22)), same Hopper processor per NVIDIA's H200 datasheet; not re-read on an H200"

/* the escaped newlines of an X-list stay where each line ends (aligned, one long source string
 * would push every backslash of the list past 100 columns) */
// clang-format off
#define H200_FIELDS(X) \
  X(cc_major, 9, \
    "NVIDIA H200 datasheet: the Hopper architecture of the H100 (compute capability 9.0 in the CUDA Programming Guide's table)") \
  X(cc_minor, 0, "CUDA Programming Guide: the H200 is compute capability 9.0") \
  X(sm_count, 132, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): multiProcessorCount = 132; PyTorch on an H200 (2026-10-28) reported 132 multiprocessors") \
  X(warp_size, 32, SM90_LIMIT) \
  X(sub_partitions, 4, SM90_LIMIT "; cuda_occupancy.h cudaOccSubPartitionsPerMultiprocessor") \
  X(max_threads_per_block, 1024, SM90_LIMIT) \
  X(max_threads_per_sm, 2048, SM90_LIMIT) \
  X(max_blocks_per_sm, 32, SM90_LIMIT) \
  X(max_warps_per_sm, 64, SM90_LIMIT) \
  X(regs_per_sm, 65536, SM90_LIMIT) \
  X(max_regs_per_block, 65536, SM90_LIMIT) \
  X(max_regs_per_thread, 255, SM90_LIMIT) \
  X(reg_alloc_unit, 256, \
    "cuda_occupancy.h cudaOccRegAllocationGranularity = 256 for cc 3-12 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(reg_alloc, REGALLOC_PER_WARP, \
    "cuda_occupancy.h, cc 9.0 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(warp_alloc_gran, 4, \
    "cuda_occupancy.h register hardware check, cc 9.0 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(smem_per_sm, 233472, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): sharedMemPerMultiprocessor = 233472 (228 KB); " SM90_LIMIT) \
  X(smem_per_block, 49152, SM90_LIMIT " (48 KB without opt-in)") \
  X(smem_per_block_optin, 232448, SM90_LIMIT " (227 KB)") \
  X(smem_alloc_unit, 128, \
    "cuda_occupancy.h cudaOccSMemAllocationGranularity case 9 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(smem_reserved_per_block, 1024, SM90_LIMIT " (reservedSharedMemPerBlock)") \
  X(n_smem_carveouts, 10, \
    "cuda_occupancy.h cudaOccAlignUpShmemSizeVoltaPlus case 9 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(l1_smem_bytes, 262144, \
    "read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22): 256 KB combined L1 + shared per SM on cc 9.0 (NVIDIA Hopper Tuning Guide)") \
  X(smem_banks, 32, \
    SM90_LIMIT \
    "; CUDA C++ Programming Guide, shared memory of cc 5.x and later: 32 banks of 4 bytes") \
  X(smem_bank_bytes, 4, \
    "CUDA C++ Programming Guide, shared memory of cc 5.x and later: 32 banks of 4 bytes") \
  X(smem_conflict_threads, 32, \
    "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22)), same SM") \
  X(l2_bytes, 62914560LL, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): l2CacheSize = 62914560; PyTorch on an H200 (2026-10-28) reported 60 MB of L2") \
  X(mem_rule, MEMRULE_SECTOR32, \
    "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22)), same SM and L1/L2 line organisation") \
  X(coalesce_threads, 32, "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(mem_sector_bytes, 32, "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(mem_line_bytes, 128, "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(partition_map, PARTMAP_HASHED, \
    "as H100 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))") \
  X(mem_partitions, 0, "unknown: hashed; no partition count documented") \
  X(mem_partition_bytes, 0, "unknown: hashed interleaving, width not documented") \
  X(mem_bus_bits, 6016, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): cudaDevAttrGlobalMemoryBusWidth = 6016 as the device reports it (memory clock 3201 MHz)") \
  X(dram_peak_gbps, 4800.0, \
    "NVIDIA H200 datasheet: 141 GB HBM3e at 4.8 TB/s; carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): 2 x 3201 MHz x 6016 bit / 8 = 4814 GB/s") \
  X(dram_copy_gbps, 4207.5, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): cudaMemcpy D2D of 1 GiB, bytes read + written, 4201-4208 GB/s in 3 runs; PyTorch copies on an H200 (2026-10-28, 11-04): about 4.3 TB/s") \
  X(dram_read_gbps, 4447.8, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): streaming float4 read of 1 GiB, 4447.8-4457.9 GB/s in 3 runs") \
  X(dram_latency_cycles, 690, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): one-thread pointer chase (ld.global.cg, random 128-B slots over 256 MB, L2 flushed) 690.3-691.8 cycles = 349-350 ns in 3 runs") \
  X(dram_latency_cycles_max, 690, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): one figure, see dram_latency_cycles") \
  X(l2_read_gbps, 9045.8, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): ld.global.cg float4 reads of a 13 MB resident buffer, 9045.8-9055.6 GB/s in 3 runs") \
  X(l2_latency_cycles, 330, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): pointer chase over a 15.7 MB (L2/4) resident buffer, 329.1-330.3 cycles = 167 ns in 3 runs") \
  X(l1_latency_cycles, 40, \
    "as H100 (carve calibrate on an H100 80GB HBM3 (CUDA 13.0, 2026-11-24): L1-resident pointer chase, 39.8 cycles): the same SM and L1") \
  X(smem_read_gbps, 32444.4, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): conflict-free LDS.128 at full occupancy, 32444.4-32514.9 GB/s in 3 runs") \
  X(clock_mhz, 1980.0, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): cudaDevAttrClockRate = 1980000 kHz; clock64 / event time 1976-1978 MHz; nvidia-smi on an H200 (2026-10-28): 1980 MHz under load, 345 MHz idle") \
  X(fp32_lanes_per_sm, 128, \
    "CUDA C++ Programming Guide arithmetic throughput table, cc 9.0: 128 FP32 FMA/clk/SM") \
  X(sfu_per_sm, 16, \
    "CUDA C++ Programming Guide arithmetic throughput table, cc 9.0: 16 results/clk/SM") \
  X(fp32_peak_gflops, 66908.16, \
    "132 SM x 128 x 2 x 1.98 GHz (the H100's formula); NVIDIA H200 datasheet: 'plain fp32 about 67' TFLOP/s") \
  X(fp32_peak_all_gflops, 66908.16, "same as fp32_peak_gflops: no extra dual-issue term on sm_90") \
  X(fp32_measured_gflops, 64665.3, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): 8 independent FFMA chains per thread, full occupancy, 64665.3-64881.3 GFLOP/s in 3 runs") \
  X(launch_overhead_us, 4.35, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): empty <<<1,1>>> kernel, 5000 launches back to back, 4.19-4.50 us per launch in 3 runs (in a virtual machine)") \
  X(barrier_cycles, 76.62, \
    "carve calibrate on an H200 141GB HBM3e (CUDA 13.0, 2026-11-22): __syncthreads loop in one 1024-thread block, differenced: 76.62 cycles = 38.7 ns in 3 runs") \
  X(block_dispatch_cycles, 156.0, \
    "assumed as the H100's (the same GH100 chip), not measured on an H200: fitted on an H100 80GB HBM3 on tests/tune/dispatch.cu (32 vs 128 threads) and sad (64 vs 128 threads at equal occupancy) in the estimate's 3-norm, 156 cycles per block per SM")
// clang-format on

static const MachineSource h200_src[] = {
  H200_FIELDS(X_SRC){
    "smem_carveouts_kb",
    "cuda_occupancy.h cudaOccAlignUpShmemSizeVoltaPlus case 9 (read by carve on an H100 80GB HBM3 (CUDA 13.0, 2026-11-22))"},
};

/* ------------------------------------------------------------------------------------------ */
/* NVIDIA GeForce 8800 GTX (G80), cc 1.0: Ryoo's target.                                       */
/* ------------------------------------------------------------------------------------------ */

static const int cc1x_carveouts_kb[] = {16};

/* the escaped newlines of an X-list stay where each line ends (aligned, one long source string
 * would push every backslash of the list past 100 columns) */
// clang-format off
#define G80_FIELDS(X) \
  X(cc_major, 1, \
    "CUDA Programming Guide 3.x-4.x: GeForce 8800 GTX is compute capability 1.0; Ryoo 2008 thesis ch. 2.2 (cc 1.0/1.1 coalescing rule)") \
  X(cc_minor, 0, "CUDA Programming Guide 3.x-4.x: compute capability 1.0") \
  X(sm_count, 16, "Ryoo (thesis 2008) ch. 2.2.1: 16 SMs, each with 8 SPs") \
  X(warp_size, 32, "Ryoo (thesis 2008) ch. 2.1: warps are 32 threads") \
  X(sub_partitions, 1, \
    "Ryoo (thesis 2008) ch. 2.2.1: one instruction issue unit per SM; a warp instruction issues to 8 SPs over 4 cycles") \
  X(max_threads_per_block, 512, "Ryoo (thesis 2008) Table 2.2: 512 threads per thread block") \
  X(max_threads_per_sm, 768, "Ryoo (thesis 2008) Table 2.2: 768 threads per SM") \
  X(max_blocks_per_sm, 8, "Ryoo (thesis 2008) Table 2.2: 8 thread blocks per SM") \
  X(max_warps_per_sm, 24, \
    "Ryoo (thesis 2008) ch. 2.2.1: 768 resident threads = 24 warps; CUDA Occupancy Calculator (3.x-4.x) 'Warps / Multiprocessor' 24") \
  X(regs_per_sm, 8192, "Ryoo (thesis 2008) Table 2.2: 8192 32-bit registers per SM") \
  X(max_regs_per_block, 8192, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register File Size' 8192 for cc 1.0 (a block may use the whole file)") \
  X(max_regs_per_thread, 128, \
    "CUDA Programming Guide 3.x-4.x 'Maximum number of 32-bit registers per thread' 128 for cc 1.x (StackOverflow q. 17553417 points there); NVIDIA forum t. 17443 saw spills beyond about 124") \
  X(reg_alloc_unit, 256, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register Allocation Unit Size' 256 for cc 1.0/1.1") \
  X(reg_alloc, REGALLOC_PER_BLOCK, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Allocation Granularity' block for cc 1.x (Ryoo (thesis 2008)'s own B_SM formula uses plain floors, no granularity)") \
  X(warp_alloc_gran, 2, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Warp allocation granularity (for registers)' 2 for cc 1.x") \
  X(smem_per_sm, 16384, "Ryoo (thesis 2008) Table 2.2: 16384 bytes shared memory per SM") \
  X(smem_per_block, 16384, \
    "CUDA Programming Guide 3.x-4.x: 16 KB shared memory per block on cc 1.x (= per SM, Ryoo (thesis 2008) Table 2.2)") \
  X(smem_per_block_optin, 16384, \
    "CUDA Programming Guide 3.x-4.x: no opt-in on cc 1.x; same as smem_per_block") \
  X(smem_alloc_unit, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Shared Memory Allocation Unit Size' 512 for cc 1.x") \
  X(smem_reserved_per_block, 0, \
    "none: no fixed reservation, but on cc 1.x kernel parameters (up to 256 B, CUDA Programming Guide 3.x-4.x) and built-ins sit in shared memory and are included in ptxas' smem figure (Ryoo (thesis 2008)'s MM: 2088 B = 2048 B of tiles + 40 B)") \
  X(n_smem_carveouts, 1, \
    "none: one fixed 16 KB shared memory, no carveout (Ryoo (thesis 2008) Table 2.1)") \
  X(l1_smem_bytes, 0, \
    "none: no L1 for global loads on cc 1.x; shared memory is separate (Ryoo (thesis 2008) Table 2.1)") \
  X(smem_banks, 16, "Ryoo (thesis 2008) Table 2.1: shared memory in 16 banks") \
  X(smem_bank_bytes, 4, \
    "CuMAPz (DAC 2011) sec. 3.5 [P]: successive 4-byte words in successive banks; CUDA Programming Guide 3.x-4.x 32-bit banks") \
  X(smem_conflict_threads, 16, \
    "CUDA Programming Guide 3.x-4.x: shared-memory requests are split per half-warp on cc 1.x; CuMAPz (DAC 2011) sec. 3.5 (16-way conflict example)") \
  X(l2_bytes, 0LL, \
    "none: 'There is no cache for ordinary global loads. Only the constant and texture caches exist.' (Ryoo (thesis 2008) Table 2.1 / ch. 2.2)") \
  X(mem_rule, MEMRULE_CC10, \
    "CUDA Programming Guide 3.x-4.x global memory coalescing, cc 1.0/1.1 (summarised in Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3); Ryoo (thesis 2008) ch. 2.2: half-warp, 16 in-order words of an aligned 16-word section") \
  X(coalesce_threads, 16, \
    "Ryoo (thesis 2008) ch. 2.2 and CUDA Programming Guide 3.x-4.x: coalescing is evaluated per half-warp") \
  X(mem_sector_bytes, 32, \
    "CUDA Programming Guide 3.x-4.x via Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3: an uncoalesced access costs one transaction per thread of at least 32 B") \
  X(mem_line_bytes, 128, \
    "CUDA Programming Guide 3.x-4.x via Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3: segments of 64 B, 128 B or 2 x 128 B per half-warp; 128 B is the largest single transaction") \
  X(partition_map, PARTMAP_LINEAR, \
    "Ruetsch & Micikevicius 2009 and Yang (PLDI 2010) sec. 2: 256-B partitions interleaved in address order (partition camping)") \
  X(mem_partitions, 6, \
    "Yang (PLDI 2010) sec. 2 table: 8800 GTX has 6 memory partitions (Ruetsch & Micikevicius 2009: 6 on 8-series)") \
  X(mem_partition_bytes, 256, "Yang (PLDI 2010) sec. 2 table: partition width 256 B") \
  X(mem_bus_bits, 384, \
    "NVIDIA 8800 GTX launch specs as reported by techamok.com (pid=1675): 768 MB GDDR3, 900 MHz (1.8 GHz effective), 384-bit; = 6 partitions x 64 bit") \
  X(dram_peak_gbps, 86.4, \
    "Ryoo (thesis 2008) ch. 2.2: off-chip bandwidth 86.4 GB/s (= 384 bit / 8 x 1.8 GT/s)") \
  X(dram_copy_gbps, 0.0, "unknown: no measured copy bandwidth in the sources read") \
  X(dram_read_gbps, 0.0, "unknown: no measured read bandwidth in the sources read") \
  X(dram_latency_cycles, 200, \
    "Ryoo (thesis 2008) Table 2.1: global memory latency 200-300 cycles; his cycle model uses 200") \
  X(dram_latency_cycles_max, 300, "Ryoo (thesis 2008) Table 2.1: 200-300 cycles") \
  X(l2_read_gbps, 0.0, "none: no L2 for global loads (Ryoo (thesis 2008) Table 2.1)") \
  X(l2_latency_cycles, 0, "none: no L2 for global loads (Ryoo (thesis 2008) Table 2.1)") \
  X(l1_latency_cycles, 0, "none: no L1 for global loads (Ryoo (thesis 2008) Table 2.1)") \
  X(smem_read_gbps, 0.0, \
    "unknown: Ryoo (thesis 2008) gives shared latency as 'about register' only, no bandwidth") \
  X(clock_mhz, 1350.0, \
    "Ryoo (thesis 2008) ch. 2.2.1: SPs clocked at 1.35 GHz (graphics core clock 575 MHz per techamok.com, not used here)") \
  X(fp32_lanes_per_sm, 8, \
    "Ryoo (thesis 2008) ch. 2.2.1: 8 SPs per SM, each one 32-bit FP multiply-add unit") \
  X(sfu_per_sm, 2, "Ryoo (thesis 2008) ch. 2.2.1: 2 SFUs per SM") \
  X(fp32_peak_gflops, 345.6, \
    "Ryoo (thesis 2008) ch. 2.2.1 [derived there]: 128 SPs x 2 FLOP x 1.35 GHz = 345.6 GFLOPS (MAD only)") \
  X(fp32_peak_all_gflops, 388.8, \
    "Ryoo (thesis 2008) ch. 2.2.1: 16 SM x 18 FLOP/SM/cycle x 1.35 GHz = 388.8 GFLOPS (8 MAD + 2 SFU)") \
  X(fp32_measured_gflops, 0.0, \
    "unknown: no FMA micro-benchmark in the sources read (Ryoo (thesis 2008)'s best MM reached 119.82 GFLOPS, an application figure)") \
  X(launch_overhead_us, 0.0, \
    "unknown: Ryoo (thesis 2008) ch. 3.3 calls launch overhead 'negligible' without a number") \
  X(barrier_cycles, 0.0, \
    "unknown: Ryoo (thesis 2008) ch. 2.1: 'probably ... not more than a few processor cycles once all threads ... reach the barrier', no figure") \
  X(block_dispatch_cycles, 0.0, "unknown: no figure in the sources read")
// clang-format on

static const MachineSource g80_src[] = {
  G80_FIELDS(X_SRC){"smem_carveouts_kb", "none: fixed 16 KB (Ryoo (thesis 2008) Table 2.2)"},
};

/* ------------------------------------------------------------------------------------------ */
/* NVIDIA GeForce GTX 280 (GT200), cc 1.3: Yang's and Cornelis' second GPU.                    */
/* ------------------------------------------------------------------------------------------ */

/* the escaped newlines of an X-list stay where each line ends (aligned, one long source string
 * would push every backslash of the list past 100 columns) */
// clang-format off
#define GT200_FIELDS(X) \
  X(cc_major, 1, \
    "CUDA Programming Guide 3.x-4.x: GeForce GTX 280 is compute capability 1.3 (Cornelis (thesis 2010): GTX280 (CC 1.3))") \
  X(cc_minor, 3, "CUDA Programming Guide 3.x-4.x; Cornelis (thesis 2010): GTX280 (CC 1.3)") \
  X(sm_count, 30, "Yang (PLDI 2010) sec. 2 table: 30 x 8 SMs x SPs") \
  X(warp_size, 32, "Yang (PLDI 2010) sec. 2: warps have 32 threads") \
  X(sub_partitions, 1, \
    "Cornelis (MSc thesis, VUB 2010, sec. 3): one multithreaded instruction unit (MTIU) per SM") \
  X(max_threads_per_block, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Max Thread Block Size' 512 for cc 1.3") \
  X(max_threads_per_sm, 1024, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Threads / Multiprocessor' 1024 for cc 1.2/1.3 (Cornelis, MSc thesis 2010: CC 1.2/1.3 (GTX280) allows 1024 threads)") \
  X(max_blocks_per_sm, 8, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Thread Blocks / Multiprocessor' 8 for cc 1.3") \
  X(max_warps_per_sm, 32, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Warps / Multiprocessor' 32 for cc 1.2/1.3") \
  X(regs_per_sm, 16384, \
    "Yang (PLDI 2010) sec. 2 table: 64 KB register file per SM; CUDA Occupancy Calculator (3.x-4.x) 'Register File Size' 16384 for cc 1.3") \
  X(max_regs_per_block, 16384, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register File Size' 16384 for cc 1.3 (a block may use the whole file)") \
  X(max_regs_per_thread, 128, \
    "CUDA Programming Guide 3.x-4.x 'Maximum number of 32-bit registers per thread' 128 for cc 1.x; NVIDIA forum t. 17443 (cc 1.3) saw spills beyond about 124") \
  X(reg_alloc_unit, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register Allocation Unit Size' 512 for cc 1.2/1.3") \
  X(reg_alloc, REGALLOC_PER_BLOCK, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Allocation Granularity' block for cc 1.x") \
  X(warp_alloc_gran, 2, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Warp allocation granularity (for registers)' 2 for cc 1.x") \
  X(smem_per_sm, 16384, "Yang (PLDI 2010) sec. 2 table: 16 KB shared memory per SM") \
  X(smem_per_block, 16384, \
    "CUDA Programming Guide 3.x-4.x: 16 KB shared memory per block on cc 1.x") \
  X(smem_per_block_optin, 16384, "CUDA Programming Guide 3.x-4.x: no opt-in on cc 1.x") \
  X(smem_alloc_unit, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Shared Memory Allocation Unit Size' 512 for cc 1.x") \
  X(smem_reserved_per_block, 0, \
    "none: no fixed reservation; kernel parameters and built-ins sit in shared memory on cc 1.x and are counted in ptxas' smem figure (CUDA Programming Guide 3.x-4.x)") \
  X(n_smem_carveouts, 1, \
    "none: one fixed 16 KB shared memory, no carveout (CUDA Occupancy Calculator (3.x-4.x) 'Shared Memory Size Configurations' 16384)") \
  X(l1_smem_bytes, 0, \
    "none: no L1 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x)") \
  X(smem_banks, 16, "Yang (PLDI 2010) sec. 2 table: 16 banks") \
  X(smem_bank_bytes, 4, \
    "CUDA Programming Guide 3.x-4.x: banks are 32 bits wide; CuMAPz (DAC 2011) sec. 3.5 [P]") \
  X(smem_conflict_threads, 16, \
    "CUDA Programming Guide 3.x-4.x: shared-memory requests are split per half-warp on cc 1.x") \
  X(l2_bytes, 0LL, \
    "none: CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x (only constant and texture caches)") \
  X(mem_rule, MEMRULE_CC12, \
    "CUDA Programming Guide 3.x-4.x global memory coalescing, cc 1.2/1.3 segment rule (summarised in Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3); Cornelis (thesis 2010): GTX280 coalesces the crossed-access probe") \
  X(coalesce_threads, 16, \
    "CUDA Programming Guide 3.x-4.x: per half-warp; Yang (PLDI 2010) sec. 2: 'the 16 threads of a half-warp'") \
  X(mem_sector_bytes, 32, \
    "CUDA Programming Guide 3.x-4.x via Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3: transactions of 32, 64 or 128 B; 32 B is the smallest") \
  X(mem_line_bytes, 128, \
    "CUDA Programming Guide 3.x-4.x via Kim and Shrivastava, DAC 2011 (CuMAPz (DAC 2011)), sec. 3.3: 128 B is the largest segment") \
  X(partition_map, PARTMAP_LINEAR, \
    "Ruetsch & Micikevicius 2009 and Yang (PLDI 2010) sec. 2/3.7: 256-B partitions interleaved in address order") \
  X(mem_partitions, 8, \
    "Yang (PLDI 2010) sec. 2 table: GTX 280 has 8 memory partitions (Ruetsch & Micikevicius 2009: 8 on GTX 200 / Tesla 10-series)") \
  X(mem_partition_bytes, 256, "Yang (PLDI 2010) sec. 2 table: partition width 256 B") \
  X(mem_bus_bits, 512, "bit-tech.net GTX 280 architecture review p. 8: 512-bit memory interface") \
  X(dram_peak_gbps, 141.7, \
    "bit-tech.net GTX 280 architecture review p. 8: 1107 MHz (2214 effective) x 512 bit = about 141.7 GB/s") \
  X(dram_copy_gbps, 0.0, "unknown: no measured copy bandwidth in the sources read") \
  X(dram_read_gbps, 98.0, \
    "Yang (PLDI 2010) sec. 2: sustained bandwidth reading 128 MB with float loads, GTX 280: 98 GB/s (float2 101, float4 79)") \
  X(dram_latency_cycles, 0, \
    "unknown: CuMAPz (DAC 2011) says only 'hundreds of cycles'; lead: Wong et al., ISPASS 2010 microbenchmarked GT200, figure not read here") \
  X(dram_latency_cycles_max, 0, "unknown: see dram_latency_cycles") \
  X(l2_read_gbps, 0.0, "none: no L2 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x)") \
  X(l2_latency_cycles, 0, \
    "none: no L2 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x)") \
  X(l1_latency_cycles, 0, \
    "none: no L1 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x)") \
  X(smem_read_gbps, 0.0, "unknown: no shared-memory bandwidth figure in the sources read") \
  X(clock_mhz, 1296.0, \
    "bit-tech.net GTX 280 architecture review p. 8: shader processors at 1,296 MHz (core clock 602 MHz)") \
  X(fp32_lanes_per_sm, 8, "Yang (PLDI 2010) sec. 2 table: 8 SPs per SM") \
  X(sfu_per_sm, 2, \
    "Cornelis (MSc thesis, VUB 2010, sec. 3): each SM has 8 SPs and 2 SFUs; CUDA Programming Guide 3.x-4.x throughput table (2 SFU results/clk/SM on cc 1.x)") \
  X(fp32_peak_gflops, 622.08, \
    "derived: 30 x 8 x 2 FLOP x 1.296 GHz (MAD only); matches the 622.08 MAD column for the same chip and clock in the C1060 row of Wikipedia 'Nvidia Tesla' (2012 snapshot)") \
  X(fp32_peak_all_gflops, 933.12, \
    "guru3d GTX 280 review p. 4: 'roughly 933 GFLOPS' = 240 x 3 FLOP (MAD + dual-issued MUL) x 1.296 GHz") \
  X(fp32_measured_gflops, 0.0, "unknown: no FMA micro-benchmark in the sources read") \
  X(launch_overhead_us, 0.0, \
    "unknown: Cornelis (thesis 2010) measures relaunch cost only relative to kernel time (100 launches ~ 100x slower), no per-launch figure") \
  X(barrier_cycles, 0.0, \
    "unknown: Cornelis (thesis 2010) measures barrier cost only as run-time ratios (20x between no barrier and one every 2 operations)") \
  X(block_dispatch_cycles, 0.0, "unknown: no figure in the sources read")
// clang-format on

static const MachineSource gt200_src[] = {
  GT200_FIELDS(X_SRC){"smem_carveouts_kb", "none: fixed 16 KB (Yang (PLDI 2010) sec. 2 table)"},
};

/* ------------------------------------------------------------------------------------------ */
/* NVIDIA Tesla C1060 (GT200), cc 1.3: CuMAPz's target.                                        */
/* ------------------------------------------------------------------------------------------ */

/* the escaped newlines of an X-list stay where each line ends (aligned, one long source string
 * would push every backslash of the list past 100 columns) */
// clang-format off
#define C1060_FIELDS(X) \
  X(cc_major, 1, "CuMAPz (DAC 2011) sec. 3.8 [P]: GT200, CC 1.3, Tesla C1060") \
  X(cc_minor, 3, "CuMAPz (DAC 2011) sec. 3.8 [P]: CC 1.3") \
  X(sm_count, 30, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: 30 SMs, 240 SPs; Wikipedia 'Nvidia Tesla' (2012 snapshot): C1060, 240 thread processors") \
  X(warp_size, 32, "CuMAPz (DAC 2011) sec. 3.8 [P]: warp / half-warp 32 / 16 threads") \
  X(sub_partitions, 1, \
    "as GTX 280 (same GT200 chip): one instruction unit per SM (Cornelis (thesis 2010))") \
  X(max_threads_per_block, 512, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: <= 512 threads/block; CUDA Occupancy Calculator (3.x-4.x) cc 1.3") \
  X(max_threads_per_sm, 1024, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: <= 1024 threads/SM; CUDA Occupancy Calculator (3.x-4.x) cc 1.3") \
  X(max_blocks_per_sm, 8, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: <= 8 blocks/SM; CUDA Occupancy Calculator (3.x-4.x) cc 1.3") \
  X(max_warps_per_sm, 32, \
    "CuMAPz (DAC 2011) sec. 3.8 [P]: 'at least 8 and 32 at maximum' warps per SM; CUDA Occupancy Calculator (3.x-4.x) cc 1.3") \
  X(regs_per_sm, 16384, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: 16K registers/SM; CUDA Occupancy Calculator (3.x-4.x) cc 1.3") \
  X(max_regs_per_block, 16384, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register File Size' 16384 for cc 1.3") \
  X(max_regs_per_thread, 128, \
    "CUDA Programming Guide 3.x-4.x 'Maximum number of 32-bit registers per thread' 128 for cc 1.x; NVIDIA forum t. 17443 (Tesla, cc 1.3) saw spills beyond about 124") \
  X(reg_alloc_unit, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Register Allocation Unit Size' 512 for cc 1.3") \
  X(reg_alloc, REGALLOC_PER_BLOCK, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Allocation Granularity' block for cc 1.x") \
  X(warp_alloc_gran, 2, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Warp allocation granularity (for registers)' 2 for cc 1.x") \
  X(smem_per_sm, 16384, "CuMAPz (DAC 2011) sec. 3.8 [P]: shared memory per SM 16 KB ('in Tesla')") \
  X(smem_per_block, 16384, "CUDA Programming Guide 3.x-4.x: 16 KB per block on cc 1.x") \
  X(smem_per_block_optin, 16384, "CUDA Programming Guide 3.x-4.x: no opt-in on cc 1.x") \
  X(smem_alloc_unit, 512, \
    "CUDA Occupancy Calculator (3.x-4.x) 'Shared Memory Allocation Unit Size' 512 for cc 1.x") \
  X(smem_reserved_per_block, 0, \
    "none: no fixed reservation; parameters and built-ins in shared memory are counted in ptxas' smem figure on cc 1.x (CUDA Programming Guide 3.x-4.x)") \
  X(n_smem_carveouts, 1, "none: one fixed 16 KB shared memory (CuMAPz (DAC 2011) sec. 3.8)") \
  X(l1_smem_bytes, 0, \
    "none: no L1 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x); shared memory is separate") \
  X(smem_banks, 16, \
    "CuMAPz (DAC 2011) sec. 3.5/3.8: 16 banks (implied by the 16-way example [P-derived], CC 1.x [X])") \
  X(smem_bank_bytes, 4, "CuMAPz (DAC 2011) sec. 3.8 [P]: bank width 4 bytes") \
  X(smem_conflict_threads, 16, \
    "CuMAPz (DAC 2011) sec. 3: coalescing and bank conflicts analysed per half-warp (16 threads)") \
  X(l2_bytes, 0LL, "none: CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x") \
  X(mem_rule, MEMRULE_CC12, \
    "CuMAPz (DAC 2011) sec. 3.3: CC 1.3 rule (aligned, not strided; 32/64/128-B transactions [P]; segment algorithm from PG 3.x [X])") \
  X(coalesce_threads, 16, "CuMAPz (DAC 2011) sec. 3: per half-warp") \
  X(mem_sector_bytes, 32, \
    "CuMAPz (DAC 2011) sec. 3.8 [P]: global transaction sizes 32 / 64 / 128 B") \
  X(mem_line_bytes, 128, \
    "CuMAPz (DAC 2011) sec. 3.8 [P]: global transaction sizes 32 / 64 / 128 B") \
  X(partition_map, PARTMAP_LINEAR, \
    "CuMAPz (DAC 2011) sec. 3.4: channel(addr) = floor(addr / 256) mod n_channels") \
  X(mem_partitions, 8, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: channel count not in the paper; 8 for C1060 per Ruetsch & Micikevicius 2009 (Tesla 10-series), = 512-bit bus / 64 bit") \
  X(mem_partition_bytes, 256, \
    "CuMAPz (DAC 2011) sec. 3.4/3.8 [P]: channel width 256 B on the Tesla C1060") \
  X(mem_bus_bits, 512, "CuMAPz (DAC 2011) sec. 3.8 [P]: global bus 512-bit (C1060)") \
  X(dram_peak_gbps, 102.4, \
    "Wikipedia 'Nvidia Tesla' table (2012 snapshot): C1060 102.4 GB/s, GDDR3 512-bit at 1600 MHz effective; CuMAPz (DAC 2011) sec. 3.8 [X] 'about 102 GB/s'") \
  X(dram_copy_gbps, 0.0, "unknown: no measured copy bandwidth in the sources read") \
  X(dram_read_gbps, 0.0, "unknown: no measured read bandwidth in the sources read") \
  X(dram_latency_cycles, 0, \
    "unknown: CuMAPz (DAC 2011) sec. 3.8 [P]: 'hundreds of cycles' (not used numerically)") \
  X(dram_latency_cycles_max, 0, "unknown: see dram_latency_cycles") \
  X(l2_read_gbps, 0.0, "none: no L2 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x)") \
  X(l2_latency_cycles, 0, \
    "none: no L2 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x)") \
  X(l1_latency_cycles, 0, \
    "none: no L1 for global loads on cc 1.x (CUDA Programming Guide 3.x-4.x: global memory is not cached on cc 1.x)") \
  X(smem_read_gbps, 0.0, "unknown: no shared-memory bandwidth figure in the sources read") \
  X(clock_mhz, 1296.0, \
    "CuMAPz (DAC 2011) sec. 3.8 [X]: 1.296 GHz; pcmasters.de C1060 announcement: 1.296 GHz; Wikipedia table rounds to 1300 (core clock 602 MHz)") \
  X(fp32_lanes_per_sm, 8, "CuMAPz (DAC 2011) sec. 3.8 [P]: 8 SPs per SM") \
  X(sfu_per_sm, 2, \
    "as GTX 280 (same GT200 chip; Cornelis (thesis 2010), CUDA Programming Guide 3.x-4.x throughput table)") \
  X(fp32_peak_gflops, 622.08, \
    "Wikipedia 'Nvidia Tesla' table (2012 snapshot): C1060 single precision MAD 622.08 GFLOPS (= 240 x 2 x 1.296 GHz)") \
  X(fp32_peak_all_gflops, 933.12, \
    "Wikipedia 'Nvidia Tesla' table (2012 snapshot): C1060 single precision MUL+ADD+SF 933.12 GFLOPS") \
  X(fp32_measured_gflops, 0.0, "unknown: no FMA micro-benchmark in the sources read") \
  X(launch_overhead_us, 0.0, \
    "unknown: CuMAPz (DAC 2011) sec. 6.1 only launches a dummy kernel first to absorb start-up; no figure") \
  X(barrier_cycles, 0.0, "unknown: no figure in the sources read") \
  X(block_dispatch_cycles, 0.0, "unknown: no figure in the sources read")
// clang-format on

static const MachineSource c1060_src[] = {
  C1060_FIELDS(X_SRC){"smem_carveouts_kb", "none: fixed 16 KB (CuMAPz (DAC 2011) sec. 3.8)"},
};

#define NSRC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const Machine machines[] = {
  {
    .name = "h100",
    .long_name = "NVIDIA H100 SXM5 80GB HBM3",
    .aliases = "h100sxm,h100sxm5,nvidiah10080gbhbm3",
    H100_FIELDS(X_INIT).smem_carveouts_kb = sm90_carveouts_kb,
    .notes =
      "Read by carve on an H100 80GB HBM3 (driver 580.159.04, CUDA 13.0, 2026-11-22). Clocks are the max boost the "
      "device reports; measured ceilings depend on the clock the card runs at. Partition camping is "
      "replaced by address hashing; use L2-slice imbalance (ncu lts__cycles_active) instead.",
    .sources = h100_src,
    .n_sources = NSRC(h100_src),
  },
  {
    .name = "h200",
    .long_name = "NVIDIA H200 141GB HBM3e",
    .aliases = "h200sxm,nvidiah200",
    H200_FIELDS(X_INIT).smem_carveouts_kb = sm90_carveouts_kb,
    .notes =
      "Same GH100 SM as the H100 (NVIDIA H200 datasheet); most per-SM limits are the cc 9.0 ones read on an H100 (shared "
      "per SM, SM count and L2 were re-read on an H200 by bench/calibrate.cu). dram_peak_gbps is the "
      "data sheet; the measured figures come from carve calibrate (bench/calibrate.cu).",
    .sources = h200_src,
    .n_sources = NSRC(h200_src),
  },
  {
    .name = "g80",
    .long_name = "NVIDIA GeForce 8800 GTX (G80)",
    .aliases = "8800gtx,geforce8800gtx",
    G80_FIELDS(X_INIT).smem_carveouts_kb = cc1x_carveouts_kb,
    .notes =
      "Ryoo (thesis 2008)'s machine (CUDA 0.8/1.0). No cache for global loads; constant cache 8 KB/SM single-ported, "
      "texture cache 16 KB per two SMs (Ryoo Table 2.1), not modelled as fields.",
    .sources = g80_src,
    .n_sources = NSRC(g80_src),
  },
  {
    .name = "gt200",
    .long_name = "NVIDIA GeForce GTX 280 (GT200)",
    .aliases = "gtx280,geforcegtx280",
    GT200_FIELDS(X_INIT).smem_carveouts_kb = cc1x_carveouts_kb,
    .notes =
      "Yang (PLDI 2010)'s and Cornelis (thesis 2010)' cc 1.3 GPU. Same GT200 chip as the Tesla C1060 with faster memory.",
    .sources = gt200_src,
    .n_sources = NSRC(gt200_src),
  },
  {
    .name = "c1060",
    .long_name = "NVIDIA Tesla C1060 (GT200)",
    .aliases = "teslac1060,tesla",
    C1060_FIELDS(X_INIT).smem_carveouts_kb = cc1x_carveouts_kb,
    .notes =
      "CuMAPz (DAC 2011)'s machine (CUDA driver 3.2). The paper uses only warp/half-warp size, bank count and width, "
      "channel count and width, transaction sizes and max_blks numerically.",
    .sources = c1060_src,
    .n_sources = NSRC(c1060_src),
  },
};

#define NMACHINES NSRC(machines)

const Machine *machine_list(int *n) {
  if (n) *n = NMACHINES;
  return machines;
}

/* Compare a against b ignoring ASCII case and the characters ' ', '-', '_'. */
static int name_eq(const char *a, size_t alen, const char *b, size_t blen) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < alen && (a[i] == ' ' || a[i] == '-' || a[i] == '_')) i++;
    while (j < blen && (b[j] == ' ' || b[j] == '-' || b[j] == '_')) j++;
    if (i == alen || j == blen) return i == alen && j == blen;
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[j])) return 0;
    i++, j++;
  }
}

/* "sm_90", "sm_90a", "compute_90", "SM90": compute capability 9.0 as 90; -1 for other names */
static int sm_number(const char *name) {
  const char *p = name;
  if (!strncasecmp(p, "sm", 2)) p += 2;
  else if (!strncasecmp(p, "compute", 7)) p += 7;
  else return -1;
  if (*p == '_') p++;
  if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1])) return -1;
  int n = (p[0] - '0') * 10 + (p[1] - '0');
  p += 2;
  if (isdigit((unsigned char)*p)) n = n * 10 + (*p++ - '0'); /* sm_100, sm_120 */
  if (*p == 'a' || *p == 'f') p++;
  return *p ? -1 : n;
}

const char *machine_sm_name(const char *name) {
  if (!name) return NULL;
  int n = sm_number(name);
  if (n >= 0) {
    static char buf[16];
    snprintf(buf, sizeof buf, "sm_%d", n);
    return buf;
  }
  const Machine *m = machine_find(name);
  if (!m) return NULL;
  static char mbuf[16];
  snprintf(mbuf, sizeof mbuf, "sm_%d%d", m->cc_major, m->cc_minor);
  return mbuf;
}

const Machine *machine_find(const char *name) {
  if (!name) return NULL;
  int sm = sm_number(name);
  for (int k = 0; sm >= 0 && k < NMACHINES; k++)
    if (machines[k].cc_major * 10 + machines[k].cc_minor == sm) return &machines[k];
  size_t nlen = strlen(name);
  for (int k = 0; k < NMACHINES; k++) {
    const Machine *m = &machines[k];
    if (name_eq(name, nlen, m->name, strlen(m->name))) return m;
    const char *p = m->aliases;
    while (p && *p) {
      const char *e = strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      if (len && name_eq(name, nlen, p, len)) return m;
      p = e ? e + 1 : NULL;
    }
  }
  return NULL;
}

const char *machine_source(const Machine *m, const char *field) {
  if (!m || !field) return NULL;
  for (int i = 0; i < m->n_sources; i++)
    if (strcmp(m->sources[i].field, field) == 0) return m->sources[i].source;
  return NULL;
}

/* ---- validation ---- */

typedef enum {
  FT_INT,
  FT_INT0,
  FT_LL,
  FT_DBL,
  FT_ENUM
} FieldType; /* FT_INT0: 0 is an ordinary value */
typedef struct {
  const char *name;
  size_t off;
  FieldType ty;
} FieldInfo;

#define FI(f, t) \
  { #f, offsetof(Machine, f), t }
static const FieldInfo fields[] = {
  FI(cc_major, FT_INT),
  FI(cc_minor, FT_INT0),
  FI(sm_count, FT_INT),
  FI(warp_size, FT_INT),
  FI(sub_partitions, FT_INT),
  FI(max_threads_per_block, FT_INT),
  FI(max_threads_per_sm, FT_INT),
  FI(max_blocks_per_sm, FT_INT),
  FI(max_warps_per_sm, FT_INT),
  FI(regs_per_sm, FT_INT),
  FI(max_regs_per_block, FT_INT),
  FI(max_regs_per_thread, FT_INT),
  FI(reg_alloc_unit, FT_INT),
  FI(reg_alloc, FT_ENUM),
  FI(warp_alloc_gran, FT_INT),
  FI(smem_per_sm, FT_INT),
  FI(smem_per_block, FT_INT),
  FI(smem_per_block_optin, FT_INT),
  FI(smem_alloc_unit, FT_INT),
  FI(smem_reserved_per_block, FT_INT),
  FI(n_smem_carveouts, FT_INT),
  FI(l1_smem_bytes, FT_INT),
  FI(smem_banks, FT_INT),
  FI(smem_bank_bytes, FT_INT),
  FI(smem_conflict_threads, FT_INT),
  FI(l2_bytes, FT_LL),
  FI(mem_rule, FT_ENUM),
  FI(coalesce_threads, FT_INT),
  FI(mem_sector_bytes, FT_INT),
  FI(mem_line_bytes, FT_INT),
  FI(partition_map, FT_ENUM),
  FI(mem_partitions, FT_INT),
  FI(mem_partition_bytes, FT_INT),
  FI(mem_bus_bits, FT_INT),
  FI(dram_peak_gbps, FT_DBL),
  FI(dram_copy_gbps, FT_DBL),
  FI(dram_read_gbps, FT_DBL),
  FI(dram_latency_cycles, FT_INT),
  FI(dram_latency_cycles_max, FT_INT),
  FI(l2_read_gbps, FT_DBL),
  FI(l2_latency_cycles, FT_INT),
  FI(l1_latency_cycles, FT_INT),
  FI(smem_read_gbps, FT_DBL),
  FI(clock_mhz, FT_DBL),
  FI(fp32_lanes_per_sm, FT_INT),
  FI(sfu_per_sm, FT_INT),
  FI(fp32_peak_gflops, FT_DBL),
  FI(fp32_peak_all_gflops, FT_DBL),
  FI(fp32_measured_gflops, FT_DBL),
  FI(launch_overhead_us, FT_DBL),
  FI(barrier_cycles, FT_DBL),
  FI(block_dispatch_cycles, FT_DBL),
};

static int field_is_zero(const Machine *m, const FieldInfo *f) {
  const char *p = (const char *)m + f->off;
  switch (f->ty) {
  case FT_INT: return *(const int *)(const void *)p == 0;
  case FT_LL: return *(const long long *)(const void *)p == 0;
  case FT_DBL: return *(const double *)(const void *)p == 0.0;
  case FT_INT0:
  case FT_ENUM: return 0; /* minor versions and enumerators: 0 is a valid value */
  }
  return 0;
}

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

#define FAIL(...)                                          \
  do {                                                     \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                             \
  } while (0)

int machine_validate(const Machine *m, char *err, size_t errlen) {
  if (!m) FAIL("null machine");
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const char *src = machine_source(m, fields[i].name);
    if (!src || !*src) FAIL("%s: field %s has no source", m->name, fields[i].name);
    if (field_is_zero(m, &fields[i]) && !starts_with(src, "unknown") && !starts_with(src, "none:"))
      FAIL("%s: field %s is 0 but its source is neither 'unknown...' nor 'none: ...'", m->name,
           fields[i].name);
  }
  if (!machine_source(m, "smem_carveouts_kb")) FAIL("%s: smem_carveouts_kb has no source", m->name);
  if (m->max_warps_per_sm * m->warp_size != m->max_threads_per_sm)
    FAIL("%s: max_warps_per_sm * warp_size != max_threads_per_sm", m->name);
  if (m->max_threads_per_block > m->max_threads_per_sm)
    FAIL("%s: max_threads_per_block > max_threads_per_sm", m->name);
  if (m->max_regs_per_block > m->regs_per_sm) FAIL("%s: max_regs_per_block > regs_per_sm", m->name);
  if (m->smem_per_block > m->smem_per_block_optin || m->smem_per_block_optin > m->smem_per_sm)
    FAIL("%s: shared limits not ordered (block <= opt-in <= SM)", m->name);
  if (m->n_smem_carveouts < 1 || !m->smem_carveouts_kb ||
      m->smem_carveouts_kb[m->n_smem_carveouts - 1] * 1024 != m->smem_per_sm)
    FAIL("%s: the last shared carveout is not smem_per_sm", m->name);
  for (int i = 1; i < m->n_smem_carveouts; i++)
    if (m->smem_carveouts_kb[i] <= m->smem_carveouts_kb[i - 1])
      FAIL("%s: carveouts not ascending", m->name);
  if (m->mem_sector_bytes <= 0 || m->mem_line_bytes % m->mem_sector_bytes != 0)
    FAIL("%s: mem_line_bytes is not a multiple of mem_sector_bytes", m->name);
  if (m->coalesce_threads != m->warp_size && m->coalesce_threads * 2 != m->warp_size)
    FAIL("%s: coalesce_threads is neither a warp nor a half-warp", m->name);
  if ((m->partition_map == PARTMAP_LINEAR) != (m->mem_partitions > 0 && m->mem_partition_bytes > 0))
    FAIL("%s: a linear partition map needs partition count and width (and a hashed one has none)",
         m->name);
  if (m->dram_latency_cycles_max < m->dram_latency_cycles)
    FAIL("%s: dram_latency_cycles_max < dram_latency_cycles", m->name);
  if (m->sm_count && m->fp32_lanes_per_sm && m->clock_mhz && m->fp32_peak_gflops) {
    double peak = m->sm_count * (double)m->fp32_lanes_per_sm * 2.0 * m->clock_mhz / 1000.0;
    if (fabs(peak - m->fp32_peak_gflops) > 0.005 * peak)
      FAIL("%s: fp32_peak_gflops %.2f != sm_count * lanes * 2 * clock = %.2f", m->name,
           m->fp32_peak_gflops, peak);
  }
  if (m->fp32_peak_all_gflops < m->fp32_peak_gflops)
    FAIL("%s: fp32_peak_all_gflops < fp32_peak_gflops", m->name);
  return 0;
}
