// The heat equation u_t = alpha * (u_xx + u_yy) on a grid with fixed (zero) borders, explicit
// steps: heat_step writes the next state, a copy stage makes it the current one.
extern "C" __global__ void heat_init(float* u, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const float dx = (x - 0.3f * width) / width, dy = (y - 0.4f * height) / height;
    const float ex = (x - 0.7f * width) / width, ey = (y - 0.65f * height) / height;
    float v = (dx * dx + dy * dy < 0.01f ? 1.0f : 0.0f) + (ex * ex + ey * ey < 0.004f ? 0.8f : 0.0f);
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
        v = 0.0f;
    u[y * width + x] = v;
}

extern "C" __global__ void heat_step(const float* u, float* next, int width, int height, float alpha)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        next[i] = 0.0f;
        return;
    }
    const float lap = u[i - 1] + u[i + 1] + u[i - width] + u[i + width] - 4.0f * u[i];
    next[i] = u[i] + alpha * lap;
}
