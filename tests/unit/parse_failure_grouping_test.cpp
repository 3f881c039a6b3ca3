// PARSE006: one finding per file, each reason once with the archs it held for.
#include <gtest/gtest.h>

#include "analyzer/engine/cuda_units.h"

namespace cudalint {
namespace {

TEST(ParseFailureGrouping, OneTextNamingTheArchsOfEachReason) {
  std::vector<std::string> errors{
      "the CUDA front-end could not run for sm_80: templates can only be declared in namespace or class scope",
      "the CUDA front-end could not run for sm_90a: templates can only be declared in namespace or class scope",
      "the CUDA front-end could not parse this file for sm_100",
      "the CUDA front-end could not run for sm_80: templates can only be declared in namespace or class scope",
  };
  EXPECT_EQ(grouped_failures(errors),
            "the CUDA front-end could not run for sm_80, sm_90a: templates can only be declared in namespace or "
            "class scope; the CUDA front-end could not parse this file for sm_100");
  EXPECT_EQ(grouped_failures({}), "");
  EXPECT_EQ(grouped_failures({"something without an arch"}), "something without an arch");
}

}  // namespace
}  // namespace cudalint
