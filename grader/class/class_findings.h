// What the class got wrong, per lab: each test's failures with their most common messages, and
// the CPU backend's findings (report.h's SimFindingSite) grouped by kind and the student's
// line, so an instructor sees the class's misconceptions at a glance (class.html's view, and
// class-findings.csv: class_table.h). Counts are of students, never of lines or datasets: a
// student counts once in a group however often their report repeats it. A message groups with
// those that differ from it only in numbers (indices, values, sizes); a finding with those of
// the same kind in the same part on the same line of code (whitespace aside), or, where the
// line is not the student's (the harness's), at the same file and line.
// Every text here is the students' (their messages, their code, their file names): the
// renderings escape it (html_text.h, csv_text.h).
#pragma once

#include <string>
#include <vector>

#include "class/class_table.h"

namespace gpulab {

struct MessageGroup {
  std::string pattern;  // the message with each number as "#": what groups it
  std::string example;  // the first student's message, verbatim
  int students = 0;
};

struct TestFailures {
  std::string test;
  int failed = 0;                      // students who failed it
  int of = 0;                          // students with a score whose report has it
  std::vector<MessageGroup> messages;  // most students first
};

struct FindingGroup {
  std::string part, kind;
  std::string key;     // what groups it: the line of code, or file:line where there is none
  std::string where;   // the first student's file:line
  std::string source;  // the first student's line of code; empty where not theirs
  int students = 0;
};

struct LabFindings {
  std::string lab;
  int graded = 0;                      // students whose tests ran (report.h's graded())
  std::vector<TestFailures> tests;     // the class table's column order, then the rest
  std::vector<FindingGroup> findings;  // most students first
};

// The view of `lab` from every report of the table.
LabFindings lab_findings(const ClassTable& table, const std::string& lab);

// The message of a failed test: why its first dataset that failed failed (the first finding of
// the CPU backend or compute-sanitizer that failed it, the cause, else "FAIL <dataset>:
// <message>" with the dataset left out), for a test on hidden datasets in its instructors'
// detail test, else its first compiler error, else its first line; cut short.
std::string failure_message(const Report& report, const Test& test);

// `message` as it groups: each number ("12", "-0.5", "4.97e+04") as "#", runs of white space as
// one space.
std::string message_pattern(const std::string& message);

}  // namespace gpulab
