/* test_swz.cu: the swizzled layout of tile_mma's pipeline buffers
 * (tilec_swz in runtime/tilec_ops.h), checked on the host for every row
 * length tile_mma can produce (8 to 512 16-bit columns):
 *   - it is a bijection of the rows x C tile onto its rows x C slots, and
 *     keeps each 16-byte run (8 elements) whole and in order;
 *   - ldmatrix: the eight rows r0 .. r0+7 (r0 a multiple of 8) read at one
 *     run fall on eight different 16-byte bank groups (no conflict);
 *   - cp.async: the eight runs that eight consecutive threads copy (run
 *     u0 .. u0+7 in row-major order, u0 a multiple of 8) land in one
 *     128-byte line, each in a different bank group;
 *   - tilec_swz_step, the shortcut tile_mma's K loop takes, agrees with it;
 *   - tilec_shift_h8 (a view gather's unaligned run) picks the right halves;
 *   - wgmma's layouts, as the view pipelines' gathers write them for sm_90a
 *     (codegen/pipeline.c): tilec_swz<K> for A (K of 16, 32, 64) and
 *     tilec_swz_mn<K> for B equal the byte addresses of wgmma's K-major and
 *     MN-major canonical layouts under the 32-, 64- and 128-byte swizzles
 *     (Swizzle<B,4,3>: address bits 4.. XORed with bits 7..), computed here
 *     from the PTX definition.
 * Built and run by tests/nvcc_check.sh (nvcc compiles it for the host). */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tilec_rt.h"
#include "tilec_ops.h"

static int passed, failed;

static void expect(bool ok, const char *what, int C, int a, int b)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed <= 20) std::printf("FAIL C=%d: %s (%d, %d)\n", C, what, a, b);
}

/* tilec_swz_step: from a lane's address in block (r0, c0) to its address
 * in block (r0 + ri, c0 + ci), for every lane, a 128-byte aligned buffer
 * start, warp offsets c0 a multiple of a power of two span (the columns a
 * warp covers) and ci below that span, as tile_mma's K loop uses it. */
template <int C> static void check_step(int rows)
{
    const unsigned base = 0x1280; /* 128-byte aligned, nonzero */
    int bad = 0, n = 0;
    for (int span = 16; span <= C; span *= 2)
        for (int c0 = 0; c0 < C; c0 += span)
            for (int r0 = 0; r0 < rows; r0 += 16)
                for (int l = 0; l < 32; l++) {
                    const int a = l & 15, b = (l >> 4) * 8;
                    const unsigned t = base + 2u * (unsigned)tilec_swz<C>(r0 + a, c0 + b);
                    for (int ri = 0; r0 + ri + 16 <= rows; ri += 16)
                        for (int ci = 0; ci < span; ci += 16) {
                            const unsigned want = base + 2u * (unsigned)tilec_swz<C>(r0 + ri + a, c0 + ci + b);
                            n++;
                            if (tilec_swz_step<C>(t, ri, ci) != want) bad++;
                        }
                }
    expect(bad == 0 && n > 0, "stepping from a lane's address (tilec_swz_step)", C, bad, n);
}

template <int C> static void check(int rows)
{
    const int P = C / 8; /* runs per row */
    unsigned char *seen = (unsigned char *)std::calloc((size_t)rows * C, 1);
    bool whole = true, bijective = true;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < C; c++) {
            const int o = tilec_swz<C>(r, c);
            if (o < 0 || o >= rows * C || seen[o]) bijective = false;
            else seen[o] = 1;
            if (c % 8 && o != tilec_swz<C>(r, c - 1) + 1) whole = false;
        }
    expect(bijective, "bijection onto the tile", C, rows, 0);
    expect(whole, "runs stay whole and in order", C, rows, 0);
    std::free(seen);
    /* bank group of a run: its 16-byte slot modulo 8 (128 bytes of banks) */
    for (int r0 = 0; r0 < rows; r0 += 8)
        for (int q = 0; q < P; q++) {
            unsigned groups = 0;
            for (int r = r0; r < r0 + 8; r++) groups |= 1u << ((tilec_swz<C>(r, 8 * q) / 8) % 8);
            expect(groups == 0xffu, "ldmatrix rows on distinct bank groups", C, r0, q);
        }
    for (int u0 = 0; u0 < rows * P; u0 += 8) {
        unsigned groups = 0;
        bool one_line = true;
        const int line = tilec_swz<C>(u0 / P, 8 * (u0 % P)) / 64;
        for (int u = u0; u < u0 + 8; u++) {
            const int o = tilec_swz<C>(u / P, 8 * (u % P));
            groups |= 1u << ((o / 8) % 8);
            if (o / 64 != line) one_line = false;
        }
        expect(one_line && groups == 0xffu, "eight copied runs fill one 128-byte line", C, u0, 0);
    }
    if (C >= 16) check_step<C>(rows); /* tile_mma's operand rows have 16 columns or more */
}

/* tilec_shift_h8, the shifter of the view gathers' runs: for every shift
 * and random halves, the eight halves s .. s+7 of the sixteen, in order. */
static void check_shift()
{
    unsigned seed = 12345u;
    for (int rep = 0; rep < 200; rep++) {
        unsigned short h[16];
        for (int i = 0; i < 16; i++) h[i] = (unsigned short)((seed = seed * 1664525u + 1013904223u) >> 16);
        uint4 a, b;
        std::memcpy(&a, h, 16);
        std::memcpy(&b, h + 8, 16);
        for (int s = 0; s < 8; s++) {
            uint4 r = tilec_shift_h8(a, b, s);
            unsigned short got[8];
            std::memcpy(got, &r, 16);
            expect(std::memcmp(got, h + s, 16) == 0, "tilec_shift_h8 gives halves s .. s+7", 0, s, rep);
        }
    }
}

/* The hardware's swizzle of byte address a (within a 1024-byte aligned
 * buffer): Swizzle<B,4,3>, the B bits from bit 7 XORed into bits 4 up. */
static unsigned hw_swizzle(unsigned a, int B)
{
    return a ^ (((a >> 7) & ((1u << B) - 1u)) << 4);
}

/* A (rows x K, K contiguous): K-major, rows of 2K bytes, the swizzle of a
 * row's width (K = 16, 32, 64: 32, 64, 128 bytes: B = 1, 2, 3). */
template <int K> static void check_wgmma_a(int rows)
{
    const int B = K == 64 ? 3 : K == 32 ? 2 : 1;
    int bad = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < K; c++)
            if (2u * (unsigned)tilec_swz<K>(r, c) != hw_swizzle((unsigned)(r * 2 * K + 2 * c), B)) bad++;
    expect(bad == 0, "tilec_swz<K> is wgmma's K-major layout", K, bad, rows);
}

/* B (R rows of K, N columns contiguous): MN-major, 64-column chunks of R
 * rows of 128 bytes, the 128-byte swizzle; a bijection keeping runs whole. */
template <int R> static void check_wgmma_b(int cols)
{
    int bad = 0, dup = 0;
    unsigned char *seen = (unsigned char *)std::calloc((size_t)R * cols, 1);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < cols; c++) {
            const int o = tilec_swz_mn<R>(r, c);
            const unsigned want = (unsigned)((c / 64) * R * 128) + hw_swizzle((unsigned)(r * 128 + 2 * (c % 64)), 3);
            if (2u * (unsigned)o != want) bad++;
            if (o < 0 || o >= R * cols || seen[o]++) dup++;
            if (c % 8 && o != tilec_swz_mn<R>(r, c - 1) + 1) bad++;
        }
    std::free(seen);
    expect(bad == 0, "tilec_swz_mn<R> is wgmma's MN-major layout, runs whole", R, bad, cols);
    expect(dup == 0, "tilec_swz_mn<R> is a bijection", R, dup, cols);
}

int main()
{
    check_shift();
    check_wgmma_a<16>(64);
    check_wgmma_a<32>(128);
    check_wgmma_a<64>(128);
    check_wgmma_b<16>(64);
    check_wgmma_b<32>(128);
    check_wgmma_b<64>(256);
    check<8>(64);
    check<16>(64);
    check<32>(128);
    check<64>(64);
    check<128>(64);
    check<256>(32);
    check<512>(32);
    std::printf("swz: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
