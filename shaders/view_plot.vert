#version 450 core
// A plot of a 1-D float buffer: x from the index, y from the value in u_range, inside a margin.
// gl_InstanceID 1 draws the frame (a rectangle from gl_VertexID 0..4).
layout(std430, binding = 0) readonly buffer Values { float values[]; };
uniform int u_count;
uniform vec2 u_range;
uniform float u_scale;
uniform int u_frame; // 1: draw the frame instead of the data

void main()
{
    const float m = 0.9;
    if (u_frame == 1) {
        const vec2 corners[5] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1), vec2(-1, -1));
        gl_Position = vec4(corners[gl_VertexID] * m, 0.0, 1.0);
        return;
    }
    float x = u_count > 1 ? float(gl_VertexID) / float(u_count - 1) : 0.5;
    float v = values[gl_VertexID] * u_scale;
    float t = u_range.y == u_range.x ? 0.5 : (v - u_range.x) / (u_range.y - u_range.x);
    gl_Position = vec4((x * 2.0 - 1.0) * m, (clamp(t, -0.05, 1.05) * 2.0 - 1.0) * m, 0.0, 1.0);
}
