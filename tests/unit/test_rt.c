/* test_rt.c: unit tests of the launch runtime (runtime/tilec_rt.c): every
 * validation status and its message, the alias rules, grid limits and
 * helpers, the fast-path predicate, descriptor constructors, read-only
 * arrays, DLPack import (legacy and versioned) with the DLPack ABI's sizes
 * and offsets, the device-check switch, and array kernels' NumPy
 * broadcasting (broadcast shapes, stride-0 views, reduced and same-shape
 * outputs). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tilec_rt.h"

#define HAS(hay, needle) CHECK(strstr((hay), (needle)) != NULL, "\"%s\" lacks \"%s\"", (hay), (needle))

static float buf[4096]; /* static storage: aligned, never freed */

static void test_strings(void)
{
    int i, j;
    for (i = 0; i < TILEC_STATUS_COUNT; i++) {
        const char *s = tilec_status_string((tilec_status)i);
        CHECK(s && s[0] && strncmp(s, "TILEC_", 6) == 0, "status %d: \"%s\"", i, s ? s : "(null)");
        for (j = 0; j < i; j++)
            CHECK(strcmp(s, tilec_status_string((tilec_status)j)) != 0, "status %d and %d share text", i, j);
    }
    CHECK_STR(tilec_status_string(TILEC_OK), "TILEC_OK: success");
    HAS(tilec_status_string(TILEC_ERR_RANK), "TILEC_ERR_RANK");
    HAS(tilec_status_string((tilec_status)99), "UNKNOWN");
    CHECK_STR(tilec_dtype_name(TILEC_FLOAT32), "float32");
    CHECK_STR(tilec_dtype_name(TILEC_BFLOAT16), "bfloat16");
    CHECK_STR(tilec_dtype_name(TILEC_FLOAT8_E4M3FN), "float8_e4m3fn");
    CHECK_STR(tilec_dtype_name(TILEC_FLOAT8_E5M2), "float8_e5m2");
    CHECK_STR(tilec_dtype_name(TILEC_BOOL), "bool");
    CHECK_STR(tilec_dtype_name(0), "invalid");
    CHECK_STR(tilec_dtype_name(-3), "invalid");
    CHECK_STR(tilec_dtype_name(17), "invalid");
    CHECK_INT(tilec_dtype_size(TILEC_BOOL), 1);
    CHECK_INT(tilec_dtype_size(TILEC_INT64), 8);
    CHECK_INT(tilec_dtype_size(TILEC_FLOAT16), 2);
    CHECK_INT(tilec_dtype_size(TILEC_TFLOAT32), 4);
    CHECK_INT(tilec_dtype_size(TILEC_FLOAT8_E5M2), 1);
    CHECK_INT(tilec_dtype_size(TILEC_DTYPE_INVALID), 0);
    CHECK_INT(tilec_dtype_size(100), 0);
    /* the enum values are the compiler's Dtype order */
    CHECK_INT(TILEC_BOOL, 1);
    CHECK_INT(TILEC_FLOAT16, 10);
    CHECK_INT(TILEC_TFLOAT32, 14);
    CHECK_INT(TILEC_FLOAT8_E5M2, 16);
    CHECK_INT(TILEC_DTYPE_COUNT, 17);
}

/* TILEC_DTYPE_COUNT, generated from the dtype list, stays a preprocessor
 * constant. */
#if TILEC_DTYPE_COUNT != 17
#error "TILEC_DTYPE_COUNT is not 17"
#endif

static void test_error_text(void)
{
    tilec_clear_error();
    CHECK_STR(tilec_last_error(), "");
    CHECK_INT(tilec_fail(TILEC_ERR_CONSTANT, "BLOCK = %d is not compiled (have %s)", 96, "64, 128"),
              TILEC_ERR_CONSTANT);
    CHECK_STR(tilec_last_error(), "BLOCK = 96 is not compiled (have 64, 128)");
    /* success leaves it alone */
    {
        tilec_array a = tilec_array_1d(buf, TILEC_FLOAT32, 4);
        CHECK_INT(tilec_check_array(&a, "a", 1, TILEC_FLOAT32), TILEC_OK);
        CHECK_STR(tilec_last_error(), "BLOCK = 96 is not compiled (have 64, 128)");
    }
    /* long details are truncated, not overrun */
    {
        char big[2000];
        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        tilec_fail(TILEC_ERR_CUDA, "%s", big);
        CHECK_INT(strlen(tilec_last_error()), 511);
    }
    CHECK_INT(tilec_fail(TILEC_ERR_INVALID, NULL), TILEC_ERR_INVALID);
    CHECK_STR(tilec_last_error(), "");
    tilec_clear_error();
}

#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
static int thread_body(void *arg)
{
    (void)arg;
    tilec_fail(TILEC_ERR_CUDA, "from the other thread");
    return strcmp(tilec_last_error(), "from the other thread") == 0;
}
#endif

/* The error text is per thread: another thread's failure does not show here. */
static void test_error_thread_local(void)
{
#if !defined(__STDC_NO_THREADS__)
    thrd_t t;
    int ok = 0;
    tilec_fail(TILEC_ERR_RANK, "main thread");
    CHECK(thrd_create(&t, thread_body, NULL) == thrd_success, "thrd_create");
    CHECK(thrd_join(t, &ok) == thrd_success && ok, "the other thread saw its own text");
    CHECK_STR(tilec_last_error(), "main thread");
    tilec_clear_error();
#endif
}

static void test_make(void)
{
    int64_t shape[3] = {2, 3, 4}, st[2] = {10, 1};
    tilec_array a = tilec_array_make(buf, TILEC_FLOAT32, 3, shape), b;
    CHECK(a.data == buf, "data");
    CHECK_INT(a.dtype, TILEC_FLOAT32);
    CHECK_INT(a.ndim, 3);
    CHECK_INT(a.strides[0], 12);
    CHECK_INT(a.strides[1], 4);
    CHECK_INT(a.strides[2], 1);
    CHECK_INT(a.shape[3], 0);
    CHECK_INT(tilec_array_numel(&a), 24);
    b = tilec_array_2d(buf, TILEC_INT8, 5, 7);
    CHECK_INT(b.strides[0], 7);
    CHECK_INT(b.strides[1], 1);
    CHECK_INT(tilec_array_numel(&b), 35);
    b = tilec_array_make_strided(buf, TILEC_FLOAT32, 2, shape, st);
    CHECK_INT(b.strides[0], 10);
    CHECK_INT(b.shape[1], 3);
    /* zero extents count as 1 for strides, as in NumPy */
    b = tilec_array_2d(NULL, TILEC_FLOAT32, 0, 5);
    CHECK_INT(b.strides[0], 5);
    CHECK_INT(tilec_array_numel(&b), 0);
    b = tilec_array_0d(buf, TILEC_FLOAT64);
    CHECK_INT(b.ndim, 0);
    CHECK_INT(tilec_array_numel(&b), 1);
    b = tilec_array_3d(buf, TILEC_UINT8, 2, 2, 2);
    CHECK_INT(b.strides[0], 4);
    CHECK_INT(tilec_array_numel(&b), 8);
    b = tilec_array_make(buf, TILEC_FLOAT32, 9, shape); /* bad rank: nothing read */
    CHECK_INT(b.ndim, 9);
    CHECK_INT(tilec_array_numel(&b), -1);
    CHECK_INT(tilec_array_numel(NULL), -1);
    b = tilec_array_1d(buf, TILEC_FLOAT32, -1);
    CHECK_INT(tilec_array_numel(&b), -1);
    b = tilec_array_2d(buf, TILEC_FLOAT32, INT64_MAX, 4);
    CHECK_INT(tilec_array_numel(&b), -1);
}

static void test_check_array(void)
{
    tilec_array a = tilec_array_2d(buf, TILEC_FLOAT32, 4, 8), b;

    CHECK_INT(tilec_check_array(&a, "x", 2, TILEC_FLOAT32), TILEC_OK);
    CHECK_INT(tilec_check_array(NULL, "x", 2, TILEC_FLOAT32), TILEC_ERR_NULL_ARRAY);
    HAS(tilec_last_error(), "argument 'x'");
    CHECK_INT(tilec_check_array(&a, "x", 1, TILEC_FLOAT32), TILEC_ERR_RANK);
    CHECK_STR(tilec_last_error(), "argument 'x': rank 2, kernel expects 1");
    CHECK_INT(tilec_check_array(&a, "x", 2, TILEC_FLOAT16), TILEC_ERR_DTYPE);
    CHECK_STR(tilec_last_error(), "argument 'x': dtype float32, kernel expects float16");
    CHECK_INT(tilec_check_array(&a, "x", 9, TILEC_FLOAT32), TILEC_ERR_INVALID);
    CHECK_INT(tilec_check_array(&a, "x", 2, TILEC_DTYPE_INVALID), TILEC_ERR_INVALID);
    b = a;
    b.ndim = 12;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_RANK);
    b = a;
    b.dtype = 77;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_DTYPE);
    HAS(tilec_last_error(), "dtype invalid");

    /* shape */
    b = a;
    b.shape[1] = -3;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_SHAPE);
    CHECK_STR(tilec_last_error(), "argument 'x': shape[1] = -3 is negative");
    /* strides: negative rejected, zero (broadcast) accepted */
    b = a;
    b.strides[0] = -8;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_STRIDE);
    HAS(tilec_last_error(), "strides[0] = -8 is negative");
    b = a;
    b.strides[0] = 0;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_OK);
    b.strides[1] = 0;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_OK);
    /* a transposed view (column-major strides) is fine */
    b = a;
    b.strides[0] = 1;
    b.strides[1] = 4;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_OK);

    /* overflow: element count, highest offset, bytes, address wrap */
    b = a;
    b.shape[0] = INT64_MAX / 2;
    b.shape[1] = 4;
    b.strides[0] = 0;
    b.strides[1] = 1;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_OVERFLOW);
    HAS(tilec_last_error(), "element count");
    b = a;
    b.shape[0] = 3;
    b.strides[0] = INT64_MAX / 2 + 1;
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_OVERFLOW);
    HAS(tilec_last_error(), "highest element offset");
    b = a;
    b.shape[0] = 2;
    b.strides[0] = INT64_MAX / 4; /* offset fits, bytes (x4) do not */
    CHECK_INT(tilec_check_array(&b, "x", 2, TILEC_FLOAT32), TILEC_ERR_OVERFLOW);
    HAS(tilec_last_error(), "byte extent");
    b = tilec_array_1d((void *)(UINTPTR_MAX - 63), TILEC_INT8, 128);
    CHECK_INT(tilec_check_array(&b, "x", 1, TILEC_INT8), TILEC_ERR_OVERFLOW);
    HAS(tilec_last_error(), "wraps");
    {   /* strides overflowing in the constructor surface as OVERFLOW */
        int64_t sh[3] = {2, INT64_MAX / 2, 4};
        b = tilec_array_make(buf, TILEC_FLOAT32, 3, sh);
        CHECK_INT(tilec_check_array(&b, "x", 3, TILEC_FLOAT32), TILEC_ERR_OVERFLOW);
    }

    /* NULL data: an error unless the array is empty */
    b = tilec_array_2d(NULL, TILEC_FLOAT32, 4, 8);
    CHECK_INT(tilec_check_array(&b, "y", 2, TILEC_FLOAT32), TILEC_ERR_NULL_DATA);
    CHECK_STR(tilec_last_error(), "argument 'y': data is NULL for a non-empty array");
    b = tilec_array_2d(NULL, TILEC_FLOAT32, 0, 8);
    CHECK_INT(tilec_check_array(&b, "y", 2, TILEC_FLOAT32), TILEC_OK);
    b = tilec_array_2d(NULL, TILEC_FLOAT32, 5, 0);
    b.strides[0] = 123456789; /* strides of an empty array do not matter */
    CHECK_INT(tilec_check_array(&b, "y", 2, TILEC_FLOAT32), TILEC_OK);
    b = tilec_array_0d(NULL, TILEC_INT32); /* a scalar has one element */
    CHECK_INT(tilec_check_array(&b, "s", 0, TILEC_INT32), TILEC_ERR_NULL_DATA);
    b = tilec_array_0d(buf, TILEC_INT32);
    CHECK_INT(tilec_check_array(&b, "s", 0, TILEC_INT32), TILEC_OK);

    /* alignment to the element size */
    b = tilec_array_1d((char *)buf + 2, TILEC_FLOAT32, 4);
    CHECK_INT(tilec_check_array(&b, "z", 1, TILEC_FLOAT32), TILEC_ERR_ALIGN);
    HAS(tilec_last_error(), "aligned");
    b = tilec_array_1d((char *)buf + 2, TILEC_FLOAT16, 4);
    CHECK_INT(tilec_check_array(&b, "z", 1, TILEC_FLOAT16), TILEC_OK);
    b = tilec_array_1d((char *)buf + 1, TILEC_UINT8, 4);
    CHECK_INT(tilec_check_array(&b, "z", 1, TILEC_UINT8), TILEC_OK);
    /* NULL name does not crash */
    CHECK_INT(tilec_check_array(NULL, NULL, 1, TILEC_FLOAT32), TILEC_ERR_NULL_ARRAY);
}

static void test_alias(void)
{
    tilec_array x = tilec_array_1d(buf, TILEC_FLOAT32, 100);
    tilec_array y = tilec_array_1d(buf + 100, TILEC_FLOAT32, 100);
    tilec_array v;
    int64_t sh[2] = {10, 5}, st_even[2] = {10, 2}, st_odd[2] = {10, 2};

    /* disjoint, adjacent ranges: fine both ways */
    CHECK_INT(tilec_check_alias(&y, "y", &x, "x"), TILEC_OK);
    CHECK_INT(tilec_check_alias(&x, "x", &y, "y"), TILEC_OK);
    /* the identical view: in-place element-wise */
    v = x;
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_OK);
    CHECK_INT(tilec_check_alias(&x, "out", &x, "x"), TILEC_OK);
    /* same bytes and layout, another dtype of the same size: still one view */
    v.dtype = TILEC_INT32;
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_OK);
    /* shifted by one element: overlap, both ways */
    v = tilec_array_1d(buf + 1, TILEC_FLOAT32, 100);
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_ERR_ALIAS);
    HAS(tilec_last_error(), "output 'out' overlaps argument 'x'");
    CHECK_INT(tilec_check_alias(&x, "out", &v, "x"), TILEC_ERR_ALIAS);
    /* same data, different shape: overlap */
    v = tilec_array_1d(buf, TILEC_FLOAT32, 50);
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_ERR_ALIAS);
    /* same data and shape, different strides (a transpose): overlap */
    {
        tilec_array m = tilec_array_2d(buf, TILEC_FLOAT32, 8, 8), t = m;
        t.strides[0] = 1;
        t.strides[1] = 8;
        CHECK_INT(tilec_check_alias(&t, "out", &m, "m"), TILEC_ERR_ALIAS);
    }
    /* one element of overlap at the end */
    v = tilec_array_1d(buf + 99, TILEC_FLOAT32, 10);
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_ERR_ALIAS);
    /* interleaved views (even / odd columns) are refused: the test is on ranges */
    {
        tilec_array ev = tilec_array_make_strided(buf, TILEC_FLOAT32, 2, sh, st_even);
        tilec_array od = tilec_array_make_strided(buf + 1, TILEC_FLOAT32, 2, sh, st_odd);
        CHECK_INT(tilec_check_alias(&od, "out", &ev, "in"), TILEC_ERR_ALIAS);
    }
    /* empty arrays never alias */
    v = tilec_array_1d(buf, TILEC_FLOAT32, 0);
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_OK);
    CHECK_INT(tilec_check_alias(&x, "out", &v, "x"), TILEC_OK);
    /* a byte-size difference makes even same-pointer views overlap */
    v = tilec_array_1d(buf, TILEC_FLOAT16, 100);
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_ERR_ALIAS);
    /* disjoint: the same view is refused too */
    CHECK_INT(tilec_check_disjoint(&x, "a", &x, "b"), TILEC_ERR_ALIAS);
    HAS(tilec_last_error(), "output 'a' overlaps output 'b'");
    CHECK_INT(tilec_check_disjoint(&x, "a", &y, "b"), TILEC_OK);
    /* NULL and malformed descriptors */
    CHECK_INT(tilec_check_alias(NULL, "out", &x, "x"), TILEC_ERR_NULL_ARRAY);
    CHECK_INT(tilec_check_alias(&x, "out", NULL, "x"), TILEC_ERR_NULL_ARRAY);
    v = x;
    v.strides[0] = -1;
    CHECK_INT(tilec_check_alias(&v, "out", &x, "x"), TILEC_ERR_STRIDE);

    /* an output must not revisit elements */
    CHECK_INT(tilec_check_output(&x, "out"), TILEC_OK);
    v = x;
    v.strides[0] = 0;
    CHECK_INT(tilec_check_output(&v, "out"), TILEC_ERR_ALIAS);
    HAS(tilec_last_error(), "overlaps itself");
    {
        tilec_array m = tilec_array_2d(buf, TILEC_FLOAT32, 8, 8);
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_OK);
        m.strides[0] = 1;
        m.strides[1] = 8; /* column-major: fine */
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_OK);
        m.strides[0] = 4; /* rows of 8 every 4: overlap */
        m.strides[1] = 1;
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_ERR_ALIAS);
        m.strides[0] = 16; /* padded rows: fine */
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_OK);
        m.shape[0] = 1;
        m.strides[0] = 0; /* a broadcast dimension of extent 1 writes once */
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_OK);
        m.shape[0] = 0; /* empty */
        CHECK_INT(tilec_check_output(&m, "m"), TILEC_OK);
    }
    CHECK_INT(tilec_check_output(NULL, "m"), TILEC_ERR_NULL_ARRAY);
}

static void test_grid(void)
{
    tilec_grid g;
    g.x = 1; g.y = 1; g.z = 1;
    CHECK_INT(tilec_check_grid(g), TILEC_OK);
    g.x = 2147483647u; g.y = 65535; g.z = 65535;
    CHECK_INT(tilec_check_grid(g), TILEC_OK);
    g.x = 2147483648u;
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    HAS(tilec_last_error(), "2147483647");
    g.x = 1; g.y = 65536;
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    g.y = 1; g.z = 65536;
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    g.z = 0;
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    g.z = 1; g.x = 0;
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    HAS(tilec_last_error(), "empty dimension");

    CHECK_INT(tilec_cdiv(10, 3), 4);
    CHECK_INT(tilec_cdiv(9, 3), 3);
    CHECK_INT(tilec_cdiv(0, 3), 0);
    CHECK_INT(tilec_cdiv(1, 1024), 1);
    CHECK_INT(tilec_cdiv(-5, 2), -2);
    CHECK_INT(tilec_cdiv(5, 0), 0);
    CHECK_INT(tilec_cdiv(5, -1), 0);
    CHECK_INT(tilec_cdiv(INT64_MAX, 2), INT64_MAX / 2 + 1);

    g = tilec_grid_1d(1000, 256);
    CHECK(g.x == 4 && g.y == 1 && g.z == 1, "grid_1d");
    g = tilec_grid_2d(100, 300, 64, 128);
    CHECK(g.x == 2 && g.y == 3 && g.z == 1, "grid_2d: %u %u %u", g.x, g.y, g.z);
    g = tilec_grid_3d(2, 3, 4, 1, 2, 4);
    CHECK(g.x == 2 && g.y == 2 && g.z == 1, "grid_3d");
    CHECK(tilec_grid_size(g) == 4, "grid_size");
    g = tilec_grid_1d(0, 256); /* empty problem */
    CHECK_INT(g.x, 0);
    g = tilec_grid_1d(INT64_MAX, 1); /* saturates, then fails the check */
    CHECK(g.x == UINT32_MAX, "saturated");
    CHECK_INT(tilec_check_grid(g), TILEC_ERR_GRID);
    g.x = UINT32_MAX; g.y = UINT32_MAX; g.z = UINT32_MAX;
    CHECK(tilec_grid_size(g) == UINT64_MAX, "grid_size saturates");
}

static void test_fast_path(void)
{
    int64_t tile2[2] = {16, 32}, tile1[1] = {128};
    tilec_array m = tilec_array_2d(buf, TILEC_FLOAT32, 64, 64), v;
    /* buf is static float storage; find a 16-byte-aligned start */
    float *al = buf;
    while ((uintptr_t)al % 16) al++;
    m.data = al;
    CHECK_INT(tilec_array_fast_path(&m, 2, tile2, 4), 1);
    CHECK_INT(tilec_array_fast_path(&m, 2, tile2, 1), 1);
    v = m; v.shape[0] = 65; /* not divisible */
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 0);
    v = m; v.shape[1] = 48; /* not divisible by 32 */
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 0);
    v = m; v.data = al + 1; /* misaligned for 16-byte vectors */
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 0);
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 1), 1);
    v = m; v.strides[0] = 1; v.strides[1] = 64; /* inner stride not 1 */
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 0);
    v = m; v.strides[0] = 66; /* row pitch not a multiple of 4 */
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 0);
    v.strides[0] = 68;
    CHECK_INT(tilec_array_fast_path(&v, 2, tile2, 4), 1);
    CHECK_INT(tilec_array_fast_path(&m, 1, tile2, 4), 0); /* rank mismatch */
    CHECK_INT(tilec_array_fast_path(&m, 2, tile2, 0), 0);
    CHECK_INT(tilec_array_fast_path(NULL, 2, tile2, 4), 0);
    v = tilec_array_1d(al, TILEC_FLOAT16, 1024);
    CHECK_INT(tilec_array_fast_path(&v, 1, tile1, 8), 1);
    v.shape[0] = 1000;
    CHECK_INT(tilec_array_fast_path(&v, 1, tile1, 8), 0);
    v = tilec_array_1d(al, TILEC_FLOAT16, 1024);
    v.data = (char *)al + 8; /* 8-byte aligned: not for 8 x 2 bytes */
    CHECK_INT(tilec_array_fast_path(&v, 1, tile1, 8), 0);
    v.data = (char *)al + 16;
    CHECK_INT(tilec_array_fast_path(&v, 1, tile1, 8), 1);
}

static void test_dlpack(void)
{
    int64_t shape[2] = {3, 4}, strides[2] = {1, 3};
    DLTensor t;
    tilec_array a;
    DLDataType dt;
    memset(&t, 0, sizeof t);
    t.data = buf;
    t.device.device_type = kDLCPU;
    t.ndim = 2;
    t.dtype.code = kDLFloat;
    t.dtype.bits = 32;
    t.dtype.lanes = 1;
    t.shape = shape;
    /* strides NULL: compact row-major */
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK(a.data == buf, "data");
    CHECK_INT(a.dtype, TILEC_FLOAT32);
    CHECK_INT(a.ndim, 2);
    CHECK_INT(a.shape[0], 3);
    CHECK_INT(a.shape[1], 4);
    CHECK_INT(a.strides[0], 4);
    CHECK_INT(a.strides[1], 1);
    CHECK_INT(tilec_check_array(&a, "t", 2, TILEC_FLOAT32), TILEC_OK);
    /* explicit strides (in elements) and byte_offset */
    t.strides = strides;
    t.byte_offset = 16;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK(a.data == (char *)buf + 16, "byte_offset honoured");
    CHECK_INT(a.strides[0], 1);
    CHECK_INT(a.strides[1], 3);
    /* a byte_offset that is not a multiple of the element size converts,
     * and the check reports it */
    t.byte_offset = 2;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(tilec_check_array(&a, "t", 2, TILEC_FLOAT32), TILEC_ERR_ALIGN);
    t.byte_offset = 0;
    t.strides = NULL;
    /* dtypes */
    t.dtype.code = kDLBfloat;
    t.dtype.bits = 16;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_BFLOAT16);
    t.dtype.code = kDLFloat;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_FLOAT16);
    t.dtype.code = kDLInt;
    t.dtype.bits = 64;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_INT64);
    t.dtype.code = kDLUInt;
    t.dtype.bits = 8;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_UINT8);
    t.dtype.code = TILEC_KDL_BOOL;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_BOOL);
    t.dtype.code = TILEC_KDL_FLOAT8_E4M3FN;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_FLOAT8_E4M3FN);
    t.dtype.code = TILEC_KDL_FLOAT8_E5M2;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.dtype, TILEC_FLOAT8_E5M2);
    t.dtype.code = kDLComplex;
    t.dtype.bits = 64;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_DTYPE);
    CHECK_INT(a.ndim, 0); /* zeroed on failure */
    t.dtype.code = kDLFloat;
    t.dtype.bits = 8;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_DTYPE);
    /* lanes != 1 rejected */
    t.dtype.bits = 32;
    t.dtype.lanes = 4;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_DTYPE);
    HAS(tilec_last_error(), "4 lanes");
    t.dtype.lanes = 1;
    /* rank, shape, NULLs */
    t.ndim = 9;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_RANK);
    t.ndim = 2;
    t.shape = NULL;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_INVALID);
    t.shape = shape;
    CHECK_INT(tilec_array_from_dlpack(NULL, &a), TILEC_ERR_NULL_ARRAY);
    CHECK_INT(tilec_array_from_dlpack(&t, NULL), TILEC_ERR_NULL_ARRAY);
    t.data = NULL;
    t.byte_offset = 64;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_ERR_NULL_DATA);
    t.byte_offset = 0;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK); /* NULL data converts... */
    CHECK_INT(tilec_check_array(&a, "t", 2, TILEC_FLOAT32), TILEC_ERR_NULL_DATA); /* ...and is caught */
    t.data = buf;
    /* 0-d */
    t.ndim = 0;
    t.shape = NULL;
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(tilec_array_numel(&a), 1);
    t.ndim = 2;
    t.shape = shape;
    /* device check */
    CHECK_INT(tilec_array_from_dlpack_on(&t, kDLCPU, &a), TILEC_OK);
    CHECK_INT(tilec_array_from_dlpack_on(&t, kDLCUDA, &a), TILEC_ERR_DEVICE);
    HAS(tilec_last_error(), "device type 1");
    /* and back */
    CHECK_INT(tilec_dtype_to_dlpack(TILEC_BFLOAT16, &dt), TILEC_OK);
    CHECK(dt.code == kDLBfloat && dt.bits == 16 && dt.lanes == 1, "bf16 -> DLPack");
    CHECK_INT(tilec_dtype_to_dlpack(TILEC_BOOL, &dt), TILEC_OK);
    CHECK(dt.code == TILEC_KDL_BOOL && dt.bits == 8, "bool -> DLPack");
    CHECK_INT(tilec_dtype_to_dlpack(TILEC_TFLOAT32, &dt), TILEC_ERR_DTYPE);
    CHECK_INT(tilec_dtype_to_dlpack(TILEC_DTYPE_INVALID, &dt), TILEC_ERR_DTYPE);
    /* a legacy tensor is never read-only */
    CHECK_INT(tilec_array_from_dlpack(&t, &a), TILEC_OK);
    CHECK_INT(a.flags, 0);
    CHECK_INT(a.reserved_, 0);
}

/* The DLPack ABI of tilec_dlpack.h: DLPack 1.x's sizes and offsets on an
 * LP64 target (what every producer uses), checked at compile time. */
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
_Static_assert(sizeof(DLDevice) == 8, "DLDevice");
_Static_assert(sizeof(DLDataType) == 4, "DLDataType");
_Static_assert(offsetof(DLDataType, bits) == 1 && offsetof(DLDataType, lanes) == 2, "DLDataType");
_Static_assert(sizeof(DLTensor) == 48, "DLTensor");
_Static_assert(offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
                   offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
                   offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40,
               "DLTensor offsets");
_Static_assert(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, manager_ctx) == 48 &&
                   offsetof(DLManagedTensor, deleter) == 56,
               "DLManagedTensor");
_Static_assert(sizeof(DLPackVersion) == 8, "DLPackVersion");
_Static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
                   offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
                   offsetof(DLManagedTensorVersioned, deleter) == 16 &&
                   offsetof(DLManagedTensorVersioned, flags) == 24 &&
                   offsetof(DLManagedTensorVersioned, dl_tensor) == 32,
               "DLManagedTensorVersioned");
/* tilec_array: the new fields are appended, the old ones keep their place */
_Static_assert(offsetof(tilec_array, shape) == 16 && offsetof(tilec_array, strides) == 80 &&
                   offsetof(tilec_array, flags) == 144 && sizeof(tilec_array) == 152,
               "tilec_array");
#endif

static void test_dlpack_abi(void)
{
    /* enumerator values are DLPack's (1.x) */
    CHECK_INT(kDLCPU, 1);
    CHECK_INT(kDLCUDA, 2);
    CHECK_INT(kDLCUDAHost, 3);
    CHECK_INT(kDLCUDAManaged, 13);
    CHECK_INT(kDLBfloat, 4);
    CHECK_INT(kDLComplex, 5);
#ifdef TILEC_DLPACK_DECLARED_
    CHECK_INT(kDLBool, TILEC_KDL_BOOL);
    CHECK_INT(kDLFloat8_e4m3fn, TILEC_KDL_FLOAT8_E4M3FN);
    CHECK_INT(kDLFloat8_e5m2, TILEC_KDL_FLOAT8_E5M2);
    CHECK_INT(DLPACK_MAJOR_VERSION, 1);
#endif
    CHECK_INT(sizeof(DLDeviceType), 4);
    CHECK_INT(DLPACK_FLAG_BITMASK_READ_ONLY, 1);
    CHECK_INT(DLPACK_FLAG_BITMASK_IS_COPIED, 2);
    CHECK_INT(TILEC_DLPACK_MAJOR, 1);
}

static void test_dlpack_versioned(void)
{
    int64_t shape[1] = {16};
    DLManagedTensorVersioned m;
    tilec_array a;
    memset(&m, 0, sizeof m);
    m.version.major = 1;
    m.version.minor = 0;
    m.dl_tensor.data = buf;
    m.dl_tensor.device.device_type = kDLCPU;
    m.dl_tensor.ndim = 1;
    m.dl_tensor.dtype.code = kDLFloat;
    m.dl_tensor.dtype.bits = 32;
    m.dl_tensor.dtype.lanes = 1;
    m.dl_tensor.shape = shape;
    m.dl_tensor.byte_offset = 8;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_OK);
    CHECK(a.data == (char *)buf + 8, "byte_offset");
    CHECK_INT(a.dtype, TILEC_FLOAT32);
    CHECK_INT(a.ndim, 1);
    CHECK_INT(a.shape[0], 16);
    CHECK_INT(a.strides[0], 1);
    CHECK_INT(a.flags, 0);
    CHECK_INT(tilec_check_output(&a, "y"), TILEC_OK);
    /* any minor version of major 1 */
    m.version.minor = 7;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_OK);
    /* READ_ONLY: an input still works, an output is refused */
    m.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_OK);
    CHECK_INT(a.flags, TILEC_ARRAY_READONLY);
    CHECK_INT(tilec_check_array(&a, "x", 1, TILEC_FLOAT32), TILEC_OK);
    CHECK_INT(tilec_check_alias(&a, "x", &a, "x"), TILEC_OK);
    CHECK_INT(tilec_check_output(&a, "y"), TILEC_ERR_READONLY);
    HAS(tilec_last_error(), "output 'y' is read-only");
    /* IS_COPIED is recorded, and does not block writes */
    m.flags = DLPACK_FLAG_BITMASK_IS_COPIED | 0x100u;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_OK);
    CHECK_INT(a.flags, TILEC_ARRAY_COPIED);
    CHECK_INT(tilec_check_output(&a, "y"), TILEC_OK);
    m.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_OK);
    CHECK_INT(a.flags, TILEC_ARRAY_READONLY | TILEC_ARRAY_COPIED);
    m.flags = 0;
    /* another major version: refused, *out zeroed, both versions named */
    m.version.major = 2;
    m.version.minor = 3;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_ERR_INVALID);
    CHECK_STR(tilec_last_error(), "DLPack: versioned tensor of DLPack 2.3; this runtime reads 1.x only");
    CHECK(a.data == NULL && a.ndim == 0 && a.flags == 0, "zeroed on failure");
    m.version.major = 0;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_ERR_INVALID);
    m.version.major = 1;
    /* the DLTensor's own errors come through */
    m.dl_tensor.dtype.lanes = 2;
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, &a), TILEC_ERR_DTYPE);
    m.dl_tensor.dtype.lanes = 1;
    CHECK_INT(tilec_array_from_dlpack_versioned(NULL, &a), TILEC_ERR_NULL_ARRAY);
    CHECK_INT(tilec_array_from_dlpack_versioned(&m, NULL), TILEC_ERR_NULL_ARRAY);
    /* device */
    m.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    CHECK_INT(tilec_array_from_dlpack_versioned_on(&m, kDLCPU, &a), TILEC_OK);
    CHECK_INT(a.flags, TILEC_ARRAY_READONLY);
    m.dl_tensor.device.device_type = kDLCUDA;
    m.dl_tensor.device.device_id = 3;
    CHECK_INT(tilec_array_from_dlpack_versioned_on(&m, kDLCPU, &a), TILEC_ERR_DEVICE);
    CHECK_STR(tilec_last_error(), "DLPack: tensor on device type 2 (id 3), expected 1");
    CHECK(a.data == NULL && a.flags == 0, "zeroed on failure");
    CHECK_INT(tilec_array_from_dlpack_versioned_on(&m, kDLCUDA, &a), TILEC_OK);
    /* a legacy managed tensor converts through its dl_tensor */
    {
        DLManagedTensor lm;
        memset(&lm, 0, sizeof lm);
        lm.dl_tensor = m.dl_tensor;
        CHECK_INT(tilec_array_from_dlpack(&lm.dl_tensor, &a), TILEC_OK);
        CHECK(a.data == (char *)buf + 8 && a.flags == 0, "legacy managed");
    }
}

static void test_readonly(void)
{
    tilec_array a = tilec_array_1d(buf, TILEC_FLOAT32, 8), e;
    CHECK_INT(a.flags, 0); /* constructors make writable arrays */
    CHECK_INT(TILEC_ERR_READONLY, 15);
    CHECK_INT(TILEC_ERR_ASSERT, 16);
    CHECK_INT(TILEC_ERR_WORKSPACE, 17);
    CHECK_INT(TILEC_STATUS_COUNT, 18);
    CHECK_STR(tilec_status_string(TILEC_ERR_WORKSPACE), "TILEC_ERR_WORKSPACE: the graph's workspace is missing or too small");
    CHECK_STR(tilec_status_string(TILEC_ERR_ASSERT), "TILEC_ERR_ASSERT: a tile_assert failed");
    CHECK_STR(tilec_status_string(TILEC_ERR_READONLY), "TILEC_ERR_READONLY: output array is read-only");
    a.flags = TILEC_ARRAY_READONLY;
    CHECK_INT(tilec_check_array(&a, "x", 1, TILEC_FLOAT32), TILEC_OK); /* fine as an input */
    tilec_clear_error();
    CHECK_INT(tilec_check_output(&a, "out"), TILEC_ERR_READONLY);
    HAS(tilec_last_error(), "output 'out' is read-only");
    /* even empty: NumPy refuses writes to an empty read-only array too */
    e = tilec_array_1d(NULL, TILEC_FLOAT32, 0);
    e.flags = TILEC_ARRAY_READONLY;
    CHECK_INT(tilec_check_output(&e, "e"), TILEC_ERR_READONLY);
    /* other bits do not block */
    a.flags = TILEC_ARRAY_COPIED;
    CHECK_INT(tilec_check_output(&a, "out"), TILEC_OK);
    /* readonly is checked before the layout */
    a.flags = TILEC_ARRAY_READONLY;
    a.strides[0] = 0;
    CHECK_INT(tilec_check_output(&a, "out"), TILEC_ERR_READONLY);
}

static void test_device_switch(void)
{
    /* read once, at the first query: this is the process's first */
    setenv("TILEC_NO_DEVICE_CHECK", "1", 1);
    CHECK_INT(tilec_device_check_enabled(), 0);
    setenv("TILEC_NO_DEVICE_CHECK", "0", 1);
    CHECK_INT(tilec_device_check_enabled(), 0); /* not read again */
    tilec_set_device_check(1);
    CHECK_INT(tilec_device_check_enabled(), 1);
    tilec_set_device_check(0);
    CHECK_INT(tilec_device_check_enabled(), 0);
    tilec_set_device_check(42);
    CHECK_INT(tilec_device_check_enabled(), 1);
    unsetenv("TILEC_NO_DEVICE_CHECK");
}

/* NumPy broadcasting for array kernels: shapes align at their last axes, an
 * extent 1 stretches (stride 0), other extents must agree; the errors name
 * both arrays. */
static void test_broadcast(void)
{
    int64_t sh[TILEC_MAX_RANK];
    tilec_array m = tilec_array_2d(buf, TILEC_FLOAT32, 4, 8); /* (4, 8) */
    tilec_array row = tilec_array_1d(buf, TILEC_FLOAT32, 8);  /* (8,) */
    tilec_array col = tilec_array_2d(buf, TILEC_FLOAT32, 4, 1); /* (4, 1) */
    tilec_array one = tilec_array_2d(buf, TILEC_FLOAT32, 1, 8); /* (1, 8) */
    tilec_array bad = tilec_array_1d(buf, TILEC_FLOAT32, 5);  /* (5,) */
    tilec_array cube = tilec_array_3d(buf, TILEC_FLOAT32, 2, 4, 8), out;
    tilec_array s0 = tilec_array_0d(buf, TILEC_FLOAT32);
    tilec_array empty = tilec_array_2d(buf, TILEC_FLOAT32, 0, 8);

    /* the broadcast shape */
    {
        const tilec_array *ops[2] = {&m, &m};
        const char *names[2] = {"a", "b"};
        CHECK_INT(tilec_broadcast_shape(2, ops, names, 2, sh), TILEC_OK);
        CHECK_INT(sh[0], 4);
        CHECK_INT(sh[1], 8);
    }
    {   /* lower ranks align at the last axes; extent 1 stretches */
        const tilec_array *ops[3] = {&row, &col, &one};
        const char *names[3] = {"row", "col", "one"};
        CHECK_INT(tilec_broadcast_shape(3, ops, names, 2, sh), TILEC_OK);
        CHECK_INT(sh[0], 4);
        CHECK_INT(sh[1], 8);
        /* to a higher rank than any operand: the leading axes are 1 */
        CHECK_INT(tilec_broadcast_shape(3, ops, names, 3, sh), TILEC_OK);
        CHECK_INT(sh[0], 1);
        CHECK_INT(sh[1], 4);
        CHECK_INT(sh[2], 8);
    }
    {   /* a rank-0 array and a rank-3 one */
        const tilec_array *ops[2] = {&s0, &cube};
        const char *names[2] = {"s", "c"};
        CHECK_INT(tilec_broadcast_shape(2, ops, names, 3, sh), TILEC_OK);
        CHECK_INT(sh[0], 2);
        CHECK_INT(sh[1], 4);
        CHECK_INT(sh[2], 8);
    }
    {   /* an extent 0 wins against 1, as in NumPy */
        const tilec_array *ops[2] = {&one, &empty};
        const char *names[2] = {"one", "e"};
        CHECK_INT(tilec_broadcast_shape(2, ops, names, 2, sh), TILEC_OK);
        CHECK_INT(sh[0], 0);
        CHECK_INT(sh[1], 8);
    }
    {   /* no operands: all ones */
        CHECK_INT(tilec_broadcast_shape(0, NULL, NULL, 2, sh), TILEC_OK);
        CHECK_INT(sh[0], 1);
        CHECK_INT(sh[1], 1);
    }
    {   /* incompatible extents: SHAPE, naming the array that set the axis and the other */
        const tilec_array *ops[3] = {&col, &m, &bad};
        const char *names[3] = {"col", "x", "w"};
        CHECK_INT(tilec_broadcast_shape(3, ops, names, 2, sh), TILEC_ERR_SHAPE);
        CHECK_STR(tilec_last_error(), "arguments 'x' (4, 8) and 'w' (5,) do not broadcast together (axis 1 of the "
                                      "broadcast: 8 against 5)");
        ops[0] = &bad; /* the first array that set the axis is named, in order */
        names[0] = "w";
        ops[2] = &row;
        names[2] = "r";
        CHECK_INT(tilec_broadcast_shape(3, ops, names, 2, sh), TILEC_ERR_SHAPE);
        HAS(tilec_last_error(), "'w' (5,)");
        HAS(tilec_last_error(), "'x' (4, 8)");
    }
    {   /* an operand of rank above the broadcast's: RANK; an invalid rank: INVALID */
        const tilec_array *ops[2] = {&row, &cube};
        const char *names[2] = {"r", "c"};
        CHECK_INT(tilec_broadcast_shape(2, ops, names, 2, sh), TILEC_ERR_RANK);
        CHECK_STR(tilec_last_error(), "argument 'c': rank 3 is more than the 2 it broadcasts to");
        CHECK_INT(tilec_broadcast_shape(2, ops, names, TILEC_MAX_RANK + 1, sh), TILEC_ERR_INVALID);
        CHECK_INT(tilec_broadcast_shape(2, ops, names, -1, sh), TILEC_ERR_INVALID);
    }

    /* one array broadcast to a shape: the same data, stretched axes of stride 0
     * (the launchers name the shape by the output, or "the reduction's operands") */
    sh[0] = 4;
    sh[1] = 8;
    CHECK_INT(tilec_broadcast_to(&m, "x", sh, 2, "y", &out), TILEC_OK);
    CHECK(out.data == buf, "data");
    CHECK_INT(out.ndim, 2);
    CHECK_INT(out.strides[0], 8);
    CHECK_INT(out.strides[1], 1);
    /* a lower rank keeps its own rank and strides (the kernel aligns it at the last axes) */
    CHECK_INT(tilec_broadcast_to(&row, "b", sh, 2, "y", &out), TILEC_OK);
    CHECK_INT(out.ndim, 1);
    CHECK_INT(out.shape[0], 8);
    CHECK_INT(out.strides[0], 1);
    CHECK_INT(tilec_broadcast_to(&col, "c", sh, 2, "y", &out), TILEC_OK);
    CHECK_INT(out.shape[0], 4);
    CHECK_INT(out.strides[0], 1);
    CHECK_INT(out.shape[1], 8);
    CHECK_INT(out.strides[1], 0);
    CHECK_INT(tilec_broadcast_to(&one, "o", sh, 2, "y", &out), TILEC_OK);
    CHECK_INT(out.shape[0], 4);
    CHECK_INT(out.strides[0], 0);
    CHECK_INT(out.shape[1], 8);
    CHECK_INT(out.strides[1], 1);
    {   /* (1, 1, 8) to (2, 4, 8): both leading axes stretch */
        int64_t s3[3] = {2, 4, 8}, s111[3] = {1, 1, 8};
        tilec_array t = tilec_array_make(buf, TILEC_FLOAT32, 3, s111);
        CHECK_INT(tilec_broadcast_to(&t, "t", s3, 3, "the reduction's operands", &out), TILEC_OK);
        CHECK_INT(out.shape[0], 2);
        CHECK_INT(out.strides[0], 0);
        CHECK_INT(out.shape[1], 4);
        CHECK_INT(out.strides[1], 0);
        CHECK_INT(out.strides[2], 1);
        CHECK_INT(tilec_check_array(&out, "t", 3, TILEC_FLOAT32), TILEC_OK);
    }
    /* an extent that is neither the shape's nor 1: SHAPE naming the array and the space */
    CHECK_INT(tilec_broadcast_to(&bad, "w", sh, 2, "'y'", &out), TILEC_ERR_SHAPE);
    CHECK_STR(tilec_last_error(), "argument 'w' (5,) does not broadcast to 'y' (4, 8) (axis 0: 5 against 8)");
    CHECK_INT(tilec_broadcast_to(&cube, "c", sh, 2, "'y'", &out), TILEC_ERR_RANK);
    CHECK_STR(tilec_last_error(), "argument 'c': rank 3 does not broadcast to 'y', of rank 2");

    /* a reduction's output: the space without the reduced axis */
    {
        int64_t sp[3] = {2, 4, 8};
        tilec_array r1 = tilec_array_2d(buf, TILEC_FLOAT32, 2, 8);
        CHECK_INT(tilec_check_reduced(&r1, "y", sp, 3, 1, 0), TILEC_OK);
        CHECK_INT(tilec_check_reduced(&row, "y", sh, 2, 0, 0), TILEC_OK); /* (4, 8) along 0: (8,) */
        CHECK_INT(tilec_check_reduced(&row, "y", sh, 2, 1, 0), TILEC_ERR_SHAPE); /* along 1: (4,) */
        CHECK_STR(tilec_last_error(), "output 'y' (8,): the reduction of (4, 8) along axis 1 gives (4,)");
        CHECK_INT(tilec_check_reduced(&r1, "y", sp, 3, 2, 0), TILEC_ERR_SHAPE);
        CHECK_STR(tilec_last_error(), "output 'y' (2, 8): the reduction of (2, 4, 8) along axis 2 gives (2, 4)");
        CHECK_INT(tilec_check_reduced(&row, "y", sp, 3, 1, 0), TILEC_ERR_SHAPE); /* rank 1, want 2 */
        HAS(tilec_last_error(), "output 'y' (8,)");
        /* an extent 1 output does not stretch */
        r1.shape[1] = 1;
        CHECK_INT(tilec_check_reduced(&r1, "y", sp, 3, 1, 0), TILEC_ERR_SHAPE);
        /* .keepdims: extent 1 along the axis; a full output: the space itself */
        tilec_array k3 = tilec_array_3d(buf, TILEC_FLOAT32, 2, 1, 8), f3 = tilec_array_3d(buf, TILEC_FLOAT32, 2, 4, 8);
        CHECK_INT(tilec_check_reduced(&k3, "y", sp, 3, 1, 1), TILEC_OK);
        CHECK_INT(tilec_check_reduced(&f3, "y", sp, 3, 1, 1), TILEC_ERR_SHAPE);
        CHECK_STR(tilec_last_error(), "output 'y' (2, 4, 8): the reduction of (2, 4, 8) along axis 1 gives (2, 1, 8)");
        CHECK_INT(tilec_check_reduced(&f3, "y", sp, 3, 1, 2), TILEC_OK);
        CHECK_INT(tilec_check_reduced(&k3, "y", sp, 3, 1, 2), TILEC_ERR_SHAPE);
        CHECK_STR(tilec_last_error(), "output 'y' (2, 1, 8) must have the operands' shape (2, 4, 8)");
    }

    /* two outputs of one shape */
    CHECK_INT(tilec_check_same_shape(&m, "s", &m, "d"), TILEC_OK);
    CHECK_INT(tilec_check_same_shape(&m, "s", &one, "d"), TILEC_ERR_SHAPE);
    CHECK_STR(tilec_last_error(), "output 's' (4, 8) and output 'd' (1, 8) must have the same shape");
    CHECK_INT(tilec_check_same_shape(&m, "s", &row, "d"), TILEC_ERR_SHAPE); /* (8,) does not broadcast here */
    HAS(tilec_last_error(), "output 'd' (8,)");
    CHECK_INT(tilec_check_same_shape(&s0, "s", &s0, "d"), TILEC_OK);
    /* NULL names do not crash */
    CHECK_INT(tilec_check_same_shape(&m, NULL, &row, NULL), TILEC_ERR_SHAPE);
    CHECK_INT(tilec_broadcast_to(&bad, NULL, sh, 2, NULL, &out), TILEC_ERR_SHAPE);
    tilec_clear_error();
}

int main(void)
{
    test_strings();
    test_error_text();
    test_error_thread_local();
    test_make();
    test_check_array();
    test_alias();
    test_grid();
    test_fast_path();
    test_dlpack();
    test_dlpack_abi();
    test_dlpack_versioned();
    test_readonly();
    test_device_switch();
    test_broadcast();
    return check_done("rt");
}
