/* clang_diag.c: libclang's diagnostics as tilec prints them, in gcc's
 * format with clang's warning names, and reworded where a Tile C user needs
 * something else than C's message (the first-day mistakes). */
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/frontend_ctx.h"
#include "frontend/builtins.h"

/* libclang's errors, translated where Tile C has a better thing to say.
 * The first-day mistakes: a file without #include <tilec.h> (one error at
 * the first Tile C name instead of a cascade), a misspelt builtin or
 * annotation (did you mean ...), an unknown option (clang names tilec.h's
 * internal option struct), and a subscripted tile. */

typedef struct ClangDiag {
    enum CXDiagnosticSeverity sev;
    CXFile file;     /* the file of loc */
    unsigned off;    /* the offset of loc in file */
    SrcLoc loc;
    char *msg;
    CXSourceRange range; /* clang's first range; null when it gives none */
    const char *wname; /* clang's warning option without "-W" ("unused-variable"), or NULL */
    bool drop;
} ClangDiag;

static bool is_tilec_h(Ctx *cx, CXFile f)
{
    const char *n = fe_file_name(cx, f);
    size_t len = n ? strlen(n) : 0;
    return len >= 7 && !strcmp(n + len - 7, "tilec.h") && (len == 7 || n[len - 8] == '/' || n[len - 8] == '\\');
}

typedef struct { Ctx *cx; bool found; } TilecHSearch;

static void find_tilec_h(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    TilecHSearch *t = d;
    if (depth > 0 && is_tilec_h(t->cx, f)) t->found = true;
}

/* The names that tilec.h defines for users: macros (tile_load,
 * TILE_KERNEL ...; not its helpers, which end in '_') and enum constants
 * (TILE_PAD_ZERO ...). */
typedef struct { Ctx *cx; const char **names; int n; } TilecNames;

static enum CXChildVisitResult collect_tilec_name(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    TilecNames *t = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_MacroDefinition && k != CXCursor_EnumDecl && k != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    CXFile f;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    if (!f || !is_tilec_h(t->cx, f)) return CXChildVisit_Continue;
    if (k == CXCursor_EnumDecl) return CXChildVisit_Recurse;
    char *name = fe_str_take(t->cx, clang_getCursorSpelling(c));
    size_t n = strlen(name);
    if (n == 0 || name[n - 1] == '_' || (strncmp(name, "tile_", 5) && strncmp(name, "TILE_", 5)))
        return CXChildVisit_Continue;
    if (t->n % 64 == 0) {
        const char **nn = arena_alloc(t->cx->arena, sizeof(char *) * (size_t)(t->n + 64));
        if (t->n) memcpy(nn, t->names, sizeof(char *) * (size_t)t->n);
        t->names = nn;
    }
    t->names[t->n++] = name;
    return CXChildVisit_Continue;
}


/* The candidate closest to name, or NULL when none is close: one edit
 * for a name of up to 5 characters after "tile_" or "TILE_" (tile_mean is
 * not tile_max), two for longer ones. */
static const char *closest_name(const char *name, const char *const *cands, int n)
{
    const char *best = NULL;
    int len = (int)strlen(name);
    int own = len > 5 && (name[4] == '_' && (name[0] == 't' || name[0] == 'T')) ? len - 5 : len;
    int bd = own > 5 ? 3 : 2;
    for (int i = 0; i < n; i++) {
        int d = diag_edit_distance(name, cands[i]);
        if (d < bd) {
            bd = d;
            best = cands[i];
        }
    }
    return best;
}

/* The name quoted in msg when msg is exactly prefix + "'" + name + "'". */
static bool quoted_name(const char *msg, const char *prefix, char *out, size_t outsz)
{
    size_t pl = strlen(prefix);
    if (strncmp(msg, prefix, pl) != 0 || msg[pl] != '\'') return false;
    const char *p = msg + pl + 1;
    const char *q = strchr(p, '\'');
    if (!q || q[1] != '\0' || q == p || (size_t)(q - p) >= outsz) return false;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = '\0';
    return true;
}

static bool looks_like_tile_name(const char *n)
{
    return !strncmp(n, "tile_", 5) || !strncmp(n, "TILE_", 5) || !strncmp(n, "__tilec_", 8);
}

/* The offset just past the ')' that closes the call whose name starts at
 * off (a name, then '(' after blanks), or 0 when no call starts there. */
static unsigned call_end(const char *text, size_t size, unsigned off)
{
    size_t i = off;
    while (i < size && (text[i] == '_' || (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
                        (text[i] >= '0' && text[i] <= '9')))
        i++;
    while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
    if (i >= size || text[i] != '(') return 0;
    int depth = 0;
    for (; i < size; i++) {
        char ch = text[i];
        if (ch == '"' || ch == '\'') {
            for (i++; i < size && text[i] != ch; i++)
                if (text[i] == '\\') i++;
        } else if (ch == '/' && i + 1 < size && text[i + 1] == '/') {
            while (i < size && text[i] != '\n') i++;
        } else if (ch == '/' && i + 1 < size && text[i + 1] == '*') {
            for (i += 2; i + 1 < size && !(text[i] == '*' && text[i + 1] == '/'); i++) {}
            i++;
        } else if (ch == '(') {
            depth++;
        } else if (ch == ')' && --depth == 0) {
            return (unsigned)(i + 1);
        }
    }
    return 0;
}

/* Drops the errors after diagnostic i that lie inside the call starting at
 * its location: arguments like .index = {i} are no C expressions once the
 * callee is not tilec.h's macro, and say nothing new. */
static void drop_call_cascade(Ctx *cx, ClangDiag *ds, int n, int i)
{
    size_t size;
    const char *text = ds[i].file ? clang_getFileContents(cx->tu, ds[i].file, &size) : NULL;
    if (!text) return;
    unsigned end = call_end(text, size, ds[i].off);
    for (int j = i + 1; j < n && end; j++)
        if (ds[j].file && clang_File_isEqual(ds[j].file, ds[i].file) && ds[j].off > ds[i].off && ds[j].off < end)
            ds[j].drop = true;
}

/* The innermost tile_* macro invocation around offset off of file f. */
static const MacroUse *tile_macro_at(Ctx *cx, CXFile f, unsigned off)
{
    const MacroUse *best = NULL;
    for (int i = 0; i < cx->nmacros; i++) {
        const MacroUse *m = &cx->macros[i];
        if (strncmp(m->name, "tile_", 5) || !clang_File_isEqual(m->file, f) || m->start > off || m->end < off)
            continue;
        if (!best || m->start > best->start) best = m;
    }
    return best;
}

/* "field designator 'shapes' does not refer to any field in type 'struct
 * tilec_mem_opts'": the option struct is tilec.h's business; say which
 * builtin has no such option and which it has. */
static bool report_unknown_option(Ctx *cx, const ClangDiag *d)
{
    char field[64];
    const char *pre = "field designator '";
    if (strncmp(d->msg, pre, strlen(pre)) || !strstr(d->msg, "' does not refer to any field in type 'struct tilec_"))
        return false;
    const char *p = d->msg + strlen(pre);
    size_t n = strcspn(p, "'");
    if (n == 0 || n >= sizeof field) return false;
    memcpy(field, p, n);
    field[n] = '\0';
    const MacroUse *m = d->file ? tile_macro_at(cx, d->file, d->off) : NULL;
    const char *const *opts = m ? builtin_info(builtin_lookup(m->name))->opts : NULL;
    if (!opts || !opts[0]) return false;
    int nopts = 0;
    char list[256] = "";
    for (const char *const *o = opts; *o; o++, nopts++) {
        strncat(list, o == opts ? "." : ", .", sizeof list - strlen(list) - 1);
        strncat(list, *o, sizeof list - strlen(list) - 1);
    }
    const char *near = closest_name(field, opts, nopts);
    char fix[320];
    snprintf(fix, sizeof fix, "use one of %s's options: %s", m->name, list);
    SrcLoc loc = d->loc;
    loc.len = (int)n;
    if (near)
        diag_error_fix(loc, fix, "unknown option '.%s' for %s; did you mean '.%s'?", field, m->name, near);
    else
        diag_error_fix(loc, fix, "unknown option '.%s' for %s", field, m->name);
    return true;
}

/* Where the user wrote location l: its spelling when that is in the file
 * of its expansion, at or after it (a macro argument), else its expansion. */
static void user_offset(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col, unsigned *off)
{
    CXFile sf;
    unsigned sline, scol, soff;
    clang_getExpansionLocation(l, f, line, col, off);
    clang_getSpellingLocation(l, &sf, &sline, &scol, &soff);
    if (*f && sf && clang_File_isEqual(*f, sf) && soff >= *off) *line = sline, *col = scol, *off = soff;
}

/* The text of a subscripted expression `x[i][j]` from clang's range of x:
 * base "x", idx "i, j", shp "1, 1", and where x starts.  False when the
 * text is not there to read (a macro's body) or too long to quote. */
static bool subscript_text(Ctx *cx, CXSourceRange r, char *base, size_t nbase, char *idx, size_t nidx, char *shp,
                           size_t nshp, SrcLoc *loc)
{
    CXFile f1, f2;
    unsigned l1, c1, o1, l2, c2, o2;
    if (clang_Range_isNull(r)) return false;
    user_offset(clang_getRangeStart(r), &f1, &l1, &c1, &o1);
    user_offset(clang_getRangeEnd(r), &f2, &l2, &c2, &o2);
    size_t size;
    const char *text = f1 ? clang_getFileContents(cx->tu, f1, &size) : NULL;
    if (!text || !f2 || !clang_File_isEqual(f1, f2) || o2 < o1 || o2 > size) return false;
    /* The range ends at the start of the base's last token: the '[' is the
     * first one after it on the line. */
    size_t b = o1, e = o2;
    while (e < size && text[e] != '[' && text[e] != ';' && text[e] != '\n') e++;
    if (e >= size || text[e] != '[') return false;
    size_t be = e;
    while (be > b && (text[be - 1] == ' ' || text[be - 1] == '\t')) be--;
    if (be == b || be - b >= nbase) return false;
    memcpy(base, text + b, be - b);
    base[be - b] = '\0';
    idx[0] = shp[0] = '\0';
    for (int k = 0; e < size && text[e] == '[' && k < 8; k++) {
        size_t s0 = e + 1, s1 = s0;
        int depth = 1;
        while (s1 < size && depth > 0) {
            if (text[s1] == '[') depth++;
            else if (text[s1] == ']') depth--;
            if (depth > 0) s1++;
        }
        if (s1 >= size || s1 - s0 > 32 || memchr(text + s0, '\n', s1 - s0)) return false;
        size_t t0 = s0, t1 = s1;
        while (t0 < t1 && (text[t0] == ' ' || text[t0] == '\t')) t0++;
        while (t1 > t0 && (text[t1 - 1] == ' ' || text[t1 - 1] == '\t')) t1--;
        size_t l = strlen(idx);
        snprintf(idx + l, nidx - l, "%s%.*s", k ? ", " : "", (int)(t1 - t0), text + t0);
        l = strlen(shp);
        snprintf(shp + l, nshp - l, "%s1", k ? ", " : "");
        e = s1 + 1;
        while (e < size && (text[e] == ' ' || text[e] == '\t')) e++;
    }
    loc->file = fe_file_name(cx, f1);
    loc->line = (int)l1;
    loc->col = (int)c1;
    loc->len = (int)(be - b);
    return true;
}

/* "subscripted value is not an array, pointer, or vector": in tile code the
 * value is a tile (or a scalar), and tiles have no element access. */
static bool report_tile_subscript(Ctx *cx, const ClangDiag *d)
{
    if (strcmp(d->msg, "subscripted value is not an array, pointer, or vector") != 0) return false;
    char base[48], idx[128], shp[64], fix[640];
    SrcLoc loc = d->loc;
    /* in SIMT code the value is a C scalar, and C's arrays are what may be subscripted */
    CXCursor fn = clang_getCursor(cx->tu, clang_getLocationForOffset(cx->tu, d->file, d->off));
    while (!clang_Cursor_isNull(fn) && clang_getCursorKind(fn) != CXCursor_FunctionDecl &&
           clang_getCursorKind(fn) != CXCursor_TranslationUnit)
        fn = clang_getCursorSemanticParent(fn);
    if (!clang_Cursor_isNull(fn) && clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
        (fe_annotation(fn, "tilec.simt_kernel", NULL, cx) || fe_annotation(fn, "tilec.simt_func", NULL, cx))) {
        bool named = subscript_text(cx, d->range, base, sizeof base, idx, sizeof idx, shp, sizeof shp, &loc);
        diag_error_fix(loc, "SIMT code subscripts arrays: TILE_ARRAY parameters (a[i], SIMT_AT(a, i, j)), local arrays and SIMT_SHARED arrays",
                       "'%s' is not an array: it cannot be subscripted", named ? base : "this value");
        return true;
    }
    if (subscript_text(cx, d->range, base, sizeof base, idx, sizeof idx, shp, sizeof shp, &loc)) {
        snprintf(fix, sizeof fix,
                 "tiles have no element access: take a sub-tile at a constant index with tile_extract(%s, .index = {%s}, "
                 ".shape = {%s}), "
                 "or reduce the tile with tile_sum or tile_max",
                 base, idx, shp);
        diag_error_fix(loc, fix, "'%s' is a tile, not an array: tiles cannot be subscripted", base);
    } else {
        diag_error_fix(loc,
                       "tiles have no element access: take a sub-tile at a constant index with tile_extract(x, .index = {...}, "
                       ".shape = {...}), or reduce the tile with tile_sum or tile_max",
                       "a tile is not an array: tiles cannot be subscripted");
    }
    return true;
}

void fe_report_clang_diags(Ctx *cx)
{
    unsigned n = clang_getNumDiagnostics(cx->tu);
    if (n == 0) return;
    ClangDiag *ds = arena_alloc(cx->arena, sizeof(ClangDiag) * n);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(cx->tu, i);
        ClangDiag *cd = &ds[i];
        cd->sev = clang_getDiagnosticSeverity(d);
        CXSourceLocation l = clang_getDiagnosticLocation(d);
        CXFile f, sf;
        unsigned line, col, off, sline, scol, soff;
        clang_getExpansionLocation(l, &f, &line, &col, &off);
        clang_getSpellingLocation(l, &sf, &sline, &scol, &soff);
        if (f && sf && clang_File_isEqual(f, sf) && soff >= off) line = sline, col = scol, off = soff; /* a macro argument */
        cd->file = f;
        cd->off = off;
        cd->loc = (SrcLoc){.file = f ? fe_file_name(cx, f) : cx->main_file, .line = (int)line, .col = (int)col};
        cd->msg = fe_str_take(cx, clang_getDiagnosticSpelling(d));
        cd->range = clang_getDiagnosticNumRanges(d) > 0 ? clang_getDiagnosticRange(d, 0) : clang_getNullRange();
        /* clang's option, "-Wfoo", printed as gcc's [-Wfoo] tag. */
        const char *opt = fe_str_take(cx, clang_getDiagnosticOption(d, NULL));
        cd->wname = !strncmp(opt, "-W", 2) ? opt + 2 : NULL;
        clang_disposeDiagnostic(d);
    }

    /* No tilec.h: every Tile C name is unknown and each one cascades.  One
     * error, at the first of them, says why. */
    TilecHSearch th = {cx, false};
    clang_getInclusions(cx->tu, find_tilec_h, &th);
    bool not_found = false; /* an #include that failed: maybe <tilec.h> itself */
    for (unsigned i = 0; i < n; i++) {
        size_t ml = strlen(ds[i].msg);
        if (ds[i].sev >= CXDiagnostic_Error && ml > 16 && !strcmp(ds[i].msg + ml - 16, "' file not found")) not_found = true;
    }
    if (!th.found && !not_found) {
        char name[128];
        for (unsigned i = 0; i < n; i++) {
            if (ds[i].sev < CXDiagnostic_Error) continue;
            if (!(quoted_name(ds[i].msg, "unknown type name ", name, sizeof name) ||
                  quoted_name(ds[i].msg, "use of undeclared identifier ", name, sizeof name) ||
                  quoted_name(ds[i].msg, "call to undeclared function ", name, sizeof name)) ||
                !looks_like_tile_name(name))
                continue;
            SrcLoc loc = ds[i].loc;
            loc.len = (int)strlen(name);
            diag_error_fix(loc, "add '#include <tilec.h>' at the top of the file",
                           "'%s' is not defined: this file does not include <tilec.h>", name);
            int more = 0;
            for (unsigned j = 0; j < n; j++) more += j != i && ds[j].sev >= CXDiagnostic_Error;
            if (more)
                diag_note((SrcLoc){.file = cx->main_file}, "%d more error%s not shown: they may all come from the missing #include",
                          more, more == 1 ? "" : "s");
            return;
        }
    }

    /* A macro that uses an argument twice (tilec.h's simt_atomic_add(p, v)
     * reads p in __typeof__(*(p)) and in the call) makes clang report its
     * error once per use, at the same place: once is enough. */
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < i && !ds[i].drop; j++)
            if (ds[j].sev == ds[i].sev && ds[j].loc.line == ds[i].loc.line && ds[j].loc.col == ds[i].loc.col &&
                !strcmp(ds[j].loc.file, ds[i].loc.file) && !strcmp(ds[j].msg, ds[i].msg))
                ds[i].drop = true;

    TilecNames names = {cx, NULL, 0};
    bool names_read = false;
    for (unsigned i = 0; i < n; i++) {
        ClangDiag *d = &ds[i];
        if (d->drop) continue;
        if (d->sev == CXDiagnostic_Warning) {
            diag_warning(d->wname, d->loc, "%s", d->msg);
            continue;
        }
        if (d->sev < CXDiagnostic_Error) continue;
        if (report_unknown_option(cx, d) || report_tile_subscript(cx, d)) continue;
        char name[128];
        bool undeclared = quoted_name(d->msg, "use of undeclared identifier ", name, sizeof name) ||
                          quoted_name(d->msg, "call to undeclared function ", name, sizeof name);
        if (undeclared || quoted_name(d->msg, "unknown type name ", name, sizeof name)) {
            if (!names_read) {
                clang_visitChildren(clang_getTranslationUnitCursor(cx->tu), collect_tilec_name, &names);
                names_read = true;
            }
            const char *near = closest_name(name, names.names, names.n);
            if (undeclared && (near || looks_like_tile_name(name))) drop_call_cascade(cx, ds, (int)n, (int)i);
            if (near) {
                SrcLoc loc = d->loc;
                loc.len = (int)strlen(name);
                diag_error(loc, "%s; did you mean '%s'?", d->msg, near);
                size_t size;
                const char *text = d->file ? clang_getFileContents(cx->tu, d->file, &size) : NULL;
                if (!undeclared && text && call_end(text, size, d->off)) {
                    /* TILE_ARRY(float, 1) a: the parameter list is lost,
                     * and with it every name the body uses. */
                    int more = 0;
                    for (unsigned j = i + 1; j < n; j++) more += ds[j].sev >= CXDiagnostic_Error;
                    if (more)
                        diag_note((SrcLoc){.file = cx->main_file}, "%d more error%s not shown: fix this one first",
                                  more, more == 1 ? "" : "s");
                    return;
                }
                continue;
            }
            if (undeclared && looks_like_tile_name(name) && names.n > 0) {
                diag_error(d->loc, "%s (tilec.h declares no such name)", d->msg);
                continue;
            }
        }
        diag_error_named(d->wname, d->loc, "%s", d->msg);
        size_t ml = strlen(d->msg);
        if (d->sev == CXDiagnostic_Fatal || (ml > 16 && !strcmp(d->msg + ml - 16, "' file not found"))) {
            /* A missing #include (fatal, which KeepGoing turns into an
             * error): what follows is its cascade, and gcc stops here. */
            int more = 0;
            for (unsigned j = i + 1; j < n; j++) more += ds[j].sev >= CXDiagnostic_Error;
            if (more)
                diag_note((SrcLoc){.file = cx->main_file}, "%d more error%s not shown: fix this one first", more,
                          more == 1 ? "" : "s");
            return;
        }
    }
}
