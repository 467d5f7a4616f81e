/* simt_bench.tile.c: the SIMT histogram and block scan that
 * tests/bench/simt_vs_cuda.cu times against the same algorithms written in
 * CUDA C++ (issue #22: "within 10% of the same algorithm hand-written in
 * CUDA C++").  The kernels are tests/kernels/simt's, sized for the benchmark:
 * 256 bins of unsigned values (a mask, not a signed modulo), and the scan of
 * int32 into int64.  Kept out of tests/bench/kernels/, whose files
 * prepare.sh compiles with --python for bench.py (SIMT kernels have no
 * Python bindings); tests/bench/simt_vs_cuda.sh prepare generates it.  Any
 * change here must be mirrored in simt_vs_cuda.cu's CUDA C++ versions. */
#include <tilec.h>

enum { NBINS = 256 };

/* Counts values[i] & (NBINS-1) into hist (which the caller zeroes):
 * per-block counters in shared memory, then one global atomic per bin and
 * block; a grid-stride loop, so the grid is sized to the GPU, not the data. */
SIMT_KERNEL void histogram(TILE_ARRAY(const uint32_t, 1) values, TILE_ARRAY(uint32_t, 1) hist)
{
    SIMT_SHARED uint32_t counts[NBINS];
    int t = simt_thread_idx(0);
    int64_t n = simt_shape(values, 0);
    for (int b = t; b < NBINS; b += simt_block_dim(0)) counts[b] = 0;
    simt_syncthreads();
    for (int64_t i = simt_tid(0); i < n; i += simt_grid_size(0))
        simt_atomic_add(&counts[values[i] & (NBINS - 1)], 1u, .scope = TILE_SCOPE_BLOCK);
    simt_syncthreads();
    for (int b = t; b < NBINS; b += simt_block_dim(0))
        if (counts[b]) simt_atomic_add(&hist[b], counts[b]);
}

/* The warp's inclusive prefix sum of v: shfl_up by 1, 2, 4, 8, 16. */
SIMT_FUNC long long warp_scan(long long v)
{
    int lane = simt_lane_id();
    for (int d = 1; d < simt_warp_size; d *= 2) {
        long long u = simt_shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    return v;
}

/* Inclusive scan of x within each block (whole warps, at most 1024
 * threads): warp scans, the warps' totals scanned by warp 0 through shared
 * memory, then added back; totals gets each block's sum. */
SIMT_KERNEL void block_scan(TILE_ARRAY(const int32_t, 1) x, TILE_ARRAY(int64_t, 1) y, TILE_ARRAY(int64_t, 1) totals)
{
    SIMT_SHARED long long warp_sums[32];
    int i = simt_tid(0), t = simt_thread_idx(0);
    int lane = simt_lane_id(), warp = t / simt_warp_size;
    int nwarps = simt_block_dim(0) / simt_warp_size;
    int64_t n = simt_shape(x, 0);
    long long v = i < n ? x[i] : 0;
    v = warp_scan(v);
    if (lane == simt_warp_size - 1) warp_sums[warp] = v;
    simt_syncthreads();
    if (warp == 0) {
        long long s = lane < nwarps ? warp_sums[lane] : 0;
        s = warp_scan(s);
        warp_sums[lane] = s;
    }
    simt_syncthreads();
    if (warp > 0) v += warp_sums[warp - 1];
    if (i < n) y[i] = v;
    if (t == simt_block_dim(0) - 1) totals[simt_block_idx(0)] = v;
}
