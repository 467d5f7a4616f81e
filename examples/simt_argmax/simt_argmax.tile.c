/* simt_argmax.tile.c: argmax of a float array with warp collectives (issue
 * #22's "warp-level argmax with match_any/ballot"), checked by main.c on both
 * targets against an exact reference.
 *
 * warp_argmax: each warp finds the maximum of its 32 elements with an
 * xor-shuffle butterfly, then a ballot of the lanes holding it, whose lowest
 * set bit (simt_ffs) is the lowest index: ties go to the lowest index without
 * reducing (value, index) pairs.  match_any groups the lanes by value, which
 * counts the ties.  Each warp's (max, index, ties) is written out, and its
 * max merged into a global maximum by an atomic max.
 *
 * argmax_pick (a second launch, after every warp's max is in): the lowest
 * index among the warps whose max is the global one, by an atomic min, so
 * the result does not depend on the order in which warps ran. */
#include <math.h>
#include <tilec.h>

/* Below every input (inputs are finite): what lanes past the end hold. */
#define NONE -3.0e38f

/* One element per thread; blocks of whole warps.  wmax, widx and wties have
 * one element per warp of the launch (ceil(n / 32)); gmax starts at NONE. */
SIMT_KERNEL void warp_argmax(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) wmax, TILE_ARRAY(int32_t, 1) widx,
                             TILE_ARRAY(int32_t, 1) wties, TILE_ARRAY(float, 1) gmax)
{
    int64_t n = simt_shape(x, 0);
    int i = simt_tid(0), lane = simt_lane_id();
    float v = i < n ? x[i] : NONE;
    /* the butterfly leaves the warp's maximum in every lane */
    float m = v;
    for (int d = 16; d > 0; d /= 2) m = fmaxf(m, simt_shfl_xor_sync(0xffffffffu, m, d));
    unsigned holders = simt_ballot_sync(0xffffffffu, v == m);
    /* lanes with the same value as this lane's; for a holder of the max,
     * exactly the holders (the same set as the ballot's) */
    unsigned same = simt_match_any_sync(0xffffffffu, v);
    int first = simt_ffs(holders) - 1; /* holders is never empty: some lane holds m */
    int w = i / simt_warp_size;
    if (lane == first && i < n) {
        wmax[w] = m;
        widx[w] = i;
        /* -1 would flag a disagreement between match_any and the ballot */
        wties[w] = same == holders ? simt_popc(same) : -1;
        simt_atomic_max(&gmax[0], m);
    }
}

/* One thread per warp result: the lowest index holding the global max.
 * gidx starts at INT32_MAX. */
SIMT_KERNEL void argmax_pick(TILE_ARRAY(const float, 1) wmax, TILE_ARRAY(const int32_t, 1) widx,
                             TILE_ARRAY(const float, 1) gmax, TILE_ARRAY(int32_t, 1) gidx)
{
    int k = simt_tid(0);
    if (k < simt_shape(wmax, 0) && wmax[k] == gmax[0]) simt_atomic_min(&gidx[0], widx[k]);
}
