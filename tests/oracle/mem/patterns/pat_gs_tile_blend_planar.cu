// 3DGS forward rasterizer: a 16x16 pixel tile stages its Gaussians (ids from a sorted list) in shared memory, blends front to back, writes planar CHW colour
// access bytes per thread: ld 4, st 4
#include <cooperative_groups.h>
#include "../harness.cuh"
namespace cg = cooperative_groups;

constexpr int kGsTile = 16;
constexpr int kGsStage = kGsTile * kGsTile;

// Every tile gets a fixed run of per_tile Gaussians (the real rasterizer reads the run from a ranges buffer).
__global__ void pat_gs_tile_blend_planar(const int* point_list, const float* px, const float* py, const float* opac,
                                         const float* feat, int num_gauss, int per_tile, int W, int H, float* out_color) {
  cg::thread_block block = cg::this_thread_block();
  int tile = blockIdx.y * gridDim.x + blockIdx.x;
  int x = blockIdx.x * kGsTile + threadIdx.x, y = blockIdx.y * kGsTile + threadIdx.y;
  int begin = tile * per_tile, end = begin + per_tile;
  __shared__ float s_x[kGsStage], s_y[kGsStage], s_o[kGsStage], s_c[3][kGsStage];
  float T = 1.0f, C[3] = {0.0f, 0.0f, 0.0f};
  for (int base = begin; base < end; base += kGsStage) {
    int r = block.thread_rank();
    if (base + r < end) {
      int id = point_list[base + r];
      s_x[r] = px[id];
      s_y[r] = py[id];
      s_o[r] = opac[id];
      for (int ch = 0; ch < 3; ++ch) s_c[ch][r] = feat[ch * num_gauss + id];
    }
    block.sync();
    int cnt = min(kGsStage, end - base);
    for (int j = 0; j < cnt; ++j) {
      float ddx = s_x[j] - x, ddy = s_y[j] - y;
      float alpha = fminf(0.99f, s_o[j] * __expf(-0.05f * (ddx * ddx + ddy * ddy)));
      for (int ch = 0; ch < 3; ++ch) C[ch] += s_c[ch][j] * alpha * T;
      T *= 1.0f - alpha;
    }
    block.sync();
  }
  int pix = y * W + x;
  for (int ch = 0; ch < 3; ++ch) out_color[ch * H * W + pix] = C[ch] + T;
}

void launch_pat_gs_tile_blend_planar(const Buffers& B) {
  const int W = 512, H = 512, per_tile = 64;  // 1024 tiles * 64 ids < kN
  pat_gs_tile_blend_planar<<<dim3(W / kGsTile, H / kGsTile), dim3(kGsTile, kGsTile)>>>(
      B.idx_sorted, B.f_in, B.f_in + kN, B.f_in + 2 * kN, B.f_in + 3 * kN, kN, per_tile, W, H, B.f_out);
}
