#include "ks/io/npy.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ks::io {

std::string npyHeader(const std::string& descr, const std::vector<std::int64_t>& shape)
{
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i)
        dict += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
    dict += "), }";
    // magic (6) + version (2) + header length (2) + dict + padding + '\n' = multiple of 64.
    const std::size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(dict.size() & 0xFF);
    out += char((dict.size() >> 8) & 0xFF);
    return out + dict;
}

void writeNpy(const std::filesystem::path& path, const std::string& descr, const std::vector<std::int64_t>& shape,
              const void* data, std::size_t bytes)
{
    const std::string header = npyHeader(descr, shape);
    paths::writeFileAtomically(path, {header, std::string_view(static_cast<const char*>(data), bytes)});
}

} // namespace ks::io
