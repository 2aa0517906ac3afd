#version 450 core
// Lambert shading with a fixed light, coloured by height through the colour map.
uniform sampler2D u_colormap;
in vec3 v_normal;
in float v_t;
out vec4 o_color;

void main()
{
    vec3 base = texture(u_colormap, vec2((v_t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
    vec3 light = normalize(vec3(0.4, 1.0, 0.3));
    float diffuse = max(dot(normalize(v_normal), light), 0.0);
    o_color = vec4(base * (0.25 + 0.75 * diffuse), 1.0);
}
