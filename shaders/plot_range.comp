#version 450 core
// The range of a plot's values for "range": "auto": the smallest and largest finite value of
// `u_count` floats from float `u_first` of the bound buffer on (with `u_sign` 1 only the positive
// ones, with -1 only the negative ones: a log axis's). Each work group walks the values at
// a stride of the whole dispatch and writes its pair to `ranges[group]` (+inf, -inf when it saw no
// finite value); the renderer reads those pairs back and combines them.
// The group combines its threads' pairs with two shared atomics on order-preserving keys (two
// barriers, where a tree would take nine; barriers are what software GL pays most for).
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Data { uint words[]; };
layout(std430, binding = 1) writeonly buffer Ranges { vec2 ranges[]; };
uniform uint u_first;
uniform uint u_count;
uniform int u_sign;

shared uint s_lo, s_hi;

// A float's bits as an unsigned key in the float's order (negative values flipped entirely,
// positive ones with the sign bit set), and back.
uint orderedKey(uint bits)
{
    return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}
float fromKey(uint key)
{
    return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key);
}

void main()
{
    const uint posInf = 0x7f800000u, negInf = 0xff800000u;
    if (gl_LocalInvocationIndex == 0u) {
        s_lo = orderedKey(posInf);
        s_hi = orderedKey(negInf);
    }
    barrier();
    uint lo = orderedKey(posInf), hi = orderedKey(negInf);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_count; i += stride) {
        uint bits = words[u_first + i];
        // Finite: the exponent is not all ones (a bit test; isnan/isinf may be optimised away).
        // Of the sign asked for: its sign bit, and not zero.
        bool wanted = u_sign == 0 || ((bits & 0x7fffffffu) != 0u && ((bits >> 31) == 1u) == (u_sign < 0));
        if ((bits & 0x7f800000u) != 0x7f800000u && wanted) {
            uint key = orderedKey(bits);
            lo = min(lo, key);
            hi = max(hi, key);
        }
    }
    atomicMin(s_lo, lo);
    atomicMax(s_hi, hi);
    barrier();
    if (gl_LocalInvocationIndex == 0u)
        ranges[gl_WorkGroupID.x] = vec2(fromKey(s_lo), fromKey(s_hi));
}
