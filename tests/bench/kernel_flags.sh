#!/bin/sh
# kernel_flags.sh FILE: prints the tilec options a benchmark kernel asks for
# in a comment line " * tilec-flags: ..." (nothing when it has none).  Used
# by tests/bench/prepare.sh and tests/nvcc_check.sh, so that both build a
# kernel the same way.
sed -n 's/^ \* tilec-flags: \([^*]*\).*/\1/p' "$1" | head -n 1
