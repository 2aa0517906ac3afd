// ReLU in place.
__global__ void relu(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = fmaxf(x[i], 0.0f);
}
