// Element-wise complex products of double2 arrays.
__global__ void complexMul(const double2* a, const double2* b, double2* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = make_double2(a[i].x * b[i].x - a[i].y * b[i].y, a[i].x * b[i].y + a[i].y * b[i].x);
}
