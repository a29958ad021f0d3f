// Must not compile: the error names this file and line 6.
__global__ void broken(float* out) {
  int i = threadIdx.x;
  out[i] = 1.0f;
  float x = out[i];
  undeclared_variable = x;
}

int main() {
  broken<<<1, 1>>>(nullptr);
  return 0;
}
