// A template kernel: run it as scale_template.cu:scale<float> or scale<double>.
template <typename T>
__global__ void scale(T* data, T factor, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * factor;
}
