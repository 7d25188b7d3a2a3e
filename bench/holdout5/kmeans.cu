/* kmeans: ITERS iterations of Lloyd's k-means on NPTS points of DIM dimensions, K clusters.
 * assign: one thread per point, nearest centroid by squared distance;
 * accumulate: one thread per point, atomicAdd of its coordinates into its cluster's sums;
 * update: one thread per centroid coordinate, the mean (an empty cluster keeps its centroid). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef NPTS
#define NPTS 16384
#endif
#ifndef DIM
#define DIM 8
#endif
#ifndef K
#define K 16
#endif
#ifndef ITERS
#define ITERS 3
#endif

__global__ void kmeans_assign(const float *points, const float *centroids, int *labels, int npts)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int c, d, best;
    float bestdist, dist, diff;

    if (p >= npts)
        return;
    best = 0;
    bestdist = 3.0e38f;
    for (c = 0; c < K; c++) {
        dist = 0.0f;
        for (d = 0; d < DIM; d++) {
            diff = points[p * DIM + d] - centroids[c * DIM + d];
            dist += diff * diff;
        }
        if (dist < bestdist) {
            bestdist = dist;
            best = c;
        }
    }
    labels[p] = best;
}

__global__ void kmeans_accumulate(const float *points, const int *labels, float *sums, int *counts,
                                  int npts)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npts) {
        int l = labels[p];
        for (int d = 0; d < DIM; d++)
            atomicAdd(&sums[l * DIM + d], points[p * DIM + d]);
        atomicAdd(&counts[l], 1);
    }
}

__global__ void kmeans_update(float *centroids, const float *sums, const int *counts)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < K * DIM) {
        int c = t / DIM;
        if (counts[c] > 0)
            centroids[t] = sums[t] / (float)counts[c];
    }
}

int main(void)
{
    int npts = NPTS;
    float *pts = (float *)malloc(sizeof(float) * npts * DIM);
    float *cen = (float *)malloc(sizeof(float) * K * DIM);
    float *gcen = (float *)malloc(sizeof(float) * K * DIM);
    int *lab = (int *)malloc(sizeof(int) * npts);
    int *glab = (int *)malloc(sizeof(int) * npts);
    double *rsum = (double *)malloc(sizeof(double) * K * DIM);
    int *rcnt = (int *)malloc(sizeof(int) * K);
    float *d_pts, *d_cen, *d_sums;
    int *d_lab, *d_cnt;
    int p, c, d, it, errors = 0;

    /* point p lies near the center of cluster p % K: well separated, no ties */
    for (p = 0; p < npts; p++)
        for (d = 0; d < DIM; d++) {
            int cl = p % K;
            float center = 10.0f * (float)((cl * (d + 3)) % 7) + 3.0f * (float)cl;
            float noise = (float)((p * 31 + d * 17) % 101) / 50.0f - 1.0f;
            pts[p * DIM + d] = center + noise;
        }
    for (c = 0; c < K * DIM; c++)
        cen[c] = pts[c]; /* the first K points, one per cluster */

    cudaMalloc((void **)&d_pts, sizeof(float) * npts * DIM);
    cudaMalloc((void **)&d_cen, sizeof(float) * K * DIM);
    cudaMalloc((void **)&d_sums, sizeof(float) * K * DIM);
    cudaMalloc((void **)&d_lab, sizeof(int) * npts);
    cudaMalloc((void **)&d_cnt, sizeof(int) * K);
    cudaMemcpy(d_pts, pts, sizeof(float) * npts * DIM, cudaMemcpyHostToDevice);
    cudaMemcpy(d_cen, cen, sizeof(float) * K * DIM, cudaMemcpyHostToDevice);

    int threads = 256;
    int blocks = (npts + threads - 1) / threads;
    for (it = 0; it < ITERS; it++) {
        kmeans_assign<<<blocks, threads>>>(d_pts, d_cen, d_lab, npts);
        cudaMemset(d_sums, 0, sizeof(float) * K * DIM);
        cudaMemset(d_cnt, 0, sizeof(int) * K);
        kmeans_accumulate<<<blocks, threads>>>(d_pts, d_lab, d_sums, d_cnt, npts);
        kmeans_update<<<(K * DIM + 63) / 64, 64>>>(d_cen, d_sums, d_cnt);
    }
    cudaMemcpy(glab, d_lab, sizeof(int) * npts, cudaMemcpyDeviceToHost);
    cudaMemcpy(gcen, d_cen, sizeof(float) * K * DIM, cudaMemcpyDeviceToHost);

    /* CPU reference, the same iterations */
    for (it = 0; it < ITERS; it++) {
        for (p = 0; p < npts; p++) {
            int best = 0;
            float bestdist = 3.0e38f;
            for (c = 0; c < K; c++) {
                float dist = 0.0f;
                for (d = 0; d < DIM; d++) {
                    float diff = pts[p * DIM + d] - cen[c * DIM + d];
                    dist += diff * diff;
                }
                if (dist < bestdist) {
                    bestdist = dist;
                    best = c;
                }
            }
            lab[p] = best;
        }
        for (c = 0; c < K * DIM; c++)
            rsum[c] = 0.0;
        for (c = 0; c < K; c++)
            rcnt[c] = 0;
        for (p = 0; p < npts; p++) {
            for (d = 0; d < DIM; d++)
                rsum[lab[p] * DIM + d] += pts[p * DIM + d];
            rcnt[lab[p]]++;
        }
        for (c = 0; c < K * DIM; c++)
            if (rcnt[c / DIM] > 0)
                cen[c] = (float)(rsum[c] / rcnt[c / DIM]);
    }

    for (p = 0; p < npts; p++)
        if (glab[p] != lab[p]) {
            if (errors < 5)
                printf("label[%d] = %d, expected %d\n", p, glab[p], lab[p]);
            errors++;
        }
    for (c = 0; c < K * DIM; c++)
        if (fabsf(gcen[c] - cen[c]) > 1e-3f * fmaxf(fabsf(cen[c]), 1.0f)) {
            if (errors < 5)
                printf("centroid[%d] = %f, expected %f\n", c, gcen[c], cen[c]);
            errors++;
        }
    cudaFree(d_pts);
    cudaFree(d_cen);
    cudaFree(d_sums);
    cudaFree(d_lab);
    cudaFree(d_cnt);
    free(pts);
    free(cen);
    free(gcen);
    free(lab);
    free(glab);
    free(rsum);
    free(rcnt);
    printf("kmeans: %s\n", errors ? "FAILED" : "PASSED");
    return errors ? 1 : 0;
}
