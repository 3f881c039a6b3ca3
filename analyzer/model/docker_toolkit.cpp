// The CUDA toolkit a Dockerfile stage installs: apt, conda/mamba and pip packages with a
// version, NVIDIA's runfile, and ENV variables that point at a versioned toolkit directory.
#include <algorithm>
#include <cctype>

#include "analyzer/model/docker_invocation.h"

namespace cudalint::model::invocation {

namespace {

using domain::CudaVersion;

std::string_view basename(std::string_view w) {
  auto slash = w.rfind('/');
  return slash == std::string_view::npos ? w : w.substr(slash + 1);
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "11-8" (apt's package-name form) -> 11.8.
std::optional<CudaVersion> dashed_version(std::string_view s) {
  auto dash = s.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  std::string_view maj = s.substr(0, dash), min = s.substr(dash + 1);
  if (!all_digits(maj) || !all_digits(min)) return std::nullopt;
  return domain::parse_cuda_version(std::string(maj) + "." + std::string(min));
}

// "12.4.*", "12.4", "12.4.1" -> the version; `keep_patch` false drops a component version's
// third number (cuda-nvcc 12.4.131 belongs to CUDA 12.4).
std::optional<CudaVersion> spec_version(std::string_view s, bool keep_patch) {
  if (s.ends_with(".*")) s.remove_suffix(2);
  else if (s.ends_with('*')) s.remove_suffix(1);
  auto v = domain::parse_cuda_version(s);
  if (v && !keep_patch) v->patch = -1;
  return v;
}

Fact<CudaVersion> fact(const std::string& path, Span span, CudaVersion v) {
  return Fact<CudaVersion>{v, Origin{path, span}, false};
}

enum class Installer { None, Apt, Conda, Pip };

MaybeFact<CudaVersion> from_apt(const std::string& path, const std::vector<docker::ShellWord>& w, size_t from) {
  MaybeFact<CudaVersion> found;
  for (size_t k = from; k < w.size(); ++k) {
    std::string_view a = w[k].text;
    if (a.starts_with('-')) {
      if (a == "-o" || a == "-t" || a == "--target-release") ++k;
      continue;
    }
    std::string_view name = a.substr(0, a.find('=')), pin;
    if (name.size() < a.size()) pin = a.substr(name.size() + 1);
    name = name.substr(0, name.find(':'));  // `:amd64`
    std::optional<CudaVersion> v;
    bool meta = false;
    for (std::string_view prefix : {"cuda-toolkit-", "cuda-nvcc-", "cuda-compiler-", "cuda-"}) {
      if (!name.starts_with(prefix)) continue;
      if ((v = dashed_version(name.substr(prefix.size())))) {
        meta = prefix == "cuda-toolkit-" || prefix == "cuda-";
        break;
      }
    }
    bool named = v.has_value();
    if (!v && (name == "cuda-toolkit" || name == "cuda")) meta = true;
    if ((named || meta || name == "cuda-nvcc" || name == "cuda-compiler") && !pin.empty()) {
      // `cuda-toolkit-12-4=12.4.1-1`: the pin carries the patch release of a toolkit.
      auto p = spec_version(pin.substr(0, pin.find('-')), meta);
      if (p && (!v || (p->major == v->major && p->minor == v->minor))) v = p;
    }
    if (v) found = fact(path, w[k].span, *v);
  }
  return found;
}

MaybeFact<CudaVersion> from_conda(const std::string& path, const std::vector<docker::ShellWord>& w, size_t from) {
  MaybeFact<CudaVersion> versioned, label;
  bool unversioned_toolkit = false;
  for (size_t k = from; k < w.size(); ++k) {
    std::string_view a = w[k].text;
    std::string_view channel;
    Span channel_span = w[k].span;
    if ((a == "-c" || a == "--channel") && k + 1 < w.size()) {
      channel = w[k + 1].text;
      channel_span = w[k + 1].span;
      ++k;
    } else if (a.starts_with("--channel=")) {
      channel = a.substr(10);
    } else if (a.starts_with("-c") && a.size() > 2 && a[2] != '-') {
      channel = a.substr(2);
    } else if (a.starts_with('-')) {
      if (a == "-n" || a == "--name" || a == "-p" || a == "--prefix" || a == "-f" || a == "--file") ++k;
      continue;
    }
    if (!channel.empty()) {
      // nvidia/label/cuda-12.1.0 (also as a URL)
      if (auto at = channel.find("label/cuda-"); at != std::string_view::npos) {
        std::string_view ver = channel.substr(at + 11);
        ver = ver.substr(0, ver.find('/'));
        if (auto v = spec_version(ver, true)) label = fact(path, channel_span, *v);
      }
      continue;
    }
    std::string_view pkg = a;
    if (auto colons = pkg.find("::"); colons != std::string_view::npos) pkg = pkg.substr(colons + 2);
    size_t e = pkg.find_first_of("=<>!~ ");
    std::string_view name = pkg.substr(0, e);
    if (name != "cuda-toolkit" && name != "cuda-nvcc" && name != "cuda-compiler" && name != "cuda") continue;
    bool meta = name == "cuda-toolkit" || name == "cuda";
    std::string_view spec = e == std::string_view::npos ? std::string_view() : pkg.substr(e);
    while (spec.starts_with(' ')) spec.remove_prefix(1);
    if (spec.empty()) {
      unversioned_toolkit = true;
      continue;
    }
    if (spec.starts_with("==")) spec.remove_prefix(2);
    else if (spec.starts_with('=')) spec.remove_prefix(1);
    else if (!(spec[0] >= '0' && spec[0] <= '9')) continue;  // a range: not one version
    spec = spec.substr(0, spec.find_first_of("= ,|"));       // drop a build string
    if (auto v = spec_version(spec, meta)) versioned = fact(path, w[k].span, *v);
  }
  if (versioned) return versioned;
  if (unversioned_toolkit) return label;
  return std::nullopt;
}

MaybeFact<CudaVersion> from_pip(const std::string& path, const std::vector<docker::ShellWord>& w, size_t from) {
  MaybeFact<CudaVersion> found;
  for (size_t k = from; k < w.size(); ++k) {
    std::string_view a = w[k].text;
    if (a.starts_with('-')) {
      if (a == "-r" || a == "-c" || a == "-i" || a == "--index-url" || a == "--extra-index-url" || a == "-f" ||
          a == "--find-links" || a == "-t" || a == "--target" || a == "--prefix" || a == "--root")
        ++k;
      continue;
    }
    size_t e = a.find_first_of("=<>!~[;@ ");
    std::string name(a.substr(0, e));
    for (char& ch : name) ch = ch == '_' || ch == '.' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (!name.starts_with("nvidia-cuda-nvcc") || e == std::string_view::npos) continue;
    std::string_view spec = a.substr(e);
    if (!spec.starts_with("==")) continue;  // only one exact version says which toolkit
    spec.remove_prefix(2);
    spec = spec.substr(0, spec.find_first_of(",; "));
    if (auto v = spec_version(spec, false)) found = fact(path, w[k].span, *v);
  }
  return found;
}

// cuda_12.1.0_530.30.02_linux.run
std::optional<CudaVersion> runfile_version(std::string_view word) {
  std::string_view b = basename(word);
  if (!b.starts_with("cuda_") || !b.ends_with(".run")) return std::nullopt;
  std::string_view ver = b.substr(5);
  ver = ver.substr(0, ver.find('_'));
  return domain::parse_cuda_version(ver);
}

}  // namespace

MaybeFact<CudaVersion> toolkit_from_command(const std::string& path, const std::vector<docker::ShellWord>& w) {
  size_t i = 0;
  while (i < w.size()) {
    std::string_view t = w[i].text;
    if (t == "sudo" || t == "time" || t == "exec" || t == "nice") {
      ++i;
    } else if (t == "env") {
      ++i;
      while (i < w.size() && w[i].text.starts_with('-')) ++i;
    } else {
      break;
    }
  }
  if (i >= w.size()) return std::nullopt;
  std::string_view cmd = basename(w[i].text);
  if (auto v = runfile_version(w[i].text)) return fact(path, w[i].span, *v);
  if (cmd == "sh" || cmd == "bash" || cmd == "dash") {
    for (size_t k = i + 1; k < w.size(); ++k) {
      if (w[k].text.starts_with('-')) continue;
      if (auto v = runfile_version(w[k].text)) return fact(path, w[k].span, *v);
      break;  // the script is the first operand
    }
    return std::nullopt;
  }
  Installer kind = Installer::None;
  size_t sub = i + 1;
  if (cmd == "apt" || cmd == "apt-get" || cmd == "aptitude") {
    kind = Installer::Apt;
  } else if (cmd == "conda" || cmd == "mamba" || cmd == "micromamba") {
    kind = Installer::Conda;
  } else if (cmd == "pip" || cmd == "pip3") {
    kind = Installer::Pip;
  } else if (cmd == "uv" && sub < w.size() && w[sub].text == "pip") {
    kind = Installer::Pip;
    ++sub;
  } else if (cmd == "python" || cmd == "python3" || cmd.starts_with("python3.")) {
    while (sub < w.size() && w[sub].text.starts_with('-') && w[sub].text != "-m") ++sub;
    if (sub + 1 < w.size() && w[sub].text == "-m" && w[sub + 1].text == "pip") {
      kind = Installer::Pip;
      sub += 2;
    }
  }
  if (kind == Installer::None) return std::nullopt;
  // The subcommand: the first word that is not an option (`apt-get -y install`).
  while (sub < w.size() && w[sub].text.starts_with('-')) {
    if (kind == Installer::Apt && (w[sub].text == "-o" || w[sub].text == "-t")) ++sub;
    ++sub;
  }
  if (sub >= w.size()) return std::nullopt;
  std::string_view verb = w[sub].text;
  bool installs = verb == "install" || (kind == Installer::Conda && verb == "create");
  if (!installs) return std::nullopt;
  switch (kind) {
    case Installer::Apt: return from_apt(path, w, sub + 1);
    case Installer::Conda: return from_conda(path, w, sub + 1);
    case Installer::Pip: return from_pip(path, w, sub + 1);
    case Installer::None: break;
  }
  return std::nullopt;
}

MaybeFact<CudaVersion> toolkit_from_env_pair(const std::string& path, const docker::KeyValue& kv,
                                             const std::string& expanded, bool known) {
  if (!kv.has_value) return std::nullopt;
  // `PATH=/usr/local/cuda-12.1/bin:$PATH`: the base image's PATH is not known, its own entries are.
  const std::string& text = known ? expanded : kv.value;
  const std::string& key = kv.key;
  bool is_path = key == "PATH";
  if (!is_path && key != "CUDA_HOME" && key != "CUDA_PATH" && key != "CUDA_ROOT" && key != "CUDA_TOOLKIT_ROOT_DIR" &&
      key != "CUDACXX")
    return std::nullopt;
  // Each ':'-separated entry (one for the directory variables); the toolkit directory is a
  // path component `cuda-X.Y[.Z]`, followed by nothing (or `/bin` for PATH, `/bin/nvcc` for
  // CUDACXX).
  std::string_view rest = text;
  while (true) {
    size_t colon = is_path ? rest.find(':') : std::string_view::npos;
    std::string_view entry = rest.substr(0, colon);
    while (entry.size() > 1 && entry.ends_with('/')) entry.remove_suffix(1);
    std::string_view tail = is_path ? "/bin" : key == "CUDACXX" ? "/bin/nvcc" : "";
    if (entry.ends_with(tail)) {
      std::string_view dir = entry.substr(0, entry.size() - tail.size());
      std::string_view last = basename(dir);
      if (dir.starts_with('/') && last.starts_with("cuda-")) {
        if (auto v = domain::parse_cuda_version(last.substr(5))) {
          // The origin: the directory as written when it is there byte for byte.
          Span span = kv.value_span;
          if (auto at = kv.raw_value.find(dir); at != std::string::npos && kv.value_span.end > kv.value_span.begin)
            span = {static_cast<uint32_t>(kv.value_span.begin + at),
                    static_cast<uint32_t>(kv.value_span.begin + at + dir.size())};
          return fact(path, span, *v);
        }
      }
    }
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  return std::nullopt;
}

}  // namespace cudalint::model::invocation
