/* missing include, first seen in a body: a helper in plain C, then the
 * first Tile C name is a builtin. */
#include <stdint.h>
static int twice(int x) { return 2 * x; }
int32_t blocks(void) { return tile_num_blocks(0); }
// expect: tests/diag/missing_include_body.tile.c:5:31: error: 'tile_num_blocks' is not defined: this file does not include <tilec.h>
// expect: tests/diag/missing_include_body.tile.c:5:31: note: fix: add '#include <tilec.h>' at the top of the file
// expect-no-other-errors
