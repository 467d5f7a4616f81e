/* array_matmul.c: array kernels with a matrix product (docs/language.md,
 * "Matrix products in array kernels"), checked and rewritten into the tile
 * kernel a user would write: one (BM, BN) block of the product per program
 * instance, a K loop of tile_load + tile_mma into a float32 (int32 for
 * integers) accumulator, and the statements after the product run on the
 * accumulator before one store of each output.
 *
 * The kernel's statements are element-wise but for one `tile_matmul(X, Y)`.
 * What X and Y read (the product's operands, with any element-wise work on
 * their arrays: a prologue) is loaded and computed in the K loop at (M, K)
 * and (K, N) coordinates; everything else (the epilogue) at the product's
 * (M, N) coordinates after the loop.  An array is read in one of the three
 * places only.  A prologue that does not keep zeros zero (x + 1, exp(x)) is
 * masked past the end of K, so the padding of the last K step adds nothing.
 *
 * Operands that are plain array loads keep the loop in the form the
 * pipelined and Hopper paths recognise (codegen/pipeline.c, hopper.c):
 * cp.async or TMA rings, mma.sync or wgmma.  A computed operand runs the
 * loop as written (registers, then shared memory), which docs/language.md
 * states. */
#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/array_kernel_impl.h"
#include "sema/sema_impl.h"

enum { MM_BM = 128, MM_MAX_TREE = 4096 };

/* Whether e at padding (every array read as 0) is 0 too, so that the zeros
 * tile_load gives past the end of K add nothing to the product.  False
 * when not known (then the operand is masked). */
static bool keeps_zero(Ak *a, const Expr *e, int depth)
{
    if (!e || depth > 48) return false;
    switch (e->kind) {
    case EX_INT: return e->ival == 0;
    case EX_FLOAT: return e->fval == 0;
    case EX_NAME: {
        int pi = ak_param_index(a->f, e->name);
        return pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY;
    }
    case EX_CAST: return keeps_zero(a, e->a, depth + 1);
    case EX_UNARY: return (e->op == UOP_NEG || e->op == UOP_PLUS) && keeps_zero(a, e->a, depth + 1);
    case EX_BINARY:
        switch (e->op) {
        case BOP_MUL: return keeps_zero(a, e->a, depth + 1) || keeps_zero(a, e->b, depth + 1);
        case BOP_DIV: return keeps_zero(a, e->a, depth + 1);
        case BOP_ADD: case BOP_SUB: return keeps_zero(a, e->a, depth + 1) && keeps_zero(a, e->b, depth + 1);
        default: return false;
        }
    case EX_BUILTIN:
        switch (e->bi) {
        case BI_CAST: case BI_SIN: case BI_TANH: case BI_ABS: case BI_SQRT: case BI_FLOOR: case BI_CEIL:
            return e->nargs && keeps_zero(a, e->args[0], depth + 1);
        case BI_MINIMUM: case BI_MAXIMUM:
            return e->nargs == 2 && keeps_zero(a, e->args[0], depth + 1) && keeps_zero(a, e->args[1], depth + 1);
        case BI_WHERE:
            return e->nargs == 3 && keeps_zero(a, e->args[1], depth + 1) && keeps_zero(a, e->args[2], depth + 1);
        default: return false;
        }
    default: return false;
    }
}

void ak_find_matmuls(const Expr *e, const Expr **found, int *n)
{
    if (!e) return;
    if (e->kind == EX_BUILTIN && e->bi == BI_MATMUL) {
        if (*n < 2) found[*n] = e;
        (*n)++;
    }
    ak_find_matmuls(e->a, found, n);
    ak_find_matmuls(e->b, found, n);
    ak_find_matmuls(e->c, found, n);
    for (int i = 0; i < e->nargs; i++) ak_find_matmuls(e->args[i], found, n);
    for (int i = 0; i < e->nopts; i++) ak_find_matmuls(e->opts[i].value, found, n);
}

/* A copy of tree e with node `from` (as written) replaced by `to`. */
static Expr *replace(Ak *a, const Expr *e, const Expr *from, Expr *to)
{
    if (!e) return NULL;
    if (e == from) return to;
    Expr *n = arena_alloc(a->ar, sizeof *n);
    *n = *e;
    n->a = replace(a, e->a, from, to);
    n->b = replace(a, e->b, from, to);
    n->c = replace(a, e->c, from, to);
    if (e->nargs) {
        n->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++) n->args[i] = replace(a, e->args[i], from, to);
    }
    if (e->nopts) {
        n->opts = arena_alloc(a->ar, sizeof(Option) * (size_t)e->nopts);
        for (int i = 0; i < e->nopts; i++) {
            n->opts[i] = e->opts[i];
            n->opts[i].value = replace(a, e->opts[i].value, from, to);
        }
    }
    return n;
}

/* The arrays operand e reads: set in seen[], with a rank-2 one in *ref
 * (-1 if none); false after an error. */
static bool operand_arrays(Ak *a, const Expr *e, bool *seen, int *ref, const char *which, SrcLoc loc)
{
    ak_reads_outside_matmul(a, e, seen);
    *ref = -1;
    for (int i = 0; i < a->f->nparams; i++) {
        if (!seen[i]) continue;
        const Param *p = &a->f->params[i];
        if (p->rank > 2) {
            ak_error(a, loc, "the product's %s operand reads '%s' of rank %d; a matrix product's operands are "
                             "matrices (rank 2, or rank 1 broadcast along a matrix)",
                     which, p->name, p->rank);
            return false;
        }
        if (p->rank == 2 && *ref < 0) *ref = i;
    }
    if (*ref < 0) {
        ak_error(a, loc, "the product's %s operand reads no matrix (an array of rank 2)", which);
        return false;
    }
    return true;
}

/* (1 x BK) or (BK x 1) positions along K < K's extent (__ak_kd, read
 * before the loop: inside it the arrays' names are their loaded tiles'):
 * the mask of a prologue that does not keep zeros. */
static Expr *k_mask(Ak *a, Expr *bk, bool row, SrcLoc loc)
{
    Expr *ty = ak_mk(a, EX_TYPE, loc);
    ty->type = (TypeRef){.spelling = "int64_t", .dtype = DT_INT64};
    Expr *ar = ak_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    ak_opt(a, ar, "shape", ak_list(a, &bk, 1, loc));
    Expr *pos = ak_bin(a, BOP_ADD, ak_bin(a, BOP_MUL, ak_name(a, "__ak_k", loc), sem_copy_expr(a->ar, bk)), ar);
    Expr *shp[2] = {row ? ak_int(a, 1, loc) : bk, row ? bk : ak_int(a, 1, loc)};
    Expr *rs = ak_call(a, BI_RESHAPE, loc, 1, pos, NULL, NULL);
    ak_opt(a, rs, "shape", ak_list(a, shp, 2, loc));
    return ak_bin(a, BOP_LT, rs, ak_name(a, "__ak_kd", loc));
}

/* The operand as computed in the loop: a copy (temporaries expanded), masked
 * along K unless it keeps zeros. */
static Expr *operand(Ak *a, const Expr *e, Expr *bk, bool first)
{
    Expr *v = sem_copy_expr(a->ar, e);
    if (keeps_zero(a, e, 0)) return v;
    Expr *m = k_mask(a, bk, first, e->loc);
    return ak_call(a, BI_WHERE, e->loc, 3, m, v, ak_int(a, 0, e->loc));
}

bool ak_lower_matmul(Ak *a, Stmt *body)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    /* the product as written (the first two, for the error) */
    const Expr *found[2] = {NULL, NULL};
    int total = 0;
    for (int s = 0; s < body->nitems; s++) {
        const Stmt *st = body->items[s];
        ak_find_matmuls(st->kind == ST_DECL ? st->init : st->value, found, &total);
    }
    const Expr *mm = found[0];
    if (total > 1) {
        if (a->quiet) ak_error(a, found[1]->loc, "one kernel computes one matrix product; this is a second");
        else {
            diag_error(found[1]->loc, "an array kernel computes one matrix product; this is a second");
            diag_note(mm->loc, "the first");
            a->ok = false;
        }
        return false;
    }
    if (mm->nargs != 2 || mm->nopts) {
        ak_error(a, mm->loc, "tile_matmul takes two operands and no options");
        return false;
    }
    Expr *msub = ak_substitute(a, (Expr *)mm);
    const Expr *X = msub->args[0], *Y = msub->args[1];
    if (ak_tree_size(X, MM_MAX_TREE) >= MM_MAX_TREE || ak_tree_size(Y, MM_MAX_TREE) >= MM_MAX_TREE) {
        ak_error(a, mm->loc, "the product's operands are too large an expression (over %d operations)", MM_MAX_TREE);
        return false;
    }
    bool inA[64] = {0}, inB[64] = {0}, inE[64] = {0};
    int refA, refB;
    if (!operand_arrays(a, X, inA, &refA, "first", X->loc) || !operand_arrays(a, Y, inB, &refB, "second", Y->loc))
        return false;
    for (int k = 0; k < a->nassigned; k++) ak_reads_outside_matmul(a, a->final_value[a->assigned_order[k]], inE);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        const char *r1 = inA[i] ? "the product's first operand" : inB[i] ? "the product's second operand" : NULL;
        const char *r2 = inA[i] && inB[i] ? "its second" : (inA[i] || inB[i]) && inE[i] ? "after the product" : NULL;
        if (r1 && r2) {
            ak_error(a, p->loc, "'%s' is read in %s and %s; a kernel with a matrix product reads each array in one "
                                "place: an operand's, or the product's coordinates",
                     p->name, r1, r2);
            return false;
        }
        if (a->assigned[i] && (inA[i] || inB[i])) {
            ak_error(a, p->loc, "output '%s' is also read in the product's operand", p->name);
            return false;
        }
        if (a->assigned[i] && p->rank != 2) {
            ak_error(a, p->loc, "output '%s' has rank %d; a kernel with a matrix product writes arrays of the "
                                "product's shape (M, N)",
                     p->name, p->rank);
            return false;
        }
        if (inE[i] && p->rank > 2) {
            ak_error(a, p->loc, "input '%s' has rank %d, more than the product's 2", p->name, p->rank);
            return false;
        }
    }
    if (a->quiet) return true;

    /* roles, for the launcher's broadcasting */
    f->ak_space_rank = 2;
    f->ak_axis = -1;
    f->ak_matmul = true;
    for (int i = 0; i < f->nparams; i++) {
        Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        p->ak_role = a->assigned[i] ? AK_OUT : inA[i] ? AK_IN_A : inB[i] ? AK_IN_B : inE[i] || a->used_out[i] ? AK_IN
                                                                                                       : AK_NONE;
    }
    int ref = a->assigned_order[0];
    f->params[ref].ak_role = AK_OUT_REF;

    /* the tiles: BM x BN (TILEC_BLOCK, picked from N), K steps of 128 bytes */
    int esize = 1;
    bool ints = true;
    for (int i = 0; i < f->nparams; i++) {
        if (!inA[i] && !inB[i]) continue;
        int sz = dtype_bits(f->params[i].type.dtype) / 8;
        if (sz > esize) esize = sz;
        ints &= !dtype_is_float(f->params[i].type.dtype);
    }
    int bk = esize >= 8 ? 16 : 128 / esize;
    /* plain operands: the pipelined path's 128 x 256 blocks (128 x 64 and
     * 128 x 128 for narrow products).  Smaller blocks where more than the
     * accumulator is live in registers (else they spill): a computed
     * operand's loop holds its operands in registers, and an epilogue input
     * of the product's shape (a residual, the output read) is a second
     * tile as large as the accumulator. */
    bool plain = X->kind == EX_NAME && Y->kind == EX_NAME, full_in = false;
    for (int i = 0; i < f->nparams; i++)
        if ((inE[i] || a->read_first[i]) && f->params[i].kind == PARAM_ARRAY && f->params[i].rank == 2) full_in = true;
    static const int64_t v[] = {256, 64, 128}, vs[] = {128, 64};
    if (plain && !full_in) ak_add_tunable(a, v, 3, ref, 1);
    else ak_add_tunable(a, vs, 2, ref, 1);
    int bm = MM_BM >> (!plain + full_in);
    Expr *BM = ak_int(a, bm, loc), *BN = ak_name(a, "TILEC_BLOCK", loc), *BK = ak_int(a, bk, loc);
    Tile ta = {.rank = 2, .ext = {BM, BK}}, tb = {.rank = 2, .ext = {BK, BN}}, te = {.rank = 2, .ext = {BM, BN}};
    Expr *ia[2] = {ak_bid(a, 0), ak_name(a, "__ak_k", loc)}, *ib[2] = {ak_name(a, "__ak_k", loc), ak_bid(a, 1)},
         *ie[2] = {ak_bid(a, 0), ak_bid(a, 1)};
    TypeRef acct = ints ? (TypeRef){.spelling = "int32_t", .dtype = DT_INT32}
                        : (TypeRef){.spelling = "float", .dtype = DT_FLOAT32};

    StmtBuf b = {0};
    Expr *ty = ak_mk(a, EX_TYPE, loc);
    ty->type = acct;
    Expr *z = ak_call(a, BI_ZEROS, mm->loc, 1, ty, NULL, NULL);
    ak_opt(a, z, "shape", ak_list(a, te.ext, 2, loc));
    ak_push(a, &b, ak_decl(a, "__ak_acc", acct, z, mm->loc));
    /* int64_t __ak_kd = tile_dim(refA, 1), __ak_nk = (__ak_kd + BK - 1) / BK; */
    Expr *kd = ak_call(a, BI_DIM, loc, 2, ak_name(a, f->params[refA].name, loc), ak_int(a, 1, loc), NULL);
    ak_push(a, &b, ak_decl(a, "__ak_kd", ak_int64, kd, loc));
    Expr *nk = ak_bin(a, BOP_DIV, ak_bin(a, BOP_ADD, ak_name(a, "__ak_kd", loc), ak_int(a, bk - 1, loc)),
                      ak_int(a, bk, loc));
    ak_push(a, &b, ak_decl(a, "__ak_nk", ak_int64, nk, loc));
    /* the K loop: the operands' arrays loaded under their own names, then the update */
    StmtBuf lb = {0};
    for (int pass = 0; pass < 2; pass++) {
        const bool *use = pass ? inB : inA;
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (!use[i]) continue;
            Expr *ld = ak_access(a, BI_LOAD, p, NULL, pass ? ib : ia, pass ? &tb : &ta, p->loc);
            ak_opt(a, ld, "padding", ak_int(a, 1, p->loc)); /* TILE_PAD_ZERO */
            TypeRef t = p->type;
            t.is_const = false;
            ak_push(a, &lb, ak_decl(a, p->name, t, ld, p->loc));
        }
    }
    Expr *upd = ak_call(a, BI_MMA, mm->loc, 3, operand(a, X, BK, true), operand(a, Y, BK, false),
                        ak_name(a, "__ak_acc", mm->loc));
    upd->name = mm->name; /* diagnostics name the user's tile_matmul */
    ak_push(a, &lb, ak_assign(a, "__ak_acc", upd, mm->loc));
    Stmt *loop = ak_stmt(a, ST_FOR, loc);
    StmtBuf init = {0};
    ak_push(a, &init, ak_decl(a, "__ak_k", ak_int64, ak_int(a, 0, loc), loc));
    loop->init_s = ak_block(a, &init, loc);
    loop->cond = ak_bin(a, BOP_LT, ak_name(a, "__ak_k", loc), ak_name(a, "__ak_nk", loc));
    loop->step_s = ak_assign(a, "__ak_k", ak_int(a, 1, loc), loc);
    loop->step_s->op = BOP_ADD;
    loop->body = ak_block(a, &lb, loc);
    ak_push(a, &b, loop);

    /* the epilogue: the product's coordinates */
    bool useE[64] = {0};
    for (int i = 0; i < f->nparams; i++)
        useE[i] = f->params[i].kind == PARAM_ARRAY && (a->read_first[i] || (inE[i] && !a->assigned[i]));
    ak_load_all(a, &b, useE, ie, &te);
    bool declared[64];
    memcpy(declared, useE, sizeof declared);
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        Expr *val = st->kind == ST_DECL ? st->init : st->value;
        const Expr *found1[2] = {NULL, NULL};
        int nmm = 0;
        ak_find_matmuls(val, found1, &nmm);
        bool has_mm = nmm > 0;
        if (st->kind == ST_DECL && !has_mm) {
            /* a prologue's temporary (its value is in the operand) stays out */
            bool r[64] = {0};
            AkTmp *t = ak_find_tmp(a, st->name);
            ak_reads_outside_matmul(a, t && t->init ? t->init : st->init, r);
            bool operand_only = false;
            for (int i = 0; i < f->nparams; i++) operand_only |= r[i] && (inA[i] || inB[i]);
            if (operand_only) continue;
        }
        if (has_mm) {
            Stmt *c = sem_copy_stmt(a->ar, st);
            Expr *nv = replace(a, val, mm, ak_name(a, "__ak_acc", mm->loc));
            if (st->kind == ST_DECL) c->init = nv;
            else c->value = nv;
            st = c;
        }
        int pi = st->kind == ST_ASSIGN ? ak_param_index(f, st->target->name) : -1;
        if (pi < 0 || declared[pi]) {
            ak_push(a, &b, st);
            continue;
        }
        const Param *p = &f->params[pi];
        TypeRef t = p->type;
        t.is_const = false;
        Expr *value = st->value;
        if (ak_rank_of(a, val) < 2) {
            Expr *bc = ak_call(a, BI_BROADCAST_TO, value->loc, 1, value, NULL, NULL);
            ak_opt(a, bc, "shape", ak_list(a, te.ext, 2, value->loc));
            value = bc;
        }
        ak_push(a, &b, ak_decl(a, p->name, t, value, st->target->loc));
        declared[pi] = true;
    }
    ak_store_outputs(a, &b, ie, &te);
    f->body = ak_block(a, &b, body->loc);
    return true;
}
