#include "ks/render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace ks::render {

glm::vec3 OrbitCamera::eye() const
{
    const float y = glm::radians(yaw), p = glm::radians(pitch);
    return target + distance * glm::vec3(std::cos(p) * std::sin(y), std::sin(p), std::cos(p) * std::cos(y));
}

glm::mat4 OrbitCamera::view() const
{
    return glm::lookAt(eye(), target, glm::vec3(0, 1, 0));
}

glm::mat4 OrbitCamera::projection(float aspect) const
{
    return glm::perspective(glm::radians(fov), aspect > 0 ? aspect : 1.f, std::max(1e-3f, distance * 0.01f),
                            distance * 100.f);
}

void OrbitCamera::orbit(float dx, float dy)
{
    yaw -= dx * 0.3f;
    pitch = std::clamp(pitch + dy * 0.3f, -89.f, 89.f);
}

void OrbitCamera::pan(float dx, float dy, float height)
{
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    const float unitsPerPixel = 2.f * distance * std::tan(glm::radians(fov) * 0.5f) / std::max(1.f, height);
    target += (-dx * right + dy * up) * unitsPerPixel;
}

void OrbitCamera::zoom(float steps)
{
    distance = std::clamp(distance * std::pow(0.9f, steps), 1e-3f, 1e6f);
}

} // namespace ks::render
