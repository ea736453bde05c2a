# The recommended settings as `wasmtime serve` flags (Wasmtime 39's -O
# options; sizes are plain integers of bytes). Replace component.wasm
# with your wasi:http component.
wasmtime serve \
  -O pooling-allocator=y \
  -O pooling-memory-keep-resident=1048576 \
  -O pooling-total-component-instances=64 \
  -O pooling-total-memories=64 \
  -O pooling-total-tables=64 \
  -O pooling-total-core-instances=256 \
  -O pooling-max-core-instance-size=1000 \
  -O pooling-table-elements=10000 \
  -O pooling-max-memory-size=16777216 \
  -O memory-init-cow=y \
  component.wasm
