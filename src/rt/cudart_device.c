/* carve's substitute CUDA runtime (cudart.h), the device: the --arch machine's properties
 * (cudaGetDeviceProperties, cudaDeviceGetAttribute), the device's limits and cache settings,
 * function attributes and occupancy, answered from carve's machine description (src/arch). */
#include "cudart.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------- the device: the --arch machine ---------------- */
static const Machine *machine(void) {
  if (rt.W.machine) return rt.W.machine;
  const char *arch = getenv(RT_ENV_ARCH);
  const Machine *M = machine_find(arch && *arch ? arch : "h100");
  return M ? M : machine_find("h100");
}
EXPORT cudaError_t cudaGetDeviceCount(int *n) {
  *n = 1;
  return cudaSuccess;
}
EXPORT cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
EXPORT cudaError_t cudaSetDevice(int d) {
  return d == 0 ? ok_or_sticky() : (rt.last_error = cudaErrorInvalidDevice);
}
EXPORT cudaError_t cudaSetDeviceFlags(unsigned f) {
  (void)f;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *p) {
  (void)p;
  *d = 0;
  return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceSynchronize(void) { return ok_or_sticky(); }
EXPORT cudaError_t cudaThreadSynchronize(void) { return ok_or_sticky(); }
/* the rest of the legacy cudaThread* API CUDA 13 removed (cuda_runtime_api.h no longer declares
 * them; route.c's compat header does, for programs written against older toolkits): each is its
 * cudaDevice* successor. A limit reads what was set, else CUDA's default (a 1 KiB stack, a 1 MiB
 * printf FIFO, an 8 MiB malloc heap); settings are remembered and change nothing else. */
static size_t limit_default(enum cudaLimit l) {
  return l == cudaLimitStackSize        ? 1024
         : l == cudaLimitPrintfFifoSize ? (size_t)1 << 20
         : l == cudaLimitMallocHeapSize ? (size_t)8 << 20
                                        : 0;
}
EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v) {
  if ((unsigned)l < 3) rt.limits[l] = v;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaDeviceGetLimit(size_t *v, enum cudaLimit l) {
  *v = (unsigned)l < 3 && rt.limits[l] ? rt.limits[l] : limit_default(l);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c) {
  rt.cache_config = c;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c) {
  *c = rt.cache_config;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaThreadExit(void) { return cudaSuccess; }
EXPORT cudaError_t cudaThreadSetLimit(enum cudaLimit l, size_t v) {
  return cudaDeviceSetLimit(l, v);
}
EXPORT cudaError_t cudaThreadGetLimit(size_t *v, enum cudaLimit l) {
  return cudaDeviceGetLimit(v, l);
}
EXPORT cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache c) {
  return cudaDeviceSetCacheConfig(c);
}
EXPORT cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *c) {
  return cudaDeviceGetCacheConfig(c);
}
EXPORT cudaError_t cudaSetDoubleForDevice(double *d) {
  (void)d;
  return cudaSuccess;
}
EXPORT cudaError_t cudaSetDoubleForHost(double *d) {
  (void)d;
  return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
EXPORT cudaError_t cudaDriverGetVersion(int *v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
EXPORT cudaError_t cudaRuntimeGetVersion(int *v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
EXPORT cudaError_t cudaFuncSetCacheConfig(const void *f, enum cudaFuncCache c) {
  (void)f, (void)c;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaFuncSetAttribute(const void *f, enum cudaFuncAttribute a, int v) {
  (void)f, (void)a, (void)v;
  return ok_or_sticky();
}

/* cudaGetDeviceProperties: the --arch machine's numbers (src/arch/machines.c, each with its
 * source); totalGlobalMem is what carve lets a program allocate */
EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev) {
  if (dev != 0) return rt.last_error = cudaErrorInvalidDevice;
  const Machine *M = machine();
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s (carve interpreter)", M->long_name);
  p->totalGlobalMem = (size_t)LIMIT_BYTES;
  p->sharedMemPerBlock = (size_t)M->smem_per_block;
  p->sharedMemPerBlockOptin = (size_t)M->smem_per_block_optin;
  p->sharedMemPerMultiprocessor = (size_t)M->smem_per_sm;
  p->regsPerBlock = M->max_regs_per_block;
  p->regsPerMultiprocessor = M->regs_per_sm;
  p->warpSize = M->warp_size;
  p->memPitch = SIZE_MAX;
  p->maxThreadsPerBlock = M->max_threads_per_block;
  p->maxThreadsPerMultiProcessor = M->max_threads_per_sm;
  p->maxBlocksPerMultiProcessor = M->max_blocks_per_sm;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = M->cc_major < 2 ? 512 : 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = M->cc_major < 3 ? 65535 : 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = M->cc_major < 2 ? 1 : 65535;
  p->totalConstMem = 65536;
  p->major = M->cc_major;
  p->minor = M->cc_minor;
  p->multiProcessorCount = M->sm_count;
  p->memoryBusWidth = M->mem_bus_bits;
  p->l2CacheSize = (int)M->l2_bytes;
  p->concurrentKernels = 1;
  p->managedMemory = 1;
  p->unifiedAddressing = 1;
  p->canMapHostMemory = 1;
  p->cooperativeLaunch = 1;
  p->asyncEngineCount = 1;
  p->memoryPoolsSupported = 1; /* cudaMallocAsync: at once, streams being synchronous */
  return ok_or_sticky();
}

EXPORT cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int dev) {
  if (dev != 0) return rt.last_error = cudaErrorInvalidDevice;
  const Machine *M = machine();
  switch (a) {
  case cudaDevAttrMaxThreadsPerBlock: *v = M->max_threads_per_block; break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY: *v = M->cc_major < 2 ? 512 : 1024; break;
  case cudaDevAttrMaxBlockDimZ: *v = 64; break;
  case cudaDevAttrMaxGridDimX: *v = M->cc_major < 3 ? 65535 : 2147483647; break;
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ: *v = 65535; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *v = M->smem_per_block; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = M->smem_per_block_optin; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = M->smem_per_sm; break;
  case cudaDevAttrTotalConstantMemory: *v = 65536; break;
  case cudaDevAttrWarpSize: *v = M->warp_size; break;
  case cudaDevAttrMaxRegistersPerBlock: *v = M->max_regs_per_block; break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *v = M->regs_per_sm; break;
  case cudaDevAttrClockRate: *v = (int)(M->clock_mhz * 1000); break;
  case cudaDevAttrMultiProcessorCount: *v = M->sm_count; break;
  case cudaDevAttrComputeCapabilityMajor: *v = M->cc_major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = M->cc_minor; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *v = M->max_threads_per_sm; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = M->max_blocks_per_sm; break;
  case cudaDevAttrGlobalMemoryBusWidth: *v = M->mem_bus_bits; break;
  case cudaDevAttrL2CacheSize: *v = (int)M->l2_bytes; break;
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrManagedMemory:
  case cudaDevAttrConcurrentKernels:
  case cudaDevAttrCooperativeLaunch:
  case cudaDevAttrCanMapHostMemory:
  case cudaDevAttrConcurrentManagedAccess:
  case cudaDevAttrMemoryPoolsSupported: *v = 1; break;
  default: *v = 0;
  }
  return ok_or_sticky();
}

/* cudaFuncGetAttributes: what carve knows without ptxas (registers are unknown: 0; the estimate
 * reads them from NVRTC) */
EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *fun) {
  RtFunc *f = func_of(fun);
  Obj *k = f ? kernel_of(f) : NULL;
  if (!k)
    return api_error(RET, cudaErrorInvalidDeviceFunction,
                     "cudaFuncGetAttributes of a function that is not a kernel carve read");
  memset(a, 0, sizeof *a);
  a->sharedSizeBytes = (size_t)(k->shared_size > 0 ? k->shared_size : 0);
  a->maxThreadsPerBlock = machine()->max_threads_per_block;
  a->ptxVersion = a->binaryVersion = machine()->cc_major * 10 + machine()->cc_minor;
  a->maxDynamicSharedSizeBytes = machine()->smem_per_block_optin - (int)a->sharedSizeBytes;
  return ok_or_sticky();
}

/* occupancy by threads, blocks and shared memory per SM (registers unknown here: say so with
 * carve estimate, which has them) */
EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *fun,
                                                                          int block, size_t shm,
                                                                          unsigned flags) {
  (void)flags;
  RtFunc *f = func_of(fun);
  Obj *k = f ? kernel_of(f) : NULL;
  if (!k || block <= 0) return rt.last_error = cudaErrorInvalidValue;
  const Machine *M = machine();
  int by_threads = M->max_threads_per_sm / block, by_blocks = M->max_blocks_per_sm;
  size_t smem = (size_t)(k->shared_size > 0 ? k->shared_size : 0) + shm;
  int by_smem = smem ? (int)((size_t)M->smem_per_sm / smem) : by_blocks;
  int r = by_threads < by_blocks ? by_threads : by_blocks;
  *n = r < by_smem ? r : by_smem;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *fun, int block,
                                                                 size_t shm) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, fun, block, shm, 0);
}
