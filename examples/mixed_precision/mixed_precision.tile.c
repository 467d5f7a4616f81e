/* mixed_precision.tile.c: seed 000's type promotion examples.
 * promote: int16 + int32 -> int32, int32 + float32 -> float32, int16 + 1.0
 * -> float32 (a loose constant becomes float32 across categories), float16 +
 * int -> float16.  explicit_cast: uint8 with int8 needs explicit casts.
 * half_single: float16 + float32 -> float32, kept as float32 and float16. */
#include <tilec.h>

TILE_KERNEL void promote(TILE_ARRAY(const int16_t, 1) a16, TILE_ARRAY(const int32_t, 1) a32,
                         TILE_ARRAY(const float, 1) f32, TILE_ARRAY(const _Float16, 1) h,
                         TILE_ARRAY(float, 1) out, TILE_ARRAY(_Float16, 1) hout)
{
    int pid = tile_bid(0);
    int16_t x = tile_load(a16, .index = {pid}, .shape = {64});
    int32_t y = tile_load(a32, .index = {pid}, .shape = {64});
    float z = tile_load(f32, .index = {pid}, .shape = {64});
    _Float16 w = tile_load(h, .index = {pid}, .shape = {64});
    int32_t r1 = x + y;        /* int32 */
    float r2 = y + z;          /* float32 */
    auto r3 = x + 1.0;         /* float32 */
    tile_store(out, (float)r1 + r2 + r3, .index = {pid});
    tile_store(hout, w + x, .index = {pid}); /* float16 (x converted to float16) */
}

/* uint8 + int8 is an error (signed with unsigned); cast both to int16, add,
 * and cast the sum back to int8 (seed 000, explicit casts). */
TILE_KERNEL void explicit_cast(TILE_ARRAY(const uint8_t, 1) u8, TILE_ARRAY(const int8_t, 1) i8, TILE_ARRAY(int16_t, 1) sum,
                               TILE_ARRAY(int8_t, 1) out)
{
    int pid = tile_bid(0);
    int16_t a = tile_cast(tile_load(u8, .index = {pid}, .shape = {64}), int16_t);
    int16_t b = (int16_t)tile_load(i8, .index = {pid}, .shape = {64});
    tile_store(sum, a + b, .index = {pid});
    tile_store(out, tile_cast(a + b, int8_t), .index = {pid});
}

/* float16 + float32 -> float32, a float32 computation, and the result kept
 * in both precisions (seed 000, mixed-precision computation). */
TILE_KERNEL void half_single(TILE_ARRAY(const _Float16, 1) h, TILE_ARRAY(const float, 1) f, TILE_ARRAY(float, 1) out32,
                             TILE_ARRAY(_Float16, 1) out16)
{
    int pid = tile_bid(0);
    float r = tile_load(h, .index = {pid}, .shape = {64}) + tile_load(f, .index = {pid}, .shape = {64});
    float high = r * 2.0 + 1.0;
    tile_store(out32, high, .index = {pid});
    tile_store(out16, tile_cast(high, _Float16), .index = {pid});
}
