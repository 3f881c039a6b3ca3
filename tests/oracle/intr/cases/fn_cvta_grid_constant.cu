// checks: __isGlobal/__cvta_generic_to_shared/__isGridConstant (sm_70)
// feature: __isGlobal
// feature: __cvta_generic_to_shared
// feature: __isGridConstant
struct P { int v[4]; };
__global__ void k(const __grid_constant__ P p, int* out) {
  __shared__ int s;
  out[0] = __isGlobal(out) + (int)__cvta_generic_to_shared(&s) + __isGridConstant(&p);
}
