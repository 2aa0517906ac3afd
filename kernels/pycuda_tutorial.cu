// The PyCUDA tutorial's kernels (https://documen.tician.de/pycuda/tutorial.html), unchanged but
// for extern "C", plus a deterministic fill that stands in for numpy.random.randn.

// Doubles a 4x4 block in place: launched with block (4, 4, 1).
extern "C" __global__ void doublify(float* a)
{
    int idx = threadIdx.x + threadIdx.y * 4;
    a[idx] *= 2;
}

// dest = a * b, one thread per element: launched with block (400, 1, 1).
extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b)
{
    const int i = threadIdx.x;
    dest[i] = a[i] * b[i];
}

// Values in [-1, 1) from a hash of (index, seed, salt): reproducible, never all zeros.
extern "C" __global__ void fill_hash(float* out, int n, unsigned seed, unsigned salt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned h = (unsigned)i * 0x9E3779B9u ^ (seed * 0x85EBCA6Bu) ^ (salt * 0xC2B2AE35u);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    out[i] = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
