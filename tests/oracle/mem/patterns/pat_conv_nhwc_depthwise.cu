// depthwise 3x3 convolution on an NHWC tensor, one thread per output element with the channel fastest: in[((h*W)+w)*C + c]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_conv_nhwc_depthwise(const float* in, const float* wgt, float* out, int H, int W, int C) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= H * W * C) return;
  int c = t % C, w = (t / C) % W, h = t / (C * W);
  float acc = 0.0f;
  for (int kh = 0; kh < 3; ++kh)
    for (int kw = 0; kw < 3; ++kw) {
      int hh = h + kh - 1, ww = w + kw - 1;
      if (hh >= 0 && hh < H && ww >= 0 && ww < W) acc += in[(hh * W + ww) * C + c] * wgt[(kh * 3 + kw) * C + c];
    }
  out[(h * W + w) * C + c] = acc;
}

void launch_pat_conv_nhwc_depthwise(const Buffers& B) {
  const int H = 128, W = 128, C = 64;
  pat_conv_nhwc_depthwise<<<grid_for(H * W * C), kBlock>>>(B.f_in, B.f_in + 4 * kN, B.f_out, H, W, C);
}
