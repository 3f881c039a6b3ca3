// checks: inline PTX barrier.cluster.arrive/wait (sm_90)
// feature: barrier.cluster
__global__ void k() {
  asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}
