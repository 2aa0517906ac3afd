#pragma once
// The last good module of a live kernel file. A new build replaces it only when it compiled, its
// CUBIN (or PTX) loaded, and every kernel the caller needs is in it; otherwise the old module keeps
// running and lastFailure() says why. This is the engine half of hot swap: the app offers each
// finished build (CompileService::poll) at a frame boundary, on the thread that owns the CUDA
// context, and takes functions from module() after a swap (generation() changed).
//
// BasicLiveModule is a template over the module type so that the swap rules are unit-tested
// without a GPU; Kernelscope uses LiveModule (cuda::Module).

#include "ks/core/error.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/compiler.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ks::rtc {

// ModuleT: move-assignable, constructible from a const void* image (which it loads; throws
// ks::Error on failure), with bool hasFunction(const std::string&) const.
template <class ModuleT>
class BasicLiveModule {
public:
    struct Outcome {
        bool swapped = false;
        std::string failure; // why not, when !swapped
    };

    // Offers a finished build. Returns whether it was swapped in. Never throws for a bad build or
    // a failed load (those are the Outcome); the old module stays untouched.
    Outcome offer(std::shared_ptr<const CompileResult> build, const std::vector<std::string>& requiredKernels = {})
    {
        Outcome o;
        if (!build)
            o.failure = "no build";
        else if (!build->ok)
            o.failure = firstError(*build);
        else if (build->cubin.empty() && build->ptx.empty())
            o.failure = "the build has neither CUBIN nor PTX";
        if (!o.failure.empty())
            return fail(std::move(o));
        ModuleT loaded;
        try {
            loaded = build->cubin.empty() ? ModuleT(static_cast<const void*>(build->ptx.c_str()))
                                          : ModuleT(static_cast<const void*>(build->cubin.data()));
            for (const std::string& name : requiredKernels)
                if (!loaded.hasFunction(name)) {
                    o.failure = "the new build has no kernel '" + name + "'";
                    return fail(std::move(o));
                }
        } catch (const std::exception& e) {
            o.failure = std::string("the new build could not be loaded: ") + e.what();
            return fail(std::move(o));
        }
        m_module = std::move(loaded);
        m_build = std::move(build);
        ++m_generation;
        m_lastFailure.clear();
        o.swapped = true;
        return o;
    }

    bool hasModule() const noexcept { return m_generation > 0; }
    const ModuleT& module() const noexcept { return m_module; }
    // The build the current module came from (for its facts, PTX and diagnostics); null before
    // the first swap.
    const std::shared_ptr<const CompileResult>& build() const noexcept { return m_build; }
    // Counts swaps: functions taken from module() are stale once it changes.
    std::uint64_t generation() const noexcept { return m_generation; }
    // Why the latest offer was refused; empty when it was taken.
    const std::string& lastFailure() const noexcept { return m_lastFailure; }

private:
    static std::string firstError(const CompileResult& r)
    {
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error)
                return "the build failed: " + formatDiagnostic(d);
        return r.cancelled ? "the build was cancelled" : "the build failed";
    }
    Outcome fail(Outcome o)
    {
        m_lastFailure = o.failure;
        return o;
    }

    ModuleT m_module;
    std::shared_ptr<const CompileResult> m_build;
    std::uint64_t m_generation = 0;
    std::string m_lastFailure;
};

using LiveModule = BasicLiveModule<cuda::Module>;

} // namespace ks::rtc
