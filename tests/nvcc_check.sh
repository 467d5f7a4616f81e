#!/bin/sh
# nvcc_check.sh: runs tilec on every example, test and benchmark kernel and
# compiles each generated .cu for sm_80 and sm_90 with nvcc (the examples and
# tests with tile_mma also with --arch=sm_90, for sm_80 and sm_90a: their
# Hopper variants), treating nvcc and ptxas warnings (register spills included) as
# failures; then builds and runs tests/unit/test_swz.cu (host code of the
# device helper header).
# Benchmark kernels take the options of their " * tilec-flags: ..." line, as
# tests/bench/prepare.sh does.  The nvcc runs go NVCC_JOBS at a time (default:
# the number of processors), since each takes seconds: this section is most
# of make check's time (9 of 14 minutes on CI's two cores).
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/nvcc}
NVCC=${NVCC:-nvcc}
JOBS=${NVCC_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$OUT"
p=0; f=0
if ! command -v "$NVCC" > /dev/null 2>&1; then
    echo "nvcc: not found; skipping"; echo "nvcc: 0 passed, 0 failed"; exit 0
fi
rm -f "$OUT"/*.cu "$OUT"/*.ok "$OUT"/*.nvcc "$OUT"/list
for src in examples/*/*.tile.c tests/kernels/*/*.tile.c tests/bench/kernels/*.tile.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .tile.c)
    flags=
    case "$src" in
    tests/bench/*) # names shared with the examples get a prefix
        name=bench_$name
        flags=$(sh tests/bench/kernel_flags.sh "$src")
        # a benchmark file that only includes an example (its kernels under
        # other names, with no options of its own) compiles as the example does
        if [ -z "$flags" ] && ! grep -q 'TILE_KERNEL\|TILE_ARRAY_KERNEL\|TILE_GRAPH\|SIMT_KERNEL' "$src" &&
            grep -q '^#include "\.\./\.\./\.\./examples/' "$src"; then
            continue
        fi ;;
    esac
    # shellcheck disable=SC2086 # flags are words
    if ! "$TILEC" $flags -o "$OUT/$name.cu" "$src" 2> "$OUT/$name.err"; then
        echo "nvcc: tilec failed on $src"; head -10 "$OUT/$name.err"; f=$((f + 1)); continue
    fi
    echo "$name $src" >> "$OUT/list"
    # Matrix products of the examples and tests again for --arch=sm_90: their
    # Hopper variants (wgmma, TMA) beside the mma.sync kernels, built for
    # sm_80 and sm_90a (the benchmark kernels' are built on the GPU machine,
    # tests/gpu/run.sh and sass_check.sh).
    if grep -q 'tile_mma' "$src" && [ "${src#tests/bench/}" = "$src" ] && ! echo "$flags" | grep -q -- '--arch'; then
        # shellcheck disable=SC2086
        if "$TILEC" $flags --arch=sm_90 -o "$OUT/${name}_sm90a.cu" "$src" 2> "$OUT/${name}_sm90a.err"; then
            # (without a Hopper variant it is the same code as above, unless
            # a view pipeline runs its products on wgmma in sm_90a builds)
            if grep -q '_sm90(\|tilec_wgmma_frag<' "$OUT/${name}_sm90a.cu"; then echo "${name}_sm90a $src" >> "$OUT/list"; fi
        else
            echo "nvcc: tilec --arch=sm_90 failed on $src"; head -10 "$OUT/${name}_sm90a.err"; f=$((f + 1))
        fi
    fi
done
# One .cu for three architectures at once (--arch=sm_75,sm_80,sm_90): the
# tensor-core product of tests/kernels/targets sits under tile_target.
if "$TILEC" --arch=sm_75,sm_80,sm_90 -o "$OUT/targets_multi.cu" tests/kernels/targets/targets.tile.c 2> "$OUT/targets_multi.err"; then
    echo "targets_multi tests/kernels/targets/targets.tile.c" >> "$OUT/list"
else
    echo "nvcc: tilec --arch=sm_75,sm_80,sm_90 failed"; head -10 "$OUT/targets_multi.err"; f=$((f + 1))
fi
# The tuning program `tilec tune` writes (tests/kernels/tuned) compiles too.
printf 'x=1000 y=1000 o=1000\no=100\n' > "$OUT/tune_shapes.txt"
if "$TILEC" tune tests/kernels/tuned/tuned.tile.c --shapes "$OUT/tune_shapes.txt" -o "$OUT/tune_tuned.cu" 2> "$OUT/tune_tuned.err"; then
    echo "tune_tuned tests/kernels/tuned/tuned.tile.c" >> "$OUT/list"
else
    echo "nvcc: tilec tune failed"; head -10 "$OUT/tune_tuned.err"; f=$((f + 1))
fi
# Register spills fail the check.  Local memory as such does not: CUDA's own
# sinf/cos argument reduction keeps a small stack frame.
# A kernel file with TILE_TUNABLE variants that may spill says so in a line
# " * nvcc-spills: allowed": the tuning program skips those variants on the
# device (docs/cli.md), so they are compiled without -warn-spills.  A line
# " * nvcc-spills: allowed in F G" allows them in the functions named only
# (SIMT_INTEROP functions with warp intrinsics: sm_80's ABI saves registers
# for them, reported as spills even in hand-written CUDA C++); the file is
# then compiled again with -warn-spills alone, and a spill elsewhere fails.
compile_one() {
    spills="-Xptxas -warn-spills,--warning-as-error"
    only=$(sed -n 's/^ \* nvcc-spills: allowed in \([A-Za-z0-9_ ]*\).*/\1/p' "$2")
    grep -q '^ \* nvcc-spills: allowed' "$2" && spills=
    # shellcheck disable=SC2086 # spills is words
    arch="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
    case "$1" in
    *_sm90a) arch="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a" ;;
    *_multi) arch="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a" ;;
    esac
    # calls of TILE_EXTERN functions link as relocatable device code
    grep -q 'TILE_EXTERN: defined in CUDA C++' "$OUT/$1.cu" && arch="$arch -rdc=true"
    # View pipelines' wgmma loops (conv1d) must not be serialized by ptxas
    # (its remarks C7514/C7515: accumulator registers read or written while
    # a wgmma group is in flight), which pipeline.c's code is arranged to avoid.
    wgv=
    case "$1" in *_sm90a) grep -q 'tilec_wgmma_frag<' "$OUT/$1.cu" && wgv="-Xptxas -v" ;; esac
    # shellcheck disable=SC2086 # spills, arch and wgv are words
    "$NVCC" -std=c++17 -O3 -Werror all-warnings $spills $wgv $arch \
        -I"$OUT" -Iruntime -c "$OUT/$1.cu" -o "$OUT/$1.o" 2> "$OUT/$1.nvcc" || return
    if [ -n "$wgv" ] && grep -q 'C751[45]' "$OUT/$1.nvcc"; then
        grep 'C751[45]' "$OUT/$1.nvcc" > "$OUT/$1.serial" && mv "$OUT/$1.serial" "$OUT/$1.nvcc"
        return
    fi
    if [ -n "$only" ]; then
        # shellcheck disable=SC2086 # arch is words
        "$NVCC" -std=c++17 -O3 -Xptxas -warn-spills $arch -I"$OUT" -Iruntime -c "$OUT/$1.cu" -o "$OUT/$1.spills.o" \
            2> "$OUT/$1.spills" || return
        grep "spilled to local memory in function" "$OUT/$1.spills" | while read -r line; do
            fn=$(echo "$line" | sed -n "s/.*in function '\([^']*\)'.*/\1/p")
            case " $only " in *" $fn "*) ;; *) echo "$line" ;; esac
        done > "$OUT/$1.nvcc"
        [ -s "$OUT/$1.nvcc" ] && return
    fi
    touch "$OUT/$1.ok"
}
if [ -f "$OUT/list" ]; then
    # JOBS workers each walk the list and take the next file nobody has
    # taken (mkdir is atomic), so that a slow compile (a Hopper matmul) does
    # not keep the other processors waiting for a whole batch to end.
    # Largest generated files first: a long compile started last would end
    # alone while the other workers wait.
    while read -r name src; do
        echo "$(wc -c < "$OUT/$name.cu") $name $src"
    done < "$OUT/list" | sort -k1,1nr -k2,2 | cut -d' ' -f2- > "$OUT/list.sorted"
    rm -rf "$OUT/taken"
    mkdir -p "$OUT/taken"
    w=0
    while [ "$w" -lt "$JOBS" ]; do
        while read -r name src; do
            mkdir "$OUT/taken/$name" 2> /dev/null && compile_one "$name" "$src" < /dev/null
        done < "$OUT/list.sorted" &
        w=$((w + 1))
    done
    wait
    while read -r name src; do
        if [ -f "$OUT/$name.ok" ]; then
            p=$((p + 1))
        else
            echo "nvcc: $src does not compile:"; head -20 "$OUT/$name.nvcc"; f=$((f + 1))
        fi
    done < "$OUT/list"
fi
# Two files with a vec_add kernel link into one program when --symbol-prefix
# names their launchers apart (the __global__ kernels are static); without
# it the link fails on vec_add.
printf '#include "pa.h"\n#include "pb.h"\nint main(void) { return add_vec_add == sub_vec_add; }\n' > "$OUT/two_main.c"
printf '#include "qa.h"\n#include "qb.h"\nint main(void) { return vec_add == 0; }\n' > "$OUT/two_main0.c"
if "$TILEC" --symbol-prefix=add_ -o "$OUT/pa.cu" examples/vec_add/vec_add.tile.c &&
   "$TILEC" --symbol-prefix=sub_ -o "$OUT/pb.cu" examples/vec_add/vec_add.tile.c &&
   "$NVCC" -std=c++17 -Iruntime -I"$OUT" -c "$OUT/pa.cu" -o "$OUT/pa.o" &&
   "$NVCC" -std=c++17 -Iruntime -I"$OUT" -c "$OUT/pb.cu" -o "$OUT/pb.o" &&
   "$NVCC" -Iruntime -I"$OUT" -o "$OUT/two" "$OUT/two_main.c" "$OUT/pa.o" "$OUT/pb.o" runtime/tilec_rt.c; then
    p=$((p + 1))
    # Template instantiations of a non-static kernel would be weak (W) and
    # merge silently between files: the kernels and their stubs are local.
    if nm -C "$OUT/pa.o" | grep -q ' [TWV] .*tilec_k_vec_add'; then
        echo "nvcc: pa.o exports a tilec_k_ kernel symbol"; nm -C "$OUT/pa.o" | grep ' [TWV] .*tilec_k_' | head -3; f=$((f + 1))
    else
        p=$((p + 1))
    fi
else
    echo "nvcc: two prefixed vec_add files do not link"; f=$((f + 1))
fi > "$OUT/two.log" 2>&1
cat "$OUT/two.log"
"$TILEC" -o "$OUT/qa.cu" examples/vec_add/vec_add.tile.c && sed 's/qa.h/qb.h/' "$OUT/qa.cu" > "$OUT/qb.cu" && cp "$OUT/qa.h" "$OUT/qb.h"
if "$NVCC" -std=c++17 -Iruntime -I"$OUT" -c "$OUT/qa.cu" -o "$OUT/qa.o" && "$NVCC" -std=c++17 -Iruntime -I"$OUT" -c "$OUT/qb.cu" -o "$OUT/qb.o" &&
   ! "$NVCC" -Iruntime -I"$OUT" -o "$OUT/two0" "$OUT/two_main0.c" "$OUT/qa.o" "$OUT/qb.o" runtime/tilec_rt.c > "$OUT/two0.log" 2>&1 &&
   grep -q "multiple definition of .vec_add" "$OUT/two0.log"; then
    p=$((p + 1))
else
    echo "nvcc: two unprefixed vec_add files linked (or failed otherwise)"; head -5 "$OUT/two0.log"; f=$((f + 1))
fi
# The device helpers' host-checkable parts (tests/unit/test_swz.cu: the
# swizzled layout of tile_mma's pipeline buffers), built by nvcc for the host.
if $NVCC -std=c++17 -Werror all-warnings -Iruntime -o "$OUT/test_swz" tests/unit/test_swz.cu 2> "$OUT/test_swz.nvcc" &&
        "$OUT/test_swz" > "$OUT/test_swz.out" 2>&1; then
    p=$((p + 1))
else
    echo "nvcc: tests/unit/test_swz.cu failed:"; head -20 "$OUT/test_swz.nvcc" "$OUT/test_swz.out" 2>/dev/null; f=$((f + 1))
fi
echo "nvcc: $p passed, $f failed"
[ "$f" -eq 0 ]
