// A particle system: the project fills positions and velocities once with random stages (cuRAND's
// Philox, seeded by the run's seed), then every frame this kernel integrates (semi-implicit Euler
// under gravity with a bouncy floor and walls) and two reduce stages give the bounding box.
extern "C" __global__ void particles_step(float4* pos, float4* vel, float* speed, int n, float dt, float gravity,
                                          float bounce)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = pos[i], v = vel[i];
    v.y -= gravity * dt;
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    if (p.y < -1.0f) { p.y = -1.0f; v.y = -v.y * bounce; }
    if (p.x < -1.0f || p.x > 1.0f) { p.x = fminf(fmaxf(p.x, -1.0f), 1.0f); v.x = -v.x * bounce; }
    if (p.z < -1.0f || p.z > 1.0f) { p.z = fminf(fmaxf(p.z, -1.0f), 1.0f); v.z = -v.z * bounce; }
    pos[i] = p;
    vel[i] = v;
    speed[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}
