/* bcast_rows.tile.c: row vectors broadcast over tiles of several rows, the
 * shape of a layer norm's weight and bias when a block normalises BM rows.
 * On the GPU, with 256 threads and 4-element vectors (8 for rows_half's
 * 16-bit elements), a (4, 1024) tile puts column c of every row in the
 * thread that holds element c of a (1024) tile, so those operands are read
 * from registers (no shared-memory mirror); the (4, 256) tile of rows_narrow
 * does not (its threads split rows differently) and goes through the mirror.
 * All must give the same values.  M need not be a multiple of the rows per
 * block: the last block's missing rows read as zero and are not stored. */
#include <tilec.h>

TILE_KERNEL void rows_wide(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const float, 1) w, TILE_ARRAY(const float, 1) b,
                           TILE_ARRAY(const float, 2) r, TILE_ARRAY(float, 3) y)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {4, 1024});
    float wt = tile_load(w, .index = {0}, .shape = {1024});
    float bt = tile_load(b, .index = {0}, .shape = {1024});
    float rt = tile_load(r, .index = {0, 0}, .shape = {1, 1024}); /* a rank-2 row */
    /* y[0]: x * w + b;  y[1]: x - r;  y[2]: a row
     * expression (w * 2 + b, not materialised) times x;  y[3]: a layer
     * norm of each row with weight w and bias b. */
    tile_store(y, tile_expand_dims(t * wt + bt, .axis = 0), .index = {0, i, 0});
    tile_store(y, tile_expand_dims(t - rt, .axis = 0), .index = {1, i, 0});
    tile_store(y, tile_expand_dims((wt * 2.0f + bt) * t, .axis = 0), .index = {2, i, 0});
    float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / 1024);
    float d = t - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / 1024);
    tile_store(y, tile_expand_dims(d * tile_rsqrt(var + 1e-5f) * wt + bt, .axis = 0), .index = {3, i, 0});
}

TILE_KERNEL void rows_narrow(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const float, 1) w, TILE_ARRAY(float, 2) y)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {4, 256});
    float wt = tile_load(w, .index = {0}, .shape = {256});
    tile_store(y, t * wt + wt, .index = {i, 0});
}

TILE_KERNEL void rows_half(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) h, TILE_ARRAY(_Float16, 2) y)
{
    int i = tile_bid(0);
    _Float16 t = tile_load(x, .index = {i, 0}, .shape = {2, 2048});
    _Float16 ht = tile_load(h, .index = {0}, .shape = {2048});
    tile_store(y, tile_cast(t * 0.5f + ht, _Float16), .index = {i, 0});
}
