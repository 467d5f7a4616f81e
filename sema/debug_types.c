/* debug_types.c: typing of tile_printf and tile_assert.  A printf's format
 * must be a string literal whose conversions (format.c) match its arguments
 * one for one: integer conversions for integers and bool, float ones for
 * floats, whatever the argument's shape.  An assert's condition is a scalar
 * or a tile; a tile condition becomes tile_all((bool)cond), so that every
 * thread of a block sees the same outcome, and its message a string literal. */
#include "sema/sema_impl.h"

#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/format.h"

/* Where byte `at` (of len bytes) of string s was written. */
static SrcLoc str_at(const Expr *s, int64_t at, int64_t len)
{
    if (!s->str_loc || at < 0 || at >= s->nstr) return s->loc;
    SrcLoc l = s->str_loc[at];
    if (len > 1 && at + len - 1 < s->nstr) {
        const SrcLoc *z = &s->str_loc[at + len - 1];
        if (z->line == l.line && z->file == l.file) l.len = z->col + (z->len ? z->len : 1) - l.col;
    }
    return l;
}

static bool no_string(const Expr *a, const char *what)
{
    if (a->kind != EX_STRING) return true;
    diag_error(a->loc, "string literals are only allowed as tile_printf's format and tile_assert's message, not as %s", what);
    return false;
}

static bool type_printf(Sema *s, Expr *e)
{
    Expr *f = e->args[0];
    e->dtype = DT_INVALID;
    e->shape = sem_scalar_shape;
    bool ok = true;
    for (int i = 1; i < e->nargs; i++)
        if (!no_string(e->args[i], "an argument to print") || !sem_type_expr(s, e->args[i])) ok = false;
    if (f->kind != EX_STRING) {
        diag_error_fix(f->loc, "write the format in quotes: tile_printf(\"%d\\n\", x)",
                       "the format of tile_printf must be a string literal");
        return false;
    }
    f->id = s->next_expr++;
    f->dtype = DT_INVALID;
    f->shape = sem_scalar_shape;
    if (!ok) return false;
    int cap = (int)f->nstr + 1;
    FmtItem *items = arena_alloc(s->prog->arena, sizeof *items * (size_t)cap);
    int n;
    FmtError err;
    if (!fmt_parse(f->str, f->nstr, items, cap, &n, &err)) {
        SrcLoc at = str_at(f, err.at, err.len);
        if (err.fix) diag_error_fix(at, err.fix, "%s", err.msg);
        else diag_error(at, "%s", err.msg);
        return false;
    }
    int arg = 1;
    for (int i = 0; i < n; i++) {
        const FmtItem *it = &items[i];
        if (!it->conv) continue;
        SrcLoc cl = str_at(f, it->start, it->end - it->start);
        if (arg >= e->nargs) {
            diag_error(cl, "conversion '%.*s' has no argument: tile_printf has %d argument%s after its format",
                       (int)(it->end - it->start), f->str + it->start, e->nargs - 1, e->nargs == 2 ? "" : "s");
            return false;
        }
        Expr *a = e->args[arg];
        Dtype t = sem_concrete_or(a->dtype, &a->cval);
        bool want_float = fmt_is_float_conv(it->c);
        if (t == DT_INVALID) {
            diag_error(a->loc, "argument %d of tile_printf has no value", arg);
            return false;
        }
        if (want_float != dtype_is_float(t)) {
            char shp[SHAPE_FMT_MAX], what[SHAPE_FMT_MAX + 48];
            const char *an = dtype_name(t)[0] == 'i' ? "an" : "a";
            if (a->shape.rank)
                snprintf(what, sizeof what, "%s %s tile of shape %s", an, dtype_name(t), sem_fmt_shape(&a->shape, shp, sizeof shp));
            else
                snprintf(what, sizeof what, "%s %s scalar", an, dtype_name(t));
            diag_error_fix(a->loc, want_float ? "convert it: tile_cast(x, float), or print it with %d" : "convert it: tile_cast(x, int32_t), or print it with %f",
                           "argument %d of tile_printf is %s, but its conversion '%.*s' prints %s", arg, what,
                           (int)(it->end - it->start), f->str + it->start, want_float ? "a float" : "an integer");
            diag_note(cl, "the conversion is here");
            return false;
        }
        arg++;
    }
    if (arg < e->nargs) {
        diag_error(e->args[arg]->loc, "tile_printf has more arguments than its format has conversions (%d)", arg - 1);
        return false;
    }
    return true;
}

static bool type_assert(Sema *s, Expr *e)
{
    e->dtype = DT_INVALID;
    e->shape = sem_scalar_shape;
    if (e->nargs < 1 || e->nargs > 2) {
        diag_error(e->loc, "tile_assert takes a condition and an optional message, not %d arguments", e->nargs);
        return false;
    }
    Expr *c = e->args[0];
    if (!no_string(c, "a condition")) return false;
    if (e->nargs == 2) {
        Expr *m = e->args[1];
        if (m->kind != EX_STRING) {
            diag_error_fix(m->loc, "write the message in quotes: tile_assert(n > 0, \"n must be positive\")",
                           "the message of tile_assert must be a string literal");
            return false;
        }
        m->id = s->next_expr++;
        m->dtype = DT_INVALID;
        m->shape = sem_scalar_shape;
    }
    if (!sem_type_expr(s, c)) return false;
    if (c->dtype == DT_INVALID) {
        diag_error(c->loc, "the condition of tile_assert has no value");
        return false;
    }
    if (c->shape.rank == 0) return true;
    /* a tile holds when all its elements are non-zero: tile_all((bool)c),
     * one outcome for the whole block (typed again with its wrappers) */
    Expr *b = c;
    if (c->dtype != DT_BOOL) {
        b = arena_alloc(s->prog->arena, sizeof *b);
        b->kind = EX_CAST;
        b->loc = c->loc;
        b->type = (TypeRef){.spelling = "bool", .dtype = DT_BOOL};
        b->a = c;
    }
    Expr *all = arena_alloc(s->prog->arena, sizeof *all);
    all->kind = EX_BUILTIN;
    all->loc = c->loc;
    all->name = builtin_info(BI_ALL)->name;
    all->bi = BI_ALL;
    all->args = arena_alloc(s->prog->arena, sizeof(Expr *));
    all->args[0] = b;
    all->nargs = 1;
    e->args[0] = all;
    return sem_type_expr(s, all);
}

bool sem_builtin_debug(Sema *s, Expr *e)
{
    return e->bi == BI_PRINTF ? type_printf(s, e) : type_assert(s, e);
}
