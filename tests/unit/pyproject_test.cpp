#include "analyzer/frontends/pyproject/pyproject.h"

#include <gtest/gtest.h>

namespace cudalint::pyproject {
namespace {

std::string_view at(std::string_view text, Span s) { return text.substr(s.begin, s.end - s.begin); }

TEST(PyProject, BuildRequiresWithSpansAndPins) {
  std::string t =
      "[build-system]\n"
      "requires = [\"setuptools>=64\", \"Torch==2.5.1 ; platform_system == 'Linux'\", \"ninja\"]\n"
      "build-backend = \"setuptools.build_meta\"\n";
  File f = parse(t);
  ASSERT_TRUE(f.has_build_system);
  ASSERT_TRUE(f.requires_span);
  ASSERT_EQ(f.build_requires.size(), 3u);
  EXPECT_EQ(f.build_requires[1].name, "torch");
  ASSERT_TRUE(f.build_requires[1].exact);
  EXPECT_EQ(*f.build_requires[1].exact, "2.5.1");
  EXPECT_EQ(at(t, f.build_requires[1].span), "\"Torch==2.5.1 ; platform_system == 'Linux'\"");
  EXPECT_FALSE(f.build_requires[0].exact);
  ASSERT_TRUE(f.build_backend);
  EXPECT_EQ(*f.build_backend, "setuptools.build_meta");
}

TEST(PyProject, ProjectDependencies) {
  std::string t = "[project]\nname = \"x\"\ndependencies = [\n  \"numpy\",\n  \"torch==2.3.0\",\n]\n";
  File f = parse(t);
  EXPECT_FALSE(f.has_build_system);
  ASSERT_EQ(f.dependencies.size(), 2u);
  EXPECT_EQ(f.dependencies[1].name, "torch");
  EXPECT_EQ(at(t, f.dependencies[1].span), "\"torch==2.3.0\"");
}

TEST(PyProject, MultibyteColumnsMapToBytes) {
  std::string t = "[build-system] # \xC3\xA9t\xC3\xA9\nrequires = [\"\xC3\xA9\", \"torch\"]\n";
  File f = parse(t);
  ASSERT_EQ(f.build_requires.size(), 1u);  // "é" is not a requirement name pip accepts
  EXPECT_EQ(at(t, f.build_requires[0].span), "\"torch\"");
}

TEST(PyProject, BrokenOrHostileInputYieldsNothing) {
  for (std::string t : {std::string("[build-system\nrequires = ["), std::string("requires = 3"),
                        std::string(100000, '['), "a" + std::string(5000, '.') + "b = 1",
                        std::string("[build-system]\nrequires = \"torch\"\n")}) {
    File f = parse(t);
    EXPECT_TRUE(f.build_requires.empty());
    EXPECT_TRUE(f.dependencies.empty());
  }
}

}  // namespace
}  // namespace cudalint::pyproject
