/* layout_text.c: CuTe's text notation, read: layouts (`(2,4):(1,2)`),
 * tilers (`<2:1,_>`) and coordinate tuples, each error a one-line reason
 * with its column; and swizzles (`Sw<3,3,3>`: made, applied, read and
 * printed).  Printing layouts is in layout.c (its error messages print
 * them too). */
#include "sema/layout_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- text: parsing -------------------------------------------------------- */

typedef struct Parser {
    const char *s;
    size_t pos;
    Err *e;
} Parser;

/* A parsed integer tree with the column of each node, for error messages. */
typedef struct ITree {
    int n;
    Node nd[LAYOUT_MAX_NODES];
    int col[LAYOUT_MAX_NODES];
} ITree;

static void skip_ws(Parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t') p->pos++;
}

static bool perr(Parser *p, size_t pos, const char *what)
{
    return lay_fail(p->e, "column %zu: %s", pos + 1, what);
}

static bool expected(Parser *p, const char *what)
{
    char msg[128], found[32];
    char c = p->s[p->pos];
    if (c == '\0')
        snprintf(found, sizeof found, "end of input");
    else if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
        snprintf(found, sizeof found, "'%c'", c);
    else
        snprintf(found, sizeof found, "byte 0x%02x", (unsigned char)c);
    snprintf(msg, sizeof msg, "expected %s but found %s", what, found);
    return perr(p, p->pos, msg);
}

static bool parse_int(Parser *p, int64_t *v)
{
    size_t start = p->pos;
    bool neg = false;
    if (p->s[p->pos] == '_') { /* CuTe prints static integers as _8 */
        char c = p->s[p->pos + 1];
        if ((c < '0' || c > '9') && c != '-')
            return perr(p, start,
                        "'_' (CuTe's Underscore) may only stand for a whole mode of a tiler, "
                        "such as <2,_>, not inside a layout or tuple");
        p->pos++;
    }
    if (p->s[p->pos] == '-') {
        neg = true;
        p->pos++;
    }
    if (p->s[p->pos] < '0' || p->s[p->pos] > '9') {
        p->pos = start;
        return expected(p, "a number or '('");
    }
    int64_t x = 0;
    bool big = false;
    while (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
        if (!big) {
            x = x * 10 + (p->s[p->pos] - '0');
            if (x > LAYOUT_MAX_VALUE) big = true;
        }
        p->pos++;
    }
    if (big) return perr(p, start, "integer exceeds the limit 2^48");
    *v = neg ? -x : x;
    return true;
}

static bool parse_itree_rec(Parser *p, Builder *b, int *col, int depth)
{
    skip_ws(p);
    size_t start = p->pos;
    if (p->s[p->pos] == '(') {
        if (depth >= LAYOUT_MAX_DEPTH) return perr(p, start, "tuples nest too deeply");
        if (b->n < LAYOUT_MAX_NODES) col[b->n] = (int)start;
        lay_b_open(b, TUPLE);
        if (lay_b_bad(b)) return perr(p, start, "too many modes");
        p->pos++;
        for (;;) {
            if (!parse_itree_rec(p, b, col, depth + 1)) return false;
            skip_ws(p);
            if (p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->s[p->pos] == ')') {
                p->pos++;
                break;
            }
            return expected(p, "',' or ')'");
        }
        lay_b_close(b);
        return true;
    }
    int64_t v = 0;
    if (!parse_int(p, &v)) return false;
    if (b->n < LAYOUT_MAX_NODES) col[b->n] = (int)start;
    lay_b_leaf(b, v, 0);
    if (lay_b_bad(b)) return perr(p, start, "too many modes (the limit is 64 integers)");
    return true;
}

static bool parse_itree(Parser *p, ITree *t)
{
    Builder b;
    lay_b_init(&b, t->nd);
    if (!parse_itree_rec(p, &b, t->col, 0)) return false;
    t->n = b.n;
    return true;
}

static void emit_merged(Builder *b, const ITree *sh, const ITree *st, int i)
{
    if (sh->nd[i].kind == LEAF) {
        lay_b_leaf(b, sh->nd[i].shape, st->nd[i].shape);
        return;
    }
    lay_b_open(b, TUPLE);
    for (int c = i + 1; c < sh->nd[i].end; c = sh->nd[c].end) emit_merged(b, sh, st, c);
    lay_b_close(b);
}

/* Parse one layout at the cursor and append it to b as a subtree. */
static bool parse_layout_into(Parser *p, Builder *b)
{
    ITree sh, st;
    skip_ws(p);
    size_t start = p->pos;
    if (!parse_itree(p, &sh)) return false;
    for (int i = 0; i < sh.n; i++)
        if (sh.nd[i].kind == LEAF && sh.nd[i].shape < 1)
            return perr(p, (size_t)sh.col[i], "shape must be positive");
    skip_ws(p);
    if (p->s[p->pos] == ':') {
        p->pos++;
        skip_ws(p);
        if (!parse_itree(p, &st)) return false;
        for (int i = 0; i < sh.n; i++) {
            if (i >= st.n) return perr(p, p->pos, "stride is not congruent with the shape");
            if (st.nd[i].kind != sh.nd[i].kind || st.nd[i].nchild != sh.nd[i].nchild) {
                char msg[96];
                if (sh.nd[i].kind == LEAF)
                    snprintf(msg, sizeof msg,
                             "stride is not congruent with the shape: expected an integer");
                else
                    snprintf(msg, sizeof msg,
                             "stride is not congruent with the shape: expected a tuple of %d",
                             sh.nd[i].nchild);
                return perr(p, (size_t)st.col[i], msg);
            }
        }
    } else {
        /* CuTe's LayoutLeft: compact column-major, size-1 modes stride 0 */
        st = sh;
        int64_t prod = 1;
        for (int i = 0; i < sh.n; i++) {
            if (sh.nd[i].kind != LEAF) continue;
            st.nd[i].shape = sh.nd[i].shape == 1 ? 0 : prod;
            if (lay_mul_ovf(prod, sh.nd[i].shape, &prod) || prod > LAYOUT_MAX_VALUE)
                return perr(p, start, "layout size exceeds the limit 2^48");
        }
    }
    int root = b->n;
    emit_merged(b, &sh, &st, 0);
    if (lay_b_bad(b)) return perr(p, start, "layout too large");
    if (!lay_check_values(b->nd, root, p->e)) {
        char pre[32];
        snprintf(pre, sizeof pre, "column %zu: ", start + 1);
        return lay_wrap(p->e, pre);
    }
    return true;
}

static bool at_end(Parser *p, const char *what)
{
    skip_ws(p);
    if (p->s[p->pos] != '\0') {
        char msg[80];
        snprintf(msg, sizeof msg, "unexpected '%c' after the %s", p->s[p->pos], what);
        return perr(p, p->pos, msg);
    }
    return true;
}

bool layout_parse(const char *text, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!text || !out) return lay_fail(&e, "missing argument");
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    Parser p = {text, 0, &e};
    if (!parse_layout_into(&p, &b) || !at_end(&p, "layout")) return false;
    tmp.n = b.n;
    lay_copy_nodes(&out->n, out->node, tmp.n, tmp.node);
    return true;
}

static bool parse_tiler_rec(Parser *p, Builder *b, int depth)
{
    skip_ws(p);
    size_t start = p->pos;
    if (p->s[p->pos] == '_') {
        char c = p->s[p->pos + 1];
        if ((c < '0' || c > '9') && c != '-') { /* `_`, not the integer `_8` */
            lay_b_under(b);
            if (lay_b_bad(b)) return perr(p, start, "tiler too large");
            p->pos++;
            return true;
        }
    }
    if (p->s[p->pos] != '<') return parse_layout_into(p, b);
    if (depth >= LAYOUT_MAX_DEPTH) return perr(p, start, "tilers nest too deeply");
    lay_b_open(b, TILE);
    if (lay_b_bad(b)) return perr(p, start, "tiler too large");
    p->pos++;
    for (;;) {
        if (!parse_tiler_rec(p, b, depth + 1)) return false;
        skip_ws(p);
        if (p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == '>') {
            p->pos++;
            break;
        }
        return expected(p, "',' or '>'");
    }
    lay_b_close(b);
    if (lay_b_bad(b)) return perr(p, start, "tiler too large");
    return true;
}

bool layout_tiler_parse(const char *text, LayoutTiler *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!text || !out) return lay_fail(&e, "missing argument");
    LayoutTiler tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    Parser p = {text, 0, &e};
    if (!parse_tiler_rec(&p, &b, 0) || !at_end(&p, "tiler")) return false;
    tmp.n = b.n;
    lay_copy_nodes(&out->n, out->node, tmp.n, tmp.node);
    return true;
}

bool layout_tuple_parse(const char *text, LayoutTuple *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!text || !out) return lay_fail(&e, "missing argument");
    ITree t;
    Parser p = {text, 0, &e};
    if (!parse_itree(&p, &t) || !at_end(&p, "tuple")) return false;
    lay_copy_nodes(&out->n, out->node, t.n, t.nd);
    return true;
}

/* ---- swizzles ------------------------------------------------------------------ */

bool layout_swizzle_make(int bits, int base, int shift, LayoutSwizzle *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    int mag = shift < 0 ? -shift : shift;
    if (bits < 0 || bits > 16) return lay_fail(&e, "swizzle: B = %d is not in 0..16", bits);
    if (base < 0 || base > 61) return lay_fail(&e, "swizzle: M = %d is not in 0..61", base);
    if (shift < -61 || shift > 61 || mag < bits)
        return lay_fail(&e, "swizzle: |S| = %d must be at least B = %d (the bit fields would overlap)", mag, bits);
    if (base + bits + mag > 62) return lay_fail(&e, "swizzle: M + B + |S| = %d is above 62", base + bits + mag);
    *out = (LayoutSwizzle){bits, base, shift};
    return true;
}

int64_t layout_swizzle_apply(const LayoutSwizzle *sw, int64_t offset)
{
    uint64_t x = (uint64_t)offset;
    uint64_t field = ((UINT64_C(1) << sw->bits) - 1);
    if (sw->shift >= 0) return (int64_t)(x ^ ((x >> sw->shift) & (field << sw->base)));
    return (int64_t)(x ^ ((x << -sw->shift) & (field << (sw->base - sw->shift))));
}

size_t layout_swizzle_format(const LayoutSwizzle *sw, char *buf, size_t size)
{
    int n = snprintf(buf, size, "Sw<%d,%d,%d>", sw->bits, sw->base, sw->shift);
    return n < 0 ? 0 : (size_t)n;
}

bool layout_swizzle_parse(const char *text, LayoutSwizzle *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    const char *p = text;
    long v[3];
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "Sw", 2)) return lay_fail(&e, "swizzle: expected Sw<B,M,S>, not '%s'", text);
    p += 2;
    while (*p == ' ' || *p == '\t') p++;
    if (*p++ != '<') return lay_fail(&e, "swizzle: expected '<' after Sw in '%s'", text);
    for (int i = 0; i < 3; i++) {
        while (*p == ' ' || *p == '\t') p++;
        char *end;
        v[i] = strtol(p, &end, 10);
        if (end == p || v[i] < -1000 || v[i] > 1000) return lay_fail(&e, "swizzle: expected an integer in '%s'", text);
        p = end;
        while (*p == ' ' || *p == '\t') p++;
        if (*p++ != (i < 2 ? ',' : '>')) return lay_fail(&e, "swizzle: expected '%c' in '%s'", i < 2 ? ',' : '>', text);
    }
    while (*p == ' ' || *p == '\t') p++;
    if (*p) return lay_fail(&e, "swizzle: unexpected '%s' after Sw<B,M,S>", p);
    return layout_swizzle_make((int)v[0], (int)v[1], (int)v[2], out, err, errlen);
}
