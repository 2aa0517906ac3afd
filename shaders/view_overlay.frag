#version 450 core
// A teaching overlay (who wrote each element) blended over a plot view's strip: one texel per
// element, its alpha scaled by u_opacity. (Image views blend theirs in view_image.comp.)
uniform sampler2D u_image;
uniform float u_opacity;
in vec2 v_uv;
out vec4 o_color;

void main()
{
    vec4 c = texture(u_image, v_uv);
    o_color = vec4(c.rgb, c.a * u_opacity);
}
