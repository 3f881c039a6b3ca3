#include "analyzer/frontends/cuda/features.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace cudalint::cuda {

namespace {

constexpr std::string_view kHeader = "feature\tkind\tmin_sm\tarch_specific\tcuda_from\tcuda_until\tsource";

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  size_t b = 0;
  while (true) {
    size_t e = line.find(sep, b);
    out.push_back(line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool same_target(const domain::Arch& a, const domain::Arch& b) { return a.sm() == b.sm() && a.suffix == b.suffix; }

}  // namespace

bool Feature::available_on(const domain::Arch& target) const {
  if (kind == FeatureKind::Deprecated) return target.sm() < min_sm;
  if (!only_targets.empty())
    return std::any_of(only_targets.begin(), only_targets.end(), [&](const domain::Arch& t) { return same_target(t, target); });
  return target.sm() >= min_sm;
}

bool Feature::holds_for(const std::optional<domain::CudaVersion>& cuda) const {
  if (!cuda) return !cuda_until;  // unknown toolkit: the newest facts
  if (cuda_from && *cuda < *cuda_from) return false;
  if (cuda_until && !(*cuda < *cuda_until)) return false;
  return true;
}

std::string Feature::targets_text() const {
  if (only_targets.empty()) return fmt::format("sm_{}", min_sm);
  std::string s;
  for (size_t i = 0; i < only_targets.size(); ++i)
    s += (i == 0 ? "" : i + 1 == only_targets.size() ? " or " : ", ") + only_targets[i].sm_name();
  return s;
}

FeatureTable FeatureTable::parse(std::string_view tsv, std::vector<std::string>* errors) {
  FeatureTable t;
  // One row per line at most: no reallocation moves the rows (in a one-file run, the copies'
  // fresh pages were ~60 of the process's ~700 page faults).
  t.rows_.reserve(std::count(tsv.begin(), tsv.end(), '\n') + 1);
  auto error = [&](int line, std::string msg) {
    if (errors) errors->push_back(fmt::format("{}: {}", line, msg));
  };
  size_t pos = 0;
  int line_no = 0;
  bool header = false;
  while (pos < tsv.size()) {
    size_t nl = tsv.find('\n', pos);
    std::string_view line = tsv.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? tsv.size() : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    if (!header) {
      header = true;
      if (line != kHeader) {
        error(line_no, "expected the header row `feature<TAB>kind<TAB>min_sm<TAB>arch_specific<TAB>cuda_from<TAB>"
                       "cuda_until<TAB>source`");
        return t;
      }
      continue;
    }
    auto f = split(line, '\t');
    if (f.size() != 7) {
      error(line_no, fmt::format("{} columns, expected 7", f.size()));
      continue;
    }
    Feature row;
    row.line = line_no;
    row.name = std::string(trim(f[0]));
    if (row.name.empty()) {
      error(line_no, "empty feature name");
      continue;
    }
    if (f[1] == "function") row.kind = FeatureKind::Function;
    else if (f[1] == "type") row.kind = FeatureKind::Type;
    else if (f[1] == "ptx") row.kind = FeatureKind::Ptx;
    else if (f[1] == "deprecated") row.kind = FeatureKind::Deprecated;
    else {
      error(line_no, fmt::format("unknown kind `{}` (function, type, ptx or deprecated)", f[1]));
      continue;
    }
    auto r = std::from_chars(f[2].data(), f[2].data() + f[2].size(), row.min_sm);
    if (r.ec != std::errc() || r.ptr != f[2].data() + f[2].size() || row.min_sm < 10 || row.min_sm > 300) {
      error(line_no, fmt::format("min_sm `{}` is not an sm number such as 80", f[2]));
      continue;
    }
    bool bad_target = false;
    if (f[3] != "-") {
      for (std::string_view tok : split(f[3], ',')) {
        tok = trim(tok);
        auto a = domain::parse_arch_token(tok);
        if (!a || !tok.starts_with("sm_")) {
          error(line_no, fmt::format("arch_specific `{}` is not a target such as sm_90a", tok));
          bad_target = true;
          break;
        }
        if (a->suffix) row.arch_specific = true;
        row.only_targets.push_back(*a);
      }
    }
    if (bad_target) continue;
    if (row.kind == FeatureKind::Deprecated && !row.only_targets.empty()) {
      error(line_no, "a deprecated row names no targets");
      continue;
    }
    auto version = [](std::string_view s) -> std::optional<domain::CudaVersion> {
      return s == "-" ? std::nullopt : domain::parse_cuda_version(s);
    };
    row.cuda_from = version(f[4]);
    row.cuda_until = version(f[5]);
    if ((f[4] != "-" && !row.cuda_from) || (f[5] != "-" && !row.cuda_until)) {
      error(line_no, fmt::format("bad toolkit range `{}`..`{}` (versions such as 12.4, or -)", f[4], f[5]));
      continue;
    }
    if (row.cuda_from && row.cuda_until && !(*row.cuda_from < *row.cuda_until)) {
      error(line_no, fmt::format("empty toolkit range `{}`..`{}`", f[4], f[5]));
      continue;
    }
    row.source = std::string(f[6]);
    t.rows_.push_back(std::move(row));
  }
  if (!header) error(line_no, "no header row");
  std::stable_sort(t.rows_.begin(), t.rows_.end(), [](const Feature& a, const Feature& b) { return a.name < b.name; });
  for (const Feature& f : t.rows_) {
    if (f.kind == FeatureKind::Ptx) continue;
    std::string_view n = f.name;
    n = n.substr(0, n.find_first_of("(<"));
    if (auto c = n.rfind("::"); c != std::string_view::npos) n = n.substr(c + 2);
    if (!n.empty()) t.idents_.emplace_back(n);
  }
  for (std::string_view extra : {"fragment", "NV_IF_TARGET", "NV_IF_ELSE_TARGET", "NV_DISPATCH_TARGET"})
    t.idents_.emplace_back(extra);
  std::sort(t.idents_.begin(), t.idents_.end());
  t.idents_.erase(std::unique(t.idents_.begin(), t.idents_.end()), t.idents_.end());
  return t;
}

const FeatureTable& FeatureTable::builtin() {
  // Parsed once, immutable afterwards (a function-local constant, not a mutable global).
  static const FeatureTable t = parse(builtin_feature_tsv());
  return t;
}

const Feature* FeatureTable::find(std::string_view name, const std::optional<domain::CudaVersion>& cuda) const {
  auto it = std::lower_bound(rows_.begin(), rows_.end(), name, [](const Feature& f, std::string_view n) { return f.name < n; });
  const Feature* earliest = nullptr;
  for (; it != rows_.end() && it->name == name; ++it) {
    if (it->holds_for(cuda)) return &*it;
    if (cuda && it->cuda_from && *cuda < *it->cuda_from && (!earliest || *it->cuda_from < *earliest->cuda_from))
      earliest = &*it;
  }
  return earliest;
}

const Feature* FeatureTable::find_ptx(std::string_view ins, const std::optional<domain::CudaVersion>& cuda) const {
  // PTX rows, and removed PTX forms (`vote.ballot`: dotted, unlike the removed functions).
  auto is_ptx = [](const Feature* f) {
    return f->kind == FeatureKind::Ptx ||
           (f->kind == FeatureKind::Deprecated && f->name.find_first_of(".%") != std::string::npos);
  };
  std::string_view p = ins;
  while (!p.empty()) {
    if (const Feature* f = find(p, cuda); f && is_ptx(f)) return f;
    // Drop the last `.qualifier` or `::sub-qualifier` (`tcgen05.fence::before_thread_sync` ->
    // `tcgen05.fence`; `ld.global.L2::256B.v4` -> `ld.global.L2::256B`).
    size_t dot = p.rfind('.');
    size_t colons = p.rfind("::");
    size_t cut = dot == std::string_view::npos ? colons
                 : colons == std::string_view::npos ? dot
                                                    : std::max(dot, colons);
    if (cut == std::string_view::npos || cut == 0) break;
    p = p.substr(0, cut);
  }
  return nullptr;
}

bool FeatureTable::names_identifier(std::string_view ident) const {
  return std::binary_search(idents_.begin(), idents_.end(), ident, std::less<>());
}

bool FeatureTable::has_overload_rows(std::string_view name) const {
  auto it = std::lower_bound(rows_.begin(), rows_.end(), name, [](const Feature& f, std::string_view n) { return f.name < n; });
  for (; it != rows_.end() && it->name.starts_with(name); ++it)
    if (it->name.size() > name.size() && it->name[name.size()] == '(') return true;
  return false;
}

}  // namespace cudalint::cuda
