// SAXPY as NVIDIA's "Easy Introduction to CUDA C and C++" writes it: x is read, y updated in place.
__global__
void saxpy(int n, float a, float *x, float *y)
{
  int i = blockIdx.x*blockDim.x + threadIdx.x;
  if (i < n) y[i] = a*x[i] + y[i];
}
