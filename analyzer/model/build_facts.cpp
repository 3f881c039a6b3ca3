#include "analyzer/model/build_facts.h"

#include <algorithm>

#include <fmt/format.h>

namespace cudalint::model::facts {

std::string parent_of(const std::string& abs) {
  auto s = abs.find_last_of('/');
  return s == std::string::npos || s == 0 ? "/" : abs.substr(0, s);
}

bool under(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/';
}

std::string resolve(const std::string& dir, const std::string& rel) {
  std::string p = rel.starts_with("/") ? rel : dir + "/" + rel;
  std::vector<std::string> parts;
  size_t b = 0;
  while (b <= p.size()) {
    size_t e = p.find('/', b);
    if (e == std::string::npos) e = p.size();
    std::string part = p.substr(b, e - b);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    b = e + 1;
  }
  std::string out;
  for (const auto& s : parts) out += "/" + s;
  return out.empty() ? "/" : out;
}

namespace {

// Dynamic programming over (pattern position, path position): m[i][j] says whether p[i..]
// matches s[j..]; linear in their product, never exponential. `*` stays within a component
// unless `any_dir`; `**` crosses them, and `**/` also matches no directory at all.
bool wild(std::string_view p, std::string_view s, bool any_dir) {
  const size_t P = p.size(), n = s.size();
  if ((P + 1) * (n + 1) > (size_t{1} << 22)) return false;  // a hostile pattern: bounded work, no match
  std::vector<std::vector<char>> m(P + 1, std::vector<char>(n + 1, 0));
  m[P][n] = 1;
  for (size_t i = P; i-- > 0;) {
    const char c = p[i];
    if (c == '*') {
      const bool dbl = i + 1 < P && p[i + 1] == '*';
      const size_t rest = dbl ? i + 2 : i + 1;
      const bool cross = any_dir || dbl;
      const bool skip_dir = dbl && rest < P && p[rest] == '/';
      for (size_t j = n + 1; j-- > 0;) {
        bool ok = m[rest][j] || (skip_dir && m[rest + 1][j]);
        if (!ok && j < n && (cross || s[j] != '/')) ok = m[i][j + 1];
        m[i][j] = ok;
      }
    } else {
      for (size_t j = 0; j < n; ++j) m[i][j] = m[i + 1][j + 1] && (c == s[j] || (c == '?' && s[j] != '/'));
    }
  }
  return m[0][0];
}

}  // namespace

bool glob_matches(const SourceGlob& g, std::string_view path) { return wild(g.pattern, path, g.recurse); }

TargetArch flag_arch(const domain::Arch& arch, const std::string& flag, const Origin& at) {
  const bool clang = flag.starts_with("--cuda-gpu-arch") || flag.starts_with("--offload-arch");
  // What is embedded: `code=` lists it (sm_XX real code, compute_XX PTX); `-arch=sm_XX` alone
  // embeds both, `-arch=compute_XX` alone PTX only; clang embeds both.
  bool sass = true, ptx = true;
  if (auto code = flag.rfind("code="); code != std::string::npos && code > 0 && (flag[code - 1] == ',' || flag[code - 1] == ' ')) {
    std::string_view c = std::string_view(flag).substr(code + 5);
    sass = c.find("sm_") != std::string_view::npos;
    ptx = c.find("compute_") != std::string_view::npos;
  } else if (!clang && flag.find("compute_") != std::string::npos) {
    sass = false;
  }
  domain::Arch a = arch;
  a.ptx = ptx;
  return {a, at, fmt::format("{} flag `{}`", clang ? "clang" : "nvcc", flag), 0, sass};
}

std::vector<TargetArch> torch_list_archs(const std::string& value, const Origin& origin, std::string_view via) {
  std::vector<TargetArch> out;
  domain::ArchList l = domain::parse_torch_arch_list(value, false, 0, origin.span);
  if (l.kind != domain::ArchListKind::Explicit) return out;
  for (const auto& e : l.entries)
    if (std::none_of(out.begin(), out.end(), [&](const TargetArch& t) { return t.arch == e.arch; }))
      out.push_back({e.arch, origin, std::string(via), 0, true});
  return out;
}

std::vector<TargetArch> cmake_list_archs(const std::string& value, const Origin& origin, bool& unreadable) {
  std::vector<TargetArch> out;
  unreadable = false;
  size_t b = 0;
  while (b <= value.size()) {
    size_t e = value.find_first_of("; ", b);
    if (e == std::string::npos) e = value.size();
    std::string tok = value.substr(b, e - b);
    b = e + 1;
    if (tok.empty()) continue;
    bool sass = true, ptx = true;
    if (tok.ends_with("-real")) {
      tok.resize(tok.size() - 5);
      ptx = false;
    } else if (tok.ends_with("-virtual")) {
      tok.resize(tok.size() - 8);
      sass = false;
    }
    auto a = domain::parse_arch_token(tok);
    if (!a) {
      unreadable = true;
      continue;
    }
    a->ptx = ptx;
    out.push_back({*a, origin, "CMAKE_CUDA_ARCHITECTURES", 0, sass});
  }
  return out;
}

std::vector<TargetArch> flag_archs(const cuda::CompileFlags& f, const Origin& at) {
  std::vector<TargetArch> out;
  for (size_t k = 0; k < f.archs.size() && k < f.arch_flags.size(); ++k)
    out.push_back(flag_arch(f.archs[k], f.arch_flags[k], at));
  return out;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b < s.size()) {
    size_t e = s.find_first_of(" \t;", b);
    if (e == std::string::npos) e = s.size();
    if (e > b) out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

void merge_archs(std::vector<TargetArch>& to, const std::vector<TargetArch>& more) {
  for (const auto& a : more)
    if (std::none_of(to.begin(), to.end(), [&](const TargetArch& t) { return t.arch == a.arch && t.sass == a.sass; }))
      to.push_back(a);
}

}  // namespace cudalint::model::facts
