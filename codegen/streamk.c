/* streamk.c: stream-K for the Hopper variant's persistent grid
 * (docs/design.md, "The Hopper variant", Stream-K): the K steps of the
 * last two waves of tiles shared out among all blocks, a tile split
 * between at most two blocks whose partial sums meet in a workspace the
 * launcher passes (runtime/tilec_sm90.h: tilec_streamk_tiles,
 * tilec_streamk_workspace).  hopper.c plans the variant and writes the
 * producer and the K steps; this file writes which units each block
 * walks, in what order, and the fix-up between the two blocks of a tile.
 * Measured, it pays only for a nearly empty last wave (the launcher's
 * default): docs/performance.md. */
#include "codegen/lower.h"

/* Whether the kernel's persistent grid can share the K steps of its last
 * tiles between blocks (hopper_check_ops asks): blocks that take each of
 * their tiles whole (not ping-pong, not in clusters), and a K loop of the
 * same length for every tile, which the blocks divide without evaluating
 * each tile's. */
bool streamk_ok(Emitter *em, const HopperPlan *hp, const TirOp *loop)
{
    return hp->persistent && !hp->pingpong && !hp->cluster && hopper_bounds_fixed(em, hp, loop);
}

/* Stream-K's division of the work (streamk_ok; the launcher passes sk_,
 * tilec_streamk_tiles): the first nt_ - sk_ tiles whole, block b taking b,
 * b + gridDim.x, ... as without it; then the sk_ tiles' K steps (skn_ each:
 * the loop has the same bounds for every tile) in one range the blocks
 * divide evenly, block b taking the b-th part.  Since sk_ >= gridDim.x, a
 * part has at least a tile's steps, so at most two blocks share a tile:
 * block b's part ends with the first steps of a tile whose last steps
 * begin block b + 1's.  Block b + 1 leaves its sums for those in the
 * workspace (streamk_lead), block b adds them to its own at the end
 * (streamk_finish).
 * Thread 0 works it out once, for the tile count, the loop's length and
 * the block's part (skq_, in shared memory: registers are short in the
 * consumers, and the producer's are few). */
void streamk_setup(Emitter *em, const TirOp *loop)
{
    line(em, "{ /* stream-K: this block's units (streamk_units, streamk_consumers) */");
    em->ind++;
    line(em, "const int64_t nt_ = (int64_t)vg_.x * vg_.y * vg_.z, b_ = blockIdx.x, nb_ = gridDim.x;");
    hopper_tile_coords(em, "(int64_t)0");
    hopper_tile_scalars(em, loop);
    hopper_loop_bounds(em, loop);
    line(em, "const int64_t skt_ = sk_ >= nb_ && sk_ <= nt_ && sk_ <= TILEC_SK_SLOTS && pn_ > 0 && pn_ < INT32_MAX ? sk_ : 0, skl_ = skt_ * pn_;");
    line(em, "const int64_t ndp_ = nt_ - skt_, it0_ = skl_ * b_ / nb_, ite_ = skl_ * (b_ + 1) / nb_;");
    line(em, "const bool tail_ = skt_ > 0 && it0_ < ite_ && it0_ %% pn_ != 0;");
    line(em, "const int64_t s1_ = tail_ ? (it0_ / pn_ + 1) * pn_ : it0_; /* the part's first step at a tile's start */");
    line(em, "skq_[0] = ndp_;");
    line(em, "skq_[1] = ndp_ > b_ ? (ndp_ - b_ + nb_ - 1) / nb_ : 0;");
    line(em, "skq_[2] = tail_ ? ndp_ + it0_ / pn_ : -1;");
    line(em, "skq_[3] = tail_ ? it0_ %% pn_ : 0;");
    line(em, "skq_[4] = skt_ > 0 ? ndp_ + s1_ / pn_ : 0;");
    line(em, "skq_[5] = skt_ > 0 && s1_ < ite_ ? (ite_ - s1_ + pn_ - 1) / pn_ : 0;");
    line(em, "skq_[6] = skt_ > 0 && (ite_ - s1_) %% pn_ != 0 ? (ite_ - s1_) %% pn_ : -1;");
    em->ind--;
    line(em, "}");
}

/* The units the block walks with stream-K (streamk_setup), a tile's
 * steps [kb_, ke_) at a time (ke_ < 0: the whole loop): its whole tiles
 * (skq_[1] of them), then its part of the shared steps in order: the last
 * steps of a tile another block finishes (where the part begins inside a
 * tile: tile skq_[2] from step skq_[3]), then tile by tile from tile
 * skq_[4] (skq_[5] of them), the last perhaps its first skq_[6] steps
 * only.  All blocks take their whole tiles in step, as without stream-K
 * (their K steps in step keep the operands' reuse in L2: taking the last
 * steps of a tile first put each block out of step by up to a tile, and
 * made the 8192^3 product 14% slower on an H200); a block's first steps
 * of a tile come after the other block's last steps of it, which that
 * block takes first in its part.  Producer and consumers walk the same
 * units (the consumers as streamk_consumers writes them), the producer
 * counting them with j_; nothing here divides (the producer warpgroup has
 * 56 registers). */
void streamk_units(Emitter *em)
{
    line(em, "for (int j_ = 0;; ++j_) {");
    em->ind++;
    line(em, "const int64_t ndb_ = skq_[1];");
    line(em, "int64_t vt_, sc_ = j_ - ndb_;");
    line(em, "int kb_ = 0, ke_ = -1; /* the unit: tile vt_'s steps [kb_, ke_), all of them for ke_ < 0 */");
    line(em, "if (sc_ < 0) {");
    line(em, "    vt_ = blockIdx.x + j_ * (int64_t)gridDim.x;");
    line(em, "} else if (sc_ == 0 && skq_[2] >= 0) {");
    line(em, "    vt_ = skq_[2];");
    line(em, "    kb_ = (int)skq_[3];");
    line(em, "} else {");
    line(em, "    if (skq_[2] >= 0) --sc_;");
    line(em, "    if (sc_ >= skq_[5]) break;");
    line(em, "    vt_ = skq_[4] + sc_;");
    line(em, "    if (sc_ == skq_[5] - 1) ke_ = (int)skq_[6];");
    line(em, "}");
    hopper_tile_coords(em, "vt_");
}

/* The flag of slot sl (an operand of +) in the stream-K workspace
 * (streamk_lead sets it, streamk_finish waits for it and clears it). */
static const char *sk_flag(Emitter *em, const char *sl)
{
    return S("(unsigned *)skw_ + %s", sl);
}

/* The partial sums of slot sl in the stream-K workspace: after the flags
 * (one a shared tile, TILEC_SK_SLOTS of them: the same place for every
 * kernel and launch, which other kernels' sums must not overwrite), M x N
 * sums a slot, one vector of four a thread at a time (coalesced). */
static const char *sk_slot(Emitter *em, const char *sl)
{
    const char *v4 = em->hp->acc_int ? "int4" : "float4";
    return S("(%s *)((char *)skw_ + TILEC_SK_SLOTS * 4) + (%s) * %" PRId64, v4, sl,
             em->hp->pl->M * em->hp->pl->N / 4);
}

/* Stream-K, the unit of a tile's last steps, between the block's whole
 * tiles and the rest of its part (streamk_consumers): the block leaves its
 * partial sums in the workspace and sets the tile's flag; the block with
 * the tile's first steps runs the epilogue (streamk_finish). */
static void streamk_lead(Emitter *em, const TirOp *loop)
{
    const HopperPlan *hp = em->hp;
    const char *f = S("f%s", tv_sym_name(em, hp->pl->acc));
    const char *v4 = hp->acc_int ? "int4" : "float4";
    int64_t q = hp->wn / 8; /* vectors a 64-row block */
    line(em, "if (skq_[2] >= 0) { /* stream-K: a tile's last steps, for the block that has its first */");
    em->ind++;
    line(em, "const int64_t vt_ = skq_[2];");
    line(em, "const int kb_ = (int)skq_[3], ke_ = -1;");
    hopper_tile_coords(em, "vt_");
    hopper_tile_scalars(em, loop);
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int r_ = 0; r_ < %" PRId64 "; ++r_) %s[m_][r_] = 0;", hp->wn / 2, f);
    line(em, "{");
    em->ind++;
    hopper_consumer_steps(em, loop, f);
    em->ind--;
    line(em, "}");
    line(em, "%s *const skp_ = %s;", v4, sk_slot(em, "vt_ - skq_[0]"));
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int q_ = 0; q_ < %" PRId64 "; ++q_)", q);
    line(em, "        skp_[(m_ * %" PRId64 " + q_) * %d + t_] = make_%s(%s[m_][4 * q_], %s[m_][4 * q_ + 1], %s[m_][4 * q_ + 2], "
             "%s[m_][4 * q_ + 3]);", q, em->T, v4, f, f, f, f);
    line(em, "__threadfence();");
    line(em, "tilec_bar_named(1, %d); /* every thread's sums are out */", em->T);
    line(em, "if (t_ == 0) tilec_sk_publish(%s);", sk_flag(em, "(vt_ - skq_[0])"));
    em->ind--;
    line(em, "}");
}

/* The consumers' walk with stream-K (streamk_units says in what order):
 * the whole tiles, the last steps of a tile (streamk_lead), then the rest
 * of the block's part, the kernel's body written out for the loops of the
 * first and the last (one loop with the tile's last steps inside it made
 * ptxas spill, with the accumulator's 128 registers a thread). */
void streamk_consumers(Emitter *em, const TirOp *loop)
{
    line(em, "for (int64_t j_ = 0; j_ < skq_[1]; ++j_) { /* the whole tiles */");
    em->ind++;
    line(em, "const int64_t vt_ = blockIdx.x + j_ * (int64_t)gridDim.x;");
    line(em, "const int kb_ = 0, ke_ = -1; /* all the tile's steps */");
    hopper_tile_coords(em, "vt_");
    body_emit_ops(em, em->tir->body);
    tv_close_loop(em);
    streamk_lead(em, loop);
    line(em, "for (int64_t sc_ = 0; sc_ < skq_[5]; ++sc_) { /* the rest of the block's part */");
    em->ind++;
    line(em, "const int64_t vt_ = skq_[4] + sc_;");
    line(em, "const int kb_ = 0, ke_ = sc_ == skq_[5] - 1 ? (int)skq_[6] : -1; /* the tile's steps [0, ke_), all for ke_ < 0 */");
    hopper_tile_coords(em, "vt_");
    body_emit_ops(em, em->tir->body);
    tv_close_loop(em);
}

/* Stream-K, the block with a tile's first steps (its last unit): once
 * the flag is set, it adds the other block's partial sums to its own and
 * goes on to the epilogue, and clears the flag for the next launch on the
 * stream.  It waits only for a block that waits for nothing before it sets
 * the flag (streamk_lead), so whatever the order in which the device runs
 * the blocks, none waits for ever; and two addends give the same sum
 * whichever is added first: the result does not depend on the timing. */
void streamk_finish(Emitter *em, const char *f)
{
    const HopperPlan *hp = em->hp;
    const char *v4 = hp->acc_int ? "int4" : "float4";
    int64_t q = hp->wn / 8;
    line(em, "if (ke_ >= 0 && ke_ < pn_) { /* stream-K: another block has the tile's last steps */");
    em->ind++;
    line(em, "const int64_t sl_ = vt_ - skq_[0];");
    line(em, "if (t_ == 0) {");
    line(em, "    unsigned *const skf_ = %s;", sk_flag(em, "sl_"));
    line(em, "    tilec_sk_await(skf_);");
    line(em, "    __threadfence();");
    line(em, "    *skf_ = 0u; /* ready for the next launch */");
    line(em, "}");
    line(em, "tilec_bar_named(1, %d);", em->T);
    line(em, "const %s *const skp_ = %s;", v4, sk_slot(em, "sl_"));
    /* eight vectors at a time, four beside a 128-register accumulator:
     * all of them in flight at once would take as many registers again as
     * the accumulator (the touches keep the compiler from issuing the next
     * group early; ptxas spilled with eight beside 64 x 256) */
    int64_t g = hp->mb * hp->wn / 2 > 64 ? 4 : 8;
    if (g > q) g = q;
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int g_ = 0; g_ < %" PRId64 "; g_ += %" PRId64 ") {", q, g);
    line(em, "        %s p_[%" PRId64 "];", v4, g);
    line(em, "        #pragma unroll");
    line(em, "        for (int h_ = 0; h_ < %" PRId64 "; ++h_) p_[h_] = tilec_sk_load(&skp_[(m_ * %" PRId64 " + g_ + h_) * %d + t_]);",
         g, q, em->T);
    line(em, "        #pragma unroll");
    line(em, "        for (int h_ = 0; h_ < %" PRId64 "; ++h_) {", g);
    line(em, "            %s[m_][4 * (g_ + h_)] += p_[h_].x;", f);
    line(em, "            %s[m_][4 * (g_ + h_) + 1] += p_[h_].y;", f);
    line(em, "            %s[m_][4 * (g_ + h_) + 2] += p_[h_].z;", f);
    line(em, "            %s[m_][4 * (g_ + h_) + 3] += p_[h_].w;", f);
    line(em, "            #pragma unroll");
    line(em, "            for (int r_ = 0; r_ < 4; ++r_) tilec_wgmma_touch(%s[m_][4 * (g_ + h_) + r_]);", f);
    line(em, "        }");
    line(em, "    }");
    em->ind--;
    line(em, "}");
}
