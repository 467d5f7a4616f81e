/* simt_vs_cuda.cu: times tilec's SIMT histogram and block scan
 * (tests/bench/simt/simt_bench.tile.c, generated into build/bench_simt/ by
 * `tests/bench/simt_vs_cuda.sh prepare`) against the same two algorithms
 * hand-written in CUDA C++ below (issue #22: "within 10% of the same
 * algorithm hand-written in CUDA C++").
 *
 * The CUDA C++ kernels are line-by-line translations of the Tile C ones:
 * same block size and grid, same shared arrays, same block- and
 * device-scope atomics, same shuffles and the same int/int64 index types
 * (simt_tid is an int), written as a CUDA programmer would (raw pointers,
 * atomicAdd_block/atomicAdd, __shfl_up_sync), so the ratio measures what
 * tilec's generated code costs over hand-written code: descriptor strides,
 * cuda::atomic_ref, the launcher's checks.
 *
 * Timing: cudaEvents around one launch, median of REPS runs after WARMUP,
 * tilec and CUDA alternating run by run; before every run a 256 MiB
 * cudaMemsetAsync flushes the L2 (50 MiB on H100) and keeps the GPU busy
 * while the host issues the launch, so launch overhead is not timed.  The
 * histogram's output is zeroed (before the start event) every run.  Both
 * results are compared exactly with each other and with a CPU reference.
 *
 * Usage: simt_vs_cuda [hist_n [scan_n]]   (defaults 64M and 16M elements) */
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "simt_bench.h"

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));      \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)
#define TK(x)                                                                                      \
    do {                                                                                           \
        tilec_status s_ = (x);                                                                     \
        if (s_ != TILEC_OK) {                                                                      \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, tilec_status_string(s_), \
                    tilec_last_error());                                                           \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

enum { NBINS = 256, HIST_BLOCK = 256, HIST_BLOCKS_PER_SM = 8, SCAN_BLOCK = 1024, WARMUP = 3, REPS = 30 };

/* ---- the hand-written CUDA C++ versions ---- */

__global__ void cuda_histogram(const uint32_t *values, int64_t n, uint32_t *hist)
{
    __shared__ uint32_t counts[NBINS];
    int t = threadIdx.x;
    for (int b = t; b < NBINS; b += blockDim.x) counts[b] = 0;
    __syncthreads();
    for (int64_t i = (int)(threadIdx.x + blockIdx.x * blockDim.x); i < n; i += (int)(blockDim.x * gridDim.x))
        atomicAdd_block(&counts[values[i] & (NBINS - 1)], 1u);
    __syncthreads();
    for (int b = t; b < NBINS; b += blockDim.x)
        if (counts[b]) atomicAdd(&hist[b], counts[b]);
}

__device__ __forceinline__ long long cuda_warp_scan(long long v)
{
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d *= 2) {
        long long u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    return v;
}

__global__ void cuda_block_scan(const int32_t *x, int64_t n, int64_t *y, int64_t *totals)
{
    __shared__ long long warp_sums[32];
    int i = threadIdx.x + blockIdx.x * blockDim.x, t = threadIdx.x;
    int lane = t & 31, warp = t / 32;
    int nwarps = blockDim.x / 32;
    long long v = i < n ? x[i] : 0;
    v = cuda_warp_scan(v);
    if (lane == 31) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        long long s = lane < nwarps ? warp_sums[lane] : 0;
        s = cuda_warp_scan(s);
        warp_sums[lane] = s;
    }
    __syncthreads();
    if (warp > 0) v += warp_sums[warp - 1];
    if (i < n) y[i] = v;
    if (t == blockDim.x - 1) totals[blockIdx.x] = v;
}

/* ---- timing ---- */

static void *flush_buf;
static const size_t FLUSH_BYTES = 256u << 20;

/* Median microseconds of REPS timed runs of each of two launches (run by
 * run alternating), each after `before` (untimed) and the L2 flush. */
template <class Before, class A, class B>
static void time_pair(Before before, A a, B b, double *ua, double *ub)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ta, tb;
    for (int r = 0; r < WARMUP + REPS; r++) {
        for (int which = 0; which < 2; which++) {
            before();
            CK(cudaMemsetAsync(flush_buf, r & 0xff, FLUSH_BYTES));
            CK(cudaEventRecord(e0));
            if (which == 0) a();
            else b();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= WARMUP) (which == 0 ? ta : tb).push_back(ms * 1000.0f);
        }
    }
    std::sort(ta.begin(), ta.end());
    std::sort(tb.begin(), tb.end());
    *ua = ta[ta.size() / 2], *ub = tb[tb.size() / 2];
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

static int failures;
static void row(const char *kernel, double ut, double uc, double bytes, bool same)
{
    printf("| %-34s | %9.1f | %9.1f | %5.3f | %7.0f | %7.0f | %s |\n", kernel, ut, uc, ut / uc, bytes / ut / 1e3,
           bytes / uc / 1e3, same ? "exact" : "DIFFER");
    if (!same) failures++;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    const int64_t hn = argc > 1 ? atoll(argv[1]) : 64ll << 20, sn = argc > 2 ? atoll(argv[2]) : 16ll << 20;
    int dev, sms;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    CK(cudaMalloc(&flush_buf, FLUSH_BYTES));
    printf("%s, %d SMs; median of %d runs after %d, L2 flushed (256 MiB memset) before each run\n\n", prop.name, sms,
           REPS, WARMUP);
    printf("| %-34s | %9s | %9s | %5s | %7s | %7s | %s |\n", "kernel", "tilec us", "CUDA us", "ratio", "tilec GB/s",
           "CUDA GB/s", "results");
    printf("|------------------------------------|-----------|-----------|-------|---------|---------|-------|\n");

    /* histogram: hn random uint32 into 256 bins; traffic = the values read once */
    {
        std::vector<uint32_t> v(hn);
        std::vector<uint32_t> want(NBINS, 0), gt(NBINS), gc(NBINS);
        for (int64_t i = 0; i < hn; i++) want[(v[i] = (uint32_t)(next_u64() >> 32)) & (NBINS - 1)]++;
        uint32_t *dv, *dht, *dhc;
        CK(cudaMalloc(&dv, 4 * hn));
        CK(cudaMalloc(&dht, 4 * NBINS));
        CK(cudaMalloc(&dhc, 4 * NBINS));
        CK(cudaMemcpy(dv, v.data(), 4 * hn, cudaMemcpyHostToDevice));
        tilec_array V = tilec_array_1d(dv, TILEC_UINT32, hn), H = tilec_array_1d(dht, TILEC_UINT32, NBINS);
        unsigned grid = (unsigned)(sms * HIST_BLOCKS_PER_SM);
        double ut, uc;
        time_pair(
            [&] {
                CK(cudaMemsetAsync(dht, 0, 4 * NBINS));
                CK(cudaMemsetAsync(dhc, 0, 4 * NBINS));
            },
            [&] { TK(histogram(NULL, tilec_grid{grid, 1, 1}, tilec_grid{HIST_BLOCK, 1, 1}, 0, &V, &H)); },
            [&] {
                cuda_histogram<<<grid, HIST_BLOCK>>>(dv, hn, dhc);
                CK(cudaGetLastError());
            },
            &ut, &uc);
        /* the timing's `before` zeroes both outputs before either kernel, so
         * the counts are checked from one more run of each */
        CK(cudaMemset(dht, 0, 4 * NBINS));
        CK(cudaMemset(dhc, 0, 4 * NBINS));
        TK(histogram(NULL, tilec_grid{grid, 1, 1}, tilec_grid{HIST_BLOCK, 1, 1}, 0, &V, &H));
        cuda_histogram<<<grid, HIST_BLOCK>>>(dv, hn, dhc);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(gt.data(), dht, 4 * NBINS, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(gc.data(), dhc, 4 * NBINS, cudaMemcpyDeviceToHost));
        char name[80];
        snprintf(name, sizeof name, "histogram %lldM u32, %d bins", (long long)(hn >> 20), NBINS);
        row(name, ut, uc, 4.0 * hn, gt == want && gc == want);
        CK(cudaFree(dv));
        CK(cudaFree(dht));
        CK(cudaFree(dhc));
    }

    /* block scan: sn int32 -> int64 per block of 1024, plus block totals;
     * traffic = 4 bytes read + 8 written per element (+ the totals) */
    {
        const int64_t nblk = (sn + SCAN_BLOCK - 1) / SCAN_BLOCK;
        std::vector<int32_t> x(sn);
        std::vector<int64_t> want(sn), wtot(nblk), yt(sn), yc(sn), tt(nblk), tc(nblk);
        for (int64_t i = 0; i < sn; i++) x[i] = (int32_t)(next_u64() >> 33) - (1 << 30);
        for (int64_t b = 0; b < nblk; b++) {
            int64_t s = 0;
            for (int64_t i = b * SCAN_BLOCK; i < (b + 1) * SCAN_BLOCK && i < sn; i++) want[i] = s += x[i];
            wtot[b] = s;
        }
        int32_t *dx;
        int64_t *dyt, *dyc, *dtt, *dtc;
        CK(cudaMalloc(&dx, 4 * sn));
        CK(cudaMalloc(&dyt, 8 * sn));
        CK(cudaMalloc(&dyc, 8 * sn));
        CK(cudaMalloc(&dtt, 8 * nblk));
        CK(cudaMalloc(&dtc, 8 * nblk));
        CK(cudaMemcpy(dx, x.data(), 4 * sn, cudaMemcpyHostToDevice));
        tilec_array X = tilec_array_1d(dx, TILEC_INT32, sn), Y = tilec_array_1d(dyt, TILEC_INT64, sn),
                    T = tilec_array_1d(dtt, TILEC_INT64, nblk);
        double ut, uc;
        time_pair([] {},
                  [&] {
                      TK(block_scan(NULL, tilec_grid{(unsigned)nblk, 1, 1}, tilec_grid{SCAN_BLOCK, 1, 1}, 0, &X, &Y, &T));
                  },
                  [&] {
                      cuda_block_scan<<<(unsigned)nblk, SCAN_BLOCK>>>(dx, sn, dyc, dtc);
                      CK(cudaGetLastError());
                  },
                  &ut, &uc);
        CK(cudaMemcpy(yt.data(), dyt, 8 * sn, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(yc.data(), dyc, 8 * sn, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(tt.data(), dtt, 8 * nblk, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(tc.data(), dtc, 8 * nblk, cudaMemcpyDeviceToHost));
        char name[80];
        snprintf(name, sizeof name, "block scan %lldM i32->i64, block %d", (long long)(sn >> 20), SCAN_BLOCK);
        row(name, ut, uc, 12.0 * sn + 8.0 * nblk, yt == want && yc == want && tt == wtot && tc == wtot);
        CK(cudaFree(dx));
        CK(cudaFree(dyt));
        CK(cudaFree(dyc));
        CK(cudaFree(dtt));
        CK(cudaFree(dtc));
    }
    printf("\nratio = tilec / CUDA (below 1.10 meets issue #22's bar); GB/s = the kernel's DRAM traffic / time\n");
    CK(cudaFree(flush_buf));
    if (failures) fprintf(stderr, "simt_vs_cuda: %d kernel(s) disagree with the reference\n", failures);
    return failures ? 1 : 0;
}
