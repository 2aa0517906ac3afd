#version 450 core
// A quad covering the rectangle `u_rect` (x0, y0, x1, y1 in normalised device coordinates),
// made from gl_VertexID alone: no vertex buffer needed.
uniform vec4 u_rect;
out vec2 v_uv;

void main()
{
    const vec2 corners[4] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 1.0));
    vec2 c = corners[gl_VertexID];
    v_uv = vec2(c.x, 1.0 - c.y); // texture row 0 is the image's top row
    gl_Position = vec4(mix(u_rect.xy, u_rect.zw, c), 0.0, 1.0);
}
