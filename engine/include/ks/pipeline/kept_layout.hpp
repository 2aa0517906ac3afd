#pragma once
// Where each kept resource lies in a slot of kept contents (ks/pipeline/kept_contents.hpp). Plain
// data, without CUDA or GL, so that the supervision protocol can carry it as it is.

#include <cstdint>
#include <string>
#include <vector>

namespace ks::pipeline {

struct KeptEntry {
    std::string name;
    std::uint64_t offset = 0, bytes = 0;
};

struct KeptLayout {
    std::uint64_t slotBytes = 0; // each of the two slots, header included (0: nothing kept)
    std::vector<KeptEntry> entries;
    std::uint64_t contentBytes() const
    {
        std::uint64_t total = 0;
        for (const KeptEntry& e : entries)
            total += e.bytes;
        return total;
    }
};

} // namespace ks::pipeline
