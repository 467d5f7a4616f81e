/* simt.tile.c: SIMT kernels (docs/language.md, "SIMT kernels") checked by
 * main.c on both targets: a shared-memory histogram with atomics, a
 * block-wide inclusive scan with warp shuffles, a transpose through a shared
 * tile of a rank-2 array, warp votes with bit operations, NaN-skipping
 * atomics, and arrays with layouts (SIMT_ALIGN, SIMT_ORDER_F). */
#include <tilec.h>

enum { NBINS = 64, TILE = 32 };

/* Counts values[i] mod NBINS into hist: per-block counters in shared memory,
 * then one global atomic per bin and block (a grid-stride loop). */
SIMT_KERNEL void histogram(TILE_ARRAY(const int32_t, 1) values, TILE_ARRAY(uint32_t, 1) hist)
{
    SIMT_SHARED uint32_t counts[NBINS];
    int t = simt_thread_idx(0);
    int64_t n = simt_shape(values, 0);
    for (int b = t; b < NBINS; b += simt_block_dim(0)) counts[b] = 0;
    simt_syncthreads();
    for (int64_t i = simt_tid(0); i < n; i += simt_grid_size(0)) {
        int v = values[i] % NBINS;
        if (v < 0) v += NBINS;
        simt_atomic_add(&counts[v], 1u, .scope = TILE_SCOPE_BLOCK);
    }
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

/* Inclusive scan of x within each block: warp scans, the warps' totals
 * scanned by warp 0 through shared memory, then added back; totals gets
 * each block's sum. */
SIMT_KERNEL void block_scan(TILE_ARRAY(const int32_t, 1) x, TILE_ARRAY(int64_t, 1) y, TILE_ARRAY(int64_t, 1) totals)
{
    SIMT_SHARED long long warp_sums[32];
    int i = simt_tid(0), t = simt_thread_idx(0);
    int lane = simt_lane_id(), warp = t / simt_warp_size;
    int nwarps = (simt_block_dim(0) + simt_warp_size - 1) / simt_warp_size;
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

/* out = transpose(in) through a padded shared tile: blocks of TILE x 8
 * threads, each moving a TILE x TILE tile with coalesced reads and writes. */
SIMT_KERNEL void transpose(TILE_ARRAY(const float, 2) in, TILE_ARRAY(float, 2) out)
{
    SIMT_SHARED float tile[TILE][TILE + 1];
    int64_t rows = simt_shape(in, 0), cols = simt_shape(in, 1);
    int tx = simt_thread_idx(0), ty = simt_thread_idx(1);
    int64_t c = (int64_t)simt_block_idx(0) * TILE + tx;
    for (int k = ty; k < TILE; k += simt_block_dim(1)) {
        int64_t r = (int64_t)simt_block_idx(1) * TILE + k;
        if (r < rows && c < cols) tile[k][tx] = SIMT_AT(in, r, c);
    }
    simt_syncthreads();
    int64_t oc = (int64_t)simt_block_idx(1) * TILE + tx;
    for (int k = ty; k < TILE; k += simt_block_dim(1)) {
        int64_t orow = (int64_t)simt_block_idx(0) * TILE + k;
        if (orow < cols && oc < rows) SIMT_AT(out, orow, oc) = tile[tx][k];
    }
}

/* Per element: the warp's ballot of x > 0 (masked to live lanes), its
 * population count, and whether all or any lane is positive; bit operations
 * of x; a block-wide count of positives by syncthreads_count. */
SIMT_KERNEL void votes(TILE_ARRAY(const int32_t, 1) x, TILE_ARRAY(uint32_t, 2) out)
{
    int64_t n = simt_shape(x, 0);
    int i = simt_tid(0);
    int v = i < n ? x[i] : 0;
    unsigned ballot = simt_ballot_sync(0xffffffffu, v > 0);
    int all = simt_all_sync(0xffffffffu, v > 0), any = simt_any_sync(0xffffffffu, v > 0);
    int block_pos = simt_syncthreads_count(v > 0);
    int lt = simt_popc(ballot & simt_lanemask_lt());
    int xl = simt_shfl_xor_sync(0xffffffffu, v, 1);
    /* every third warp holds one value (match_all gives the mask, and the
     * predicate w == 1 is uniformly false); the others alternate 0 and 1 */
    int w = (i / 32) % 3 == 0 ? 7 : simt_lane_id() % 2;
    unsigned ma = simt_match_all_sync(0xffffffffu, w);
    int eq = simt_eq_sync(0xffffffffu, w == 1);
    if (i >= n) return;
    SIMT_AT(out, i, 0) = ballot;
    SIMT_AT(out, i, 1) = (unsigned)(all * 2 + any);
    SIMT_AT(out, i, 2) = (unsigned)block_pos;
    SIMT_AT(out, i, 3) = (unsigned)lt;
    SIMT_AT(out, i, 4) = simt_brev((unsigned)v);
    SIMT_AT(out, i, 5) = (unsigned)(simt_clz(v) * 100 + simt_ffs(v));
    SIMT_AT(out, i, 6) = (unsigned)xl;
    SIMT_AT(out, i, 7) = (ma == 0xffffffffu ? 2u : ma == 0 ? 0u : 100u) + (unsigned)eq;
}

/* NaN as a missing value: out[0] and out[1] (NaN at first) become the
 * largest and smallest numbers of x, whatever the NaNs among them; m[0]
 * the largest of k (nanmax of integers is max). */
SIMT_KERNEL void nan_extrema(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) out, TILE_ARRAY(const int32_t, 1) k,
                             TILE_ARRAY(int32_t, 1) m)
{
    int64_t i = simt_tid(0);
    if (i < simt_shape(x, 0)) {
        simt_atomic_nanmax(&out[0], x[i]);
        simt_atomic_nanmin(&out[1], x[i], .memory_order = TILE_SEQ_CST);
    }
    if (i < simt_shape(k, 0))
        simt_atomic_nanmax(&m[0], k[i]);
}

/* Arrays with layouts, per block b of LR x LC threads: x's rows b * LR ...
 * through a 128-byte aligned column-major shared tile, written by rows and
 * read by columns into xt (its transpose); per-block counters in a
 * column-major shared array, 256-byte aligned, updated by atomics; a
 * column-major rank-3 local table and an aligned row-major one, both
 * initialized with brace elision (main.c compares them with the same
 * initializers in C).  out[b] holds the counters, the table times b + 1,
 * the small table and a rank-1 column-major array's sum. */
enum { LR = 4, LC = 40 };
SIMT_KERNEL void layouts(TILE_ARRAY(const int32_t, 2) x, TILE_ARRAY(int32_t, 2) xt, TILE_ARRAY(int64_t, 2) out)
{
    SIMT_SHARED SIMT_ALIGN(128) SIMT_ORDER_F int32_t tile[LR][LC];
    SIMT_SHARED SIMT_ORDER_F SIMT_ALIGN(256) unsigned counts[3][5];
    SIMT_ORDER_F SIMT_ALIGN(64) long long w[2][3][4] = {{{1, 2, 3, 4}, {5, 6}}, 7, 8, 9, 10, 11, 12, -13, 14};
    SIMT_ALIGN(32) short small[3][2] = {{1}, 2, 3};
    SIMT_ORDER_F int line[5] = {0};
    int t = simt_thread_idx(0), b = simt_block_idx(0);
    int r = t / LC, c = t % LC;
    tile[r][c] = SIMT_AT(x, b * LR + r, c);
    if (t < 15) counts[t / 5][t % 5] = 0;
    simt_syncthreads();
    int r2 = t % LR, c2 = t / LR;
    SIMT_AT(xt, c2, b * LR + r2) = tile[r2][c2];
    simt_atomic_add(&counts[t % 3][t % 5], 1u, .scope = TILE_SCOPE_BLOCK);
    for (int k = 0; k < 5; k++) line[k] = k * t;
    simt_syncthreads();
    if (t < 15) {
        SIMT_AT(out, b, t) = counts[t / 5][t % 5];
    } else if (t < 39) {
        int k = t - 15;
        SIMT_AT(out, b, t) = w[k / 12][k / 4 % 3][k % 4] * (b + 1);
    } else if (t < 45) {
        int k = t - 39;
        SIMT_AT(out, b, t) = small[k / 2][k % 2];
    } else if (t == 45) {
        SIMT_AT(out, b, t) = line[0] + line[1] + line[2] + line[3] + line[4];
    }
}
