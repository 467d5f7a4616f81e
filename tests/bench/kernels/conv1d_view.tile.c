/* conv1d_view.tile.c: examples/conv1d's kernel (a causal 1-D convolution, seed 004), written
 * as the matrix product it is: y[n] = w @ im2col(x[n]).
 * Seed 004 runs it on the host as three passes: transpose x from (N, ci, hi)
 * to (N, hi, ci), pad and unfold it into im2col rows of k * ci values, then
 * multiply by the (k ci, co) weight matrix.  Here both operands are views
 * (docs/language.md, "Views"), so nothing is copied or unfolded in memory:
 *   xc = tile_view_im2col(x, .size = {KW}, .low = {KW - 1}) is x seen as
 *        (N, ci*KW, hi), xc[n, c*KW + j, t] = x[n, c, t + j - (KW - 1)]
 *        (zero before the start: the causal padding);
 *   wm = the rank-3 weights (co, ci, KW) seen as the matrix (co, ci*KW),
 *        wm[o, c*KW + j] = w[o, c, j], the same nesting (tap fastest): the
 *        im2col of w itself with a window as long as w's last axis, which
 *        has one output position, so wm is (co, ci*KW, 1).  (A layout
 *        "(_,(KW,_)):(1@0,(1@2,1@1))" would say the same, but the layout is
 *        a string literal and cannot name the TILE_CONST KW.)
 * Each block walks the ci*KW axis in BK-wide chunks, loading a (CO, BK)
 * tile of wm and a (BK, BT) tile of xc[n] and letting the tensor cores add
 * their product into a float32 accumulator; elements past the end of either
 * view read zero, so ragged sizes need no special case.  The im2col matrix
 * is never written anywhere: each load reads x straight from its own
 * memory at the addresses the view computes, and y is written once.
 *
 * y[n, o, t] = sum over j < KW, c < ci of w[o, c, j] * x[n, c, t + j - (KW - 1)]
 *
 * Grid: (ceil(hi / BT), ceil(co / CO), N). */
#include <tilec.h>

TILE_KERNEL void conv1d_view(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(const _Float16, 3) w,
                               TILE_ARRAY(_Float16, 3) y, TILE_CONST(int, 2, 4) KW, TILE_CONST(int, 64) CO,
                               TILE_CONST(int, 32, 64) BK, TILE_CONST(int, 64, 128) BT)
{
    /* (N, ci*KW, hi): the causal im2col of x, tap fastest within a channel */
    TILE_VIEW(const _Float16, 3) xc = tile_view_im2col(x, .size = {KW}, .low = {KW - 1});
    /* (co, ci*KW, 1): w's last two axes merged into one nested mode (KW
     * fastest), as the im2col of w with a window the size of w's last axis,
     * whose one output position is the whole row */
    TILE_VIEW(const _Float16, 3) wm = tile_view_im2col(w, .size = {KW});
    int64_t tb = tile_bid(0), ob = tile_bid(1), n = tile_bid(2);
    float acc = tile_zeros(float, .shape = {CO, BT});
    int64_t nk = (tile_dim(xc, 1) + BK - 1) / BK;
    for (int64_t kb = 0; kb < nk; kb++) {
        _Float16 a = tile_reshape(tile_load(wm, .index = {ob, kb, 0}, .shape = {CO, BK, 1}, .padding = TILE_PAD_ZERO),
                                  .shape = {CO, BK});
        _Float16 b = tile_reshape(tile_load(xc, .index = {n, kb, tb}, .shape = {1, BK, BT}, .padding = TILE_PAD_ZERO),
                                  .shape = {BK, BT});
        acc = tile_mma(a, b, acc);
    }
    tile_store(y, tile_reshape(tile_cast(acc, _Float16), .shape = {1, CO, BT}), .index = {n, ob, tb});
}
