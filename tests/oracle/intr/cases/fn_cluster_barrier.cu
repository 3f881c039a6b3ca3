// checks: __cluster_barrier_arrive/__cluster_barrier_wait (sm_90)
// feature: __cluster_barrier_arrive
// feature: __cluster_barrier_wait
__global__ void k() {
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
}
