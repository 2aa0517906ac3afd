// Test runner for the 'interop' label.
#include "test_support.hpp"

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    ks::test::isolateUserFolders(); // the whole app runs here: keep its recent projects out of the user's
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
