#!/usr/bin/env bash
# The sanitizer runs (docs/hardening.md):
#   .ci/sanitize.sh asan   the `asan` preset (AddressSanitizer + UBSan, gcc): the unit and gl labels
#                          (Mesa's software GL where there is no GPU); with a GPU, pass --gpu to run
#                          the cuda and interop labels too, and the faulting cases (the fault suite,
#                          kernels that fault on purpose) last, in a run of their own
#   .ci/sanitize.sh asan-gpu-run BUILD_DIR [--faults-only]
#                          no build: the asan build's cuda and interop test binaries as they are in
#                          BUILD_DIR/tests (carried to a lent GPU host), the faulting cases last
#                          (--faults-only: those alone; on an H100 the cuda label takes about
#                          4.5 minutes under ASan, the faulting cases about 4 with KS_FAULT_RUNS=10)
#   .ci/sanitize.sh tsan   the `tsan` preset (ThreadSanitizer): the threaded unit tests (compile
#                          service, file watcher, debouncer, live modules and their build swaps,
#                          compile cache, the supervision channel and shell link)
# Zero reports: any report fails the test it happened in. Suppressions (.ci/sanitizers/) name only
# third-party libraries, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:?usage: .ci/sanitize.sh asan [--gpu] | asan-gpu-run BUILD_DIR | tsan}
gpu=${2:-}
supp=$PWD/.ci/sanitizers
jobs=$(nproc)

# Every process writes its sanitizer reports to files here, the test binaries and every process
# they start (supervised workers, checked re-runs, the app under Xvfb): a worker that dies of a
# report is otherwise just a crashed worker that the supervision tests expect to survive.
reports() {
    local dir=$1
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "$dir"
}
check_reports() {
    local dir=$1
    if compgen -G "$dir/*" >/dev/null; then
        echo "sanitize: reports written (in $dir):" >&2
        for f in "$dir"/*; do
            echo "=== $f" >&2
            head -60 "$f" >&2
        done
        return 1
    fi
    echo "sanitize: no reports"
}

# The asan environment; reports go to files under $1.
asan_env() {
    # protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
    # intercept_tls_get_addr=0: gcc 12's runtime (and LLVM's up to 16) takes a thread's dynamic TLS
    # block whose address is 16 past a 4 KiB boundary for a glibc-2.19 block and reads a bogus range
    # from the 16 bytes before it; LeakSanitizer's tracer then dies of SIGSEGV at exit ("Tracer
    # caught signal 11", a fatal error that reports no leak). Mesa's dlopen'ed driver has such
    # blocks in every thread; CI failed this way once in a `gl` test that had passed (stop 31).
    # Dynamic TLS is then not scanned for pointers: our own TLS is static (linked in), and a leak
    # kept only there by Mesa would be reported, which fails the run, not hides anything.
    export ASAN_OPTIONS="intercept_tls_get_addr=0:protect_shadow_gap=0:detect_leaks=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0:log_path=$1/asan"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$1/ubsan"
}

# The kernels that fault on purpose, last and in a run of their own (as .ci/gpu-suite.sh runs them):
# on the lent hosts every raster draw hangs once a kernel has faulted, hence KS_SKIP_UI_DRAW=1 (the
# workers lay out their panels without drawing them); KS_FAULT_RUNS faults in a row (default 20).
fault_cases() {
    KS_SKIP_UI_DRAW=1 KS_FAULT_RUNS=${KS_FAULT_RUNS:-20} "$1/tests/ks_interop_tests" \
        --gtest_filter='FaultSuite*:Each/HeadlessFault*:Each/AppLoopFault*:FindFaults*'
}

case $which in
    asan-gpu-run)
        build=$(cd "${2:?usage: .ci/sanitize.sh asan-gpu-run BUILD_DIR [--faults-only]}" && pwd)
        out=$(reports "$build/sanitizer-reports")
        asan_env "$out"
        export KS_SOURCE_DIR=${KS_SOURCE_DIR:-$PWD}
        status=0
        if [ "${3:-}" != --faults-only ]; then
            "$build/tests/ks_cuda_tests" --gtest_brief=1 || status=1
            "$build/tests/ks_interop_tests" --gtest_brief=1 \
                --gtest_filter='-FaultSuite*:Each/HeadlessFault*:Each/AppLoopFault*:FindFaults*' || status=1
        fi
        fault_cases "$build" || status=1
        check_reports "$out" || status=1
        exit $status
        ;;
    asan)
        ./build.sh preset asan ks_unit_tests ks_gl_tests kernelscope \
            $([ "$gpu" = --gpu ] && echo ks_cuda_tests ks_interop_tests)
        out=$(reports "$PWD/build-asan/sanitizer-reports")
        asan_env "$out"
        labels="unit|gl"
        exclude="^$"
        if [ "$gpu" = --gpu ]; then
            labels="unit|gl|cuda|interop"
            exclude="Fault|FindFault|Runaway"
        fi
        status=0
        ctest --test-dir build-asan --output-on-failure -j "$jobs" -L "$labels" -E "$exclude" || status=1
        if [ "$gpu" = --gpu ]; then
            fault_cases build-asan || status=1
        fi
        check_reports "$out" || status=1
        exit $status
        ;;
    tsan)
        ./build.sh preset tsan ks_unit_tests
        out=$(reports "$PWD/build-tsan/sanitizer-reports")
        export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:log_path=$out/tsan"
        filter='CompileService.*:FileWatcher.*:Debouncer.*:LiveModule.*:LiveKernelSources.*:CacheFixture.*'
        filter+=':KernelDocument.*:RecoveryStore.*:ShellLink.*:ProcChannel.*:ProcChild.*:FakeChild.*:OutputCapture.*'
        status=0
        build-tsan/tests/ks_unit_tests --gtest_filter="$filter" --gtest_brief=1 || status=1
        check_reports "$out" || status=1
        exit $status
        ;;
    *)
        echo "usage: .ci/sanitize.sh asan [--gpu] | asan-gpu-run BUILD_DIR | tsan" >&2
        exit 2
        ;;
esac
