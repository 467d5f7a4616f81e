/* lower_expr.c: libclang expression cursors -> tilec expressions (EX_*).
 *
 * Literals, names, operators, casts, builtin calls with their options and
 * calls of tile functions.  Whatever tile code cannot contain (addresses,
 * subscripts, assignments inside expressions, ...) is rejected here with a
 * message that says what to write instead.  Types are left to sema. */
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "frontend/builtins.h"
#include "frontend/diag.h"
#include "frontend/frontend_ctx.h"

Expr *fe_new_expr(Ctx *cx, ExprKind k, SrcLoc loc)
{
    Expr *e = arena_alloc(cx->arena, sizeof *e);
    e->kind = k;
    e->loc = loc;
    return e;
}

static Expr *bad_expr(Ctx *cx, CXCursor c, const char *fmt, const char *what)
{
    diag_error(fe_loc_of(cx, c), fmt, what);
    return NULL;
}

static bool eval_int(CXCursor c, uint64_t *u, int64_t *i)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r) return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        if (clang_EvalResult_isUnsignedInt(r)) {
            *u = clang_EvalResult_getAsUnsigned(r);
            *i = (int64_t)*u;
        } else {
            *i = clang_EvalResult_getAsLongLong(r);
            *u = (uint64_t)*i;
        }
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static const struct {
    enum CXBinaryOperatorKind cx;
    BinaryOp op;
} binop_map[] = {
    {CXBinaryOperator_Mul, BOP_MUL}, {CXBinaryOperator_Div, BOP_DIV},
    {CXBinaryOperator_Rem, BOP_MOD}, {CXBinaryOperator_Add, BOP_ADD},
    {CXBinaryOperator_Sub, BOP_SUB}, {CXBinaryOperator_Shl, BOP_SHL},
    {CXBinaryOperator_Shr, BOP_SHR}, {CXBinaryOperator_LT, BOP_LT},
    {CXBinaryOperator_GT, BOP_GT},   {CXBinaryOperator_LE, BOP_LE},
    {CXBinaryOperator_GE, BOP_GE},   {CXBinaryOperator_EQ, BOP_EQ},
    {CXBinaryOperator_NE, BOP_NE},   {CXBinaryOperator_And, BOP_AND},
    {CXBinaryOperator_Xor, BOP_XOR}, {CXBinaryOperator_Or, BOP_OR},
    {CXBinaryOperator_LAnd, BOP_LAND}, {CXBinaryOperator_LOr, BOP_LOR},
    {CXBinaryOperator_MulAssign, BOP_MUL}, {CXBinaryOperator_DivAssign, BOP_DIV},
    {CXBinaryOperator_RemAssign, BOP_MOD}, {CXBinaryOperator_AddAssign, BOP_ADD},
    {CXBinaryOperator_SubAssign, BOP_SUB}, {CXBinaryOperator_ShlAssign, BOP_SHL},
    {CXBinaryOperator_ShrAssign, BOP_SHR}, {CXBinaryOperator_AndAssign, BOP_AND},
    {CXBinaryOperator_XorAssign, BOP_XOR}, {CXBinaryOperator_OrAssign, BOP_OR},
};

int fe_map_binop(enum CXBinaryOperatorKind k)
{
    for (size_t i = 0; i < sizeof binop_map / sizeof binop_map[0]; i++)
        if (binop_map[i].cx == k) return (int)binop_map[i].op;
    return -1;
}

bool fe_is_assign_op(enum CXBinaryOperatorKind k)
{
    return k >= CXBinaryOperator_Assign && k <= CXBinaryOperator_OrAssign;
}

static bool is_opts_struct(CXType t)
{
    CXType u = clang_getCanonicalType(t);
    if (u.kind != CXType_Record) return false;
    CXString s = clang_getTypeSpelling(u);
    bool r = strncmp(clang_getCString(s), "struct tilec_", 13) == 0;
    clang_disposeString(s);
    return r;
}

/* Lowers `(struct tilec_xxx_opts){ .a = 1, .b = {2, 3} }` into options. */
static bool lower_options(Ctx *cx, Expr *call, CXCursor lit)
{
    CXCursor c = fe_strip(lit);
    Kids *ks = fe_kids_of(c);
    CXCursor init = clang_getNullCursor();
    for (int i = 0; i < ks->n; i++)
        if (clang_getCursorKind(ks->c[i]) == CXCursor_InitListExpr) init = ks->c[i];
    fe_kids_free(ks);
    if (clang_Cursor_isNull(init)) return true;
    Kids *items = fe_kids_of(init);
    call->opts = arena_alloc(cx->arena, sizeof(Option) * (size_t)(items->n + 1));
    bool ok = true;
    for (int i = 0; i < items->n; i++) {
        CXCursor it = items->c[i];
        Kids *d = fe_kids_of(it);
        if (clang_getCursorKind(it) != CXCursor_UnexposedExpr || d->n != 2 ||
            clang_getCursorKind(d->c[0]) != CXCursor_MemberRef) {
            diag_error_fix(fe_loc_of(cx, it), "write '.name = value', e.g. '.shape = {16}'",
                           "options of 'tile_%s' must be written as designated initializers",
                           call->name);
            ok = false;
            fe_kids_free(d);
            continue;
        }
        Option *o = &call->opts[call->nopts++];
        o->name = fe_str_take(cx, clang_getCursorSpelling(d->c[0]));
        o->loc = fe_loc_of(cx, d->c[0]);
        o->value = fe_lower_expr(cx, d->c[1]);
        if (!o->value) ok = false;
        for (int j = 0; j < call->nopts - 1; j++)
            if (!strcmp(call->opts[j].name, o->name)) {
                diag_error(o->loc, "option '.%s' given twice", o->name);
                ok = false;
            }
        fe_kids_free(d);
    }
    fe_kids_free(items);
    return ok;
}

/* A type argument `tile_cast(x, T)` arrives as `(T)0` from the macro's
 * body; point at the T the user wrote: the first token of its spelling
 * inside the macro invocation. */
static void type_arg_loc(Ctx *cx, CXCursor cast, const char *spelling, SrcLoc *loc)
{
    CXSourceLocation sl = clang_getCursorLocation(cast);
    CXFile ef;
    unsigned eoff;
    clang_getExpansionLocation(sl, &ef, NULL, NULL, &eoff);
    if (!ef) return;
    MacroUse *outer = NULL;
    for (int i = 0; i < cx->nmacros; i++)
        if (cx->macros[i].start == eoff && clang_File_isEqual(cx->macros[i].file, ef)) outer = &cx->macros[i];
    if (!outer) return;
    char word[64];
    size_t n = strcspn(spelling, " *");
    if (n == 0 || n >= sizeof word) return;
    memcpy(word, spelling, n);
    word[n] = 0;
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(cx->tu, ef, outer->start),
                                     clang_getLocationForOffset(cx->tu, ef, outer->end));
    CXToken *toks;
    unsigned nt;
    clang_tokenize(cx->tu, r, &toks, &nt);
    for (unsigned i = 1; i < nt; i++) {
        CXString ts = clang_getTokenSpelling(cx->tu, toks[i]);
        bool hit = !strcmp(clang_getCString(ts), word);
        clang_disposeString(ts);
        if (hit) {
            unsigned line, col;
            clang_getExpansionLocation(clang_getTokenLocation(cx->tu, toks[i]), NULL, &line, &col, NULL);
            loc->line = (int)line;
            loc->col = (int)col;
            loc->len = (int)n;
            loc->macro = NULL;
            break;
        }
    }
    clang_disposeTokens(cx->tu, toks, nt);
}

/* ---- string literals: tile_printf's format, tile_assert's message ------ */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes one string-literal token as written (its escapes already checked
 * by clang) onto buf, with each byte's place in the source.  False for a
 * wide or UTF-16/32 literal. */
static bool decode_token(const char *tok, SrcLoc at, char *buf, SrcLoc *where, int64_t *n, int64_t cap)
{
    const char *q = strchr(tok, '"');
    if (!q || (q != tok && strncmp(tok, "u8", 2))) return false;
    for (const char *p = q + 1; *p && *p != '"' && *n < cap;) {
        const char *start = p;
        int v;
        if (*p != '\\') {
            v = (unsigned char)*p++;
        } else {
            p++;
            switch (*p) {
            case 'n': v = '\n'; p++; break;
            case 't': v = '\t'; p++; break;
            case 'r': v = '\r'; p++; break;
            case 'a': v = '\a'; p++; break;
            case 'b': v = '\b'; p++; break;
            case 'f': v = '\f'; p++; break;
            case 'v': v = '\v'; p++; break;
            case 'x':
                p++;
                for (v = 0; hex_digit(*p) >= 0; p++) v = v * 16 + hex_digit(*p);
                break;
            default:
                if (*p >= '0' && *p <= '7') {
                    v = 0;
                    for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++, p++) v = v * 8 + (*p - '0');
                } else {
                    v = (unsigned char)*p++; /* \\ \" \' \? */
                }
                break;
            }
        }
        where[*n] = at;
        where[*n].col = at.col + (int)(start - tok);
        where[*n].len = (int)(p - start);
        buf[(*n)++] = (char)v;
    }
    return true;
}

/* A string literal where tile_printf and tile_assert take one: its bytes,
 * and where each was written when the literal's tokens are the user's own
 * (not a macro's), for carets inside it. */
static Expr *lower_string(Ctx *cx, CXCursor c)
{
    Expr *e = fe_new_expr(cx, EX_STRING, fe_loc_of(cx, c));
    CXEvalResult r = clang_Cursor_Evaluate(c);
    const char *value = r && clang_EvalResult_getKind(r) == CXEval_StrLiteral ? clang_EvalResult_getAsStr(r) : NULL;
    e->str = arena_strdup(cx->arena, value ? value : "");
    e->nstr = (int64_t)strlen(e->str);
    if (r) clang_EvalResult_dispose(r);
    CXToken *toks;
    unsigned nt;
    clang_tokenize(cx->tu, clang_getCursorExtent(c), &toks, &nt);
    int64_t cap = 0;
    for (unsigned i = 0; i < nt; i++) {
        CXString ts = clang_getTokenSpelling(cx->tu, toks[i]);
        cap += (int64_t)strlen(clang_getCString(ts));
        clang_disposeString(ts);
    }
    char *buf = arena_alloc(cx->arena, (size_t)cap + 1);
    SrcLoc *where = arena_alloc(cx->arena, sizeof *where * (size_t)(cap + 1));
    int64_t n = 0;
    bool ok = nt > 0, wide = false;
    for (unsigned i = 0; i < nt && ok; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Literal) {
            ok = false;
            break;
        }
        CXFile f;
        unsigned line, col;
        clang_getSpellingLocation(clang_getTokenLocation(cx->tu, toks[i]), &f, &line, &col, NULL);
        SrcLoc at = {.file = fe_file_name(cx, f), .line = (int)line, .col = (int)col};
        char *sp = fe_str_take(cx, clang_getTokenSpelling(cx->tu, toks[i]));
        if (!decode_token(sp, at, buf, where, &n, cap)) {
            ok = false;
            wide = sp[0] != '"';
        }
    }
    clang_disposeTokens(cx->tu, toks, nt);
    if (wide) {
        diag_error(e->loc, "only plain string literals are allowed here, not wide or UTF-16/32 ones");
        return NULL;
    }
    /* the user's own tokens, decoded to what clang saw (up to a NUL) */
    if (ok && n >= e->nstr && !memcmp(buf, e->str, (size_t)e->nstr)) {
        buf[n] = 0;
        e->str = buf;
        e->nstr = n;
        e->str_loc = where;
    }
    return e;
}

/* tile_assert's condition as written: the text of the invocation's first
 * argument, when the invocation is on one line of the user's text (read
 * from the source that diag quotes); NULL otherwise. */
static const char *cond_text(Ctx *cx, CXCursor call)
{
    CXFile ef;
    unsigned eoff;
    clang_getExpansionLocation(clang_getCursorLocation(call), &ef, NULL, NULL, &eoff);
    if (!ef) return NULL;
    const MacroUse *m = NULL;
    for (int i = 0; i < cx->nmacros && !m; i++)
        if (cx->macros[i].start == eoff && clang_File_isEqual(cx->macros[i].file, ef) &&
            !strcmp(cx->macros[i].name, "tile_assert"))
            m = &cx->macros[i];
    size_t len;
    const char *line = m ? diag_source_line(fe_file_name(cx, ef), (int)m->line, &len) : NULL;
    if (!line || m->col + 11 > len || strncmp(line + m->col - 1, "tile_assert", 11)) return NULL;
    const char *p = line + m->col - 1 + 11, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p == end || *p != '(') return NULL;
    const char *a = ++p;
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '"' || *p == '\'') { /* a literal: to its closing quote */
            char q = *p;
            for (p++; p < end && *p != q; p++)
                if (*p == '\\') p++;
            if (p >= end) return NULL;
        } else if (*p == '(' || *p == '[' || *p == '{') {
            depth++;
        } else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth-- == 0) break;
        } else if (*p == ',' && depth == 0) {
            break;
        }
    }
    if (p >= end) return NULL;
    while (a < p && (*a == ' ' || *a == '\t')) a++;
    while (p > a && (p[-1] == ' ' || p[-1] == '\t')) p--;
    return p > a ? arena_printf(cx->arena, "%.*s", (int)(p - a), a) : NULL;
}

/* EX_CALL name(args): a tile function's call, or an array kernel's in a graph. */
static Expr *call_of(Ctx *cx, CXCursor c, SrcLoc loc, const char *name, int nargs)
{
    Expr *e = fe_new_expr(cx, EX_CALL, loc);
    e->name = name;
    e->args = arena_alloc(cx->arena, sizeof(Expr *) * (size_t)(nargs + 1));
    bool ok = true;
    for (int i = 0; i < nargs; i++) {
        Expr *x = fe_lower_expr(cx, clang_Cursor_getArgument(c, (unsigned)i));
        if (!x) ok = false;
        e->args[e->nargs++] = x;
    }
    return ok ? e : NULL;
}

static Expr *lower_call(Ctx *cx, CXCursor c)
{
    SrcLoc loc = fe_loc_of(cx, c);
    char *name = fe_str_take(cx, clang_getCursorSpelling(c));
    int nargs = clang_Cursor_getNumArguments(c);
    /* <math.h>'s INFINITY, HUGE_VAL(F) and NAN expand to these compiler
     * builtins: constants, as literals are (weakly typed until used). */
    static const struct { const char *name; bool nan; } fconsts[] = {
        {"__builtin_inff", false}, {"__builtin_inf", false}, {"__builtin_huge_valf", false},
        {"__builtin_huge_val", false}, {"__builtin_nanf", true}, {"__builtin_nan", true}};
    for (size_t i = 0; i < sizeof fconsts / sizeof fconsts[0]; i++)
        if (!strcmp(name, fconsts[i].name)) {
            Expr *e = fe_new_expr(cx, EX_FLOAT, loc);
            e->fval = fconsts[i].nan ? (double)NAN : (double)INFINITY;
            return e;
        }
    if (strncmp(name, "__tilec_", 8) == 0) {
        Expr *e = fe_new_expr(cx, EX_BUILTIN, loc);
        e->name = name + 8;
        if (!strncmp(e->name, "simt_", 5)) {
            /* SIMT_AT's offset call is the one simt builtin no simt_ macro spells */
            if (!strcmp(e->name, "simt_offset"))
                diag_error_fix(loc, "read and write arrays in tile code with tile_load and tile_store",
                               "SIMT_AT is element access of SIMT code; tile code cannot use it");
            else
                diag_error_fix(loc, "call it from a SIMT_KERNEL or SIMT_FUNC, or use the tile builtins here",
                               "%s is a SIMT builtin; tile code cannot call it", e->name);
            return NULL;
        }
        e->bi = builtin_lookup(e->name);
        if (e->bi == BI_NONE) {
            diag_error(loc, "tile_%s is not supported by this version of tilec yet", e->name);
            return NULL;
        }
        e->args = arena_alloc(cx->arena, sizeof(Expr *) * (size_t)(nargs + 1));
        /* a type argument is written (T)0 by tilec.h's macros */
        int targ = builtin_info(e->bi)->type_arg;
        bool ok = true;
        /* tile_printf and tile_assert: tilec.h's leading 0 is not an
         * argument; a string literal is */
        bool debug = builtin_info(e->bi)->cls == BCLASS_DEBUG;
        for (int i = debug ? 1 : 0; i < nargs; i++) {
            CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
            if ((debug || e->bi == BI_VIEW_LAYOUT) && clang_getCursorKind(fe_strip(a)) == CXCursor_StringLiteral) {
                Expr *x = lower_string(cx, fe_strip(a));
                if (!x) ok = false;
                e->args[e->nargs++] = x;
                continue;
            }
            if (debug && e->bi == BI_ASSERT && e->nargs == 0) e->text = cond_text(cx, c);
            if (is_opts_struct(clang_getCursorType(fe_strip(a)))) {
                if (!lower_options(cx, e, a)) ok = false;
                continue;
            }
            if (i == targ) {
                CXCursor cast = fe_strip(a);
                Expr *t = fe_new_expr(cx, EX_TYPE, fe_loc_of(cx, cast));
                t->type = fe_type_ref(cx, clang_getCursorType(cast));
                type_arg_loc(cx, cast, t->type.spelling, &t->loc);
                if (t->type.dtype == DT_INVALID) {
                    diag_error(t->loc, "'%s' is not a Tile C element type", t->type.spelling);
                    ok = false;
                }
                e->args[e->nargs++] = t;
                continue;
            }
            Expr *x = fe_lower_expr(cx, a);
            if (!x) ok = false;
            e->args[e->nargs++] = x;
        }
        return ok ? e : NULL;
    }
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
        diag_error(loc, "only tile functions can be called in tile code");
        return NULL;
    }
    CXCursor def = clang_getCursorDefinition(callee);
    bool akern = fe_annotation(callee, "tilec.array_kernel", NULL, cx) ||
                 (!clang_Cursor_isNull(def) && fe_annotation(def, "tilec.array_kernel", NULL, cx));
    if (akern && cx->in_graph) return call_of(cx, c, loc, name, nargs);
    if (akern) {
        diag_error_fix(loc, "call it from a TILE_GRAPH, or launch it from host code",
                       "array kernel '%s' cannot be called from tile code", name);
        return NULL;
    }
    if (cx->in_graph) {
        diag_error_fix(loc, "a graph calls array kernels (TILE_ARRAY_KERNEL) defined in this file",
                       "graph calls '%s', which is not an array kernel", name);
        return NULL;
    }
    if (fe_annotation(callee, "tilec.kernel", NULL, cx) || (!clang_Cursor_isNull(def) && fe_annotation(def, "tilec.kernel", NULL, cx))) {
        diag_error(loc, "kernel '%s' cannot be called from tile code; mark a helper TILE_FUNC", name);
        return NULL;
    }
    bool ext = fe_annotation(callee, "tilec.extern", NULL, cx);
    if (!ext && clang_Cursor_isNull(def) && fe_annotation(callee, "tilec.func", NULL, cx)) {
        diag_error(loc, "tile function '%s' is declared but has no definition in this file", name);
        return NULL;
    }
    if (!ext && (clang_Cursor_isNull(def) || !fe_annotation(def, "tilec.func", NULL, cx))) {
        static const char *const mathfns[] = {"exp", "expf", "exp2", "exp2f", "log", "logf",
            "log2", "log2f", "sqrt", "sqrtf", "sin", "sinf", "cos", "cosf", "tanh", "tanhf",
            "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "pow", "powf", "fma", "fmaf",
            "fmin", "fminf", "fmax", "fmaxf", "abs"};
        for (size_t i = 0; i < sizeof mathfns / sizeof mathfns[0]; i++)
            if (!strcmp(name, mathfns[i])) {
                char base[16];
                snprintf(base, sizeof base, "%s", name);
                size_t n = strlen(base);
                if (n > 3 && base[n - 1] == 'f' && strcmp(base, "exp2f") != 0) base[n - 1] = 0;
                if (!strcmp(name, "exp2f")) strcpy(base, "exp2");
                if (!strcmp(base, "fabs")) strcpy(base, "abs");
                if (!strcmp(base, "fmin")) strcpy(base, "minimum");
                if (!strcmp(base, "fmax")) strcpy(base, "maximum");
                char fix[64];
                snprintf(fix, sizeof fix, "use tile_%s(...)", base);
                diag_error_fix(loc, fix, "C library function '%s' cannot be called in tile code",
                               name);
                return NULL;
            }
        diag_error_fix(loc, "mark the function TILE_FUNC, or call it from host code",
                       "call to '%s', which is not a tile function", name);
        return NULL;
    }
    return call_of(cx, c, loc, name, nargs);
}

/* ---- tuples: struct variables and literals ---- */

/* var.field, for a struct variable var: EX_MEMBER named "var.field" (the
 * name sema gives the field's own variable). */
static Expr *lower_member(Ctx *cx, CXCursor c, SrcLoc loc)
{
    Kids *ks = fe_kids_of(c);
    CXCursor base = ks->n ? fe_strip(ks->c[0]) : clang_getNullCursor();
    fe_kids_free(ks);
    char *field = fe_str_take(cx, clang_getCursorSpelling(c));
    if (clang_Cursor_isNull(base) || clang_getCursorKind(base) != CXCursor_DeclRefExpr ||
        fe_type_ref(cx, clang_getCursorType(base)).stype == NULL) {
        diag_error_fix(loc, "declare a struct variable first: `T r = f(x);`, then read `r.field`",
                       "member access works on struct variables (tuples) only");
        return NULL;
    }
    Expr *e = fe_new_expr(cx, EX_MEMBER, loc);
    e->a = fe_lower_expr(cx, base);
    if (!e->a) return NULL;
    e->name = arena_printf(cx->arena, "%s.%s", e->a->name, field);
    return e;
}

/* (T){a, b} and (T){.x = a, .y = b} for a struct T: EX_STRUCT with every
 * field's value in T's order. */

static Expr *lower_struct_literal(Ctx *cx, CXCursor c, SrcLoc loc)
{
    TypeRef t = fe_type_ref(cx, clang_getCursorType(c));
    if (!t.stype) {
        diag_error(loc, "compound literals are not allowed in tile code, except for struct values (tuples)");
        return NULL;
    }
    Kids *ks = fe_kids_of(c);
    CXCursor init = clang_getNullCursor();
    for (int i = 0; i < ks->n; i++)
        if (clang_getCursorKind(ks->c[i]) == CXCursor_InitListExpr) init = ks->c[i];
    fe_kids_free(ks);
    return fe_lower_struct_init(cx, t, init, loc);
}

/* The brace list `init` (or none) of a struct of type t: the EX_STRUCT of
 * a literal, and of a declaration's `T r = {a, b};`. */
Expr *fe_lower_struct_init(Ctx *cx, TypeRef t, CXCursor init, SrcLoc loc)
{
    const StructType *st = t.stype;
    Expr *e = fe_new_expr(cx, EX_STRUCT, loc);
    e->type = t;
    e->nargs = st->nfields;
    e->args = arena_alloc(cx->arena, sizeof(Expr *) * (size_t)(st->nfields + 1));
    Kids *items = clang_Cursor_isNull(init) ? NULL : fe_kids_of(init);
    bool ok = true;
    for (int i = 0, pos = 0; items && i < items->n; i++) {
        CXCursor it = items->c[i];
        Kids *d = fe_kids_of(it);
        int at = pos;
        CXCursor val = it;
        if (clang_getCursorKind(it) == CXCursor_UnexposedExpr && d->n == 2 &&
            clang_getCursorKind(d->c[0]) == CXCursor_MemberRef) { /* .name = value */
            char *name = fe_str_take(cx, clang_getCursorSpelling(d->c[0]));
            for (at = 0; at < st->nfields && strcmp(st->fields[at], name); at++) {}
            val = d->c[1];
        }
        fe_kids_free(d);
        if (at >= st->nfields) {
            diag_error(fe_loc_of(cx, it), "too many values for %s", st->name);
            ok = false;
            break;
        }
        if (e->args[at]) {
            diag_error(fe_loc_of(cx, it), "field '%s' of %s given twice", st->fields[at], st->name);
            ok = false;
        }
        e->args[at] = fe_lower_expr(cx, val);
        if (!e->args[at]) ok = false;
        pos = at + 1;
    }
    if (items) fe_kids_free(items);
    for (int i = 0; ok && i < st->nfields; i++)
        if (!e->args[i]) {
            diag_error_fix(loc, "give every field a value: a tuple's fields are tiles, whose shapes come from their values",
                           "field '%s' of %s has no value", st->fields[i], st->name);
            ok = false;
        }
    return ok ? e : NULL;
}

Expr *fe_lower_expr(Ctx *cx, CXCursor c)
{
    c = fe_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    SrcLoc loc = fe_loc_of(cx, c);
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr: /* C23 true and false */ {
        Expr *e = fe_new_expr(cx, EX_INT, loc);
        if (!eval_int(c, &e->uval, &e->ival)) return bad_expr(cx, c, "%s", "cannot evaluate literal");
        e->big_unsigned = e->uval > (uint64_t)INT64_MAX; /* e.g. 18446744073709551615u */
        return e;
    }
    case CXCursor_FloatingLiteral: {
        Expr *e = fe_new_expr(cx, EX_FLOAT, loc);
        CXEvalResult r = clang_Cursor_Evaluate(c);
        if (!r) return bad_expr(cx, c, "%s", "cannot evaluate literal");
        e->fval = clang_EvalResult_getAsDouble(r);
        clang_EvalResult_dispose(r);
        return e;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        enum CXCursorKind rk = clang_getCursorKind(ref);
        char *name = fe_str_take(cx, clang_getCursorSpelling(c));
        if (rk == CXCursor_EnumConstantDecl) {
            Expr *e = fe_new_expr(cx, EX_INT, loc);
            e->ival = clang_getEnumConstantDeclValue(ref);
            e->uval = (uint64_t)e->ival;
            return e;
        }
        if (rk == CXCursor_ParmDecl) {
            Expr *e = fe_new_expr(cx, EX_NAME, loc);
            e->name = name;
            return e;
        }
        if (rk == CXCursor_VarDecl) {
            enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(ref));
            if (pk != CXCursor_TranslationUnit) {
                Expr *e = fe_new_expr(cx, EX_NAME, loc);
                e->name = name;
                return e;
            }
            /* An extern declared inside the function was rejected where it
             * was declared: one error for one cause. */
            if (clang_getCursorKind(clang_getCursorLexicalParent(ref)) == CXCursor_FunctionDecl) return NULL;
            /* A global: only compile-time constants may be used. */
            CXType t = clang_getCursorType(ref);
            if (clang_isConstQualifiedType(t)) {
                CXEvalResult r = clang_Cursor_Evaluate(ref);
                if (r) {
                    Expr *e = NULL;
                    if (clang_EvalResult_getKind(r) == CXEval_Int) {
                        e = fe_new_expr(cx, EX_INT, loc);
                        e->ival = clang_EvalResult_getAsLongLong(r);
                        e->uval = clang_EvalResult_isUnsignedInt(r)
                                      ? clang_EvalResult_getAsUnsigned(r)
                                      : (uint64_t)e->ival;
                    } else if (clang_EvalResult_getKind(r) == CXEval_Float) {
                        e = fe_new_expr(cx, EX_FLOAT, loc);
                        e->fval = clang_EvalResult_getAsDouble(r);
                    }
                    clang_EvalResult_dispose(r);
                    if (e) return e;
                }
            }
            diag_error_fix(loc, "pass it as a kernel parameter, or make it a const with a constant value",
                           "tile code cannot use the global variable '%s'", name);
            return NULL;
        }
        if (rk == CXCursor_FunctionDecl) {
            diag_error(loc, "function '%s' used as a value; tile code has no function pointers", name);
            return NULL;
        }
        diag_error(loc, "unsupported reference to '%s'", name);
        return NULL;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind uk = clang_getCursorUnaryOperatorKind(c);
        Kids *ks = fe_kids_of(c);
        CXCursor arg = ks->n ? ks->c[ks->n - 1] : clang_getNullCursor();
        fe_kids_free(ks);
        int op;
        switch (uk) {
        case CXUnaryOperator_Minus: op = UOP_NEG; break;
        case CXUnaryOperator_Plus: op = UOP_PLUS; break;
        case CXUnaryOperator_LNot: op = UOP_NOT; break;
        case CXUnaryOperator_Not: op = UOP_BITNOT; break;
        case CXUnaryOperator_AddrOf:
            diag_error_fix(loc, "tiles are values: pass the tile itself",
                           "address-of '&' is not allowed in tile code");
            return NULL;
        case CXUnaryOperator_Deref:
            diag_error_fix(loc, "read arrays with tile_load(array, .index = {...}, .shape = {...})",
                           "pointer dereference '*' is not allowed in tile code");
            return NULL;
        case CXUnaryOperator_PostInc: case CXUnaryOperator_PreInc:
        case CXUnaryOperator_PostDec: case CXUnaryOperator_PreDec:
            diag_error_fix(loc, "write the increment as its own statement",
                           "'++' and '--' are only allowed as statements in tile code");
            return NULL;
        default:
            diag_error(loc, "unsupported unary operator");
            return NULL;
        }
        Expr *e = fe_new_expr(cx, EX_UNARY, loc);
        e->op = op;
        e->a = fe_lower_expr(cx, arg);
        /* Fold '-literal' so that constants like -1 stay literals. */
        if (e->a && op == UOP_NEG && e->a->kind == EX_INT && e->a->ival >= 0) {
            e->a->ival = -e->a->ival;
            e->a->uval = (uint64_t)e->a->ival;
            e->a->loc = loc;
            return e->a;
        }
        if (e->a && op == UOP_NEG && e->a->kind == EX_FLOAT) {
            e->a->fval = -e->a->fval;
            e->a->loc = loc;
            return e->a;
        }
        return e->a ? e : NULL;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
        if (fe_is_assign_op(bk)) {
            diag_error_fix(loc, "write the assignment as its own statement",
                           "assignment inside an expression is not allowed in tile code");
            return NULL;
        }
        if (bk == CXBinaryOperator_Comma) {
            diag_error(loc, "the comma operator is not allowed in tile code");
            return NULL;
        }
        int op = fe_map_binop(bk);
        Kids *ks = fe_kids_of(c);
        if (op < 0 || ks->n != 2) {
            fe_kids_free(ks);
            diag_error(loc, "unsupported binary operator");
            return NULL;
        }
        Expr *e = fe_new_expr(cx, EX_BINARY, loc);
        e->op = op;
        e->a = fe_lower_expr(cx, ks->c[0]);
        e->b = fe_lower_expr(cx, ks->c[1]);
        fe_kids_free(ks);
        /* Point binary-operator diagnostics at the operator token. */
        return e->a && e->b ? e : NULL;
    }
    case CXCursor_ConditionalOperator: {
        Kids *ks = fe_kids_of(c);
        if (ks->n != 3) {
            fe_kids_free(ks);
            diag_error(loc, "unsupported conditional expression");
            return NULL;
        }
        Expr *e = fe_new_expr(cx, EX_COND, loc);
        e->a = fe_lower_expr(cx, ks->c[0]);
        e->b = fe_lower_expr(cx, ks->c[1]);
        e->c = fe_lower_expr(cx, ks->c[2]);
        fe_kids_free(ks);
        return e->a && e->b && e->c ? e : NULL;
    }
    case CXCursor_CStyleCastExpr: {
        Kids *ks = fe_kids_of(c);
        CXCursor arg = clang_getNullCursor();
        for (int i = 0; i < ks->n; i++)
            if (clang_isExpression(clang_getCursorKind(ks->c[i]))) arg = ks->c[i];
        fe_kids_free(ks);
        Expr *e = fe_new_expr(cx, EX_CAST, loc);
        e->type = fe_type_ref(cx, clang_getCursorType(c));
        if (e->type.dtype == DT_INVALID) {
            if (strchr(e->type.spelling, '*'))
                diag_error(loc, "cast to pointer type '%s' is not allowed in tile code",
                           e->type.spelling);
            else
                diag_error(loc, "cast to '%s', which is not a Tile C element type",
                           e->type.spelling);
            return NULL;
        }
        if (clang_Cursor_isNull(arg)) return bad_expr(cx, c, "%s", "cast without operand");
        e->a = fe_lower_expr(cx, arg);
        return e->a ? e : NULL;
    }
    case CXCursor_CallExpr:
        return lower_call(cx, c);
    case CXCursor_InitListExpr: {
        Kids *ks = fe_kids_of(c);
        Expr *e = fe_new_expr(cx, EX_LIST, loc);
        e->args = arena_alloc(cx->arena, sizeof(Expr *) * (size_t)(ks->n + 1));
        bool ok = true;
        for (int i = 0; i < ks->n; i++) {
            Expr *x = fe_lower_expr(cx, ks->c[i]);
            if (!x) ok = false;
            e->args[e->nargs++] = x;
        }
        fe_kids_free(ks);
        return ok ? e : NULL;
    }
    case CXCursor_ArraySubscriptExpr:
        diag_error_fix(loc, "load a tile with tile_load(array, .index = {...}, .shape = {...})",
                       "subscripts '[]' are not allowed in tile code");
        return NULL;
    case CXCursor_MemberRefExpr:
        return lower_member(cx, c, loc);
    case CXCursor_StringLiteral:
        diag_error(loc, "string literals are not allowed in tile code");
        return NULL;
    case CXCursor_CompoundLiteralExpr:
        return lower_struct_literal(cx, c, loc);
    case CXCursor_UnaryExpr:
        diag_error_fix(loc, "tile shapes are static: write the size as a constant",
                       "sizeof and _Alignof are not allowed in tile code");
        return NULL;
    case CXCursor_StmtExpr:
        diag_error(loc, "statement expressions are not allowed in tile code");
        return NULL;
    default: {
        char *kind = fe_str_take(cx, clang_getCursorKindSpelling(k));
        diag_error(loc, "unsupported expression in tile code (%s)", kind);
        return NULL;
    }
    }
}
