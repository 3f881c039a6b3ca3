// checks: inline PTX clusterlaunchcontrol.try_cancel (sm_100)
// feature: clusterlaunchcontrol
__global__ void k() {
  __shared__ alignas(16) unsigned long long resp[2];
  __shared__ unsigned long long bar;
  unsigned ra = (unsigned)__cvta_generic_to_shared(resp), ba = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];" :: "r"(ra), "r"(ba) : "memory");
}
