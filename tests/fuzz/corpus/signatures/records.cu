// Structs by value and pointed to: laid out from these definitions (syntax::findRecordLayout).
struct Vec { float x, y, z; };
typedef struct { Vec p[2]; unsigned char tag; double w; } Pair;
struct __align__(16) Body {
    float4 pos;
    Vec vel;
    int id : 8; // a bit-field: refused
};
class Settings {
public:
    float dt = 0.1f;
    int steps[4];
    __device__ float twice() const { return 2 * dt; }
    static const int k = 3;
};
__global__ void records(Pair* pairs, Settings s, Vec v, const Body* bodies, int n) {}
