// pi as the integral of 4 / (1 + x^2) over [0, 1], by the midpoint rule: a map kernel writes one
// term per element; the project's reduce stage then sums them (in double, the type of "pi").

extern "C" __global__ void pi_terms(float* terms, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double x = (i + 0.5) / n;
    terms[i] = (float)(4.0 / (1.0 + x * x) / n);
}
