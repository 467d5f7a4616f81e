// extern.cu: the CUDA C++ side of interop.tile.c's TILE_EXTERN functions,
// compiled with -rdc=true and linked with the generated kernels.
#include <cstdint>

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
