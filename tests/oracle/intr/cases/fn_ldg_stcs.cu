// checks: cache-hint loads/stores __ldg/__ldcg/__ldcs/__stcg/__stwt
// feature: __ldg
// feature: __ldcg
// feature: __ldcs
// feature: __ldlu
// feature: __stcg
// feature: __stwt
__global__ void k(const float* g, float* o) {
  float v = __ldg(g) + __ldcg(g + 1) + __ldcs(g + 2) + __ldlu(g + 3);
  __stcg(o, v); __stwt(o + 1, v);
}
