// CUDA version spellings from base images, index URLs and wheel tags.
#include <gtest/gtest.h>

#include "analyzer/domain/cuda_support.h"

namespace cudalint::domain {
namespace {

TEST(CudaVersion, ParsesDottedAndWheelTagSpellings) {
  auto v = parse_cuda_version("12.4.1");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->str(), "12.4.1");
  v = parse_cuda_version("cu124");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->str(), "12.4");
  v = parse_cuda_version("cu130");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->str(), "13.0");
}

TEST(CudaVersion, RejectsOverlongAndMalformedTags) {
  // Found by the dockerfile fuzz target: a long digit run overflowed std::stoi and aborted.
  EXPECT_FALSE(parse_cuda_version("cu99999999999999999999"));
  EXPECT_FALSE(parse_cuda_version("cu1240"));
  EXPECT_FALSE(parse_cuda_version("cu12a"));
  EXPECT_FALSE(parse_cuda_version("99999999999.1"));
  EXPECT_FALSE(parse_cuda_version("12.4.x"));
}

}  // namespace
}  // namespace cudalint::domain
