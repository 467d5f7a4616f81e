#!/bin/sh
# tests/gpu/run.sh: every GPU check and benchmark in one go.
#
# tilec needs libclang, which the GPU machine does not have, so the work is
# split in two phases:
#   sh tests/gpu/run.sh prepare      (here)  builds tilec, generates the CUDA
#        sources of every example and test kernel into build/gpu/, runs the
#        same applications on the host backend with their results dumped
#        (for the differential comparison), and prepares the benchmarks;
#   sh tests/gpu/run.sh device [--bench] [--quick] [--races]   (on the GPU machine,
#        with build/gpu and build/bench carried along): compiles the
#        generated CUDA with nvcc, runs every application (checks against
#        float64 references), runs each under compute-sanitizer memcheck
#        (and racecheck and synccheck with --races),
#        runs tests/gpu/device_check.cu (the launchers' device check),
#        tests/gpu/python_cuda.py (vec_add's generated Python module on torch),
#        compares every checked result with the host backend's element by
#        element, and with --bench measures the mma.sync ceiling
#        (tests/bench/peak/mma_peak.cu) and runs the benchmark table.
#   sh tests/gpu/run.sh probe time|once CASE...   (on the GPU machine, with
#        build/bench carried): times single benchmark kernels from C, or
#        launches them once for Nsight Compute (tests/bench/probe.c).
# The last line is "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$(pwd)
phase=${1:-}
shift 2>/dev/null
G=$TOP/build/gpu

case "$phase" in
prepare)
    make -s all || exit 2
    rm -rf "$G"
    mkdir -p "$G"
    for dir in examples/*/ tests/kernels/*/; do
        [ -f "$dir/main.c" ] || continue
        [ -f "$dir/Makefile" ] && continue
        src=$(ls "$dir"*.tile.c | head -n 1)
        name=$(basename "$src" .tile.c)
        mkdir -p "$G/gen/$name"
        tuning=  # a kernel with TILE_TUNABLE constants brings its tuning file
        [ -f "$dir/tuning.txt" ] && tuning="--tuning $dir/tuning.txt"
        # and a file may ask for options (" * tilec-flags: ...", as benchmarks do)
        flags=$(sh tests/bench/kernel_flags.sh "$src")
        # shellcheck disable=SC2086 # $tuning and $flags are words or none
        bin/tilec -O2 --arch=sm_90 $tuning $flags --python -o "$G/gen/$name/$name.cu" "$src" || exit 1
    done
    # Host results for the differential comparison.
    EX_DUMP_ROOT=$G/dump-host SAN=0 TILEC=$TOP/bin/tilec OUT=$G/host sh tests/run_examples.sh host | tail -n 1
    if [ -f tests/bench/prepare.sh ]; then sh tests/bench/prepare.sh || exit 1; fi
    echo "prepared $G"
    ;;
device)
    bench=0; quick=; races=0
    for a in "$@"; do
        case "$a" in --bench) bench=1 ;; --quick) quick=--quick ;; --races) races=1 ;; esac
    done
    [ -d "$G/gen" ] || { echo "run 'sh tests/gpu/run.sh prepare' first (and carry build/gpu)"; exit 2; }
    nvidia-smi -L
    p=0; f=0
    # every run of an application is cut off after GPU_TIMEOUT seconds (a
    # hang is a failure, not the end of the session)
    TO="timeout ${GPU_TIMEOUT:-300}"
    # sm_90a: the kernels' Hopper variants (wgmma, TMA) are compiled in;
    # -arch=sm_90 alone would build their mma.sync kernels only.
    NVARCH="-gencode arch=compute_90a,code=sm_90a"
    cudainc=$(dirname "$(command -v nvcc)")/../include
    # Builds in parallel (nvcc takes seconds per file), then runs in order.
    for dir in examples/*/ tests/kernels/*/; do
        [ -f "$dir/main.c" ] || continue
        [ -f "$dir/Makefile" ] && continue
        src=$(ls "$dir"*.tile.c | head -n 1)
        name=$(basename "$src" .tile.c)
        b=$G/cuda/$name
        mkdir -p "$b" "$G/dump-gpu/$name"
        rm -f "$b/app90"
        cp "$G/gen/$name/$name.cu" "$G/gen/$name/$name.h" "$b/"
        # TILE_EXTERN functions: extern.cu defines them (relocatable device code)
        rdc= ext=
        [ -f "$dir/extern.cu" ] && rdc=-rdc=true ext="$b/e.o"
        # shellcheck disable=SC2086 # NVARCH, rdc and ext are words or none
        { nvcc -std=c++17 -O3 $NVARCH $rdc -lineinfo -I"$b" -Iruntime -c -o "$b/k.o" "$b/$name.cu" &&
          { [ -z "$rdc" ] || nvcc -std=c++17 -O3 $NVARCH $rdc -I"$b" -Iruntime -c -o "$b/e.o" "$dir/extern.cu"; } &&
          cc -std=c17 -O2 -DEXAMPLE_CUDA -I"$cudainc" -I"$b" -Iruntime -c -o "$b/main.o" "$dir/main.c" &&
          cc -std=c17 -O2 -Iruntime -c -o "$b/rt.o" runtime/tilec_rt.c &&
          nvcc $NVARCH $rdc -o "$b/app" "$b/k.o" $ext "$b/main.o" "$b/rt.o" -lm &&
          # View pipelines run their products on wgmma only in sm_90a
          # builds (#if TILEC_SM90A inside the kernel): a second build
          # for plain sm_90 runs their mma.sync path on this GPU too.
          { ! grep -q 'tilec_wgmma_frag<' "$b/$name.cu" ||
            { nvcc -std=c++17 -O3 -gencode arch=compute_90,code=sm_90 $rdc -I"$b" -Iruntime -c -o "$b/k90.o" "$b/$name.cu" &&
              nvcc -gencode arch=compute_90,code=sm_90 $rdc -o "$b/app90" "$b/k90.o" $ext "$b/main.o" "$b/rt.o" -lm; }; }; } > "$b/build.log" 2>&1 &
    done
    wait
    for dir in examples/*/ tests/kernels/*/; do
        [ -f "$dir/main.c" ] || continue
        [ -f "$dir/Makefile" ] && continue
        src=$(ls "$dir"*.tile.c | head -n 1)
        name=$(basename "$src" .tile.c)
        b=$G/cuda/$name
        if [ ! -x "$b/app" ]; then
            echo "FAIL build $name"; tail -n 20 "$b/build.log"; f=$((f + 1)); continue
        fi
        if (cd "$b" && EX_DUMP=$G/dump-gpu/$name $TO ./app) > "$b/run.out" 2>&1; then
            p=$((p + 1)); echo "ok   run $(grep -E 'passed, [0-9]+ failed' "$b/run.out" | tail -n 1)"
        else
            f=$((f + 1)); echo "FAIL run $name"; tail -n 15 "$b/run.out"
        fi
        if [ -x "$b/app90" ]; then
            if (cd "$b" && $TO ./app90) > "$b/run-90.out" 2>&1; then
                p=$((p + 1)); echo "ok   run (sm_90 build: view pipelines on mma.sync) $(grep -E 'passed, [0-9]+ failed' "$b/run-90.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL run (sm_90 build) $name"; tail -n 15 "$b/run-90.out"
            fi
        fi
        # Kernels with a Hopper variant: once more on their mma.sync kernels.
        if grep -q '_sm90<true><<<' "$b/$name.cu"; then
            if (cd "$b" && TILEC_NO_SM90A=1 $TO ./app) > "$b/run-mma.out" 2>&1; then
                p=$((p + 1)); echo "ok   run (mma.sync, TILEC_NO_SM90A=1) $(grep -E 'passed, [0-9]+ failed' "$b/run-mma.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL run (mma.sync) $name"; tail -n 15 "$b/run-mma.out"
            fi
        fi
        # Kernels with a flash variant (fused attention loops): once more on
        # their ordinary kernels.
        if grep -q '_flash<true><<<' "$b/$name.cu"; then
            if (cd "$b" && TILEC_NO_FLASH=1 $TO ./app) > "$b/run-noflash.out" 2>&1; then
                p=$((p + 1)); echo "ok   run (no flash variant, TILEC_NO_FLASH=1) $(grep -E 'passed, [0-9]+ failed' "$b/run-noflash.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL run (no flash variant) $name"; tail -n 15 "$b/run-noflash.out"
            fi
        fi
        # Hopper variants launched in clusters of two (TMA multicast): once
        # more with the blocks alone.
        if grep -q 'tilec_cluster_blocks' "$b/$name.cu"; then
            if (cd "$b" && TILEC_SM90_CLUSTER=1 $TO ./app) > "$b/run-nocluster.out" 2>&1; then
                p=$((p + 1)); echo "ok   run (no clusters, TILEC_SM90_CLUSTER=1) $(grep -E 'passed, [0-9]+ failed' "$b/run-nocluster.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL run (no clusters) $name"; tail -n 15 "$b/run-nocluster.out"
            fi
        fi
        # Persistent Hopper grids: three blocks (two, one cluster, where the
        # kernel runs in clusters), so that each walks several tiles.
        if grep -q 'tilec_persistent_blocks' "$b/$name.cu"; then
            if (cd "$b" && TILEC_SM90_GRID=3 $TO compute-sanitizer --tool racecheck --error-exitcode 3 ./app) > "$b/run-grid3.out" 2>&1; then
                p=$((p + 1)); echo "ok   run (persistent grid of 3 blocks, racecheck) $(grep -E 'passed, [0-9]+ failed' "$b/run-grid3.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL run (persistent grid of 3 blocks) $name"; tail -n 15 "$b/run-grid3.out"
            fi
        fi
        # Stream-K (the last wave's K steps shared out): forced on grids of
        # 2, 5 and 7 blocks, whose tile counts leave partial last waves, so
        # that tiles split between two blocks at many places; grid 5 also
        # under memcheck, racecheck and synccheck.
        if grep -q 'tilec_streamk_tiles' "$b/$name.cu"; then
            for g in 2 5 7; do
                if (cd "$b" && TILEC_SM90_STREAMK=1 TILEC_SM90_GRID=$g $TO ./app) > "$b/run-sk$g.out" 2>&1; then
                    p=$((p + 1)); echo "ok   run (stream-K, persistent grid of $g blocks) $(grep -E 'passed, [0-9]+ failed' "$b/run-sk$g.out" | tail -n 1)"
                else
                    f=$((f + 1)); echo "FAIL run (stream-K, persistent grid of $g blocks) $name"; tail -n 15 "$b/run-sk$g.out"
                fi
            done
            tools=memcheck
            [ "$races" = 1 ] && tools="memcheck racecheck synccheck"
            for tool in $tools; do
                if (cd "$b" && TILEC_SM90_STREAMK=1 TILEC_SM90_GRID=5 $TO compute-sanitizer --tool $tool --error-exitcode 3 ./app) > "$b/sk-$tool.out" 2>&1; then
                    p=$((p + 1)); echo "ok   $tool (stream-K, grid of 5) $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$b/sk-$tool.out" | tail -n 1)"
                else
                    f=$((f + 1)); echo "FAIL $tool (stream-K, grid of 5) $name"; grep -E 'ERROR|hazard|at 0x|failed' "$b/sk-$tool.out" | head -n 10
                fi
            done
        fi
        if (cd "$b" && $TO compute-sanitizer --tool memcheck --error-exitcode 3 ./app) > "$b/memcheck.out" 2>&1; then
            p=$((p + 1)); echo "ok   memcheck $name: $(grep -E 'ERROR SUMMARY' "$b/memcheck.out" | tail -n 1)"
        else
            f=$((f + 1)); echo "FAIL memcheck $name"; grep -E 'ERROR|Invalid|at 0x' "$b/memcheck.out" | head -n 10
        fi
        # --races: shared-memory hazards and barrier misuse (mirrors,
        # reductions, tile_mma staging, cp.async pipelines)
        [ "$races" = 1 ] || continue
        for tool in racecheck synccheck; do
            if (cd "$b" && $TO compute-sanitizer --tool $tool --error-exitcode 3 ./app) > "$b/$tool.out" 2>&1; then
                p=$((p + 1)); echo "ok   $tool $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$b/$tool.out" | tail -n 1)"
            else
                f=$((f + 1)); echo "FAIL $tool $name"; grep -E 'ERROR|hazard|at 0x' "$b/$tool.out" | head -n 10
            fi
        done
    done
    # The launchers' device check (tests/gpu/device_check.cu) on vec_add's
    # generated launcher: plain, and with the environment switch.
    b=$G/cuda/device_check
    mkdir -p "$b"
    if nvcc -std=c++17 -O2 -arch=sm_90 -I"$G/gen/vec_add" -Iruntime -Itests/unit -o "$b/device_check" \
            tests/gpu/device_check.cu "$G/gen/vec_add/vec_add.cu" runtime/tilec_rt.c > "$b/build.log" 2>&1; then
        for mode in plain env-off; do
            if [ $mode = plain ]; then "$b/device_check" > "$b/$mode.out" 2>&1
            else TILEC_NO_DEVICE_CHECK=1 "$b/device_check" env-off > "$b/$mode.out" 2>&1; fi
            if [ $? -eq 0 ]; then
                p=$((p + 1)); echo "ok   device_check $mode: $(grep -E 'passed, [0-9]+ failed' "$b/$mode.out" | tail -n 1)"
                grep -E '^tilec_check_device:' "$b/$mode.out"
            else
                f=$((f + 1)); echo "FAIL device_check $mode"; tail -n 15 "$b/$mode.out"
            fi
        done
    else
        f=$((f + 1)); echo "FAIL build device_check"; tail -n 20 "$b/build.log"
    fi
    # The generated Python module of vec_add (CUDA target) on torch tensors.
    b=$G/cuda/pymod
    mkdir -p "$b"
    cp "$G/gen/vec_add/vec_add.py" "$G/gen/vec_add/vec_add.h" "$b/"
    if nvcc -std=c++17 -O3 -arch=sm_90 -shared -Xcompiler -fPIC -I"$b" -Iruntime -o "$b/libvec_add.so" \
            "$G/gen/vec_add/vec_add.cu" runtime/tilec_rt.c > "$b/build.log" 2>&1; then
        if python3 tests/gpu/python_cuda.py "$b" > "$b/run.out" 2>&1; then
            p=$((p + 1)); echo "ok   $(tail -n 1 "$b/run.out")"
        else
            f=$((f + 1)); echo "FAIL python module"; tail -n 15 "$b/run.out"
        fi
    else
        f=$((f + 1)); echo "FAIL build python module"; tail -n 20 "$b/build.log"
    fi
    # Differential: GPU results against the host backend's, element by element.
    out=$(python3 tests/gpu/diffdump.py "$G/dump-host" "$G/dump-gpu")
    printf '%s\n' "$out" | grep -v '^diff:'
    line=$(printf '%s\n' "$out" | grep '^diff:' | tail -n 1)
    dp=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    df=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    p=$((p + ${dp:-0})); f=$((f + ${df:-1}))
    if [ $bench = 1 ] && [ -f tests/bench/bench.py ]; then
        # The mma.sync ceiling that bounds tile_mma (a hardware limit).
        nvcc -O3 -arch=sm_90 -o "$G/mma_peak" tests/bench/peak/mma_peak.cu && "$G/mma_peak" || f=$((f + 1))
        # SASS evidence of the Hopper variants: HGMMA present, no spills.
        sh tests/gpu/sass_check.sh build/bench/matmul*.cu "$G/cuda/matmul_sm90/matmul_sm90.cu" \
            "$G/cuda/matmul_sm90_cluster/matmul_sm90_cluster.cu" | tee "$G/sass.txt"
        if grep -q '^FAIL' "$G/sass.txt"; then f=$((f + 1)); else p=$((p + 1)); fi
        python3 tests/bench/bench.py $quick --out "${OUT:-$G}" || f=$((f + 1))
    fi
    echo "$p passed, $f failed"
    [ $f -eq 0 ]
    ;;
probe)
    # Builds tests/bench/probe.c with every kernel of build/bench (carried) and
    # runs it: `probe time CASE...` times single kernels, `probe once CASE...`
    # launches each once, for ncu (see probe.c).  PROBE_NCU="ncu options" runs
    # it under Nsight Compute.
    B=$TOP/build/bench
    [ -f "$B/tilec_rt.c" ] || { echo "run 'sh tests/bench/prepare.sh' first (and carry build/bench)"; exit 2; }
    mkdir -p "$B/probe-obj"
    for cu in "$B"/*.cu; do
        nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -lineinfo -I"$B" -c -o "$B/probe-obj/$(basename "$cu" .cu).o" "$cu" &
    done
    wait
    nvcc -O3 -gencode arch=compute_90a,code=sm_90a -I"$B" ${PROBE_CFLAGS:-} -o "$B/probe" tests/bench/probe.c "$B/tilec_rt.c" \
        "$B"/probe-obj/*.o || exit 1
    # shellcheck disable=SC2086 # options are words
    ${PROBE_NCU:+ncu $PROBE_NCU} "$B/probe" "$@"
    ;;
*)
    echo "usage: sh tests/gpu/run.sh prepare | device [--bench] [--quick] [--races] | probe time|once CASE..."; exit 2 ;;
esac
