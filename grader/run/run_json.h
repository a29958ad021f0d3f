// JSON a run wrote (its result record, the CPU backend's findings lines), read on a budget. The
// run is student code, so its JSON is read as an adversary's: a document larger than its
// reader's byte limit is refused before it is parsed; one nested deeper than
// kRunJsonDepthLimit is refused by a first pass that builds nothing and stops at the level past
// the limit (nlohmann's values for 24 MiB of '[' would take gigabytes); anything else that is
// not JSON (truncated, invalid UTF-8, a NUL byte, a number past a double's range) is refused
// with what is wrong with it. Only then is the value built. Nothing here throws: a problem is a
// sentence for the student. The fields of what was read are taken through the typed accessors
// below, which say where one has another type instead of throwing as nlohmann's value() and
// get() do.
//
// What a byte limit costs in memory: nlohmann's values take up to about 40 times the text they
// come from (an array of empty objects: 3 bytes of text each, a map and its place in the array
// each, measured at 33 times for 4 MiB in tests/unit/run_json_test.cpp), so a limit of L bytes
// bounds the memory a document takes by about 40 L.
#pragma once

#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gpulab {

// Levels of arrays and objects a run's JSON may nest; gpulab's own records nest 3.
constexpr int kRunJsonDepthLimit = 32;

// A document a run wrote, read: its value, or why there is none.
struct RunJson {
  nlohmann::json value;  // null where there is a problem
  std::string problem;   // "" when read; else for the student: "result record is not JSON ..."
};

// `text` as JSON, refused past `byte_limit` bytes or kRunJsonDepthLimit levels. `what` names the
// document in the problem: "result record" gives "result record is nested deeper than 32
// levels".
RunJson parse_run_json(std::string_view text, size_t byte_limit, const std::string& what) noexcept;

// The same from a stream, of which at most byte_limit + 1 bytes are read.
RunJson read_run_json(std::istream& in, size_t byte_limit, const std::string& what) noexcept;

// A field of an object a run wrote: its value where it is there with the type asked for; none
// where it is missing (the caller decides whether that is wrong), or where it has another type,
// which `problem` then says for the student: "field \"message\" is a number, not a string".
template <class T>
struct RunField {
  std::optional<T> value;
  std::string problem;

  T value_or(T fallback) const { return value ? *value : fallback; }
};

// A string.
RunField<std::string> string_field(const nlohmann::json& object, const std::string& key) noexcept;
// Any number, as a double (JSON has no infinities or NaN: a number is finite).
RunField<double> number_field(const nlohmann::json& object, const std::string& key) noexcept;
// A whole number a long long holds: 3 and 3.0 are, 3.5 and 1e30 are not.
RunField<long long> int_field(const nlohmann::json& object, const std::string& key) noexcept;
// true or false.
RunField<bool> bool_field(const nlohmann::json& object, const std::string& key) noexcept;
// An object or an array: the value inside `object`, valid while `object` is.
RunField<const nlohmann::json*> object_field(const nlohmann::json& object,
                                             const std::string& key) noexcept;
RunField<const nlohmann::json*> array_field(const nlohmann::json& object,
                                            const std::string& key) noexcept;

}  // namespace gpulab
