#version 450 core
// A plot of a 1-D float buffer inside a margin (the middle 90% of the target): element i across
// from u_xrange.x to u_xrange.y, its value (times u_scale) up from u_range.x to u_range.y; with
// u_logY 1, log10 of the value up from u_range.x to u_range.y (log10 of the frame's ends). What
// falls outside is clipped by the renderer's scissor. u_frame 1 draws the frame instead (a
// rectangle from gl_VertexID 0..4). Points (scatter plots) are u_pointSize pixels wide.
layout(std430, binding = 0) readonly buffer Values { float values[]; };
uniform vec2 u_xrange;
uniform vec2 u_range;
uniform float u_scale;
uniform float u_pointSize;
uniform int u_frame; // 1: draw the frame instead of the data
uniform int u_logY;

void main()
{
    const float m = 0.9;
    gl_PointSize = u_pointSize;
    if (u_frame == 1) {
        const vec2 corners[5] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1), vec2(-1, -1));
        gl_Position = vec4(corners[gl_VertexID] * m, 0.0, 1.0);
        return;
    }
    float span = u_xrange.y - u_xrange.x;
    float x = span > 0.0 ? (float(gl_VertexID) - u_xrange.x) / span : 0.5;
    float v = values[gl_VertexID] * u_scale;
    // A log axis has no place for zero and below: such a value is held below the frame with the
    // values far under it (as log10 0 would be), never at a NaN position.
    bool below = u_logY == 1 && v <= 0.0;
    if (u_logY == 1 && !below)
        v = log2(v) * 0.30102999566398120; // log10(2)
    float t = below ? -4.0 : u_range.y == u_range.x ? 0.5 : (v - u_range.x) / (u_range.y - u_range.x);
    // Far outside values are held just outside the frame, so lines to them keep their direction
    // near it and floats do not overflow.
    gl_Position = vec4((x * 2.0 - 1.0) * m, (clamp(t, -4.0, 5.0) * 2.0 - 1.0) * m, 0.0, 1.0);
}
