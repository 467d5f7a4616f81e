/* shape.h: tile shapes (rank 0 is a scalar) and NumPy broadcasting, with
 * the Python-tuple text form tilec prints in diagnostics: (16,8) (8,) ().
 * See docs/types.md, "Shapes and broadcasting". */
#ifndef TILEC_SHAPE_H
#define TILEC_SHAPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TILE_MAX_RANK 8
/* Longest text shape_format can produce (8 dims of 19 digits, commas, parens). */
#define SHAPE_FMT_MAX 176

typedef struct Shape {
    int rank;
    int64_t dim[TILE_MAX_RANK];
} Shape;

/* The number of elements (1 for a scalar); -1 if it overflows int64. */
int64_t shape_numel(const Shape *s);
bool shape_equal(const Shape *a, const Shape *b);
/* Whether every dimension is a power of two (a scalar is).  When not, and
 * bad_dim is not NULL, *bad_dim is the index of the first dimension that is
 * not; otherwise *bad_dim is -1. */
bool shape_is_pow2(const Shape *s, int *bad_dim);

/* NumPy broadcasting of a and b into out: shapes are aligned at their last
 * dimension, the shorter one is padded with ones on the left, and each pair
 * of dimensions must be equal or contain a 1.  On failure returns false and
 * writes e.g. "shapes (16,8) and (4,) cannot be broadcast: dimension 1 is 8
 * vs 4" (the dimension is counted in the result's rank). */
bool shape_broadcast(const Shape *a, const Shape *b, Shape *out, char *err, size_t errlen);
/* One-directional broadcasting (stores, tile_broadcast_to): whether `from`
 * broadcasts to exactly `to` (from has no more dimensions, and each of its
 * dimensions equals to's or is 1).  Message e.g. "shape (4,) cannot be
 * broadcast to (16,8): dimension 1 is 4 vs 8". */
bool shape_broadcast_to(const Shape *from, const Shape *to, char *err, size_t errlen);

/* Writes (16,8), (8,) or () into buf (truncated to n); returns buf. */
char *shape_format(const Shape *s, char *buf, size_t n);
/* Parses "(16,8)", "(8,)", "(8)", "()", with spaces anywhere between tokens
 * (the parentheses may be left out: "16,8").  Dimensions are positive
 * decimal integers; at most TILE_MAX_RANK of them. */
bool shape_parse(const char *text, Shape *out, char *err, size_t errlen);
#endif
