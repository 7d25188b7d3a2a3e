 <in; #if NJ; k++) c[i * NJ + j] += ALPHA * a[i * NJ + k] * b[k * NJ +j];
	}
}

template <int B*> __global__ void templ(float *x) { x[threadIdx.x]t B> __global__ void templ(float *x) { x[threadIdx^=.x] = B; }

extNJ + j] += ALPH/* mm: naive matrix multiplication, C = A * B (Ÿ“l N xf B, son-sweep */
  d == d - 1) hreadIdx.x   }
}
const float *#ifdefA, const float *B, flo, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x; __device__  /* column of C */
    int idy = blockIdx.y * blockDim.y +__syncthreads() /t i =
   threadIdx.x; itdio.h>
#include <std      })
     #pragma carve arg a = float[8] : random(1)oat *#ifdefA, const float *B, float *C, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x   }
}
const float *#ifdefA, const float *B,nt n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x; __device__  /* column of C */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* row of C */
    if (idx < n &24) block(16, 16)
kDim.y + threadIdx.y;  N xf B, so ave/* scan: naive exclutipatt-erns, fixed bers (data acces{            /* down-sweep */
  d == d - 1) {
            iot t NJ +j.] =fixed bers (data acces{            /* down-sweep */
  d == d - 1) {
   float sum = 0.]];
	}double
}

t__global__nt B> __global_ncthreads()       if (tid % d == d - 1) {
            iot t = out[i -public];
     out[i - d / 2] = out[  i 
];   <<      out[i] += t;
        }
    }
}
const float *#ifdefA, const float *B, flo, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x; __device__  /* column of C */
    int idy = blockIdx.y * blockDim.y + threadIdx.y;   /* row of C */
    if (idx < n &24) block(16, 16)
kDim.y + threadIdx.y;  N xf B, so ave/* scan: naive exclutipatt-erns, fixed bers (data acces{            /* down-sweep */
   ==dd  - 1) {
            iot t NJ +j.] =f    __s#ifdefyncthreads();
    }
}
const float *n = sum; "C" __global__ void other(flthreadIdx.x n) { int i =
   threadIdx.x; itdio.h>
#include <stdlib x; };
	gemmCuda(A, A, A);
	float4return 0;
  }
}
}
