// Data: data/cuda_arch_support.md lists every row's source.
#include "analyzer/domain/cuda_support.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

namespace cudalint::domain {

namespace {

struct V {
  int major, minor;
};
constexpr V kNever{0, 0};

struct ArchRow {
  int sm;
  char suffix;
  V first;    // first toolkit that builds it ({9,0} means "9.0 or earlier")
  V removed;  // kNever when still supported
};

// Ordered by sm then suffix. Sources in data/cuda_arch_support.md.
constexpr std::array<ArchRow, 39> kArchRows{{
    {30, 0, {9, 0}, {11, 0}},  {32, 0, {9, 0}, {11, 0}},  {35, 0, {9, 0}, {12, 0}},
    {37, 0, {9, 0}, {12, 0}},  {50, 0, {9, 0}, {13, 0}},  {52, 0, {9, 0}, {13, 0}},
    {53, 0, {9, 0}, {13, 0}},  {60, 0, {9, 0}, {13, 0}},  {61, 0, {9, 0}, {13, 0}},
    {62, 0, {9, 0}, {13, 0}},  {70, 0, {9, 0}, {13, 0}},  {72, 0, {9, 0}, {13, 0}},
    {75, 0, {10, 0}, kNever},  {80, 0, {11, 0}, kNever},  {86, 0, {11, 1}, kNever},
    {87, 0, {11, 4}, kNever},  {88, 0, {13, 0}, kNever},  {89, 0, {11, 8}, kNever},
    {90, 0, {11, 8}, kNever},  {90, 'a', {12, 0}, kNever}, {100, 0, {12, 8}, kNever},
    {100, 'a', {12, 8}, kNever}, {100, 'f', {12, 9}, kNever}, {101, 0, {12, 8}, {13, 0}},
    {101, 'a', {12, 8}, {13, 0}}, {103, 0, {12, 9}, kNever}, {103, 'a', {12, 9}, kNever},
    {103, 'f', {12, 9}, kNever}, {110, 0, {13, 0}, kNever}, {110, 'a', {13, 0}, kNever},
    {110, 'f', {13, 0}, kNever}, {120, 0, {12, 8}, kNever}, {120, 'a', {12, 8}, kNever},
    {120, 'f', {12, 9}, kNever}, {121, 0, {12, 9}, kNever}, {121, 'a', {12, 9}, kNever},
    {121, 'f', {12, 9}, kNever}, {20, 0, {0, 0}, {9, 0}},  {21, 0, {0, 0}, {9, 0}},
}};

constexpr V kOldestCovered{9, 0};

bool before(const CudaVersion& c, V v) { return c.major != v.major ? c.major < v.major : c.minor < v.minor; }
bool is_never(V v) { return v.major == 0; }

}  // namespace

std::string CudaVersion::str() const {
  return patch >= 0 ? fmt::format("{}.{}.{}", major, minor, patch) : fmt::format("{}.{}", major, minor);
}

std::optional<CudaVersion> parse_cuda_version(std::string_view t) {
  CudaVersion v;
  if (t.starts_with("cu") && t.size() >= 5 && t.find('.') == std::string_view::npos) {
    // "cu124" → 12.4, "cu118" → 11.8, "cu130" → 13.0: the last digit is the minor.
    std::string_view d = t.substr(2);
    // At most two digits of major: a longer run is not a CUDA tag (and must not overflow).
    if (d.size() > 3) return std::nullopt;
    for (char c : d)
      if (c < '0' || c > '9') return std::nullopt;
    v.major = (d.size() == 3 ? (d[0] - '0') * 10 : 0) + (d[d.size() - 2] - '0');
    v.minor = d.back() - '0';
    return v;
  }
  auto num = [&](std::string_view& s, int& out) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec != std::errc() || r.ptr == s.data()) return false;
    s.remove_prefix(static_cast<size_t>(r.ptr - s.data()));
    return true;
  };
  if (!num(t, v.major) || t.empty() || t[0] != '.') return std::nullopt;
  t.remove_prefix(1);
  if (!num(t, v.minor)) return std::nullopt;
  if (!t.empty() && t[0] == '.') {
    t.remove_prefix(1);
    if (!num(t, v.patch)) return std::nullopt;
  }
  if (!t.empty()) return std::nullopt;
  if (v.major < 1 || v.major > 99 || v.minor > 99) return std::nullopt;
  return v;
}

ArchSupport cuda_supports(const CudaVersion& cuda, const Arch& arch) {
  for (const auto& row : kArchRows) {
    if (row.sm != arch.sm() || row.suffix != arch.suffix) continue;
    if (!is_never(row.removed) && !before(cuda, row.removed))
      return {Support::Unsupported, fmt::format("removed in CUDA {}.{}", row.removed.major, row.removed.minor)};
    if (before(cuda, kOldestCovered)) return {};
    if (row.first.major != 0 && before(cuda, row.first))
      return {Support::Unsupported, fmt::format("first supported by CUDA {}.{}", row.first.major, row.first.minor)};
    return {Support::Supported, ""};
  }
  return {};
}

std::string supported_range(const CudaVersion& cuda) {
  int lo = 0, hi = 0;
  char hi_suffix = 0;
  for (const auto& row : kArchRows) {
    Arch a;
    a.major = row.sm / 10;
    a.minor = row.sm % 10;
    a.suffix = row.suffix;
    if (cuda_supports(cuda, a).verdict != Support::Supported) continue;
    if (row.suffix == 0 && (lo == 0 || row.sm < lo)) lo = row.sm;
    if (row.sm > hi || (row.sm == hi && row.suffix == 'a')) {
      hi = row.sm;
      hi_suffix = row.suffix == 'f' ? 0 : row.suffix;
    }
  }
  if (lo == 0) return "unknown";
  std::string h = fmt::format("sm_{}", hi);
  if (hi_suffix) h += hi_suffix;
  return fmt::format("sm_{}..{}", lo, h);
}

Arch nvcc_default_arch(const CudaVersion& cuda) {
  if (cuda.major >= 13) return Arch{7, 5, 0, true};
  if (cuda.major >= 11) return Arch{5, 2, 0, true};
  return Arch{3, 0, 0, true};
}

}  // namespace cudalint::domain
