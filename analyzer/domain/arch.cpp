#include "analyzer/domain/arch.h"

#include <array>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "analyzer/core/text.h"
#include "analyzer/domain/torch_support.h"

namespace cudalint::domain {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

using text::iequals;

// Named architectures, as cpp_extension (torch 2.11) expands them, in its order.
struct NamedArch {
  std::string_view name;
  std::string_view expansion;
};
constexpr std::array<NamedArch, 15> kNamedArchs{{
    {"Kepler+Tesla", "3.7"},
    {"Kepler", "3.5+PTX"},
    {"Maxwell+Tegra", "5.3"},
    {"Maxwell", "5.0;5.2+PTX"},
    {"Pascal", "6.0;6.1+PTX"},
    {"Volta+Tegra", "7.2"},
    {"Volta", "7.0+PTX"},
    {"Turing", "7.5+PTX"},
    {"Ampere+Tegra", "8.7"},
    {"Ampere", "8.0;8.6+PTX"},
    {"Ada", "8.9+PTX"},
    {"Hopper", "9.0+PTX"},
    {"Blackwell+Tegra", "11.0"},
    {"Blackwell", "10.0;10.3;12.0;12.1+PTX"},
    {"", ""},
}};

// torch 2.11 `supported_arches` (cpp_extension._get_cuda_arch_flags).
constexpr std::array<std::string_view, 27> kTorchSupported{
    "3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7",
    "8.9", "9.0", "9.0a", "10.0", "10.0a", "11.0", "11.0a", "10.3", "10.3a", "12.0", "12.0a", "12.1",
    "12.1a"};

bool torch_2_11_accepts(std::string_view dotted) {
  for (auto s : kTorchSupported)
    if (s == dotted) return true;
  return false;
}

// The newest torch release whose cpp_extension certainly lacks an entry or name of 2.11's
// lists (data/torch_releases.md gives the pull requests and why each bound is safe).
struct AbsentThrough {
  std::string_view arch;
  int major, minor;
};
constexpr std::array<AbsentThrough, 19> kAbsentThrough{{
    {"8.9", 1, 13}, {"9.0", 1, 13}, {"Ada", 1, 13}, {"Hopper", 1, 13},
    {"9.0a", 2, 1},
    {"10.0", 2, 5}, {"10.0a", 2, 5}, {"10.1", 2, 5}, {"10.1a", 2, 5}, {"12.0", 2, 5},
    {"12.0a", 2, 5}, {"Blackwell", 2, 5},
    {"10.3", 2, 7}, {"10.3a", 2, 7}, {"11.0", 2, 7}, {"11.0a", 2, 7}, {"12.1", 2, 7},
    {"12.1a", 2, 7}, {"Blackwell+Tegra", 2, 7},
}};

bool release_at_most(const TorchVersion& t, int major, int minor) {
  return t.major < major || (t.major == major && t.minor <= minor);
}

std::string torch_label(const TorchVersion* torch) {
  if (!torch) return "torch 2.11";
  TorchVersion shown = *torch;
  shown.local.clear();
  return "torch " + shown.str();
}

}  // namespace

std::string Arch::sm_name() const {
  std::string s = fmt::format("sm_{}", sm());
  if (suffix) s += suffix;
  return s;
}

std::string Arch::torch_name() const {
  std::string s = fmt::format("{}.{}", major, minor);
  if (suffix) s += suffix;
  return s;
}

std::optional<Arch> parse_arch_token(std::string_view t) {
  Arch a;
  if (t.size() > 4 && iequals(t.substr(t.size() - 4), "+PTX")) {
    a.ptx = true;
    t.remove_suffix(4);
  }
  if (t.starts_with("sm_")) {
    t.remove_prefix(3);
  } else if (t.starts_with("compute_")) {
    t.remove_prefix(8);
    a.ptx = true;
  }
  if (!t.empty() && (t.back() == 'a' || t.back() == 'f')) {
    a.suffix = t.back();
    t.remove_suffix(1);
  }
  auto dot = t.find('.');
  if (dot != std::string_view::npos) {
    auto maj = t.substr(0, dot), min = t.substr(dot + 1);
    if (!all_digits(maj) || !all_digits(min) || maj.size() > 2 || min.size() != 1) return std::nullopt;
    a.major = std::stoi(std::string(maj));
    a.minor = min[0] - '0';
  } else {
    // "80", "120": the last digit is the minor version.
    if (!all_digits(t) || t.size() < 2 || t.size() > 3) return std::nullopt;
    a.major = std::stoi(std::string(t.substr(0, t.size() - 1)));
    a.minor = t.back() - '0';
  }
  if (a.major < 1) return std::nullopt;
  return a;
}

TorchVerdict torch_accepts_arch(std::string_view arch, const TorchVersion* torch) {
  bool is_name = !arch.empty() && std::isalpha(static_cast<unsigned char>(arch[0]));
  bool in_2_11 = is_name || torch_2_11_accepts(arch);
  if (!torch) return in_2_11 ? TorchVerdict::Accepts : TorchVerdict::Rejects;
  // Releases after 2.11 may know more archs than recorded.
  if (!release_at_most(*torch, 2, 11)) return in_2_11 ? TorchVerdict::Accepts : TorchVerdict::Unknown;
  for (const auto& a : kAbsentThrough)
    if (a.arch == arch && release_at_most(*torch, a.major, a.minor)) return TorchVerdict::Rejects;
  // Blackwell's second target: `10.1` until CUDA 13 renamed it `11.0`; gone from torch 2.9
  // (pytorch/pytorch#166120). Which release between 2.6 and 2.8 first had it is not recorded.
  if (arch == "10.1" || arch == "10.1a")
    return release_at_most(*torch, 2, 8) ? TorchVerdict::Unknown : TorchVerdict::Rejects;
  if (in_2_11) return TorchVerdict::Accepts;
  // Not in 2.11's list and not a removed one: no release knows it.
  return TorchVerdict::Rejects;
}

ArchList parse_torch_arch_list(std::string_view value, bool contiguous, uint32_t value_begin,
                               Span whole, const TorchVersion* torch) {
  const std::string who = torch_label(torch);
  ArchList out;
  auto span_of = [&](size_t b, size_t e) {
    return contiguous ? Span{value_begin + static_cast<uint32_t>(b), value_begin + static_cast<uint32_t>(e)}
                      : whole;
  };
  // Trim surrounding whitespace as torch effectively does by splitting.
  size_t first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    out.kind = ArchListKind::Empty;
    return out;
  }
  size_t last = value.find_last_not_of(" \t");
  std::string_view trimmed = value.substr(first, last - first + 1);
  if (trimmed == "native") {
    out.kind = ArchListKind::Native;
    return out;
  }
  out.kind = ArchListKind::Explicit;

  // Commas are not separators for torch: the whole comma-joined token is "unknown".
  size_t i = first;
  while (i <= last) {
    char c = value[i];
    if (c == ';' || c == ' ' || c == '\t') { ++i; continue; }
    size_t b = i;
    while (i <= last && value[i] != ';' && value[i] != ' ' && value[i] != '\t') ++i;
    std::string_view tok = value.substr(b, i - b);
    Span sp = span_of(b, i);

    if (tok.find(',') != std::string_view::npos) {
      std::string fixed(tok);
      for (auto& ch : fixed)
        if (ch == ',') ch = ';';
      out.issues.push_back({std::string(tok), sp,
                            fmt::format("torch splits TORCH_CUDA_ARCH_LIST on `;` or spaces, not commas, "
                                        "so `{}` is one unknown arch", tok),
                            fixed, true});
      // Still record what the user meant, so other rules can check the archs.
      size_t pb = 0;
      while (pb <= tok.size()) {
        size_t pe = tok.find(',', pb);
        if (pe == std::string_view::npos) pe = tok.size();
        if (auto a = parse_arch_token(tok.substr(pb, pe - pb)))
          out.entries.push_back({*a, std::string(tok.substr(pb, pe - pb)), span_of(b + pb, b + pe)});
        pb = pe + 1;
      }
      continue;
    }

    // Named architectures (case-sensitive in torch).
    bool named = false;
    for (const auto& n : kNamedArchs) {
      if (n.name.empty()) break;
      bool plus_ptx = tok.size() == n.name.size() + 4 && tok.starts_with(n.name) &&
                      iequals(tok.substr(n.name.size()), "+PTX");
      if (tok != n.name && !plus_ptx) continue;
      named = true;
      if (torch_accepts_arch(n.name, torch) == TorchVerdict::Rejects)
        out.issues.push_back({std::string(tok), sp,
                              fmt::format("{} does not know the name `{}` (it came in a later release; "
                                          "`Unknown CUDA arch`)", who, n.name),
                              std::nullopt, false});
      else if (plus_ptx) {
        bool already = n.expansion.ends_with("+PTX");
        out.issues.push_back(
            {std::string(tok), sp,
             already ? fmt::format("`{}` already expands to `{}`; torch turns `{}` into an unknown "
                                   "`...+PTX+PTX` arch", n.name, n.expansion, tok)
                     : fmt::format("torch does not accept `+PTX` after the name `{}`", n.name),
             already ? std::optional<std::string>(std::string(n.name))
                     : std::optional<std::string>(std::string(n.expansion) + "+PTX"),
             true});
      }
      std::string_view ex = n.expansion;
      size_t pb = 0;
      while (pb < ex.size()) {
        size_t pe = ex.find(';', pb);
        if (pe == std::string_view::npos) pe = ex.size();
        if (auto a = parse_arch_token(ex.substr(pb, pe - pb)))
          out.entries.push_back({*a, std::string(tok), sp});
        pb = pe + 1;
      }
      break;
    }
    if (named) continue;

    auto arch = parse_arch_token(tok);
    if (!arch) {
      std::string why = iequals(tok, "all") || iequals(tok, "all-major")
                            ? fmt::format("torch does not accept `{}` in TORCH_CUDA_ARCH_LIST (it is a "
                                          "CMake spelling); list the archs, e.g. `8.0;9.0`", tok)
                            : fmt::format("`{}` is not an arch torch understands (expected e.g. `8.6`, "
                                          "`9.0a`, `8.6+PTX` or a name like `Ampere`)", tok);
      out.issues.push_back({std::string(tok), sp, why, std::nullopt, false});
      continue;
    }
    std::string dotted = arch->torch_name();
    std::string canonical = dotted + (arch->ptx ? "+PTX" : "");
    bool dotted_form = tok.find('.') != std::string_view::npos && !tok.starts_with("sm_") &&
                       !tok.starts_with("compute_");
    if (!dotted_form) {
      // "sm_80", "80", "compute_80": torch only takes "8.0"; compute_XX meant PTX, and
      // "8.0+PTX" also adds SASS, so that replacement is not exactly equivalent.
      bool is_compute = tok.starts_with("compute_");
      out.issues.push_back({std::string(tok), sp,
                            fmt::format("torch expects `{}`, not `{}`", canonical, tok), canonical,
                            !is_compute});
    } else if (arch->suffix == 'f' && (!torch || release_at_most(*torch, 2, 11))) {  // later ones: not judged
      out.issues.push_back({std::string(tok), sp,
                            fmt::format("{} does not support family targets such as `{}`", who, tok),
                            std::nullopt, false});
    } else if (torch_accepts_arch(dotted, torch) == TorchVerdict::Rejects) {
      bool later = torch && torch_2_11_accepts(dotted);
      out.issues.push_back({std::string(tok), sp,
                            fmt::format("{} does not know arch `{}` (`Unknown CUDA arch`){}", who, dotted,
                                        later ? "; it came in a later release" : ""),
                            std::nullopt, false});
    }
    out.entries.push_back({*arch, std::string(tok), sp});
  }
  return out;
}

}  // namespace cudalint::domain
