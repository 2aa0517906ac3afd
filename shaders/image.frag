#version 450 core
// Shows a texture written by CUDA. Row 0 of the CUDA image is its top row.
uniform sampler2D u_image;
in vec2 v_uv;
out vec4 o_color;

void main()
{
    o_color = vec4(texture(u_image, v_uv).rgb, 1.0);
}
