#pragma once
// A project resource's contents on the host, as an array of T (through GL; not while mapped).

#include "ks/scene/session.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace ks::test {

template <class T>
std::vector<T> download(const ks::scene::Session& s, const std::string& name)
{
    const auto bytes = s.pipeline().resources().download(name);
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

} // namespace ks::test
