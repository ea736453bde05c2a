# The recommended settings as `wasmtime serve` flags (Wasmtime 39's -O
# options; sizes are plain integers of bytes). Replace component.wasm
# with your wasi:http component.
wasmtime serve \
  -O pooling-allocator=y \
  component.wasm
