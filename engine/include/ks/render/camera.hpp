#pragma once
// An orbit camera for 3-D views: it looks at `target` from `distance`, turned by `yaw` around the
// up axis (+y) and tilted by `pitch` (degrees). The mouse orbits (yaw/pitch), pans (moves the target
// in the view plane) and zooms (scales the distance).

#include <glm/glm.hpp>

namespace ks::render {

struct OrbitCamera {
    glm::vec3 target{0.f};
    float distance = 3.f;
    float yaw = 30.f;   // degrees
    float pitch = 25.f; // degrees, clamped to (-89, 89)
    float fov = 45.f;   // vertical, degrees

    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    glm::mat4 viewProjection(float aspect) const { return projection(aspect) * view(); }

    // Mouse deltas in pixels of a view `height` pixels tall.
    void orbit(float dx, float dy);
    void pan(float dx, float dy, float height);
    void zoom(float wheelSteps); // positive: closer
};

} // namespace ks::render
