// nearest-neighbour search, one tiled_partition<32> per query point: query coords broadcast, lanes scan SoA candidates, rank 0 writes
// access bytes per thread: ld 4, st 4
#include <cooperative_groups.h>
#include "../harness.cuh"
namespace cg = cooperative_groups;

__global__ void pat_pointcloud_tile_knn_warp(const float* qx, const float* qy, const float* qz, const float* cx,
                                             const float* cy, const float* cz, float* best_d2, int num_q, int num_c) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int q = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (q >= num_q) return;
  float px = qx[q], py = qy[q], pz = qz[q];
  float best = 3.4e38f;
  for (int j = tile.thread_rank(); j < num_c; j += tile.size()) {
    float dx = cx[j] - px, dy = cy[j] - py, dz = cz[j] - pz;
    best = fminf(best, dx * dx + dy * dy + dz * dz);
  }
  for (int o = tile.size() / 2; o > 0; o >>= 1) best = fminf(best, tile.shfl_down(best, o));
  if (tile.thread_rank() == 0) best_d2[q] = best;
}

void launch_pat_pointcloud_tile_knn_warp(const Buffers& B) {
  const int num_q = 16384, num_c = 1024;
  pat_pointcloud_tile_knn_warp<<<num_q / (kBlock / 32), kBlock>>>(B.f_in, B.f_in + kN, B.f_in + 2 * kN, B.f_in + 3 * kN,
                                                                  B.f_in + 4 * kN, B.f_in + 5 * kN, B.f_out, num_q, num_c);
}
