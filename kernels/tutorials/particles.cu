// float4 particles: positions advanced by their velocities each frame.
__global__ void integrate(float4* pos, const float4* vel, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i];
    float4 v = vel[i];
    p.x += (v.x - 0.5f) * dt;
    p.y += (v.y - 0.5f) * dt;
    p.z += (v.z - 0.5f) * dt;
    pos[i] = p;
}
