// ks::syntax::findRecordLayout: structs read from source are laid out as the host compiler lays
// out the same definitions (each struct below is both compiled here and read as text).

#include "ks/syntax/type_layout.hpp"

#include <vector_types.h>

#include <gtest/gtest.h>

#include <cstddef>

using namespace ks::syntax;

namespace {

#define KS_RECORDS(X)                                                                                                  \
    X(struct Particle {                                                                                                \
        float3 pos;                                                                                                    \
        float mass;                                                                                                    \
        float4 vel;                                                                                                    \
        int id;                                                                                                        \
    };)                                                                                                                \
    X(struct Params {                                                                                                  \
        char flag;                                                                                                     \
        double scale;                                                                                                  \
        short s, t[3];                                                                                                 \
        float* data;                                                                                                   \
        unsigned int n = 4;                                                                                            \
    };)                                                                                                                \
    X(typedef struct {                                                                                                 \
        Particle p[2];                                                                                                 \
        uchar4 color;                                                                                                  \
        float m[3][3];                                                                                                 \
    } Scene;)                                                                                                          \
    X(struct __align__(16) Aligned {                                                                                   \
        float x;                                                                                                       \
    };)                                                                                                                \
    X(struct WithMethods {                                                                                             \
        int a;                                                                                                         \
        int twice() const { return 2 * a; }                                                                            \
        static const int k = 3;                                                                                        \
                                                                                                                       \
    public:                                                                                                            \
        double b;                                                                                                      \
    };)

#define KS_DEFINE(...) __VA_ARGS__
KS_RECORDS(KS_DEFINE)

#define KS_TEXT(...) #__VA_ARGS__ "\n"
const char* const kSource = KS_RECORDS(KS_TEXT);

RecordLayout mustFind(const char* name)
{
    std::string why;
    auto r = findRecordLayout(kSource, name, &why);
    EXPECT_TRUE(r) << name << ": " << why;
    return r.value_or(RecordLayout{});
}

const RecordField* field(const RecordLayout& r, const std::string& name)
{
    for (const RecordField& f : r.fields)
        if (f.name == name)
            return &f;
    ADD_FAILURE() << "no field " << name << " in " << r.name;
    static const RecordField none;
    return &none;
}

} // namespace

TEST(RecordLayout, MatchesTheHostCompilersLayout)
{
    const RecordLayout particle = mustFind("Particle");
    EXPECT_EQ(particle.layout.size, sizeof(Particle));
    EXPECT_EQ(particle.layout.align, alignof(Particle));
    EXPECT_EQ(field(particle, "mass")->offset, offsetof(Particle, mass));
    EXPECT_EQ(field(particle, "vel")->offset, offsetof(Particle, vel));
    EXPECT_EQ(field(particle, "id")->offset, offsetof(Particle, id));
    EXPECT_EQ(field(particle, "vel")->type, "float4");

    const RecordLayout params = mustFind("struct Params");
    EXPECT_EQ(params.layout.size, sizeof(Params));
    EXPECT_EQ(field(params, "scale")->offset, offsetof(Params, scale));
    EXPECT_EQ(field(params, "t")->offset, offsetof(Params, t));
    EXPECT_EQ(field(params, "t")->count, 3u);
    EXPECT_EQ(field(params, "data")->offset, offsetof(Params, data));
    EXPECT_EQ(field(params, "data")->type, "float*");
    EXPECT_EQ(field(params, "n")->offset, offsetof(Params, n));

    const RecordLayout scene = mustFind("ns::Scene");
    EXPECT_EQ(scene.layout.size, sizeof(Scene));
    EXPECT_EQ(scene.layout.align, alignof(Scene));
    EXPECT_EQ(field(scene, "p[1].vel")->offset, offsetof(Scene, p) + sizeof(Particle) + offsetof(Particle, vel));
    EXPECT_EQ(field(scene, "color")->offset, offsetof(Scene, color));
    EXPECT_EQ(field(scene, "m")->count, 9u);
    EXPECT_EQ(field(scene, "m")->offset, offsetof(Scene, m));

    const RecordLayout aligned = mustFind("Aligned");
    EXPECT_EQ(aligned.layout.size, sizeof(Aligned));
    EXPECT_EQ(aligned.layout.align, alignof(Aligned));

    const RecordLayout methods = mustFind("WithMethods");
    ASSERT_EQ(methods.fields.size(), 2u);
    EXPECT_EQ(methods.layout.size, sizeof(WithMethods));
    EXPECT_EQ(field(methods, "b")->offset, offsetof(WithMethods, b));
}

TEST(RecordLayout, RefusesWhatItCannotLayOutAndSaysWhy)
{
    auto why = [](const char* source, const char* name) {
        std::string w;
        EXPECT_FALSE(findRecordLayout(source, name, &w)) << source;
        return w;
    };
    EXPECT_NE(why("struct A { int x : 3; };", "A").find("bit-field"), std::string::npos);
    EXPECT_NE(why("struct B : A { int y; };", "B").find("base class"), std::string::npos);
    EXPECT_NE(why("struct C { union { int i; float f; }; };", "C").find("union"), std::string::npos);
    EXPECT_NE(why("struct D { virtual void f(); int x; };", "D").find("virtual"), std::string::npos);
    EXPECT_NE(why("struct E { float v[N]; };", "E").find("not a number"), std::string::npos);
    EXPECT_NE(why("struct F { Unknown u; };", "F").find("Unknown"), std::string::npos);
    EXPECT_NE(why("struct G { alignas(8) int x; };", "G").find("alignment"), std::string::npos);
    EXPECT_NE(why("struct H { H h; };", "H").find("contains itself"), std::string::npos);
    // Only a definition counts; a declaration or a variable of the type is not one.
    EXPECT_NE(why("struct I; struct I i;", "I").find("no definition"), std::string::npos);
    // Comments and preprocessor lines are not read as members.
    std::string w;
    auto r = findRecordLayout("// struct J { double d; };\n#define X struct J { char c; };\nstruct J { int a; /* double b; */ };",
                              "J", &w);
    ASSERT_TRUE(r) << w;
    EXPECT_EQ(r->layout.size, 4u);
    EXPECT_EQ(r->line, 3);
}
