// setup.py front-end: how the static evaluator reads Python (imports and aliases, helper
// functions, module-level mutation, string literals, conditional bindings and conditions).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/setup_py.h"
#include "tests/unit/setup_py_helpers.h"

using namespace cudalint;
using namespace cudalint::python;
using namespace cudalint::python::test_support;

namespace {

TEST(SetupPy, ImportsAndAliases) {
  std::string t = R"PY(import os as _os
import torch.utils.cpp_extension as tce
from torch.utils import cpp_extension as ce
from torch.utils.cpp_extension import CUDAExtension as CE
import torch
from setuptools import Extension
import mylib

exts = [
    tce.CUDAExtension("a", ["a.cu"]),
    ce.CppExtension("b", ["b.cpp"]),
    CE("c", ["c.cu"]),
    torch.utils.cpp_extension.CUDAExtension("d", ["d.cu"]),
    Extension("plain", ["p.c"]),
    mylib.CUDAExtension("not_torch", ["n.cu"]),
]
_os.environ["ALIASED"] = "1"
)PY";
  auto r = parse_setup_py(t);
  const SetupPy& s = r.setup;
  EXPECT_TRUE(s.imports_torch);
  ASSERT_EQ(s.extensions.size(), 4u);
  EXPECT_EQ(s.extensions[0].name->value, "a");
  EXPECT_EQ(s.extensions[0].kind, "CUDAExtension");
  EXPECT_EQ(s.extensions[1].name->value, "b");
  EXPECT_EQ(s.extensions[1].kind, "CppExtension");
  EXPECT_EQ(s.extensions[2].name->value, "c");
  EXPECT_EQ(s.extensions[2].kind, "CUDAExtension");
  EXPECT_EQ(at(t, s.extensions[2].call_span), "CE(\"c\", [\"c.cu\"])");
  EXPECT_EQ(s.extensions[3].name->value, "d");
  ASSERT_EQ(s.env.size(), 1u);
  EXPECT_EQ(s.env[0].var, "ALIASED");

  EXPECT_TRUE(parse_setup_py("from torch.utils.cpp_extension import load\n").setup.imports_torch);
  EXPECT_TRUE(parse_setup_py("try:\n    import torch as th\nexcept ImportError:\n    th = None\n").setup.imports_torch);
  EXPECT_FALSE(parse_setup_py("import torchvision\nimport mytorch.x\nx = 'import torch'\n").setup.imports_torch);
}

TEST(SetupPy, HelperFunctions) {
  std::string t = R"PY(import os
from torch.utils.cpp_extension import CUDAExtension, CppExtension

BASE = ["-O3"]

def nvcc_flags(extra, debug=False, *, arch="sm_80"):
    flags = BASE + ["-arch=" + arch]
    flags.append("--use_fast_math")
    if debug:
        flags.append("-G")
    return flags + extra

def pick(kind):
    if kind == "cuda":
        return ["-DCUDA"]
    return ["-DCPU"]

def pick_runtime(kind):
    if kind in ("cuda", "rocm"):
        return ["-DGPU"]
    return ["-DCPU"]

def recursive(n):
    return recursive(n) + ["-x"]

def nested():
    return nvcc_flags(["-lineinfo"], arch="sm_90")

def no_return():
    os.environ["IN_HELPER"] = "1"

def get_extensions():
    extension = CppExtension
    define_macros = []
    extra_compile_args = {"cxx": ["-O3"]}
    if os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        define_macros += [("WITH_CUDA", None)]
        extra_compile_args["nvcc"] = ["-DCUDA_HAS_FP16=1", "-D__CUDA_NO_HALF_OPERATORS__"]
    return [extension("det._C", ["vision.cpp"], define_macros=define_macros,
                      extra_compile_args=extra_compile_args)]

exts = [
    CUDAExtension("one", ["a.cu"], extra_compile_args={"nvcc": nvcc_flags(["-DX"])}),
    CUDAExtension("two", ["a.cu"], extra_compile_args={"nvcc": nvcc_flags(extra=[], debug=True)}),
    CUDAExtension("three", ["a.cu"], extra_compile_args={"nvcc": pick("cuda")}),
    CUDAExtension("four", ["a.cu"], extra_compile_args={"nvcc": recursive(1)}),
    CUDAExtension("five", ["a.cu"], extra_compile_args={"nvcc": nested()}),
    CUDAExtension("six", ["a.cu"], extra_compile_args={"nvcc": no_return()}),
    CUDAExtension("seven", ["a.cu"], extra_compile_args={"nvcc": pick_runtime("cuda")}),
]
setup(ext_modules=get_extensions() + exts)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  ASSERT_EQ(s.extensions.size(), 8u);

  // Found once, where it is written, inside the helper; the name may be CUDAExtension.
  const Extension& det = s.extensions[0];
  EXPECT_EQ(det.kind, "CUDAExtension");
  EXPECT_EQ(det.name->value, "det._C");
  EXPECT_EQ(values(det.cxx_args), (Strings{"-O3"}));
  EXPECT_EQ(values(det.nvcc_args), (Strings{"-DCUDA_HAS_FP16=1", "-D__CUDA_NO_HALF_OPERATORS__"}));
  ASSERT_EQ(det.define_macros.size(), 1u);
  EXPECT_EQ(det.define_macros[0].first.value, "WITH_CUDA");

  auto nvcc = [&](size_t i) { return values(s.extensions[i].nvcc_args); };
  EXPECT_EQ(s.extensions[1].name->value, "one");
  EXPECT_EQ(nvcc(1), (Strings{"-O3", "-arch=sm_80", "--use_fast_math", "-DX"}));
  EXPECT_TRUE(s.extensions[1].nvcc_args.complete) << "`if debug:` with debug=False is skipped";
  EXPECT_EQ(nvcc(2), (Strings{"-O3", "-arch=sm_80", "--use_fast_math", "-G"}));
  EXPECT_TRUE(s.extensions[2].nvcc_args.complete);
  EXPECT_EQ(nvcc(3), (Strings{"-DCUDA"})) << "`kind == \"cuda\"` is decided statically";
  EXPECT_TRUE(s.extensions[3].nvcc_args.complete);
  EXPECT_EQ(nvcc(7), (Strings{"-DGPU"})) << "`kind in (\"cuda\", \"rocm\")` is decided statically too";
  EXPECT_TRUE(s.extensions[7].nvcc_args.complete);
  EXPECT_FALSE(s.extensions[4].nvcc_args.complete) << "recursion stops at a fixed depth";
  EXPECT_FALSE(s.extensions[4].nvcc_args.items.empty());
  for (const auto& x : s.extensions[4].nvcc_args.items) EXPECT_EQ(x.value, "-x");
  EXPECT_EQ(nvcc(5), (Strings{"-O3", "-arch=sm_90", "--use_fast_math", "-lineinfo"}));
  EXPECT_FALSE(s.extensions[6].nvcc_args.complete);
  EXPECT_TRUE(s.extensions[6].nvcc_args.items.empty());

  // The arch flag was built from a parameter's default, so its span is the `"-arch=" + arch` expression.
  const Str* arch = item(s.extensions[1].nvcc_args, "-arch=sm_80");
  ASSERT_TRUE(arch);
  EXPECT_EQ(at(t, arch->span), "\"-arch=\" + arch");

  const EnvSetting* helper = env(s, "IN_HELPER", EnvSetting::Kind::Assign);
  ASSERT_TRUE(helper);
  EXPECT_TRUE(helper->conditional);
  EXPECT_EQ(s.env.size(), 2u) << "each setting once, however often its function is called";
}

TEST(SetupPy, ModuleLevelMutation) {
  std::string t = R"PY(flags = ["-O3"]
flags.append("-lineinfo")
flags.extend(("--use_fast_math", "-Xptxas=-v"))
flags.insert(0, "-std=c++17")
flags.remove("-Xptxas=-v")
flags += ["-DA"]
args = {"cxx": [], "nvcc": flags}
args["cxx"].append("-O2")
args["nvcc"] += ["-DB"]
args.update(extra=["-x"])
import sys
if sys.platform == "win32":
    args["cxx"] = ["/O2"]
else:
    args["cxx"].append("-fPIC")
def later():
    flags.append("-FROM_FUNCTION")
copy = list(flags)
ext = CUDAExtension("m", sources=[], extra_compile_args=args)
)PY";
  auto r = parse_setup_py(t);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const Extension& e = r.setup.extensions[0];
  EXPECT_EQ(values(e.nvcc_args), (Strings{"-std=c++17", "-O3", "-lineinfo", "--use_fast_math", "-DA", "-DB"}));
  EXPECT_TRUE(e.nvcc_args.complete);
  EXPECT_EQ(values(e.cxx_args), (Strings{"-O2", "/O2", "-fPIC"}));
  EXPECT_FALSE(e.cxx_args.complete);
  EXPECT_TRUE(e.sources.complete);
  EXPECT_TRUE(e.sources.items.empty());
  EXPECT_EQ(at(t, e.nvcc_args.span), "args");
  const Str* a = item(e.nvcc_args, "-DA");
  ASSERT_TRUE(a);
  EXPECT_EQ(at(t, a->span), "\"-DA\"");
}

TEST(SetupPy, StringLiterals) {
  std::string t = R"PY(import os
NAME = "pkg"
s1 = 'a\tb\x41\u00e9\101\
c'
s2 = r"C:\new\table"
s3 = ("-D" "X"
      'Y' """Z""")
s4 = f"{NAME}._C"
s5 = f"{{literal}} {NAME!s}"
s6 = f"{NAME:>10}"
s7 = f"{unknown_name}"
s8 = b"bytes"
s9 = "\N{BULLET}"
s10 = os.path.join("csrc", "ops", "kernel.cu")
s11 = os.path.join("csrc", "/abs", "k.cu")
s12 = "-O3 -lineinfo  --use_fast_math".split()
s13 = " ".join(["-a", "-b"])
s14 = "a" + "b" + NAME
s15 = "x" if NAME else "y"
s16 = NAME or "fallback"
s17 = "" or "fallback"
s18 = rf"\d{{2}}{NAME}"
s19 = "  padded ".strip()
s20 = "a;b".replace(";", " ")
s21 = u"unicode"
s22 = str("s")
s23 = "cuda" + str(12)
ext = CUDAExtension(NAME, [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s13, s14, s15, s16, s17, s18, s19, s20, s21, s22, s23] + s12)
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const StrList& l = r.setup.extensions[0].sources;
  EXPECT_FALSE(l.complete);
  EXPECT_EQ(values(l), (Strings{"a\tbA\xC3\xA9" "Ac",
                                "C:\\new\\table",
                                "-DXYZ",
                                "pkg._C",
                                "{literal} pkg",
                                "csrc/ops/kernel.cu",
                                "/abs/k.cu",
                                "-a -b",
                                "abpkg",
                                "x",
                                "pkg",
                                "fallback",
                                "\\d{2}pkg",
                                "padded",
                                "a b",
                                "unicode",
                                "s",
                                "cuda12",
                                "-O3",
                                "-lineinfo",
                                "--use_fast_math"}));
  auto span_of = [&](std::string_view v) {
    const Str* s = item(l, v);
    return s ? at(t, s->span) : std::string_view("<missing>");
  };
  EXPECT_EQ(span_of("-DXYZ"), "\"-D\" \"X\"\n      'Y' \"\"\"Z\"\"\"");
  EXPECT_EQ(span_of("pkg._C"), "f\"{NAME}._C\"");
  EXPECT_EQ(span_of("csrc/ops/kernel.cu"), "os.path.join(\"csrc\", \"ops\", \"kernel.cu\")");
  EXPECT_EQ(span_of("abpkg"), "\"a\" + \"b\" + NAME");
  EXPECT_EQ(span_of("pkg"), "\"pkg\"") << "through a name: the literal it was bound to";
  EXPECT_EQ(span_of("--use_fast_math"), "\"-O3 -lineinfo  --use_fast_math\"");
  EXPECT_EQ(span_of("C:\\new\\table"), "r\"C:\\new\\table\"");
  EXPECT_EQ(r.setup.extensions[0].name->value, "pkg");
  EXPECT_EQ(at(t, r.setup.extensions[0].name->span), "\"pkg\"");
}

TEST(SetupPy, ConditionalBindings) {
  std::string t = R"PY(import os
if os.getenv("ROCM"):
    nvcc = ["-O3", "--hip"]
    name = "ext_hip"
else:
    nvcc = ["-O3", "--use_fast_math"]
    name = "ext_cuda"
same = "x"
if os.getenv("Y"):
    same = "x"
cond = ["-O3"] + (["-G"] if os.getenv("DEBUG") else [])
ext = CUDAExtension(name, [same], extra_compile_args={"nvcc": nvcc, "cxx": cond})
)PY";
  auto r = parse_setup_py(t);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  const Extension& e = r.setup.extensions[0];
  EXPECT_FALSE(e.name) << "two different names are possible";
  EXPECT_EQ(values(e.sources), (Strings{"x"}));
  EXPECT_TRUE(e.sources.complete);
  EXPECT_EQ(values(e.nvcc_args), (Strings{"-O3", "--hip", "--use_fast_math"}));
  EXPECT_FALSE(e.nvcc_args.complete);
  EXPECT_EQ(values(e.cxx_args), (Strings{"-O3", "-G"}));
  EXPECT_FALSE(e.cxx_args.complete) << "an undecided conditional expression is either branch, like an `if`";
}

TEST(SetupPy, StaticConditions) {
  std::string t = R"PY(import os
import torch
CUDA = None
DEBUG = False
IS_ROCM = torch.version.hip is not None
if CUDA is not None:
    os.environ["NOT_TAKEN"] = "1"
if CUDA is None:
    os.environ["TAKEN"] = "1"
flags = ["-O3"]
if DEBUG:
    flags.append("-G")
elif os.getenv("LINEINFO"):
    flags.append("-lineinfo")
else:
    flags.append("-DNDEBUG")
if IS_ROCM:
    flags.append("--offload-arch=gfx90a")
if not DEBUG and "x" == "x":
    flags.append("-DRELEASE")
match os.getenv("MODE"):
    case "debug":
        os.environ["IN_CASE"] = "1"
@register(os.environ.setdefault("DECORATOR_ARG", "1"))
def decorated():
    os.environ["IN_DECORATED"] = "1"
CUDAExtension("x", ["a.cu"], extra_compile_args={"nvcc": flags})
)PY";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  const SetupPy& s = r.setup;
  using Kd = EnvSetting::Kind;
  EXPECT_FALSE(env(s, "NOT_TAKEN", Kd::Assign)) << "a branch that cannot run is not walked";
  ASSERT_TRUE(env(s, "TAKEN", Kd::Assign));
  EXPECT_FALSE(env(s, "TAKEN", Kd::Assign)->conditional) << "a branch that must run is not conditional";
  ASSERT_TRUE(env(s, "IN_CASE", Kd::Assign));
  EXPECT_TRUE(env(s, "IN_CASE", Kd::Assign)->conditional);
  ASSERT_TRUE(env(s, "DECORATOR_ARG", Kd::SetDefault));
  EXPECT_FALSE(env(s, "DECORATOR_ARG", Kd::SetDefault)->conditional);
  ASSERT_TRUE(env(s, "IN_DECORATED", Kd::Assign));
  EXPECT_TRUE(env(s, "IN_DECORATED", Kd::Assign)->conditional);
  ASSERT_EQ(s.extensions.size(), 1u);
  // `-G` is skipped, `-lineinfo`/`-DNDEBUG` depend on the environment, `torch.version.hip` is
  // None (cudalint judges CUDA builds), and `not DEBUG and "x" == "x"` holds.
  EXPECT_EQ(values(s.extensions[0].nvcc_args), (Strings{"-O3", "-lineinfo", "-DNDEBUG", "-DRELEASE"}));
  EXPECT_FALSE(s.extensions[0].nvcc_args.complete);
}

}  // namespace

namespace cudalint::python {
namespace {

// FieldName's names are resolved at compile time against its own list: each must be a field of
// the grammar compiled in, or field() would silently find nothing.
TEST(PythonFields, EveryFieldNameIsAFieldOfTheGrammar) {
  const TSLanguage* lang = tree_sitter_python();
  for (const char* name : FieldName::kNames)
    EXPECT_NE(ts_language_field_id_for_name(lang, name, static_cast<uint32_t>(std::strlen(name))), 0) << name;
  EXPECT_EQ(FieldName::kCount, ts_language_field_count(lang));  // and the list is whole
}

}  // namespace
}  // namespace cudalint::python
