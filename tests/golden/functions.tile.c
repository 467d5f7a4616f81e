/* functions.tile.c: tile functions (nested, called with different shapes,
 * scalar and tile parameters), auto and const declarations, every compound
 * assignment, increments and the unary operators. */
#include <tilec.h>

TILE_FUNC float square(float x)
{
    return x * x;
}

/* Calls another tile function; the result's shape follows the argument. */
TILE_FUNC float norm2(float x, float eps)
{
    auto s = square(x) + eps;
    return tile_sqrt(s);
}

TILE_FUNC int32_t bump(int32_t v, int32_t by)
{
    int32_t r = v;
    r += by;
    return r;
}

TILE_KERNEL void functions(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y,
                           TILE_ARRAY(int32_t, 1) z, float eps)
{
    int i = tile_bid(0);
    float row = tile_load(x, .index = {i, 0}, .shape = {1, 16});
    float blk = tile_load(x, .index = {i, 0}, .shape = {8, 16});
    const float a = norm2(row, eps);
    float b = norm2(blk, 0.5f);
    b = b + a;
    int32_t v = tile_arange(int32_t, .shape = {16});
    v += 3;
    v -= 1;
    v *= 2;
    v /= 3;
    v %= 7;
    v <<= 1;
    v >>= 1;
    v &= 255;
    v |= 1;
    v ^= 2;
    int n = 0;
    n++;
    ++n;
    n--;
    --n;
    v = bump(v, n);
    v = -v + +v;
    v = ~v;
    bool neg = !(v > 0);
    tile_store(z, neg ? v : -v, .index = {i});
    tile_store(y, b, .index = {i, 0});
}
