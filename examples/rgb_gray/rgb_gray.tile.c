/* rgb_gray.tile.c: RGB to grayscale with zero padding (seed 000): an
 * interleaved (H, W, 3) uint8 image whose size is not a multiple of the
 * tile; out-of-bounds pixels read zero and are never written. */
#include <tilec.h>

/* gray = 0.299 R + 0.587 G + 0.114 B, rounded to nearest, as uint8. */
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
