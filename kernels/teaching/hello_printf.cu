// Hello from the device: printf in a kernel, the first CUDA program. Every thread writes its
// block's index into `out` (the plot); thread 0 of every block says where it is, and so does the
// thread of the last element. The Console shows each line with the frame and the stage that
// printed it.
//
// Things to see:
//   - the lines come in the order the blocks ran, which the GPU chooses, not by blockIdx: press
//     Ctrl+R (restart) and compare;
//   - 1000 elements in blocks of 128 need 8 blocks (ceil(1000 / 128)); the last one has 128 threads
//     but only 104 elements, so `if (i >= n) return;` sends 24 threads away;
//   - the stage runs once: edit a line (say, the text of a printf) and it runs again with the new
//     build, printing again.
extern "C" __global__ void hello_printf(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = float(blockIdx.x);
    if (threadIdx.x == 0)
        printf("hello from block %d of %d: thread %d of %d writes element %d\n", blockIdx.x, gridDim.x,
               threadIdx.x, blockDim.x, i);
    if (i == n - 1)
        printf("the last element, %d, is thread %d of block %d\n", i, threadIdx.x, blockIdx.x);
}
