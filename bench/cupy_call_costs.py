#!/usr/bin/env python3
"""CuPy's cost of one small call, measured as ks_bench_arrays measures the engine's.

    bench/cupy_call_costs.py [--json FILE] [--reps N]

The calls are ks_bench_arrays' "1K f32" call costs, made with CuPy on arrays of 1,024 float32:
host, the median host time of one call with the stream idle before it; queued, the median time per
call of 10 calls queued between one pair of events. Without CuPy it says so and exits 0.
"""
import argparse
import json
import statistics
import sys
import time


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json")
    p.add_argument("--reps", type=int, default=30)
    args = p.parse_args()
    try:
        import cupy as cp
    except ImportError as e:
        print(f"cupy_call_costs: no CuPy ({e}); nothing to measure.")
        return 0

    n = 1024
    rng = cp.random.default_rng(2024)
    x = rng.random(n, dtype=cp.float32)
    y = rng.standard_normal(n, dtype=cp.float32)
    z = cp.empty_like(x)
    result = cp.empty((), dtype=cp.float32)
    axpby = cp.ElementwiseKernel("float32 a, float32 x, float32 b, float32 y", "float32 z", "z = a*x + b*y",
                                 "linear_combination")
    calls = [
        ("1K f32: z = x + y (new array)", lambda: x + y),
        ("1K f32: add into z", lambda: cp.add(x, y, out=z)),
        ("1K f32: ElementwiseKernel axpby", lambda: axpby(cp.float32(2), x, cp.float32(3), y, z)),
        ("1K f32: sum", lambda: cp.sum(x, out=result)),
    ]
    stream = cp.cuda.get_current_stream()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    costs = []
    for name, op in calls:
        op()
        op()  # compiled and cached before timing
        host = []
        for _ in range(args.reps):
            stream.synchronize()
            t = time.perf_counter()
            op()
            host.append((time.perf_counter() - t) * 1e6)
        stream.synchronize()
        queued = []
        for _ in range(max(3, args.reps // 4)):
            start.record(stream)
            for _ in range(10):
                op()
            stop.record(stream)
            stop.synchronize()
            queued.append(cp.cuda.get_elapsed_time(start, stop) / 10)
        costs.append({"name": name, "host_us": statistics.median(host), "queued_ms_per_call": statistics.median(queued)})
        print(f"  CuPy {name:<34} host {costs[-1]['host_us']:7.1f} us   queued {costs[-1]['queued_ms_per_call']:8.4f} ms")
    if args.json:
        report = {"bench": "cupy_call_costs", "cupy": cp.__version__, "reps": args.reps, "call_costs": costs}
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
