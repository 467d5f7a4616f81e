/* conv1d_tuned.tile.c: the causal conv1d of examples/conv1d (seed 004's
 * transpose + pad + im2col + GEMM in one kernel: the im2col windows gathered
 * from x and multiplied on tensor cores) with the channel step CI and the
 * time block BT tunable: the launcher picks them from the tuning table and
 * works out the grid (ceil(ho / BT), ceil(co / CO), N) from y.  The first
 * listed values (CI 32, BT 64) are the untuned default.  bench.py times it
 * beside the fastest of conv1d.tile.c's variants picked by hand. */
#include <tilec.h>

TILE_KERNEL void conv1d_causal_tuned(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(const _Float16, 3) w,
                                     TILE_ARRAY(_Float16, 3) y, TILE_CONST(int, 2, 4) KW, TILE_CONST(int, 64) CO,
                                     TILE_TUNABLE(int, 32, 64) CI, TILE_TUNABLE(int, 64, 128) BT)
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
            _Float16 wj = tile_gather(w, .index = {o, tile_reshape(c, .shape = {1, CI}), j}, .padding = TILE_PAD_ZERO);
            _Float16 xj = tile_gather(x, .index = {n, tile_reshape(c, .shape = {CI, 1}), t + (j - (KW - 1))},
                                      .padding = TILE_PAD_ZERO);
            acc = tile_mma(wj, xj, acc);
        }
    }
    tile_store(y, tile_reshape(tile_cast(acc, _Float16), .shape = {1, CO, BT}), .index = {n, ob, tb});
}
