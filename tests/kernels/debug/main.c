/* main.c: checks debug.tile.c: the exact text tile_printf prints (stdout
 * captured around the launch; one block, so the order is fixed on the GPU
 * too, where device printf output reaches stdout at the synchronization),
 * and tile_assert: TILEC_OK when every block holds, TILEC_ERR_ASSERT with
 * the failing block and the exact last error when one fails, the other
 * blocks' results written, the record reset for the next launch.  Built
 * with -DDEBUG_NDEBUG for a kernel file compiled with -DNDEBUG (tests/cli):
 * the asserts are gone and every launch returns TILEC_OK. */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "../../../examples/common/example.h"
#include "debug.h"

/* stdout goes to a temporary file between capture_begin and capture_end,
 * which returns what was written (malloc'd). */
static int saved_fd = -1;
static FILE *capture_file;

static void capture_begin(void)
{
    fflush(stdout);
    capture_file = tmpfile();
    saved_fd = dup(1);
    if (capture_file) dup2(fileno(capture_file), 1);
}

static char *capture_end(void)
{
    ex_sync(); /* device printf output arrives at a synchronization */
    fflush(stdout);
    dup2(saved_fd, 1);
    close(saved_fd);
    char *text = calloc(1, 1 << 16);
    if (capture_file && text) {
        rewind(capture_file);
        size_t n = fread(text, 1, (1 << 16) - 1, capture_file);
        text[n] = 0;
        fclose(capture_file);
    }
    return text;
}

/* Whether s ends with the place tail names, after a path to it. */
static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail) && (n == m || s[n - m - 1] == '/');
}

static void test_printf(void)
{
    float a[8] = {1, 2.5f, -3, 0.5f, 4, 5, 6, 7};
    int32_t b[4] = {0, 1, 2, 200};
    float *da = ex_alloc(sizeof a);
    int32_t *db = ex_alloc(sizeof b);
    ex_upload(da, a, sizeof a), ex_upload(db, b, sizeof b);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT32, 2, 4), B = tilec_array_1d(db, TILEC_INT32, 4);
    capture_begin();
    tilec_status st = print_values(NULL, tilec_grid_1d(1, 1), &A, &B, 7, 0.5f);
    char *got = capture_end();
    ex_status("print_values launch", st);
    char want[4096], *w = want;
    w += sprintf(w, "n = 7, alpha = 0.50, 100%%\n"
                    "t = [[1, 2.5, -3, 0.5], [4, 5, 6, 7]]\nu = [  0,   1,   2, 200], sum = 203\n"
                    "u > 1: [0, 0, 1, 1]; t as float16: [[1.000, 2.500, -3.000, 0.500], [4.000, 5.000, 6.000, 7.000]]; "
                    "bfloat16: [[1.00, 2.50, -3.00, 0.50], [4.00, 5.00, 6.00, 7.00]]\n"
                    "as uint8: [0000, 0x01, 0x02, 0xc8]; fp8: [[1.0, 2.5, -3.0, 0.5], [4.0, 5.0, 6.0, 7.0]]; "
                    "tf32: [[+1.0e+00, +2.5e+00, -3.0e+00, +5.0e-01], [+4.0e+00, +5.0e+00, +6.0e+00, +7.0e+00]]\n[");
    for (int i = 0; i < 64; i++) w += sprintf(w, "%s%d", i ? ", " : "", i);
    sprintf(w, "]\n[  1.5|7  |ff]\n");
    ex_expect("tile_printf's text", got && !strcmp(got, want));
    if (got && strcmp(got, want)) fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
    free(got);
    ex_free(da), ex_free(db);
}

/* Expects st, and for TILEC_ERR_ASSERT the last error ending with tail. */
static void expect_assert(const char *what, tilec_status st, const char *tail)
{
#ifdef DEBUG_NDEBUG
    (void)tail, (void)ends_with;
    ex_expect(what, st == TILEC_OK);
#else
    ex_expect(what, st == TILEC_ERR_ASSERT && ends_with(tilec_last_error(), tail));
    if (st != TILEC_ERR_ASSERT || !ends_with(tilec_last_error(), tail))
        fprintf(stderr, "%s: %s: '%s'\n", what, tilec_status_string(st), tilec_last_error());
#endif
}

static void test_tile_assert(void)
{
    enum { n = 256 };
    float x[n], y[n];
    for (int i = 0; i < n; i++) x[i] = (float)(i * i);
    float *dx = ex_alloc(sizeof x), *dy = ex_alloc(sizeof y);
    ex_upload(dx, x, sizeof x);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), Y = tilec_array_1d(dy, TILEC_FLOAT32, n);
    ex_status("checked_sqrt holds", checked_sqrt(NULL, tilec_grid_1d(n, 64), &X, &Y));
    ex_download(y, dy, sizeof y);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= y[i] == (float)i;
    ex_expect("checked_sqrt results", ok);
    /* one negative element: block 2 fails, the others write their roots */
    x[130] = -1;
    for (int i = 0; i < n; i++) y[i] = -7;
    ex_upload(dx, x, sizeof x), ex_upload(dy, y, sizeof y);
    expect_assert("checked_sqrt fails in block 2", checked_sqrt(NULL, tilec_grid_1d(n, 64), &X, &Y),
                  "debug.tile.c:25:5: assertion `t >= 0.0f` failed in block (2, 0, 0): negative input");
    ex_sync();
    ex_download(y, dy, sizeof y);
    ok = 1;
    for (int i = 0; i < n; i++) {
#ifdef DEBUG_NDEBUG
        ok &= i / 64 == 2 ? 1 : y[i] == (float)i;
#else
        ok &= i / 64 == 2 ? y[i] == -7 : y[i] == (float)i;
#endif
    }
    ex_expect("the other blocks ran, block 2 stopped", ok);
    /* the record was reset: the next launch holds again */
    x[130] = 130.0f * 130.0f;
    ex_upload(dx, x, sizeof x);
    ex_status("checked_sqrt after a failure", checked_sqrt(NULL, tilec_grid_1d(n, 64), &X, &Y));
    expect_assert("not_block_two", not_block_two(NULL, tilec_grid_1d(4 * 16, 16), &Y),
                  "debug.tile.c:32:5: assertion `tile_bid(0) != 2` failed in block (2, 0, 0)");
    ex_free(dx), ex_free(dy);

    /* a 2-d grid of (4, 8) tiles of an 8 x 16 matrix, an assert inlined */
    float m[8 * 16], r[8 * 16];
    for (int i = 0; i < 8 * 16; i++) m[i] = (float)(i % 7);
    m[5 * 16 + 10] = -2; /* row 5, column 10: block (1, 1) */
    float *dm = ex_alloc(sizeof m), *dr = ex_alloc(sizeof r);
    ex_upload(dm, m, sizeof m);
    tilec_array M = tilec_array_2d(dm, TILEC_FLOAT32, 8, 16), R = tilec_array_2d(dr, TILEC_FLOAT32, 8, 16);
    tilec_grid g = {2, 2, 1};
    expect_assert("grid_roots fails in block (1, 1)", grid_roots(NULL, g, &M, &R),
                  "debug.tile.c:40:5: assertion `v >= 0` failed in block (1, 1, 0): root of a negative number");
    m[5 * 16 + 10] = 4;
    ex_upload(dm, m, sizeof m);
    ex_status("grid_roots holds", grid_roots(NULL, g, &M, &R));
    ex_download(r, dr, sizeof r);
    ok = 1;
    for (int i = 0; i < 8 * 16; i++) ok &= r[i] == sqrtf(m[i]);
    ex_expect("grid_roots results", ok);
    ex_free(dm), ex_free(dr);
}

int main(void)
{
    test_printf();
    test_tile_assert();
    return ex_finish("debug");
}
