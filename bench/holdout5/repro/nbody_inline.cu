// nbody_inline: nbody.cu with pair_accel written inline in compute_forces (one change).
// nbody: all-pairs gravitational accelerations (softened), then a leapfrog-style update of
// velocities and positions, STEPS times. Bodies as float4 (x, y, z, mass), velocities float4.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef NBODIES
#define NBODIES 4096
#endif
#ifndef STEPS
#define STEPS 2
#endif
#define SOFTENING 0.01f
#define DT 0.001f

__device__ float3 pair_accel(float4 bi, float4 bj, float3 acc)
{
    float dx = bj.x - bi.x;
    float dy = bj.y - bi.y;
    float dz = bj.z - bi.z;
    float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
    float inv = rsqrtf(r2);
    float s = bj.w * inv * inv * inv;
    acc.x += dx * s;
    acc.y += dy * s;
    acc.z += dz * s;
    return acc;
}

__global__ void compute_forces(const float4 *pos, float3 *accel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 me = pos[i];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (int j = 0; j < n; j++) {
            float4 bj = pos[j];
            float dx = bj.x - me.x;
            float dy = bj.y - me.y;
            float dz = bj.z - me.z;
            float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
            float inv = rsqrtf(r2);
            float s = bj.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        accel[i] = make_float3(ax, ay, az);
    }
}

__global__ void integrate(float4 *pos, float4 *vel, const float3 *accel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = vel[i];
    float4 p = pos[i];
    v.x += accel[i].x * DT;
    v.y += accel[i].y * DT;
    v.z += accel[i].z * DT;
    p.x += v.x * DT;
    p.y += v.y * DT;
    p.z += v.z * DT;
    vel[i] = v;
    pos[i] = p;
}

int main(void)
{
    int n = NBODIES;
    int i, j, s, bad = 0;
    float4 *hp = (float4 *)malloc(n * sizeof(float4));
    float4 *hv = (float4 *)malloc(n * sizeof(float4));
    float4 *rp = (float4 *)malloc(n * sizeof(float4));
    float4 *rv = (float4 *)malloc(n * sizeof(float4));
    float3 *ra = (float3 *)malloc(n * sizeof(float3));
    float4 *dp, *dv;
    float3 *da;

    for (i = 0; i < n; i++) {
        hp[i].x = (float)((i * 37) % 101) / 50.0f - 1.0f;
        hp[i].y = (float)((i * 53) % 103) / 51.0f - 1.0f;
        hp[i].z = (float)((i * 71) % 107) / 53.0f - 1.0f;
        hp[i].w = 1.0f / n + (float)(i % 5) / (5.0f * n);
        hv[i].x = hv[i].y = hv[i].z = hv[i].w = 0.0f;
        rp[i] = hp[i];
        rv[i] = hv[i];
    }

    cudaMalloc((void **)&dp, n * sizeof(float4));
    cudaMalloc((void **)&dv, n * sizeof(float4));
    cudaMalloc((void **)&da, n * sizeof(float3));
    cudaMemcpy(dp, hp, n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(dv, hv, n * sizeof(float4), cudaMemcpyHostToDevice);
    for (s = 0; s < STEPS; s++) {
        compute_forces<<<(n + 255) / 256, 256>>>(dp, da, n);
        integrate<<<(n + 255) / 256, 256>>>(dp, dv, da, n);
    }
    cudaMemcpy(hp, dp, n * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaMemcpy(hv, dv, n * sizeof(float4), cudaMemcpyDeviceToHost);

    for (s = 0; s < STEPS; s++) {
        for (i = 0; i < n; i++) {
            float ax = 0, ay = 0, az = 0;
            for (j = 0; j < n; j++) {
                float dx = rp[j].x - rp[i].x, dy = rp[j].y - rp[i].y, dz = rp[j].z - rp[i].z;
                float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
                float inv = 1.0f / sqrtf(r2);
                float f = rp[j].w * inv * inv * inv;
                ax += dx * f;
                ay += dy * f;
                az += dz * f;
            }
            ra[i].x = ax;
            ra[i].y = ay;
            ra[i].z = az;
        }
        for (i = 0; i < n; i++) {
            rv[i].x += ra[i].x * DT;
            rv[i].y += ra[i].y * DT;
            rv[i].z += ra[i].z * DT;
            rp[i].x += rv[i].x * DT;
            rp[i].y += rv[i].y * DT;
            rp[i].z += rv[i].z * DT;
        }
    }
    for (i = 0; i < n; i++) {
        float g[6] = {hp[i].x, hp[i].y, hp[i].z, hv[i].x, hv[i].y, hv[i].z};
        float r[6] = {rp[i].x, rp[i].y, rp[i].z, rv[i].x, rv[i].y, rv[i].z};
        for (j = 0; j < 6; j++)
            if (fabsf(g[j] - r[j]) > 1e-3f * fmaxf(fabsf(r[j]), 1e-2f)) {
                if (bad < 5)
                    printf("body %d component %d: %g, expected %g\n", i, j, g[j], r[j]);
                bad++;
            }
    }
    cudaFree(dp);
    cudaFree(dv);
    cudaFree(da);
    free(hp);
    free(hv);
    free(rp);
    free(rv);
    free(ra);
    if (bad) {
        printf("nbody: FAILED (%d)\n", bad);
        return 1;
    }
    printf("nbody: PASSED\n");
    return 0;
}
