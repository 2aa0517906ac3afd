// The PyCUDA notebook's pi estimate: pi = integral over [0, 1] of 4 / (1 + x^2).
// pi_map evaluates the integrand at n points (the map); pi_reduce adds neighbours `stride` apart and
// is launched log2(n) times (20 steps for n = 10^6) with stride = 1, 2, 4, ...; the sum ends up in
// dest[0], and pi ~= dest[0] / n. Keeping dest on the device between the 20 launches is what makes
// this fast: copying it to the host and back each step costs far more than the additions.
extern "C" __global__ void pi_map(float* dest, int n)
{
    const int id = threadIdx.x + blockDim.x * blockIdx.x;
    const double x = 1.0 * id / n; // x goes from 0.0 to 1.0 in n steps
    if (id < n)
        dest[id] = 4.0 / (1.0 + x * x);
}

extern "C" __global__ void pi_reduce(float* dest, int stride, int n)
{
    const int id = threadIdx.x + blockDim.x * blockIdx.x;
    if (id % (2 * stride) == 0 && id + stride < n)
        dest[id] += dest[id + stride];
}
