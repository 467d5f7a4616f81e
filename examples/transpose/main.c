/* main.c: checks transpose.tile.c, the batched transpose (N, C, H) ->
 * (N, H, C) through tile_view_transpose, for float16 and float32 and every
 * compiled (BH, BC) tile, on random data whose sizes are multiples of none
 * of the tiles:
 *   N = 3, C = 45, H = 70 (45 against BC 16 and 64, 70 against BH 32 and 64);
 *   N = 1, C = 1, H = 100: one row becomes one column;
 *   N = 2, C = 37, H = 5: fewer rows than one BH tile;
 *   N = 2, C = 45, H = 70 with x a strided slice of a larger buffer (the
 *     first 45 of 48 channels, every other element along H), so the view's
 *     addresses go through x's strides, not its shape.
 * The data hold -0, +inf and -inf among random finite values, and y starts
 * filled with a NaN pattern, so a skipped or doubly written element shows.
 * Tolerance: none.  A transpose only moves values, so y must equal x
 * transposed bit for bit (compared as raw bits, so -0 is not +0). */
#include "../common/example.h"
#include "transpose.h"

/* One element's bits, float16 (size 2) or float32 (size 4). */
static uint32_t get_bits(const void *p, int size, int64_t i)
{
    return size == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

static void set_bits(void *p, int size, int64_t i, uint32_t v)
{
    if (size == 2)
        ((uint16_t *)p)[i] = (uint16_t)v;
    else
        ((uint32_t *)p)[i] = v;
}

static uint32_t random_bits(int size)
{
    double u = ex_uniform(0, 1);
    double v = u < 0.02 ? -0.0 : u < 0.03 ? INFINITY : u < 0.04 ? -INFINITY : ex_uniform(-1000, 1000);
    if (size == 2) return tilec_f16_from_double(v, TILEC_RN);
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* x (n, c, h) lies in a (n, c + cpad, h * hstep) buffer: channel k, row r of
 * matrix b is buffer element (b, k, r * hstep). */
static void check(int size, int64_t n, int64_t c, int64_t h, int64_t cpad, int64_t hstep, int32_t bh, int32_t bc)
{
    tilec_dtype dt = size == 2 ? TILEC_FLOAT16 : TILEC_FLOAT32;
    int64_t cb = c + cpad, hb = h * hstep, nbuf = n * cb * hb, ny = n * h * c;
    void *hx = malloc(size * nbuf), *hy = malloc(size * ny), *want = malloc(size * ny);
    for (int64_t i = 0; i < nbuf; i++) set_bits(hx, size, i, random_bits(size));
    for (int64_t b = 0; b < n; b++)
        for (int64_t k = 0; k < c; k++)
            for (int64_t r = 0; r < h; r++)
                set_bits(want, size, (b * h + r) * c + k, get_bits(hx, size, (b * cb + k) * hb + r * hstep));
    for (int64_t i = 0; i < ny; i++) set_bits(hy, size, i, size == 2 ? 0x7e01u : 0x7fc00001u);
    void *dx = ex_alloc(size * nbuf), *dy = ex_alloc(size * ny);
    ex_upload(dx, hx, size * nbuf), ex_upload(dy, hy, size * ny);
    tilec_array X = tilec_array_make_strided(dx, dt, 3, (int64_t[]){n, c, h}, (int64_t[]){cb * hb, hb, hstep});
    tilec_array Y = tilec_array_3d(dy, dt, n, h, c);
    tilec_grid g = tilec_grid_3d(h, c, n, bh, bc, 1);
    char what[128];
    snprintf(what, sizeof what, "transpose float%d %lldx%lldx%lld%s, BH %d, BC %d", 8 * size, (long long)n,
             (long long)c, (long long)h, hstep > 1 ? " strided" : "", bh, bc);
    ex_status(what, size == 2 ? transpose_f16(NULL, g, &X, &Y, bh, bc) : transpose_f32(NULL, g, &X, &Y, bh, bc));
    ex_download(hy, dy, size * ny);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < ny; i++)
        if (get_bits(hy, size, i) != get_bits(want, size, i)) {
            if (bad++ == 0) first = i;
        }
    if (bad)
        fprintf(stderr, "%s: %lld of %lld elements differ; first at %lld: got bits 0x%x, want 0x%x\n", what,
                (long long)bad, (long long)ny, (long long)first, (unsigned)get_bits(hy, size, first),
                (unsigned)get_bits(want, size, first));
    ex_expect(what, bad == 0);
    ex_free(dx), ex_free(dy);
    free(hx), free(hy), free(want);
}

int main(void)
{
    /* n, c, h, extra channels in the buffer, step along h */
    const int64_t cases[4][5] = {{3, 45, 70, 0, 1}, {1, 1, 100, 0, 1}, {2, 37, 5, 0, 1}, {2, 45, 70, 3, 2}};
    const int32_t bhs[2] = {32, 64}, bcs[2] = {16, 64};
    for (int size = 2; size <= 4; size += 2)
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    check(size, cases[k][0], cases[k][1], cases[k][2], cases[k][3], cases[k][4], bhs[i], bcs[j]);
    return ex_finish("transpose");
}
