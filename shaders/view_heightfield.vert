#version 450 core
// A height field: vertex (row, column) of a 2-D float buffer, on the x/z plane (x across columns
// from -1 to 1, z across rows keeping the aspect), lifted by value * u_scale; the normal from the
// neighbours' heights.
layout(std430, binding = 0) readonly buffer Heights { float h[]; };
uniform mat4 u_viewProjection;
uniform ivec2 u_size; // columns, rows
uniform float u_scale;
uniform vec2 u_range;
out vec3 v_normal;
out float v_t;

float heightAt(int c, int r)
{
    c = clamp(c, 0, u_size.x - 1);
    r = clamp(r, 0, u_size.y - 1);
    return h[r * u_size.x + c] * u_scale;
}

void main()
{
    int c = gl_VertexID % u_size.x;
    int r = gl_VertexID / u_size.x;
    float dx = 2.0 / float(max(u_size.x - 1, 1));
    float dz = dx;
    float x = -1.0 + float(c) * dx;
    float z = (-1.0 + 2.0 * float(r) / float(max(u_size.y - 1, 1))) * float(u_size.y) / float(u_size.x);
    float y = heightAt(c, r);
    float hx = heightAt(c + 1, r) - heightAt(c - 1, r);
    float hz = heightAt(c, r + 1) - heightAt(c, r - 1);
    v_normal = normalize(vec3(-hx / (2.0 * dx), 1.0, -hz / (2.0 * dz)));
    float raw = h[r * u_size.x + c];
    v_t = u_range.y == u_range.x ? 0.5 : clamp((raw - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
    gl_Position = u_viewProjection * vec4(x, y, z, 1.0);
}
