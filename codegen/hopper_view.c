/* hopper_view.c: operands of the Hopper variant's K loop read through views,
 * as TMA boxes.
 *
 * A view is its array seen through a layout (sema/view.h).  When, at every
 * step of the K loop, the tile a view load reads is a box of the array (each
 * axis of the tile runs along one axis of the array, with a constant
 * element stride) laid out as wgmma wants it (A with K along the array's
 * contiguous axis; B with K or N there), TMA loads it as it loads an array's
 * tile: one cp.async.bulk.tensor of the array's rank, whose coordinates the
 * producer computes each step from the view's layout, and whose element
 * strides are the view's (an im2col of stride 2 reads every other column).
 * TMA reads zeros outside the array, which is where a view without
 * constraints reads its padding.  So seed 004's convolutions, written as
 * products of an im2col view and the weights seen as a matrix, run on the
 * same pipeline as a matmul, with no copy, gather or index arithmetic per
 * element.
 *
 * What TMA cannot know is the view's own extents: past them a view reads
 * the load's padding, but the box reads whatever the array holds there.
 * Three things keep the results exact:
 *   - along K, the launcher takes the variant only when the view's extent
 *     is a multiple of the tile's (and of the tile's extent along a nested
 *     axis, so that no tile crosses from one sub-mode into the next), and
 *     the K loop skips the steps wholly outside the view (their products
 *     are zero);
 *   - along M and N, the consumers set the sums of the rows and columns
 *     that lie outside the view to zero after the K loop, which is what the
 *     padding's zeros would have summed to;
 *   - the view's padding and the load's must read zero (TMA's fill).
 * Where the launcher's conditions fail, the ordinary kernel runs. */
#include "codegen/lower.h"
#include "sema/view.h"

#include <inttypes.h>
#include <string.h>

static bool zero_pad(int64_t pad)
{
    return pad == 0 || pad == 1 || pad == 2; /* undetermined, zero, negative zero */
}

/* The tile_load's .index entry for tile axis t. */
static Expr *index_entry(const Expr *e, int t)
{
    Expr *iv = ast_option((Expr *)e, "index")->value;
    return iv->kind == EX_LIST ? iv->args[t] : iv;
}

/* Operand i (0: A, M x K; 1: B, K x N) of the loop as a TMA box of its
 * view's array, or false with the reason in *why. */
static bool plan_operand(Emitter *em, HopperPlan *hp, int i, const char **why)
{
    const PipeLoop *pl = &hp->loop;
    Expr *e = pl->load[i];
    const View *v = view_arg(e);
    HopperBox *b = &hp->vbox[i];
    memset(b, 0, sizeof *b);
    b->v = v;
    int R = e->shape.rank, r = v->base->rank;
    if (R != v->rank) return (*why = "its tile and its view differ in rank"), false;
    if (r < 2 || r > 5) return (*why = S("its array has rank %d (TMA's boxes: 2 to 5)", r)), false;
    if (v->ncons) return (*why = "its view has bound constraints (TMA reads zeros only outside the array)"), false;
    if (!zero_pad(v->padding) || !zero_pad(ex_opt_int(e, "padding", 0)))
        return (*why = "its view or load pads with other than zero (TMA's fill)"), false;
    mem_tile_order(e, R, b->ord);
    /* the tile's axes of more than one element: K first for B, last for A */
    int nu[TILE_MAX_RANK], n = 0;
    for (int t = 0; t < R; t++) {
        b->axis[t] = -1;
        if (e->shape.dim[t] > 1) nu[n++] = t;
    }
    if (n < 2) return (*why = "its tile has fewer than two axes of more than one element"), false;
    b->k_tile = i ? nu[0] : nu[n - 1];
    if (e->shape.dim[b->k_tile] != pl->K)
        return (*why = "its tile does not have K along one of its axes"), false;
    bool used[TILE_MAX_RANK] = {false};
    for (int j = 0; j < r; j++) b->box[j] = 1, b->estr[j] = 1;
    for (int q = 0; q < n; q++) {
        int t = nu[q], ts[VIEW_MAX_TERMS];
        view_mode_terms(v, b->ord[t], ts);
        int j = -1;
        for (int a = 0; a < r; a++) {
            if (!v->a[a][ts[0]]) continue;
            if (j >= 0) return (*why = "one of its tile's axes moves along two array axes"), false;
            j = a;
        }
        int64_t c = j >= 0 ? v->a[j][ts[0]] : 0;
        if (j < 0) return (*why = "one of its tile's axes moves along no array axis (a broadcast)"), false;
        if (c < 1 || c > 8) return (*why = "one of its tile's axes steps backwards or more than 8 elements (TMA's element strides)"), false;
        if (used[j]) return (*why = "two of its tile's axes move along one array axis (overlapping windows)"), false;
        if (e->shape.dim[t] * c > 256) return (*why = "its box is more than 256 elements of the array wide"), false;
        used[j] = true;
        b->axis[t] = j;
        b->box[j] = e->shape.dim[t] * c;
        b->estr[j] = c;
        Expr *x = index_entry(e, t);
        if (t == b->k_tile ? x->kind != EX_NAME || x->sym != pl->k : ast_reads(x, pl->k, NULL))
            return (*why = "its .index does not step K by the loop's variable alone, or moves M or N with it"), false;
    }
    /* TMA starts a box only at a multiple of 16 bytes along the contiguous
     * axis (a box 5 elements into it faulted on the H200): the view's
     * offset there and every term's step along it must keep that, beyond
     * the tile axis along it, whose tile origins are multiples of its
     * extent (whole tiles of its first sub-mode, by the launcher's test) */
    int es = dtype_bits(pl->dtype) / 8, inner = -1;
    for (int q = 0; q < n; q++)
        if (b->axis[nu[q]] == r - 1) inner = nu[q];
    int in0 = -1;
    if (inner >= 0) {
        int ts[VIEW_MAX_TERMS];
        view_mode_terms(v, b->ord[inner], ts);
        in0 = ts[0];
        if (e->shape.dim[inner] * es % 16) return (*why = "its tile is not whole 16-byte runs of the array's contiguous axis"), false;
    }
    bool aligned = v->off[r - 1] * es % 16 == 0;
    for (int t = 0; t < v->nterms; t++)
        if (t != in0 && v->a[r - 1][t] * es % 16) aligned = false;
    if (!aligned)
        return (*why = "its boxes would start inside a 16-byte run of the array's contiguous axis (an offset or step of the "
                       "view there that is not a multiple of 16 bytes)"), false;
    /* the box's order in shared memory is the array's: the contiguous axis
     * first, then the others from the last */
    int kj = b->axis[b->k_tile];
    if (i == 1 && kj != r - 1) { /* B with N along the contiguous axis: N-major, 16-bit only */
        if (n != 2 || hp->kmajor_b || b->axis[nu[1]] != r - 1 || b->estr[r - 1] != 1 || pl->N % 64)
            return (*why = "neither K nor a single N axis of its tile runs along the array's contiguous axis"), false;
        b->nmajor = true;
        b->box[r - 1] = 64;
        return true;
    }
    if (kj != r - 1 || b->estr[kj] != 1)
        return (*why = "its tile does not have K along the array's contiguous axis"), false;
    int last = -1;
    for (int q = 0; q < n; q++) {
        if (nu[q] == b->k_tile) continue;
        if (b->axis[nu[q]] <= last)
            return (*why = "its tile's axes run in another order than the array's"), false;
        last = b->axis[nu[q]];
    }
    return true;
}

bool hview_plan(Emitter *em, HopperPlan *hp)
{
    const PipeLoop *pl = &hp->loop;
    for (int i = 0; i < 2; i++) {
        if (!pl->boxed[i]) continue;
        const char *why = NULL;
        if (!plan_operand(em, hp, i, &why))
            return hopper_no_plan(hp, S("operand %s, read through a view, is not one TMA box a step: %s%s", i ? "B" : "A", why,
                                        pl->wg_n ? "; its products on wgmma in the mma.sync kernel's sm_90a build" : ""));
        hp->views = true;
    }
    if (hp->views && pl->boxed[1] && !hp->vbox[1].nmajor) hp->kmajor_b = true;
    return true;
}

const Param *hview_array(const HopperPlan *hp, int i)
{
    return hp->vbox[i].v ? hp->vbox[i].v->base : hp->loop.load[i]->args[0]->sym->param;
}

/* ---- the kernel ----------------------------------------------------------- */

static char *kernel_ext(Emitter *em, const View *v, const ViewExt *x)
{
    return view_ext_c(em->ar, x, S("p_%s.shape[%%d]", v->base->name));
}

/* The K steps inside the views (pe_ is clamped to it): the view's extent
 * along K over the tile's, the smaller of the two operands'. */
char *hview_ksteps(Emitter *em)
{
    const HopperPlan *hp = em->hp;
    char *lim = NULL;
    for (int i = 0; i < 2; i++) {
        const HopperBox *b = &hp->vbox[i];
        if (!b->v) continue;
        char *s = S("(%s) / %" PRId64, kernel_ext(em, b->v, b->v->ext[b->ord[b->k_tile]]), hp->loop.K);
        lim = lim ? S("((%s) < (%s) ? (%s) : (%s))", lim, s, lim, s) : s;
    }
    return lim;
}

/* The producer's coordinates of operand i's box at this step (pre<d>_,
 * map dimension d: array axis rank - 1 - d). */
static void box_coords(Emitter *em, int i, const char *pre)
{
    const HopperBox *b = &em->hp->vbox[i];
    const View *v = b->v;
    const Expr *e = em->hp->loop.load[i];
    int R = e->shape.rank;
    line(em, "{");
    em->ind++;
    /* the tile's origin in view coordinates, split over each axis's terms */
    for (int t = 0; t < R; t++) {
        Expr *x = index_entry(e, t);
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t w%d_ = (int64_t)(%s) * %" PRId64 ";", b->ord[t], ex_evc(em, x, c, DT_INT64), e->shape.dim[t]);
    }
    /* (the producer does this every step: 32-bit divisions where the
     * values fit, which they do unless the array is huge) */
    const char *te[VIEW_MAX_TERMS];
    for (int t = 0; t < v->nterms; t++) te[t] = v->term[t].ext ? S("(%s)", kernel_ext(em, v, v->term[t].ext)) : NULL;
    view_split_terms(em, v, te);
    for (int j = 0; j < v->base->rank; j++) line(em, "%s%d_ = (int)(%s);", pre, v->base->rank - 1 - j, view_array_coord(em, v, j));
    em->ind--;
    line(em, "}");
}

/* The producer's TMA load of operand i's box into stage offset dst (of
 * st_) on the stage's full barrier: the tile of this step. */
void hview_issue(Emitter *em, int i)
{
    const HopperPlan *hp = em->hp;
    const HopperBox *b = &hp->vbox[i];
    int r = b->v->base->rank;
    const char *pre = i ? "vb" : "va";
    char *decl = S("int %s0_", pre);
    for (int d = 1; d < r; d++) decl = S("%s, %s%d_", decl, pre, d);
    line(em, "%s;", decl);
    box_coords(em, i, pre);
    const char *tma = i ? "tma_b_" : "tma_a_";
    const char *dst = i ? S("st_ + %" PRId64 "u", hp->a_bytes) : "st_";
    char *rest = S("%s", "");
    for (int d = 1; d < r; d++) rest = S("%s, %s%d_", rest, pre, d);
    if (b->nmajor) { /* boxes of 64 along N (the contiguous axis), K rows each */
        line(em, "#pragma unroll");
        line(em, "for (int c_ = 0; c_ < %" PRId64 "; ++c_)", hp->loop.N / 64);
        line(em, "    tilec_tma_load_%dd(%s + (unsigned)c_ * %" PRId64 "u, &%s, &hfull_[s_], %s0_ + c_ * 64%s);", r, dst,
             hp->loop.K * 128, tma, pre, rest);
        return;
    }
    char *args = S("%s0_%s", pre, rest);
    line(em, "tilec_tma_load_%dd(%s, &%s, &hfull_[s_], %s);", r, dst, tma, args);
}

/* Whether the row (A) or column (B) index ix of the tile lies inside
 * operand i's view, as a C condition; the view's extents are declared
 * before (vx<i>_<m>_) by hview_zero_outside. */
static char *inside(Emitter *em, int i, const char *ix)
{
    const HopperBox *b = &em->hp->vbox[i];
    const Expr *e = em->hp->loop.load[i];
    int R = e->shape.rank;
    char *c = S("true");
    int64_t below = 1;
    for (int t = R - 1; t >= 0; t--) {
        if (t == b->k_tile) continue;
        int m = b->ord[t];
        int64_t s = e->shape.dim[t];
        char *w = s == 1 ? S("vo%d_%d_", i, t) : S("vo%d_%d_ + (%s / %" PRId64 ") %% %" PRId64, i, t, ix, below, s);
        c = S("%s && (uint64_t)(%s) < (uint64_t)vx%d_%d_", c, w, i, m);
        below *= s;
    }
    return c;
}

/* After the K loop, the consumers' sums of rows (A) and columns (B) that
 * lie outside the views: zero, as the views' padding would have made them
 * (TMA read the array there).  f is the accumulator's fragments. */
void hview_zero_outside(Emitter *em, const char *f)
{
    const HopperPlan *hp = em->hp;
    line(em, "{ /* rows and columns outside the views: their sums are the padding's, zero (TMA read the array) */");
    em->ind++;
    for (int i = 0; i < 2; i++) {
        const HopperBox *b = &hp->vbox[i];
        if (!b->v) continue;
        const Expr *e = hp->loop.load[i];
        for (int m = 0; m < b->v->rank; m++)
            if (m != b->ord[b->k_tile]) line(em, "const int64_t vx%d_%d_ = %s;", i, m, kernel_ext(em, b->v, b->v->ext[m]));
        for (int t = 0; t < e->shape.rank; t++) {
            if (t == b->k_tile) continue;
            Expr *x = index_entry(e, t);
            Ctx c = {.shape = &x->shape, .idx = "0"};
            line(em, "const int64_t vo%d_%d_ = (int64_t)(%s) * %" PRId64 ";", i, t, ex_evc(em, x, c, DT_INT64), e->shape.dim[t]);
        }
    }
    /* (a tile wholly inside the views, the common case, skips the test) */
    char *whole = S("true");
    for (int i = 0; i < 2; i++) {
        const HopperBox *b = &hp->vbox[i];
        if (!b->v) continue;
        const Expr *e = hp->loop.load[i];
        for (int t = 0; t < e->shape.rank; t++)
            if (t != b->k_tile)
                whole = S("%s && vo%d_%d_ >= 0 && vo%d_%d_ + %" PRId64 " <= vx%d_%d_", whole, i, t, i, t, e->shape.dim[t], i,
                          b->ord[t]);
    }
    line(em, "if (!(%s)) {", whole);
    em->ind++;
    /* wgmma's accumulator (hopper_regs_layout): register r_ of 64-row block
     * m_ is row 16 (warp % 4) + lane / 4 + 8 ((r_ / 2) % 2), column
     * 2 (lane % 4) + r_ % 2 + 8 (r_ / 4), in the warpgroup's share */
    line(em, "const int64_t vr0_ = (int64_t)(t_ / 128 / %d) * %" PRId64 " + (t_ %% 128) / 32 * 16 + (t_ %% 32) / 4;",
         hp->wg_n, hp->wm);
    line(em, "const int64_t vc0_ = (int64_t)(t_ / 128 %% %d) * %" PRId64 " + (t_ %% 4) * 2;", hp->wg_n, hp->wn);
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", hp->wn / 2);
    em->ind += 2;
    line(em, "const int64_t row_ = vr0_ + m_ * 64 + ((r_ / 2) %% 2) * 8, col_ = vc0_ + r_ %% 2 + (r_ / 4) * 8;");
    line(em, "(void)row_, (void)col_;");
    char *ok = S("%s && %s", hp->vbox[0].v ? inside(em, 0, "row_") : "true", hp->vbox[1].v ? inside(em, 1, "col_") : "true");
    line(em, "if (!(%s)) %s[m_][r_] = 0;", ok, f);
    em->ind -= 2;
    line(em, "    }");
    em->ind--;
    line(em, "}");
    em->ind--;
    line(em, "}");
}

/* ---- the launcher --------------------------------------------------------- */

static char *launch_ext(Arena *ar, const View *v, const ViewExt *x)
{
    return view_ext_c(ar, x, arena_printf(ar, "%s->shape[%%d]", v->base->name));
}

/* The launcher's condition for operand i's boxes: TMA reads the array,
 * the view's extent along K is whole tiles, and no tile crosses a nested
 * axis's sub-modes. */
void hview_launch_test(FILE *o, Arena *ar, const HopperPlan *hp, int i)
{
    const HopperBox *b = &hp->vbox[i];
    const View *v = b->v;
    const Expr *e = hp->loop.load[i];
    fprintf(o, "tilec_tma_view_ok(%s, %d)", v->base->name, v->base->rank);
    fprintf(o, " && (%s) %% %" PRId64 " == 0", launch_ext(ar, v, v->ext[b->ord[b->k_tile]]), hp->loop.K);
    for (int t = 0; t < e->shape.rank; t++) {
        int ts[VIEW_MAX_TERMS];
        if (e->shape.dim[t] == 1 || view_mode_terms(v, b->ord[t], ts) < 2) continue;
        fprintf(o, " && (%s) %% %" PRId64 " == 0", launch_ext(ar, v, v->term[ts[0]].ext), e->shape.dim[t]);
    }
}

/* The launcher's tensor map `var` of operand i (data type dt, swizzle
 * sw): the box and element strides, innermost first. */
void hview_launch_map(FILE *o, const HopperPlan *hp, int i, const char *var, const char *dt, const char *sw)
{
    const HopperBox *b = &hp->vbox[i];
    int r = b->v->base->rank;
    fprintf(o, "                {\n                    const unsigned bx_[%d] = {", r);
    for (int d = 0; d < r; d++) fprintf(o, "%s%" PRId64 "u", d ? ", " : "", b->box[r - 1 - d]);
    fprintf(o, "}, es_[%d] = {", r);
    for (int d = 0; d < r; d++) fprintf(o, "%s%" PRId64 "u", d ? ", " : "", b->estr[r - 1 - d]);
    fprintf(o, "};\n                    if ((st_ = tilec_tma_map_view(&%s, %s, %s, %d, bx_, es_, CU_TENSOR_MAP_SWIZZLE_%s)) != TILEC_OK) return st_;\n"
               "                }\n", var, b->v->base->name, dt, r, sw);
}
