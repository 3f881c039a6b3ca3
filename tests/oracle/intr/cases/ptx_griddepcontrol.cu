// checks: inline PTX griddepcontrol.wait/launch_dependents (programmatic dependent launch, sm_90)
// feature: griddepcontrol
__global__ void k(int* p) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  p[threadIdx.x] += 1;
  asm volatile("griddepcontrol.launch_dependents;");
}
