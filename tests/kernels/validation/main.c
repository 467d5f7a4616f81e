/* main.c: the statuses of generated launchers (docs/runtime.md,
 * "Validation"): every argument is checked before a launch, in the
 * documented order: the arrays, the outputs and aliasing, the constants,
 * then an empty grid returns TILEC_OK without launching, then the grid.  Results of the
 * accepted launches are checked exactly; refused launches must leave their
 * outputs untouched. */
#include "../../../examples/common/example.h"
#include "validation.h"

#define N 200

static float hx[N], hy[N];
static float *dx, *dy, *dbuf;

static void reset_y(void) { ex_upload(dy, hy, sizeof hy); }

static int y_untouched(void)
{
    float t[N];
    ex_download(t, dy, sizeof t);
    return memcmp(t, hy, sizeof t) == 0;
}

static void expect_status(const char *what, tilec_status got, tilec_status want)
{
    if (got != want)
        fprintf(stderr, "%s: got %s (%s), want %s\n", what, tilec_status_string(got), tilec_last_error(),
                tilec_status_string(want));
    ex_expect(what, got == want);
}

static void test_descriptors(void)
{
    tilec_grid g = tilec_grid_1d(N, 64);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, N), Y = tilec_array_1d(dy, TILEC_FLOAT32, N);
    expect_status("NULL input descriptor", axpy(NULL, g, NULL, &Y), TILEC_ERR_NULL_ARRAY);
    expect_status("NULL output descriptor", axpy(NULL, g, &X, NULL), TILEC_ERR_NULL_ARRAY);
    tilec_array bad = tilec_array_2d(dx, TILEC_FLOAT32, 10, 20);
    expect_status("wrong rank", axpy(NULL, g, &bad, &Y), TILEC_ERR_RANK);
    ex_expect("the error names the argument", strstr(tilec_last_error(), "'x'") != NULL);
    bad = tilec_array_1d(dx, TILEC_FLOAT64, N / 2);
    expect_status("wrong dtype", axpy(NULL, g, &X, &bad), TILEC_ERR_DTYPE);
    bad = X, bad.shape[0] = -5;
    expect_status("negative extent", axpy(NULL, g, &bad, &Y), TILEC_ERR_SHAPE);
    bad = X, bad.strides[0] = -1;
    expect_status("negative stride", axpy(NULL, g, &bad, &Y), TILEC_ERR_STRIDE);
    bad = tilec_array_1d(NULL, TILEC_FLOAT32, N);
    expect_status("NULL data", axpy(NULL, g, &bad, &Y), TILEC_ERR_NULL_DATA);
    bad = tilec_array_1d((char *)dbuf + 1, TILEC_FLOAT32, N);
    expect_status("misaligned data", axpy(NULL, g, &bad, &Y), TILEC_ERR_ALIGN);
    bad = X, bad.shape[0] = INT64_MAX / 2, bad.strides[0] = 4;
    expect_status("element range overflows", axpy(NULL, g, &bad, &Y), TILEC_ERR_OVERFLOW);
    bad = tilec_array_1d(dbuf, TILEC_INT32, N);
    expect_status("a dtype of the same size", axpy(NULL, g, &bad, &Y), TILEC_ERR_DTYPE);
    ex_expect("refused launches leave the output alone", y_untouched());
}

static void test_alias(void)
{
    tilec_grid g = tilec_grid_1d(N, 64);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, N), Y = tilec_array_1d(dy, TILEC_FLOAT32, N);
    /* an input that overlaps the output without being the same view */
    tilec_array Yshift = tilec_array_1d(dy + 1, TILEC_FLOAT32, N - 1), Yshort = tilec_array_1d(dy, TILEC_FLOAT32, N - 1);
    int64_t sh[1] = {N / 2}, st[1] = {2};
    tilec_array Yeven = tilec_array_make_strided(dy, TILEC_FLOAT32, 1, sh, st);
    tilec_array Yhalf = tilec_array_1d(dy, TILEC_FLOAT32, N / 2);
    expect_status("input = output shifted by one element", axpy(NULL, g, &Yshift, &Yshort), TILEC_ERR_ALIAS);
    expect_status("input = a shorter view of the output", axpy(NULL, g, &Yshort, &Y), TILEC_ERR_ALIAS);
    expect_status("input = every other element of the output", axpy(NULL, tilec_grid_1d(N / 2, 64), &Yeven, &Yhalf),
                  TILEC_ERR_ALIAS);
    int64_t bsh[1] = {N}, bst[1] = {0};
    tilec_array Ybcast = tilec_array_make_strided(dy, TILEC_FLOAT32, 1, bsh, bst);
    expect_status("broadcast (stride 0) output", axpy(NULL, g, &X, &Ybcast), TILEC_ERR_ALIAS);
    ex_expect("refused launches leave the output alone", y_untouched());
    /* the identical view: in-place element-wise work, y = 2 y + y */
    expect_status("identical view in place", axpy(NULL, g, &Y, &Y), TILEC_OK);
    float t[N];
    ex_download(t, dy, sizeof t);
    int ok = 1;
    for (int k = 0; k < N; k++) ok &= t[k] == 3 * hy[k];
    ex_expect("in-place result", ok);
    reset_y();
    /* disjoint arrays: the plain case */
    expect_status("disjoint arrays", axpy(NULL, g, &X, &Y), TILEC_OK);
    ex_download(t, dy, sizeof t);
    ok = 1;
    for (int k = 0; k < N; k++) ok &= t[k] == 2 * hx[k] + hy[k];
    ex_expect("axpy result", ok);
    reset_y();
}

static void test_two_outputs(void)
{
    int32_t hx2[12 * 20], *d = ex_alloc(4 * 3 * 12 * 20), h[3 * 12 * 20];
    for (int k = 0; k < 240; k++) hx2[k] = k * 7 - 100;
    ex_upload(d, hx2, sizeof hx2);
    tilec_array X = tilec_array_2d(d, TILEC_INT32, 12, 20), Y = tilec_array_2d(d + 240, TILEC_INT32, 12, 20),
                Z = tilec_array_2d(d + 480, TILEC_INT32, 12, 20);
    tilec_grid g = tilec_grid_2d(12, 20, 8, 8);
    expect_status("two outputs, the same view", two_out(NULL, g, &X, &Y, &Y), TILEC_ERR_ALIAS);
    tilec_array Zo = tilec_array_2d(d + 240 + 20, TILEC_INT32, 11, 20);
    expect_status("two outputs overlapping", two_out(NULL, g, &X, &Y, &Zo), TILEC_ERR_ALIAS);
    expect_status("two disjoint outputs", two_out(NULL, g, &X, &Y, &Z), TILEC_OK);
    ex_download(h, d, sizeof h);
    int ok = 1;
    for (int k = 0; k < 240; k++) ok &= h[240 + k] == hx2[k] + 1 && h[480 + k] == hx2[k] - 1;
    ex_expect("two_out results", ok);
    /* the second output in place over the input (element-wise): accepted */
    expect_status("output z = input x, the same view", two_out(NULL, g, &X, &Y, &X), TILEC_OK);
    ex_download(h, d, sizeof h);
    ok = 1;
    for (int k = 0; k < 240; k++) ok &= h[k] == hx2[k] - 1;
    ex_expect("two_out in place", ok);
    ex_free(d);
}

static void test_cross_block(void)
{
    /* Kernels whose blocks read what other blocks write cannot run in place
     * (docs/runtime.md: the launcher uses tilec_check_disjoint). */
    tilec_grid g = tilec_grid_1d(N, 64);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, N), Y = tilec_array_1d(dy, TILEC_FLOAT32, N);
    expect_status("shift_left, disjoint", shift_left(NULL, g, &X, &Y), TILEC_OK);
    float t[N];
    ex_download(t, dy, sizeof t);
    int ok = 1;
    for (int k = 0; k < N; k++) ok &= t[k] == (k + 64 < N ? hx[k + 64] : 0.0f);
    ex_expect("shift_left result", ok);
    reset_y();
    tilec_status st = shift_left(NULL, g, &Y, &Y);
    expect_status("shift_left in place (blocks read tiles other blocks write)", st, TILEC_ERR_ALIAS);
    reset_y();
    float *dm = ex_alloc(4 * 32 * 32), hm[32 * 32], hb[32 * 32];
    for (int k = 0; k < 32 * 32; k++) hm[k] = (float)k;
    ex_upload(dm, hm, sizeof hm);
    tilec_array M = tilec_array_2d(dm, TILEC_FLOAT32, 32, 32);
    tilec_array Bt = tilec_array_2d(dbuf, TILEC_FLOAT32, 32, 32);
    expect_status("transpose, T=8", transpose(NULL, tilec_grid_2d(32, 32, 8, 8), &M, &Bt, 8), TILEC_OK);
    ex_download(hb, dbuf, sizeof hb);
    ok = 1;
    for (int r = 0; r < 32; r++)
        for (int c = 0; c < 32; c++) ok &= hb[r * 32 + c] == hm[c * 32 + r];
    ex_expect("transpose result", ok);
    expect_status("transpose, unlisted T=4", transpose(NULL, tilec_grid_2d(32, 32, 4, 4), &M, &Bt, 4), TILEC_ERR_CONSTANT);
    expect_status("transpose in place", transpose(NULL, tilec_grid_2d(32, 32, 16, 16), &M, &M, 16), TILEC_ERR_ALIAS);
    ex_free(dm);
}

static void test_empty_and_grid(void)
{
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, N), Y = tilec_array_1d(dy, TILEC_FLOAT32, N);
    /* empty arrays, NULL data included: nothing to do */
    tilec_array E0 = tilec_array_1d(NULL, TILEC_FLOAT32, 0), E1 = tilec_array_1d(dy, TILEC_FLOAT32, 0);
    expect_status("empty arrays, empty grid", axpy(NULL, tilec_grid_1d(0, 64), &E0, &E1), TILEC_OK);
    expect_status("empty arrays, one block", axpy(NULL, tilec_grid_1d(1, 64), &E0, &E1), TILEC_OK);
    ex_expect("empty arrays write nothing", y_untouched());
    tilec_grid g0 = {0, 1, 1};
    expect_status("valid arrays, empty grid: no launch", axpy(NULL, g0, &X, &Y), TILEC_OK);
    ex_expect("an empty grid writes nothing", y_untouched());
    /* the arguments are checked even when there is nothing to do */
    tilec_array Xd = tilec_array_1d(dx, TILEC_FLOAT64, N / 2);
    expect_status("wrong dtype, empty grid", axpy(NULL, g0, &Xd, &Y), TILEC_ERR_DTYPE);
    expect_status("in place where blocks read others' elements, empty grid", shift_left(NULL, g0, &Y, &Y),
                  TILEC_ERR_ALIAS);
    tilec_array M = tilec_array_2d(dbuf, TILEC_FLOAT32, 32, 32), Mb = tilec_array_2d(dy, TILEC_FLOAT32, 4, 32);
    expect_status("unlisted constant, empty grid", transpose(NULL, tilec_grid_2d(0, 32, 4, 4), &M, &Mb, 4),
                  TILEC_ERR_CONSTANT);
    expect_status("listed constant, empty grid", transpose(NULL, tilec_grid_2d(0, 32, 8, 8), &M, &Mb, 8), TILEC_OK);
    ex_expect("nothing written by the empty grids", y_untouched());
    tilec_grid gy = {1, 70000, 1}, gx = {0x80000000u, 1, 1};
    expect_status("grid y over 65535", axpy(NULL, gy, &X, &Y), TILEC_ERR_GRID);
    expect_status("grid x over 2^31-1", axpy(NULL, gx, &X, &Y), TILEC_ERR_GRID);
    ex_expect("nothing written", y_untouched());
}

int main(void)
{
    for (int k = 0; k < N; k++) hx[k] = (float)ex_uniform(-10, 10), hy[k] = (float)ex_uniform(-10, 10);
    dx = ex_alloc(sizeof hx), dy = ex_alloc(sizeof hy), dbuf = ex_alloc(4 * 32 * 32 + 8);
    ex_upload(dx, hx, sizeof hx);
    reset_y();
    test_descriptors();
    test_alias();
    test_two_outputs();
    test_cross_block();
    test_empty_and_grid();
    ex_free(dx), ex_free(dy), ex_free(dbuf);
    return ex_finish("validation");
}
