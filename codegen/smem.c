/* smem.c: shared-memory planning, the pass after placement.  A block's
 * shared memory holds, statically, the mirrors of the values read out of
 * their threads' order and the one buffer the generic reductions and scans
 * share; dynamically (it outgrows the 48 KB of static memory) one buffer
 * for tile_mma: the staged operands and accumulator of an mma whose result
 * is not a fragment accumulator, the room a fragment accumulator's
 * conversions go through, and the stages of pipelined K loops.  The pass
 * sizes both into the IR (TirKernel.smem_static, smem_dynamic) and rejects,
 * at the kernel, a plan that does not fit the architecture. */
#include "codegen/lower.h"

bool smem_plan(Emitter *em)
{
    TirKernel *k = em->tir;
    if (!em->tg->threads) return true; /* the host keeps everything in its arrays */
    int64_t dyn = em->mma_bytes; /* staging of the mmas (scan.c) */
    for (int i = 0; i < k->nvalues; i++) {
        const TirValue *v = &k->values[i];
        if (v->home == TIR_FRAGMENT && !em->frag_lay) { /* the conversion to registers */
            int64_t b = v->shape.dim[0] * mma_acc_ld(v->shape.dim[1]) * 4 + 64;
            if (b > dyn) dyn = b;
        }
    }
    for (int i = 0; i < em->npipes; i++) {
        int64_t b = em->hp ? hopper_ring_bytes(em->hp) : pipeline_bytes(em, &em->pipes[i]);
        if (b > dyn) dyn = b;
    }
    for (int i = 0; i <= em->k->nexprs; i++) {
        /* an mma that does not update a fragment accumulator needs room for
         * its accumulator after the staged operands */
        int t = em->mma_target[i];
        if (!em->mma_exprs[i] || (t && em->sym_frag[t - 1])) continue;
        if (mma_bytes(em->mma_exprs[i]) > dyn) dyn = mma_bytes(em->mma_exprs[i]);
    }
    int64_t stat = em->red_bytes + em->vbox_bytes;
    for (int i = 0; i < k->nvalues; i++)
        if (k->values[i].mirror) /* (ping-pong: one a warpgroup) */
            stat += k->values[i].n * dtype_bits(k->values[i].dtype) / 8 * (em->hp && em->hp->pingpong ? 2 : 1);
    k->smem_static = (int)stat;
    k->smem_dynamic = (int)dyn;
    /* the Hopper variant runs on sm_90a only; the others on every listed architecture */
    int arch = em->co->arch, limit = pipeline_smem_limit(arch);
    if (em->hp) arch = 90, limit = pipeline_smem_limit(90);
    for (int i = 0; !em->hp && i < em->co->narchs; i++)
        if (pipeline_smem_limit(em->co->archs[i]) < limit) arch = em->co->archs[i], limit = pipeline_smem_limit(arch);
    if (stat > 48 * 1024 || stat + dyn > limit) {
        diag_error_fix(em->k->loc, "use smaller tiles",
                       "kernel '%s' needs %" PRId64 " bytes of shared memory (at most 49152 static, %d in all on sm_%d)",
                       em->k->name, stat + dyn, limit, arch ? arch : 80);
        return false;
    }
    return true;
}
