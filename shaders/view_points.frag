#version 450 core
// Round points.
in vec4 v_color;
out vec4 o_color;

void main()
{
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    if (dot(d, d) > 1.0)
        discard;
    o_color = vec4(v_color.rgb, 1.0);
}
