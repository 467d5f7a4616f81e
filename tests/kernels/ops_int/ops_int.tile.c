/* ops_int.tile.c: integer operators beyond tests/kernels/ops (which applies
 * every operator to two tiles of one dtype): mixed widths and their
 * promotion, loose constants taking the tile's type, bool operands, scalar
 * parameters of several integer types, compound assignments, unary + - ~ !,
 * the defined edge cases (division and remainder by zero give 0, INT_MIN / -1
 * wraps, shift counts out of range or negative) and shifts whose count has
 * another type or signedness.  Results are widened on store: signed ones into
 * an int64 matrix, unsigned ones into a uint64 matrix, one row per
 * expression, so each row checks the width at which its expression wrapped.
 * The rows are spread over several kernels with one parameter list, which
 * keeps each generated function small. */
#include <tilec.h>

#define SROW(k, v) tile_store(os, tile_expand_dims(v, .axis = 0), .index = {k, pid})
#define UROW(k, v) tile_store(ou, tile_expand_dims(v, .axis = 0), .index = {k, pid})
#define BROW(k, v) tile_store(ob, tile_expand_dims(v, .axis = 0), .index = {k, pid})

#define PARAMS                                                                                              \
    TILE_ARRAY(const int8_t, 1) a8, TILE_ARRAY(const int16_t, 1) a16, TILE_ARRAY(const int32_t, 1) a32,     \
        TILE_ARRAY(const int64_t, 1) a64, TILE_ARRAY(const uint8_t, 1) b8, TILE_ARRAY(const uint16_t, 1) b16, \
        TILE_ARRAY(const uint32_t, 1) b32, TILE_ARRAY(const uint64_t, 1) b64, TILE_ARRAY(const bool, 1) bb,   \
        TILE_ARRAY(int64_t, 2) os, TILE_ARRAY(uint64_t, 2) ou, TILE_ARRAY(bool, 2) ob, int8_t s8,           \
        uint16_t s16, int64_t s64, uint32_t s32, bool sb
#define X8 int8_t x8 = tile_load(a8, .index = {pid}, .shape = {64})
#define X16 int16_t x16 = tile_load(a16, .index = {pid}, .shape = {64})
#define X32 int32_t x32 = tile_load(a32, .index = {pid}, .shape = {64})
#define X64 int64_t x64 = tile_load(a64, .index = {pid}, .shape = {64})
#define Y8 uint8_t y8 = tile_load(b8, .index = {pid}, .shape = {64})
#define Y16 uint16_t y16 = tile_load(b16, .index = {pid}, .shape = {64})
#define Y32 uint32_t y32 = tile_load(b32, .index = {pid}, .shape = {64})
#define Y64 uint64_t y64 = tile_load(b64, .index = {pid}, .shape = {64})
#define Z bool z = tile_load(bb, .index = {pid}, .shape = {64})

/* signed results */
TILE_KERNEL void int_s1(PARAMS)
{
    int pid = tile_bid(0);
    X8; X16; X32; X64; Z;
    SROW(0, x8 + x16);          /* int16 */
    SROW(1, x16 * x32);         /* int32 */
    SROW(2, x32 - x64);         /* int64 */
    SROW(3, x8 + 100);          /* int8: the constant takes int8 */
    SROW(4, z * x8);            /* bool with int8: int8 */
    SROW(5, x32 / x8);          /* int32, C division, /0 gives 0, INT_MIN/-1 */
    SROW(6, x64 % x16);         /* int64 remainder, sign of the dividend */
}

TILE_KERNEL void int_s2(PARAMS)
{
    int pid = tile_bid(0);
    X8; X16; X32; X64; Y8;
    SROW(7, x16 << x8);         /* int16; count of another type, negative or >= 16 gives 0 */
    SROW(8, x64 >> y8);         /* int64 arithmetic shift by an unsigned count */
    int32_t t = x32;
    t += x16;
    t *= 3;
    t -= x8;
    t /= 7;
    t %= 1000;
    t <<= 2;
    t >>= 1;
    t &= 0x7FFF0FFF;
    t |= 0x100;
    t ^= x32;
    SROW(9, t);                 /* compound assignments on int32 */
    SROW(10, -x8);              /* int8: -(-128) wraps to -128 */
    SROW(11, ~x16);
    SROW(12, +x32 + s8);        /* int8 scalar parameter promoted to int32 */
    SROW(13, x64 + s64 * s8);   /* int64 */
}

TILE_KERNEL void int_s3(PARAMS)
{
    int pid = tile_bid(0);
    X8; X16; X32; X64; Y8;
    SROW(14, (int32_t)(x8 < x64) + (int32_t)(x16 == x32) * 2 + (int32_t)(x32 >= x16) * 4);
    SROW(15, x8 > 0 ? x16 : x32);              /* ?: on a tile condition: int32 */
    SROW(16, 1 << (y8 & 31));                  /* a loose left operand is int32: 1 << 31 wraps */
    SROW(17, sb ? x32 : -x32);                 /* a bool scalar parameter as the condition */
    SROW(18, x8 * x8 * x8);                    /* int8 products wrap after each operation */
    SROW(19, 7 % x16 - x16 / 3);               /* constants on either side: int16 */
}

/* unsigned results */
TILE_KERNEL void int_u1(PARAMS)
{
    int pid = tile_bid(0);
    X8; Y8; Y16; Y32; Y64;
    UROW(0, y8 + y16);          /* uint16 */
    UROW(1, y16 * y32);         /* uint32 */
    UROW(2, y32 - y64);         /* uint64 */
    UROW(3, y8 * 200);          /* uint8 */
    UROW(4, y8 - 1);            /* uint8: 0 - 1 is 255 */
    UROW(5, y32 / y16);         /* /0 gives 0 */
    UROW(6, y64 % y8);
    UROW(7, y32 >> x8);         /* signed count: negative gives 0 */
    UROW(8, y16 << y16);        /* uint16, count >= 16 gives 0 */
}

TILE_KERNEL void int_u2(PARAMS)
{
    int pid = tile_bid(0);
    Y8; Y16; Y32; Y64; Z;
    uint8_t u = y8;
    u += 250;
    u *= y8;
    u -= 3;
    u /= 2;
    u %= 100;
    u <<= 1;
    u >>= 3;
    u ^= 0xAA;
    u |= 1;
    u &= 0xFE;
    UROW(9, u);                 /* compound assignments on uint8 */
    UROW(10, ~y32);
    UROW(11, -y16);             /* unsigned negation wraps (uint16) */
    UROW(12, y64 + s32 + s16);  /* uint32 and uint16 scalar parameters */
    UROW(13, z + y8);           /* bool with uint8: uint8 */
    UROW(14, z | y64);          /* bool with uint64 */
    UROW(15, (y8 & y16) ^ (y32 | 0x80000001u));
}

/* bool results */
TILE_KERNEL void int_b(PARAMS)
{
    int pid = tile_bid(0);
    X8; X16; X32; X64; Y8; Y16; Y32; Y64; Z;
    BROW(0, z & (x8 < 0));
    BROW(1, z ^ (y8 > 100));
    BROW(2, !x16);
    BROW(3, x32 && y64);        /* && tests each operand alone: no sign mix error */
    BROW(4, x8 || z);
    BROW(5, x16 <= x64);
    BROW(6, y16 != y32);
    BROW(7, (x8 > x16) | (y8 == y16));
    BROW(8, !z == (y64 > 5));
}
