/* simt_types.c: the vector and struct types of SIMT code (frontend/simt.h's
 * SimtAgg), read from clang's types.  Vectors are tilec.h's ext_vector_type
 * typedefs (float32x4 ...), described by their lanes' scalar type and count;
 * user structs are C structs whose fields have SIMT types, registered once in
 * Program.simt_structs (each after the structs its fields use, the order the
 * generated code defines them in).  What seed 001 does not have is an error
 * here, at the struct's definition: unions, bit-fields, pointers, flexible
 * arrays, and alignment other than SIMT_STRUCT_ALIGN's. */
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/frontend_ctx.h"
#include "frontend/simt.h"
#include "sema/dtype.h"

static const char *const lane_names[] = {"x", "y", "z", "w"};

const char *simt_lane_name(int i) { return i >= 0 && i < 4 ? lane_names[i] : "?"; }

/* The seed's name of a vector's lane type (float32 in float32x4): its
 * dtype's; NULL for bool, which has no vectors. */
static const char *vec_elem_name(SimtType t)
{
    Dtype d = simt_dtype_of_type(t);
    return d == DT_INVALID || d == DT_BOOL ? NULL : dtype_name(d);
}

const char *simt_type_text(SimtType t, const SimtAgg *agg)
{
    if ((t == SIMT_VEC || t == SIMT_STRUCT) && agg) return agg->cname;
    if (t == SIMT_HALF) return "tilec_float16"; /* tilec_vec.h: __half on CUDA, its bits on the host */
    if (t == SIMT_BF16) return "tilec_bfloat16";
    return simt_type_name(t);
}

/* The struct's name: its tag, or the typedef that names an unnamed one. */
static const char *struct_name(Ctx *cx, CXType t, CXCursor decl)
{
    if (!clang_Cursor_isAnonymous(decl)) {
        const char *n = fe_str_take(cx, clang_getCursorSpelling(decl));
        if (*n && !strchr(n, ' ')) return n;
    }
    CXType u = t;
    while (u.kind == CXType_Elaborated) u = clang_Type_getNamedType(u);
    if (u.kind == CXType_Typedef) return fe_str_take(cx, clang_getTypedefName(u));
    return NULL;
}

static SimtType agg_type(Ctx *cx, CXType t, CXCursor at, const SimtAgg **agg, bool *ok);

static bool fail_at(CXCursor at, Ctx *cx, bool *ok, const char *fix, const char *msg)
{
    if (fix) diag_error_fix(fe_loc_of(cx, at), fix, "%s", msg);
    else diag_error(fe_loc_of(cx, at), "%s", msg);
    *ok = false;
    return false;
}

/* The fields of struct decl into a (false after an error, reported). */
static bool struct_fields(Ctx *cx, CXCursor decl, SimtAgg *a, bool *ok)
{
    Kids *ks = fe_kids_of(decl);
    a->fields = arena_alloc(cx->arena, sizeof *a->fields * (size_t)(ks->n + 1));
    char msg[400];
    bool good = true;
    for (int i = 0; i < ks->n && good; i++) {
        CXCursor f = ks->c[i];
        enum CXCursorKind k = clang_getCursorKind(f);
        if (k == CXCursor_AlignedAttr && !fe_annotation(decl, "tilec.struct_align:", NULL, cx))
            good = fail_at(f, cx, ok, "write SIMT_STRUCT_ALIGN(n) before the struct's braces",
                           "a SIMT struct's alignment is given with SIMT_STRUCT_ALIGN(n)");
        if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl) {
            if (clang_Cursor_isAnonymousRecordDecl(f))
                good = fail_at(f, cx, ok, "name the member and give its struct a name of its own",
                               "anonymous structs and unions are not allowed in SIMT structs");
            continue;
        }
        if (k != CXCursor_FieldDecl) continue;
        const char *name = fe_str_take(cx, clang_getCursorSpelling(f));
        Kids *fk = fe_kids_of(f);
        for (int j = 0; j < fk->n && good; j++)
            if (clang_getCursorKind(fk->c[j]) == CXCursor_AlignedAttr)
                good = fail_at(fk->c[j], cx, ok, "align the whole struct with SIMT_STRUCT_ALIGN(n)",
                               "fields of SIMT structs cannot have an alignment of their own");
        fe_kids_free(fk);
        if (!good) break;
        if (clang_Cursor_isBitField(f)) {
            snprintf(msg, sizeof msg, "field '%s' is a bit-field; SIMT structs have whole fields", name);
            good = fail_at(f, cx, ok, "declare it as a whole integer and mask it", msg);
            break;
        }
        SimtField *sf = &a->fields[a->nfields];
        sf->name = name;
        CXType ft = clang_getCursorType(f);
        while (clang_getCanonicalType(ft).kind == CXType_ConstantArray && sf->ndims < 8) {
            sf->dims[sf->ndims++] = clang_getArraySize(clang_getCanonicalType(ft));
            ft = clang_getArrayElementType(clang_getCanonicalType(ft));
        }
        if (clang_getCanonicalType(ft).kind == CXType_IncompleteArray) {
            snprintf(msg, sizeof msg, "field '%s' is a flexible array; SIMT structs have a fixed size", name);
            good = fail_at(f, cx, ok, "give the array a constant size", msg);
            break;
        }
        sf->type = simt_scalar_ctype(ft);
        if (sf->type == SIMT_NONE) sf->type = agg_type(cx, ft, f, &sf->agg, ok);
        if (!*ok) {
            good = false;
            break;
        }
        if (sf->type == SIMT_NONE || sf->type == SIMT_VOID) {
            snprintf(msg, sizeof msg, "field '%s' has type '%s'; fields of SIMT structs are scalars, vectors, structs or arrays of them",
                     name, fe_str_take(cx, clang_getTypeSpelling(clang_getCursorType(f))));
            good = fail_at(f, cx, ok, NULL, msg);
            break;
        }
        a->nfields++;
    }
    fe_kids_free(ks);
    if (good && !a->nfields) good = fail_at(decl, cx, ok, NULL, "a SIMT struct needs at least one field");
    return good;
}

static SimtType agg_type(Ctx *cx, CXType t, CXCursor at, const SimtAgg **agg, bool *ok)
{
    CXType c = clang_getCanonicalType(t);
    char msg[400];
    if (c.kind == CXType_ExtVector) {
        SimtType e = simt_scalar_ctype(clang_getElementType(c));
        long long n = clang_getNumElements(c);
        const char *en = vec_elem_name(e);
        if (!en || n < 1 || n > 4) {
            snprintf(msg, sizeof msg, "vector type '%s' is not one of SIMT code's (int8xN ... float64xN, float16xN, bfloat16xN, N from 1 to 4)",
                     fe_str_take(cx, clang_getTypeSpelling(t)));
            fail_at(at, cx, ok, "use a typedef of tilec.h, e.g. float32x4", msg);
            return SIMT_NONE;
        }
        SimtAgg *a = arena_alloc(cx->arena, sizeof *a);
        a->vector = true;
        a->elem = e;
        a->lanes = (int)n;
        a->name = arena_printf(cx->arena, "%sx%d", en, a->lanes);
        a->cname = arena_printf(cx->arena, "tilec_%s", a->name);
        *agg = a;
        return SIMT_VEC;
    }
    if (c.kind != CXType_Record) return SIMT_NONE;
    CXCursor decl = clang_getTypeDeclaration(c);
    if (clang_getCursorKind(decl) != CXCursor_StructDecl) {
        fail_at(at, cx, ok, "use a struct", "unions are not allowed in SIMT code");
        return SIMT_NONE;
    }
    const char *name = struct_name(cx, t, decl);
    if (!name) {
        fail_at(at, cx, ok, "give it a tag (`struct point {...}`) or a typedef name", "a SIMT struct needs a name");
        return SIMT_NONE;
    }
    Program *p = cx->prog;
    SrcLoc where = fe_loc_of(cx, decl);
    for (int i = 0; i < p->nsimt_structs; i++) {
        SimtAgg *o = p->simt_structs[i];
        if (strcmp(o->name, name) != 0) continue;
        if (o->loc.line != where.line || o->loc.col != where.col || strcmp(o->loc.file ? o->loc.file : "", where.file ? where.file : "")) {
            snprintf(msg, sizeof msg, "two different structs named '%s' in SIMT code (one at line %d)", name, o->loc.line);
            fail_at(at, cx, ok, "rename one of them", msg);
            return SIMT_NONE;
        }
        *agg = o;
        return SIMT_STRUCT;
    }
    SimtAgg *a = arena_alloc(cx->arena, sizeof *a);
    a->name = a->cname = name;
    a->loc = where;
    const char *al = NULL;
    if (fe_annotation(decl, "tilec.struct_align:", &al, cx)) {
        char *end;
        long v = strtol(al, &end, 10);
        if (*end || v < 1 || v > 4096 || (v & (v - 1))) {
            snprintf(msg, sizeof msg, "SIMT_STRUCT_ALIGN(%s): the alignment must be a power of two from 1 to 4096, written as an integer", al);
            fail_at(decl, cx, ok, NULL, msg);
            return SIMT_NONE;
        }
        a->align = (int)v;
    }
    if (!struct_fields(cx, decl, a, ok)) return SIMT_NONE;
    SimtAgg **ns = arena_alloc(cx->arena, sizeof *ns * (size_t)(p->nsimt_structs + 1));
    if (p->nsimt_structs) memcpy(ns, p->simt_structs, sizeof *ns * (size_t)p->nsimt_structs);
    ns[p->nsimt_structs++] = a;
    p->simt_structs = ns;
    *agg = a;
    return SIMT_STRUCT;
}

SimtType fe_simt_type(Ctx *cx, CXType t, CXCursor at, const SimtAgg **agg, bool *ok)
{
    *agg = NULL;
    SimtType s = simt_scalar_ctype(t);
    return s != SIMT_NONE ? s : agg_type(cx, t, at, agg, ok);
}

const SimtField *simt_field(const SimtAgg *a, const char *name)
{
    for (int i = 0; a && !a->vector && i < a->nfields; i++)
        if (!strcmp(a->fields[i].name, name)) return &a->fields[i];
    return NULL;
}

static int64_t scalar_size(SimtType t) { return dtype_bits(simt_dtype_of_type(t)) / 8; }

void simt_layout(SimtType t, const SimtAgg *a, int64_t *size, int64_t *align)
{
    if (t != SIMT_VEC && t != SIMT_STRUCT) {
        *size = *align = scalar_size(t);
        return;
    }
    if (a->vector) { /* CUDA's: x1 and x3 as the lane, x2 twice it, x4 four times (16 at most) */
        int64_t e = scalar_size(a->elem);
        *size = e * a->lanes;
        *align = a->lanes == 2 ? 2 * e : a->lanes == 4 ? (4 * e > 16 ? 16 : 4 * e) : e;
        return;
    }
    int64_t off = 0, al = a->align > 1 ? a->align : 1;
    for (int i = 0; i < a->nfields; i++) {
        const SimtField *f = &a->fields[i];
        int64_t fs, fa;
        simt_layout(f->type, f->agg, &fs, &fa);
        for (int k = 0; k < f->ndims; k++) fs *= f->dims[k];
        off = (off + fa - 1) / fa * fa + fs;
        if (fa > al) al = fa;
    }
    *size = (off + al - 1) / al * al;
    *align = al;
}
