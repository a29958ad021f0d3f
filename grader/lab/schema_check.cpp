#include "lab/schema_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <vector>

#include "lab/lab_json_reader.h"
#include "text/joined_words.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace {

using Json = nlohmann::json;

// The keywords implemented below, and the annotations passed over; any other is refused.
const std::set<std::string>& known_keywords() {
  static const std::set<std::string> known = {"$schema",
                                              "title",
                                              "description",
                                              "$defs",
                                              "errorMessage",
                                              "$ref",
                                              "type",
                                              "enum",
                                              "const",
                                              "minimum",
                                              "maximum",
                                              "exclusiveMinimum",
                                              "minLength",
                                              "pattern",
                                              "minItems",
                                              "uniqueItems",
                                              "items",
                                              "required",
                                              "properties",
                                              "additionalProperties",
                                              "minProperties",
                                              "unevaluatedProperties",
                                              "allOf",
                                              "oneOf",
                                              "if",
                                              "then"};
  return known;
}

std::string at_item(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// 2.0 is an integer to JSON Schema, as to Python's jsonschema, which CI checks the labs with.
bool is_integer(const Json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double x = v.get<double>();
  return std::isfinite(x) && std::floor(x) == x;
}

bool has_type(const Json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "integer") return is_integer(v);
  if (type == "number") return v.is_number();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  throw std::logic_error("labs/lab.schema.json: unknown type \"" + type + "\"");
}

// " from 1 to 1000", " > 0", " >= 1": the bounds `s` sets on a number.
std::string range(const Json& s) {
  const bool lo = s.contains("minimum"), open_lo = s.contains("exclusiveMinimum"),
             hi = s.contains("maximum");
  if (lo && hi) return " from " + s["minimum"].dump() + " to " + s["maximum"].dump();
  std::string out;
  if (lo) out = " >= " + s["minimum"].dump();
  if (open_lo) out = " > " + s["exclusiveMinimum"].dump();
  if (hi) out += (out.empty() ? " <= " : " and <= ") + s["maximum"].dump();
  return out;
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

SchemaViolation unknown_key(const std::string& path, const std::string& key,
                            const std::vector<std::string>& known) {
  return {key_path(path, key), unknown_key_why(key, known)};
}

// What checking a value against a subschema found: the first violation, if any, and the keys
// of the value (an object) that the subschema or those it applies in place ($ref, allOf, if and
// then, oneOf) described, which "unevaluatedProperties" leaves alone.
struct Outcome {
  std::optional<SchemaViolation> violation;
  std::set<std::string> evaluated;
};

// A member's outcome (a property's value, an item): its violation is the parent's.
bool failed(Outcome& out, const Outcome& member) {
  if (!member.violation) return false;
  out.violation = member.violation;
  return true;
}

// An in-place subschema's outcome: its violation and the keys it described are the parent's.
bool merged(Outcome& out, const Outcome& in_place) {
  out.evaluated.insert(in_place.evaluated.begin(), in_place.evaluated.end());
  return failed(out, in_place);
}

class Checker {
 public:
  explicit Checker(const Json& root) : root_(root) {}

  Outcome check(const Json& s, const Json& v, const std::string& path) const {
    Outcome out;
    if (s.is_boolean()) {
      if (!s.get<bool>()) out.violation = SchemaViolation{where(path), "must not be given"};
      return out;
    }
    if (s.contains("$ref") && merged(out, check(resolve(s["$ref"]), v, path))) return out;
    if (const auto why = own_failure(s, v)) {
      out.violation = fail(s, why->first, v, path, why->second);
      return out;
    }
    if (v.is_array() && s.contains("items"))
      for (size_t i = 0; i < v.size(); ++i)
        if (failed(out, check(s["items"], v[i], at_item(path, i)))) return out;
    if (v.is_object() && merged(out, check_members(s, v, path))) return out;
    if (s.contains("allOf"))
      for (const Json& sub : s["allOf"])
        if (merged(out, check(sub, v, path))) return out;
    if (s.contains("if")) {
      const Outcome condition = check(s["if"], v, path);
      if (!condition.violation) {
        merged(out, condition);
        if (s.contains("then") && merged(out, check(s["then"], v, path))) return out;
      }
    }
    if (s.contains("oneOf") && merged(out, check_one_of(s, v, path))) return out;
    if (v.is_object() && s.contains("unevaluatedProperties")) {
      if (s["unevaluatedProperties"] != false)
        throw std::logic_error("labs/lab.schema.json: unevaluatedProperties other than false");
      for (const auto& [key, value] : v.items())
        if (!out.evaluated.count(key)) {
          out.violation = unknown_key(path, key, declared(s));
          return out;
        }
    }
    return out;
  }

 private:
  static std::string where(const std::string& path) { return path.empty() ? "lab" : path; }

  const Json& resolve(const Json& ref) const {
    const std::string r = ref.get<std::string>();
    if (r.rfind('#', 0) != 0) throw std::logic_error("labs/lab.schema.json: $ref " + r);
    const Json::json_pointer at(r.substr(1));
    if (!root_.contains(at)) throw std::logic_error("labs/lab.schema.json: no " + r);
    return root_[at];
  }

  // The violation of `s`'s `keyword` by `v`: its "errorMessage" where it words one, else `why`.
  static SchemaViolation fail(const Json& s, const std::string& keyword, const Json& v,
                              const std::string& path, std::string why) {
    if (s.contains("errorMessage")) {
      const Json& m = s["errorMessage"];
      if (m.is_string()) why = m.get<std::string>();
      if (m.is_object() && m.contains(keyword)) why = m[keyword].get<std::string>();
      for (size_t at; (at = why.find("{value}")) != std::string::npos;)
        why.replace(at, 7, v.dump());
    }
    return {where(path), why};
  }

  // What `s` asks of a value, in words: "an integer from 1 to 1000", "\"gpu\" or \"cpu\"".
  std::string describe(const Json& s) const {
    if (s.is_boolean()) return s.get<bool>() ? "anything" : "nothing";
    if (s.contains("enum")) {
      std::vector<std::string> values;
      for (const Json& e : s["enum"]) values.push_back(e.dump());
      return listed(values, "or");
    }
    if (s.contains("const")) return s["const"].dump();
    if (!s.contains("type")) {
      if (s.contains("$ref")) return describe(resolve(s["$ref"]));
      if (s.contains("oneOf")) {
        std::vector<std::string> alternatives;
        for (const Json& alt : s["oneOf"]) alternatives.push_back(describe(alt));
        return listed(alternatives, "or");
      }
      if (s.contains("required")) {
        std::vector<std::string> keys;
        for (const Json& k : s["required"]) keys.push_back(k.dump());
        return "an object with " + listed(keys, "or");
      }
      return "valid";
    }
    const std::string type = s["type"].get<std::string>();
    if (type == "integer") return "an integer" + range(s);
    if (type == "number") return "a number" + range(s);
    if (type == "string") return s.value("minLength", 0) > 0 ? "a non-empty string" : "a string";
    if (type == "boolean") return "true or false";
    if (type == "object")
      return s.value("minProperties", 0) > 0 ? "a non-empty object" : "an object";
    if (type == "array") {
      const int least = s.value("minItems", 0);
      return least == 1  ? "a non-empty array"
             : least > 1 ? "an array of at least " + std::to_string(least) + " items"
                         : "an array";
    }
    return type;
  }

  // The first of `s`'s keywords about `v` itself (not its members) that `v` fails: the keyword
  // and the generic words.
  std::optional<std::pair<std::string, std::string>> own_failure(const Json& s,
                                                                 const Json& v) const {
    using Failure = std::pair<std::string, std::string>;
    if (s.contains("type") && !has_type(v, s["type"].get<std::string>()))
      return Failure{"type", "must be " + describe(s)};
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end()) {
      std::vector<std::string> names;
      for (const Json& e : s["enum"])
        if (e.is_string()) names.push_back(e.get<std::string>());
      return Failure{"enum", "must be " + describe(s) + ", not " + v.dump() +
                                 (v.is_string() ? did_you_mean(v.get<std::string>(), names) : "")};
    }
    if (s.contains("const") && v != s["const"]) return Failure{"const", "must be " + describe(s)};
    if (v.is_number()) {
      const double x = v.get<double>();
      for (const char* bound : {"minimum", "exclusiveMinimum", "maximum"}) {
        if (!s.contains(bound)) continue;
        const double b = s[bound].get<double>();
        const std::string k = bound;
        if (k == "minimum" ? x < b : k == "maximum" ? x > b : x <= b)
          return Failure{k, "must be " + (s.contains("type") ? describe(s) : range(s).substr(1))};
      }
    }
    if (v.is_string()) {
      const std::string text = v.get<std::string>();
      if (s.contains("minLength") && text.size() < s["minLength"].get<size_t>())
        return Failure{"minLength", "must be " + describe(s)};
      if (s.contains("pattern") && !std::regex_search(text, regex(s["pattern"])))
        return Failure{"pattern", v.dump() + " does not match " + s["pattern"].dump()};
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<size_t>())
        return Failure{"minItems", "must be " + describe(s)};
      if (s.value("uniqueItems", false))
        for (size_t i = 0; i < v.size(); ++i)
          for (size_t j = 0; j < i; ++j)
            if (v[i] == v[j]) return Failure{"uniqueItems", "names " + v[i].dump() + " twice"};
    }
    if (v.is_object() && s.contains("minProperties") && v.size() < s["minProperties"].get<size_t>())
      return Failure{"minProperties", "must be " + describe(s)};
    return std::nullopt;
  }

  // An object's members: an unknown key first (a misspelt key is a missing one too, and its
  // name says more), then a missing one, then each value.
  Outcome check_members(const Json& s, const Json& v, const std::string& path) const {
    Outcome out;
    static const Json none = Json::object();
    const Json& props = s.contains("properties") ? s["properties"] : none;
    const Json* more = s.contains("additionalProperties") ? &s["additionalProperties"] : nullptr;
    if (more && *more == false)
      for (const auto& [key, value] : v.items())
        if (!props.contains(key)) {
          out.violation = unknown_key(path, key, keys_of(props));
          return out;
        }
    if (s.contains("required"))
      for (const Json& key : s["required"])
        if (!v.contains(key.get<std::string>())) {
          out.violation = fail(s, "required", v, path, "missing " + key.dump());
          return out;
        }
    for (const auto& [key, value] : v.items()) {
      const Json* sub = props.contains(key) ? &props[key] : more;
      if (!sub) continue;
      out.evaluated.insert(key);
      if (failed(out, check(*sub, value, key_path(path, key)))) return out;
    }
    return out;
  }

  Outcome check_one_of(const Json& s, const Json& v, const std::string& path) const {
    Outcome out;
    int passed = 0;
    for (const Json& alt : s["oneOf"]) {
      const Outcome o = check(alt, v, path);
      if (o.violation) continue;
      ++passed;
      merged(out, o);
    }
    if (passed != 1)
      out.violation = fail(s, "oneOf", v, path,
                           (passed == 0 ? "must be " : "must be only one of ") +
                               describe(Json{{"oneOf", s["oneOf"]}}));
    return out;
  }

  // The keys `s` describes, in place or through what it applies in place: the names an unknown
  // key may have been meant as.
  std::vector<std::string> declared(const Json& s) const {
    std::vector<std::string> names;
    if (!s.is_object()) return names;
    if (s.contains("properties"))
      for (const std::string& k : keys_of(s["properties"])) names.push_back(k);
    if (s.contains("$ref"))
      for (const std::string& k : declared(resolve(s["$ref"]))) names.push_back(k);
    if (s.contains("allOf"))
      for (const Json& sub : s["allOf"])
        for (const std::string& k : declared(sub)) names.push_back(k);
    return names;
  }

  const std::regex& regex(const Json& pattern) const {
    const std::string p = pattern.get<std::string>();
    auto it = regexes_.find(p);
    if (it == regexes_.end()) it = regexes_.emplace(p, std::regex(p, std::regex::ECMAScript)).first;
    return it->second;
  }

  const Json& root_;
  mutable std::map<std::string, std::regex> regexes_;
};

// Every keyword of `s` and of the subschemas under it is one the checker implements.
void check_keywords(const Json& s, const std::string& pointer) {
  if (s.is_boolean()) return;
  if (!s.is_object()) throw std::logic_error("labs/lab.schema.json: " + pointer + " is no schema");
  for (const auto& [keyword, value] : s.items()) {
    const std::string at = pointer + "/" + keyword;
    if (!known_keywords().count(keyword))
      throw std::logic_error("labs/lab.schema.json uses \"" + keyword + "\" (" + at +
                             "), which gpulab's check of lab.json does not implement "
                             "(grader/lab/schema_check.cpp)");
    if (keyword == "properties" || keyword == "$defs") {  // names, each a schema
      for (const auto& [name, sub] : value.items()) check_keywords(sub, at + "/" + name);
    } else if (keyword == "allOf" || keyword == "oneOf") {
      for (size_t i = 0; i < value.size(); ++i)
        check_keywords(value[i], at + "/" + std::to_string(i));
    } else if (keyword == "items" || keyword == "additionalProperties" ||
               keyword == "unevaluatedProperties" || keyword == "if" || keyword == "then") {
      check_keywords(value, at);
    }
  }
}

}  // namespace

std::optional<SchemaViolation> schema_violation(const nlohmann::json& schema,
                                                const nlohmann::json& doc) {
  check_keywords(schema, "#");
  return Checker(schema).check(schema, doc, "").violation;
}

}  // namespace gpulab
