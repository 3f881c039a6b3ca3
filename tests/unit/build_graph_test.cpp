// The build graph (analyzer/model/build_graph.h): which builds compile each CUDA source, with
// which archs, on small trees written to a temporary directory and analysed as `cudalint
// build-graph` does (run_analysis with graph_only).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/engine/run.h"
#include "tests/unit/temp_dir.h"

namespace cudalint {
namespace {

using test_support::TempDir;

constexpr const char* kKernel = "__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n";

model::BuildGraph graph_of(const TempDir& d, std::optional<std::string> target_archs = std::nullopt) {
  RunOptions o;
  o.root = d.path().string();
  o.paths = {d.path().string()};
  o.jobs = 1;
  o.graph_only = true;
  o.target_archs = std::move(target_archs);
  return run_analysis(o).graph;
}

// "sm_80 sm_90" for a source's builds through one invocation kind, "?" for an unknown build,
// builds separated by " | " in graph order.
std::string archs(const model::BuildGraph& g, const std::string& path,
                  model::Invocation::Kind kind = model::Invocation::Kind::Local) {
  const auto* builds = g.builds_of(path);
  if (!builds) return "<no build>";
  std::string out;
  for (const auto& b : *builds) {
    if (g.invocations[b.invocation].kind != kind) continue;
    if (!out.empty()) out += " | ";
    if (b.archs_unknown) {
      out += "?";
      continue;
    }
    std::string one;
    for (const auto& a : b.archs) one += (one.empty() ? "" : " ") + model::arch_name(a) + (a.arch.ptx && a.sass ? "+ptx" : "");
    out += one;
  }
  return out.empty() ? "<none>" : out;
}

std::string setup_py(const std::string& ext, const std::string& sources, const std::string& before = "") {
  return "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, "
         "CUDAExtension\n" +
         before + "setup(name='" + ext + "', ext_modules=[CUDAExtension('" + ext + "', " + sources +
         ")], cmdclass={'build_ext': BuildExtension})\n";
}

TEST(BuildGraph, TwoExtensionsKeepTheirOwnArchs) {
  TempDir d("cudalint-graph");
  d.write("a/setup.py", setup_py("a", "['a.cu']", "os.environ['TORCH_CUDA_ARCH_LIST'] = '7.5'\n"));
  d.write("a/a.cu", kKernel);
  d.write("b/setup.py", setup_py("b", "['b.cu']"));
  d.write("b/b.cu", kKernel);
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "a/a.cu"), "sm_75");
  EXPECT_EQ(archs(g, "b/b.cu"), "?");  // the local GPU's: never a's list
  const auto* b = g.builds_of("b/b.cu");
  ASSERT_TRUE(b);
  EXPECT_NE(b->front().archs_unknown->find("GPUs visible at build time"), std::string::npos);
}

TEST(BuildGraph, NvccArchFlagsBeatTheListAndSetdefaultFillsAnUnsetOne) {
  TempDir d("cudalint-graph");
  d.write("setup.py",
          "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
          "os.environ.setdefault('TORCH_CUDA_ARCH_LIST', '8.0;9.0+PTX')\n"
          "setup(ext_modules=[CUDAExtension('own', ['own.cu'], extra_compile_args={'nvcc': "
          "['-gencode=arch=compute_75,code=sm_75']}), CUDAExtension('env', ['env.cu'])])\n");
  d.write("own.cu", kKernel);
  d.write("env.cu", kKernel);
  d.write("Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"8.6\"\nCOPY . /src\n"
          "RUN pip install --no-build-isolation /src\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "own.cu"), "sm_75");
  EXPECT_EQ(archs(g, "own.cu", model::Invocation::Kind::Dockerfile), "sm_75");
  EXPECT_EQ(archs(g, "env.cu"), "sm_80 sm_90+ptx");                              // setdefault, nothing set
  EXPECT_EQ(archs(g, "env.cu", model::Invocation::Kind::Dockerfile), "sm_86");  // the ENV wins
  // The Dockerfile's build has the base image's toolkit; the developer's machine none known.
  for (const auto& b : *g.builds_of("env.cu")) {
    const bool docker = g.invocations[b.invocation].kind == model::Invocation::Kind::Dockerfile;
    EXPECT_EQ(b.cuda.has_value(), docker);
    if (docker) EXPECT_EQ(b.cuda->value.str(), "12.4.1");
  }
}

TEST(BuildGraph, ADockerfileThatBuildsACloneGivesTheProjectNothing) {
  TempDir d("cudalint-graph");
  d.write(".github/docker/Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=\"6.0;7.0\"\n"
          "RUN git clone https://github.com/pytorch/pytorch /p && cd /p && python3 setup.py install\n");
  d.write("setup.py", setup_py("k", "['k.cu']", "os.environ['TORCH_CUDA_ARCH_LIST'] = '9.0'\n"));
  d.write("k.cu", kKernel);
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu"), "sm_90");
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "<none>");
}

TEST(BuildGraph, ExportEndsWithItsRunAndAGlobalArgIsNotRedeclared) {
  TempDir d("cudalint-graph");
  d.write("Dockerfile",
          "ARG TORCH_CUDA_ARCH_LIST=7.0\nFROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
          "RUN export TORCH_CUDA_ARCH_LIST=7.5\nCOPY . /src\nRUN pip install /src\n"
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG TORCH_CUDA_ARCH_LIST\nCOPY . /src\nRUN pip install /src\n");
  d.write("setup.py", setup_py("k", "['k.cu']"));
  d.write("k.cu", kKernel);
  auto g = graph_of(d);
  // Stage 0 sees no list (unknown); stage 1 redeclares the global ARG and gets its default.
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "? | sm_70");
}

TEST(BuildGraph, ATestsProjectOfItsOwnDoesNotReachTheLibrary) {
  TempDir d("cudalint-graph");
  d.write("CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.24)\nproject(lib LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 90)\n"
          "add_library(lib k.cu)\n");
  d.write("k.cu", kKernel);
  d.write("tests/CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.24)\nproject(t LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 75-real)\n"
          "add_executable(t t.cu)\n");
  d.write("tests/t.cu", kKernel);
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu"), "sm_90+ptx");
  EXPECT_EQ(archs(g, "tests/t.cu"), "sm_75");  // -real: no PTX
}

TEST(BuildGraph, ACompileCommandsEntryDecidesItsFile) {
  TempDir d("cudalint-graph");
  d.write("setup.py", setup_py("k", "['k.cu']", "os.environ['TORCH_CUDA_ARCH_LIST'] = '9.0'\n"));
  d.write("k.cu", kKernel);
  d.write("compile_commands.json",
          "[{\"directory\": \".\", \"file\": \"k.cu\", \"command\": \"nvcc -gencode arch=compute_80,code=sm_80 -c "
          "k.cu\"}]\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu"), "sm_80");
}

TEST(BuildGraph, DeclaredSourcesAbsentFromTheCheckoutAreListed) {
  TempDir d("cudalint-graph");
  d.write("setup.py", setup_py("k", "['csrc/generated.cu', 'csrc/k.cpp']",
                               "os.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"));
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "csrc/generated.cu"), "sm_80");
  EXPECT_EQ(g.builds_of("csrc/k.cpp"), nullptr);  // host code: no device archs
}

TEST(BuildGraph, TargetArchsOverrideEveryBuild) {
  TempDir d("cudalint-graph");
  d.write("setup.py", setup_py("k", "['k.cu']"));
  d.write("k.cu", kKernel);
  auto g = graph_of(d, "8.9");
  EXPECT_EQ(archs(g, "k.cu"), "sm_89");
}

TEST(BuildGraph, AComputedNvccListIsUnknownNotTheEnvironmentsList) {
  TempDir d("cudalint-graph");
  d.write("setup.py",
          "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
          "os.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"
          "setup(ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3'] + gencode()})])\n");
  d.write("k.cu", kKernel);
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu"), "?");
}

// apex's and flash-attention's idiom: gencode flags chosen by the toolkit's `nvcc -V` and an
// environment variable. Each invocation evaluates them with its own toolkit and environment.
TEST(BuildGraph, NvccFlagsComputedFromTheToolkitFollowEachInvocation) {
  TempDir d("cudalint-graph");
  d.write("setup.py",
          "import os, subprocess\nfrom setuptools import setup\nfrom packaging.version import parse, Version\n"
          "from torch.utils.cpp_extension import CUDAExtension, CUDA_HOME\n"
          "def bare_metal(cuda_dir):\n"
          "    out = subprocess.check_output([cuda_dir + '/bin/nvcc', '-V'], universal_newlines=True).split()\n"
          "    return parse(out[out.index('release') + 1].split(',')[0])\n"
          "cc_flag = ['-gencode', 'arch=compute_80,code=sm_80']\n"
          "if CUDA_HOME is not None:\n"
          "    if bare_metal(CUDA_HOME) >= Version('12.8') and os.getenv('WITH_SM100', '1') == '1':\n"
          "        cc_flag += ['-gencode', 'arch=compute_100,code=sm_100']\n"
          "setup(ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3'] + cc_flag})])\n");
  d.write("k.cu", kKernel);
  d.write("Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS old\nCOPY . /src\nRUN pip install /src\n"
          "FROM nvidia/cuda:12.8.1-devel-ubuntu22.04 AS new\nCOPY . /src\nRUN pip install /src\n"
          "FROM nvidia/cuda:12.8.1-devel-ubuntu22.04 AS off\nENV WITH_SM100=0\nCOPY . /src\nRUN pip install /src\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "sm_80 | sm_80 sm_100 | sm_80");
  // The developer's toolkit is not known: both branches' flags (the toolkit decides which).
  EXPECT_EQ(archs(g, "k.cu"), "sm_80 sm_100");
}

// A build that resolves the computed flags to ones naming no arch reads TORCH_CUDA_ARCH_LIST,
// setup.py's own setting first.
TEST(BuildGraph, ResolvedFlagsWithoutArchsReadSetupPysOwnList) {
  TempDir d("cudalint-graph");
  d.write("setup.py",
          "import os, subprocess\nfrom setuptools import setup\nfrom packaging.version import parse, Version\n"
          "from torch.utils.cpp_extension import CUDAExtension, CUDA_HOME\n"
          "os.environ['TORCH_CUDA_ARCH_LIST'] = '8.6'\n"
          "out = subprocess.check_output([CUDA_HOME + '/bin/nvcc', '-V'], universal_newlines=True).split()\n"
          "flags = ['-O3']\n"
          "if parse(out[out.index('release') + 1].split(',')[0]) >= Version('12.0'):\n"
          "    flags.append('-DNEW_TOOLKIT')\n"
          "setup(ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': flags})])\n");
  d.write("k.cu", kKernel);
  d.write("Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /src\nRUN pip install /src\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "sm_86");
  EXPECT_EQ(archs(g, "k.cu"), "?") << "the developer's toolkit is not known";
}

TEST(BuildGraph, ADockerBuildCompilesOnlyWhatItsCopiesBring) {
  TempDir d("cudalint-graph");
  d.write("setup.py", setup_py("k", "['csrc/k.cu']"));
  d.write("csrc/k.cu", kKernel);
  d.write("Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=8.0\nWORKDIR /app\n"
          "COPY setup.py .\nRUN pip install .\nCOPY csrc csrc\nRUN pip install .\n");
  auto g = graph_of(d);
  // The first install sees no csrc/ in the image; the second does.
  const auto* b = g.builds_of("csrc/k.cu");
  ASSERT_TRUE(b);
  std::vector<std::string> docker_lines;
  for (const auto& x : *b)
    if (g.invocations[x.invocation].kind == model::Invocation::Kind::Dockerfile)
      docker_lines.push_back(g.invocations[x.invocation].command);
  EXPECT_EQ(docker_lines.size(), 1u);
  EXPECT_EQ(archs(g, "csrc/k.cu", model::Invocation::Kind::Dockerfile), "sm_80");
}

TEST(BuildGraph, AnEnvSwitchInTheDockerfileSkipsTheExtension) {
  TempDir d("cudalint-graph");
  d.write("setup.py",
          "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
          "ext = []\nif os.environ.get('X_BUILD_CUDA', '1') == '1':\n    ext.append(CUDAExtension('k', ['k.cu']))\n"
          "setup(ext_modules=ext)\n");
  d.write("k.cu", kKernel);
  d.write("Dockerfile",
          "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=8.0 X_BUILD_CUDA=0\nCOPY . /src\n"
          "RUN pip install /src\nFROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST=9.0\n"
          "COPY . /src\nRUN pip install /src\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "sm_90");  // the first stage skips it
  EXPECT_EQ(archs(g, "k.cu"), "?");                                            // unset: the default "1" builds
}

TEST(BuildGraph, AJitLoadIsATargetOfItsOwn) {
  TempDir d("cudalint-graph");
  d.write("ops/jit.py",
          "import os\nfrom torch.utils.cpp_extension import load\n"
          "k = load(name='k', sources=[os.path.join(os.path.dirname(__file__), 'k.cu')], "
          "extra_cuda_cflags=['-gencode=arch=compute_89,code=sm_89'])\n");
  d.write("ops/k.cu", kKernel);
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "ops/k.cu"), "sm_89");
  ASSERT_TRUE(g.builds_of("ops/k.cu"));
  EXPECT_EQ(g.targets[g.builds_of("ops/k.cu")->front().target].kind, model::BuildTarget::Kind::JitLoad);
}

TEST(BuildGraph, CMakesDefaultArchIsKnownWhereTheToolkitIs) {
  TempDir d("cudalint-graph");
  d.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.24)\nproject(p LANGUAGES CUDA)\nadd_library(p k.cu)\n");
  d.write("k.cu", kKernel);
  d.write("Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /src\nRUN cmake -S /src -B /b\n");
  auto g = graph_of(d);
  EXPECT_EQ(archs(g, "k.cu"), "?");                                              // toolkit unknown
  EXPECT_EQ(archs(g, "k.cu", model::Invocation::Kind::Dockerfile), "sm_52+ptx");  // CUDA 12's default
}

// Each configuration of a CMake tree makes its targets again: targets with the same
// definitions share one set of flags (whisper.cpp's 34 configurations made 14,019 targets).
TEST(BuildGraph, CMakeTargetsWithTheSameDefinitionsShareTheirFlags) {
  TempDir d("cudalint-graph");
  d.write("CMakeLists.txt",
          "cmake_minimum_required(VERSION 3.24)\nproject(p LANGUAGES CUDA)\n"
          "add_library(a a.cu)\ntarget_compile_definitions(a PRIVATE USE_X=1)\n"
          "add_library(b b.cu)\ntarget_compile_definitions(b PRIVATE USE_X=1)\n"
          "add_library(c c.cu)\ntarget_compile_definitions(c PRIVATE USE_Y)\n");
  for (const char* f : {"a.cu", "b.cu", "c.cu"}) d.write(f, kKernel);
  d.write("Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /src\nRUN cmake -S /src -B /b -DX=1\n");
  auto g = graph_of(d);
  std::vector<const model::BuildTarget*> x, y;
  for (const auto& t : g.targets) {
    if (t.kind != model::BuildTarget::Kind::CMakeTarget) continue;
    ASSERT_TRUE(t.flags) << t.name;
    (t.name == "c" ? y : x).push_back(&t);
  }
  ASSERT_GE(x.size(), 4u);  // a and b, for the developer's machine and the Docker build
  ASSERT_GE(y.size(), 2u);
  for (const auto* t : x) {
    EXPECT_EQ(t->flags, x.front()->flags) << t->name;
    EXPECT_EQ(t->flags->defines, std::vector<std::string>{"USE_X=1"});
  }
  for (const auto* t : y) EXPECT_EQ(t->flags, y.front()->flags);
  EXPECT_NE(x.front()->flags, y.front()->flags);
  EXPECT_EQ(y.front()->flags->defines, std::vector<std::string>{"USE_Y"});
}

}  // namespace
}  // namespace cudalint
