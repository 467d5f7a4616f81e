/* constants.tile.c: compile-time constants of every kind: literals in all
 * bases, enum values, #define expressions, const globals, TILE_CONST
 * parameters with several values (one typed dump per specialization), and
 * folding through casts, shifts, ternaries and comparisons.  The rank of
 * x and the values of R come through macros. */
#include <tilec.h>

#define BASE 8
#define WIDE (BASE * 4)
enum sizes { SMALL = 2, LARGE = SMALL << 3 };
static const int ROWS = 4;
static const float GAIN = 1.5f;
#define RANK_X 2
#define R_VALUES 1, 2

TILE_KERNEL void constants(TILE_ARRAY(const float, RANK_X) x, TILE_ARRAY(float, 2) y,
                           TILE_ARRAY(int64_t, 1) w, TILE_CONST(int, 16, 32) BN,
                           TILE_CONST(int32_t, R_VALUES) R)
{
    int i = tile_bid(0);
    const int half = BN / 2;
    int cols = (BN > 16 ? BN : 2 * BN) >> 1;
    float t = tile_load(x, .index = {i, 0}, .shape = {ROWS * R, half + cols - BN / 2},
                        .padding = TILE_PAD_NAN);
    float u = t * GAIN + 0x10 + 010 + 'a' + 1e-3f + .25;
    tile_store(y, u, .index = {i, 0});
    int64_t big = (int64_t)1 << 40;
    int64_t v = tile_full(int64_t, big, .shape = {WIDE % 7 == 4 ? LARGE : SMALL});
    bool flag = true && !false;
    tile_store(w, flag ? v + 4000000000 : v - 1u, .index = {i});
}
