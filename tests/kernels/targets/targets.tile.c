/* targets.tile.c: target specialization (`if (tile_target(...))`, seed
 * 001), checked by main.c on the host and on the GPU.  The .cu is also
 * compiled for sm_75, sm_80 and sm_90a at once (tests/nvcc_check.sh): the
 * tensor-core product sits under tile_provides(TILE_SM_80), which sm_75
 * lacks. */
#include <tilec.h>

/* Writes which branch each target took: 1 on the host, 90 from sm_90 on,
 * 80 for sm_80 .. sm_89 (80 and 86 through tile_is_exactly), 75 before. */
TILE_KERNEL void which_target(TILE_ARRAY(int32_t, 1) out)
{
    int i = tile_bid(0);
    int32_t code = tile_full(int32_t, 0, .shape = {32});
    if (tile_target(tile_is_host)) {
        code = code + 1;
    } else if (tile_target(tile_provides(TILE_SM_90))) {
        code = code + 90;
    } else if (tile_target(tile_is_exactly(TILE_SM_80) | tile_is_exactly(86) | tile_is_exactly(TILE_SM_87) |
                           tile_is_exactly(TILE_SM_89))) {
        code = code + 80;
    } else {
        code = code + 75;
    }
    /* ~ and & : every device before sm_90 adds 1000 (none on the H100) */
    if (tile_target(~tile_provides(TILE_SM_90) & tile_is_device))
        code = code + 1000;
    /* an empty set and the whole set */
    if (tile_target(tile_no_target))
        code = code + 100000;
    if (tile_target(tile_any_target ^ tile_no_target))
        code = code + 10000;
    tile_store(out, code, .index = {i});
}

/* C = A @ B for (M, 16) x (16, N) float16 tiles: tensor cores from sm_80 on,
 * products and a sum over K elsewhere (the host, and sm_75). */
TILE_KERNEL void product(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)
{
    int i = tile_bid(0), j = tile_bid(1);
    _Float16 x = tile_load(a, .index = {i, 0}, .shape = {16, 16}, .padding = TILE_PAD_ZERO);
    _Float16 y = tile_load(b, .index = {0, j}, .shape = {16, 16}, .padding = TILE_PAD_ZERO);
    float acc = tile_zeros(float, .shape = {16, 16});
    if (tile_target(tile_provides(TILE_SM_80) & ~tile_is_host)) {
        acc = tile_mma(x, y, acc);
    } else {
        float xf = tile_cast(tile_reshape(x, .shape = {16, 16, 1}), float);
        float yf = tile_cast(tile_reshape(y, .shape = {1, 16, 16}), float);
        acc = tile_sum(xf * yf, .axis = {1});
    }
    tile_store(c, acc, .index = {i, j});
}

/* The same in SIMT code: 1 on the host, 90 from sm_90 on, 80 before. */
SIMT_KERNEL void which_target_simt(TILE_ARRAY(int32_t, 1) out)
{
    int64_t i = simt_tid(0);
    int32_t code = 0;
    if (tile_target(tile_is_host)) {
        code = 1;
    } else if (tile_target(tile_provides(TILE_SM_90))) {
        code = 90;
    } else {
        code = 80;
    }
    if (tile_target(tile_no_target))
        code = -1;
    if (i < simt_shape(out, 0))
        out[i] = code;
}
