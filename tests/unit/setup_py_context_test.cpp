// setup.py evaluated for one build: the environment and toolkit of an invocation decide flags
// that setup.py computes from `os.getenv` and `nvcc -V` (the apex/flash-attention idiom).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/setup_py.h"

using namespace cudalint;
using namespace cudalint::python;

namespace {

std::vector<std::string> values(const StrList& l) {
  std::vector<std::string> out;
  for (const Str& s : l.items) out.push_back(s.value);
  return out;
}

EvalContext context(std::string release, std::map<std::string, std::string> env = {}) {
  EvalContext c;
  c.nvcc_release = std::move(release);
  c.env = [env](std::string_view var) -> std::optional<std::optional<std::string>> {
    auto it = env.find(std::string(var));
    if (it == env.end()) return std::optional<std::string>{};  // unset
    return std::optional<std::string>{it->second};
  };
  return c;
}

// Written for this test after the common pattern: the toolkit's version from `nvcc -V`, gencode
// flags added by a helper that extends the caller's list in place, PTX for the newest arch.
constexpr const char* kSetup = R"PY(import os, subprocess
from packaging.version import parse, Version
from torch.utils.cpp_extension import CUDAExtension, BuildExtension, CUDA_HOME

def toolkit_version(cuda_dir):
    raw = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)
    words = raw.split()
    at = words.index("release") + 1
    return raw, parse(words[at].split(",")[0])

def wanted_archs():
    return os.getenv("MY_CUDA_ARCHS", "80;90;100").split(";")

def add_gencodes(flags, archs, version):
    if "80" in archs:
        flags += ["-gencode", "arch=compute_80,code=sm_80"]
    if version >= Version("11.8") and "90" in archs:
        flags += ["-gencode", "arch=compute_90,code=sm_90"]
    if version >= Version("12.8") and "100" in archs:
        flags.append("-gencode")
        flags.append("arch=compute_100,code=sm_100")
    numeric = [a for a in archs if a.isdigit()]
    if numeric:
        newest = max(numeric, key=int)
        flags += ["-gencode", f"arch=compute_{newest},code=compute_{newest}"]
    return flags

cc_flag = []
_, bare = toolkit_version(CUDA_HOME)
add_gencodes(cc_flag, set(wanted_archs()), bare)
ext = CUDAExtension("pkg._C", ["k.cu"], extra_compile_args={"nvcc": ["-O3"] + cc_flag})
setup(ext_modules=[ext], cmdclass={"build_ext": BuildExtension})
)PY";

TEST(SetupPyContext, FlagsFromTheToolkitAndTheEnvironment) {
  {
    auto r = parse_setup_py(kSetup);
    ASSERT_EQ(r.setup.extensions.size(), 1u);
    EXPECT_FALSE(r.setup.extensions[0].nvcc_args.complete) << "without a build, the toolkit is not known";
  }
  {
    EvalContext c = context("13.0");
    auto r = parse_setup_py(kSetup, &c);
    ASSERT_EQ(r.setup.extensions.size(), 1u);
    const Extension& e = r.setup.extensions[0];
    EXPECT_TRUE(e.nvcc_args.complete);
    EXPECT_EQ(values(e.nvcc_args),
              (std::vector<std::string>{"-O3", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                                        "arch=compute_90,code=sm_90", "-gencode", "arch=compute_100,code=sm_100",
                                        "-gencode", "arch=compute_100,code=compute_100"}));
  }
  {
    EvalContext c = context("12.4", {{"MY_CUDA_ARCHS", "80;90"}});
    auto r = parse_setup_py(kSetup, &c);
    ASSERT_EQ(r.setup.extensions.size(), 1u);
    const Extension& e = r.setup.extensions[0];
    EXPECT_TRUE(e.nvcc_args.complete);
    EXPECT_EQ(values(e.nvcc_args),
              (std::vector<std::string>{"-O3", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                                        "arch=compute_90,code=sm_90", "-gencode", "arch=compute_90,code=compute_90"}));
  }
  {
    // The environment is known but not the toolkit: the version tests stay open.
    EvalContext c = context("13.0");
    c.nvcc_release.reset();
    auto r = parse_setup_py(kSetup, &c);
    ASSERT_EQ(r.setup.extensions.size(), 1u);
    EXPECT_FALSE(r.setup.extensions[0].nvcc_args.complete);
  }
}

TEST(SetupPyContext, ComparisonsAndBuiltins) {
  std::string t = R"PY(from torch.utils.cpp_extension import CUDAExtension
from packaging import version
flags = []
if version.parse("12.8.0") == version.parse("12.8"):
    flags.append("never: == of versions is not decided here")
if version.parse("12.10") > version.parse("12.9") and "b" in ["a", "b"] and "x" not in {"y": 1}:
    flags.append("-DORDER")
if len(flags) == 1 and int("12") >= 12 and sorted(["b", "a"]) == ["a", "b"]:
    flags.append("-DLEN")
if "z" in ["a"] or version.parse("9.0") >= version.parse("12.1") or max(["8", "10"], key=int) != "10":
    flags.append("-DNEVER")
rel = "release 13.0, V13.0.88".split()[1].split(".")
flags.append("-DMAJOR=" + rel[0] + "_" + rel[1][0])
CUDAExtension("e", ["k.cu"], extra_compile_args={"nvcc": flags})
)PY";
  auto r = parse_setup_py(t);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const Extension& e = r.setup.extensions[0];
  // Undecided tests (`==` of version values or lists) add their flags as maybe: the list is
  // incomplete; decided ones add them or not.
  EXPECT_EQ(values(e.nvcc_args), (std::vector<std::string>{"never: == of versions is not decided here", "-DORDER",
                                                            "-DLEN", "-DMAJOR=13_0"}));
  EXPECT_FALSE(e.nvcc_args.complete);
}

}  // namespace
