/* format.c: parses tile_printf's formats (format.h): C's printf syntax less
 * what tile code has no values for (%s, %c, %p, %n) and the `*` width and
 * precision (shapes, not run-time values, decide how much is printed).
 * Length modifiers are accepted and dropped: tilec writes its own. */
#include "sema/format.h"

#include <stdio.h>
#include <string.h>

bool fmt_is_float_conv(char c)
{
    return c && strchr("eEfFgGaA", c) != NULL;
}

/* msg: a printf format of c, or plain text (c unused) */
static bool fail(FmtError *err, int64_t at, int64_t len, const char *fix, const char *msg, char c)
{
    err->at = at;
    err->len = len;
    err->fix = fix;
    snprintf(err->msg, sizeof err->msg, msg, c);
    return false;
}

bool fmt_parse(const char *fmt, int64_t n, FmtItem *items, int cap, int *nitems, FmtError *err)
{
    *nitems = 0;
    int64_t i = 0;
    while (i < n) {
        if (*nitems == cap) return fail(err, i, 1, NULL, "the format has too many pieces", ' ');
        FmtItem *it = &items[(*nitems)++];
        memset(it, 0, sizeof *it);
        it->start = i;
        if (fmt[i] != '%') {
            while (i < n && fmt[i] != '%') i++;
            it->end = i;
            continue;
        }
        if (i + 1 < n && fmt[i + 1] == '%') { /* "%%": a literal '%' */
            it->start = i + 1;
            it->end = i + 2;
            i += 2;
            continue;
        }
        int64_t p = i + 1;
        size_t w = 0;
        while (p < n && strchr("-+ #0", fmt[p]) && w + 1 < sizeof it->spec) it->spec[w++] = fmt[p++];
        if (p < n && fmt[p] == '*')
            return fail(err, p, 1, "write the width as a number", "a '*' width is not supported by tile_printf", ' ');
        while (p < n && fmt[p] >= '0' && fmt[p] <= '9' && w + 1 < sizeof it->spec) it->spec[w++] = fmt[p++];
        if (p < n && fmt[p] == '.') {
            if (w + 1 < sizeof it->spec) it->spec[w++] = fmt[p];
            p++;
            if (p < n && fmt[p] == '*')
                return fail(err, p, 1, "write the precision as a number", "a '*' precision is not supported by tile_printf", ' ');
            while (p < n && fmt[p] >= '0' && fmt[p] <= '9' && w + 1 < sizeof it->spec) it->spec[w++] = fmt[p++];
        }
        if (p < n && (fmt[p] >= '0' && fmt[p] <= '9'))
            return fail(err, i, p - i + 1, NULL, "a conversion's width or precision is too long", ' ');
        /* length modifiers: tilec writes its own for the argument's dtype */
        while (p < n && strchr("hlzj", fmt[p])) p++;
        if (p >= n) return fail(err, i, p - i, NULL, "the format ends inside a conversion", ' ');
        char c = fmt[p];
        if (c == 's' || c == 'c' || c == 'p' || c == 'n')
            return fail(err, p, 1, "print numbers: %d, %u, %x ... for integers, %f, %e, %g ... for floats",
                        "'%%%c' is not supported by tile_printf: tile code has no strings, characters or pointers", c);
        if (c < 32 || c >= 127 || !strchr("diouxXeEfFgGaA", c))
            return fail(err, p, 1, "use %d, %i, %u, %o, %x, %X for integers and bool, %e, %f, %g, %a (or upper case) for floats",
                        c < 32 || c >= 127 ? "unknown conversion in tile_printf's format"
                                                : "unknown conversion '%%%c' in tile_printf's format",
                        c < 32 || c >= 127 ? ' ' : c);
        it->conv = true;
        it->c = c;
        it->c_at = p;
        it->end = p + 1;
        i = p + 1;
    }
    return true;
}
