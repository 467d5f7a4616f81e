/* pipeline.c: recognises the K loops of tensor-core matrix products whose
 * operand tiles can go straight from global to shared memory, several
 * iterations ahead of their use, and emits them as a software pipeline of
 * asynchronous copies (pipeline_emit_for).
 *
 * The general lowering of `acc = tile_mma(x, y, acc)` loads x and y into
 * registers, then stages them through shared memory for the tensor cores:
 * every load is waited for before the products start, so the tensor cores
 * idle for a full memory latency per K step.  When the loop body is nothing
 * but the operand loads and the update, the registers are never needed and
 * the loads of step k + s can be in flight while step k computes.  We accept
 * exactly that shape and nothing else, so the transformation cannot change
 * what a program means:
 *
 *     for (init; k < hi; k += 1) {          (k++ is k += 1)
 *         T x = tile_load(A, .index = {.., ..}, .shape = {M, K}, ...);
 *         T y = tile_load(B, .index = {.., ..}, .shape = {K, N}, ...);
 *         acc = tile_mma(x, y, acc);
 *     }
 *
 * with the loads possibly written inside the tile_mma call, in any order;
 * T float16 or bfloat16 (16-bit elements: 8 per 16-byte copy; float8, tf32
 * and int8 are accepted for hopper.c's variant only, which reads them with
 * TMA); rank-2 arrays, the default .order, zero padding (or the default,
 * which reads 0); indices and bound that are scalar expressions without
 * loads or calls (so evaluating them early, once per K step, is the same as
 * evaluating them in the body); M, N and K multiples of 16; a float32
 * accumulator (int32 for int8).  Whether acc
 * lives in tensor-core fragments is the emitter's decision. */
#include "codegen/lower.h"

/* A scalar expression that can be evaluated anywhere in the loop: names,
 * literals, operators, casts, tile_bid, tile_num_blocks and tile_dim. */
static bool simple_scalar(const Expr *e)
{
    if (!e) return true;
    if (e->shape.rank != 0) return false;
    switch (e->kind) {
    case EX_INT:
    case EX_FLOAT:
    case EX_NAME:
        return true;
    case EX_UNARY:
        if (e->op != UOP_NEG && e->op != UOP_PLUS && e->op != UOP_NOT && e->op != UOP_BITNOT) return false;
        return simple_scalar(e->a);
    case EX_BINARY:
    case EX_COND:
    case EX_CAST:
        return simple_scalar(e->a) && simple_scalar(e->b) && simple_scalar(e->c);
    case EX_BUILTIN:
        if (builtin_info(e->bi)->cls == BCLASS_QUERY) return true; /* bid, num_blocks, dim */
        return false;
    default:
        return false;
    }
}

/* The .index of load e when its options are all ones a pipeline takes (and
 * its indices simple scalars, one per axis), else NULL: .shape, .latency,
 * a constant .padding (with zero_pad, TILE_PAD_UNDETERMINED or
 * TILE_PAD_ZERO only), and .order where order_ok. */
static const Expr *load_index(const Expr *e, bool zero_pad, bool order_ok)
{
    const Expr *index = NULL;
    for (int i = 0; i < e->nopts; i++) {
        const Option *o = &e->opts[i];
        if (!strcmp(o->name, "index")) index = o->value;
        else if (!strcmp(o->name, "padding")) {
            if (!o->value->is_const || (zero_pad && o->value->cval.i != 0 && o->value->cval.i != 1)) return NULL;
        } else if (!(order_ok && !strcmp(o->name, "order")) && strcmp(o->name, "shape") && strcmp(o->name, "latency")) {
            return NULL; /* anything a later version adds */
        }
    }
    if (!index || index->kind != EX_LIST || index->nargs != e->shape.rank) return NULL;
    for (int k = 0; k < index->nargs; k++)
        if (!simple_scalar(index->args[k])) return NULL;
    return index;
}

/* An operand load we can copy asynchronously: rows x cols of 16-bit
 * elements from a rank-2 array parameter, identity order, zero padding. */
static bool async_load(const Expr *e, int64_t rows, int64_t cols, Dtype dt)
{
    if (!e || e->kind != EX_BUILTIN || e->bi != BI_LOAD) return false;
    const Expr *arr = e->args[0];
    if (arr->kind != EX_NAME || !arr->sym || arr->sym->kind != SYM_PARAM || arr->sym->param->rank != 2) return false;
    if (e->dtype != dt || e->shape.rank != 2 || e->shape.dim[0] != rows || e->shape.dim[1] != cols) return false;
    return load_index(e, true, false) != NULL;
}

/* An operand read through a view: a tile_load of a view, of 16-bit
 * elements, possibly reshaped to the operand's rows x cols (a reshape keeps
 * the row-major order, so operand element (r, c) is the load's element r *
 * cols + c); any constant padding and .order.  The load, or NULL.  Whether
 * its footprint can be a box in the stages is pipeline_find's question
 * (view_pipe_box). */
static Expr *view_operand(const Expr *e, int64_t rows, int64_t cols, Dtype dt)
{
    if (!e || e->kind != EX_BUILTIN || e->dtype != dt || e->shape.rank != 2 || e->shape.dim[0] != rows ||
        e->shape.dim[1] != cols || (dt != DT_FLOAT16 && dt != DT_BFLOAT16))
        return NULL;
    if (e->bi == BI_RESHAPE) e = e->args[0];
    if (!e || e->kind != EX_BUILTIN || e->bi != BI_LOAD || !view_arg(e) || e->dtype != dt ||
        shape_numel(&e->shape) != rows * cols || !load_index(e, false, true))
        return NULL;
    return (Expr *)e;
}

/* Operand i of the update: a load written in place, or a variable declared
 * by one of the body's other statements with a load. */
static const Expr *operand_load(const Stmt *body, const Expr *arg, const Stmt **decl)
{
    *decl = NULL;
    if (arg->kind == EX_BUILTIN) return arg;
    if (arg->kind != EX_NAME || !arg->sym) return NULL;
    for (int i = 0; i + 1 < body->nitems; i++) {
        const Stmt *d = body->items[i];
        if (d->kind == ST_DECL && d->sym == arg->sym) {
            if (d->assigned || !d->init || d->sym->dtype != d->init->dtype) return NULL;
            *decl = d;
            return d->init;
        }
    }
    return NULL;
}

bool pipeline_match(const Stmt *st, PipeLoop *pl)
{
    memset(pl, 0, sizeof *pl);
    if (st->kind != ST_FOR || !st->cond || !st->step_s || !st->body) return false;

    /* k += 1 */
    const Stmt *step = st->step_s;
    if (step->kind == ST_BLOCK) {
        if (step->nitems != 1) return false;
        step = step->items[0];
    }
    if (step->kind != ST_ASSIGN) return false;
    const Symbol *k = step->target->sym;
    const Expr *inc = step->value; /* k = k + 1, as sema desugars k += 1 */
    if (inc->kind != EX_BINARY || inc->op != BOP_ADD || inc->a->kind != EX_NAME || inc->a->sym != k ||
        inc->b->kind != EX_INT || inc->b->ival != 1)
        return false;
    if (!k || k->kind != SYM_VAR || k->shape.rank != 0 || !dtype_is_int(k->dtype) || !dtype_is_signed(k->dtype))
        return false;

    /* k < hi, hi not depending on k */
    const Expr *c = st->cond;
    if (c->kind != EX_BINARY || c->op != BOP_LT || c->a->kind != EX_NAME || c->a->sym != k) return false;
    if (!simple_scalar(c->b) || ast_reads(c->b, k, NULL)) return false;
    /* signed (or a literal), so that the trip count is exact in int64 */
    if (!c->b->is_const && (!dtype_is_int(c->b->dtype) || !dtype_is_signed(c->b->dtype))) return false;

    /* the body: declarations of the operands, then the update */
    const Stmt *body = st->body;
    Stmt *only[1] = {st->body};
    Stmt single = {.kind = ST_BLOCK, .items = only, .nitems = 1}; /* a body without braces */
    if (body->kind != ST_BLOCK) body = &single;
    if (body->nitems < 1 || body->nitems > 3) return false;
    const Stmt *up = body->items[body->nitems - 1];
    if (up->kind != ST_ASSIGN || up->op >= 0 || up->value->kind != EX_BUILTIN || up->value->bi != BI_MMA)
        return false;
    const Expr *m = up->value;
    if (m->nargs != 3 || m->args[2]->kind != EX_NAME || m->args[2]->sym != up->target->sym) return false;
    const Symbol *acc = up->target->sym;
    Dtype dt = m->args[0]->dtype;
    if (acc->dtype != (dt == DT_INT8 ? DT_INT32 : DT_FLOAT32) || acc->shape.rank != 2) return false;
    /* float8, tf32 and int8: the Hopper variant's only (hopper.c) */
    bool kmajor = dt == DT_FLOAT8_E4M3FN || dt == DT_FLOAT8_E5M2 || dt == DT_TFLOAT32 || dt == DT_INT8;
    if ((dt != DT_FLOAT16 && dt != DT_BFLOAT16 && !kmajor) || m->args[1]->dtype != dt) return false;
    int64_t M = acc->shape.dim[0], N = acc->shape.dim[1], K = m->args[0]->shape.dim[1];
    if (M % 16 || N % 16 || K % 16 || m->args[0]->shape.dim[0] != M || m->args[1]->shape.dim[0] != K ||
        m->args[1]->shape.dim[1] != N)
        return false;

    const Stmt *decl[2];
    for (int i = 0; i < 2; i++) {
        const Expr *l = operand_load(body, m->args[i], &decl[i]);
        pl->opnd[i] = (Expr *)l;
        if (async_load(l, i ? K : M, i ? N : K, dt)) {
            pl->load[i] = (Expr *)l;
            continue;
        }
        pl->load[i] = view_operand(l, i ? K : M, i ? N : K, dt);
        if (!pl->load[i]) return false;
        pl->boxed[i] = true;
    }
    /* every other statement is the declaration of one operand */
    int ndecl = (decl[0] != NULL) + (decl[1] != NULL);
    if (decl[0] && decl[0] == decl[1]) return false;
    if (ndecl != body->nitems - 1) return false;
    /* the loop variable and the bound stay fixed while the body runs; the
     * body assigns nothing but its own declarations and acc */
    if (acc == k || ast_reads(c->b, acc, NULL)) return false;
    for (int i = 0; i < 2; i++)
        if (decl[i] && ast_reads(c->b, decl[i]->sym, NULL)) return false;

    pl->loop = st;
    pl->k = (Symbol *)k;
    pl->hi = c->b;
    pl->update = (Stmt *)up;
    pl->acc = (Symbol *)acc;
    pl->M = M;
    pl->N = N;
    pl->K = K;
    pl->dtype = dt;
    return true;
}

/* Shared memory one block may have on sm_XX (opt-in limit). */
int pipeline_smem_limit(int arch)
{
    switch (arch) {
    case 0: case 80: case 87: return 163 * 1024;
    case 86: case 89: case 120: case 121: return 99 * 1024;
    case 90: case 100: case 101: case 103: return 227 * 1024;
    default: return arch < 80 ? 64 * 1024 : 99 * 1024;
    }
}

/* The shared memory a block may have on every architecture of co's list. */
int pipeline_smem_limit_of(const CodegenOptions *co)
{
    if (co->narchs == 0) return pipeline_smem_limit(co->arch);
    int lim = INT32_MAX;
    for (int i = 0; i < co->narchs; i++)
        if (pipeline_smem_limit(co->archs[i]) < lim) lim = pipeline_smem_limit(co->archs[i]);
    return lim;
}

/* ---- pipelined K loops ---------------------------------------------------
 * For a loop pipeline.c accepts, the operand tiles of K step j are copied
 * global -> shared memory (cp.async when ALIGNED, zero-filled past the
 * array's edges) into stage j % S of a ring of S buffers, S - 1 steps ahead
 * of the products that read them.  One barrier per step both publishes
 * stage j to every warp and retires mma_stage (j - 1) % S, which the copies
 * issued right after it overwrite.  The accumulator stays in fragments. */

/* A stage holds the A operand (M x K) then the B operand (K x N), 16-bit
 * elements in tilec_swz's layout (tilec_ops.h): rows unpadded, each row's
 * 16-byte runs permuted by an XOR so that neither the ldmatrix reads (eight
 * rows at one column) nor the cp.async writes (eight consecutive runs of a
 * 128-byte line) collide on a bank.  Tile dimensions are powers of two and
 * tile_mma's K and N at least 16, so every operand row has 2^k runs, which
 * tilec_swz takes.  The layout it replaced, rows padded by 16 bytes, kept
 * ldmatrix conflict-free but not the copies: measured on the H100 (ncu),
 * they took 2.6-3.75 times their ideal shared-memory wavefronts, over half
 * of the K loop's, and 4096^3 bf16 went from 309 to 353 TFLOP/s. */
static int64_t pipe_operand_elems(const PipeLoop *pl, int i)
{
    return i ? pl->K * pl->N : pl->M * pl->K;
}

/* Operand i's part of a stage: the operand, or its view's box (and 16
 * bytes that a gather's shifted 16-byte loads may read past its end,
 * rounded to 128 bytes, so that the next part starts as aligned as the
 * stage). */
static int64_t pipe_region(const PipeLoop *pl, int i)
{
    return pl->boxed[i] ? (pl->box[i] + 8 + 63) / 64 * 64 : pipe_operand_elems(pl, i);
}

static int64_t pipe_stage_elems(const PipeLoop *pl)
{
    return pipe_region(pl, 0) + pipe_region(pl, 1);
}

/* The buffers, after the stages, that the operands read through views are
 * gathered into before the products. */
static int64_t pipe_gather_elems(const PipeLoop *pl)
{
    return (pl->boxed[0] ? pipe_operand_elems(pl, 0) : 0) + (pl->boxed[1] ? pipe_operand_elems(pl, 1) : 0);
}

/* The shared memory after the stages: the gather buffers, and where the
 * products run on wgmma (pipe_wg_loop) a second set, so that one step's
 * gathers overlap the previous step's products, and 1024 bytes to align
 * them for wgmma's swizzle atoms. */
static int64_t pipe_after_stages(const PipeLoop *pl)
{
    return pl->wg_n ? 2 * pipe_gather_elems(pl) + 512 : pipe_gather_elems(pl);
}

/* Blocks per SM that the registers allow: the fragment accumulator (M N / T
 * floats per thread) plus about 64 registers of operand fragments and
 * addresses, out of 64 K registers per SM.  --min-blocks=N asks nvcc to fit
 * N blocks (capping registers), so the stages must leave room for N too. */
static int64_t pipe_blocks_per_sm(const Emitter *em, const PipeLoop *pl)
{
    int64_t regs = pl->M * pl->N / em->T + 64;
    int64_t blocks = 65536 / (regs * em->T);
    if (blocks < em->co->min_blocks) blocks = em->co->min_blocks;
    return blocks < 1 ? 1 : blocks;
}

/* As many stages as fit, up to four, in the shared memory one block may
 * have when that many blocks share an SM.  A block whose accumulator keeps
 * it alone on its SM (128 x 256 on 256 threads) gets the whole opt-in
 * limit; deeper rings hide more of the global-memory latency behind the
 * products.  Up to eight for loops with view operands: their steps are
 * small (a convolution's K is a few hundred) and their products few, so
 * the loads of a whole tile should be in flight at once. */
static int pipe_stages(const Emitter *em, const PipeLoop *pl)
{
    int64_t b = pipe_stage_elems(pl) * 2;
    int64_t blocks = pipe_blocks_per_sm(em, pl);
    int64_t budget = (pipeline_smem_limit_of(em->co) - 2048) / blocks - pipe_after_stages(pl) * 2;
    for (int s = pl->boxed[0] || pl->boxed[1] ? 8 : 4; s > 2; s--)
        if (s * b <= budget) return s;
    return 2;
}

int64_t pipeline_bytes(const Emitter *em, const PipeLoop *pl)
{
    return (pipe_stages(em, pl) * pipe_stage_elems(pl) + pipe_after_stages(pl)) * 2 + 64;
}

/* The copies of operand load l (rows x cols) into dst (tilec_swz<cols>'s
 * layout): one 16-byte run of 8 elements per thread and repetition.
 * Consecutive threads copy consecutive runs of a row, so eight of them fill
 * one 128-byte line of shared memory and read whole sectors of global
 * memory. */
static void pipe_issue(Emitter *em, Expr *l, const char *dst, int64_t rows, int64_t cols)
{
    const char *arr = S("p_%s", l->args[0]->name);
    Expr *iv = ast_option(l, "index")->value;
    line(em, "{ /* tile_load %s, asynchronously */", l->args[0]->name);
    em->ind++;
    for (int d = 0; d < 2; d++) {
        Expr *x = iv->args[d];
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t o%d_ = (int64_t)(%s) * %" PRId64 ";", d, ex_evc(em, x, c, DT_INT64), d ? cols : rows);
    }
    int64_t runs = rows * cols / 8, per_row = cols / 8, reps = (runs + em->T - 1) / em->T;
    line(em, "const bool full_ = o0_ >= 0 && o0_ + %" PRId64 " <= %s.shape[0] && o1_ >= 0 && o1_ + %" PRId64 " <= %s.shape[1];",
         rows, arr, cols, arr);
    /* Whole tiles (all but the edges) need no bounds arithmetic per run;
     * when the threads cover whole rows, thread t's runs are one column
     * apart by a fixed number of rows, so its addresses step by constants. */
    bool stepping = em->T % per_row == 0;
    for (int whole = 1; whole >= 0; whole--) {
        line(em, whole ? "if (ALIGNED && full_) {" : "} else {");
        em->ind++;
        if (whole && stepping) {
            int64_t rstep = em->T / per_row;
            line(em, "const int row_ = t_ / %" PRId64 ", col_ = (t_ %% %" PRId64 ") * 8;", per_row, per_row);
            line(em, "const uint16_t *g_ = (const uint16_t *)%s.data + (o0_ + row_) * %s.strides[0] + o1_ + col_;", arr, arr);
            line(em, "const int64_t gs_ = %" PRId64 " * %s.strides[0];", rstep, arr);
            if (rstep % 8 == 0) line(em, "const int so_ = tilec_swz<%" PRId64 ">(row_, col_);", cols);
            line(em, "#pragma unroll");
            line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
            em->ind++;
            if (runs % em->T) line(em, "if (r_ * %d + t_ >= %" PRId64 ") break;", em->T, runs);
            if (rstep % 8 == 0) /* s(row) repeats every 8 rows: one swizzle for all runs */
                line(em, "tilec_pipe_copy16(%s + so_ + r_ * %" PRId64 ", g_ + r_ * gs_);", dst, rstep * cols);
            else
                line(em, "tilec_pipe_copy16(%s + tilec_swz<%" PRId64 ">(row_ + r_ * %" PRId64 ", col_), g_ + r_ * gs_);", dst,
                     cols, rstep);
            tv_close_loop(em);
            em->ind--;
            continue;
        }
        if (whole) line(em, "const uint16_t *g_ = (const uint16_t *)%s.data + o0_ * %s.strides[0] + o1_;", arr, arr);
        /* The edge copies (and every copy of the unaligned specialization,
         * which reads element by element with bounds checks) stay a loop:
         * unrolled, their addresses and checks competed with the
         * accumulators for registers, and ptxas spilled the accumulators
         * of the large tiles.  They run on the edges only, or on arrays
         * that cannot take vector copies at all. */
        line(em, whole ? "#pragma unroll" : "#pragma unroll 1");
        line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
        em->ind++;
        line(em, "const int c_ = r_ * %d + t_;", em->T);
        if (runs % em->T) line(em, "if (c_ >= %" PRId64 ") break;", runs);
        line(em, "const int row_ = c_ / %" PRId64 ", col_ = (c_ %% %" PRId64 ") * 8;", per_row, per_row);
        const char *d = S("tilec_swz<%" PRId64 ">(row_, col_)", cols);
        if (whole)
            line(em, "tilec_pipe_copy16(%s + %s, g_ + row_ * %s.strides[0] + col_);", dst, d, arr);
        else
            line(em, "tilec_pipe_copy8<ALIGNED>(%s + %s, (const uint16_t *)%s.data, o0_ + row_, "
                     "o1_ + col_, %s.shape[0], %s.shape[1], %s.strides[0], %s.strides[1]);",
                 dst, d, arr, arr, arr, arr, arr);
        tv_close_loop(em);
        em->ind--;
    }
    line(em, "}");
    em->ind--;
    line(em, "}");
}

/* Sets the loop counter to step j's value and issues that step's copies. */
static void pipe_issue_step(Emitter *em, const PipeLoop *pl, const char *j, const char *slot)
{
    line(em, "%s = (%s)(pk0_ + %s);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype), j);
    line(em, "uint16_t *pd_ = ps_ + %s * %" PRId64 ";", slot, pipe_stage_elems(pl));
    for (int i = 0; i < 2; i++) {
        const char *dst = i ? S("(pd_ + %" PRId64 ")", pipe_region(pl, 0)) : "pd_";
        if (pl->boxed[i]) view_box_issue(em, pl->load[i], dst);
        else pipe_issue(em, pl->load[i], dst, i ? pl->K : pl->M, i ? pl->N : pl->K);
    }
}

/* Inside the K loop: issues step ks_ + stages - 1 (if there is one) into
 * the slot before rs_, the one step ks_ - 1 read, and commits the group
 * (empty past the end, so that the waits keep counting steps). */
static void pipe_issue_ahead(Emitter *em, const PipeLoop *pl, int stages)
{
    line(em, "const int64_t kn_ = ks_ + %d;", stages - 1);
    line(em, "if (kn_ < pn_) {");
    em->ind++;
    pipe_issue_step(em, pl, "kn_", S("(rs_ == 0 ? %d : rs_ - 1)", stages - 1));
    tv_close_loop(em);
    line(em, "tilec_pipe_commit();");
}

/* The products of a loop whose operands are both gathered from views, on
 * wgmma in sm_90a builds (pipe_wg_plan): the loop of pipeline_emit_for
 * with the gathers writing wgmma's layouts (A: tilec_swz<K>, which is
 * wgmma's K-major layout with a K * 2-byte swizzle; B: tilec_swz_mn's
 * MN-major chunks) into one of two buffer sets, and each step's products
 * one asynchronous wgmma group per warpgroup on the accumulator's own
 * fragments (tilec_wgmma_frag), left in flight while the block waits for
 * and gathers the next step.  Where ldmatrix read each operand once per
 * warp, wgmma reads A once per warpgroup and B once per warpgroup row: the
 * shared-memory traffic that bounded the mma.sync loop (conv1d: about
 * 256 ldmatrix wavefronts of 556 a step, ncu on the H200). */
static void pipe_wg_loop(Emitter *em, const PipeLoop *pl, int stages)
{
    int64_t ga = pipe_operand_elems(pl, 0), gset = ga + pipe_operand_elems(pl, 1);
    int64_t rb = pl->K * 2; /* bytes of an A row */
    int mode = rb == 128 ? 1 : rb == 64 ? 2 : 3;
    const char *f = S("f%s", tv_sym_name(em, pl->acc));
    /* (the pointer offset from ps_, not rounded through an integer, so that
     * nvcc still knows it is shared memory: the gathers' stores are STS,
     * not generic stores with 64-bit addresses) */
    line(em, "uint16_t *const pg_ = ps_ + %" PRId64 " + ((1024u - (tilec_smem_u32(ps_ + %" PRId64 ") & 1023u)) & 1023u) / 2; "
             "/* the gathers' two sets, wgmma's 1024-byte atoms aligned */",
         stages * pipe_stage_elems(pl), stages * pipe_stage_elems(pl));
    /* The warpgroup's descriptors of A (its 64 rows) and B (its columns)
     * in the first set, computed once: a step adds the second set's
     * offset, a k16 slice 32 bytes (A) or 2048 (B), in 16-byte units in
     * the address field (shared addresses stay below 2^18: no carry). */
    line(em, "const uint64_t da_ = tilec_wgmma_desc(tilec_smem_u32(pg_) + (unsigned)((t_ >> 7) / %d) * %" PRId64 "u, 16u, %" PRId64
             "u, %du); /* the warpgroup's rows of A */", pl->wg_n, 64 * rb, 8 * rb, mode);
    line(em, "const uint64_t db_ = tilec_wgmma_desc(tilec_smem_u32(pg_ + %" PRId64 ") + (unsigned)((t_ >> 7) %% %d) * %" PRId64
             "u, %" PRId64 "u, 1024u, 1u); /* its columns of B */", ga, pl->wg_n, pl->wn / 64 * pl->K * 128, pl->K * 128);
    /* The accumulator's start in its registers before the loop's test:
     * else nvcc may sink it into the path that skips the loop, whose block
     * ptxas finds between the loop's wgmma and the wait after it, and it
     * then serializes the wgmma (C7515; conv1d's BK = 64 kernels). */
    line(em, "tilec_wgmma_touch_frag(%s);", f);
    line(em, "for (int64_t ks_ = 0; ks_ < pn_; ++ks_) {");
    em->ind++;
    line(em, "tilec_pipe_wait<%d>();", stages - 2);
    line(em, "%s", em->bar);
    emit_line(em->o, em->co, pl->update->loc);
    line(em, "const uint16_t *pr_ = ps_ + rs_ * %" PRId64 ";", pipe_stage_elems(pl));
    line(em, "uint16_t *const gd_ = pg_ + (int)(ks_ & 1) * %" PRId64 "; /* (step ks_ - 2's products are done with it) */",
         gset);
    line(em, "%s = (%s)(pk0_ + ks_);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype));
    view_box_gather(em, pl->load[0], "pr_", "gd_", pl->M, pl->K, false);
    view_box_gather(em, pl->load[1], S("(pr_ + %" PRId64 ")", pipe_region(pl, 0)), S("(gd_ + %" PRId64 ")", ga), pl->K,
                    pl->N, true);
    line(em, "tilec_fence_proxy_async(); /* the gathers' stores, read by wgmma */");
    line(em, "%s", em->bar);
    line(em, "const uint64_t ds_ = (ks_ & 1) ? %" PRId64 "u : 0u; /* the set's offset in the descriptors */", gset * 2 / 16);
    line(em, "tilec_wgmma_touch_frag(%s);", f);
    line(em, "tilec_wgmma_fence();");
    line(em, "#pragma unroll");
    line(em, "for (int kk_ = 0; kk_ < %" PRId64 "; ++kk_)", pl->K / 16);
    line(em, "    tilec_wgmma_frag<%s, %" PRId64 ">::run(%s, da_ + ds_ + (uint64_t)kk_ * 2u, db_ + ds_ + (uint64_t)kk_ * 128u);",
         pl->dtype == DT_BFLOAT16 ? "true" : "false", pl->wn, f);
    line(em, "tilec_wgmma_commit();");
    line(em, "tilec_wgmma_touch_frag(%s);", f);
    /* the copies of a later step, into the slot step ks_ - 1 gathered
     * from, while the products run */
    pipe_issue_ahead(em, pl, stages);
    line(em, "tilec_wgmma_wait<1>(); /* step ks_ - 1's products */");
    line(em, "tilec_wgmma_touch_frag(%s);", f);
    line(em, "rs_ = rs_ == %d ? 0 : rs_ + 1;", stages - 1);
    em->ind--;
    line(em, "}");
    line(em, "tilec_wgmma_wait<0>();");
    line(em, "tilec_wgmma_touch_frag(%s);", f);
}

void pipeline_emit_for(Emitter *em, const TirOp *op)
{
    const Stmt *st = op->stmt;
    const PipeLoop *pl = op->pipe;
    int stages = pipe_stages(em, pl);
    MmaKind mk = mma_kind(pl->dtype);
    MmaTiling g = mma_tiling(em, pl->M, pl->N);
    const char *kn = tv_sym_name(em, pl->k);
    line(em, "{ /* K loop: tile_mma operands copied %d step%s ahead (%d stages) */", stages - 1, stages > 2 ? "s" : "", stages);
    em->ind++;
    body_emit_ops(em, op->init);
    emit_line(em->o, em->co, st->cond->loc);
    Ctx c = {.shape = &pl->hi->shape, .idx = "0"};
    line(em, "const int64_t pk0_ = (int64_t)%s;", kn);
    line(em, "const int64_t pe_ = (int64_t)(%s);", ex_evc(em, pl->hi, c, DT_INT64));
    line(em, "const int64_t pn_ = pe_ > pk0_ ? pe_ - pk0_ : 0;");
    line(em, "uint16_t *ps_ = (uint16_t *)s_mma_;");
    line(em, "%s", em->bar); /* the buffer may have served a conversion */
    line(em, "for (int ks_ = 0; ks_ < %d; ++ks_) {", stages - 1);
    em->ind++;
    line(em, "if (ks_ < pn_) {");
    em->ind++;
    pipe_issue_step(em, pl, "ks_", "ks_");
    tv_close_loop(em);
    line(em, "tilec_pipe_commit();");
    tv_close_loop(em);
    /* Where a step's copies go: with two or more blocks per SM, after the
     * products (the other block's products cover this one's copy issue,
     * and the copies' address registers are not reused right away by the
     * fragment loads, which stalled on them: 4096^3 bf16 on 4 warps,
     * 128x128x64, 348 -> 330 us on the H100); alone on its SM, the block
     * issues them first, which measured faster there (352 vs 360 us at
     * 128x256x64 on 8 warps). */
    bool late = pipe_blocks_per_sm(em, pl) >= 2;
    /* rs_: the slot step ks_ reads; the step issued now, ks_ + stages - 1,
     * goes to the slot before it (counters, not a 64-bit modulo per step) */
    line(em, "int rs_ = 0;");
    if (pl->wg_n) {
        line(em, "#if TILEC_SM90A");
        pipe_wg_loop(em, pl, stages);
        line(em, "#else");
    }
    line(em, "for (int64_t ks_ = 0; ks_ < pn_; ++ks_) {");
    em->ind++;
    line(em, "tilec_pipe_wait<%d>();", stages - 2);
    line(em, "%s", em->bar);
    if (!late) pipe_issue_ahead(em, pl, stages);
    emit_line(em->o, em->co, pl->update->loc);
    if (!pl->boxed[0] && !pl->boxed[1]) {
        line(em, "const %s *sa_ = (const %s *)(ps_ + rs_ * %" PRId64 ");", mk.sty, mk.sty, pipe_stage_elems(pl));
        line(em, "const %s *sb_ = sa_ + %" PRId64 ";", mk.sty, pl->M * pl->K);
    } else {
        line(em, "const uint16_t *pr_ = ps_ + rs_ * %" PRId64 ";", pipe_stage_elems(pl));
        const char *opnd[2] = {"pr_", S("(pr_ + %" PRId64 ")", pipe_region(pl, 0))};
        /* the operands read through views, from their boxes: step ks_'s
         * (the loop variable is that step's while the indices are read) */
        line(em, "%s = (%s)(pk0_ + ks_);", kn, emit_storage_type(pl->k->dtype));
        int64_t at = stages * pipe_stage_elems(pl);
        for (int i = 0; i < 2; i++) {
            if (!pl->boxed[i]) continue;
            const char *g = S("(ps_ + %" PRId64 ")", at);
            view_box_gather(em, pl->load[i], opnd[i], g, i ? pl->K : pl->M, i ? pl->N : pl->K, false);
            opnd[i] = g;
            at += pipe_operand_elems(pl, i);
        }
        line(em, "%s", em->bar);
        line(em, "const %s *sa_ = (const %s *)%s;", mk.sty, mk.sty, opnd[0]);
        line(em, "const %s *sb_ = (const %s *)%s;", mk.sty, mk.sty, opnd[1]);
    }
    mma_products(em, &mk, &g, pl->N, pl->K, pl->K, pl->N, true, S("f%s", tv_sym_name(em, pl->acc)));
    if (late) pipe_issue_ahead(em, pl, stages);
    line(em, "rs_ = rs_ == %d ? 0 : rs_ + 1;", stages - 1);
    tv_close_loop(em);
    if (pl->wg_n) line(em, "#endif");
    line(em, "tilec_pipe_wait<0>();");
    line(em, "%s", em->bar);
    line(em, "%s = (%s)(pk0_ + pn_);", kn, emit_storage_type(pl->k->dtype));
    em->ind--;
    line(em, "}");
}

/* tilec_swz<C>'s layout (tilec_ops.h) as a CuTe swizzle of the row-major
 * offset r * C + c, where C is a power of two: 16-byte run c / 8 of row r
 * goes to run (c / 8) ^ s(r).  With P = C / 8 runs a row, s(r) = r % 8 for
 * P >= 8, the three bits above the row's log2(C) column bits, into bits
 * 3..5: Sw<3,3,log2(C) - 3>; for P = 1, 2, 4, s(r) = (r / (8 / P)) % P,
 * the log2(P) bits at 6, into bits 3 up: Sw<log2(P),3,3>.  False for other
 * C (tilec_swz swizzles them too, by rows, which no offset swizzle says). */
static bool operand_swizzle(int64_t cols, LayoutSwizzle *sw)
{
    if (cols < 8 || (cols & (cols - 1))) return false;
    int lc = tv_log2(cols), lp = lc - 3;
    if (lp >= 3) return layout_swizzle_make(3, 3, lc - 3, sw, NULL, 0);
    return layout_swizzle_make(lp, 3, 3, sw, NULL, 0);
}

static void buffer_value(TirValue *v, const char *name, Dtype d, int64_t rows, int64_t cols, int stages)
{
    v->name = name;
    v->dtype = d;
    v->shape = (Shape){.rank = 2, .dim = {rows, cols}};
    v->n = rows * cols;
    v->home = TIR_SMEM;
    v->stages = stages;
    v->nswz = operand_swizzle(cols, &v->swz[0]) ? 1 : 0;
}

int pipeline_stages(const Emitter *em, const PipeLoop *pl)
{
    return pipe_stages(em, pl);
}

void pipeline_buffers(Emitter *em, const PipeLoop *pl, TirValue *a, TirValue *b)
{
    /* (an operand read through a view: the stages hold its box; the
     * buffer is the one it is gathered into, for the products) */
    int stages = pipe_stages(em, pl);
    buffer_value(a, "sa_", pl->dtype, pl->M, pl->K, pl->boxed[0] ? 1 : stages);
    buffer_value(b, "sb_", pl->dtype, pl->K, pl->N, pl->boxed[1] ? 1 : stages);
}

static bool view_loops(AstVisitor *v, const Stmt *st)
{
    const bool *guarded = v->ctx; /* only footprints that are boxes under a condition count */
    PipeLoop pl;
    if (st->kind == ST_FOR && pipeline_match(st, &pl))
        for (int i = 0; i < 2; i++)
            if (pl.boxed[i] && (!*guarded || view_inner_dynamic(pl.load[i]))) v->stop = true;
    return true;
}

bool pipeline_has_views(const Stmt *st, bool guarded)
{
    AstVisitor v = {.stmt = view_loops, .ctx = &guarded};
    ast_walk_stmt(&v, st);
    return v.stop;
}

/* Whether sm_90a builds run the loop's products on wgmma (pipe_wg_loop),
 * and its warpgroups' arrangement: both operands gathered from views
 * (array operands take hopper.c's TMA variant instead), 16-bit, whole
 * warpgroups that split the accumulator into 64-row strips by columns of
 * 64 or 128 (tilec_wgmma_frag's N), K of 16, 32 or 64 (an A row one swizzle
 * span).  The accumulator's fragments then take wgmma's arrangement on
 * every architecture (mma_tiling), so the code around the loop is one. */
static void pipe_wg_plan(const Emitter *em, PipeLoop *pl)
{
    pl->wg_n = 0;
    pl->wn = 0;
    if (!pl->boxed[0] || !pl->boxed[1] || !codegen_has_arch(em->co, 90) || em->co->opt_level <= 0) return;
    if (pl->dtype != DT_FLOAT16 && pl->dtype != DT_BFLOAT16) return;
    int nwg = em->T / 128;
    if (em->T % 128 || pl->M % 64 || nwg % (pl->M / 64)) return;
    int wg_n = nwg / (int)(pl->M / 64);
    if (pl->N % wg_n) return;
    int64_t wn = pl->N / wg_n;
    if ((wn != 64 && wn != 128) || (pl->K != 16 && pl->K != 32 && pl->K != 64)) return;
    pl->wg_n = wg_n;
    pl->wn = wn;
}

/* Finds the loops to pipeline (the accumulator must be in fragments) and
 * makes room for their buffers. */
void pipeline_find(Emitter *em, Stmt *st)
{
    if (!st) return;
    PipeLoop pl;
    bool boxes = pipeline_match(st, &pl);
    for (int i = 0; boxes && i < 2; i++)
        if (pl.boxed[i] && (pl.box[i] = view_pipe_box(em, pl.load[i])) == 0 && !em->sm90_try)
            boxes = false; /* (the Hopper variant reads views as TMA boxes: hopper_view.c) */
    if (st->kind == ST_FOR && em->npipes < 16 && boxes && em->sym_frag[pl.acc->id] &&
        (pl.dtype == DT_FLOAT16 || pl.dtype == DT_BFLOAT16 || em->sm90_try)) {
        pipe_wg_plan(em, &pl);
        em->pipes[em->npipes++] = pl; /* its buffers: smem.c */
        return;
    }
    pipeline_find(em, st->then_s);
    pipeline_find(em, st->else_s);
    pipeline_find(em, st->body);
    for (int i = 0; i < st->nitems; i++) pipeline_find(em, st->items[i]);
}

/* After pipeline_find: the loads that loops with view operands now copy
 * into their stages need neither the shared mirrors nor the box the scan
 * planned for them (they would only cost the block shared memory, and
 * nvcc warns of them as unused). */
typedef struct Release {
    Emitter *em;
    int64_t vbox;
} Release;

static bool clear_mirrors(AstVisitor *v, const Expr *e)
{
    Emitter *em = v->ctx;
    if (e->id >= 0 && e->id <= em->k->nexprs) em->tmp_smem[e->id] = false;
    return true;
}

static bool boxes_left(AstVisitor *v, const Expr *e)
{
    Release *r = v->ctx;
    for (int i = 0; i < r->em->npipes; i++)
        for (int j = 0; j < 2; j++)
            if (r->em->pipes[i].boxed[j] && r->em->pipes[i].opnd[j] == e) {
                AstVisitor c = {.expr = clear_mirrors, .inlined = true, .ctx = r->em};
                ast_walk_expr(&c, e);
                return false;
            }
    if (e->kind == EX_BUILTIN && e->bi == BI_LOAD) {
        int64_t b = view_box_bytes(r->em, (Expr *)e);
        if (b > r->vbox) r->vbox = b;
    }
    return true;
}

void pipeline_release(Emitter *em, Stmt *body)
{
    bool any = false;
    for (int i = 0; i < em->npipes; i++) any |= em->pipes[i].boxed[0] || em->pipes[i].boxed[1];
    if (!any) return;
    Release r = {em, 0};
    AstVisitor v = {.expr = boxes_left, .inlined = true, .ctx = &r};
    ast_walk_stmt(&v, body);
    em->vbox_bytes = r.vbox;
}
