#include <cuda_fp16.h>
auto s = R"cu(raw
)x" still raw
)cu"; /* open
still */ int x = 0x1Fp+2f; // end \
continued
"string \
continues" __global__ void k(float4* __restrict__ p) { atomicAdd(&p[threadIdx.x].x, 1.5e-3f); }
