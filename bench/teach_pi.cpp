// The PyCUDA notebook's pi estimate, timed two ways, for the guided tour (docs/teaching, step 3):
//   device: dest stays on the device; pi_map, 20 pi_reduce steps, copy back only dest[0];
//   round trip: like cuda.InOut(dest), every launch copies the 4 MB array to the device before
//               it and back after it (pageable host memory, as numpy's).
// Prints a table and the estimate of both; --json FILE writes the numbers.
//   build/bench/ks_bench_teach_pi [--n 1000000] [--repeats 20] [--json out.json]
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/rtc/compiler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

double medianMs(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int n = 1000000, repeats = 20;
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--n"))
            n = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeats"))
            repeats = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--json"))
            json = argv[i + 1];
    }
    try {
        ks::cuda::PrimaryContext context(0);
        ks::cuda::Stream stream(ks::cuda::Stream::Create{});
        const ks::cuda::DeviceInfo device = ks::cuda::queryDevice(0);
        ks::rtc::CompileOptions options;
        options.arch = device.archName();
        const auto file = ks::paths::dataRoot() / "kernels" / "teaching" / "pi.cu";
        const auto built = ks::rtc::compile(ks::paths::readTextFile(file), "pi.cu", options);
        if (!built.ok) {
            std::fprintf(stderr, "%s\n", built.log.c_str());
            return 1;
        }
        ks::cuda::Module module(built.cubin.data());
        const ks::cuda::Function map = module.function("pi_map");
        const ks::cuda::Function reduce = module.function("pi_reduce");
        const ks::cuda::LaunchConfig launch{{unsigned((n + 511) / 512), 1, 1}, {512, 1, 1}, 0};

        ks::cuda::DeviceMemory dest(std::size_t(n) * sizeof(float));
        std::vector<float> host(n, -1.f);
        CUdeviceptr p = dest.get();
        int count = n, stride = 1;
        void* mapArgs[] = {&p, &count};
        void* reduceArgs[] = {&p, &stride, &count};
        const std::size_t bytes = dest.size();
        int steps = 0;

        auto run = [&](bool roundTrip, float& result) {
            const auto t0 = std::chrono::steady_clock::now();
            map.launch(launch, stream.get(), mapArgs);
            if (roundTrip) // cuda.Out(dest)
                KS_CU(cuMemcpyDtoHAsync, host.data(), p, bytes, stream.get());
            steps = 0;
            for (stride = 1; stride < n; stride *= 2, ++steps) {
                if (roundTrip) // cuda.InOut(dest): in before the launch...
                    KS_CU(cuMemcpyHtoDAsync, p, host.data(), bytes, stream.get());
                reduce.launch(launch, stream.get(), reduceArgs);
                if (roundTrip) // ...and out after it
                    KS_CU(cuMemcpyDtoHAsync, host.data(), p, bytes, stream.get());
            }
            KS_CU(cuMemcpyDtoHAsync, &result, p, sizeof(float), stream.get());
            stream.synchronize();
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        };

        float piDevice = 0, piRoundTrip = 0;
        run(false, piDevice); // warm-up: module load, first-launch costs
        run(true, piRoundTrip);
        std::vector<double> deviceMs, roundTripMs;
        for (int r = 0; r < repeats; ++r) {
            deviceMs.push_back(run(false, piDevice));
            roundTripMs.push_back(run(true, piRoundTrip));
        }
        const double d = medianMs(deviceMs), rt = medianMs(roundTripMs);
        std::printf("pi estimate on %s, n = %d, 1 map + %d reduce launches, median of %d runs\n", device.name.c_str(),
                    n, steps, repeats);
        std::printf("  %-28s %10.3f ms   pi ~= %.7f\n", "data kept on the device", d, piDevice / n);
        std::printf("  %-28s %10.3f ms   pi ~= %.7f   (%d copies of %.1f MB)\n", "InOut round trip per launch", rt,
                    piRoundTrip / n, 2 * steps + 1, bytes / 1e6);
        std::printf("  round trip / device: %.1fx\n", rt / d);
        if (!json.empty()) {
            std::ofstream out(json);
            out << "{\"device\": \"" << device.name << "\", \"n\": " << n << ", \"reduceSteps\": " << steps
                << ", \"deviceMs\": " << d << ", \"roundTripMs\": " << rt << ", \"piDevice\": " << piDevice / n
                << ", \"piRoundTrip\": " << piRoundTrip / n << "}\n";
        }
        return piDevice == piRoundTrip ? 0 : 1;
    } catch (const ks::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
