// checks: __cluster_map_shared_rank (distributed shared memory, sm_90)
// feature: __cluster_map_shared_rank
__global__ void k(int* out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;
  int* remote = static_cast<int*>(__cluster_map_shared_rank(s, 0));
  out[threadIdx.x] = remote[threadIdx.x % 32];
}
