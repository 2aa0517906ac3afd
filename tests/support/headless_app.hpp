#pragma once
// The whole app headless, for the gl tests that drive it: a HeadlessSession, or null with the reason
// where no headless GL context can be made (the test then calls GTEST_SKIP() with it).

#include "app.hpp"
#include "ks/core/error.hpp"
#include "cli/options.hpp"
#include "platform/platforms.hpp"

#include <memory>
#include <string>

namespace ks::test {

inline std::unique_ptr<app::HeadlessSession> openHeadlessApp(const app::AppOptions& options, std::string& whyNot)
{
    try {
        return std::make_unique<app::HeadlessSession>(options);
    } catch (const Error& e) {
        if (e.domain() != ErrorDomain::Egl)
            throw;
        whyNot = e.what();
        return nullptr;
    }
}

} // namespace ks::test
