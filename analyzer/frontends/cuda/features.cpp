#include "analyzer/frontends/cuda/features.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace cudalint::cuda {

namespace {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  size_t b = 0;
  while (true) {
    size_t e = line.find('\t', b);
    out.push_back(line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

std::optional<model::CudaVersion> version_of(std::string_view s) {
  if (s == "-" || s.empty()) return std::nullopt;
  return model::parse_cuda_version(s);
}

bool in_range(const Feature& f, const std::optional<model::CudaVersion>& cuda) {
  if (!cuda) return !f.cuda_until;  // unknown toolkit: the newest facts
  if (f.cuda_from && *cuda < *f.cuda_from) return false;
  if (f.cuda_until && !(*cuda < *f.cuda_until)) return false;
  return true;
}

}  // namespace

FeatureTable FeatureTable::parse(std::string_view tsv, std::vector<std::string>* errors) {
  FeatureTable t;
  size_t pos = 0;
  int line_no = 0;
  bool header = false;
  while (pos < tsv.size()) {
    size_t nl = tsv.find('\n', pos);
    std::string_view line = tsv.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? tsv.size() : nl + 1;
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    auto f = split_tabs(line);
    if (!header) {
      header = true;
      if (f.size() != 7 || f[0] != "feature" || f[2] != "min_sm") {
        if (errors) errors->push_back(fmt::format("{}: expected the header row `feature\\tkind\\tmin_sm...`", line_no));
        return t;
      }
      continue;
    }
    if (f.size() != 7) {
      if (errors) errors->push_back(fmt::format("{}: {} columns, expected 7", line_no, f.size()));
      continue;
    }
    Feature row;
    row.name = std::string(f[0]);
    if (f[1] == "function") row.kind = FeatureKind::Function;
    else if (f[1] == "type") row.kind = FeatureKind::Type;
    else if (f[1] == "ptx") row.kind = FeatureKind::Ptx;
    else if (f[1] == "deprecated") row.kind = FeatureKind::Deprecated;
    else {
      if (errors) errors->push_back(fmt::format("{}: unknown kind `{}`", line_no, f[1]));
      continue;
    }
    auto r = std::from_chars(f[2].data(), f[2].data() + f[2].size(), row.min_sm);
    if (r.ec != std::errc() || row.min_sm < 10 || row.min_sm > 200) {
      if (errors) errors->push_back(fmt::format("{}: min_sm `{}` is not an sm number", line_no, f[2]));
      continue;
    }
    row.arch_specific = f[3] != "-";
    row.cuda_from = version_of(f[4]);
    row.cuda_until = version_of(f[5]);
    if ((f[4] != "-" && !row.cuda_from) || (f[5] != "-" && !row.cuda_until)) {
      if (errors) errors->push_back(fmt::format("{}: bad toolkit range `{}`..`{}`", line_no, f[4], f[5]));
      continue;
    }
    row.source = std::string(f[6]);
    t.rows_.push_back(std::move(row));
  }
  std::stable_sort(t.rows_.begin(), t.rows_.end(), [](const Feature& a, const Feature& b) { return a.name < b.name; });
  return t;
}

const FeatureTable& FeatureTable::builtin() {
  // Parsed once, immutable afterwards (a function-local static, not a mutable global).
  static const FeatureTable t = parse(builtin_feature_tsv());
  return t;
}

const Feature* FeatureTable::find(std::string_view name, const std::optional<model::CudaVersion>& cuda) const {
  auto it = std::lower_bound(rows_.begin(), rows_.end(), name, [](const Feature& f, std::string_view n) { return f.name < n; });
  for (; it != rows_.end() && it->name == name; ++it)
    if (in_range(*it, cuda)) return &*it;
  return nullptr;
}

const Feature* FeatureTable::find_ptx(std::string_view ins, const std::optional<model::CudaVersion>& cuda) const {
  std::string_view p = ins;
  while (!p.empty()) {
    if (const Feature* f = find(p, cuda); f && f->kind == FeatureKind::Ptx) return f;
    size_t dot = p.rfind('.');
    if (dot == std::string_view::npos) break;
    p = p.substr(0, dot);
  }
  return nullptr;
}

}  // namespace cudalint::cuda
