// A struct passed by value: not something Kernelscope can fill from a signature.
struct Params {
    float gain;
    int offset;
};

__global__ void withStruct(float* out, Params p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p.gain * i + p.offset;
}
