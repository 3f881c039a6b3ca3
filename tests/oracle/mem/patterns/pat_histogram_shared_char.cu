// byte histogram with a per-block privatised shared histogram, grid-stride over the bytes, bins flushed one per thread
// access bytes per thread: ld 1, st 4
#include "../harness.cuh"

__global__ void pat_histogram_shared_char(const unsigned char* data, long long n, unsigned int* block_hist) {
  __shared__ unsigned int bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
  __syncthreads();
  block_hist[blockIdx.x * 256 + threadIdx.x] = bins[threadIdx.x];
}

void launch_pat_histogram_shared_char(const Buffers& B) {
  pat_histogram_shared_char<<<1024, 256>>>(reinterpret_cast<const unsigned char*>(B.c_in), 8LL * kN,
                                           reinterpret_cast<unsigned int*>(B.f_out));
}
