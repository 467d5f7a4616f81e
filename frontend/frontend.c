/* frontend.c: libclang -> tilec AST.
 *
 * libclang parses the source as C23 with tilec.h on the include path; we walk
 * its cursors and keep only what Tile C means: annotated kernels and tile
 * functions, their parameters, statements and expressions.  Everything a tile
 * kernel cannot contain is rejected here, at the user's file:line:col, with a
 * message that says what to write instead.  Types of expressions are not taken
 * from clang (it types them as C); sema types them again with Tile C's rules. */
#include "frontend/frontend.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/frontend_ctx.h"
#include "frontend/builtins.h"



/* ---- small libclang helpers ------------------------------------------ */

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Kids *k = d;
    if (k->n == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 16;
        k->c = realloc(k->c, sizeof(CXCursor) * (size_t)k->cap);
        if (!k->c) abort();
    }
    k->c[k->n++] = c;
    return CXChildVisit_Continue;
}

/* The children of c; release with fe_kids_free. */
Kids *fe_kids_of(CXCursor c)
{
    Kids *k = calloc(1, sizeof *k);
    if (!k) abort();
    clang_visitChildren(c, collect_kid, k);
    return k;
}

void fe_kids_free(Kids *k)
{
    if (!k) return;
    free(k->c);
    free(k);
}

char *fe_str_take(Ctx *cx, CXString s)
{
    const char *p = clang_getCString(s);
    char *r = arena_strdup(cx->arena, p ? p : "");
    clang_disposeString(s);
    return r;
}

const char *fe_file_name(Ctx *cx, CXFile f)
{
    if (!f) return NULL;
    return fe_str_take(cx, clang_getFileName(f));
}

/* The name of the macro whose #define holds offset off of file f (the
 * line itself or, for a continued definition, the first line), or NULL. */
static const char *define_name_at(Ctx *cx, CXFile f, unsigned off)
{
    size_t size;
    const char *text = clang_getFileContents(cx->tu, f, &size);
    if (!text || off > size) return NULL;
    size_t start = off;
    while (start > 0 && text[start - 1] != '\n') start--;
    /* Continuation lines: step back while the previous line ends in '\'. */
    while (start >= 2 && text[start - 1] == '\n') {
        size_t e = start - 1;
        if (e > 0 && text[e - 1] == '\r') e--;
        if (e == 0 || text[e - 1] != '\\') break;
        start = e - 1;
        while (start > 0 && text[start - 1] != '\n') start--;
    }
    const char *p = text + start;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '#') return NULL;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "define", 6) != 0) return NULL;
    p += 6;
    while (*p == ' ' || *p == '\t') p++;
    const char *q = p;
    while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
    if (q == p) return NULL;
    char *name = arena_alloc(cx->arena, (size_t)(q - p) + 1);
    memcpy(name, p, (size_t)(q - p));
    return name;
}

static bool place_in_inner_macro(Ctx *cx, CXCursor c, CXFile sf, unsigned soff, CXFile ef, unsigned eoff, SrcLoc *l)
{
    const char *name = define_name_at(cx, sf, soff);
    if (!name) return false;
    MacroUse *outer = NULL;
    for (int i = 0; i < cx->nmacros; i++)
        if (cx->macros[i].start == eoff && clang_File_isEqual(cx->macros[i].file, ef)) outer = &cx->macros[i];
    if (!outer) return false;
    unsigned h = clang_hashCursor(c) | 1u;
    MacroUse *pick = NULL;
    for (int i = 0; i < cx->nmacros && !pick; i++) {
        MacroUse *m = &cx->macros[i];
        if (m == outer || m->start <= outer->start || m->start >= outer->end) continue;
        if (!clang_File_isEqual(m->file, ef) || strcmp(m->name, name) != 0) continue;
        if (m->owner == h) pick = m;
    }
    for (int i = 0; i < cx->nmacros && !pick; i++) {
        MacroUse *m = &cx->macros[i];
        if (m == outer || m->start <= outer->start || m->start >= outer->end) continue;
        if (!clang_File_isEqual(m->file, ef) || strcmp(m->name, name) != 0 || m->owner) continue;
        m->owner = h;
        pick = m;
    }
    if (!pick) return false;
    l->file = fe_file_name(cx, ef);
    l->line = (int)pick->line;
    l->col = (int)pick->col;
    l->len = (int)strlen(pick->name);
    if (strncmp(name, "tile_", 5) && strncmp(name, "TILE_", 5)) l->macro = name;
    return true;
}

static enum CXChildVisitResult collect_macro(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Ctx *cx = d;
    if (clang_getCursorKind(c) != CXCursor_MacroExpansion) return CXChildVisit_Continue;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f;
    unsigned line, col, start, end;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, &start);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    if (!f) return CXChildVisit_Continue;
    if (cx->nmacros % 64 == 0) {
        MacroUse *n = arena_alloc(cx->arena, sizeof(MacroUse) * (size_t)(cx->nmacros + 64));
        if (cx->nmacros) memcpy(n, cx->macros, sizeof(MacroUse) * (size_t)cx->nmacros);
        cx->macros = n;
    }
    MacroUse *m = &cx->macros[cx->nmacros++];
    m->name = fe_str_take(cx, clang_getCursorSpelling(c));
    m->file = f;
    m->start = start;
    m->end = end;
    m->line = line;
    m->col = col;
    return CXChildVisit_Continue;
}

/* The user's location of a cursor: where its text is spelled when that is
 * inside the macro invocation in the same file (macro arguments), otherwise
 * the expansion point (the macro's name in the user's code). */
SrcLoc fe_loc_of(Ctx *cx, CXCursor c)
{
    SrcLoc l = {0};
    CXSourceLocation sl = clang_getCursorLocation(c);
    CXFile ef, sf;
    unsigned eline, ecol, eoff, sline, scol, soff;
    clang_getExpansionLocation(sl, &ef, &eline, &ecol, &eoff);
    clang_getSpellingLocation(sl, &sf, &sline, &scol, &soff);
    bool use_spelling = sf && ef && clang_File_isEqual(sf, ef) && soff >= eoff;
    CXFile f = use_spelling ? sf : ef;
    l.file = fe_file_name(cx, f);
    l.line = (int)(use_spelling ? sline : eline);
    l.col = (int)(use_spelling ? scol : ecol);
    if (!use_spelling && sf && ef && !(clang_File_isEqual(sf, ef) && soff == eoff) &&
        place_in_inner_macro(cx, c, sf, soff, ef, eoff, &l))
        return l;
    if (!use_spelling && sf && ef && !(clang_File_isEqual(sf, ef) && soff == eoff)) {
        /* Text from a macro's body: point at the invocation in the user's
         * code and remember the macro's name for a note (tilec.h's own
         * spellings excepted: they are the language, not user macros). */
        CXSourceLocation at = clang_getLocation(cx->tu, ef, eline, ecol);
        CXToken *toks;
        unsigned n;
        clang_tokenize(cx->tu, clang_getRange(at, at), &toks, &n);
        if (n > 0 && clang_getTokenKind(toks[0]) == CXToken_Identifier) {
            char *name = fe_str_take(cx, clang_getTokenSpelling(cx->tu, toks[0]));
            if (strncmp(name, "tile_", 5) && strncmp(name, "TILE_", 5)) l.macro = name;
            l.len = (int)strlen(name);
        }
        clang_disposeTokens(cx->tu, toks, n);
    }
    if (use_spelling) {
        CXSourceRange r = clang_getCursorExtent(c);
        CXFile f1, f2;
        unsigned l1, c1, o1, l2, c2, o2;
        clang_getSpellingLocation(clang_getRangeStart(r), &f1, &l1, &c1, &o1);
        clang_getSpellingLocation(clang_getRangeEnd(r), &f2, &l2, &c2, &o2);
        if (f1 && f2 && clang_File_isEqual(f1, f2) && l1 == l2 && l1 == sline && c1 == scol &&
            c2 > c1)
            l.len = (int)(c2 - c1);
    }
    return l;
}

static bool in_main_or_user_file(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    return !clang_Location_isInSystemHeader(l);
}

CXCursor fe_strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        Kids *ks = fe_kids_of(c);
        if (ks->n != 1 || !clang_isExpression(clang_getCursorKind(ks->c[0]))) {
            fe_kids_free(ks);
            return c;
        }
        c = ks->c[0];
        fe_kids_free(ks);
    }
}

bool fe_annotation(CXCursor c, const char *prefix, const char **value, Ctx *cx)
{
    Kids *ks = fe_kids_of(c);
    bool found = false;
    for (int i = 0; i < ks->n && !found; i++) {
        if (clang_getCursorKind(ks->c[i]) != CXCursor_AnnotateAttr) continue;
        char *s = fe_str_take(cx, clang_getCursorSpelling(ks->c[i]));
        size_t n = strlen(prefix);
        if (strncmp(s, prefix, n) == 0) {
            if (value) *value = s + n;
            found = true;
        }
    }
    fe_kids_free(ks);
    return found;
}

/* ---- types -------------------------------------------------------------- */

/* ---- struct types: tuples of tiles ---- */

typedef struct FieldList {
    Ctx *cx;
    StructType *st;
    int cap;
} FieldList;

static enum CXVisitorResult add_field(CXCursor c, CXClientData d)
{
    FieldList *l = d;
    StructType *st = l->st;
    if (st->nfields == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4;
        const char **f = arena_alloc(l->cx->arena, sizeof *f * (size_t)l->cap);
        TypeRef *t = arena_alloc(l->cx->arena, sizeof *t * (size_t)l->cap);
        if (st->nfields) memcpy(f, st->fields, sizeof *f * (size_t)st->nfields), memcpy(t, st->types, sizeof *t * (size_t)st->nfields);
        st->fields = f, st->types = t;
    }
    const char *name = fe_str_take(l->cx, clang_getCursorSpelling(c));
    TypeRef tr = fe_type_ref(l->cx, clang_getCursorType(c));
    if (tr.dtype == DT_INVALID && !st->bad) st->bad = true, st->bad_field = name;
    st->fields[st->nfields] = name;
    st->types[st->nfields++] = tr;
    return CXVisit_Continue;
}

/* The StructType of record type t, made once per spelling. */
static const StructType *struct_type(Ctx *cx, CXType t, const char *spelling)
{
    CXType can = clang_getCanonicalType(t);
    char *key = fe_str_take(cx, clang_getTypeSpelling(can));
    for (int i = 0; i < cx->nstructs; i++)
        if (!strcmp(cx->structs[i]->name, key) || !strcmp(cx->structs[i]->name, spelling)) return cx->structs[i];
    StructType *st = arena_alloc(cx->arena, sizeof *st);
    st->name = spelling;
    FieldList l = {.cx = cx, .st = st};
    if (cx->nstructs % 16 == 0) {
        StructType **n = arena_alloc(cx->arena, sizeof *n * (size_t)(cx->nstructs + 16));
        if (cx->nstructs) memcpy(n, cx->structs, sizeof *n * (size_t)cx->nstructs);
        cx->structs = n;
    }
    cx->structs[cx->nstructs++] = st; /* before the fields: a struct that holds itself ends */
    clang_Type_visitFields(can, add_field, &l);
    if (!st->nfields && !st->bad) st->bad = true, st->bad_field = "";
    return st;
}

/* Walks typedef sugar from the outside in, so that tilec_tf32 is seen before
 * it turns into float and int32_t before it turns into int. */
TypeRef fe_type_ref(Ctx *cx, CXType t)
{
    TypeRef r = {0};
    r.is_const = clang_isConstQualifiedType(t);
    for (int depth = 0; depth < 16; depth++) {
        CXType u = clang_getUnqualifiedType(t);
        char *sp = fe_str_take(cx, clang_getTypeSpelling(u));
        if (!r.spelling) r.spelling = sp;
        Dtype d = dtype_from_c_spelling(sp);
        if (d != DT_INVALID) {
            r.dtype = d;
            return r;
        }
        if (u.kind == CXType_Record) {
            r.stype = struct_type(cx, u, r.spelling);
            return r;
        }
        if (u.kind == CXType_Typedef) {
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(u));
        } else if (u.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(u);
        } else {
            CXType can = clang_getCanonicalType(u);
            if (clang_equalTypes(can, u)) break;
            t = can;
        }
    }
    r.dtype = DT_INVALID;
    return r;
}

/* ---- statements --------------------------------------------------------- */

typedef struct StmtList {
    Stmt **items;
    int n, cap;
} StmtList;

static void list_push(Ctx *cx, StmtList *l, Stmt *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        Stmt **ni = arena_alloc(cx->arena, sizeof(Stmt *) * (size_t)cap);
        if (l->n) memcpy(ni, l->items, sizeof(Stmt *) * (size_t)l->n);
        l->items = ni;
        l->cap = cap;
    }
    l->items[l->n++] = s;
}

static bool lower_stmt_into(Ctx *cx, CXCursor c, StmtList *out);

static Stmt *new_stmt(Ctx *cx, StmtKind k, SrcLoc loc)
{
    Stmt *s = arena_alloc(cx->arena, sizeof *s);
    s->kind = k;
    s->loc = loc;
    return s;
}

static Stmt *block_of(Ctx *cx, StmtList *l, SrcLoc loc)
{
    Stmt *b = new_stmt(cx, ST_BLOCK, loc);
    b->items = l->items;
    b->nitems = l->n;
    return b;
}

/* Lowers a statement that stands alone (an if branch, a loop body). */
static Stmt *lower_single(Ctx *cx, CXCursor c)
{
    StmtList l = {0};
    if (!lower_stmt_into(cx, c, &l)) return NULL;
    if (l.n == 1 && l.items[0]->kind != ST_DECL) return l.items[0];
    return block_of(cx, &l, fe_loc_of(cx, c));
}

static bool first_token_is(Ctx *cx, CXCursor c, const char *word)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(cx->tu, clang_getCursorExtent(c), &toks, &n);
    bool r = false;
    if (n > 0) {
        CXString s = clang_getTokenSpelling(cx->tu, toks[0]);
        r = strcmp(clang_getCString(s), word) == 0;
        clang_disposeString(s);
    }
    clang_disposeTokens(cx->tu, toks, n);
    return r;
}

static bool lower_var_decl(Ctx *cx, CXCursor v, StmtList *out)
{
    SrcLoc loc = fe_loc_of(cx, v);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(v);
    char *name = fe_str_take(cx, clang_getCursorSpelling(v));
    if (!fe_simt_no_layout(cx, v, "tile code's variables")) return false;
    if (sc == CX_SC_Static || sc == CX_SC_Extern) {
        diag_error(loc, "'%s': static and extern variables are not allowed in tile code", name);
        return false;
    }
    CXType t = clang_getCursorType(v);
    if (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray ||
        t.kind == CXType_IncompleteArray) {
        diag_error_fix(loc, "use a tile: e.g. float t = tile_zeros(float, .shape = {4})",
                       "local array '%s' is not allowed in tile code", name);
        return false;
    }
    const char *vrank = NULL;
    if (t.kind == CXType_Pointer && !fe_annotation(v, "tilec.view:", &vrank, cx)) {
        if (fe_type_ref(cx, clang_getPointeeType(t)).dtype != DT_INVALID)
            diag_error_fix(loc, "a view of an array is declared TILE_VIEW(T, rank) name = tile_view_...(array, ...)",
                           "pointer variable '%s' is not allowed in tile code", name);
        else
            diag_error(loc, "pointer variable '%s' is not allowed in tile code", name);
        return false;
    }
    Stmt *s = new_stmt(cx, ST_DECL, loc);
    s->name = name;
    s->name_loc = loc;
    const char *trank = NULL;
    if (fe_annotation(v, "tilec.temp:", &trank, cx)) {
        /* a graph's temporary array: no value, a shape from its first writer */
        s->type = fe_type_ref(cx, t);
        s->type.temp_rank = atoi(trank);
        if (!cx->in_graph) {
            diag_error_fix(loc, "declare temporary arrays in a TILE_GRAPH; in tile code, a tile is a variable",
                           "TILE_TEMP '%s' outside a graph", name);
            return false;
        }
        if (s->type.temp_rank < 1 || s->type.temp_rank > TILE_MAX_RANK) {
            diag_error(loc, "temporary '%s' has rank %s; ranks 1 to %d are supported", name, trank, TILE_MAX_RANK);
            return false;
        }
        if (s->type.dtype == DT_INVALID) {
            diag_error(loc, "temporary '%s' has element type '%s', which is not a Tile C element type", name,
                       s->type.spelling);
            return false;
        }
        list_push(cx, out, s);
        return true;
    }
    if (vrank) {
        CXType pt = clang_getPointeeType(t);
        s->type = fe_type_ref(cx, pt);
        s->type.is_const = clang_isConstQualifiedType(pt);
        s->type.view_rank = atoi(vrank);
        if (s->type.view_rank < 1 || s->type.view_rank > TILE_MAX_RANK) {
            diag_error(loc, "view '%s' has rank %s; ranks 1 to %d are supported", name, vrank, TILE_MAX_RANK);
            return false;
        }
        if (s->type.dtype == DT_INVALID) {
            diag_error(loc, "view '%s' has element type '%s', which is not a Tile C element type", name,
                       s->type.spelling);
            return false;
        }
    } else {
        s->type = fe_type_ref(cx, t);
    }
    if (first_token_is(cx, v, "auto") || first_token_is(cx, v, "const") ) {
        /* 'const auto x' or 'auto x': look for auto among the first tokens. */
        CXToken *toks;
        unsigned n;
        clang_tokenize(cx->tu, clang_getCursorExtent(v), &toks, &n);
        for (unsigned i = 0; i < n && i < 3; i++) {
            CXString sp = clang_getTokenSpelling(cx->tu, toks[i]);
            if (!strcmp(clang_getCString(sp), "auto")) s->type.is_auto = true;
            clang_disposeString(sp);
        }
        clang_disposeTokens(cx->tu, toks, n);
    }
    if (s->type.is_auto) {
        s->type.spelling = "auto";
        s->type.dtype = DT_INVALID;
    } else if (s->type.dtype == DT_INVALID && !s->type.stype) {
        diag_error(loc, "variable '%s' has type '%s', which is not a Tile C element type", name,
                   s->type.spelling);
        return false;
    }
    Kids *ks = fe_kids_of(v);
    CXCursor init = clang_getNullCursor();
    for (int i = 0; i < ks->n; i++)
        if (clang_isExpression(clang_getCursorKind(ks->c[i]))) init = ks->c[i];
    fe_kids_free(ks);
    if (clang_Cursor_isNull(init)) {
        diag_error_fix(loc, "give it a value, e.g. 'float acc = tile_zeros(float, .shape = {128});'",
                       "variable '%s' must be initialized: a tile's shape comes from its value",
                       name);
        return false;
    }
    if (s->type.stype && clang_getCursorKind(init) == CXCursor_InitListExpr) /* T r = {a, b}; */
        s->init = fe_lower_struct_init(cx, s->type, init, fe_loc_of(cx, init));
    else
        s->init = fe_lower_expr(cx, init);
    if (!s->init) return false;
    list_push(cx, out, s);
    return true;
}

/* Where a cursor's extent starts: at its expansion (in the file being
 * compiled), or at its spelling (inside a macro's definition, for a for
 * statement written in a macro's body). */
static unsigned offset_of(CXSourceLocation l, bool spelling)
{
    unsigned off;
    if (spelling) clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    else clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
    return off;
}

unsigned fe_for_offset(CXCursor c, bool spelling)
{
    return offset_of(clang_getRangeStart(clang_getCursorExtent(c)), spelling);
}

/* Splits a for statement's children into init/cond/step/body by comparing
 * their offsets with the two ';' of the header: libclang leaves out the
 * parts that are missing, so their count alone is ambiguous.  A for
 * statement that a macro expands to (a kernel written as a macro, to be
 * instantiated for several types) has its tokens in the macro's
 * definition: it is read there, and *spelling says so. */
bool fe_for_header(Ctx *cx, CXCursor c, unsigned semi[2], unsigned *rparen_out, bool *spelling)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    CXFile f0, f1, e0;
    unsigned s0, s1, x0;
    clang_getSpellingLocation(clang_getRangeStart(ext), &f0, NULL, NULL, &s0);
    clang_getSpellingLocation(clang_getRangeEnd(ext), &f1, NULL, NULL, &s1);
    clang_getExpansionLocation(clang_getRangeStart(ext), &e0, NULL, NULL, &x0);
    *spelling = (s0 != x0 || !clang_File_isEqual(f0, e0)) && clang_File_isEqual(f0, f1) && s1 > s0;
    if (*spelling) {
        CXSourceLocation a = clang_getLocationForOffset(cx->tu, f0, s0);
        CXSourceLocation b = clang_getLocationForOffset(cx->tu, f0, s1);
        ext = clang_getRange(a, b);
    }
    CXToken *toks;
    unsigned n;
    clang_tokenize(cx->tu, ext, &toks, &n);
    unsigned rparen = 0;
    int depth = 0, nsemi = 0;
    semi[0] = semi[1] = 0;
    for (unsigned i = 0; i < n; i++) {
        CXString sp = clang_getTokenSpelling(cx->tu, toks[i]);
        const char *s = clang_getCString(sp);
        unsigned off = offset_of(clang_getTokenLocation(cx->tu, toks[i]), *spelling);
        if (!strcmp(s, "(")) depth++;
        else if (!strcmp(s, ")")) {
            if (--depth == 0 && !rparen) rparen = off;
        } else if (!strcmp(s, ";") && depth == 1 && nsemi < 2) {
            semi[nsemi++] = off;
        }
        clang_disposeString(sp);
        if (rparen) break;
    }
    clang_disposeTokens(cx->tu, toks, n);
    *rparen_out = rparen;
    return nsemi == 2 && rparen;
}

static bool lower_for(Ctx *cx, CXCursor c, StmtList *out)
{
    SrcLoc loc = fe_loc_of(cx, c);
    unsigned semi[2], rparen;
    bool spelling;
    if (!fe_for_header(cx, c, semi, &rparen, &spelling)) {
        diag_error(loc, "cannot understand this for statement (is its header made by a macro?)");
        return false;
    }
    Stmt *s = new_stmt(cx, ST_FOR, loc);
    Kids *ks = fe_kids_of(c);
    bool ok = true;
    for (int i = 0; i < ks->n; i++) {
        CXCursor k = ks->c[i];
        unsigned off = fe_for_offset(k, spelling);
        if (off < semi[0]) {
            StmtList l = {0};
            if (!lower_stmt_into(cx, k, &l)) ok = false;
            else s->init_s = block_of(cx, &l, fe_loc_of(cx, k));
        } else if (off < semi[1]) {
            if (!(s->cond = fe_lower_expr(cx, k))) ok = false;
        } else if (off < rparen) {
            StmtList l = {0};
            if (!lower_stmt_into(cx, k, &l) || l.n != 1) ok = false;
            else s->step_s = l.items[0];
        } else {
            if (!(s->body = lower_single(cx, k))) ok = false;
        }
    }
    fe_kids_free(ks);
    if (ok && !s->body) s->body = new_stmt(cx, ST_BLOCK, loc);
    if (ok) list_push(cx, out, s);
    return ok;
}

static bool lower_assign(Ctx *cx, CXCursor c, StmtList *out, enum CXBinaryOperatorKind bk)
{
    Kids *ks = fe_kids_of(c);
    SrcLoc loc = fe_loc_of(cx, c);
    if (ks->n != 2) {
        fe_kids_free(ks);
        diag_error(loc, "unsupported assignment");
        return false;
    }
    CXCursor lhs = fe_strip(ks->c[0]);
    CXCursor rhs = ks->c[1];
    fe_kids_free(ks);
    /* r.x = v assigns a field of a struct variable (a tuple); otherwise the
     * target is a variable */
    bool member = clang_getCursorKind(lhs) == CXCursor_MemberRefExpr;
    if (!member && clang_getCursorKind(lhs) != CXCursor_DeclRefExpr) {
        if (clang_getCursorKind(lhs) == CXCursor_ArraySubscriptExpr ||
            clang_getCursorKind(lhs) == CXCursor_UnaryOperator)
            diag_error_fix(fe_loc_of(cx, lhs), "write arrays with tile_store(array, tile, .index = {...})",
                           "arrays can only be written through tile_store");
        else
            diag_error(fe_loc_of(cx, lhs), "only variables can be assigned in tile code");
        return false;
    }
    CXCursor ref = clang_getCursorReferenced(lhs);
    char *name = fe_str_take(cx, clang_getCursorSpelling(lhs));
    if (!member && clang_getCursorKind(ref) == CXCursor_ParmDecl && !fe_annotation(ref, "tilec.ndarray:", NULL, cx)) {
        diag_error_fix(fe_loc_of(cx, lhs), "copy it into a local variable first",
                       "parameter '%s' cannot be assigned in tile code", name);
        return false;
    }
    Stmt *s = new_stmt(cx, ST_ASSIGN, loc);
    s->target = fe_lower_expr(cx, lhs);
    s->op = bk == CXBinaryOperator_Assign ? -1 : fe_map_binop(bk);
    s->value = fe_lower_expr(cx, rhs);
    if (!s->target || !s->value) return false;
    list_push(cx, out, s);
    return true;
}

static bool lower_stmt_into(Ctx *cx, CXCursor c, StmtList *out)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    SrcLoc loc = fe_loc_of(cx, c);
    switch (k) {
    case CXCursor_CompoundStmt: {
        StmtList l = {0};
        Kids *ks = fe_kids_of(c);
        bool ok = true;
        for (int i = 0; i < ks->n; i++)
            if (!lower_stmt_into(cx, ks->c[i], &l)) ok = false;
        fe_kids_free(ks);
        list_push(cx, out, block_of(cx, &l, loc));
        return ok;
    }
    case CXCursor_DeclStmt: {
        Kids *ks = fe_kids_of(c);
        bool ok = true;
        for (int i = 0; i < ks->n; i++) {
            enum CXCursorKind dk = clang_getCursorKind(ks->c[i]);
            if (dk == CXCursor_VarDecl) {
                if (!lower_var_decl(cx, ks->c[i], out)) ok = false;
            } else if (dk == CXCursor_TypedefDecl || dk == CXCursor_StructDecl ||
                       dk == CXCursor_EnumDecl || dk == CXCursor_UnionDecl) {
                diag_error(fe_loc_of(cx, ks->c[i]), "type declarations are not allowed inside tile code");
                ok = false;
            } else {
                diag_error(fe_loc_of(cx, ks->c[i]), "unsupported declaration in tile code");
                ok = false;
            }
        }
        fe_kids_free(ks);
        return ok;
    }
    case CXCursor_NullStmt:
        return true;
    case CXCursor_IfStmt: {
        Kids *ks = fe_kids_of(c);
        bool ok = ks->n >= 2;
        Stmt *s = new_stmt(cx, ST_IF, loc);
        if (ok) {
            s->cond = fe_lower_expr(cx, ks->c[0]);
            s->then_s = lower_single(cx, ks->c[1]);
            if (ks->n > 2) s->else_s = lower_single(cx, ks->c[2]);
            ok = s->cond && s->then_s && (ks->n < 3 || s->else_s);
        }
        fe_kids_free(ks);
        if (ok) list_push(cx, out, s);
        return ok;
    }
    case CXCursor_WhileStmt: {
        Kids *ks = fe_kids_of(c);
        bool ok = ks->n == 2;
        Stmt *s = new_stmt(cx, ST_WHILE, loc);
        if (ok) {
            s->cond = fe_lower_expr(cx, ks->c[0]);
            s->body = lower_single(cx, ks->c[1]);
            ok = s->cond && s->body;
        } else {
            diag_error(loc, "declarations in a while condition are not supported");
        }
        fe_kids_free(ks);
        if (ok) list_push(cx, out, s);
        return ok;
    }
    case CXCursor_ForStmt:
        return lower_for(cx, c, out);
    case CXCursor_DoStmt:
        diag_error_fix(loc, "write it as a while loop", "do-while loops are not supported in tile code");
        return false;
    case CXCursor_SwitchStmt:
        diag_error_fix(loc, "write it as if/else", "switch is not supported in tile code");
        return false;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        diag_error_fix(loc, "use loops, break and continue", "goto is not allowed in tile code");
        cx->goto_reported = true;
        return false;
    case CXCursor_LabelStmt:
        if (!cx->goto_reported) diag_error(loc, "labels are not allowed in tile code");
        return false;
    case CXCursor_ReturnStmt: {
        Stmt *s = new_stmt(cx, ST_RETURN, loc);
        Kids *ks = fe_kids_of(c);
        bool ok = true;
        if (ks->n > 0) ok = (s->value = fe_lower_expr(cx, ks->c[0])) != NULL;
        fe_kids_free(ks);
        if (ok) list_push(cx, out, s);
        return ok;
    }
    case CXCursor_BreakStmt:
        list_push(cx, out, new_stmt(cx, ST_BREAK, loc));
        return true;
    case CXCursor_ContinueStmt:
        list_push(cx, out, new_stmt(cx, ST_CONTINUE, loc));
        return true;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
        if (fe_is_assign_op(bk)) return lower_assign(cx, c, out, bk);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind uk = clang_getCursorUnaryOperatorKind(c);
        if (uk >= CXUnaryOperator_PostInc && uk <= CXUnaryOperator_PreDec) {
            Kids *ks = fe_kids_of(c);
            CXCursor arg = ks->n ? fe_strip(ks->c[0]) : clang_getNullCursor();
            fe_kids_free(ks);
            if (clang_Cursor_isNull(arg) || clang_getCursorKind(arg) != CXCursor_DeclRefExpr ||
                clang_getCursorKind(clang_getCursorReferenced(arg)) != CXCursor_VarDecl) {
                diag_error(loc, "'++' and '--' apply only to local variables in tile code");
                return false;
            }
            Stmt *s = new_stmt(cx, ST_ASSIGN, loc);
            s->target = fe_lower_expr(cx, arg);
            s->op = (uk == CXUnaryOperator_PostInc || uk == CXUnaryOperator_PreInc) ? BOP_ADD : BOP_SUB;
            s->value = fe_new_expr(cx, EX_INT, loc);
            s->value->ival = 1;
            s->value->uval = 1;
            if (!s->target) return false;
            list_push(cx, out, s);
            return true;
        }
        break;
    }
    default:
        break;
    }
    if (k == CXCursor_CStyleCastExpr && clang_getCursorType(c).kind == CXType_Void)
        return true; /* (void)x; says "unused" in C and means nothing here */
    if (clang_isExpression(k)) {
        Stmt *s = new_stmt(cx, ST_EXPR, loc);
        s->value = fe_lower_expr(cx, c);
        if (!s->value) return false;
        list_push(cx, out, s);
        return true;
    }
    char *kind = fe_str_take(cx, clang_getCursorKindSpelling(k));
    diag_error(loc, "unsupported statement in tile code (%s)", kind);
    return false;
}

/* ---- functions ---------------------------------------------------------- */

char *fe_clean_comment(Ctx *cx, const char *raw)
{
    if (!raw || !*raw) return NULL;
    size_t n = strlen(raw);
    char *out = arena_alloc(cx->arena, n + 1);
    size_t o = 0;
    const char *p = raw;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = p, *e = p + len;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        if (e - s >= 3 && !strncmp(s, "/**", 3)) s += 3;
        else if (e - s >= 3 && !strncmp(s, "///", 3)) s += 3;
        else if (e - s >= 2 && (!strncmp(s, "/*", 2) || !strncmp(s, "//", 2))) s += 2;
        else if (s < e && *s == '*' && !(e - s >= 2 && s[1] == '/')) s++;
        if (e - s >= 2 && !strncmp(e - 2, "*/", 2)) e -= 2;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
        if (e > s || o > 0) {
            memcpy(out + o, s, (size_t)(e - s));
            o += (size_t)(e - s);
            out[o++] = '\n';
        }
        if (!eol) break;
        p = eol + 1;
    }
    while (o > 0 && out[o - 1] == '\n') o--;
    out[o] = '\0';
    return o ? out : NULL;
}

static bool parse_specs(Ctx *cx, Param *p, const char *list)
{
    int cap = 1;
    for (const char *q = list; *q; q++) cap += *q == ',';
    p->specs = arena_alloc(cx->arena, sizeof(int64_t) * (size_t)cap);
    const char *q = list;
    while (*q) {
        while (*q == ' ' || *q == ',') q++;
        if (!*q) break;
        char *end;
        errno = 0;
        long long v = strtoll(q, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
        const char *after = end;
        while (*after == ' ') after++;
        if (end == q || errno || (*after && *after != ',')) {
            diag_error_fix(p->loc, "list integer literals, e.g. TILE_CONST(int, 128, 256)",
                           "constant parameter '%s': '%s' is not an integer literal", p->name, q);
            return false;
        }
        ConstValue cv = {.i = v, .u = (uint64_t)v};
        if (!dtype_const_fits(&cv, p->type.dtype)) {
            diag_error(p->loc, "constant parameter '%s': %lld does not fit %s", p->name, v, dtype_name(p->type.dtype));
            return false;
        }
        for (int k = 0; k < p->nspecs; k++)
            if (p->specs[k] == v) {
                diag_error(p->loc, "constant parameter '%s' lists %lld twice", p->name, v);
                return false;
            }
        p->specs[p->nspecs++] = v;
        q = after;
    }
    if (p->nspecs == 0) {
        diag_error_fix(p->loc, "list the values to compile for, e.g. TILE_CONST(int, 128, 256)",
                       "constant parameter '%s' lists no values", p->name);
        return false;
    }
    return true;
}

/* An array parameter's rank (as written, val) and element type. */
static bool array_param_ok(const Param *p, const char *val)
{
    if (p->rank < 1 || p->rank > TILE_MAX_RANK) {
        diag_error(p->loc, "array parameter '%s' has rank %s; ranks 1 to %d are supported", p->name, val,
                   TILE_MAX_RANK);
        return false;
    }
    if (p->type.dtype == DT_INVALID) {
        diag_error(p->loc, "array parameter '%s' has element type '%s', which is not a Tile C element type", p->name,
                   p->type.spelling);
        return false;
    }
    return true;
}

bool fe_lower_param(Ctx *cx, CXCursor c, Param *p)
{
    p->name = fe_str_take(cx, clang_getCursorSpelling(c));
    p->loc = fe_loc_of(cx, c);
    if (!fe_simt_no_layout(cx, c, "parameters")) return false;
    CXType t = clang_getCursorType(c);
    const char *val;
    if (fe_annotation(c, "tilec.array:", &val, cx)) {
        p->kind = PARAM_ARRAY;
        p->rank = atoi(val);
        CXType pt = clang_getPointeeType(t);
        p->type = fe_type_ref(cx, pt);
        p->readonly = clang_isConstQualifiedType(pt);
        return array_param_ok(p, val);
    }
    if (fe_annotation(c, "tilec.ndarray:", &val, cx)) {
        /* An array kernel's whole array: declared as its element type, so
         * that C accepts arithmetic on it. */
        p->kind = PARAM_ARRAY;
        p->whole = true;
        p->rank = atoi(val);
        p->type = fe_type_ref(cx, t);
        p->readonly = clang_isConstQualifiedType(t);
        CXCursor fn = clang_getCursorSemanticParent(c);
        if (!fe_annotation(fn, "tilec.array_kernel", NULL, cx) && !fe_annotation(fn, "tilec.graph", NULL, cx)) {
            diag_error_fix(p->loc, "mark the function TILE_ARRAY_KERNEL, or declare the parameter TILE_ARRAY(T, rank)",
                           "TILE_NDARRAY parameter '%s' belongs to an array kernel or a graph", p->name);
            return false;
        }
        return array_param_ok(p, val);
    }
    bool tunable = fe_annotation(c, "tilec.tunable:", &val, cx);
    if (tunable || fe_annotation(c, "tilec.const:", &val, cx)) {
        p->kind = PARAM_CONST;
        p->tunable = tunable;
        p->threads = tunable && fe_annotation(c, "tilec.threads", NULL, cx);
        p->type = fe_type_ref(cx, t);
        if (!dtype_is_int(p->type.dtype) && p->type.dtype != DT_BOOL) {
            diag_error(p->loc, "constant parameter '%s' must have an integer type, not '%s'",
                       p->name, p->type.spelling);
            return false;
        }
        if (!parse_specs(cx, p, val)) return false;
        /* A block of CUDA threads is whole warps, at most 1024 of them. */
        for (int k = 0; p->threads && k < p->nspecs; k++)
            if (p->specs[k] < 32 || p->specs[k] > 1024 || p->specs[k] % 32) {
                diag_error_fix(p->loc, "list multiples of 32 from 32 to 1024, e.g. TILE_THREADS(256, 128)",
                               "TILE_THREADS parameter '%s': %lld threads is not a CUDA block size", p->name,
                               (long long)p->specs[k]);
                return false;
            }
        return true;
    }
    p->kind = PARAM_SCALAR;
    if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
        t.kind == CXType_IncompleteArray) {
        char fix[256] = "declare it as TILE_ARRAY(T, rank)";
        if (t.kind == CXType_Pointer) {
            CXType pt = clang_getPointeeType(t);
            if (pt.kind != CXType_Pointer && pt.kind != CXType_Void)
                snprintf(fix, sizeof fix, "declare it as an array parameter of element type and rank, e.g. 'TILE_ARRAY(%s, 1) %s'",
                         fe_str_take(cx, clang_getTypeSpelling(pt)), p->name);
        }
        CXCursor fn = clang_getCursorSemanticParent(c);
        bool simt = fe_annotation(fn, "tilec.simt_kernel", NULL, cx) || fe_annotation(fn, "tilec.simt_func", NULL, cx);
        diag_error_fix(p->loc, fix, "pointer parameter '%s' is not allowed in %s code", p->name, simt ? "SIMT" : "tile");
        return false;
    }
    p->type = fe_type_ref(cx, t);
    if (p->type.dtype == DT_INVALID) {
        if (p->type.stype)
            diag_error_fix(p->loc, "pass the struct's fields as parameters of their own",
                           "parameter '%s' has struct type '%s': parameters are tiles and scalars, a struct (tuple) "
                           "only a tile function's result or a variable",
                           p->name, p->type.spelling);
        else
            diag_error(p->loc, "parameter '%s' has type '%s', which is not a Tile C element type",
                       p->name, p->type.spelling);
        return false;
    }
    return true;
}

/* What a TILE_EXTERN function may take and return: the element types that
 * are the same C type on the host and in CUDA C++ (so the one declaration
 * fits both definitions). */
static bool extern_type(Dtype t)
{
    return t == DT_BOOL || t == DT_FLOAT32 || t == DT_FLOAT64 || dtype_is_int(t);
}

static bool extern_types_ok(const Func *f)
{
    static const char fix[] = "use bool, an integer type, float or double (convert 16-bit and 8-bit floats with tile_cast)";
    if (f->ret.spelling && !strcmp(f->ret.spelling, "void")) {
        diag_error_fix(f->loc, "return the element's value", "TILE_EXTERN function '%s' must return a value: it is applied "
                       "element by element", f->name);
        return false;
    }
    if (!extern_type(f->ret.dtype)) {
        diag_error_fix(f->loc, fix, "TILE_EXTERN function '%s' returns %s", f->name, f->ret.spelling);
        return false;
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_SCALAR) {
            diag_error_fix(p->loc, "pass elements: the function is applied to each element of its tile arguments",
                           "TILE_EXTERN function '%s' takes scalars only; '%s' is not one", f->name, p->name);
            return false;
        }
        if (!extern_type(p->type.dtype)) {
            diag_error_fix(p->loc, fix, "parameter '%s' of TILE_EXTERN function '%s' is %s", p->name, f->name,
                           p->type.spelling);
            return false;
        }
    }
    return true;
}

static bool lower_func(Ctx *cx, CXCursor c, bool kernel)
{
    Func *f = arena_alloc(cx->arena, sizeof *f);
    f->name = fe_str_take(cx, clang_getCursorSpelling(c));
    f->loc = fe_loc_of(cx, c);
    f->is_kernel = kernel;
    f->is_array_kernel = kernel && fe_annotation(c, "tilec.array_kernel", NULL, cx);
    f->is_graph = !kernel && fe_annotation(c, "tilec.graph", NULL, cx);
    f->ak_axis = -1;
    if (f->is_graph && clang_getResultType(clang_getCursorType(c)).kind != CXType_Void) {
        diag_error_fix(f->loc, "declare it 'void': a graph writes its output arrays", "graph '%s' must return void",
                       f->name);
        return false;
    }
    CXType rt = clang_getResultType(clang_getCursorType(c));
    bool ok = fe_simt_no_layout(cx, c, "functions");
    if (rt.kind == CXType_Void) {
        f->ret.spelling = "void";
    } else {
        f->ret = fe_type_ref(cx, rt);
        if (kernel) {
            diag_error_fix(f->loc, "kernels write results with tile_store; declare it 'void'",
                           "kernel '%s' must return void", f->name);
            ok = false;
        } else if (f->ret.dtype == DT_INVALID && !f->ret.stype) {
            diag_error(f->loc, "tile function '%s' returns '%s', which is not a Tile C element type",
                       f->name, f->ret.spelling);
            ok = false;
        }
    }
    if (clang_Cursor_isVariadic(c)) {
        diag_error(f->loc, "tile function '%s' cannot be variadic", f->name);
        ok = false;
    }
    int np = clang_Cursor_getNumArguments(c);
    f->params = arena_alloc(cx->arena, sizeof(Param) * (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        Param *p = &f->params[f->nparams++];
        if (!fe_lower_param(cx, clang_Cursor_getArgument(c, (unsigned)i), p)) ok = false;
        else if (f->is_graph && p->kind == PARAM_ARRAY && !p->whole) {
            diag_error_fix(p->loc, "declare it TILE_NDARRAY(T, rank): a graph passes whole arrays to array kernels",
                           "graph '%s' takes whole arrays, not TILE_ARRAY parameter '%s'", f->name, p->name);
            ok = false;
        } else if (f->is_graph && p->kind == PARAM_CONST) {
            diag_error_fix(p->loc, "pass it as a scalar parameter", "graph '%s' takes no TILE_CONST parameter ('%s')",
                           f->name, p->name);
            ok = false;
        } else if (f->is_array_kernel && p->kind == PARAM_ARRAY && !p->whole) {
            diag_error_fix(p->loc, "declare it TILE_NDARRAY(T, rank): in an array kernel the name is the whole array",
                           "array kernel '%s' takes whole arrays, not TILE_ARRAY parameter '%s'", f->name, p->name);
            ok = false;
        } else if (f->is_array_kernel && p->tunable) {
            diag_error_fix(p->loc, "declare it TILE_CONST, or write a tile kernel to choose the tiling yourself",
                           "array kernel '%s' chooses its own tiles: TILE_TUNABLE and TILE_THREADS parameters "
                           "('%s') belong to tile kernels", f->name, p->name);
            ok = false;
        } else if (!kernel && p->kind == PARAM_CONST) {
            diag_error(p->loc, "TILE_CONST parameters belong to kernels, not tile functions");
            ok = false;
        } else if (p->threads) {
            for (int j = 0; j < f->nparams - 1; j++)
                if (f->params[j].threads) {
                    diag_error(p->loc, "kernel '%s' has a second TILE_THREADS parameter ('%s' is the first)", f->name,
                               f->params[j].name);
                    ok = false;
                }
        }
    }
    f->is_extern = !kernel && fe_annotation(c, "tilec.extern", NULL, cx);
    if (f->is_extern && ok && !extern_types_ok(f)) ok = false;
    CXString raw = clang_Cursor_getRawCommentText(c);
    f->doc = fe_clean_comment(cx, clang_getCString(raw));
    clang_disposeString(raw);
    Kids *ks = fe_kids_of(c);
    cx->in_graph = f->is_graph;
    for (int i = 0; i < ks->n; i++)
        if (clang_getCursorKind(ks->c[i]) == CXCursor_CompoundStmt) {
            StmtList l = {0};
            if (!lower_stmt_into(cx, ks->c[i], &l)) ok = false;
            else f->body = l.items[0];
        }
    cx->in_graph = false;
    fe_kids_free(ks);
    if (!ok) return false;
    Program *p = cx->prog;
    Func **nf = arena_alloc(cx->arena, sizeof(Func *) * (size_t)(p->nfuncs + 1));
    if (p->nfuncs) memcpy(nf, p->funcs, sizeof(Func *) * (size_t)p->nfuncs);
    nf[p->nfuncs++] = f;
    p->funcs = nf;
    return true;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Ctx *cx = d;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !in_main_or_user_file(c))
        return CXChildVisit_Continue;
    bool kernel = fe_annotation(c, "tilec.kernel", NULL, cx) || fe_annotation(c, "tilec.array_kernel", NULL, cx);
    bool func = !kernel && fe_annotation(c, "tilec.func", NULL, cx);
    if (!kernel && !func && fe_annotation(c, "tilec.extern", NULL, cx)) {
        char *name = fe_str_take(cx, clang_getCursorSpelling(c));
        if (clang_isCursorDefinition(c))
            diag_error_fix(fe_loc_of(cx, c), "define it in CUDA C++ (extern \"C\" __device__) and in C for the host target",
                           "TILE_EXTERN function '%s' has a body: it declares a function defined outside Tile C", name);
        else if (!ast_find_func(cx->prog, name))
            lower_func(cx, c, false);
        return CXChildVisit_Continue;
    }
    if (!clang_isCursorDefinition(c)) return CXChildVisit_Continue;
    if (!kernel && !func && fe_annotation(c, "tilec.graph", NULL, cx)) {
        lower_func(cx, c, false);
        return CXChildVisit_Continue;
    }
    bool simt_kernel = !kernel && !func && fe_annotation(c, "tilec.simt_kernel", NULL, cx);
    if (simt_kernel || (!kernel && !func && fe_annotation(c, "tilec.simt_func", NULL, cx))) {
        fe_simt_lower_func(cx, c, simt_kernel);
        return CXChildVisit_Continue;
    }
    if (!kernel && !func) {
        /* Array parameters belong to kernels: a definition with them and
         * no annotation is a kernel whose TILE_KERNEL was forgotten, which
         * would otherwise be skipped without a word. */
        int np = clang_Cursor_getNumArguments(c);
        for (int i = 0; i < np; i++)
            if (fe_annotation(clang_Cursor_getArgument(c, (unsigned)i), "tilec.array:", NULL, cx)) {
                char *name = fe_str_take(cx, clang_getCursorSpelling(c));
                char fix[256];
                snprintf(fix, sizeof fix, "mark it a kernel: 'TILE_KERNEL void %s(...)'", name);
                diag_error_fix(fe_loc_of(cx, c), fix, "function '%s' has TILE_ARRAY parameters but is not marked TILE_KERNEL",
                               name);
                break;
            }
        return CXChildVisit_Continue;
    }
    lower_func(cx, c, kernel);
    return CXChildVisit_Continue;
}

/* ---- dependencies ----------------------------------------------------- */

static void visit_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    Ctx *cx = d;
    if (depth == 0) return; /* the main file itself */
    (void)stack;
    const char *name = fe_file_name(cx, f);
    Program *p = cx->prog;
    for (int i = 0; i < p->ndeps; i++)
        if (!strcmp(p->deps[i], name)) return;
    const char **nd = arena_alloc(cx->arena, sizeof(char *) * (size_t)(p->ndeps + 1));
    bool *ns = arena_alloc(cx->arena, sizeof(bool) * (size_t)(p->ndeps + 1));
    if (p->ndeps) {
        memcpy(nd, p->deps, sizeof(char *) * (size_t)p->ndeps);
        memcpy(ns, p->dep_system, sizeof(bool) * (size_t)p->ndeps);
    }
    ns[p->ndeps] = clang_Location_isInSystemHeader(clang_getLocationForOffset(cx->tu, f, 0)) != 0;
    nd[p->ndeps++] = name;
    p->deps = nd;
    p->dep_system = ns;
}

/* ---- driver ----------------------------------------------------------- */


Program *frontend_parse(const char *path, const FrontendOptions *o)
{
    Arena *arena = arena_new();
    Program *prog = arena_alloc(arena, sizeof *prog);
    prog->arena = arena;
    prog->main_file = arena_strdup(arena, path);
    Ctx cx = {.arena = arena, .prog = prog, .main_file = prog->main_file,
              .errors_at_start = diag_error_count()};

    int nargs = 0, cap = 20 + 2 * (o->ninclude_dirs + o->nmacros) + o->nsystem_dirs + o->nclang_flags;
    const char **args = arena_alloc(arena, sizeof(char *) * (size_t)cap);
    args[nargs++] = "-xc";
    args[nargs++] = "-std=c2x";
    args[nargs++] = "-fparse-all-comments";
    args[nargs++] = "-ferror-limit=50";
    args[nargs++] = "-D__TILEC__=1";
    /* The user's -W options, before tilec's own -Wno- below (-Wextra would
     * turn initializer-overrides back on). */
    for (int i = 0; i < o->nclang_flags; i++) args[nargs++] = o->clang_flags[i];
    /* tilec reports these itself, with a tile-level message. */
    args[nargs++] = "-Wno-initializer-overrides";
    args[nargs++] = "-Wno-excess-initializers";
    args[nargs++] = "-Wno-incompatible-pointer-types-discards-qualifiers";
    /* tilec.h declares the value parameters of builtins double; sema reads
     * literals exactly, so a large int64 passed to tile_full is no loss. */
    args[nargs++] = "-Wno-implicit-const-int-float-conversion";
    /* -Wall's "suggest braces" is about tilec.h's option structs, not the
     * user's code (.index = {i, 0} inside tile_load's argument list). */
    args[nargs++] = "-Wno-missing-braces";
    for (int i = 0; i < o->nmacros; i++) args[nargs++] = arena_printf(arena, "-%c%s", o->macro_kinds[i], o->macros[i]);
    for (int i = 0; i < o->ninclude_dirs; i++) args[nargs++] = arena_printf(arena, "-I%s", o->include_dirs[i]);
    for (int i = 0; i < o->nsystem_dirs; i++) args[nargs++] = arena_printf(arena, "-isystem%s", o->system_dirs[i]);
    if (o->tilec_include_dir) args[nargs++] = arena_printf(arena, "-isystem%s", o->tilec_include_dir);
    if (o->verbose) { /* -v: the arguments, then clang's own search list */
        fprintf(stderr, "libclang %s:", path);
        for (int i = 0; i < nargs; i++) fprintf(stderr, " %s", args[i]);
        fputc('\n', stderr);
        args[nargs++] = "-v";
    }

    CXIndex index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(
        index, path, args, nargs, NULL, 0,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &cx.tu);
    if (err != CXError_Success || !cx.tu) {
        diag_error((SrcLoc){.file = path}, "libclang could not parse this file (error %d)", (int)err);
        clang_disposeIndex(index);
        arena_free(arena);
        return NULL;
    }
    clang_visitChildren(clang_getTranslationUnitCursor(cx.tu), collect_macro, &cx);
    fe_report_clang_diags(&cx);
    if (diag_error_count() == cx.errors_at_start) {
        clang_getInclusions(cx.tu, visit_inclusion, &cx);
        clang_visitChildren(clang_getTranslationUnitCursor(cx.tu), visit_top, &cx);
        if (diag_error_count() == cx.errors_at_start && prog->nfuncs == 0 && prog->nsimt == 0)
            diag_warning("missing-kernels", (SrcLoc){.file = path}, "no TILE_KERNEL or TILE_FUNC definitions in this file");
    }
    clang_disposeTranslationUnit(cx.tu);
    clang_disposeIndex(index);
    if (diag_error_count() != cx.errors_at_start) {
        arena_free(arena);
        return NULL;
    }
    return prog;
}
