/* layout_check.h: what the layout unit tests (test_layout.c,
 * test_layout_brute.c) share: parsing a layout or tiler that must parse (a
 * failed CHECK otherwise) and printing into rotating buffers, so that one
 * CHECK can compare two printed layouts. */
#ifndef TILEC_LAYOUT_CHECK_H
#define TILEC_LAYOUT_CHECK_H
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "sema/layout.h"

/* xorshift64*: random layouts, reproducible (a test may reseed rng) */
static uint64_t rng = 0x2545F4914F6CDD1DULL;
static inline uint64_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
}

static inline int64_t rr(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* LAYOUT_TEST_SCALE multiplies the property iterations, for stress runs by
 * hand; the default run is fixed and fast. */
static inline int scale(void)
{
    const char *v = getenv("LAYOUT_TEST_SCALE");
    int k = v ? atoi(v) : 1;
    return k < 1 ? 1 : k;
}

/* Layout text built piece by piece. */
typedef struct Str {
    char b[2048];
    size_t n;
} Str;

static inline void sput(Str *s, const char *t)
{
    size_t k = strlen(t);
    if (s->n + k < sizeof s->b) {
        memcpy(s->b + s->n, t, k + 1);
        s->n += k;
    }
}

static inline void sint(Str *s, int64_t v)
{
    char t[24];
    snprintf(t, sizeof t, "%" PRId64, v);
    sput(s, t);
}

static inline Layout P(const char *text)
{
    Layout l;
    char err[256];
    if (!layout_parse(text, &l, err, sizeof err)) {
        CHECK(0, "cannot parse %s: %s", text, err);
        layout_make(1, 0, &l, NULL, 0);
    }
    return l;
}

static inline LayoutTiler PT(const char *text)
{
    LayoutTiler t;
    char err[256];
    if (!layout_tiler_parse(text, &t, err, sizeof err)) {
        CHECK(0, "cannot parse tiler %s: %s", text, err);
        Layout one;
        layout_make(1, 0, &one, NULL, 0);
        layout_tiler_from_layout(&one, &t);
    }
    return t;
}

/* A rotating set of result strings, so a CHECK_STR can compare two. */
static inline char *slot(void)
{
    static char bufs[8][LAYOUT_STR_MAX + 300];
    static int k;
    k = (k + 1) % 8;
    return bufs[k];
}

static inline const char *S(const Layout *l)
{
    char *b = slot();
    layout_format(l, b, LAYOUT_STR_MAX);
    return b;
}

static inline const char *ST(const LayoutTiler *t)
{
    char *b = slot();
    layout_tiler_format(t, b, LAYOUT_STR_MAX);
    return b;
}
/* How random layout text nests its leaves: tuples no deeper than
 * max_depth; 1 in wrap_leaf single leaves written as a tuple of their own
 * (0: none); a rank-1 layout bare unless 1 in tuple_single. */
typedef struct Nesting {
    int max_depth, wrap_leaf, tuple_single;
} Nesting;

/* Random nesting of the leaves [lo, hi) into shape and stride text. */
static inline void emit_group(const Nesting *nz, Str *sh, Str *st, const int64_t *s, const int64_t *d, int lo, int hi,
                              int depth)
{
    sput(sh, "(");
    sput(st, "(");
    int i = lo;
    while (i < hi) {
        int g = 1 + (int)(rnd() % (uint64_t)(hi - i));
        if (depth >= nz->max_depth || rnd() % 3 != 0) g = 1;
        if (i > lo) {
            sput(sh, ",");
            sput(st, ",");
        }
        if (g == 1 && (!nz->wrap_leaf || rnd() % (uint64_t)nz->wrap_leaf != 0)) {
            sint(sh, s[i]);
            sint(st, d[i]);
        } else {
            emit_group(nz, sh, st, s, d, i, i + g, depth + 1);
        }
        i += g;
    }
    sput(sh, ")");
    sput(st, ")");
}

/* "shape:stride" text of the n leaves s:d, randomly nested. */
static inline void layout_text(const Nesting *nz, Str *out, const int64_t *s, const int64_t *d, int n)
{
    Str sh = {.n = 0}, st = {.n = 0};
    sh.b[0] = st.b[0] = '\0';
    if (n == 1 && rnd() % (uint64_t)nz->tuple_single != 0) {
        sint(&sh, s[0]);
        sint(&st, d[0]);
    } else {
        emit_group(nz, &sh, &st, s, d, 0, n, 0);
    }
    out->n = 0;
    out->b[0] = '\0';
    sput(out, sh.b);
    sput(out, ":");
    sput(out, st.b);
}
#endif
