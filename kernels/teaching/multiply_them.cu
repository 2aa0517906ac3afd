// PyCUDA's hello_gpu: dest = a * b elementwise, launched as one block of 400 threads. 400 is not a
// multiple of 32, so the last of the 13 warps has only 16 active lanes (see the warp overlay).
extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b)
{
    const int i = threadIdx.x;
    dest[i] = a[i] * b[i];
}
