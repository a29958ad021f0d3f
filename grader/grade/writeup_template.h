// The write-up's template as it was handed out, told apart from the student's filled copy. In
// an instructor's tree the lab's folder holds the pristine template (labs/<id>/REPORT.md); in
// the student kit that same file is the one the student fills in, so comparing a submission
// with it would call every filled write-up "the template, unchanged". `gpulab dist` therefore
// records each template's fingerprint when it makes the kit, in a file of the kit's own
// (kWriteupTemplateRecord, at the kit's top), which no runner is built against (the shipped
// runners' record, kit_runners.h, leaves the write-up out) and which no lab.json carries.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_config.h"

namespace gpulab {

// The record, at the top of the tree the labs are in (beside labs/): the kit's.
constexpr const char* kWriteupTemplateRecord = "writeup-templates.json";

// The record's text for `labs` (each from labs/<id>/lab.json of the tree being shipped):
// {"templates": {"labs/<id>/<file>": content_hash of that file}} for each lab with a write-up.
// Throws std::runtime_error where a lab's template cannot be read.
std::string writeup_template_record(const std::vector<LabConfig>& labs);

// The fingerprint (content_hash, files/content_hash.h) of `lab`'s pristine template: the
// record's, where the tree lab.dir is in holds one (the student kit); otherwise that of
// lab.dir's own file (an instructor's tree, a course platform's package), "" where there is
// none. A record that cannot be read or names no template for the lab is said on `log` and the
// lab's file used.
std::string template_fingerprint(const LabConfig& lab, std::ostream& log);

}  // namespace gpulab
