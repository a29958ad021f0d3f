// What of a submission may run before the CPU backend has read its settings. The runtime reads
// them in a constructor of priority 101 (sim/runtime/settings.cpp), which the linker orders
// before every constructor and static initializer of default priority, whatever the link order;
// code that runs earlier could change them first (unset GPULAB_SIM_REPORT_FD, say). So a
// submission's objects may not carry, each found by the section or symbol that holds it:
//  - a constructor or static object with a priority (sections .init_array.N and .ctors.N);
//  - code for the program's start before constructors (.preinit_array, .init, or a section of
//    type INIT_ARRAY or PREINIT_ARRAY under a name of its own, which ld would keep as is);
//  - an indirect function (nm type 'i'), whose resolver runs while the program is loaded;
//  - a reference to the runtime's test hook that reads the settings again.
// Ordinary static initializers and constructors are fine: they run after the runtime's.
// This module is pure: readelf's and nm's output in, findings out. grader/build/build.cpp runs
// them.
#pragma once

#include <string>
#include <vector>

#include "build/symbol_policy.h"

namespace gpulab {

// One section of an object, as `readelf -S -W` lists it.
struct ElfSection {
  std::string name;
  std::string type;  // PROGBITS, INIT_ARRAY, ...
};

// The sections in `readelf -S -W` output; every other line is skipped.
std::vector<ElfSection> parse_readelf_sections(const std::string& readelf_output);

// What in one object would run before the runtime read its settings, each for the student
// ("a constructor with a priority (section .init_array.00101)"), in the object's order.
std::vector<std::string> startup_findings(const std::vector<ElfSection>& sections,
                                          const std::vector<NmSymbol>& symbols);

// The build's message for them: "scan.cu has code that runs before gpulab's CPU backend starts
// (...): remove it; ordinary static initializers are fine."
std::string describe_startup_findings(const std::string& file,
                                      const std::vector<std::string>& findings);

}  // namespace gpulab
