// row softmax, one block per row: threads stride the row by blockDim.x, max and sum reduced in shared memory
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_softmax_block_row(const float* logits, float* probs, int cols) {
  __shared__ float red[256];
  const float* in = logits + (long long)blockIdx.x * cols;
  float* out = probs + (long long)blockIdx.x * cols;
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(in[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = __expf(in[c] - m) * inv;
}

void launch_pat_softmax_block_row(const Buffers& B) {
  const int rows = 8192, cols = 1000;
  pat_softmax_block_row<<<rows, 256>>>(B.f_in, B.f_out, cols);
}
