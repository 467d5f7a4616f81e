#!/bin/sh
# run_examples.sh TARGET: builds and runs every example application
# (examples/*/main.c) and every kernel test (tests/kernels/*/main.c) for
# TARGET (host or cuda).  Each directory holds one NAME.tile.c and a main.c
# that checks results and prints "NAME: N passed, N failed".
#   host: tilec --target=host, then cc -std=c17 -Werror -pthread (SIMT kernels
#         run a block's threads as POSIX threads) with the sanitizers
#         (SAN=0 to build without them, OMP=1 to build with OpenMP);
#   cuda: tilec, nvcc, and the run (under compute-sanitizer when SANITIZE=1).
set -u
target=${1:-host}
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/examples-$target}
CC=${CC:-cc}
NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
p=0; f=0
for dir in examples/*/ tests/kernels/*/; do
    [ -f "$dir/main.c" ] || continue
    [ -f "$dir/Makefile" ] && continue # examples/app builds itself (tests/install)
    src=$(ls "$dir"*.tile.c 2>/dev/null | head -n 1)
    [ -n "$src" ] || continue
    name=$(basename "$src" .tile.c)
    b=$OUT/$name
    mkdir -p "$b"
    # a kernel with TILE_TUNABLE constants brings its tuning file
    tuning=
    [ -f "$dir/tuning.txt" ] && tuning="--tuning $dir/tuning.txt"
    if [ "$target" = host ]; then
        san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
        [ "${SAN:-1}" = 0 ] && san=
        omp=
        [ "${OMP:-0}" = 1 ] && omp=-fopenmp
        if ! "$TILEC" --target=host $tuning -o "$b/$name.c" "$src" 2> "$b/tilec.err"; then
            echo "$name: tilec failed:"; head -20 "$b/tilec.err"; f=$((f + 1)); continue
        fi
        # TILE_EXTERN functions: the directory's extern.c defines them for the host
        ext=
        [ -f "$dir/extern.c" ] && ext="$dir/extern.c"
        # shellcheck disable=SC2086 # $ext is a word or none
        if ! $CC -std=c17 -O1 -g -Wall -Wextra -Werror $san $omp -I"$b" -Iruntime -o "$b/app" \
                "$b/$name.c" "$dir/main.c" $ext runtime/tilec_rt.c -lm -pthread 2> "$b/cc.err"; then
            echo "$name: cc failed:"; head -30 "$b/cc.err"; f=$((f + 1)); continue
        fi
        run="$b/app"
    else
        if ! "$TILEC" --arch="$ARCH" $tuning -o "$b/$name.cu" "$src" 2> "$b/tilec.err"; then
            echo "$name: tilec failed:"; head -20 "$b/tilec.err"; f=$((f + 1)); continue
        fi
        cudainc=$(dirname "$(command -v "$NVCC")")/../include
        # TILE_EXTERN functions: the directory's extern.cu defines them,
        # linked as relocatable device code
        rdc= ext=
        [ -f "$dir/extern.cu" ] && rdc=-rdc=true ext="$b/extern.o"
        # shellcheck disable=SC2086 # $rdc and $ext are words or none
        if ! { $NVCC -std=c++17 -O3 -arch="$ARCH" $rdc -I"$b" -Iruntime -c -o "$b/kernels.o" "$b/$name.cu" &&
               { [ -z "$rdc" ] || $NVCC -std=c++17 -O3 -arch="$ARCH" $rdc -I"$b" -Iruntime -c -o "$b/extern.o" "$dir/extern.cu"; } &&
               $CC -std=c17 -O2 -DEXAMPLE_CUDA -I"$cudainc" -I"$b" -Iruntime -c -o "$b/main.o" "$dir/main.c" &&
               $CC -std=c17 -O2 -Iruntime -c -o "$b/rt.o" runtime/tilec_rt.c &&
               $NVCC -arch="$ARCH" $rdc -o "$b/app" "$b/kernels.o" $ext "$b/main.o" "$b/rt.o" -lm; } 2> "$b/nvcc.err"; then
            echo "$name: nvcc failed:"; head -30 "$b/nvcc.err"; f=$((f + 1)); continue
        fi
        run="$b/app"
        [ "${SANITIZE:-0}" = 1 ] && run="compute-sanitizer --tool memcheck --error-exitcode 3 $b/app"
    fi
    if [ -n "${EX_DUMP_ROOT:-}" ]; then mkdir -p "$EX_DUMP_ROOT/$name"; export EX_DUMP="$EX_DUMP_ROOT/$name"; fi
    (cd "$b" && $run) > "$b/run.out" 2>&1
    rc=$?
    cat "$b/run.out" | grep -E ': [0-9]+ passed, [0-9]+ failed$' | tail -n 1
    if [ $rc -eq 0 ]; then p=$((p + 1)); else echo "$name: exit status $rc"; tail -n 15 "$b/run.out"; f=$((f + 1)); fi
done
echo "$target: $p passed, $f failed"
[ "$f" -eq 0 ]
