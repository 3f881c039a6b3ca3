// point-cloud transform on structure-of-arrays coordinates, index from cooperative groups block.thread_rank() on a 2-D block
// access bytes per thread: ld 4, st 4
#include <cooperative_groups.h>
#include "../harness.cuh"
namespace cg = cooperative_groups;

struct PcRigid { float r[9]; float t[3]; };  // passed by value

__global__ void pat_pointcloud_block_rank_soa(const float* xs, const float* ys, const float* zs, float* ox, float* oy,
                                              float* oz, int n, PcRigid T) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * block.size() + block.thread_rank();
  if (i >= n) return;
  float x = xs[i], y = ys[i], z = zs[i];
  ox[i] = T.r[0] * x + T.r[1] * y + T.r[2] * z + T.t[0];
  oy[i] = T.r[3] * x + T.r[4] * y + T.r[5] * z + T.t[1];
  oz[i] = T.r[6] * x + T.r[7] * y + T.r[8] * z + T.t[2];
}

void launch_pat_pointcloud_block_rank_soa(const Buffers& B) {
  PcRigid T{{0.f, -1.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f, 1.f}, {0.1f, 0.2f, 0.3f}};
  pat_pointcloud_block_rank_soa<<<kN / 256, dim3(32, 8)>>>(B.f_in, B.f_in + kN, B.f_in + 2 * kN, B.f_out, B.f_out + kN,
                                                           B.f_out + 2 * kN, kN, T);
}
