#version 450 core
// A points view: position i from a float2/3/4 buffer, its colour from a float4 or uchar4 buffer, a
// scalar through the colour map, or one colour.
layout(std430, binding = 0) readonly buffer Positions { float pos[]; };
layout(std430, binding = 1) readonly buffer Colors { uint col[]; };
uniform mat4 u_viewProjection;
uniform int u_components;    // of a position: 2, 3 or 4
uniform int u_colorMode;     // 0 uniform, 1 float4, 2 uchar4, 3 scalar through the colour map
uniform vec4 u_color;
uniform vec2 u_range;
uniform float u_scale;
uniform float u_pointSize;
uniform sampler2D u_colormap;
out vec4 v_color;

void main()
{
    int i = gl_VertexID;
    int c = u_components;
    vec3 p = vec3(pos[c * i], pos[c * i + 1], c > 2 ? pos[c * i + 2] : 0.0);
    gl_Position = u_viewProjection * vec4(p, 1.0);
    gl_PointSize = u_pointSize;
    if (u_colorMode == 1)
        v_color = vec4(uintBitsToFloat(col[4 * i]), uintBitsToFloat(col[4 * i + 1]), uintBitsToFloat(col[4 * i + 2]),
                       uintBitsToFloat(col[4 * i + 3]));
    else if (u_colorMode == 2)
        v_color = unpackUnorm4x8(col[i]);
    else if (u_colorMode == 3) {
        float v = uintBitsToFloat(col[i]) * u_scale;
        float t = u_range.y == u_range.x ? 0.5 : clamp((v - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
        v_color = vec4(texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb, 1.0);
    } else
        v_color = u_color;
}
