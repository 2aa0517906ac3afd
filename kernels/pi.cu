// pi as the integral of 4 / (1 + x^2) over [0, 1], by the midpoint rule: a map kernel writes one
// term per element, then a reduction sums them.

extern "C" __global__ void pi_terms(float* terms, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double x = (i + 0.5) / n;
    terms[i] = (float)(4.0 / (1.0 + x * x) / n);
}

// One block of 1024 threads sums `n` floats in double precision into out[0]. A single block and a
// fixed order make the result bit-identical from run to run.
extern "C" __global__ void __launch_bounds__(1024) sum_reduce(const float* in, double* out, int n)
{
    __shared__ double partial[1024];
    double s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += in[i];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = partial[0];
}
