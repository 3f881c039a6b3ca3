// short linked-chain walk per element (union-find parent / hash-bucket chain): n = next[n] a few times, then read the payload
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_pointer_chase_short_chain(const int* next, const float* payload, float* out, int n, int hops) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int node = i;
  for (int h = 0; h < hops; ++h) node = next[node];
  out[i] = payload[node];
}

void launch_pat_pointer_chase_short_chain(const Buffers& B) {
  // next == identity: every chain stays at its start (the measured pattern is data-dependent)
  pat_pointer_chase_short_chain<<<grid_for(kN), kBlock>>>(B.idx_sorted, B.f_in, B.f_out, kN, 4);
}
