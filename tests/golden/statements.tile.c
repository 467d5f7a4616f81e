/* statements.tile.c: every statement kind, operators, options, constants. */
#include <tilec.h>

#define TILE 64
enum { HALF = TILE / 2 };
static const int SCALE = 3;

TILE_FUNC float clampf(float x, float lo, float hi)
{
    float r = tile_minimum(tile_maximum(x, lo), hi);
    return r;
}

/* Exercises if/else, for with continue and break, while, compound
 * assignment, ternaries, casts and every C operator. */
TILE_KERNEL void statements(TILE_ARRAY(const float, 2) x, TILE_ARRAY(int32_t, 1) bits,
                            TILE_ARRAY(float, 2) y, float alpha, TILE_CONST(int, 1, 2) MODE)
{
    int i = tile_bid(0);
    int n = tile_num_blocks(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {2, TILE}, .order = {0, 1},
                        .padding = TILE_PAD_ZERO);
    float acc = tile_zeros(float, .shape = {2, TILE});
    for (int k = 0; k < SCALE; k++) {
        if (k == 1) continue;
        acc += t * alpha;
        if (k > 5) break;
    }
    int j = 0;
    while (j < n && j < 4) j++;
    if (MODE == 2) {
        acc = -acc;
    } else {
        acc = acc > 0 ? acc : 0.5f * acc;
    }
    int32_t r = tile_arange(int32_t, .shape = {HALF});
    int32_t b = (r << 2 | r >> 1) ^ (r & 7) % 5;
    bool m = !(r < 3) && (r != 9 || r >= 1);
    tile_store(bits, tile_where(m, b, ~b), .index = {i});
    tile_store(y, clampf(acc, -1.0f, (float)j), .index = {i, 0});
}
