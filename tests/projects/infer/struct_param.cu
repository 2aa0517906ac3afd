// Structs Kernelscope cannot lay out from the source: the message names the parameter and offers
// raw bytes.
struct Params {
    float gain;
    int offset : 8;
};

__global__ void withStruct(float* out, Params p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p.gain * i + p.offset;
}
