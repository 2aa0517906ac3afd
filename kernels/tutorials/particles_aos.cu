// Particles as an array of structs, the way many tutorials keep them, with the step's settings
// passed as one struct by value. Kernelscope lays both out from the definitions below: the
// particles become a buffer of raw bytes (one row of sizeof(Particle) per particle) and the
// settings a struct whose members are set by name (--arg step='{"dt": 0.01, "gravity": [0, -9.8, 0]}').
struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    int bounces;
};

struct StepSettings {
    float dt;
    float3 gravity;
    float floor;     // the height the particles bounce off
    float restitution;
};

__global__ void stepParticles(Particle* particles, int n, StepSettings step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Particle p = particles[i];
    p.vel.x += step.gravity.x * step.dt;
    p.vel.y += step.gravity.y * step.dt;
    p.vel.z += step.gravity.z * step.dt;
    p.pos.x += p.vel.x * step.dt;
    p.pos.y += p.vel.y * step.dt;
    p.pos.z += p.vel.z * step.dt;
    if (p.pos.y < step.floor) {
        p.pos.y = step.floor;
        p.vel.y = -p.vel.y * step.restitution;
        p.bounces += 1;
    }
    p.mass = p.mass + 1.0f; // counts the steps this particle has taken
    particles[i] = p;
}
