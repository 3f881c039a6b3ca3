// 2x2 max pooling with stride 2 on NCHW planes, one thread per output pixel: in[(2*oy+dy)*W + 2*ox+dx]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_maxpool2x2_nchw(const float* in, float* out, int planes, int H, int W) {
  int OH = H / 2, OW = W / 2;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= planes * OH * OW) return;
  int ox = t % OW, oy = (t / OW) % OH, p = t / (OW * OH);
  const float* src = in + (long long)p * H * W + (2 * oy) * W + 2 * ox;
  out[t] = fmaxf(fmaxf(src[0], src[1]), fmaxf(src[W], src[W + 1]));
}

void launch_pat_maxpool2x2_nchw(const Buffers& B) {
  const int planes = 64, H = 256, W = 256;
  pat_maxpool2x2_nchw<<<grid_for(planes * (H / 2) * (W / 2)), kBlock>>>(B.f_in, B.f_out, planes, H, W);
}
