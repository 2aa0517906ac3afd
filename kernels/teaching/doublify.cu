// The PyCUDA tutorial's first kernel: double every entry of a 4x4 array, launched as ONE block of
// 4x4 threads. The index is built from threadIdx alone (the 4 is hard-wired), so it is only right
// for exactly that launch: try a block of 8x2 in the launch panel and watch the overlay.
extern "C" __global__ void doublify(float* a)
{
    int idx = threadIdx.x + threadIdx.y * 4;
    a[idx] *= 2;
}
