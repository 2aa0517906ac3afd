#!/usr/bin/env bash
# Runs everything that needs a GPU from an already built tree, on a GPU host:
# every test binary (all labels), compute-sanitizer's four tools over the cuda and interop labels
# (where the toolkit has it), every benchmark (JSON reports), headless screenshots, and the
# shipped projects' kernels through their checked variants (.ci/checked-kernels.py).
#   .ci/gpu-suite.sh BUILD_DIR OUT_DIR [--no-bench]
# Logs and reports land in OUT_DIR; the last lines printed are a summary table.
# KS_GPU_SUITE_LABELS limits the test labels (default: unit gl cuda interop; "none" runs none);
# KS_GPU_SUITE_FAULTS=0 leaves out the fault suite.
set -u
build=${1:?usage: gpu-suite.sh BUILD_DIR OUT_DIR [--no-bench]}
out=${2:?usage: gpu-suite.sh BUILD_DIR OUT_DIR [--no-bench]}
bench=1
[ "${3:-}" = "--no-bench" ] && bench=0
mkdir -p "$out"
export KS_SOURCE_DIR=${KS_SOURCE_DIR:-$PWD}
summary=()

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'

for t in ${KS_GPU_SUITE_LABELS:-unit gl cuda interop}; do
    bin="$build/tests/ks_${t}_tests"
    [ -x "$bin" ] || continue
    # The fault suite last, in a run of its own: on the lent hosts every raster draw of every process
    # hangs once a kernel has faulted (docs/supervision.md), which would stop the tests after it.
    if [ "$t" = interop ]; then
        "$bin" --gtest_filter='-FaultSuite*:Each/HeadlessFault*:Each/AppLoopFault*:FindFaults*' > "$out/tests-$t.log" 2>&1
    else
        "$bin" > "$out/tests-$t.log" 2>&1
    fi
    rc=$?
    passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/tests-$t.log" | grep -oE '[0-9]+$' || echo 0)
    failed=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$out/tests-$t.log" | grep -oE '[0-9]+' || echo 0)
    skipped=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$out/tests-$t.log" | grep -oE '[0-9]+' || echo 0)
    summary+=("tests $t: rc=$rc passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}")
    grep -E '^\[  FAILED  \] [A-Za-z]' "$out/tests-$t.log" | sort -u | head -20
done

# compute-sanitizer where the toolkit has it (the GPU host's own; PyPI's copy does not start there):
# memcheck (API errors reported too), racecheck, initcheck and synccheck over the cuda and interop
# labels, faulting cases excepted. KS_SANITIZER_TOOLS, KS_SANITIZER_LABELS and KS_SANITIZER_FILTER
# (a gtest filter) narrow the run; KS_SANITIZER_TOOLS= (empty) skips it. Left out of the cuda label's
# runs, each for a reason of the tool's or of the test's own (docs/hardening.md):
#   - PyCUDA's two dynamic-parallelism tests (test_recursive_launch, test_jit_link_module): racecheck,
#     synccheck and initcheck do not follow child launches ("CUDA Dynamic Parallelism is not
#     supported by the selected tool"), so initcheck calls what the children wrote uninitialized;
#   - CheckedEngineKernels.EveryPointerParameterIsCheckedToItsLastByte: it narrows the checked
#     kernels' extents on purpose, so they skip writes, and later kernels read what was not written;
#   - the *8gb and *16gb tests: sizes past 2^31 and 2^32 elements, hours under a sanitizer.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ] && [ "${KS_SANITIZER_TOOLS-memcheck racecheck initcheck synccheck}" != "" ]; then
    for tool in ${KS_SANITIZER_TOOLS:-memcheck racecheck initcheck synccheck}; do
        for t in ${KS_SANITIZER_LABELS:-cuda interop}; do
            bin="$build/tests/ks_${t}_tests"
            [ -x "$bin" ] || continue
            filter=${KS_SANITIZER_FILTER:-'*'}
            [ "$t" = interop ] && filter="$filter:-FaultSuite*:Each/HeadlessFault*:Each/AppLoopFault*:FindFaults*"
            [ "$t" = cuda ] && filter="$filter:-*8gb:*16gb:CudaTest.PyCudaDriver_test_recursive_launch:CudaTest.PyCudaDriver_test_jit_link_module:CheckedEngineKernels.EveryPointerParameterIsCheckedToItsLastByte"
            extra=()
            [ "$tool" = memcheck ] && extra=(--report-api-errors all)
            log="$out/sanitizer-$tool-$t.log"
            timeout "${KS_SANITIZER_TIMEOUT:-1200}" "$sanitizer" --tool "$tool" "${extra[@]}" --print-limit 0 \
                "$bin" --gtest_filter="$filter" --gtest_brief=1 > "$log" 2>&1
            rc=$?
            # The summary counts API errors (a driver call that returned an error) with the findings.
            total=$(grep -oE '(ERROR SUMMARY: [0-9]+ errors?$|RACECHECK SUMMARY: [0-9]+ hazard)' "$log" |
                    awk '{s += $3} END {print s + 0}')
            api=$(grep -c 'Program hit CUDA_ERROR' "$log")
            calls=$(grep -oE 'on CUDA API call to [A-Za-z_0-9]+' "$log" | awk '{print $NF}' | sort | uniq -c |
                    awk '{printf "%s%s %s", sep, $2, $1; sep=", "}')
            summary+=("sanitizer $tool $t: rc=$rc findings=$((total - api)) api-errors=$api${calls:+ ($calls)}")
        done
    done
fi

faults_after_bench=0
[ -x "$build/tests/ks_interop_tests" ] && [ "${KS_GPU_SUITE_FAULTS:-1}" = 1 ] && faults_after_bench=1

if [ $bench -eq 1 ]; then
    for bin in "$build"/bench/ks_bench_*; do
        [ -x "$bin" ] || continue
        name=$(basename "$bin" | sed 's/^ks_bench_//')
        [ "$name" = supervision ] && continue # it makes kernels fault: after the screenshots, below
        timeout 300 "$bin" --json "$out/bench-$name.json" > "$out/bench-$name.log" 2>&1
        summary+=("bench $name: rc=$?")
    done
fi

if [ -x "$build/app/kernelscope" ]; then
    "$build/app/kernelscope" --headless --frames 120 --screenshot "$out/default-demo.png" > "$out/app.log" 2>&1
    summary+=("app default demo: rc=$?")
    docs/teaching/screenshots.sh "$build/app/kernelscope" "$out/teaching" > "$out/teaching.log" 2>&1
    summary+=("teaching screenshots: rc=$? ($(grep -c ': ok' "$out/teaching.log") ok)")
fi

if [ -x "$build/app/kernelscope" ] && command -v python3 > /dev/null; then
    # Every shipped project's kernels through their checked variants: zero findings (docs/hardening.md).
    python3 .ci/checked-kernels.py "$build/app/kernelscope" "$out/checked" > "$out/checked-kernels.log" 2>&1
    summary+=("checked kernels: rc=$? ($(tail -1 "$out/checked-kernels.log"))")
fi

if [ $bench -eq 1 ] && [ -x "$build/bench/ks_bench_supervision" ]; then
    # Its faults come last within it (after the whole-app frames and the runaway).
    timeout 300 "$build/bench/ks_bench_supervision" --json "$out/bench-supervision.json" > "$out/bench-supervision.log" 2>&1
    summary+=("bench supervision: rc=$?")
fi

if [ $faults_after_bench -eq 1 ]; then
    # KS_SKIP_UI_DRAW=1: the workers lay out the panels but do not draw them. On the lent hosts every
    # raster draw of every process hangs once a kernel has faulted (Xid 109); compute goes on
    # (docs/supervision.md). What the fault suite checks (status, restore, leaks) is not drawn.
    KS_SKIP_UI_DRAW=1 KS_FAULT_RUNS=${KS_FAULT_RUNS:-100} "$build/tests/ks_interop_tests" \
        --gtest_filter='FaultSuite*:Each/HeadlessFault*:Each/AppLoopFault*:FindFaults*' > "$out/tests-faults.log" 2>&1
    rc=$?
    passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/tests-faults.log" | grep -oE '[0-9]+$' || echo 0)
    failed=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$out/tests-faults.log" | grep -oE '[0-9]+' || echo 0)
    summary+=("tests fault suite (last): rc=$rc passed=${passed:-0} failed=${failed:-0}")
fi

printf '%s\n' "${summary[@]}"
