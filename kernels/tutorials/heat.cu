// One explicit step of the 2-D heat equation (five-point stencil).
__global__ void heatStep(const float* u, float* unew, int nx, int ny, float alpha)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        unew[i] = u[i];
        return;
    }
    unew[i] = u[i] + alpha * 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - 4.0f * u[i]);
}
