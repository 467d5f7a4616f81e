/* rgb_gray.tile.c: RGB to grayscale with zero padding (seed 000's image
 * processing example), gray = 0.299 R + 0.587 G + 0.114 B, on images whose
 * size is not a multiple of the tile: out-of-bounds pixels read zero and are
 * never written.
 * rgb_to_gray: an interleaved (H, W, 3) uint8 image, one (16, 32, 4) tile per
 * block (the 4th channel is padding), weighted and summed over the channel
 * axis, rounded to uint8.
 * planar_to_gray: a planar (3, H, W) float image (any strides: the
 * application passes an interleaved buffer as a planar view), three
 * (1, 16, 32) loads combined by a tile function, as in the seed. */
#include <tilec.h>

TILE_KERNEL void rgb_to_gray(TILE_ARRAY(const uint8_t, 3) rgb, TILE_ARRAY(uint8_t, 2) gray)
{
    int i = tile_bid(0), j = tile_bid(1);
    float px = (float)tile_load(rgb, .index = {i, j, 0}, .shape = {16, 32, 4}, .padding = TILE_PAD_ZERO);
    float w = tile_where(tile_arange(int32_t, .shape = {4}) == 0, 0.299f,
                         tile_where(tile_arange(int32_t, .shape = {4}) == 1, 0.587f,
                                    tile_where(tile_arange(int32_t, .shape = {4}) == 2, 0.114f, 0.0f)));
    float y = tile_sum(px * w, .axis = 2);
    tile_store(gray, tile_cast(y, uint8_t, .rounding = TILE_RN), .index = {i, j});
}

TILE_FUNC float luma(float r, float g, float b) { return 0.299f * r + 0.587f * g + 0.114f * b; }

TILE_KERNEL void planar_to_gray(TILE_ARRAY(const float, 3) img, TILE_ARRAY(float, 2) gray)
{
    int i = tile_bid(0), j = tile_bid(1);
    float r = tile_load(img, .index = {0, i, j}, .shape = {1, 16, 32}, .padding = TILE_PAD_ZERO);
    float g = tile_load(img, .index = {1, i, j}, .shape = {1, 16, 32}, .padding = TILE_PAD_ZERO);
    float b = tile_load(img, .index = {2, i, j}, .shape = {1, 16, 32}, .padding = TILE_PAD_ZERO);
    tile_store(gray, tile_squeeze(luma(r, g, b), .axis = 0), .index = {i, j});
}
