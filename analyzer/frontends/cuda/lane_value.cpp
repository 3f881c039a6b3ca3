#include "analyzer/frontends/cuda/lane_value.h"

#include <cmath>
#include <set>
#include <utility>

namespace cudalint::cuda {

namespace {

constexpr int kLanes = 32;

bool nonzero(const std::array<double, 32>& a) {
  for (double x : a)
    if (x != 0) return true;
  return false;
}

bool constant_across(const std::array<double, 32>& a) {
  for (double x : a)
    if (x != a[0]) return false;
  return true;
}

// Flags every result inherits from its operands.
LaneValue flags_of(const LaneValue& a, const LaneValue& b) {
  LaneValue r;
  r.load = a.load || b.load;
  r.uses_y = a.uses_y || b.uses_y;
  r.tid_yz = a.tid_yz || b.tid_yz;
  r.scaled = a.scaled || b.scaled;
  r.lanes_known = a.lanes_known && b.lanes_known;
  return r;
}

LaneValue unknown_from(const LaneValue& a, const LaneValue& b) {
  LaneValue r = flags_of(a, b);
  r.lanes_known = false;
  r.c_unknown = true;
  return r;
}

std::string number(double k) {
  double i = std::floor(k);
  if (i == k && std::fabs(k) < 1e15) return std::to_string(static_cast<long long>(i));
  std::string s = std::to_string(k);
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

std::string fmt_factor(double k, const std::string& name) { return number(k) + " * " + name; }

std::string product_name(const LaneValue& u) {
  if (u.name.empty()) return {};
  if (u.c != 0 && !u.c_unknown && u.span == 0) return {};
  return u.name;
}

// The finer of two neighbour steps (`near`), for a sum.
void finer_near(LaneValue& r, const LaneValue& a, const LaneValue& b) {
  const LaneValue* n = a.near == 0 ? &b : b.near == 0 ? &a : (std::fabs(a.near) <= std::fabs(b.near) ? &a : &b);
  r.near = std::fabs(n->near);
  r.near_name = n->near_name;
}

// A neighbour step scaled by a known constant factor.
void scaled_near(LaneValue& r, const LaneValue& x, double k) {
  r.near = std::fabs(x.near * k);
  r.near_name = r.near != 0 ? x.near_name : std::string();
}

// A range's exact image under division or remainder is not tracked: its known part becomes unknown.
LaneValue unranged(LaneValue a) {
  if (a.span != 0) {
    a.span = 0;
    a.c_unknown = true;
  }
  return a;
}

}  // namespace

LaneValue LaneValue::constant(double c) {
  LaneValue l;
  l.c = c;
  return l;
}

LaneValue LaneValue::lane() {
  LaneValue l;
  for (int i = 0; i < kLanes; ++i) l.v[i] = i;
  return l;
}

LaneValue LaneValue::uniform(std::string name, bool certain) {
  LaneValue l;
  l.c_unknown = true;
  l.name = std::move(name);
  l.name_certain = certain;
  return l;
}

LaneValue LaneValue::unknown() {
  LaneValue l;
  l.lanes_known = false;
  l.c_unknown = true;
  return l;
}

LaneValue& LaneValue::neighbour(std::string index, double step) {
  near = step;
  near_name = std::move(index);
  return *this;
}

LaneValue LaneValue::lane_div(int n) {
  LaneValue l;
  for (int i = 0; i < kLanes; ++i) l.v[i] = i / n;
  return l;
}

LaneValue LaneValue::lane_mod(int n) {
  LaneValue l;
  for (int i = 0; i < kLanes; ++i) l.v[i] = i % n;
  return l;
}

bool LaneValue::varies() const { return !lanes_known || !constant_across(v) || nonzero(vs); }

LaneValue add(const LaneValue& a, const LaneValue& b) {
  if (!a.lanes_known || !b.lanes_known) return unknown_from(a, b);
  LaneValue r = flags_of(a, b);
  bool as = nonzero(a.vs), bs = nonzero(b.vs);
  if (as && bs && a.sym != b.sym) return unknown_from(a, b);
  for (int i = 0; i < kLanes; ++i) {
    r.v[i] = a.v[i] + b.v[i];
    r.vs[i] = a.vs[i] + b.vs[i];
  }
  r.sym = as ? a.sym : b.sym;
  r.sym_certain = as ? a.sym_certain : b.sym_certain;
  r.c = a.c + b.c;
  r.c_unknown = a.c_unknown || b.c_unknown;
  r.span = a.span + b.span;
  r.span_step = a.span != 0 && b.span != 0 ? std::min(a.span_step, b.span_step) : a.span != 0 ? a.span_step : b.span_step;
  finer_near(r, a, b);
  // A named unknown plus a known constant keeps its name (`row + 1` is about as wide as `row`).
  if (r.c_unknown && !a.varies() && !b.varies()) {
    const LaneValue* named = a.c_unknown && !b.c_unknown ? &a : b.c_unknown && !a.c_unknown ? &b : nullptr;
    if (named) {
      r.name = named->name;
      r.name_certain = named->name_certain;
    }
  }
  return r;
}

LaneValue neg(const LaneValue& a) {
  LaneValue r = a;
  for (int i = 0; i < kLanes; ++i) {
    r.v[i] = -a.v[i];
    r.vs[i] = -a.vs[i];
  }
  r.c = -a.c - a.span;
  r.name.clear();
  return r;
}

LaneValue sub(const LaneValue& a, const LaneValue& b) { return add(a, neg(b)); }

LaneValue mul(const LaneValue& a, const LaneValue& b) {
  if (!a.lanes_known || !b.lanes_known) return unknown_from(a, b);
  bool av = a.varies(), bv = b.varies();
  if (av && bv) return unknown_from(a, b);  // lane * lane: not a stride
  LaneValue r = flags_of(a, b);
  if (!av && !bv) {
    if (a.span != 0 || b.span != 0) {
      // A range times a known constant is a range; a range times a range or an unknown is not.
      const LaneValue& ranged = a.span != 0 ? a : b;
      const LaneValue& other = a.span != 0 ? b : a;
      if (!other.known_constant() || ranged.c_unknown) return LaneValue::uniform(ranged.name.empty() ? other.name : ranged.name);
      double k = other.c;
      scaled_near(r, ranged, k);
      r.c = k >= 0 ? ranged.c * k : (ranged.c + ranged.span) * k;
      r.span = ranged.span * std::fabs(k);
      r.span_step = ranged.span_step * std::fabs(k);
      return r;
    }
    r.c = a.c * b.c;
    if (b.known_constant()) scaled_near(r, a, b.c);
    else if (a.known_constant()) scaled_near(r, b, a.c);
    r.c_unknown = (a.c_unknown && (b.c != 0 || b.c_unknown)) || (b.c_unknown && (a.c != 0 || a.c_unknown));
    if (r.c_unknown) {
      // `4 * row`, `blockDim.x * gridDim.x`: a name for the stride a lane index may meet later.
      const LaneValue* named = !a.c_unknown ? &b : !b.c_unknown ? &a : nullptr;
      const LaneValue* factor = named == &a ? &b : &a;
      if (named && !named->name.empty()) {
        r.name = factor->c == 1 ? named->name : fmt_factor(factor->c, named->name);
        r.name_certain = named->name_certain;
      } else if (!a.name.empty() && !b.name.empty()) {
        r.name = a.name + " * " + b.name;
        r.name_certain = a.name_certain || b.name_certain;
      }
    }
    return r;
  }
  const LaneValue& l = av ? a : b;
  const LaneValue& u = av ? b : a;
  r.scaled = true;
  if (!u.c_unknown && u.span == 0) {
    for (int i = 0; i < kLanes; ++i) {
      r.v[i] = l.v[i] * u.c;
      r.vs[i] = l.vs[i] * u.c;
    }
    r.sym = l.sym;
    r.sym_certain = l.sym_certain;
    scaled_near(r, l, u.c);
    r.c = u.c >= 0 ? l.c * u.c : (l.c + l.span) * u.c;
    r.span = l.span * std::fabs(u.c);
    r.span_step = l.span_step * std::fabs(u.c);
    r.c_unknown = l.c_unknown;
    return r;
  }
  // The lane part times a runtime value: a symbolic stride.
  if (nonzero(l.vs)) return unknown_from(a, b);
  for (int i = 0; i < kLanes; ++i) r.vs[i] = l.v[i];
  r.sym = product_name(u);
  if (r.sym.empty()) r.sym = "a runtime value";
  r.sym_certain = u.name_certain;
  r.c_unknown = true;
  return r;
}

LaneValue div(const LaneValue& a_in, const LaneValue& b, bool integer) {
  LaneValue a = unranged(a_in);
  if (!a.lanes_known || !b.known_constant() || b.c == 0 || b.load) return unknown_from(a, b);
  LaneValue r = flags_of(a, b);
  double d = b.c;
  if (nonzero(a.vs)) {
    // `(t * stride) / 2`: still a runtime stride, halved.
    if (!constant_across(a.v)) return unknown_from(a, b);
    for (int i = 0; i < kLanes; ++i) r.vs[i] = a.vs[i] / d;
    r.sym = a.sym;
    r.sym_certain = a.sym_certain;
    r.c_unknown = true;
    return r;
  }
  if (!integer) {
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] / d;
    r.c = a.c / d;
    r.c_unknown = a.c_unknown;
    return r;
  }
  double base = std::floor(a.c / d);
  for (int i = 0; i < kLanes; ++i) r.v[i] = std::floor((a.c + a.v[i]) / d) - base;
  r.c = base;
  r.c_unknown = a.c_unknown;
  if (r.c_unknown && !a.varies() && !a.name.empty()) r.name = a.name + " / " + number(d);
  return r;
}

LaneValue rem(const LaneValue& a_in, const LaneValue& b) {
  LaneValue a = unranged(a_in);
  if (!a.lanes_known || !b.known_constant() || b.c <= 0 || b.load || nonzero(a.vs)) return unknown_from(a, b);
  LaneValue r = flags_of(a, b);
  double m = b.c;
  if (!a.varies()) {
    r.c = a.c_unknown ? 0 : std::fmod(a.c, m);
    r.c_unknown = a.c_unknown;
    return r;
  }
  if (a.c_unknown && std::fmod(32.0, m) != 0 && std::fmod(m, 32.0) == 0) {
    // A modulus of whole warps: the lanes keep their offsets, the warp's place is unknown.
    r.v = a.v;
    r.c = a.c;
    r.c_unknown = true;
    return r;
  }
  if (a.c_unknown && std::fmod(32.0, m) != 0) return unknown_from(a, b);
  for (int i = 0; i < kLanes; ++i) {
    double x = std::fmod(a.c + a.v[i], m);
    r.v[i] = x < 0 ? x + m : x;
  }
  r.c = 0;
  r.c_unknown = false;
  return r;
}

LaneValue bit_and(const LaneValue& a, const LaneValue& b) {
  const LaneValue& mask = b.known_constant() ? b : a;
  const LaneValue& x = b.known_constant() ? a : b;
  if (!mask.known_constant() || mask.c < 0) return unknown_from(a, b);
  auto m = static_cast<uint64_t>(mask.c) + 1;
  if ((m & (m - 1)) != 0) return unknown_from(a, b);  // not a low-bit mask
  return rem(x, LaneValue::constant(static_cast<double>(m)));
}

LaneValue shl(const LaneValue& a, const LaneValue& b) {
  if (!b.known_constant() || b.c < 0 || b.c > 62) return unknown_from(a, b);
  return mul(a, LaneValue::constant(std::ldexp(1.0, static_cast<int>(b.c))));
}

LaneValue shr(const LaneValue& a, const LaneValue& b) {
  if (!b.known_constant() || b.c < 0 || b.c > 62) return unknown_from(a, b);
  return div(a, LaneValue::constant(std::ldexp(1.0, static_cast<int>(b.c))), true);
}

Footprint footprint(const LaneValue& addr, uint32_t width, uint32_t active) {
  Footprint f;
  if (!addr.lanes_known || addr.load || width == 0) return f;
  bool symbolic = nonzero(addr.vs);
  // Lanes a runtime stride separates are in different rows, a sector apart or more.
  std::set<std::pair<double, int64_t>> sectors;
  for (int i = 0; i < kLanes; ++i) {
    if (!(active >> i & 1u)) continue;
    double a = std::floor(addr.c + addr.v[i]);
    auto first = static_cast<int64_t>(std::floor(a / 32.0)), last = static_cast<int64_t>(std::floor((a + width - 1) / 32.0));
    for (int64_t k = first; k <= last; ++k) sectors.emplace(addr.vs[i], k);
  }
  f.sectors = static_cast<double>(sectors.size());
  // Rows a runtime value apart (`(t / 4) * row + t % 4`): the stride is the symbol's.
  const auto& lanes = symbolic ? addr.vs : addr.v;
  // The group: the first lane whose step differs from the one before it.
  uint32_t g = 1;
  if (!symbolic) {
    double unit = lanes[1] - lanes[0];
    if (unit == width) {
      while (g < kLanes && lanes[g] - lanes[g - 1] == unit) ++g;
      if (g == kLanes) g = 1;
    }
  } else {
    while (g < kLanes && lanes[g] == lanes[0]) ++g;
    if (g == kLanes) g = 1;
  }
  double step = lanes[g % kLanes] - lanes[0];
  bool regular = true;
  for (int i = 0; i + static_cast<int>(g) < kLanes; ++i)
    if (lanes[i + g] - lanes[i] != step) regular = false;
  if (!regular) return f;  // sectors stand; no stride to name
  f.group = g;
  if (symbolic) {
    f.symbol = addr.sym;
    f.symbol_step = step;
    f.symbol_certain = addr.sym_certain;
  } else {
    f.stride = static_cast<int64_t>(std::llround(step));
  }
  return f;
}

std::string multiple_of(double k, const std::string& name) {
  if (k == 1) return name;
  if (k == -1) return "-" + name;
  return fmt_factor(k, name);
}

}  // namespace cudalint::cuda
