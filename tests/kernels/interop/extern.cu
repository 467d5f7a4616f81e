// extern.cu: the CUDA C++ side of interop.tile.c, compiled with -rdc=true
// and linked with the generated kernels: the TILE_EXTERN functions'
// definitions, a CUDA C++ kernel that calls the SIMT_INTEROP function
// table_at, and a launch of the SIMT kernel `shifted` by cudaLaunchKernel.
#include <cstdint>

#include "interop.h"

extern "C" __device__ float softplus(float x)
{
    return x > 20.0f ? x : log1pf(expf(x));
}

extern "C" __device__ double affine(int32_t a, double x, double b)
{
    return a * x + b;
}

extern "C" __device__ int32_t collatz_steps(int64_t n)
{
    int32_t s = 0;
    while (n != 1 && s < 1000) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        s++;
    }
    return s;
}

// CUDA C++ calling Tile C: out[i] = table_at(table, i + 5).
__global__ void cxx_gather(tilec_array table, float *out, int64_t n)
{
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = table_at(table, i + 5);
}

extern "C" int cxx_gather_launch(const tilec_array *table, float *out, int64_t n)
{
    cxx_gather<<<(unsigned)((n + 127) / 128), 128>>>(*table, out, n);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The SIMT kernel launched without its launcher: the documented layout is
// one argument per parameter, tilec_array by value for arrays.
extern "C" int cxx_launch_shifted(const tilec_array *table, const tilec_array *out, int64_t n)
{
    tilec_array t = *table, o = *out;
    void *args[] = {&t, &o};
    return cudaLaunchKernel(tilec_kernel_shifted(), dim3((unsigned)((n + 127) / 128)), dim3(128), args, 0, 0) ==
                   cudaSuccess
               ? 0
               : 1;
}
