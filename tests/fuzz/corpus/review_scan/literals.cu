const char* r = R"d(atexit(f); ")" /proc/self
)d";
const char* p = "/pr"
  "oc/self/maps" u8"/sys/" L'x';
/* fork(); "/dev/fd/5" */ auto s = "result.json"; // syscall
