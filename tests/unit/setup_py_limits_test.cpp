// setup.py front-end: broken and hostile input (syntax errors, BOM and CRLF, random bytes, deep
// nesting, runaway growth, a 10 MiB script): facts are kept and the work stays bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "analyzer/frontends/python/setup_py.h"
#include "tests/unit/setup_py_helpers.h"

using namespace cudalint;
using namespace cudalint::python;
using namespace cudalint::python::test_support;

namespace {

TEST(SetupPy, SyntaxErrorsKeepFacts) {
  std::string t = R"PY(import os
import torch
os.environ["TORCH_CUDA_ARCH_LIST"] = "8.0"
x = foo(1, 2))
def broken(:
    return 1
ext = CUDAExtension("still_found", ["a.cu"], extra_compile_args={"nvcc": ["-O3"]})
os.environ.setdefault("MAX_JOBS", "4")
)PY";
  auto r = parse_setup_py(t);
  ASSERT_FALSE(r.errors.empty());
  for (const auto& e : r.errors) {
    EXPECT_LE(e.span.begin, e.span.end);
    EXPECT_LE(e.span.end, t.size());
    EXPECT_FALSE(e.message.empty());
    EXPECT_NE(e.message.back(), '.');
    EXPECT_EQ(e.message, [&] { std::string m = e.message; for (char& c : m) c = static_cast<char>(std::tolower(c)); return m; }());
  }
  EXPECT_EQ(r.errors[0].message, "syntax error: unexpected `)`");
  EXPECT_EQ(at(t, r.errors[0].span), ")");
  EXPECT_EQ(r.errors[0].span.begin, t.find("))") + 1);
  bool missing = false;
  for (const auto& e : r.errors)
    if (e.message == "missing `)`") {
      missing = true;
      EXPECT_EQ(e.span.begin, t.find("(:") + 1);
      EXPECT_EQ(e.span.end, e.span.begin);
    }
  EXPECT_TRUE(missing);

  const SetupPy& s = r.setup;
  EXPECT_TRUE(s.imports_torch);
  ASSERT_EQ(s.extensions.size(), 1u);
  EXPECT_EQ(s.extensions[0].name->value, "still_found");
  EXPECT_EQ(values(s.extensions[0].nvcc_args), (Strings{"-O3"}));
  ASSERT_EQ(s.env.size(), 2u);
  EXPECT_EQ(s.env[0].var, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(s.env[1].var, "MAX_JOBS");

  // Unterminated constructs and a call inside an ERROR node.
  std::string t2 = "setup(\n    name='x',\n    ext_modules=[CUDAExtension('inside', ['k.cu'])],\n";
  auto r2 = parse_setup_py(t2);
  EXPECT_FALSE(r2.errors.empty());
  ASSERT_EQ(r2.setup.extensions.size(), 1u);
  EXPECT_EQ(r2.setup.extensions[0].name->value, "inside");
  auto r3 = parse_setup_py("x = 'unterminated\nif True\n    pass\n");
  EXPECT_FALSE(r3.errors.empty());
  for (const auto& e : r3.errors) EXPECT_TRUE(e.message.starts_with("syntax error") || e.message.starts_with("missing"));
}

TEST(SetupPy, BomCrlfEmpty) {
  std::string t = "\xEF\xBB\xBFimport torch\r\nos.environ['A'] = 'b'\r\n";
  auto r = parse_setup_py(t);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_TRUE(r.setup.imports_torch);
  ASSERT_EQ(r.setup.env.size(), 1u);
  EXPECT_EQ(at(t, r.setup.env[0].span), "os.environ['A'] = 'b'");
  EXPECT_TRUE(parse_setup_py("").errors.empty());
  EXPECT_TRUE(parse_setup_py("# only a comment").errors.empty());
  auto r2 = parse_setup_py("x = 1\r\ny = '\\\r\nz'\r\nCUDAExtension('n', [y])\r\n");
  ASSERT_EQ(r2.setup.extensions.size(), 1u);
  EXPECT_EQ(values(r2.setup.extensions[0].sources), (Strings{"z"}));
}

TEST(SetupPy, RandomBytesDoNotCrash) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 20; ++round) {
    std::string junk(16384, '\0');
    for (char& c : junk) c = static_cast<char>(rng() & 0xFF);
    auto r = parse_setup_py(junk);
    for (const auto& e : r.errors) EXPECT_LE(e.span.end, junk.size());
  }
  // Python-looking noise exercises the evaluator on half-valid trees.
  const char* pieces[] = {"(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "+=", "\n", "    ", "'s'", "f'{x}'", "x", "os",
                          ".", "environ", "CUDAExtension", "append", "def ", "return ", "if ", "else", "*", "**",
                          "\"-O3\"", "lambda", "import ", "class ", "1", "None", "\\\n", "#"};
  for (int round = 0; round < 50; ++round) {
    std::string t;
    for (int i = 0; i < 2000; ++i) t += pieces[rng() % std::size(pieces)];
    auto r = parse_setup_py(t);
    for (const auto& e : r.errors) EXPECT_LE(e.span.end, t.size());
  }
}

TEST(SetupPy, DeepNestingIsBounded) {
  const int n = 10000;
  std::string parens = "x = " + std::string(n, '(') + "'v'" + std::string(n, ')') + "\nCUDAExtension('p', [x])\n";
  auto r = parse_setup_py(parens);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  EXPECT_FALSE(r.setup.extensions[0].sources.complete);

  std::string lists = "y = " + std::string(n, '[') + std::string(n, ']') + "\nCUDAExtension('l', y)\n";
  r = parse_setup_py(lists);
  ASSERT_EQ(r.setup.extensions.size(), 1u);

  std::string calls;
  for (int i = 0; i < n; ++i) calls += "CUDAExtension('c', ";
  calls += "[]" + std::string(n, ')') + "\n";
  r = parse_setup_py(calls);
  EXPECT_EQ(r.setup.extensions.size(), static_cast<size_t>(n));

  std::string sum = "z = 'a'";
  for (int i = 0; i < 100000; ++i) sum += " + 'a'";
  sum += "\nCUDAExtension('s', [z])\n";
  r = parse_setup_py(sum);
  ASSERT_EQ(r.setup.extensions.size(), 1u);

  std::string attrs = "w = os";
  for (int i = 0; i < n; ++i) attrs += ".environ";
  attrs += "\nw['X'] = '1'\n";
  (void)parse_setup_py(attrs);

  std::string blocks;
  for (int i = 0; i < 500; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(500, ' ') + "os.environ['DEEP'] = '1'\n";
  (void)parse_setup_py(blocks);

  std::string subs = "d = {}\nd" ;
  for (int i = 0; i < n; ++i) subs += "['k']";
  subs += " = 1\n";
  (void)parse_setup_py(subs);

  std::string chain = "a";
  for (int i = 0; i < n; ++i) chain += " = a";
  chain += " = 'v'\nCUDAExtension('chain', [a])\n";
  r = parse_setup_py(chain);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  EXPECT_EQ(values(r.setup.extensions[0].sources), (Strings{"v"}));
}

TEST(SetupPy, GrowthIsBounded) {
  // Doubling a list or a string past the size limits.
  std::string d = "a = ['x']\ns = 'y'\n";
  for (int i = 0; i < 20; ++i) d += "a = a + a\ns = s + s\n";
  d += "CUDAExtension('d', a, extra_compile_args=[s])\n";
  auto r = parse_setup_py(d);
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  EXPECT_FALSE(r.setup.extensions[0].sources.complete);
  EXPECT_GE(r.setup.extensions[0].sources.items.size(), 10000u);
  EXPECT_EQ(r.setup.extensions[0].sources.items.front().value, "x");
  EXPECT_FALSE(r.setup.extensions[0].nvcc_args.complete);
  EXPECT_TRUE(r.setup.extensions[0].nvcc_args.items.empty()) << "a 1 MiB string is not kept";

  // Doubling 64 times and lists that contain themselves: the work budget runs out, and what
  // could not be evaluated is reported as incomplete.
  std::string t = "a = ['x']\ns = 'y'\n";
  for (int i = 0; i < 64; ++i) t += "a = a + a\ns = s + s\n";
  t += "b = []\n";
  for (int i = 0; i < 2000; ++i) t += "b.append(b)\nb = [b, b]\n";
  t += "CUDAExtension('g', a, extra_compile_args=[s])\nos.environ['LATE'] = 'x'\n";
  auto start = std::chrono::steady_clock::now();
  r = parse_setup_py(t);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(120));
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  EXPECT_FALSE(r.setup.extensions[0].sources.complete);
  EXPECT_FALSE(r.setup.extensions[0].nvcc_args.complete);
  ASSERT_EQ(r.setup.env.size(), 1u) << "facts are still found when values are not";
  EXPECT_EQ(r.setup.env[0].var, "LATE");

  // Recursion through helpers and many appends to one module list stay fast.
  std::string u = "def f(x):\n    return g(x) + g(x)\ndef g(x):\n    return f(x) + f(x)\nflags = []\n";
  for (int i = 0; i < 30000; ++i) u += "flags.append('-DF" + std::to_string(i % 10) + "')\n";
  u += "CUDAExtension('h', f(1), extra_compile_args=flags)\n";
  start = std::chrono::steady_clock::now();
  r = parse_setup_py(u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(120));
  ASSERT_EQ(r.setup.extensions.size(), 1u);
  EXPECT_FALSE(r.setup.extensions[0].sources.complete);
  // Lists stop growing at a fixed size (over ten thousand items) and say they are incomplete.
  EXPECT_GE(r.setup.extensions[0].nvcc_args.items.size(), 10000u);
  EXPECT_LT(r.setup.extensions[0].nvcc_args.items.size(), 30000u);
  EXPECT_FALSE(r.setup.extensions[0].nvcc_args.complete);
}

TEST(SetupPy, TenMebibytesInSeconds) {
  std::string block = R"PY(# a generated section of a large setup script, with comments and data
import os
from torch.utils.cpp_extension import CUDAExtension
flags = ["-O3", "--use_fast_math", "-lineinfo", "-U__CUDA_NO_HALF_OPERATORS__", "-DKERNEL_TABLE_SIZE=4096"]
flags.append("-Xptxas=-v")
os.environ.setdefault("MAX_JOBS", "4")
def helper(extra):
    return flags + extra + ["--threads", "4"]
kernels = ["csrc/kernels/attention_forward_kernel.cu", "csrc/kernels/attention_backward_kernel.cu",
           "csrc/kernels/layernorm_forward_kernel.cu", "csrc/kernels/layernorm_backward_kernel.cu"]
ext_modules.append(CUDAExtension(name="pkg.ops", sources=kernels, extra_compile_args={"nvcc": helper(["-DX"])}))
)PY";
  std::string t;
  while (t.size() < 1024 * 1024) t += block;
  // The same content at 1 MiB first: the 10 MiB parse is compared with it, not with a clock,
  // since its time depends on the build (sanitizers) and the machine's load.
  auto start = std::chrono::steady_clock::now();
  auto small = parse_setup_py(t);
  auto elapsed_small = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(small.errors.empty());
  while (t.size() < 10u * 1024 * 1024) t += block;
  start = std::chrono::steady_clock::now();
  auto r = parse_setup_py(t);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.errors.empty());
  size_t blocks = t.size() / block.size();
  EXPECT_EQ(r.setup.extensions.size(), blocks);
  EXPECT_EQ(r.setup.env.size(), blocks);
  EXPECT_EQ(values(r.setup.extensions.back().nvcc_args).size(), 9u);
  // Linear work is about 10x the 1 MiB parse; a quadratic pass would be about 100x. The fixed
  // bound only catches a hang.
  EXPECT_LT(elapsed, 30 * elapsed_small + std::chrono::seconds(5));
  EXPECT_LT(elapsed, std::chrono::seconds(600));
}

}  // namespace
