// batch-norm inference on NCHW: blockIdx.y picks the (n, c) plane, per-channel statistics read once per block (broadcast)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_batchnorm_plane_broadcast(const float* x, const float* mean, const float* inv_std, const float* gamma,
                                              const float* beta, float* y, int C, int HW) {
  int plane = blockIdx.y;
  int c = plane % C;
  float mu = mean[c], is = inv_std[c], ga = gamma[c], be = beta[c];
  const float* xp = x + (long long)plane * HW;
  float* yp = y + (long long)plane * HW;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < HW; i += blockDim.x * gridDim.x)
    yp[i] = (xp[i] - mu) * is * ga + be;
}

void launch_pat_batchnorm_plane_broadcast(const Buffers& B) {
  const int N = 8, C = 64, HW = 4096;
  const float* stats = B.f_in + 4 * kN;
  pat_batchnorm_plane_broadcast<<<dim3(4, N * C), kBlock>>>(B.f_in, stats, stats + C, stats + 2 * C, stats + 3 * C, B.f_out,
                                                            C, HW);
}
