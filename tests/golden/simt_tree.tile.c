/* simt_tree.tile.c: golden dumps of SIMT code (--emit=ast, typed, tir):
 * every kind of statement and expression of the SIMT tree, builtins with
 * their axis, dimension, memory order and scope, shared, dynamic and laid
 * out arrays, a target if, an interoperable function and a tile kernel
 * beside them. */
#include <math.h>
#include <tilec.h>

/* The clamped element i of t, scaled: exported to CUDA C++ (and C). */
SIMT_INTEROP SIMT_FUNC float scaled_at(TILE_ARRAY(const float, 1) t, int64_t i, float s)
{
    int64_t n = simt_shape(t, 0);
    return t[i < 0 ? 0 : i >= n ? n - 1 : i] * s;
}

SIMT_FUNC unsigned bits(unsigned x)
{
    unsigned r = 0;
    do {
        r += (unsigned)simt_popc(x & 0xffu);
        x >>= 8;
    } while (x != 0);
    return r + simt_brev(x);
}

SIMT_KERNEL void tree(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 1) out, TILE_ARRAY(unsigned, 1) hist, int n)
{
    SIMT_SHARED SIMT_ALIGN(64) SIMT_ORDER_F float tile[4][8];
    SIMT_SHARED int count;
    SIMT_SHARED extern double dyn[];
    SIMT_ORDER_F short w[2][2] = {1, 2, 3};
    const int t = simt_thread_idx(0), y = simt_thread_idx(1);
    int i = simt_tid(0) + simt_grid_size(1) * 0;
    if (t == 0 && y == 0) count = 0;
    tile[y % 4][t % 8] = SIMT_AT(a, y, t);
    dyn[t] = (double)i;
    simt_syncthreads();
    int k = 0;
    while (k < 4) {
        k++;
        if (k == 2) continue;
        if (k > n) break;
        ;
    }
    for (int j = 0; j < 2; j += 1) i += w[j][j];
    float v = tile[y % 4][t % 8] + (float)sqrt(dyn[t]) + scaled_at(out, i, 0.5f);
    if (tile_target(tile_provides(TILE_SM_80) | tile_is_host)) {
        v = fmaxf(v, 0.0f);
    } else {
        v = -v;
    }
    int old = simt_atomic_add(&count, 1, .memory_order = TILE_ACQ_REL, .scope = TILE_SCOPE_BLOCK);
    simt_atomic_max(&hist[old % 16], bits((unsigned)i), .scope = TILE_SCOPE_SYSTEM);
    unsigned m = simt_ballot_sync(simt_activemask(), v > 0.0f);
    v += simt_shfl_down_sync(m, v, 1u);
    if (i < simt_shape(out, 0)) out[i] = k % 2 ? v : (float)simt_lane_id() + (float)simt_block_idx(2);
}

/* A tile kernel beside them: printed first. */
TILE_KERNEL void scale(TILE_ARRAY(float, 1) x)
{
    float v = tile_load(x, .index = {tile_bid(0)}, .shape = {16});
    tile_store(x, v * 2.0f, .index = {tile_bid(0)});
}
