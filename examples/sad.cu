/* sad: naive 4x4 sums of absolute differences for full-search motion estimation (H.264).
 * For every 4x4 block (bx, by) of the W x H frame and every offset (ox, oy) in [-SR, SR]^2:
 *   sads[(by*(W/4) + bx) * (2SR+1)^2 + (oy+SR)*(2SR+1) + (ox+SR)] =
 *       sum over py, px < 4 of |ref(4by+oy+py, 4bx+ox+px) - frame(4by+py, 4bx+px)|
 * ref is the reference frame with an SR-pixel border, (H+2SR) x (W+2SR) row-major, so ref(y, x)
 * is ref[(y+SR)*(W+2SR) + x+SR]. Pixels are 8-bit; W and H are multiples of 4.
 *
 * Source: Ryoo, PhD thesis (UIUC 2008), Fig. 4.1 ("Simplified SAD kernel") and §4.2.1; the SAD
 * carving benchmark of Ch. 5-6 (the first of the three H.264 kernels, without the spiral search).
 *
 * Naive because: one SAD per thread, global memory only. The 16 frame pixels of a block are
 * re-read by all (2SR+1)^2 threads of that block (shared-memory candidate), overlapping reference
 * windows are re-read by neighbouring offsets (texture / shared tile), the 4x4 loops are not
 * unrolled, and each thread decodes its block and offset with integer divides and modulos. */
#ifndef W
#define W 352
#endif
#ifndef H
#define H 288
#endif
#ifndef SR
#define SR 16
#endif

#pragma carve launch sad grid(((2*SR+1)*(2*SR+1)+127)/128, (W/4)*(H/4)) block(128)
#pragma carve arg frame = unsigned char[W*H] : random(1, 0, 256)
#pragma carve arg ref = unsigned char[(W+2*SR)*(H+2*SR)] : random(2, 0, 256)
#pragma carve arg sads = int[(W/4)*(H/4)*(2*SR+1)*(2*SR+1)] : zeros out
#pragma carve arg w = W
#pragma carve arg h = H
#pragma carve arg sr = SR
__global__ void sad(const unsigned char *frame, const unsigned char *ref, int *sads, int w, int h,
                    int sr)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* search offset */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* 4x4 block of the frame */
    int side = 2 * sr + 1;
    if (idx < side * side && idy < (w / 4) * (h / 4)) {
        int offY = idx / side - sr, offX = idx % side - sr;
        int blockY = idy / (w / 4), blockX = idy % (w / 4);
        int rw = w + 2 * sr;                           /* row pitch of ref */
        int s = 0;
        for (int pixY = 0; pixY < 4; pixY++)
            for (int pixX = 0; pixX < 4; pixX++)
                s += abs(ref[(blockY * 4 + sr + offY + pixY) * rw + blockX * 4 + sr + offX + pixX]
                         - frame[(blockY * 4 + pixY) * w + blockX * 4 + pixX]);
        sads[idy * side * side + idx] = s;
    }
}
