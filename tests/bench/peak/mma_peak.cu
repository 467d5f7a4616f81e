// mma_peak.cu: the tensor-core ceiling of mma.sync (m16n8k16, bfloat16 in,
// float32 accumulate) on this GPU: every warp issues independent products on
// register operands only, no memory traffic.  The fraction of cuBLAS that a
// kernel built on mma.sync (tilec's tile_mma) can reach is bounded by this.
// Build and run: nvcc -O3 -arch=sm_90 -o mma_peak mma_peak.cu && ./mma_peak
#include <cstdio>
#include <cuda_runtime.h>

template <int CHAINS> __global__ void __launch_bounds__(128) peak(float *out, int iters)
{
    unsigned a[4] = {threadIdx.x, threadIdx.x ^ 1u, threadIdx.x ^ 2u, threadIdx.x ^ 3u}, b[2] = {threadIdx.x * 3u, 7u};
    float c[CHAINS][4] = {};
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int k = 0; k < CHAINS; ++k)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                         "{%0,%1,%2,%3};\n"
                         : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    float s = 0;
    for (int k = 0; k < CHAINS; ++k) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int CHAINS> static void run(int sms, int blocks_per_sm)
{
    const int iters = 4096, blocks = sms * blocks_per_sm, threads = 128;
    float *out;
    cudaMalloc(&out, sizeof(float) * blocks * threads);
    peak<CHAINS><<<blocks, threads>>>(out, iters);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    cudaEventRecord(e0);
    peak<CHAINS><<<blocks, threads>>>(out, iters);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    double flops = 2.0 * 16 * 8 * 16 * (double)iters * CHAINS * (blocks * threads / 32);
    printf("mma.sync m16n8k16 bf16: %d independent chains per warp, %d warps per SM: %.1f TFLOP/s\n", CHAINS,
           blocks_per_sm * threads / 32, flops / (ms * 1e-3) / 1e12);
    cudaFree(out);
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    run<4>(p.multiProcessorCount, 2);
    run<8>(p.multiProcessorCount, 2);
    run<8>(p.multiProcessorCount, 4);
    return 0;
}
