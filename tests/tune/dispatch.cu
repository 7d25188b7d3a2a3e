/* dispatch: one store per thread over many short blocks, to measure the block scheduler's
 * hand-off (block_dispatch_cycles, src/arch/machines.c) on a GPU: time it at 32- and 128-thread
 * blocks over the same threads; (T32 - T128) / (blocks per SM at 32 - at 128) is the cycles
 * between two blocks of one SM (docs/tune.md, "The model's top 5 and block dispatch"):
 *   carve bench tests/tune/dispatch.cu --block 32 --grid 221760
 *   carve bench tests/tune/dispatch.cu --block 128 --grid 55440
 * carve estimate on the same launches charges the figure as its 'blocks' limit. */
#define T 7096320

#pragma carve launch dispatch grid(T / 128) block(128)
#pragma carve arg out = int[T] : zeros out
#pragma carve arg n = T
__global__ void dispatch(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}
