#!/usr/bin/env python3
"""No two source files of a unity-built library define a free function of the same name.

The student's build compiles gpulab's libraries a few files at a time (GPULAB_UNITY: each
`gpulab_unity(<target> ...)` in a CMakeLists.txt). Files merged so share one scope: a helper
that two files each define in their anonymous namespace under one name and one signature fails
that build, but two of different signatures become overloads of each other, and a call in one
file may then bind, without a word, to the other file's helper. The development build, one file
at a time, would not show it. So every CMakeLists.txt folder that calls gpulab_unity() is checked
whole: a free function defined (unqualified, at the start of a line, as clang-format writes it)
in two of its .cpp files is refused, unless a header declares the name (an overload set meant to
be one). Give the helper one home (grader/text/, say) or a name of its own.

    scripts/check_unity_names.py <source dir>      # exit 1 on a name defined twice
    scripts/check_unity_names.py --self-test       # a planted twice-defined helper is found
"""
import collections
import glob
import os
import re
import sys
import tempfile

# A definition's first line: a return type, then the name and its "(" (members, Class::name(,
# and statements are not definitions of free functions).
DEFINITION = re.compile(
    r"^(?!(?:return|if|for|while|switch|else|case|namespace|using|typedef|struct|class|enum|"
    r"template|static_assert)\b)[A-Za-z_][\w:<>,\s\*&\[\]]*?\b([A-Za-z_]\w*)\s*\(")
NAME_IN_HEADER = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# A named namespace opened or closed at the start of a line, as clang-format writes them.
NAMESPACE_OPEN = re.compile(r"^namespace ([A-Za-z_][\w:]*) \{")
NAMESPACE_CLOSE = re.compile(r"^\}  // namespace ([A-Za-z_][\w:]*)")


def unity_folders(root):
    """The folders whose CMakeLists.txt builds a library with gpulab_unity()."""
    folders = []
    for cmake in glob.glob(os.path.join(root, "**", "CMakeLists.txt"), recursive=True):
        if os.path.relpath(cmake, root).split(os.sep)[0].startswith("build"):
            continue  # a build folder's copies
        text = open(cmake, encoding="utf-8").read()
        if re.search(r"^\s*gpulab_unity\(\w", text, re.M):
            folders.append(os.path.dirname(cmake))
    return sorted(folders)


def header_names(folder):
    names = set()
    for h in glob.glob(os.path.join(folder, "**", "*.h"), recursive=True):
        names.update(NAME_IN_HEADER.findall(open(h, encoding="utf-8", errors="replace").read()))
    return names


def defined_twice(folder):
    declared = header_names(folder)
    # By name and the named namespace it is defined in: two files' helpers in namespaces of their
    # own (datasets/<lab>/generator.cpp) do not meet.
    where = collections.defaultdict(set)
    for source in glob.glob(os.path.join(folder, "**", "*.cpp"), recursive=True):
        spaces = []
        for line in open(source, encoding="utf-8", errors="replace"):
            opened, closed = NAMESPACE_OPEN.match(line), NAMESPACE_CLOSE.match(line)
            if opened:
                spaces.append(opened.group(1))
            elif closed and spaces and spaces[-1] == closed.group(1):
                spaces.pop()
            m = DEFINITION.match(line)
            if not m or line[:m.start(1)].rstrip().endswith("::") or "=" in line[:m.start(1)]:
                continue
            if m.group(1) not in declared and m.group(1) != "main":
                where[m.group(1), "::".join(spaces)].add(os.path.relpath(source, folder))
    return {name: sorted(files) for (name, _), files in where.items() if len(files) > 1}


def self_test():
    """A helper defined in two files of a unity folder is found; a member, a header's overload
    set, one definition and two in namespaces of their own are not."""
    with tempfile.TemporaryDirectory() as root:
        lib = os.path.join(root, "lib")
        os.makedirs(lib)
        files = {
            "CMakeLists.txt": "add_library(lib a.cpp b.cpp c.cpp d.cpp)\ngpulab_unity(lib 0)\n",
            "api.h": "int shared(int x);\n",
            "a.cpp": "namespace {\nint helper(int x) {\n  return x;\n}\n}\n"
                     "int shared(int x) { return x; }\nint Box::size() { return 1; }\n",
            "b.cpp": "namespace {\nlong helper(long x) {\n  return x;\n}\n"
                     "static double alone(double x) { return x; }\n}\n"
                     "long shared(long x) { return x; }\nint Bag::size() { return 2; }\n",
            # The same name in namespaces of their own: apart even in one file.
            "c.cpp": "namespace lib::c_own {\nnamespace {\nint parse(int x) {\n  return x;\n}\n}\n"
                     "}  // namespace lib::c_own\n",
            "d.cpp": "namespace lib::d_own {\nnamespace {\nlong parse(long x) {\n  return x;\n}\n}\n"
                     "}  // namespace lib::d_own\n",
        }
        for name, text in files.items():
            with open(os.path.join(lib, name), "w", encoding="utf-8") as f:
                f.write(text)
        found = defined_twice(lib)
        if list(found) != ["helper"] or found["helper"] != ["a.cpp", "b.cpp"]:
            sys.exit("check_unity_names --self-test: found %r, expected helper in a.cpp and b.cpp"
                     % found)
    print("check_unity_names --self-test: the planted helper was found, nothing else")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    folders = unity_folders(root)
    if not folders:
        sys.exit("check_unity_names: no CMakeLists.txt calls gpulab_unity(): nothing to check")
    problems = 0
    for folder in folders:
        for name, files in sorted(defined_twice(folder).items()):
            problems += 1
            print("%s: %s() is defined in %s: in a unity build they are one scope, and a call may "
                  "bind to the other file's; give it one home or a name of its own"
                  % (os.path.relpath(folder, root), name, " and ".join(files)))
    print("check_unity_names: %d folders, %d names defined twice" % (len(folders), problems))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
