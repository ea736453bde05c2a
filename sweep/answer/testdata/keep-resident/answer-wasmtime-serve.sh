# The recommended settings as `wasmtime serve` flags (Wasmtime 39's -O
# options; sizes are plain integers of bytes). Replace component.wasm
# with your wasi:http component.
wasmtime serve \
  -O pooling-allocator=y \
  -O pooling-max-unused-warm-slots=10 \
  -O pooling-decommit-batch-size=4 \
  -O pooling-memory-keep-resident=65536 \
  -O pooling-table-keep-resident=524288 \
  -O memory-init-cow=n \
  component.wasm
