#version 450 core
// The viewport's background: a dim checkerboard, so the image's edges are always visible.
in vec2 v_uv;
out vec4 o_color;

void main()
{
    ivec2 cell = ivec2(gl_FragCoord.xy) / 16;
    float v = ((cell.x + cell.y) & 1) == 0 ? 0.11 : 0.14;
    o_color = vec4(v, v, v + 0.01, 1.0);
}
