// grader/lab/output_order.h: a part's outputs told in data-flow order, the arrays a segment_sets
// output takes its layout from before it.
#include "lab/output_order.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

gpulab::OutputSpec output(const std::string& name, const std::string& starts = "",
                          const std::string& counts = "") {
  gpulab::OutputSpec o;
  o.name = name;
  o.dtype = "int32";
  o.tolerance.starts = starts;
  o.tolerance.counts = counts;
  return o;
}

}  // namespace

TEST_CASE("the starts and counts come before the lists they index, else lab.json's order") {
  gpulab::LabConfig lab;
  for (const auto& o : {output("nbr_index", "nbr_start", "nbr_count"), output("nbr_start"),
                        output("nbr_count"), output("energy")})
    lab.outputs[o.name] = o;
  gpulab::PartSpec part;
  part.outputs = {"nbr_index", "nbr_count", "nbr_start"};
  CHECK(gpulab::data_flow_order(lab, part) ==
        std::vector<std::string>{"nbr_start", "nbr_count", "nbr_index"});
  part.outputs = {"nbr_count", "nbr_start", "nbr_index"};  // already in order: kept
  CHECK(gpulab::data_flow_order(lab, part) == part.outputs);
  // A layout read from an array the part does not output (the expected one) changes nothing.
  part.outputs = {"nbr_index", "energy"};
  CHECK(gpulab::data_flow_order(lab, part) == part.outputs);
  // A cycle (lab.json's checks refuse one) ends where it began rather than looping.
  lab.outputs["nbr_start"] = output("nbr_start", "nbr_index");
  part.outputs = {"nbr_index", "nbr_start"};
  CHECK(gpulab::data_flow_order(lab, part).size() == 2);
}
