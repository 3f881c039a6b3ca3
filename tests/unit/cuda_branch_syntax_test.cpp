// The grammar a derived arch's branch must parse in (branch_syntax.h): what it accepts must be
// valid C++, and a syntax error must not pass (the arch is then parsed, and the error reported).
#include <gtest/gtest.h>

#include <string>

#include "analyzer/frontends/cuda/branch_syntax.h"

namespace cudalint::cuda {
namespace {

TEST(CudaBranchSyntax, PlainStatementsParse) {
  for (const char* ok : {
           "",
           "  // nothing but a comment\n",
           "out[i] = in[i] + 5u;",
           "out[threadIdx.x] = in[threadIdx.x] * 2.0f + 6.0f;",
           "unsigned v = in[threadIdx.x] * 2u;\nout[i] = v + (unsigned)blockDim.y;",
           "for (int j = 0; j < n; ++j) out[j] = static_cast<unsigned>(f[j]);",
           "if (i % 2 == 0) { out[i] = 0; } else { out[i] = 1; }",
           "while (n > 0) { --n; out[n] += 1; }",
           "do { n -= 2; } while (n > 0);",
           "for (;;) break;",
           "return;",
           "return x ? a : b;",
           "const float* p = f; p = p + 1;",
           "x = float(n) * sizeof(int) + sizeof x;",
           "a[i][j] = -b[j][i] << 2 | ~c & !d;",
           "out[0] = 0, out[1] = 1;",
           "{ ; }",
       })
    EXPECT_TRUE(plain_statements_parse(ok)) << ok;
}

TEST(CudaBranchSyntax, SyntaxErrorsDoNotParse) {
  for (const char* bad : {
           "out[i] = ;",
           "out[i] = in[i]",               // no `;`
           "out[i = 1;",                   // unbalanced
           "out[i]] = 1;",
           "{ out[0] = 1;",                // an unclosed block
           "}",                            // a block closed that the branch did not open
           "else out[0] = 1;",
           "if out[0] = 1;",
           "for (int j = 0; j < n) x;",
           "x = (float;",
           "x y;",                         // two names
           "x = 1 2;",
           "return",
           "int = 3;",
           "x = a ? b;",
           "static_cast<float>x;",
       })
    EXPECT_FALSE(plain_statements_parse(bad)) << bad;
}

// Valid C++ outside the grammar is refused too: the arch is then parsed, never guessed.
TEST(CudaBranchSyntax, OtherCodeIsRefused) {
  for (const char* other : {
           "int a = 1, b = 2;",
           "switch (x) { case 1: break; }",
           "label: x = 1;",
           "x = y->z;",
           "auto v = 1;",
       })
    EXPECT_FALSE(plain_statements_parse(other)) << other;
}

// Deep nesting is refused, not followed to the end of the stack.
TEST(CudaBranchSyntax, DeepNestingIsRefused) {
  EXPECT_FALSE(plain_statements_parse("x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + ";"));
  EXPECT_FALSE(plain_statements_parse(std::string(100000, '{') + std::string(100000, '}')));
  EXPECT_FALSE(plain_statements_parse("x = " + std::string(100000, '-') + "1;"));
}

}  // namespace
}  // namespace cudalint::cuda
