// setup.py values chosen at build time: the extension class in a variable, conditional
// expressions, names bound by tuple assignment, paths from the working directory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/frontends/python/setup_py.h"

using namespace cudalint;
using namespace cudalint::python;

namespace {

std::string_view at(std::string_view text, Span s) { return text.substr(s.begin, s.end - s.begin); }

const Extension* named(const SetupPy& s, std::string_view name) {
  for (const Extension& e : s.extensions)
    if (e.name && e.name->value == name) return &e;
  return nullptr;
}

std::vector<std::string> globs(const Extension& e) {
  std::vector<std::string> out;
  for (const Str& g : e.source_globs) out.push_back(g.value);
  return out;
}

TEST(SetupPyChoice, ClassFromAConditionalExpression) {
  // The class is picked by a runtime test, then called through the name.
  std::string t = R"PY(import os, glob, torch
from torch.utils.cpp_extension import CppExtension, CUDAExtension, CUDA_HOME
def make_ext():
    gpu = torch.cuda.is_available()
    ext_class = CUDAExtension if gpu else CppExtension
    here = os.path.dirname(os.path.curdir)
    files = sorted(glob.glob(os.path.join(here, "pkg", "csrc", "*.cpp")))
    kernels = sorted(glob.glob(os.path.join(here, "pkg", "csrc", "cuda", "*.cu")))
    if gpu:
        files += kernels
    return [ext_class("pkg._C", files, extra_compile_args={"nvcc": ["-O3"]})]
setup(ext_modules=make_ext())
)PY";
  auto r = parse_setup_py(t);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const Extension& e = r.setup.extensions[0];
  EXPECT_EQ(e.kind, "CUDAExtension") << "CUDAExtension's checks cover CppExtension's";
  EXPECT_FALSE(e.unknown_condition) << "both classes are torch's: the call is made either way";
  // os.path.dirname(os.path.curdir) is "": the globs are relative to setup.py's directory.
  EXPECT_EQ(globs(e), (std::vector<std::string>{"pkg/csrc/cuda/*.cu", "pkg/csrc/*.cpp"}));
}

TEST(SetupPyChoice, ClassAmongOtherVendorsIsNotCertain) {
  // mmcv: CUDA, NPU and MUSA classes chosen in one if-chain, then one call.
  std::string t = R"PY(import os, torch
from torch.utils.cpp_extension import CppExtension, CUDAExtension
if torch.cuda.is_available() or os.getenv("FORCE_CUDA", "0") == "1":
    extension = CUDAExtension
elif os.getenv("FORCE_NPU", "0") == "1":
    from torch_npu.utils.cpp_extension import NpuExtension
    extension = NpuExtension
else:
    extension = CppExtension
ext = extension(name="pkg._ext", sources=["k.cu"])
)PY";
  auto r = parse_setup_py(t);
  const Extension* e = named(r.setup, "pkg._ext");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "CUDAExtension");
  ASSERT_TRUE(e->unknown_condition) << "whether the call builds CUDA code is decided at build time";
  EXPECT_EQ(at(t, *e->unknown_condition), "extension");
}

TEST(SetupPyChoice, NameBoundByTupleAssignmentInABranch) {
  // `a, b = helper()` in a branch rebinds a name first bound to False.
  std::string t = R"PY(from torch.utils.cpp_extension import CUDAExtension
ext_modules = []
want_blackwell = False
if have_toolkit:
    want_hopper, want_blackwell = probe_archs()
if want_blackwell:
    ext_modules.append(CUDAExtension(name="pkg._C_mxfp8", sources=["mx.cu"]))
never = False
if never:
    ext_modules.append(CUDAExtension(name="pkg._never", sources=["n.cu"]))
)PY";
  auto r = parse_setup_py(t);
  const Extension* e = named(r.setup, "pkg._C_mxfp8");
  ASSERT_TRUE(e) << "want_blackwell may be True: it is not the first binding's False";
  EXPECT_TRUE(e->unknown_condition);
  EXPECT_FALSE(named(r.setup, "pkg._never"));
}

TEST(SetupPyChoice, ConditionalExpressionWithAKnownTest) {
  std::string t = R"PY(from torch.utils.cpp_extension import CUDAExtension
DEBUG = False
ext = CUDAExtension("pkg", ["k.cu"], extra_compile_args={"nvcc": ["-G"] if DEBUG else ["-O3"]})
setup(ext_modules=[ext], cmdclass={"build_ext": BuildExtension} if unknown_switch else {})
)PY";
  auto r = parse_setup_py(t);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const Extension& e = r.setup.extensions[0];
  ASSERT_EQ(e.nvcc_args.items.size(), 1u);
  EXPECT_EQ(e.nvcc_args.items[0].value, "-O3");
  EXPECT_TRUE(e.nvcc_args.complete);
  // The dict is one branch of an undecided test: counted as BuildExtension, at the whole expression.
  EXPECT_TRUE(r.setup.uses_build_extension);
  EXPECT_EQ(at(t, r.setup.build_extension_span), "{\"build_ext\": BuildExtension} if unknown_switch else {}");
}

TEST(SetupPyChoice, RocmTestsAreFalseUnderACudaTorch) {
  // A macro that selects HIP code paths, added when torch is a ROCm build (a conditional
  // expression, as some projects write it).
  std::string t = R"PY(import torch
from torch.utils.cpp_extension import CUDAExtension, ROCM_HOME, IS_HIP_EXTENSION
macros = []
hip_torch = True if (torch.version.hip is not None and ROCM_HOME) else False
if hip_torch or IS_HIP_EXTENSION:
    macros.append(("WITH_HIP", None))
macros.append(("WITH_CUDA", None))
ext = CUDAExtension("pkg._ext", ["k.cu"], define_macros=macros)
)PY";
  auto r = parse_setup_py(t);
  const Extension* e = named(r.setup, "pkg._ext");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->define_macros.size(), 1u);
  EXPECT_EQ(e->define_macros[0].first.value, "WITH_CUDA");
}

}  // namespace
