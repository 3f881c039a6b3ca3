// The lane algebra the coalescing analysis evaluates indices with (analyzer/frontends/cuda/lane_value.h):
// values per lane of a warp, runtime strides, and the sectors one warp-wide access touches.
#include "analyzer/frontends/cuda/lane_value.h"

#include <gtest/gtest.h>

namespace cudalint::cuda {
namespace {

LaneValue k(double c) { return LaneValue::constant(c); }
// blockIdx.x * blockDim.x + threadIdx.x
LaneValue gid() { return add(mul(LaneValue::uniform("blockIdx.x"), LaneValue::uniform("blockDim.x", true)), LaneValue::lane()); }
// An element index as a byte address.
LaneValue bytes(const LaneValue& index, double element) { return mul(index, k(element)); }

TEST(LaneValue, WarpIndexIsUniformAndLaneIndexWraps) {
  LaneValue w = div(gid(), k(32), true);
  EXPECT_TRUE(w.is_uniform());
  LaneValue lane = bit_and(gid(), k(31));
  ASSERT_TRUE(lane.lanes_known);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(lane.v[l], l);
  EXPECT_FALSE(lane.c_unknown);  // the warp starts at a multiple of 32
}

TEST(LaneValue, GroupsOfLanesFromDivisionAndRemainder) {
  // (t / 4) * 8 + t % 4: groups of 4 adjacent floats, 32 bytes apart.
  LaneValue idx = add(mul(div(gid(), k(4), true), k(8)), rem(gid(), k(4)));
  Footprint f = footprint(bytes(idx, 4), 4);
  EXPECT_EQ(f.sectors, 8);
  EXPECT_EQ(f.group, 4u);
  ASSERT_TRUE(f.stride.has_value());
  EXPECT_EQ(*f.stride, 32);
  // (t / 4) * 4 + t % 4 is t itself: unit stride.
  Footprint unit = footprint(bytes(add(mul(div(gid(), k(4), true), k(4)), rem(gid(), k(4))), 4), 4);
  EXPECT_EQ(unit.sectors, 4);
  EXPECT_EQ(unit.group, 1u);
  EXPECT_EQ(unit.stride, 4);
}

TEST(LaneValue, ConstantStridesCountSectors) {
  EXPECT_EQ(footprint(bytes(mul(gid(), k(2)), 4), 4).sectors, 8);
  EXPECT_EQ(footprint(bytes(mul(gid(), k(8)), 4), 4).sectors, 32);
  EXPECT_EQ(footprint(bytes(gid(), 16), 16).sectors, 16);   // float4, unit stride: ideal
  EXPECT_EQ(footprint(bytes(add(gid(), k(1)), 4), 4).sectors, 5);  // one element off: one more sector
  EXPECT_EQ(footprint(bytes(neg(gid()), 4), 4).stride, -4);
}

TEST(LaneValue, RuntimeStrideIsASymbolNamedAsWritten) {
  LaneValue idx = mul(gid(), LaneValue::uniform("stride"));
  Footprint f = footprint(bytes(idx, 4), 4);
  EXPECT_EQ(f.symbol, "stride");
  EXPECT_EQ(f.symbol_step, 4);
  EXPECT_FALSE(f.symbol_certain);
  EXPECT_EQ(f.sectors, 32);  // taken as not degenerate: every lane in its own row
  EXPECT_FALSE(f.stride.has_value());
  // threadIdx.x * blockDim.x: at least a warp wide at any launch.
  Footprint b = footprint(bytes(mul(LaneValue::lane(), LaneValue::uniform("blockDim.x", true)), 4), 4);
  EXPECT_TRUE(b.symbol_certain);
  // (t / 4) * row + t % 4: rows `row` apart, 4 lanes in each.
  Footprint g = footprint(bytes(add(mul(div(gid(), k(4), true), LaneValue::uniform("row")), rem(gid(), k(4))), 2), 2);
  EXPECT_EQ(g.symbol, "row");
  EXPECT_EQ(g.group, 4u);
  EXPECT_EQ(g.sectors, 8);
  // A runtime value times a runtime value times the lane: no pattern.
  EXPECT_FALSE(mul(idx, LaneValue::uniform("w")).lanes_known);
}

TEST(LaneValue, LaneTimesLaneAndLoadsAreNotStrides) {
  EXPECT_FALSE(mul(gid(), gid()).lanes_known);
  LaneValue loaded = LaneValue::unknown();
  loaded.load = true;
  EXPECT_EQ(footprint(bytes(add(loaded, gid()), 4), 4).sectors, 0);
}

TEST(LaneValue, ActiveLanesLimitTheFootprint) {
  Footprint one = footprint(bytes(mul(gid(), k(16)), 4), 4, 1u);
  EXPECT_EQ(one.sectors, 1);
  Footprint two = footprint(bytes(mul(gid(), k(16)), 4), 4, 1u | 1u << 16);
  EXPECT_EQ(two.sectors, 2);
}

TEST(LaneValue, LoopCounterRangesScaleAndAdd) {
  LaneValue d = k(0);
  d.span = 2;  // for (int d = 0; d < 3; ++d)
  LaneValue idx = add(mul(gid(), k(3)), d);
  EXPECT_EQ(idx.span, 2);
  LaneValue b = bytes(idx, 8);
  EXPECT_EQ(b.span, 16);
  EXPECT_EQ(footprint(b, 8).stride, 24);
  // A lane times a counter is a runtime stride named for it; a counter divided is unknown.
  LaneValue kk = k(2);
  kk.span = 2;
  kk.name = "k";
  EXPECT_EQ(footprint(bytes(mul(gid(), kk), 4), 4).symbol, "k");
  EXPECT_TRUE(div(idx, k(2), true).c_unknown);
  EXPECT_FALSE(kk.known_constant());
}

TEST(LaneValue, NamesOfRuntimeMultiples) {
  EXPECT_EQ(multiple_of(1, "stride"), "stride");
  EXPECT_EQ(multiple_of(4, "row"), "4 * row");
  EXPECT_EQ(multiple_of(0.5, "w"), "0.5 * w");
}

}  // namespace
}  // namespace cudalint::cuda
