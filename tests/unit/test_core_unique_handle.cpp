// RAII types are move-only, moves are noexcept, and a moved-from object is empty.
#include "ks/core/unique_handle.hpp"
#include "ks/cuda/context.hpp"
#include "ks/cuda/event.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/cuda/stream.hpp"
#include "ks/cuda/surface.hpp"
#include "ks/gl/egl_context.hpp"
#include "ks/gl/objects.hpp"
#include "ks/interop/graphics_resource.hpp"

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace {

template <class T>
constexpr bool kMoveOnly = !std::is_copy_constructible_v<T> && !std::is_copy_assignable_v<T> &&
                           std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>;

static_assert(kMoveOnly<ks::cuda::PrimaryContext>);
static_assert(kMoveOnly<ks::cuda::Stream>);
static_assert(kMoveOnly<ks::cuda::Event>);
static_assert(kMoveOnly<ks::cuda::DeviceMemory>);
static_assert(kMoveOnly<ks::cuda::PinnedHostMemory>);
static_assert(kMoveOnly<ks::cuda::Module>);
static_assert(kMoveOnly<ks::cuda::Function>);
static_assert(kMoveOnly<ks::interop::GraphicsResource>);
static_assert(kMoveOnly<ks::interop::ScopedMap>);
static_assert(kMoveOnly<ks::cuda::SurfaceObject>);
static_assert(kMoveOnly<ks::cuda::TextureObject>);
static_assert(kMoveOnly<ks::gl::Buffer>);
static_assert(kMoveOnly<ks::gl::Texture2D>);
static_assert(kMoveOnly<ks::gl::ShaderProgram>);
static_assert(kMoveOnly<ks::gl::Framebuffer>);
static_assert(kMoveOnly<ks::gl::VertexArray>);
static_assert(kMoveOnly<ks::gl::EglContext>);

// A handle type whose destroys are counted, to watch UniqueHandle's ownership transfer.
struct CountingTraits {
    using Handle = int;
    static constexpr Handle empty() { return 0; }
    static void destroy(Handle h) noexcept { destroyed().push_back(h); }
    static std::vector<int>& destroyed()
    {
        static std::vector<int> d;
        return d;
    }
};
using Counted = ks::UniqueHandle<CountingTraits>;
static_assert(kMoveOnly<Counted>);

TEST(UniqueHandle, DestroysExactlyOnceAndMovedFromIsEmpty)
{
    CountingTraits::destroyed().clear();
    {
        Counted a(7);
        Counted b(std::move(a));
        EXPECT_TRUE(a.empty());
        EXPECT_EQ(a.get(), 0);
        EXPECT_EQ(b.get(), 7);
        Counted c(9);
        c = std::move(b); // destroys 9, takes 7
        EXPECT_TRUE(b.empty());
        ASSERT_EQ(CountingTraits::destroyed(), std::vector<int>{9});
    }
    EXPECT_EQ(CountingTraits::destroyed(), (std::vector<int>{9, 7}));
}

TEST(UniqueHandle, ReleaseGivesUpOwnership)
{
    CountingTraits::destroyed().clear();
    {
        Counted a(3);
        EXPECT_EQ(a.release(), 3);
        EXPECT_TRUE(a.empty());
    }
    EXPECT_TRUE(CountingTraits::destroyed().empty());
}

TEST(UniqueHandle, SelfMoveKeepsTheHandle)
{
    CountingTraits::destroyed().clear();
    Counted a(5);
    Counted& alias = a;
    a = std::move(alias);
    EXPECT_EQ(a.get(), 5);
    EXPECT_TRUE(CountingTraits::destroyed().empty());
}

TEST(RaiiTypes, DefaultConstructedAreEmptyAndDestroyWithoutADriver)
{
    // None of these may touch the driver or GL when empty: this runs with no GPU and no context.
    ks::cuda::PrimaryContext ctx;
    ks::cuda::Stream stream;
    ks::cuda::Event event;
    ks::cuda::DeviceMemory mem;
    ks::cuda::Module module;
    ks::cuda::Function fn;
    ks::interop::GraphicsResource res;
    ks::cuda::SurfaceObject surf;
    ks::gl::Buffer buf;
    ks::gl::Texture2D tex;
    ks::gl::Framebuffer fbo;
    EXPECT_TRUE(ctx.empty() && stream.empty() && event.empty() && mem.empty() && module.empty() && fn.empty() &&
                res.empty() && surf.empty() && buf.empty() && tex.empty() && fbo.empty());
    ks::cuda::Stream moved(std::move(stream));
    EXPECT_TRUE(moved.empty() && stream.empty());
}

} // namespace
