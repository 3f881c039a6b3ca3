// im2col for a 3x3 convolution with stride 2 and padding 1 (Caffe/PyTorch-style unfold): input read at w = 2*ow - 1 + kw
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_im2col_stride2(const float* img, float* cols, int channels, int H, int W, int stride, int pad,
                                   int OH, int OW) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= channels * OH * OW) return;
  int ow = t % OW, oh = (t / OW) % OH, c = t / (OW * OH);
  const float* plane = img + (long long)c * H * W;
  float* dst = cols + (long long)c * 9 * OH * OW + oh * OW + ow;
  for (int kh = 0; kh < 3; ++kh)
    for (int kw = 0; kw < 3; ++kw) {
      int h = oh * stride - pad + kh, w = ow * stride - pad + kw;
      float v = (h >= 0 && h < H && w >= 0 && w < W) ? plane[h * W + w] : 0.0f;
      dst[(kh * 3 + kw) * OH * OW] = v;
    }
}

void launch_pat_im2col_stride2(const Buffers& B) {
  const int C = 16, H = 256, W = 256, stride = 2, pad = 1, OH = 128, OW = 128;
  pat_im2col_stride2<<<grid_for(C * OH * OW), kBlock>>>(B.f_in, B.f_out, C, H, W, stride, pad, OH, OW);
}
