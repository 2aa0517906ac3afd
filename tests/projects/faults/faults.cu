// Kernels that go wrong on purpose, from the frame `faultFrame` on, for the fault suite
// (tests/interop/test_supervise_worker.cpp, bench/fault.cpp, docs/supervision.md). Before that frame
// each writes the same picture as `paint`, so the frames before the fault match a golden image.
// Every one has the signature of `paint` so a project swaps one for another by name.

__device__ inline void paintAt(float* out, int width, int height, int i)
{
    if (i < width * height)
        out[i] = float((i % width) + (i / width)) / float(width + height);
}

extern "C" __global__ void paint(float* out, int width, int height, int frame, int faultFrame, float param)
{
    paintAt(out, width, height, blockIdx.x * blockDim.x + threadIdx.x);
}

// An out-of-bounds global write, far enough past the buffer to leave every mapping (700).
extern "C" __global__ void oob_write(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        out[(size_t(1) << 36) + i] = 1.0f;
}

// An out-of-bounds global read (700).
extern "C" __global__ void oob_read(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5) {
        const volatile float* far = out + (size_t(1) << 36);
        out[i] = far[i];
    }
}

// A float store to an address that is not a multiple of 4 (716).
extern "C" __global__ void misaligned(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        *reinterpret_cast<volatile float*>(reinterpret_cast<char*>(out) + 1 + int(param)) = 1.0f;
}

// __trap(): the kernel stops with an illegal instruction (715).
extern "C" __global__ void trap(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        __trap();
}

// A failed device assert (710). NVRTC has no <cassert>; this is what the toolkit's assert calls.
extern "C" __device__ void __assertfail(const char* message, const char* file, unsigned line, const char* function,
                                        size_t charSize);
extern "C" __global__ void failed_assert(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        __assertfail("frame < faultFrame", __FILE__, __LINE__, "failed_assert", 1);
}

// Recursion past the stack: each level keeps 1 KiB of locals alive across the call.
__device__ float deep(volatile float* scratchOut, int depth)
{
    float local[256];
    for (int k = 0; k < 256; ++k)
        local[k] = scratchOut[k % 4] + float(depth + k);
    const float below = depth > 0 ? deep(scratchOut, depth - 1) : 0.0f;
    float sum = below;
    for (int k = 0; k < 256; ++k)
        sum += local[(k * 7 + depth) % 256];
    return sum;
}
extern "C" __global__ void recursion(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        out[i] = deep(out, 1 << 20);
}

// Never ends: waits for a value no one writes.
extern "C" __global__ void spin(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5) {
        volatile float* flag = out + i;
        while (*flag != -12345.0f) {
        }
    }
}

__device__ inline unsigned long long globalNanoseconds()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Slow but finite: thread 5 waits `param` seconds of wall time, then the frame ends normally.
extern "C" __global__ void slow(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5) {
        const unsigned long long start = globalNanoseconds();
        while (globalNanoseconds() - start < (unsigned long long)(param * 1e9f)) {
        }
    }
}

// A near overrun, the teaching case of "Find the fault": thread 5 writes 4 elements past the end of
// `out` from `faultFrame` on. It rarely faults (the memory past a buffer is usually mapped: project
// buffers share one GL buffer), so it is found by running the checked variant on purpose
// (tests/interop/test_supervise_find_fault.cpp runs `--checked-frame`), not after a fault.
extern "C" __global__ void oob_near(float* out, int width, int height, int frame, int faultFrame, float param)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    paintAt(out, width, height, i);
    if (frame >= faultFrame && i == 5)
        out[width * height + 4] = 1.0f;
}
