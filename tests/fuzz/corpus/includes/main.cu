#include "a.cuh"
#include <cuda_fp16.h>
# include "deeper/c.cuh" // comment
#include MACRO_NAME
/* #include "no.cuh" */
#include "/dev/zero"
#include "../inc"
__global__ void k() {}
