// GitHub Actions workflows: the front-end (matrix, env, steps) and the jobs as builds.
#include <gtest/gtest.h>

#include "analyzer/frontends/ci/github_workflow.h"
#include "analyzer/frontends/ci/gitlab_ci.h"
#include "analyzer/model/ci_build.h"

namespace cudalint {
namespace {

constexpr std::string_view kWorkflow = R"(name: wheels
on: [push]
env:
  MAX_JOBS: 2
jobs:
  build:
    runs-on: ubuntu-22.04
    strategy:
      matrix:
        cuda: ['11.8.0', '12.4.1']
        torch: ['2.3.0', '2.5.1']
        exclude:
          - cuda: '11.8.0'
            torch: '2.5.1'
        include:
          - cuda: '12.4.1'
            arch: '9.0'
    container: nvidia/cuda:${{ matrix.cuda }}-devel-ubuntu22.04
    env:
      TORCH_CUDA_ARCH_LIST: "7.0;8.0"
    steps:
      - uses: actions/checkout@v4
      - name: Install torch
        run: |
          # the torch of this combination
          pip install torch==${{ matrix.torch }}
      - name: Build
        env:
          FORCE_CUDA: "1"
        run: |
          python setup.py bdist_wheel
  cmake:
    runs-on: ubuntu-22.04
    steps:
      - uses: actions/checkout@v4
      - uses: Jimver/cuda-toolkit@v0.2.16
        with:
          cuda: '12.1.0'
      - run: echo "TORCH_CUDA_ARCH_LIST=8.6" >> $GITHUB_ENV
      - run: pip install --no-build-isolation .
        working-directory: sub
      - run: cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES="${{ secrets.ARCHS }}"
)";

std::string at(std::string_view text, Span s) { return std::string(text.substr(s.begin, s.end - s.begin)); }

TEST(CiWorkflow, ReadsJobsMatrixAndSteps) {
  auto pr = ci::parse_github_workflow(kWorkflow);
  ASSERT_TRUE(pr.errors.empty()) << pr.errors[0].message;
  ASSERT_EQ(pr.workflow.jobs.size(), 2u);
  const ci::Job& build = pr.workflow.jobs[0];
  EXPECT_EQ(build.id.value(), "build");
  // 2x2 minus the excluded one; the include adds `arch` to the combinations with cuda 12.4.1.
  ASSERT_EQ(build.combos.size(), 3u);
  size_t with_arch = 0;
  for (const auto& c : build.combos)
    for (const auto& v : c.values) with_arch += v.key.value() == "arch";
  EXPECT_EQ(with_arch, 2u);
  ASSERT_EQ(build.steps.size(), 3u);
  ASSERT_TRUE(build.steps[1].run);
  // A literal block scalar maps each byte back to the file.
  const ci::Scalar& run = *build.steps[1].run;
  size_t pip = run.value().find("pip install");
  ASSERT_NE(pip, std::string::npos);
  EXPECT_EQ(at(kWorkflow, run.text.span_of(pip, pip + 11)), "pip install") << "[" << at(kWorkflow, run.span) << "]";
  ASSERT_EQ(build.env.size(), 1u);
  EXPECT_EQ(at(kWorkflow, build.env[0].value.text.span_of(0, 7)), "7.0;8.0");
}

TEST(CiWorkflow, JobsBecomeBuildsWithTheirEnvironment) {
  auto pr = ci::parse_github_workflow(kWorkflow);
  SourceFile sf(".github/workflows/wheels.yml", FileKind::CiWorkflow, std::string(kWorkflow));
  model::CiWorkflowUnit u = model::extract_ci_build(sf, pr.workflow);
  ASSERT_EQ(u.build.stages.size(), 4u);  // three combinations of `build`, one `cmake`
  const model::DockerStage& first = u.build.stages[0];
  EXPECT_EQ(first.name, "build (cuda=11.8.0, torch=2.3.0)");
  ASSERT_TRUE(first.cuda);
  EXPECT_EQ(first.cuda->value.str(), "11.8.0");
  ASSERT_EQ(first.torch_installs.size(), 1u);
  ASSERT_TRUE(first.torch_installs[0].pinned);
  EXPECT_EQ(first.torch_installs[0].pinned->str(), "2.3.0");
  ASSERT_EQ(first.compile_steps.size(), 1u);
  const model::CompileStep& step = first.compile_steps[0];
  EXPECT_TRUE(step.local_project);
  ASSERT_TRUE(step.build_path);
  EXPECT_EQ(*step.build_path, std::string(model::kCiWorkspace));
  ASSERT_TRUE(step.arch_list);
  EXPECT_EQ(step.arch_list->value, "7.0;8.0");
  EXPECT_EQ(at(kWorkflow, step.arch_list->origin.span), "7.0;8.0");
  EXPECT_TRUE(step.force_cuda);
  ASSERT_EQ(first.copies.size(), 1u);

  const model::DockerStage& cmake = u.build.stages[3];
  EXPECT_EQ(cmake.name, "cmake");
  ASSERT_TRUE(model::effective_cuda(cmake));
  EXPECT_EQ(model::effective_cuda(cmake)->value.str(), "12.1");
  ASSERT_EQ(cmake.compile_steps.size(), 1u);
  // `>> $GITHUB_ENV` reaches the later steps; the working directory is the step's.
  ASSERT_TRUE(cmake.compile_steps[0].arch_list);
  EXPECT_EQ(cmake.compile_steps[0].arch_list->value, "8.6");
  ASSERT_TRUE(cmake.compile_steps[0].build_path);
  EXPECT_EQ(*cmake.compile_steps[0].build_path, std::string(model::kCiWorkspace) + "/sub");
  // A secret is unknown, not empty.
  ASSERT_EQ(cmake.cmake_steps.size(), 1u);
  EXPECT_TRUE(cmake.cmake_steps[0].defines.empty());
  EXPECT_EQ(cmake.cmake_steps[0].unknown_defines.size(), 1u);
}

TEST(CiWorkflow, BadYamlGivesALocatedError) {
  auto pr = ci::parse_github_workflow("jobs:\n  a: [1, 2\n");
  ASSERT_EQ(pr.errors.size(), 1u);
  EXPECT_GT(pr.errors[0].span.end, pr.errors[0].span.begin);
  std::string deep(5000, '[');
  auto deep_pr = ci::parse_github_workflow("jobs: " + deep);
  ASSERT_EQ(deep_pr.errors.size(), 1u);
  EXPECT_NE(deep_pr.errors[0].message.find("nested"), std::string::npos);
}

TEST(CiWorkflow, MatrixFromAnExpressionIsUnknown) {
  auto pr = ci::parse_github_workflow(
      "jobs:\n  b:\n    strategy:\n      matrix: ${{ fromJSON(needs.a.outputs.m) }}\n    steps:\n      - run: "
      "TORCH_CUDA_ARCH_LIST=${{ matrix.arch }} pip install .\n");
  ASSERT_TRUE(pr.errors.empty());
  ASSERT_EQ(pr.workflow.jobs.size(), 1u);
  EXPECT_TRUE(pr.workflow.jobs[0].matrix_unknown);
  SourceFile sf(".github/workflows/b.yml", FileKind::CiWorkflow, "");
  model::CiWorkflowUnit u = model::extract_ci_build(sf, pr.workflow);
  ASSERT_EQ(u.build.stages.size(), 1u);
  ASSERT_EQ(u.build.stages[0].compile_steps.size(), 1u);
  ASSERT_TRUE(u.build.stages[0].compile_steps[0].arch_list);
  EXPECT_FALSE(u.build.stages[0].compile_steps[0].arch_list->value_known);
}

}  // namespace
}  // namespace cudalint

namespace cudalint {
namespace {

constexpr std::string_view kGitlab = R"(variables:
  MAX_JOBS: "2"
.cuda-build:
  image: nvidia/cuda:${CUDA}-devel-ubuntu22.04
  before_script:
    - pip install torch==2.5.1
stages: [build]
wheel:
  extends: .cuda-build
  stage: build
  variables:
    TORCH_CUDA_ARCH_LIST: "8.0;9.0"
  parallel:
    matrix:
      - CUDA: ["11.8.0", "12.4.1"]
  script:
    - cd ext
    - pip install --no-build-isolation .
docs:
  image: python:3.11
  script: mkdocs build
.hidden:
  script: pip install .
)";

TEST(GitlabCi, JobsTemplatesAndMatrix) {
  auto pr = ci::parse_gitlab_ci(kGitlab);
  ASSERT_TRUE(pr.errors.empty()) << pr.errors[0].message;
  ASSERT_EQ(pr.workflow.jobs.size(), 2u);  // not `.hidden`, `variables` or `stages`
  const ci::Job& wheel = pr.workflow.jobs[0];
  EXPECT_EQ(wheel.id.value(), "wheel");
  EXPECT_EQ(wheel.combos.size(), 2u);
  ASSERT_EQ(wheel.steps.size(), 2u);
  EXPECT_TRUE(wheel.steps[0].checkout);
  ASSERT_TRUE(wheel.steps[1].run);
  const ci::Scalar& run = *wheel.steps[1].run;
  size_t pip = run.value().find("pip install --no-build");
  ASSERT_NE(pip, std::string::npos) << run.value();
  EXPECT_EQ(at(kGitlab, run.text.span_of(pip, pip + 11)), "pip install");

  SourceFile sf(".gitlab-ci.yml", FileKind::CiWorkflow, std::string(kGitlab));
  model::CiWorkflowUnit u = model::extract_ci_build(sf, pr.workflow);
  ASSERT_EQ(u.build.stages.size(), 3u);
  const model::DockerStage& first = u.build.stages[0];
  EXPECT_EQ(first.name, "wheel (CUDA=11.8.0)");
  ASSERT_TRUE(first.cuda) << "the image names the matrix's CUDA";
  EXPECT_EQ(first.cuda->value.str(), "11.8.0");
  ASSERT_TRUE(u.build.stages[1].cuda);
  EXPECT_EQ(u.build.stages[1].cuda->value.str(), "12.4.1");
  ASSERT_EQ(first.compile_steps.size(), 1u);
  ASSERT_TRUE(first.compile_steps[0].build_path);
  EXPECT_EQ(*first.compile_steps[0].build_path, std::string(model::kCiWorkspace) + "/ext");
  ASSERT_TRUE(first.compile_steps[0].arch_list);
  EXPECT_EQ(first.compile_steps[0].arch_list->value, "8.0;9.0");
  ASSERT_EQ(first.torch_installs.size(), 1u);
}

}  // namespace
}  // namespace cudalint
