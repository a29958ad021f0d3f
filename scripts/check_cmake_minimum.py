#!/usr/bin/env python3
"""gpulab's CMake files use nothing newer than the CMake they declare, cmake_minimum_required's
lower bound in CMakeLists.txt (Ubuntu 22.04's 3.22: Gradescope's default base image builds
gpulab with it, docs/GRADING.md, "The platforms' own images").

    scripts/check_cmake_minimum.py HELP [ROOT]        check the tree at ROOT (default: this one)
    scripts/check_cmake_minimum.py HELP --self-test   check this tree, then plant newer features
                                                      in a copy of it and check each is caught

HELP is the running CMake's documentation (${CMAKE_ROOT}/Help: Debian's cmake-data has it). What
it marks `.. versionadded:: V` with V above the declared minimum is looked for in every CMake file
git tracks, comments left out:
  - commands (block(), 3.25) and a command's keyword options (return(PROPAGATE), 3.25);
  - generator expressions that are new whole ($<PATH:...>, 3.24);
  - variables (CMAKE_COMPILE_WARNING_AS_ERROR, LINUX) anywhere, as whole words;
  - properties where a property is named (set_target_properties' PROPERTIES, set_property's
    PROPERTY, get_*_property, $<TARGET_PROPERTY:...>): SYSTEM is a 3.25 property but an old
    keyword of target_include_directories;
  - policies (cmake_policy(SET CMP0140 NEW)).
Every cmake_minimum_required of the tree (tests/fuzz/ configures alone) must declare the same
range. A feature the documentation describes only in prose (not an option's own entry) is not
seen: the proof that the declared minimum builds is scripts/platform-image-check.sh on the
platforms' own images. The ctests `cmake_minimum` and `cmake_minimum_self_test` run the first two
(tests/CMakeLists.txt).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

VERSIONADDED = re.compile(r"^(\s*)\.\. versionadded:: (\d+(?:\.\d+)*)")
MINIMUM = re.compile(r"cmake_minimum_required\s*\(\s*VERSION\s+(\d+(?:\.\d+)*)(?:\.\.\.(\d+(?:\.\d+)*))?"
                     r"\s*\)", re.IGNORECASE)


def version(text):
    return tuple(int(p) for p in text.split("."))


def name_pattern(title):
    """A documented name as a regular expression: <LANG>, <CONFIG>, ... stand for any word."""
    return re.compile(r"(?<![\w$])" + re.sub(r"<[^>]*>", r"\\w+", re.escape(title)) + r"(?!\w)")


def leading_versionadded(lines):
    """The version a Help page's entity was added in, when the page says so before its text."""
    for line in lines[2:10]:
        m = VERSIONADDED.match(line)
        if m and not m.group(1):
            return version(m.group(2))
        if line.strip() and not line.startswith(".."):
            return None
    return None


class NewFeatures:
    """What the running CMake's Help marks as added after `minimum`."""

    def __init__(self, help_dir, minimum):
        self.commands = {}  # name -> version
        self.keywords = {}  # (command, KEYWORD) -> version
        self.genexes = {}  # name -> version (every entry of that name is new)
        self.variables = []  # (pattern, title, version)
        self.properties = []
        self.policies = {}  # CMPnnnn -> version
        newer = lambda v: v is not None and v > minimum
        old_genexes = set()

        for page, lines in self._pages(help_dir, "command"):
            v = leading_versionadded(lines)
            if newer(v):
                self.commands[page] = v
            for i, line in enumerate(lines):
                m = VERSIONADDED.match(line)
                if m and newer(version(m.group(2))):
                    for keyword in self._keywords_added(lines, i, indented=bool(m.group(1))):
                        self.keywords.setdefault((page, keyword), version(m.group(2)))

        genex_manual = os.path.join(help_dir, "manual", "cmake-generator-expressions.7.rst")
        with open(genex_manual, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^\.\. genex:: \$<([A-Z_][A-Z0-9_]*)", line)
            if not m:
                continue
            v = None
            for follow in lines[i + 1:i + 6]:
                added = VERSIONADDED.match(follow)
                if added:
                    v = version(added.group(2))
                    break
            if newer(v):
                self.genexes.setdefault(m.group(1), v)
            else:
                old_genexes.add(m.group(1))
        for name in old_genexes:
            self.genexes.pop(name, None)

        for kind, into in (("variable", self.variables), ("prop_tgt", self.properties),
                           ("prop_sf", self.properties), ("prop_dir", self.properties),
                           ("prop_gbl", self.properties), ("prop_test", self.properties),
                           ("prop_cache", self.properties), ("prop_inst", self.properties)):
            for page, lines in self._pages(help_dir, kind):
                v = leading_versionadded(lines)
                if newer(v):
                    into.append((name_pattern(lines[0].strip()), lines[0].strip(), v))

        for page, lines in self._pages(help_dir, "policy"):
            for line in lines:
                m = re.search(r"introduced in CMake version (\d+(?:\.\d+)*)", line)
                if m and newer(version(m.group(1).rstrip("."))):
                    self.policies[page] = version(m.group(1).rstrip("."))

    @staticmethod
    def _keywords_added(lines, at, indented):
        """The keywords a command page's `.. versionadded::` at line `at` adds: an option's own
        entry (``KEYWORD <args>`` or ``cmd(<x> KEYWORD <y>)`` on the line before), or a section's
        (its heading just before; the words of its first signature block that the page has not
        used before the section)."""
        j = at - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j < 0:
            return []
        if indented:
            term = re.fullmatch(r"``(?:\w+\()?(.*?)\)?``", lines[j].strip())
            if not term:
                return []
            words = re.findall(r"\b[A-Z][A-Z0-9_]+\b", re.sub(r"<[^>]*>", " ", term.group(1)))
            return words[:1]
        if not (j >= 1 and re.fullmatch(r"([=\-^~\"*+#])\1+", lines[j].strip())):
            return []
        # A section: the keyword its anchor names (.. _GET_MESSAGE_LOG_LEVEL:), else the first
        # keyword of its first signature that the command's first signature does not have.
        for line in lines[at + 1:at + 4]:
            anchor = re.match(r"^\.\. _([A-Z][A-Z0-9_]+):$", line)
            if anchor:
                return [anchor.group(1)]
        signatures = NewFeatures._code_blocks(lines)
        first = set(NewFeatures._words(signatures[0][1])) if signatures else set()
        for start, block in signatures:
            if start > at:
                return [w for w in NewFeatures._words(block) if w not in first][:1]
        return []

    @staticmethod
    def _words(block):
        """The keywords of a signature: its upper-case words, <placeholders> left out."""
        return re.findall(r"\b[A-Z][A-Z0-9_]+\b", re.sub(r"<[^>]*>", " ", block))

    @staticmethod
    def _code_blocks(lines):
        """(line, text) of each literal block: a code-block or parsed-literal, or after a
        paragraph ending in '::'."""
        blocks, i = [], 0
        while i < len(lines):
            line = lines[i]
            if (re.match(r"\s*\.\. (code-block|parsed-literal)::", line) or
                    (line.rstrip().endswith("::") and not line.lstrip().startswith(".."))):
                start, body = i, []
                i += 1
                indent = len(line) - len(line.lstrip())
                while i < len(lines) and (not lines[i].strip() or
                                          len(lines[i]) - len(lines[i].lstrip()) > indent):
                    body.append(lines[i])
                    i += 1
                blocks.append((start, "\n".join(body)))
                continue
            i += 1
        return blocks

    @staticmethod
    def _pages(help_dir, kind):
        folder = os.path.join(help_dir, kind)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".rst"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield name[:-4], f.read().splitlines()


def without_comments(text):
    """CMake text with its # comments blanked (not inside quoted arguments), lines kept."""
    out, quoted, i = [], False, 0
    while i < len(text):
        c = text[i]
        if c == "\\" and quoted:
            out.append(text[i:i + 2])
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            bracket = re.match(r"#\[(=*)\[", text[i:])  # a bracket comment, #[[ ... ]]
            close = "]" + bracket.group(1) + "]" if bracket else "\n"
            end = text.find(close, i)
            end = len(text) if end == -1 else end + (len(close) if bracket else 0)
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
            continue
        out.append(c)
        i += 1
    return "".join(out)


def invocations(text):
    """(command, its unquoted arguments, line) for each command invocation."""
    for m in re.finditer(r"(?m)^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(", text):
        depth, i, start = 1, m.end(), m.end()
        while i < len(text) and depth:
            if text[i] == '"':
                i = text.find('"', i + 1) + 1 or len(text)
                continue
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = re.sub(r'"(?:[^"\\]|\\.)*"', " ", text[start:i - 1])
        yield m.group(1).lower(), args.split(), text.count("\n", 0, m.start()) + 1


PROPERTY_SETTERS = {"set_target_properties", "set_source_files_properties",
                    "set_directory_properties", "set_tests_properties"}
# get_<kind>_property(<variable> <what> <property>), get_directory_property's property last.
PROPERTY_GETTERS = {"get_target_property", "get_source_file_property", "get_test_property"}


def named_properties(command, args):
    """The property names an invocation names."""
    if command in PROPERTY_SETTERS and "PROPERTIES" in args:
        return args[args.index("PROPERTIES") + 1::2]
    if command in ("set_property", "get_property", "define_property") and "PROPERTY" in args:
        return args[args.index("PROPERTY") + 1:args.index("PROPERTY") + 2]
    if command in PROPERTY_GETTERS:
        return args[2:3]
    if command == "get_directory_property":
        return args[-1:]
    return []


def cmake_files(root):
    listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
    if listed.returncode != 0:
        raise SystemExit(f"{root}: not a git checkout (the CMake files checked are those git "
                         f"tracks): {listed.stderr.decode().strip()}")
    for path in sorted(listed.stdout.decode().split("\0")):
        name = os.path.basename(path)
        if name == "CMakeLists.txt" or name.endswith(".cmake"):
            yield path


def declared_range(root):
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        m = MINIMUM.search(f.read())
    if not m:
        raise SystemExit("CMakeLists.txt has no cmake_minimum_required(VERSION ...)")
    return m.group(1), m.group(2)


def problems(help_dir, root, files=None):
    low, high = declared_range(root)
    features = NewFeatures(help_dir, version(low))
    found = []
    for path in files if files is not None else cmake_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = without_comments(f.read())
        where = lambda line: f"{path}:{line}"
        for m in MINIMUM.finditer(text):
            if (m.group(1), m.group(2)) != (low, high):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{where(line)}: cmake_minimum_required({m.group(0)[m.group(0).index('VERSION'):-1].strip()}) "
                             f"differs from CMakeLists.txt's VERSION {low}{'...' + high if high else ''}")
        for command, args, line in invocations(text):
            if command in features.commands:
                found.append(f"{where(line)}: {command}() is CMake {fmt(features.commands[command])}")
            for arg in args:
                v = features.keywords.get((command, arg))
                if v:
                    found.append(f"{where(line)}: {command}({arg}) is CMake {fmt(v)}")
            for prop in named_properties(command, args):
                for pattern, title, v in features.properties:
                    if pattern.fullmatch(prop):
                        found.append(f"{where(line)}: the property {title} is CMake {fmt(v)}")
            if command == "cmake_policy":
                for arg in args:
                    if arg in features.policies:
                        found.append(f"{where(line)}: the policy {arg} is CMake "
                                     f"{fmt(features.policies[arg])}")
        for m in re.finditer(r"\$<([A-Z_][A-Z0-9_]*)", text):
            line = text.count("\n", 0, m.start()) + 1
            if m.group(1) in features.genexes:
                found.append(f"{where(line)}: $<{m.group(1)}:...> is CMake "
                             f"{fmt(features.genexes[m.group(1)])}")
        for m in re.finditer(r"\$<TARGET_PROPERTY:(?:[^,>]*,)?([A-Za-z_][A-Za-z0-9_]*)>", text):
            line = text.count("\n", 0, m.start()) + 1
            for pattern, title, v in features.properties:
                if pattern.fullmatch(m.group(1)):
                    found.append(f"{where(line)}: the property {title} is CMake {fmt(v)}")
        # A variable: a bare word, or ${NAME} also inside a quoted argument.
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', lambda q: re.sub(r"[^\n]", " ", q.group(0)), text)
        for pattern, title, v in features.variables:
            references = re.compile(r"\$\{(" + pattern.pattern + r")\}")
            lines = {text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(unquoted)}
            lines |= {text.count("\n", 0, m.start()) + 1 for m in references.finditer(text)}
            for line in sorted(lines):
                found.append(f"{where(line)}: the variable {title} is CMake {fmt(v)}")
    return low, list(dict.fromkeys(found))


def fmt(v):
    return ".".join(map(str, v))


def check(help_dir, root):
    low, found = problems(help_dir, root)
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} use(s) of CMake newer than the declared minimum {low} "
              f"(CMakeLists.txt's cmake_minimum_required)")
        return False
    print(f"CMake files: nothing newer than the declared minimum {low}")
    return True


# Each planted line and the words its report must hold.
PLANTED = [
    ("block(SCOPE_FOR VARIABLES)\nendblock()\n", "block() is CMake 3.25"),
    ("function(f)\n  return(PROPAGATE x)\nendfunction()\n", "return(PROPAGATE) is CMake 3.25"),
    ("set(p $<PATH:GET_FILENAME,/a/b>)\n", "$<PATH:...> is CMake 3.24"),
    ("target_sources(t PUBLIC FILE_SET HEADERS FILES a.h)\n", "target_sources(FILE_SET) is CMake 3.23"),
    ("if(a PATH_EQUAL b)\nendif()\n", "if(PATH_EQUAL) is CMake 3.24"),
    ("cmake_language(GET_MESSAGE_LOG_LEVEL level)\n",
     "cmake_language(GET_MESSAGE_LOG_LEVEL) is CMake 3.25"),
    ("if(LINUX)\nendif()\n", "the variable LINUX is CMake 3.25"),
    ("set(CMAKE_CXX_LINK_LIBRARY_USING_WHOLE x)\n",
     "the variable CMAKE_<LANG>_LINK_LIBRARY_USING_<FEATURE> is CMake 3.24"),
    ("set_target_properties(t PROPERTIES COMPILE_WARNING_AS_ERROR ON)\n",
     "the property COMPILE_WARNING_AS_ERROR is CMake 3.24"),
    ("set_property(TARGET t PROPERTY SYSTEM ON)\n", "the property SYSTEM is CMake 3.25"),
    ("cmake_policy(SET CMP0140 NEW)\n", "the policy CMP0140 is CMake 3.25"),
    ("cmake_minimum_required(VERSION 3.25)\n", "differs from CMakeLists.txt's"),
]
# Old uses that look like new ones: none may be reported.
NOT_NEW = ("target_include_directories(t SYSTEM PRIVATE d)  # SYSTEM: an old keyword here\n"
           "# block() in a comment\n"
           "message(STATUS \"LINUX in a quoted string of a comment-free line # not a comment\")\n"
           "set(x \"$<TARGET_FILE:t>\")\n")


def self_test(help_dir, root):
    if not check(help_dir, root):
        return False
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "tree")
        os.makedirs(copy)
        shutil.copy(os.path.join(root, "CMakeLists.txt"), copy)
        _, clean = problems(help_dir, copy, ["CMakeLists.txt"])
        for text, expected in PLANTED + [(NOT_NEW, None)]:
            with open(os.path.join(copy, "planted.cmake"), "w", encoding="utf-8") as f:
                f.write(text)
            _, found = problems(help_dir, copy, ["CMakeLists.txt", "planted.cmake"])
            found = [p for p in found if p not in clean]
            caught = any(expected in p for p in found) if expected else not found
            print(f"self-test: {text.strip().splitlines()[0]!r}: "
                  f"{'ok' if caught else 'WRONG'} ({'; '.join(found) or 'nothing reported'})")
            ok = ok and caught
    return ok


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    help_dir = argv[1]
    if not os.path.isdir(os.path.join(help_dir, "command")):
        print(f"{help_dir}: not CMake's documentation (no command/ in it; Debian's cmake-data "
              f"installs it as /usr/share/cmake-<version>/Help)")
        return 2
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[2:] == ["--self-test"]:
        return 0 if self_test(help_dir, here) else 1
    return 0 if check(help_dir, argv[2] if len(argv) > 2 else here) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
