#version 450 core
// An image view: a texture, or a 2-D buffer (row 0 at the top) shown directly (float4, uchar4) or
// through a colour map (float). The buffer is read as 32-bit words from a storage buffer.
layout(std430, binding = 0) readonly buffer Data { uint words[]; };
uniform sampler2D u_image;    // mode 0
uniform sampler2D u_colormap; // 256 x 1
uniform int u_mode;           // 0 texture, 1 float through the colour map, 2 float4, 3 uchar4, 4 overlay
uniform float u_opacity;      // mode 4: the overlay's alpha is scaled by this
uniform ivec2 u_size;         // buffer: columns, rows
uniform vec2 u_range;
uniform float u_scale;
in vec2 v_uv;
out vec4 o_color;

void main()
{
    if (u_mode == 0) {
        o_color = vec4(texture(u_image, v_uv).rgb, 1.0);
        return;
    }
    if (u_mode == 4) {
        vec4 c = texture(u_image, v_uv);
        o_color = vec4(c.rgb, c.a * u_opacity);
        return;
    }
    ivec2 p = clamp(ivec2(v_uv * vec2(u_size)), ivec2(0), u_size - 1);
    int i = p.y * u_size.x + p.x;
    if (u_mode == 1) {
        float v = uintBitsToFloat(words[i]) * u_scale;
        float t = u_range.y == u_range.x ? 0.5 : clamp((v - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
        o_color = vec4(texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb, 1.0);
    } else if (u_mode == 2) {
        vec4 c = vec4(uintBitsToFloat(words[4 * i]), uintBitsToFloat(words[4 * i + 1]), uintBitsToFloat(words[4 * i + 2]),
                      uintBitsToFloat(words[4 * i + 3]));
        o_color = vec4(clamp(c.rgb * u_scale, 0.0, 1.0), 1.0);
    } else {
        o_color = vec4(unpackUnorm4x8(words[i]).rgb, 1.0);
    }
}
