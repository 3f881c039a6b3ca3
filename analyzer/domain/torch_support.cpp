// Data: data/torch_releases.md lists the sources.
#include "analyzer/domain/torch_support.h"

#include <charconv>

#include <fmt/format.h>

namespace cudalint::domain {

std::string TorchVersion::str() const {
  std::string s = patch >= 0 ? fmt::format("{}.{}.{}", major, minor, patch) : fmt::format("{}.{}", major, minor);
  if (!local.empty()) s += "+" + local;
  return s;
}

std::optional<TorchVersion> parse_torch_version(std::string_view t) {
  TorchVersion v;
  auto plus = t.find('+');
  if (plus != std::string_view::npos) {
    v.local = std::string(t.substr(plus + 1));
    t = t.substr(0, plus);
  }
  auto num = [&](int& out) {
    auto r = std::from_chars(t.data(), t.data() + t.size(), out);
    if (r.ec != std::errc() || r.ptr == t.data()) return false;
    t.remove_prefix(static_cast<size_t>(r.ptr - t.data()));
    return true;
  };
  if (!num(v.major) || t.empty() || t[0] != '.') return std::nullopt;
  t.remove_prefix(1);
  if (!num(v.minor)) return std::nullopt;
  if (!t.empty() && t[0] == '.') {
    t.remove_prefix(1);
    if (!num(v.patch)) return std::nullopt;
  }
  // Pre-releases and dev builds ("2.4.0a0", "2.5.0.dev20240801") keep major.minor.
  if (v.major < 1 || v.major > 9) return std::nullopt;
  return v;
}

std::optional<int> torch_wheel_abi(const TorchVersion& torch, const std::optional<CudaVersion>& cuda) {
  std::optional<CudaVersion> variant = cuda;
  if (!torch.local.empty())
    if (auto v = parse_cuda_version(torch.local)) variant = v;
  if (torch.major == 1 || (torch.major == 2 && torch.minor <= 5)) return 0;
  if (torch.major == 2 && torch.minor == 6) {
    // 2.6: only the cu126 wheels switched to the C++11 ABI (pytorch/pytorch#143962).
    if (!variant) return std::nullopt;
    return variant->major == 12 && variant->minor == 6 ? 1 : 0;
  }
  if (torch.major == 2 && torch.minor >= 7) return 1;
  return std::nullopt;
}

std::optional<IndexVariant> variant_from_index_url(std::string_view url) {
  auto p = url.find("/whl/");
  if (p == std::string_view::npos) return std::nullopt;
  std::string_view rest = url.substr(p + 5);
  if (rest.starts_with("nightly/")) rest.remove_prefix(8);
  if (rest.starts_with("test/")) rest.remove_prefix(5);
  rest = rest.substr(0, rest.find('/'));
  if (rest == "cpu") return IndexVariant{std::nullopt, true};
  if (auto v = parse_cuda_version(rest)) return IndexVariant{v, false};
  return std::nullopt;
}

std::vector<std::string> torch_extension_nvcc_command(std::string_view extension_name,
                                                      const std::vector<std::string>& define_macros,
                                                      const std::vector<std::string>& nvcc_args) {
  std::vector<std::string> f;
  for (const auto& m : define_macros) f.push_back("-D" + m);
  for (const char* c : {"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                        "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr"})
    f.push_back(c);
  f.insert(f.end(), nvcc_args.begin(), nvcc_args.end());
  f.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  // The module name's last component, as _define_torch_extension_name does.
  if (!extension_name.empty())
    f.push_back("-DTORCH_EXTENSION_NAME=" + std::string(extension_name.substr(extension_name.rfind('.') + 1)));
  return f;
}

}  // namespace cudalint::domain
