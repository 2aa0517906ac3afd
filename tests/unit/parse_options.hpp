#pragma once
// The app's command line parsed from a list of arguments (argv[1..]), for the tests of its flags.
#include "cli/options.hpp"

#include <string>
#include <vector>

namespace ks::test {

inline ks::app::ParseOutcome parseOptions(std::vector<std::string> args)
{
    args.insert(args.begin(), "kernelscope");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    return ks::app::parseOptions(int(argv.size()), argv.data());
}

} // namespace ks::test
