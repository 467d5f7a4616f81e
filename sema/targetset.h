/* targetset.h: target descriptions of seed 001's target specialization
 * (`if (tile_target(tile_provides(TILE_SM_90) | tile_is_host))`), as sets of
 * targets.
 *
 * The universe is finite: the host, every CUDA architecture tilec knows
 * (targetset_archs) and one bucket for the architectures after the last of
 * them, so a description is a bit set and |, & and ~ are set operations.
 * Architecture i's bucket covers the __CUDA_ARCH__ values from its own (XX0)
 * up to the next known architecture's, so that an unlisted value between
 * two known ones (there is none today) still lands in exactly one bucket and
 * the #if a set compiles to is correct for every value of __CUDA_ARCH__. */
#ifndef TILEC_TARGETSET_H
#define TILEC_TARGETSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t TargetSet;

#define TARGETSET_HOST ((TargetSet)1)

/* The known architectures in increasing order (sm_50 ... sm_121), and how
 * many there are. */
extern const int targetset_archs[];
extern const int targetset_narchs;

/* Every target; every device target (the known architectures and the
 * later-bucket). */
TargetSet targetset_all(void);
TargetSet targetset_devices(void);
/* Whether sm (XX of sm_XX) is a known architecture. */
bool targetset_known_arch(int sm);
/* tile_is_exactly(sm) and tile_provides(sm) (sm and every later
 * architecture); sm must be known. */
TargetSet targetset_exactly(int sm);
TargetSet targetset_provides(int sm);
/* Whether a set holds the architecture sm (any value 50..200) or the host. */
bool targetset_has_arch(TargetSet s, int sm);
/* The preprocessor condition that is true exactly where the generated CUDA
 * code is compiled for a target of s: "!defined(__CUDA_ARCH__)" for the
 * host (nvcc's host pass), ranges of __CUDA_ARCH__ for the devices, "0" for
 * the empty set and "1" for all. */
void targetset_cuda_condition(TargetSet s, char *buf, size_t len);
struct Expr;
/* The set a description denotes (the argument of tile_target: tile_provides(N)
 * ... with | & ^ ~ !), for tile code (sema, which has typed each N) and for
 * SIMT code (N an integer literal or enum constant); errors at the first
 * part that is not a description, or an architecture tilec does not know. */
bool targetset_eval(const struct Expr *desc, TargetSet *out);
/* A readable form for dumps and diagnostics: "host | sm_80..sm_89 |
 * sm_90+", "no target", "any target". */
void targetset_describe(TargetSet s, char *buf, size_t len);
#endif
