/* target.h: what the two targets do differently when lowering a kernel
 * body, as one small table per target (internal to codegen/).  The CUDA
 * target spreads each tile over a block's threads (thread-value layouts,
 * shared-memory mirrors and buffers, barriers, warp shuffles, tensor
 * cores); the host target runs a block as one "thread" holding whole tiles.
 * Lowering code asks the table (em->tg) instead of testing which target it
 * is: a capability, a spelling, or a hook. */
#ifndef TILEC_TARGET_H
#define TILEC_TARGET_H
#include <stdbool.h>

#include "sema/shape.h"

struct Emitter;

typedef struct Target {
    const char *name;         /* "cuda", "host" */
    bool threads;             /* a block's threads share each tile (everything above) */
    const char *block_index;  /* tile_bid(axis): a printf format of the axis letter */
    const char *grid_dim;     /* tile_num_blocks(axis), the same way */
    const char *thread_decl;  /* declared at the top of a body, or NULL */
    const char *barrier;      /* a block-wide barrier statement, or NULL */
    const char *elem_reg;     /* an element loop's register index: per thread (e_) or whole tile (i_) */
    bool packed_half;         /* float16/bfloat16 registers two to 32 bits (tilec_p16) */
    /* Opens the loop over the elements a thread holds of a tile of shape s,
     * defining i_ (the row-major element) and elem_reg (tv_close_loop
     * closes it). */
    void (*open_loop)(struct Emitter *em, const Shape *s);
} Target;

extern const Target target_cuda, target_host;
#endif
