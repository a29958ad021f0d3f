// The report: where findings go as JSON lines (sim/README.md, "What is reported"). Opened once,
// at start (settings.cpp), so nothing a program does to its environment or its files later
// moves it; each record is written when it is made, so a record already sent cannot be taken
// back by a program that later truncates, closes or replaces the report; and the last record
// says how many came before it, so a report cut short (a program that closed the descriptor, or
// left without going through exit) reads as such.
#pragma once

#include <string>

namespace gpulab_sim::detail {

// Opens the report the variables name, after closing (without an end record) any open one:
// `path` a file, appended to (GPULAB_SIM_REPORT); or `fd` a descriptor the runtime was given
// open (GPULAB_SIM_REPORT_FD), with `key` (GPULAB_SIM_REPORT_KEY) repeated in the end record so
// that its reader can tell it from one the program wrote. Null or empty: not set.
void open_report(const char* path, const char* fd, const char* key);

// One record (a JSON object, no newline), written whole at once; nothing once the report ended.
void send_record(const std::string& json);

void count_launch();

// The end record, {"end":{"launches":N,"records":M,"key":K}}: M records came before it. Nothing
// is written after it.
void end_report();

}  // namespace gpulab_sim::detail
