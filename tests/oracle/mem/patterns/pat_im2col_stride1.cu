// im2col for a 3x3 convolution with stride 1 and padding 1: neighbouring threads read neighbouring pixels, shifted by kw - 1
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_im2col_stride1(const float* img, float* cols, int channels, int H, int W, int pad) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int HW = H * W;
  if (t >= channels * HW) return;
  int x = t % W, y = (t / W) % H, c = t / HW;
  for (int kh = 0; kh < 3; ++kh)
    for (int kw = 0; kw < 3; ++kw) {
      int yy = y - pad + kh, xx = x - pad + kw;
      bool in = yy >= 0 && yy < H && xx >= 0 && xx < W;
      cols[((c * 3 + kh) * 3 + kw) * HW + y * W + x] = in ? img[c * HW + yy * W + xx] : 0.0f;
    }
}

void launch_pat_im2col_stride1(const Buffers& B) {
  const int C = 16, H = 128, W = 128, pad = 1;
  pat_im2col_stride1<<<grid_for(C * H * W), kBlock>>>(B.f_in, B.f_out, C, H, W, pad);
}
