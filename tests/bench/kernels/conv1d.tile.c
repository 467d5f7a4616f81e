/* conv1d.tile.c: seed 004's causal conv1d in one kernel, the way
 * examples/conv1d wrote it before views: for each tap j the (ci, BT)
 * window of x starting at t0 + j - (KW - 1) is gathered element by element
 * (tile_gather, zeros before the start and past the end) and the tensor
 * cores add w[:, :, j] @ window into a float32 accumulator.  Kept as the
 * benchmark's "tilec" row, the baseline of conv1d_tuned.tile.c (the same
 * algorithm with a tuned launcher) and of conv1d_view.tile.c (today's
 * example, through views).
 *
 * y[n, o, t] = sum over j < KW, c < ci of w[o, c, j] * x[n, c, t + j - (KW - 1)]
 *
 * Grid: (ceil(ho / BT), ceil(co / CO), N); ci is walked in CI-wide steps.
 * conv1d_tuned.tile.c includes this file with CONV1D_STEP = TILE_TUNABLE. */
#include <tilec.h>

#ifndef CONV1D_NAME
#define CONV1D_NAME conv1d_causal
#define CONV1D_STEP TILE_CONST /* CI and BT: compiled for each listed value, chosen by the caller */
#endif

TILE_KERNEL void CONV1D_NAME(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(const _Float16, 3) w,
                               TILE_ARRAY(_Float16, 3) y, TILE_CONST(int, 2, 4) KW, TILE_CONST(int, 64) CO,
                               CONV1D_STEP(int, 32, 64) CI, CONV1D_STEP(int, 64, 128) BT)
{
    int64_t tb = tile_bid(0), ob = tile_bid(1), n = tile_bid(2);
    int64_t o = tile_reshape(tile_arange(int64_t, .shape = {CO}), .shape = {CO, 1}) + ob * CO;
    int64_t cc = tile_arange(int64_t, .shape = {CI});
    int64_t t = tile_reshape(tile_arange(int64_t, .shape = {BT}), .shape = {1, BT}) + tb * BT;
    float acc = tile_zeros(float, .shape = {CO, BT});
    int64_t nc = (tile_dim(x, 1) + CI - 1) / CI;
    for (int64_t cb = 0; cb < nc; cb++) {
        int64_t c = cc + cb * CI;
        for (int j = 0; j < KW; j++) {
            /* w[o, c, j] as a (CO, CI) tile; x[n, c, t + j - (KW - 1)] as (CI, BT) */
            _Float16 wj = tile_gather(w, .index = {o, tile_reshape(c, .shape = {1, CI}), j}, .padding = TILE_PAD_ZERO);
            _Float16 xj = tile_gather(x, .index = {n, tile_reshape(c, .shape = {CI, 1}), t + (j - (KW - 1))},
                                      .padding = TILE_PAD_ZERO);
            acc = tile_mma(wj, xj, acc);
        }
    }
    tile_store(y, tile_reshape(tile_cast(acc, _Float16), .shape = {1, CO, BT}), .index = {n, ob, tb});
}
