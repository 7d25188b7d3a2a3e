/* cp: naive Coulombic potential on one z-slice of a GX x GY lattice with spacing gridspacing:
 *   energygrid[j][i] = sum over atoms n of q_n / |(i*gridspacing, j*gridspacing, z) - r_n|
 * atoms holds NATOMS records of 4 floats (x, y, z, q).
 *
 * Source: Ryoo, "Program Optimization Strategies for Data-Parallel Many-Core Processors"
 * (PhD, UIUC 2008), Fig. 5.4 ("Coulombic potential grid code", §5.3.3); CP is in the application
 * study of Ch. 4 and is one of the four carving benchmarks of Ch. 6.
 *
 * Naive because: one thread per lattice point, direct summation over every atom with the atom
 * records in global memory. All threads of a warp read the same atom at the same time (a
 * broadcast that belongs in constant memory), each thread computes a single point, so the
 * per-atom work that is shared along a row (dy*dy + dz*dz) is recomputed per point (no per-thread
 * tiling of several points), and it uses a full-precision divide and sqrtf instead of rsqrtf. */
#ifndef GX
#define GX 512
#endif
#ifndef GY
#define GY 512
#endif
#ifndef NATOMS
#define NATOMS 4000
#endif

#pragma carve launch cp grid((GX+15)/16, (GY+15)/16) block(16, 16)
#pragma carve arg atoms = float[4*NATOMS] : random(1, 0, 32)
#pragma carve arg energygrid = float[GX*GY] : zeros out
#pragma carve arg natoms = NATOMS
#pragma carve arg gridspacing = 0.0625
#pragma carve arg z = 16.0
#pragma carve arg gx = GX
#pragma carve arg gy = GY
#pragma carve tol rel(1e-5)
__global__ void cp(const float *atoms, float *energygrid, int natoms, float gridspacing, float z,
                   int gx, int gy)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* lattice column i */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* lattice row j */
    if (idx < gx && idy < gy) {
        float x = gridspacing * (float)idx;
        float y = gridspacing * (float)idy;
        float energy = 0.0f;
        for (int n = 0; n < 4 * natoms; n += 4) {
            float dx = x - atoms[n];
            float dy = y - atoms[n + 1];
            float dz = z - atoms[n + 2];
            energy += atoms[n + 3] / sqrtf(dx * dx + dy * dy + dz * dz);
        }
        energygrid[gx * idy + idx] = energy;
    }
}
