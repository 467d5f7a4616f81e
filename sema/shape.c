/* shape.c: tile shapes, NumPy broadcasting, and their text form. */
#include "sema/shape.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void shape_err_(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void shape_err_(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int64_t shape_numel(const Shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) {
        int64_t d = s->dim[i];
        if (d < 0)
            return -1;
        if (d != 0 && n > INT64_MAX / d)
            return -1;
        n *= d;
    }
    return n;
}

bool shape_equal(const Shape *a, const Shape *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i])
            return false;
    return true;
}

bool shape_is_pow2(const Shape *s, int *bad_dim)
{
    if (bad_dim)
        *bad_dim = -1;
    for (int i = 0; i < s->rank; i++) {
        int64_t d = s->dim[i];
        if (d <= 0 || (d & (d - 1)) != 0) {
            if (bad_dim)
                *bad_dim = i;
            return false;
        }
    }
    return true;
}

char *shape_format(const Shape *s, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    size_t len = 0;
    buf[0] = '\0';
#define SHAPE_PUT_(...)                                                     \
    do {                                                                    \
        if (len < n) {                                                      \
            int k_ = snprintf(buf + len, n - len, __VA_ARGS__);             \
            len = k_ < 0 ? n : len + (size_t)k_;                            \
        }                                                                   \
    } while (0)
    SHAPE_PUT_("(");
    int rank = s->rank < 0 ? 0 : s->rank > TILE_MAX_RANK ? TILE_MAX_RANK : s->rank;
    for (int i = 0; i < rank; i++)
        SHAPE_PUT_(i ? ",%" PRId64 : "%" PRId64, s->dim[i]);
    SHAPE_PUT_(rank == 1 ? ",)" : ")");
#undef SHAPE_PUT_
    return buf;
}

bool shape_broadcast(const Shape *a, const Shape *b, Shape *out, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    Shape r = {0};
    r.rank = a->rank > b->rank ? a->rank : b->rank;
    for (int i = 0; i < r.rank; i++) {
        /* dimension i of the result; a and b are padded with ones on the left */
        int ia = i - (r.rank - a->rank), ib = i - (r.rank - b->rank);
        int64_t da = ia >= 0 ? a->dim[ia] : 1, db = ib >= 0 ? b->dim[ib] : 1;
        if (da == db || db == 1) {
            r.dim[i] = da;
        } else if (da == 1) {
            r.dim[i] = db;
        } else {
            char sa[SHAPE_FMT_MAX], sb[SHAPE_FMT_MAX];
            shape_err_(err, errlen,
                       "shapes %s and %s cannot be broadcast: dimension %d is %" PRId64
                       " vs %" PRId64,
                       shape_format(a, sa, sizeof sa), shape_format(b, sb, sizeof sb), i, da,
                       db);
            return false;
        }
    }
    if (out)
        *out = r;
    return true;
}

bool shape_broadcast_to(const Shape *from, const Shape *to, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    char sf[SHAPE_FMT_MAX], st[SHAPE_FMT_MAX];
    if (from->rank > to->rank) {
        shape_err_(err, errlen,
                   "shape %s cannot be broadcast to %s: it has more dimensions (%d > %d)",
                   shape_format(from, sf, sizeof sf), shape_format(to, st, sizeof st),
                   from->rank, to->rank);
        return false;
    }
    for (int i = 0; i < to->rank; i++) {
        int j = i - (to->rank - from->rank);
        int64_t df = j >= 0 ? from->dim[j] : 1;
        if (df != to->dim[i] && df != 1) {
            shape_err_(err, errlen,
                       "shape %s cannot be broadcast to %s: dimension %d is %" PRId64
                       " vs %" PRId64,
                       shape_format(from, sf, sizeof sf), shape_format(to, st, sizeof st), i,
                       df, to->dim[i]);
            return false;
        }
    }
    return true;
}

static const char *shape_skip_space_(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

bool shape_parse(const char *text, Shape *out, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    Shape s = {0};
    if (!text) {
        shape_err_(err, errlen, "missing shape");
        return false;
    }
    const char *p = shape_skip_space_(text);
    bool paren = *p == '(';
    if (paren)
        p = shape_skip_space_(p + 1);
    else if (*p == '\0') {
        shape_err_(err, errlen, "empty shape: write () for a scalar");
        return false;
    }
    while (*p && *p != ')') {
        if (!isdigit((unsigned char)*p)) {
            if (*p == '-')
                shape_err_(err, errlen, "invalid shape '%s': dimensions must be positive",
                           text);
            else
                shape_err_(err, errlen, "invalid shape '%s': expected a dimension at '%s'",
                           text, p);
            return false;
        }
        int64_t d = 0;
        while (isdigit((unsigned char)*p)) {
            int digit = *p - '0';
            if (d > (INT64_MAX - digit) / 10) {
                shape_err_(err, errlen, "invalid shape '%s': dimension too large", text);
                return false;
            }
            d = d * 10 + digit;
            p++;
        }
        if (d == 0) {
            shape_err_(err, errlen, "invalid shape '%s': dimensions must be positive", text);
            return false;
        }
        if (s.rank == TILE_MAX_RANK) {
            shape_err_(err, errlen, "invalid shape '%s': more than %d dimensions", text,
                       TILE_MAX_RANK);
            return false;
        }
        s.dim[s.rank++] = d;
        p = shape_skip_space_(p);
        if (*p == ',') {
            p = shape_skip_space_(p + 1);
        } else if (*p && *p != ')') {
            shape_err_(err, errlen, "invalid shape '%s': expected ',' or ')' at '%s'", text,
                       p);
            return false;
        }
    }
    if (paren) {
        if (*p != ')') {
            shape_err_(err, errlen, "invalid shape '%s': missing ')'", text);
            return false;
        }
        p = shape_skip_space_(p + 1);
    } else if (*p == ')') {
        shape_err_(err, errlen, "invalid shape '%s': unbalanced ')'", text);
        return false;
    }
    if (*p) {
        shape_err_(err, errlen, "invalid shape '%s': unexpected text '%s'", text, p);
        return false;
    }
    if (out)
        *out = s;
    return true;
}
