// The value of an integer expression across the 32 lanes of a warp, as the coalescing analysis
// (coalescing.cpp) evaluates index expressions: a lane-dependent part known lane by lane, a
// lane-dependent part that a runtime value multiplies (`t * stride`), and a lane-invariant part
// that is a known constant plus, possibly, an unknown value.
//
// Assumption, as for warps themselves: an unknown lane-invariant part added to a lane function
// is a multiple of 32 lanes' worth (`blockIdx.x * blockDim.x` with blockDim.x a multiple of 32),
// so `t / 4`, `t % 4` and `t / 32` are exact per lane.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace cudalint::cuda {

struct LaneValue {
  std::array<double, 32> v{};   // lane-dependent part, lane by lane
  std::array<double, 32> vs{};  // lane-dependent coefficients of `sym`
  std::string sym;              // the runtime value `vs` multiplies, as written
  bool sym_certain = false;     // `sym` is at least a warp wide at any launch (blockDim.x)
  bool lanes_known = true;      // false: the lanes' values follow no pattern the analysis knows
  double c = 0;                 // known lane-invariant part
  bool c_unknown = false;       // plus an unknown lane-invariant value
  double span = 0;              // the known part ranges over [c, c + span] (a loop counter)
  double span_step = 1;         // ... by steps of this much (`k += 2`)
  std::string name;             // a lane-invariant unknown value, as written (for `sym`)
  bool name_certain = false;    // `name` is at least a warp wide at any launch
  bool load = false;            // reads memory: data-dependent
  bool uses_y = false;          // involves threadIdx.y / blockIdx.y (a 2-D index)
  bool tid_yz = false;          // involves threadIdx.y / threadIdx.z (may vary within a warp)
  bool scaled = false;          // the lane part was multiplied
  // The smallest step by which a thread or block index other than threadIdx.x, or a loop
  // counter, moves the value, added linearly (`x * W + threadIdx.y`: 1): other warps or blocks,
  // or the thread's next iterations, then use the neighbouring addresses. 0 when none does, or
  // when the index went through a non-linear operation.
  double near = 0;
  std::string near_name;        // that index or counter, as written ("threadIdx.y", "k")

  static LaneValue constant(double c);
  static LaneValue lane();                                  // threadIdx.x
  static LaneValue uniform(std::string name = {}, bool certain = false);
  static LaneValue unknown();
  // Marks `index` as moving the value by `step`: an index other warps or blocks take other
  // values of (threadIdx.y, blockIdx.x), or a loop counter.
  LaneValue& neighbour(std::string index, double step = 1);
  // floor(lane / n) (n > 0) or lane % n: a tile's meta rank and thread rank.
  static LaneValue lane_div(int n);
  static LaneValue lane_mod(int n);

  bool varies() const;          // differs between lanes (known or not)
  bool is_uniform() const { return lanes_known && !varies() && !load && !tid_yz; }
  bool known_constant() const { return is_uniform() && !c_unknown && span == 0; }
};

LaneValue add(const LaneValue& a, const LaneValue& b);
LaneValue sub(const LaneValue& a, const LaneValue& b);
LaneValue mul(const LaneValue& a, const LaneValue& b);
LaneValue div(const LaneValue& a, const LaneValue& b, bool integer);
LaneValue rem(const LaneValue& a, const LaneValue& b);
LaneValue neg(const LaneValue& a);
LaneValue bit_and(const LaneValue& a, const LaneValue& b);
LaneValue shl(const LaneValue& a, const LaneValue& b);
LaneValue shr(const LaneValue& a, const LaneValue& b);

// What one warp-wide access of `width` bytes at byte addresses `addr` touches.
struct Footprint {
  double sectors = 0;                // 32-byte sectors (0: unknown); lanes a runtime stride
                                     // separates are taken to be a sector apart or more
  std::optional<int64_t> stride;     // bytes between adjacent lanes (or groups)
  uint32_t group = 1;                // adjacent lanes that read adjacent bytes
  std::string symbol;                // a runtime value the stride is a multiple of, as written
  double symbol_step = 0;            // bytes per unit of `symbol` between lanes (or groups)
  bool symbol_certain = false;
};
// `active`: the lanes that make the access (bit l for lane l).
Footprint footprint(const LaneValue& addr, uint32_t width, uint32_t active = 0xffffffffu);

// "4 * row", "row": a multiple of a runtime value, as the messages write it.
std::string multiple_of(double k, const std::string& name);

}  // namespace cudalint::cuda
