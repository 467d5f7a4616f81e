/* tuples.c: struct types as tuples of tiles (docs/language.md, "Tuples"):
 * sema's rewriting of struct variables into one variable per field, so that
 * nothing after sema sees a struct. */
#include "sema/sema_impl.h"

#include <string.h>

#include "frontend/diag.h"

/* ---- tuples: struct variables ----------------------------------------------
 * A struct type whose fields have element types is a tuple of tiles.  A
 * struct variable r is its fields' variables "r.x", "r.y" (which `r.x` in
 * the source names), so after this pass nothing but ordinary variables is
 * left: `T r = v;` becomes a block of one declaration per field, `r = v;` a
 * block of assignments (through temporaries, so that `r = (T){r.y, r.x}`
 * swaps), where v is a literal (T){...}, another T variable, or a call of a
 * tile function returning T.  Such a call is inlined as a void call whose
 * final `return v;` became the declaration of the struct variable "return",
 * and the caller's fields take that variable's fields. */

static Expr *bound_name(Sema *s, Symbol *sym, SrcLoc loc)
{
    Expr *e = arena_alloc(s->prog->arena, sizeof *e);
    e->kind = EX_NAME;
    e->loc = loc;
    e->name = sym->name;
    e->sym = sym;
    return e;
}

static Stmt *new_stmt_at(Sema *s, StmtKind k, SrcLoc loc)
{
    Stmt *st = arena_alloc(s->prog->arena, sizeof *st);
    st->kind = k;
    st->loc = loc;
    return st;
}

/* The field values of v, a T, into vals (and a call's statement into *call);
 * false after an error. */
static bool struct_values(Sema *s, const StructType *T, Expr *v, Expr **vals, Stmt **call)
{
    *call = NULL;
    if (v->kind == EX_STRUCT && v->type.stype == T) {
        for (int i = 0; i < T->nfields; i++) vals[i] = v->args[i];
        return true;
    }
    if (v->kind == EX_NAME) {
        Symbol *q = sem_lookup(s, v->name);
        if (q && q->stype == T) {
            for (int i = 0; i < T->nfields; i++) {
                vals[i] = arena_alloc(s->prog->arena, sizeof *vals[i]);
                vals[i]->kind = EX_NAME;
                vals[i]->loc = v->loc;
                vals[i]->name = arena_printf(s->prog->arena, "%s.%s", v->name, T->fields[i]);
            }
            return true;
        }
    }
    if (v->kind == EX_CALL) {
        Func *f = ast_find_func(s->prog, v->name);
        if (f && f->ret.stype == T) {
            if (!sem_type_expr(s, v)) return false;
            *call = new_stmt_at(s, ST_EXPR, v->loc);
            (*call)->value = v;
            for (int i = 0; i < T->nfields; i++) vals[i] = bound_name(s, v->inl->fields[i], v->loc);
            return true;
        }
    }
    diag_error_fix(v->loc, "give it a (T){...} literal, another variable of the type, or a call of a tile function returning it",
                   "a %s takes a value of its own struct type", T->name);
    return false;
}

/* `T r = v;` (declare) or `r = v;`: st becomes the block that does it.
 * fields, when not NULL, receives the fields' symbols. */
/* After an error in `T r = v;`: r and its fields exist, without a value,
 * so that their uses are not errors of their own. */
static void declare_silent(Sema *s, const StructType *T, const char *var, SrcLoc var_loc)
{
    Symbol *v = sem_declare(s, var, var_loc);
    v->dtype = DT_INVALID;
    v->stype = T;
    for (int i = 0; i < T->nfields; i++)
        sem_declare(s, arena_printf(s->prog->arena, "%s.%s", var, T->fields[i]), var_loc)->dtype = DT_INVALID;
}

bool sem_struct_bind(Sema *s, Stmt *st, const StructType *T, const char *var, SrcLoc var_loc, Expr *v, bool declare,
                        Symbol **fields)
{
    if (T->bad) {
        if (declare) declare_silent(s, T, var, var_loc);
        if (*T->bad_field)
            diag_error_fix(var_loc, "give every field an element type (float, int32_t, __bf16 ...): a field holds a tile",
                           "field '%s' of %s is not of a Tile C element type, so %s cannot hold tiles", T->bad_field,
                           T->name, T->name);
        else
            diag_error(var_loc, "%s has no fields", T->name);
        return false;
    }
    Arena *a = s->prog->arena;
    Expr **vals = arena_alloc(a, sizeof *vals * (size_t)T->nfields);
    Stmt *call;
    if (!struct_values(s, T, v, vals, &call)) {
        if (declare) declare_silent(s, T, var, var_loc);
        return false;
    }
    int n = T->nfields, k = 0;
    Stmt **items = arena_alloc(a, sizeof *items * (size_t)(3 * n + 1));
    if (call) items[k++] = call;
    bool ok = true;
    if (declare) {
        Symbol *var_sym = sem_declare(s, var, var_loc);
        var_sym->kind = SYM_VAR;
        var_sym->dtype = DT_INVALID;
        var_sym->stype = T;
        for (int i = 0; i < n; i++) {
            Stmt *d = new_stmt_at(s, ST_DECL, st->loc);
            d->name = arena_printf(a, "%s.%s", var, T->fields[i]);
            d->name_loc = var_loc;
            d->type = T->types[i];
            d->init = vals[i];
            d->assigned = true; /* fields are never constants: r.x may be assigned later */
            if (!sem_check_decl(s, d)) ok = false;
            if (fields) fields[i] = d->sym;
            items[k++] = d;
        }
    } else {
        /* every value first, then the fields: `r = (T){r.y, r.x}` swaps */
        Symbol **tmp = arena_alloc(a, sizeof *tmp * (size_t)n);
        for (int i = 0; i < n && ok; i++) {
            Stmt *d = new_stmt_at(s, ST_DECL, st->loc);
            d->name = arena_printf(a, "%s.%s'", var, T->fields[i]);
            d->name_loc = var_loc;
            d->type = T->types[i];
            d->init = vals[i];
            d->assigned = true;
            if (!sem_check_decl(s, d)) ok = false;
            tmp[i] = d->sym;
            items[k++] = d;
        }
        for (int i = 0; i < n && ok; i++) {
            Stmt *as = new_stmt_at(s, ST_ASSIGN, st->loc);
            as->target = arena_alloc(a, sizeof *as->target);
            as->target->kind = EX_NAME;
            as->target->loc = var_loc;
            as->target->name = arena_printf(a, "%s.%s", var, T->fields[i]);
            as->op = -1;
            as->value = bound_name(s, tmp[i], st->loc);
            if (!sem_check_assign(s, as)) ok = false;
            items[k++] = as;
        }
    }
    st->kind = ST_BLOCK;
    st->items = items;
    st->nitems = k;
    return ok;
}
