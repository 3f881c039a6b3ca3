#include "analyzer/model/docker_build.h"

#include <algorithm>

namespace cudalint::model {

namespace {

using docker::Dockerfile;
using docker::Environment;
using docker::KeyValue;
using docker::ShellCommand;

constexpr std::string_view kArchVar = "TORCH_CUDA_ARCH_LIST";

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> ps) {
  for (auto p : ps)
    if (s.starts_with(p)) return true;
  return false;
}

// Whether `v` appears byte for byte in `raw` (plain, or inside one pair of quotes), and where.
bool locate_value(const std::string& raw, const std::string& v, uint32_t raw_begin, uint32_t& begin) {
  if (raw == v) { begin = raw_begin; return true; }
  if (raw.size() == v.size() + 2 && (raw[0] == '"' || raw[0] == '\'') && raw.back() == raw[0] &&
      raw.compare(1, v.size(), v) == 0) {
    begin = raw_begin + 1;
    return true;
  }
  return false;
}

ArchSetting setting_from_pair(const std::string& path, const KeyValue& kv, const std::string& expanded,
                              bool known, ArchSetting::Kind kind) {
  ArchSetting s;
  s.value = expanded;
  s.value_known = known;
  s.kind = kind;
  s.origin = {path, kv.has_value ? kv.value_span : kv.key_span};
  uint32_t begin = 0;
  if (kv.has_value && known && locate_value(kv.raw_value, expanded, kv.value_span.begin, begin)) {
    s.contiguous = true;
    s.quoted = begin != kv.value_span.begin;
    s.origin.span = {begin, begin + static_cast<uint32_t>(expanded.size())};
  }
  return s;
}

// The ENV/ARG pair that defined a variable, to recover its raw text and span.
const KeyValue* defining_pair(const Dockerfile& df, const docker::Var& var, std::string_view name) {
  if (var.instruction >= df.instructions.size()) return nullptr;
  for (const auto& kv : df.instructions[var.instruction].pairs)
    if (kv.key == name) return &kv;
  return nullptr;
}

// The value of an ENV/ARG/assignment pair after expansion; quotes were removed by the parser.
std::string expanded_value(const KeyValue& kv, const Environment& env, char escape, bool& known) {
  known = true;
  if (kv.value.find('$') == std::string::npos) return kv.value;
  return docker::expand(kv.raw_value, env, escape, known);  // handles the quotes itself
}

std::optional<ArchSetting> setting_from_env(const std::string& path, const Dockerfile& df,
                                            const Environment& env) {
  auto it = env.find(std::string(kArchVar));
  if (it == env.end()) return std::nullopt;
  const docker::Var& var = it->second;
  if (const KeyValue* kv = defining_pair(df, var, kArchVar)) {
    // A redeclared `ARG X` without value takes the global default: use that pair.
    return setting_from_pair(path, *kv, var.value, var.known,
                             var.from_arg ? ArchSetting::Kind::Arg : ArchSetting::Kind::Env);
  }
  ArchSetting s;
  s.value = var.value;
  s.value_known = var.known;
  s.kind = var.from_arg ? ArchSetting::Kind::Arg : ArchSetting::Kind::Env;
  s.origin = {path, var.value_span.end > var.value_span.begin ? var.value_span : var.key_span};
  return s;
}

bool is_local_or_vcs_target(std::string_view w) {
  if (w.starts_with("git+") || w.starts_with("hg+")) return true;
  if (w.find("://") != std::string_view::npos) return false;  // URLs of wheels/sdists
  if (w.ends_with(".whl")) return false;                       // prebuilt: nothing compiles
  if (w == "." || w == ".." || starts_with_any(w, {"./", "../", "/"})) return true;
  return w.ends_with(".tar.gz") || w.ends_with(".zip");  // local sdists build from source
}

// Packages whose installation always compiles CUDA code from source (their PyPI releases are
// sdists, or they are installed from git): flash-attention's own README asks for MAX_JOBS.
constexpr std::string_view kCudaSourcePackages[] = {"flash-attn", "flash_attn", "causal-conv1d", "causal_conv1d",
                                                    "mamba-ssm", "mamba_ssm", "apex", "pytorch3d", "detectron2",
                                                    "torch-scatter", "torch_scatter", "torch-sparse", "torch_sparse",
                                                    "gsplat", "tinycudann"};

std::string_view requirement_name(std::string_view req) {
  size_t e = req.find_first_of("=<>!~[;@ ");
  return req.substr(0, e);
}

bool is_cuda_source_package(std::string_view req) {
  std::string_view name = requirement_name(req);
  for (auto p : kCudaSourcePackages)
    if (name == p) return true;
  // git URLs of the same projects
  if (req.starts_with("git+"))
    for (std::string_view repo : {"flash-attention", "apex", "pytorch3d", "detectron2", "causal-conv1d", "mamba",
                                  "tiny-cuda-nn", "xformers", "gsplat"})
      if (req.find(repo) != std::string_view::npos) return true;
  return false;
}

struct CompileCommand {
  std::string description;
  bool known_cuda_package = false;
  bool local_project = false;
  bool isolated = false;  // a PEP 517 front-end that builds in an isolated environment
};

// A RUN word that installs a CUDA toolkit with nvcc (conda, apt or pip packages).
bool installs_toolkit_word(std::string_view w) {
  return w.starts_with("cuda-toolkit") || w.starts_with("cuda-nvcc") || w.starts_with("nvidia-cuda-nvcc") ||
         w.find("::cuda-toolkit") != std::string_view::npos || w.find("::cuda-nvcc") != std::string_view::npos ||
         w == "cuda" || w.starts_with("cuda=") || w.starts_with("cuda-12") || w.starts_with("cuda-11") ||
         w.starts_with("cuda-13");
}

// Returns a description when the command builds a Python extension from source.
std::optional<CompileCommand> compile_command(const std::vector<docker::ShellWord>& words) {
  std::vector<std::string_view> w;
  for (const auto& sw : words) w.push_back(sw.text);
  size_t i = 0;
  // Skip wrappers that run the rest of the line.
  while (i < w.size() && (w[i] == "env" || w[i] == "sudo" || w[i] == "time" || w[i] == "exec")) ++i;
  if (i >= w.size()) return std::nullopt;
  auto is_python = [](std::string_view s) {
    return s == "python" || s == "python3" || s.starts_with("python3.") || s.ends_with("/python") ||
           s.ends_with("/python3");
  };
  auto is_pip = [](std::string_view s) {
    return s == "pip" || s == "pip3" || s.ends_with("/pip") || s.ends_with("/pip3");
  };
  size_t cmd = i;
  bool pip = false;
  if (is_pip(w[i])) {
    pip = true;
    ++i;
  } else if (w[i] == "uv" && i + 1 < w.size() && w[i + 1] == "pip") {
    pip = true;
    i += 2;
  } else if (is_python(w[i])) {
    ++i;
    while (i < w.size() && w[i].starts_with("-") && w[i] != "-m") ++i;
    if (i + 1 < w.size() && w[i] == "-m" && (w[i + 1] == "pip")) {
      pip = true;
      i += 2;
    } else if (i + 1 < w.size() && w[i] == "-m" && w[i + 1] == "build") {
      bool iso = std::none_of(w.begin() + i, w.end(), [](std::string_view a) { return a == "--no-isolation" || a == "-n"; });
      return CompileCommand{std::string(w[cmd]) + " -m build", false, true, iso};
    } else if (i < w.size() && (w[i] == "setup.py" || w[i].ends_with("/setup.py"))) {
      for (size_t k = i + 1; k < w.size(); ++k)
        if (w[k] == "build" || w[k] == "build_ext" || w[k] == "install" || w[k] == "develop" ||
            w[k] == "bdist_wheel")
          return CompileCommand{std::string(w[cmd]) + " " + std::string(w[i]) + " " + std::string(w[k]), false, true};
      return std::nullopt;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (!pip) return std::nullopt;
  while (i < w.size() && w[i].starts_with("-")) ++i;  // global pip options
  if (i >= w.size() || (w[i] != "install" && w[i] != "wheel")) return std::nullopt;
  bool iso = std::none_of(w.begin() + cmd, w.end(), [](std::string_view a) { return a == "--no-build-isolation"; });
  // "pip install", "python -m pip install", "uv pip wheel": the words up to the subcommand.
  std::string sub;
  for (size_t k = cmd + 1; k <= i; ++k) sub += (k > cmd + 1 ? " " : "") + std::string(w[k]);
  for (size_t k = i + 1; k < w.size(); ++k) {
    std::string_view a = w[k];
    if (a == "-r" || a == "--requirement" || a == "-c" || a == "--constraint" || a == "-i" ||
        a == "--index-url" || a == "--extra-index-url" || a == "-f" || a == "--find-links" ||
        a == "-t" || a == "--target" || a == "--prefix" || a == "--root") {
      ++k;  // option with a separate value
      continue;
    }
    if (a == "-e" || a == "--editable") {
      if (k + 1 < w.size()) {
        bool pkg = is_cuda_source_package(w[k + 1]);
        bool vcs = w[k + 1].find("://") != std::string_view::npos;
        return CompileCommand{std::string(w[cmd]) + " " + sub + " -e " + std::string(w[k + 1]), pkg, !pkg && !vcs, iso};
      }
      continue;
    }
    if (a.starts_with("-")) continue;
    if (is_cuda_source_package(a))
      return CompileCommand{std::string(w[cmd]) + " " + sub + " " + std::string(a), true, false, iso};
    // A git URL of an unknown project may be pure Python: only local paths count as the project.
    if (is_local_or_vcs_target(a) && !a.starts_with("git+") && !a.starts_with("hg+"))
      return CompileCommand{std::string(w[cmd]) + " " + sub + " " + std::string(a), false, true, iso};
  }
  return std::nullopt;
}

docker::MappedText heredoc_text(const docker::Heredoc& h) {
  docker::MappedText m;
  m.text = h.body;
  m.offsets.reserve(h.body.size() + 1);
  // Exact for unindented bodies; `<<-` bodies are shifted by the stripped tabs.
  for (size_t i = 0; i <= h.body.size(); ++i)
    m.offsets.push_back(std::min<uint32_t>(h.body_span.begin + static_cast<uint32_t>(i), h.body_span.end));
  return m;
}

// Records `pip install torch...` requirements with their pin and CUDA variant.
void scan_pip_torch(const std::string& path, const std::vector<docker::ShellWord>& words, DockerStage& stage) {
  size_t i = 0;
  bool pip = false;
  for (; i < words.size(); ++i) {
    std::string_view t = words[i].text;
    if (t == "pip" || t == "pip3" || t.ends_with("/pip") || t.ends_with("/pip3")) { pip = true; break; }
    if (t == "-m" && i + 1 < words.size() && words[i + 1].text == "pip") { pip = true; ++i; break; }
  }
  if (!pip || ++i >= words.size() || words[i].text != "install") return;
  std::optional<domain::IndexVariant> variant;
  std::optional<Origin> variant_origin;
  std::vector<TorchInstall> found;
  for (size_t k = i + 1; k < words.size(); ++k) {
    std::string_view a = words[k].text;
    std::string_view url;
    Span url_span = words[k].span;
    if ((a == "--index-url" || a == "-i" || a == "--extra-index-url") && k + 1 < words.size()) {
      url = words[k + 1].text;
      url_span = words[k + 1].span;
      ++k;
    } else if (a.starts_with("--index-url=") || a.starts_with("--extra-index-url=")) {
      url = a.substr(a.find('=') + 1);
    }
    if (!url.empty()) {
      if (auto v = domain::variant_from_index_url(url)) {
        variant = v;
        variant_origin = Origin{path, url_span};
      }
      continue;
    }
    if (a.starts_with("-")) continue;
    if (requirement_name(a) != "torch") continue;
    TorchInstall ti;
    ti.where = {path, words[k].span};
    ti.spec = std::string(a);
    if (auto eq = a.find("=="); eq != std::string_view::npos && a.find_first_of("<>!~,*", eq) == std::string_view::npos)
      ti.pinned = domain::parse_torch_version(a.substr(eq + 2));
    if (ti.pinned && !ti.pinned->local.empty()) {
      if (ti.pinned->local == "cpu") ti.variant = domain::IndexVariant{std::nullopt, true};
      else if (auto cv = domain::parse_cuda_version(ti.pinned->local)) ti.variant = domain::IndexVariant{cv, false};
      if (ti.variant) ti.variant_origin = ti.where;
    }
    found.push_back(std::move(ti));
  }
  for (auto& ti : found) {
    if (!ti.variant && variant) {
      ti.variant = variant;
      ti.variant_origin = variant_origin;
    }
    stage.torch_installs.push_back(std::move(ti));
  }
}

void scan_run(const std::string& path, const Dockerfile& df, size_t idx, const Environment& env,
              DockerStage& stage) {
  const docker::Instruction& ins = df.instructions[idx];
  std::vector<std::vector<ShellCommand>> scripts;
  if (ins.json_form) {
    ShellCommand c;
    for (size_t k = 0; k < ins.json_args.size(); ++k)
      c.words.push_back({ins.json_args[k], k < ins.json_arg_spans.size() ? ins.json_arg_spans[k] : ins.args.span_of(0, ins.args.text.size())});
    scripts.push_back({c});
  } else {
    scripts.push_back(docker::split_shell(ins.args));
  }
  for (const auto& h : ins.heredocs) scripts.push_back(docker::split_shell(heredoc_text(h)));

  for (const auto& script : scripts) {
    // `export X=...` and `X=... cmd` both make X visible; exports persist for the RUN.
    std::optional<ArchSetting> exported;
    std::optional<Fact<std::string>> exported_jobs;
    bool exported_force = false;
    for (const auto& c : script) {
      std::optional<Fact<std::string>> inline_jobs;
      std::optional<ArchSetting> inline_arch;
      bool inline_force = false;
      for (const auto& kv : c.assignments) {
        if (kv.key == kArchVar) {
          bool known = true;
          std::string v = expanded_value(kv, env, df.escape, known);
          ArchSetting s = setting_from_pair(path, kv, v, known, ArchSetting::Kind::Inline);
          stage.arch_settings.push_back(s);
          if (c.words.empty() || c.words[0].text == "export") exported = s; else inline_arch = s;
        }
        if (kv.key == "FORCE_CUDA" && kv.value == "1") {
          if (c.words.empty() || c.words[0].text == "export") exported_force = true; else inline_force = true;
        }
      }
      for (const auto& wd : c.words) {
        std::string_view t = wd.text;
        if (t == "-arch=native" || t == "--gpu-architecture=native" || t == "-DCMAKE_CUDA_ARCHITECTURES=native" ||
            t == "-DCMAKE_CUDA_ARCHITECTURES:STRING=native")
          stage.native_arch_flags.push_back({path, wd.span});
      }
      for (const auto& kv : c.assignments) {
        if (kv.key == "MAX_JOBS") {
          Fact<std::string> mj{kv.value, {path, kv.has_value ? kv.value_span : kv.key_span}, false};
          // The shell expands `$X` / `$(nproc)` at run time: only literal values are facts.
          if (kv.value.find_first_of("$`") == std::string::npos) stage.max_jobs_settings.push_back(mj);
          if (c.words.empty() || c.words[0].text == "export") exported_jobs = mj; else inline_jobs = mj;
        }
        if (kv.key == "TORCH_DONT_CHECK_COMPILER_ABI" && !kv.value.empty() && kv.value != "0")
          stage.safety_off.push_back({{path, kv.key_span}, "TORCH_DONT_CHECK_COMPILER_ABI=" + kv.value});
      }
      scan_pip_torch(path, c.words, stage);
      for (const auto& wd : c.words)
        if (!stage.installs_toolkit && installs_toolkit_word(wd.text) && !c.words.empty() &&
            (c.words[0].text == "conda" || c.words[0].text == "mamba" || c.words[0].text == "micromamba" ||
             c.words[0].text == "apt-get" || c.words[0].text == "apt" || c.words[0].text == "pip" ||
             c.words[0].text == "pip3"))
          stage.installs_toolkit = Origin{path, wd.span};
      for (const auto& wd : c.words)
        if (wd.text.find("-allow-unsupported-compiler") != std::string::npos)
          stage.safety_off.push_back({{path, wd.span}, "-allow-unsupported-compiler"});
      auto desc = compile_command(c.words);
      if (!desc) continue;
      CompileStep step;
      step.instruction = idx;
      Span first = c.words.front().span, last = c.words.back().span;
      step.where = {path, {first.begin, std::max(first.end, last.end)}};
      step.command = desc->description;
      step.known_cuda_package = desc->known_cuda_package;
      step.local_project = desc->local_project;
      // PIP_NO_BUILD_ISOLATION's truth values are inverted in pip; any setting makes it unknown.
      step.isolated_build = desc->isolated && !env.count("PIP_NO_BUILD_ISOLATION") &&
                            std::none_of(c.assignments.begin(), c.assignments.end(),
                                         [](const auto& kv) { return kv.key == "PIP_NO_BUILD_ISOLATION"; });
      for (const auto& kv : c.assignments)
        if (kv.key == "TCNN_CUDA_ARCHITECTURES") step.own_arch_variable = Origin{path, kv.key_span};
      if (auto it = env.find("TCNN_CUDA_ARCHITECTURES"); it != env.end() && !step.own_arch_variable)
        step.own_arch_variable = Origin{path, it->second.key_span};
      if (inline_jobs) step.max_jobs = inline_jobs;
      else if (exported_jobs) step.max_jobs = exported_jobs;
      else if (auto it = env.find("MAX_JOBS"); it != env.end())
        step.max_jobs = Fact<std::string>{it->second.value, {path, it->second.value_span}, false};
      if (inline_arch) step.arch_list = inline_arch;
      else if (exported) step.arch_list = exported;
      else step.arch_list = setting_from_env(path, df, env);
      auto fc = env.find("FORCE_CUDA");
      step.force_cuda = inline_force || exported_force || (fc != env.end() && fc->second.value == "1");
      stage.compile_steps.push_back(std::move(step));
    }
  }
}

}  // namespace

domain::ArchList ArchSetting::parsed() const {
  return domain::parse_torch_arch_list(value, contiguous, origin.span.begin, origin.span);
}

BaseImageInfo parse_base_image(std::string_view image) {
  BaseImageInfo info;
  auto at = image.find('@');
  if (at != std::string_view::npos) image = image.substr(0, at);
  auto colon = image.rfind(':');
  if (colon == std::string_view::npos || image.find('/', colon) != std::string_view::npos) return info;
  std::string_view repo = image.substr(0, colon), tag = image.substr(colon + 1);
  for (std::string_view prefix : {"docker.io/", "nvcr.io/", "registry.hub.docker.com/"})
    if (repo.starts_with(prefix)) repo.remove_prefix(prefix.size());
  auto flavour_of = [](std::string_view t) {
    if (t.find("-devel") != std::string_view::npos) return ImageFlavour::Devel;
    if (t.find("-runtime") != std::string_view::npos) return ImageFlavour::Runtime;
    if (t.find("-base") != std::string_view::npos) return ImageFlavour::Base;
    return ImageFlavour::Unknown;
  };
  if (repo == "nvidia/cuda") {
    // "12.4.1-cudnn-devel-ubuntu22.04": the version is the first dash-separated field.
    auto dash = tag.find('-');
    if (auto v = domain::parse_cuda_version(tag.substr(0, dash))) info.cuda = v;
    info.flavour = flavour_of(tag);
  } else if (repo == "pytorch/pytorch") {
    // "2.3.0-cuda12.1-cudnn8-devel"
    auto dash = tag.find('-');
    if (dash != std::string_view::npos) info.torch_version = std::string(tag.substr(0, dash));
    auto cu = tag.find("-cuda");
    if (cu != std::string_view::npos) {
      auto rest = tag.substr(cu + 5);
      if (auto v = domain::parse_cuda_version(rest.substr(0, rest.find('-')))) info.cuda = v;
    }
    info.flavour = flavour_of(tag);
  }
  return info;
}

DockerBuild extract_docker_build(const SourceFile& file, const docker::Dockerfile& df) {
  DockerBuild out;
  out.path = file.path;
  for (const auto& st : df.stages) {
    DockerStage ds;
    ds.index = st.index;
    ds.name = st.name;
    const auto& from = df.instructions[st.from_instruction];
    ds.from = {file.path, from.from_image_span};
    if (st.base_image_known) {
      BaseImageInfo bi = parse_base_image(st.base_image);
      if (bi.cuda) ds.cuda = Fact<domain::CudaVersion>{*bi.cuda, ds.from, false};
      ds.flavour = bi.flavour;
    }
    if (st.parent_stage && *st.parent_stage < out.stages.size()) {
      ds.parent = st.parent_stage;
      const DockerStage& parent = out.stages[*st.parent_stage];
      ds.cuda = parent.cuda;
      ds.flavour = parent.flavour;
    }
    size_t end = std::min(st.end_instruction, df.instructions.size());
    // Walk the stage once, updating the environment incrementally (linear, not quadratic).
    Environment env;
    if (st.from_instruction + 1 < end) env = docker::environment_at(df, st.from_instruction + 1);
    for (size_t i = st.from_instruction + 1; i < end; ++i) {
      const auto& ins = df.instructions[i];
      if (ins.keyword == "ENV" || ins.keyword == "ARG") {
        for (const auto& kv : ins.pairs) {
          if (kv.key == "MAX_JOBS" && kv.has_value) {
            bool known = true;
            std::string v = expanded_value(kv, env, df.escape, known);
            if (known) ds.max_jobs_settings.push_back({v, {file.path, kv.value_span}, false});
          }
          if (kv.key == "TORCH_DONT_CHECK_COMPILER_ABI" && kv.has_value && !kv.value.empty() && kv.value != "0")
            ds.safety_off.push_back({{file.path, kv.key_span}, "TORCH_DONT_CHECK_COMPILER_ABI=" + kv.value});
          if (kv.key == "CUDA_HOME" && kv.has_value && !ds.installs_toolkit)
            ds.installs_toolkit = Origin{file.path, kv.key_span};
          if (kv.key != kArchVar) continue;
          if (!kv.has_value) continue;  // `ARG X` alone: the value comes from elsewhere
          bool known = true;
          std::string v = expanded_value(kv, env, df.escape, known);
          ds.arch_settings.push_back(setting_from_pair(
              file.path, kv, v, known, ins.keyword == "ENV" ? ArchSetting::Kind::Env : ArchSetting::Kind::Arg));
        }
      } else if (ins.keyword == "RUN") {
        scan_run(file.path, df, i, env, ds);
      }
      docker::apply_to_environment(df, i, env);
    }
    out.stages.push_back(std::move(ds));
  }
  return out;
}

}  // namespace cudalint::model
