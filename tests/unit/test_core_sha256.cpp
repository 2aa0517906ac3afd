// SHA-256 against the FIPS 180-4 / NIST example digests, and incremental == one-shot.
#include "ks/core/sha256.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace {
std::string hexOf(std::string_view text)
{
    return ks::Sha256::hex(ks::Sha256::of(text));
}
} // namespace

TEST(Sha256, MatchesTheStandardExamples)
{
    EXPECT_EQ(hexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hexOf(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesInAnyChunkingGiveTheSameDigest)
{
    std::mt19937 rng(7);
    std::string text(5000, '\0');
    for (char& c : text)
        c = char(rng());
    const auto expected = ks::Sha256::of(text);
    for (std::size_t chunk : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 127u, 1000u}) {
        ks::Sha256 h;
        for (std::size_t i = 0; i < text.size(); i += chunk)
            h.update(std::string_view(text).substr(i, chunk));
        EXPECT_EQ(h.finish(), expected) << "chunk " << chunk;
    }
}

TEST(Sha256, FieldsAreLengthPrefixed)
{
    ks::Sha256 a, b;
    a.field("ab");
    a.field("c");
    b.field("a");
    b.field("bc");
    EXPECT_NE(a.finish(), b.finish());
}
