// A kernel with C++ linkage inside a namespace.
namespace kernels {
__global__ void square(double* out, const double* in, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = in[i] * in[i];
}
} // namespace kernels
