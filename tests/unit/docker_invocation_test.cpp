// Unit tests for the invocation facts the model reads from Dockerfiles (analyzer/model/
// docker_build.h): Docker's variable scoping per command, working directories, COPY, CMake
// configure steps, installed toolkits and the torch a step builds against.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/model/docker_build.h"

namespace cudalint::model {
namespace {

struct Built {
  std::string text;
  DockerBuild build;
};

Built build(std::string text) {
  docker::ParseResult pr = docker::parse(text);
  EXPECT_TRUE(pr.errors.empty()) << (pr.errors.empty() ? "" : pr.errors[0].message);
  SourceFile sf("Dockerfile", FileKind::Dockerfile, text);
  Built b{text, extract_docker_build(sf, pr.ast)};
  return b;
}

std::string_view at(const Built& b, Span s) {
  EXPECT_LE(s.begin, s.end);
  EXPECT_LE(s.end, b.text.size());
  if (s.begin > s.end || s.end > b.text.size()) return {};
  return std::string_view(b.text).substr(s.begin, s.end - s.begin);
}

const Fact<std::string>* find(const std::vector<std::pair<std::string, Fact<std::string>>>& vars,
                              std::string_view name) {
  for (const auto& [n, f] : vars)
    if (n == name) return &f;
  return nullptr;
}

const CompileStep& only_step(const DockerStage& st) {
  EXPECT_EQ(st.compile_steps.size(), 1u);
  static const CompileStep none;
  return st.compile_steps.empty() ? none : st.compile_steps[0];
}

// --- Docker's scoping ------------------------------------------------------------------------

TEST(DockerInvocation, GlobalArgIsNotVisibleInTheStageUnlessRedeclared) {
  auto b = build(
      "ARG TORCH_CUDA_ARCH_LIST=8.0\n"
      "ARG BASE=ubuntu:22.04\n"
      "FROM ${BASE}\n"
      "RUN pip install .\n");
  const auto& step = only_step(b.build.stages[0]);
  EXPECT_EQ(find(step.env, "TORCH_CUDA_ARCH_LIST"), nullptr);
  EXPECT_EQ(find(step.env, "BASE"), nullptr);
  EXPECT_TRUE(step.env.empty());
}

TEST(DockerInvocation, RedeclaredGlobalArgIsVisibleWithTheGlobalDefault) {
  auto b = build(
      "ARG TORCH_CUDA_ARCH_LIST=8.0\n"
      "FROM ubuntu:22.04\n"
      "ARG TORCH_CUDA_ARCH_LIST\n"
      "RUN pip install .\n");
  const auto* v = find(only_step(b.build.stages[0]).env, "TORCH_CUDA_ARCH_LIST");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->value, "8.0");
  EXPECT_EQ(at(b, v->origin.span), "8.0");  // the global declaration's value
  EXPECT_TRUE(v->conditional);              // a build-arg default
}

TEST(DockerInvocation, StageEnvDoesNotReachAnUnrelatedStage) {
  auto b = build(
      "FROM ubuntu:22.04 AS a\n"
      "ENV FOO=1\n"
      "ARG BAR=2\n"
      "FROM ubuntu:22.04 AS b\n"
      "RUN pip install .\n");
  const auto& step = only_step(b.build.stages[1]);
  EXPECT_EQ(find(step.env, "FOO"), nullptr);
  EXPECT_EQ(find(step.env, "BAR"), nullptr);
}

TEST(DockerInvocation, EnvAndArgReachStagesBuiltFromTheStage) {
  auto b = build(
      "FROM ubuntu:22.04 AS a\n"
      "ENV FOO=1\n"
      "ARG BAR=2\n"
      "FROM a AS c\n"
      "ENV BAZ=$FOO$BAR\n"
      "RUN pip install .\n");
  const auto& step = only_step(b.build.stages[1]);
  const auto* foo = find(step.env, "FOO");
  ASSERT_NE(foo, nullptr);
  EXPECT_EQ(foo->value, "1");
  EXPECT_FALSE(foo->conditional);
  const auto* bar = find(step.env, "BAR");  // BuildKit: ARGs are inherited too
  ASSERT_NE(bar, nullptr);
  EXPECT_EQ(bar->value, "2");
  EXPECT_TRUE(bar->conditional);
  const auto* baz = find(step.env, "BAZ");
  ASSERT_NE(baz, nullptr);
  EXPECT_EQ(baz->value, "12");
  EXPECT_TRUE(baz->conditional);  // derives from a build arg
  EXPECT_EQ(at(b, baz->origin.span), "$FOO$BAR");
}

TEST(DockerInvocation, ExportEndsWithItsRun) {
  auto b = build(
      "FROM ubuntu:22.04\n"
      "RUN export MAX_JOBS=4 && pip install ./a\n"
      "RUN pip install ./b\n");
  const auto& steps = b.build.stages[0].compile_steps;
  ASSERT_EQ(steps.size(), 2u);
  const auto* mj = find(steps[0].env, "MAX_JOBS");
  ASSERT_NE(mj, nullptr);
  EXPECT_EQ(mj->value, "4");
  EXPECT_EQ(at(b, mj->origin.span), "4");
  EXPECT_EQ(find(steps[1].env, "MAX_JOBS"), nullptr);
}

TEST(DockerInvocation, EnvAfterTheRunDoesNotReachIt) {
  auto b = build(
      "FROM ubuntu:22.04\n"
      "ENV A=early\n"
      "RUN pip install .\n"
      "ENV B=late A=changed\n");
  const auto& step = only_step(b.build.stages[0]);
  ASSERT_NE(find(step.env, "A"), nullptr);
  EXPECT_EQ(find(step.env, "A")->value, "early");
  EXPECT_EQ(find(step.env, "B"), nullptr);
}

TEST(DockerInvocation, InlineAssignmentsShellVariablesAndUnset) {
  auto b = build(
      "FROM ubuntu:22.04\n"
      "ENV KEEP=k GONE=g\n"
      "RUN LOCAL=x && KEEP=changed && unset GONE && TORCH_CUDA_ARCH_LIST=\"8.0;9.0\" pip install . && "
      "NPROC=$(nproc) && export NPROC && env ONE=1 pip install ./other\n");
  const auto& steps = b.build.stages[0].compile_steps;
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(find(steps[0].env, "LOCAL"), nullptr);  // a shell variable, not exported
  ASSERT_NE(find(steps[0].env, "KEEP"), nullptr);
  EXPECT_EQ(find(steps[0].env, "KEEP")->value, "changed");  // already exported by ENV
  EXPECT_EQ(find(steps[0].env, "GONE"), nullptr);
  const auto* arch = find(steps[0].env, "TORCH_CUDA_ARCH_LIST");
  ASSERT_NE(arch, nullptr);
  EXPECT_EQ(arch->value, "8.0;9.0");
  EXPECT_EQ(at(b, arch->origin.span), "\"8.0;9.0\"");
  EXPECT_EQ(find(steps[1].env, "TORCH_CUDA_ARCH_LIST"), nullptr);  // inline: one command only
  ASSERT_NE(find(steps[1].env, "ONE"), nullptr);
  EXPECT_EQ(find(steps[1].env, "NPROC"), nullptr);
  ASSERT_EQ(steps[1].unknown_env.size(), 1u);
  EXPECT_EQ(steps[1].unknown_env[0], "NPROC");
}

TEST(DockerInvocation, ArgWithoutValueIsUnknown) {
  auto b = build("FROM ubuntu:22.04\nARG ARCHS\nRUN pip install .\n");
  const auto& step = only_step(b.build.stages[0]);
  EXPECT_EQ(find(step.env, "ARCHS"), nullptr);
  ASSERT_EQ(step.unknown_env.size(), 1u);
  EXPECT_EQ(step.unknown_env[0], "ARCHS");
}

// --- Directories, COPY and what is built -------------------------------------------------------

TEST(DockerInvocation, CopyDestinationsResolveAgainstWorkdir) {
  auto b = build(
      "FROM ubuntu:22.04 AS build\n"
      "WORKDIR /opt\n"
      "WORKDIR app\n"
      "COPY . .\n"
      "COPY setup.py pyproject.toml ./\n"
      "COPY [\"csrc\", \"src/csrc\"]\n"
      "ADD https://example.com/x.tar.gz /tmp/\n"
      "ADD third_party.tar.gz /deps/\n"
      "COPY --from=build /opt/app/dist /wheels\n"
      "COPY <<EOF /etc/x.conf\nx\nEOF\n");
  const auto& copies = b.build.stages[0].copies;
  ASSERT_EQ(copies.size(), 5u);
  EXPECT_EQ(copies[0].sources, std::vector<std::string>{"."});
  EXPECT_EQ(copies[0].dest, "/opt/app");
  EXPECT_TRUE(copies[0].dest_is_directory);
  EXPECT_EQ(copies[0].instruction, 3u);
  EXPECT_EQ(at(b, copies[0].where.span), "COPY . .");
  EXPECT_EQ(copies[1].sources, (std::vector<std::string>{"setup.py", "pyproject.toml"}));
  EXPECT_EQ(copies[1].dest, "/opt/app");
  EXPECT_EQ(copies[2].sources, std::vector<std::string>{"csrc"});
  EXPECT_EQ(copies[2].dest, "/opt/app/src/csrc");
  EXPECT_FALSE(copies[2].dest_is_directory);
  EXPECT_EQ(copies[3].sources, std::vector<std::string>{"third_party.tar.gz"});
  EXPECT_EQ(copies[3].dest, "/deps");
  EXPECT_FALSE(copies[3].from_stage);
  ASSERT_TRUE(copies[4].from_stage);
  EXPECT_EQ(*copies[4].from_stage, "build");
  EXPECT_EQ(copies[4].dest, "/wheels");
}

TEST(DockerInvocation, CwdFollowsWorkdirAndCdAndBuildPathResolves) {
  auto b = build(
      "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel AS base\n"
      "RUN pip install .\n"
      "ENV SRC=/src\n"
      "WORKDIR $SRC\n"
      "RUN cd csrc && pip install -e \".[dev]\" && cd - && pip install --no-build-isolation ./ext\n"
      "RUN python setup.py install && python /opt/x/setup.py build_ext && pip install flash-attn\n"
      "RUN git clone https://github.com/a/b && cd b/.. && pushd b && python -m build -o dist . && popd && "
      "pip install $SRC/other\n"
      "FROM base\n"
      "RUN pip install ../up\n");
  const auto& s = b.build.stages[0].compile_steps;
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s[0].cwd, "/workspace");  // pytorch/pytorch's WORKDIR
  EXPECT_EQ(s[0].build_path, "/workspace");
  EXPECT_EQ(s[1].cwd, "/src/csrc");
  EXPECT_EQ(s[1].build_path, "/src/csrc");
  EXPECT_EQ(s[2].cwd, "/src");  // `cd -`
  EXPECT_EQ(s[2].build_path, "/src/ext");
  EXPECT_EQ(s[3].build_path, "/src");
  EXPECT_EQ(s[4].build_path, "/opt/x");
  EXPECT_EQ(s[4].cwd, "/src");
  EXPECT_FALSE(s[5].build_path);  // a package name
  EXPECT_EQ(s[6].cwd, "/src/b");
  EXPECT_EQ(s[6].build_path, "/src/b");
  EXPECT_EQ(s[7].cwd, "/src");  // popd
  EXPECT_EQ(s[7].build_path, "/src/other");
  const auto& child = only_step(b.build.stages[1]);
  EXPECT_EQ(child.cwd, "/src");  // WORKDIR is inherited through FROM <stage>
  EXPECT_EQ(child.build_path, "/up");
}

TEST(DockerInvocation, UnknownDirectoriesStayUnknown) {
  auto b = build(
      "FROM ubuntu:22.04\n"
      "ARG DIR\n"
      "RUN cd $DIR && pip install .\n"
      "RUN pip install /abs && cd \"$(mktemp -d)\" && pip install .\n");
  const auto& s = b.build.stages[0].compile_steps;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].cwd, "");
  EXPECT_FALSE(s[0].build_path);
  EXPECT_EQ(s[1].cwd, "/");
  EXPECT_EQ(s[1].build_path, "/abs");
  EXPECT_EQ(s[2].cwd, "");
  EXPECT_FALSE(s[2].build_path);
}

// --- CMake ---------------------------------------------------------------------------------------

TEST(DockerInvocation, CMakeSourceBuildAndDefines) {
  auto b = build(
      "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
      "WORKDIR /src\n"
      "ENV CUDAARCHS=80\n"
      "ARG ARCHS=\"86;89\"\n"
      "RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "
      "-DCMAKE_CUDA_ARCHITECTURES:STRING=\"80;90\" -D USE_X=ON -DA=$ARCHS -DB=$(nproc) && cmake --build build\n"
      "RUN mkdir build && cd build && cmake .. && make\n"
      "RUN cmake -B/tmp/out /opt/proj -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc\n");
  const auto& cm = b.build.stages[0].cmake_steps;
  ASSERT_EQ(cm.size(), 3u);
  EXPECT_EQ(cm[0].cwd, "/src");
  EXPECT_EQ(cm[0].source_dir, "/src");
  EXPECT_EQ(cm[0].build_dir, "/src/build");
  ASSERT_EQ(cm[0].defines.size(), 4u);
  EXPECT_EQ(cm[0].defines[0].first, "CMAKE_BUILD_TYPE");
  EXPECT_EQ(cm[0].defines[0].second.value, "Release");
  EXPECT_EQ(at(b, cm[0].defines[0].second.origin.span), "Release");
  EXPECT_EQ(cm[0].defines[1].first, "CMAKE_CUDA_ARCHITECTURES");
  EXPECT_EQ(cm[0].defines[1].second.value, "80;90");
  EXPECT_EQ(at(b, cm[0].defines[1].second.origin.span), "80;90");
  EXPECT_EQ(cm[0].defines[2].first, "USE_X");
  EXPECT_EQ(at(b, cm[0].defines[2].second.origin.span), "ON");
  EXPECT_EQ(cm[0].defines[3].first, "A");
  EXPECT_EQ(cm[0].defines[3].second.value, "86;89");
  EXPECT_TRUE(cm[0].defines[3].second.conditional);
  EXPECT_EQ(at(b, cm[0].defines[3].second.origin.span), "$ARCHS");
  EXPECT_EQ(cm[0].unknown_defines, std::vector<std::string>{"B"});
  ASSERT_NE(find(cm[0].env, "CUDAARCHS"), nullptr);
  EXPECT_EQ(cm[0].command.substr(0, 17), "cmake -S . -B bui");
  EXPECT_EQ(at(b, cm[0].where.span).substr(0, 5), "cmake");

  EXPECT_EQ(cm[1].cwd, "/src/build");
  EXPECT_EQ(cm[1].source_dir, "/src");
  EXPECT_EQ(cm[1].build_dir, "/src/build");
  EXPECT_TRUE(cm[1].defines.empty());

  EXPECT_EQ(cm[2].source_dir, "/opt/proj");
  EXPECT_EQ(cm[2].build_dir, "/tmp/out");
  ASSERT_EQ(cm[2].defines.size(), 1u);
  EXPECT_EQ(cm[2].defines[0].second.value, "/usr/local/cuda/bin/nvcc");
}

// --- Toolkits ------------------------------------------------------------------------------------

MaybeFact<domain::CudaVersion> installed(const std::string& text, const Built** keep = nullptr) {
  static Built last;
  last = build(text);
  if (keep) *keep = &last;
  return last.build.stages.back().installed_cuda;
}

void expect_version(const std::string& text, int major, int minor, std::string_view origin) {
  const Built* b = nullptr;
  auto v = installed(text, &b);
  ASSERT_TRUE(v) << text;
  EXPECT_EQ(v->value.major, major) << text;
  EXPECT_EQ(v->value.minor, minor) << text;
  EXPECT_EQ(at(*b, v->origin.span), origin) << text;
}

TEST(DockerInvocation, ToolkitFromApt) {
  expect_version("FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y cuda-toolkit-11-8\n", 11, 8,
                 "cuda-toolkit-11-8");
  expect_version("FROM ubuntu:22.04\nRUN apt install -y --no-install-recommends cuda-nvcc-12-4 cuda-cudart-dev-12-4\n",
                 12, 4, "cuda-nvcc-12-4");
  expect_version("FROM ubuntu:22.04\nRUN sudo apt-get -y install cuda-compiler-12-1\n", 12, 1, "cuda-compiler-12-1");
  expect_version("FROM ubuntu:22.04\nRUN apt-get install -y cuda-12-2\n", 12, 2, "cuda-12-2");
  auto pinned = installed("FROM ubuntu:22.04\nRUN apt-get install -y cuda-toolkit-12-4=12.4.1-1\n");
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->value.str(), "12.4.1");
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN apt-get install -y cuda-toolkit cuda-drivers-535 cuda-keyring\n"));
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN apt-get remove -y cuda-toolkit-11-8\n"));
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN echo cuda-toolkit-11-8\n"));
}

TEST(DockerInvocation, ToolkitFromConda) {
  expect_version("FROM ubuntu:22.04\nRUN conda install -y -c nvidia cuda-nvcc=12.1\n", 12, 1, "cuda-nvcc=12.1");
  expect_version("FROM ubuntu:22.04\nRUN mamba install -y \"cuda-toolkit=12.4.*\"\n", 12, 4, "\"cuda-toolkit=12.4.*\"");
  expect_version("FROM ubuntu:22.04\nRUN micromamba install -y nvidia::cuda-toolkit=11.8\n", 11, 8,
                 "nvidia::cuda-toolkit=11.8");
  expect_version("FROM ubuntu:22.04\nRUN conda install -y -c nvidia/label/cuda-12.1.0 cuda-toolkit\n", 12, 1,
                 "nvidia/label/cuda-12.1.0");
  auto component = installed("FROM ubuntu:22.04\nRUN conda install cuda-nvcc==12.1.105\n");
  ASSERT_TRUE(component);
  EXPECT_EQ(component->value.str(), "12.1");  // a component's own patch number is not the toolkit's
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN conda install -y cudatoolkit=11.8 \"cuda-nvcc>=12\"\n"));
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN conda install -y -c nvidia/label/cuda-12.1.0 numpy\n"));
}

TEST(DockerInvocation, ToolkitFromPipRunfileAndEnv) {
  expect_version("FROM ubuntu:22.04\nRUN pip install nvidia-cuda-nvcc-cu12==12.4.*\n", 12, 4,
                 "nvidia-cuda-nvcc-cu12==12.4.*");
  expect_version("FROM ubuntu:22.04\nRUN python3 -m pip install nvidia_cuda_nvcc_cu11==11.8.89\n", 11, 8,
                 "nvidia_cuda_nvcc_cu11==11.8.89");
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN pip install nvidia-cuda-nvcc-cu12\n"));
  expect_version("FROM ubuntu:22.04\nRUN sh cuda_12.1.0_530.30.02_linux.run --silent --toolkit\n", 12, 1,
                 "cuda_12.1.0_530.30.02_linux.run");
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nRUN wget https://x/cuda_12.1.0_530.30.02_linux.run\n"));
  expect_version("FROM ubuntu:22.04\nENV CUDA_HOME=/usr/local/cuda-12.1\n", 12, 1, "/usr/local/cuda-12.1");
  expect_version("FROM ubuntu:22.04\nENV PATH=/usr/local/cuda-11.8/bin:$PATH\n", 11, 8, "/usr/local/cuda-11.8");
  EXPECT_FALSE(installed("FROM ubuntu:22.04\nENV CUDA_HOME=/usr/local/cuda PATH=/usr/local/cuda/bin:$PATH\n"));
  // The last one in the stage wins; a stage built FROM it inherits it.
  auto last = installed(
      "FROM ubuntu:22.04 AS a\nRUN apt-get install -y cuda-toolkit-11-8\nENV CUDA_HOME=/usr/local/cuda-12.1\n"
      "FROM a\nRUN true\n");
  ASSERT_TRUE(last);
  EXPECT_EQ(last->value.str(), "12.1");
}

TEST(DockerInvocation, EffectiveCudaPrefersTheInstalledToolkit) {
  auto b = build(
      "FROM ubuntu:22.04 AS plain\n"
      "RUN apt-get install -y cuda-toolkit-11-8\n"
      "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS rt\n"
      "FROM rt AS child\n"
      "RUN conda install -y cuda-nvcc=12.6\n"
      "FROM python:3.11\n");
  const auto& st = b.build.stages;
  ASSERT_EQ(st.size(), 4u);
  auto e0 = effective_cuda(st[0]);
  ASSERT_TRUE(e0);
  EXPECT_EQ(e0->value.str(), "11.8");
  EXPECT_EQ(at(b, e0->origin.span), "cuda-toolkit-11-8");
  EXPECT_FALSE(st[0].cuda);
  auto e1 = effective_cuda(st[1]);
  ASSERT_TRUE(e1);
  EXPECT_EQ(e1->value.str(), "12.4.1");
  EXPECT_EQ(at(b, e1->origin.span), "nvidia/cuda:12.4.1-runtime-ubuntu22.04");
  auto e2 = effective_cuda(st[2]);
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->value.str(), "12.6");
  ASSERT_TRUE(st[2].cuda);
  EXPECT_EQ(st[2].cuda->value.str(), "12.4.1");  // the base image's, inherited from rt
  EXPECT_FALSE(effective_cuda(st[3]));
}

// --- torch ---------------------------------------------------------------------------------------

TEST(DockerInvocation, TorchInstallBeforeTheStepInTheStageOrAnAncestor) {
  auto b = build(
      "FROM ubuntu:22.04 AS base\n"
      "RUN pip install torch==2.1.0 && pip install ./a\n"
      "RUN pip install torch==2.3.0+cu121 flash-attn\n"
      "RUN pip install ./b\n"
      "FROM base AS child\n"
      "RUN pip install ./c\n"
      "FROM ubuntu:22.04\n"
      "RUN pip install ./d\n");
  const auto& s0 = b.build.stages[0];
  ASSERT_EQ(s0.torch_installs.size(), 2u);
  ASSERT_EQ(s0.compile_steps.size(), 3u);
  EXPECT_EQ(s0.compile_steps[0].torch_install, 0u);
  EXPECT_EQ(s0.compile_steps[0].torch_install_stage, 0u);
  EXPECT_EQ(s0.compile_steps[1].torch_install, 0u);  // the same command's torch is not there yet
  EXPECT_EQ(s0.compile_steps[2].torch_install, 1u);
  const auto& c = only_step(b.build.stages[1]);
  EXPECT_EQ(c.torch_install, 1u);
  EXPECT_EQ(c.torch_install_stage, 0u);
  const auto& d = only_step(b.build.stages[2]);
  EXPECT_FALSE(d.torch_install);
  EXPECT_FALSE(d.torch_install_stage);
}

// --- Hostile input -------------------------------------------------------------------------------

TEST(DockerInvocation, HostileInputIsBoundedAndDoesNotThrow) {
  // Many variables seen by many steps, and many stages built on one stage.
  std::string t = "FROM ubuntu:22.04 AS base\n";
  for (int i = 0; i < 1000; ++i) t += "ENV V" + std::to_string(i) + "=x ARG" + std::to_string(i) + "=$V0\n";
  for (int i = 0; i < 1000; ++i) t += "RUN cd .. && cd ../../.. && pip install ./p && cmake -D -DX= -S -B\n";
  for (int i = 0; i < 1000; ++i) t += "FROM base\nRUN cd && popd && pushd && cd - && pip install .\n";
  t += "RUN cmake " + std::string(100000, 'x') + " -D" + std::string(100000, '=') + "\n";
  t += "COPY\nCOPY a\nADD http://x/\nWORKDIR\nWORKDIR ${UNSET}/..\nRUN apt-get install\nRUN conda install -c\n";
  auto start = std::chrono::steady_clock::now();
  DockerBuild out;
  EXPECT_NO_THROW({
    docker::ParseResult pr = docker::parse(t);
    SourceFile sf("Dockerfile", FileKind::Dockerfile, t);
    out = extract_docker_build(sf, pr.ast);
  });
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(secs, 30.0);  // generous for sanitizer builds
  size_t entries = 0;
  for (const auto& st : out.stages)
    for (const auto& s : st.compile_steps) entries += s.env.size() + s.unknown_env.size();
  EXPECT_LE(entries, size_t{1} << 17);
  EXPECT_EQ(out.stages.size(), 1001u);
  // Every byte of junk still builds a fact set without throwing.
  for (std::string junk : {"FROM\x01\nRUN cd \"\n", "FROM a\nRUN export =1 && unset && cd '' && cmake -S\n",
                           "FROM a\nCOPY [\"\"]\nRUN pip install -e\n", "FROM a AS a\nFROM a\nRUN ${\n"}) {
    docker::ParseResult pr = docker::parse(junk);
    SourceFile sf("Dockerfile", FileKind::Dockerfile, junk);
    EXPECT_NO_THROW(extract_docker_build(sf, pr.ast));
  }
}

}  // namespace
}  // namespace cudalint::model
