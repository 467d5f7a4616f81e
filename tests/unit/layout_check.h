/* layout_check.h: what the layout unit tests (test_layout.c,
 * test_layout_brute.c) share: parsing a layout or tiler that must parse (a
 * failed CHECK otherwise) and printing into rotating buffers, so that one
 * CHECK can compare two printed layouts. */
#ifndef TILEC_LAYOUT_CHECK_H
#define TILEC_LAYOUT_CHECK_H
#include "check.h"
#include "sema/layout.h"

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
#endif
