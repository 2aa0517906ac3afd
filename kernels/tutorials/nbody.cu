// All-pairs n-body (as the "Mini Nbody" tutorials write it): velocities from every other body.
__global__ void bodyForce(const float4 *p, float3 *v, float dt, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n) return;
    float Fx = 0.0f, Fy = 0.0f, Fz = 0.0f;
    for (int j = 0; j < n; j++) {
        float dx = p[j].x - p[i].x;
        float dy = p[j].y - p[i].y;
        float dz = p[j].z - p[i].z;
        float distSqr = dx*dx + dy*dy + dz*dz + 1e-9f;
        float invDist = rsqrtf(distSqr);
        float invDist3 = invDist * invDist * invDist;
        Fx += dx * invDist3; Fy += dy * invDist3; Fz += dz * invDist3;
    }
    v[i].x = dt*Fx; v[i].y = dt*Fy; v[i].z = dt*Fz;
}
