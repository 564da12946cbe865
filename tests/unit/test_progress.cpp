// The progress line (app/progress.hpp): which steps get one, the time left from the mean wall
// time per step so far, and durations for people.
#include "eis/app/progress.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<int> dueSteps(int every, int steps) {
  const eis::Progress progress(every, steps);
  std::vector<int> due;
  for (int step = 1; step <= steps; ++step)
    if (progress.due(step)) due.push_back(step);
  return due;
}

TEST(Progress, FirstLastAndEveryNthStep) {
  EXPECT_EQ(dueSteps(1, 4), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(dueSteps(3, 10), (std::vector<int>{1, 3, 6, 9, 10}));
  EXPECT_EQ(dueSteps(5, 10), (std::vector<int>{1, 5, 10}));
  EXPECT_EQ(dueSteps(50, 10), (std::vector<int>{1, 10}));
  EXPECT_EQ(dueSteps(2, 1), (std::vector<int>{1}));
}

TEST(Progress, ZeroMeansNoStepLines) {
  EXPECT_TRUE(dueSteps(0, 10).empty());
}

TEST(Progress, LineHasTheStepsNumbersAndTheTimeLeft) {
  const eis::Progress progress(1, 10);
  eis::StepRecord step;
  step.step = 4;
  step.time = 0.04;
  step.wallSeconds = 0.25;
  step.report.linearIterations = 12;
  step.report.preconditionerSetups = 1;
  // 4 steps in 2 s: 0.5 s per step, 6 steps left.
  EXPECT_EQ(progress.line(step, "  residual 1e-9", 2.0),
            "step 4/10  t = 0.04  linear iterations 12  PC set-ups 1  residual 1e-9  0.2500 s  "
            "left 3.00 s");
  step.step = 10;
  EXPECT_EQ(progress.line(step, "", 5.0).substr(progress.line(step, "", 5.0).rfind("left")),
            "left 0.00 s");
}

TEST(Progress, UnknownStepCountHasNoTotalNorTimeLeft) {
  // A Python main loop's run: as many steps as the script animates.
  const eis::Progress progress(1, 0);
  eis::StepRecord step;
  step.step = 3;
  step.time = 0.03;
  step.wallSeconds = 0.5;
  step.report.linearIterations = 7;
  EXPECT_TRUE(progress.due(3));
  EXPECT_EQ(progress.line(step, "", 1.5),
            "step 3  t = 0.03  linear iterations 7  PC set-ups 0  0.5000 s");
}

TEST(Progress, HumanDurations) {
  EXPECT_EQ(eis::humanDuration(0), "0.00 s");
  EXPECT_EQ(eis::humanDuration(0.4249), "0.42 s");
  EXPECT_EQ(eis::humanDuration(12.34), "12.3 s");
  EXPECT_EQ(eis::humanDuration(245), "4 min 05 s");
  EXPECT_EQ(eis::humanDuration(2 * 3600 + 7 * 60 + 10), "2 h 07 min");
  EXPECT_EQ(eis::humanDuration(-1), "0.00 s");
}

}  // namespace
