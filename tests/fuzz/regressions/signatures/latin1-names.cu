__global__ void k(float* grüß, int n) {}
__global__ void grüß(float* p) {}
