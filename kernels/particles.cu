// A particle system: random initial positions and velocities (cuRAND's Philox, seeded by the run's
// seed), then every frame semi-implicit Euler under gravity with a bouncy floor and walls, and the
// bounding box of all particles.
#include <curand_kernel.h>

extern "C" __global__ void particles_init(float4* pos, float4* vel, int n, unsigned seed)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandStatePhilox4_32_10_t rng;
    curand_init(seed, i, 0, &rng);
    const float4 u = curand_uniform4(&rng);
    const float4 g = curand_normal4(&rng);
    pos[i] = make_float4(u.x * 1.6f - 0.8f, u.y * 0.8f + 0.2f, u.z * 1.6f - 0.8f, 1.0f);
    vel[i] = make_float4(g.x * 0.3f, g.y * 0.3f + 1.0f, g.z * 0.3f, 0.0f);
}

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

// One block of 1024 threads: box[0] = min corner, box[1] = max corner (fixed order: deterministic).
extern "C" __global__ void __launch_bounds__(1024) bounding_box(const float4* pos, float4* box, int n)
{
    __shared__ float3 lo[1024], hi[1024];
    float3 a = make_float3(1e30f, 1e30f, 1e30f), b = make_float3(-1e30f, -1e30f, -1e30f);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float4 p = pos[i];
        a = make_float3(fminf(a.x, p.x), fminf(a.y, p.y), fminf(a.z, p.z));
        b = make_float3(fmaxf(b.x, p.x), fmaxf(b.y, p.y), fmaxf(b.z, p.z));
    }
    lo[threadIdx.x] = a;
    hi[threadIdx.x] = b;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            const float3 c = lo[threadIdx.x + s], d = hi[threadIdx.x + s];
            lo[threadIdx.x] = make_float3(fminf(lo[threadIdx.x].x, c.x), fminf(lo[threadIdx.x].y, c.y),
                                          fminf(lo[threadIdx.x].z, c.z));
            hi[threadIdx.x] = make_float3(fmaxf(hi[threadIdx.x].x, d.x), fmaxf(hi[threadIdx.x].y, d.y),
                                          fmaxf(hi[threadIdx.x].z, d.z));
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        box[0] = make_float4(lo[0].x, lo[0].y, lo[0].z, 0.0f);
        box[1] = make_float4(hi[0].x, hi[0].y, hi[0].z, 0.0f);
    }
}
