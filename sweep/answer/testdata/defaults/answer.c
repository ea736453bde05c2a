// The recommended settings for Wasmtime's C API (Wasmtime 39,
// wasmtime/config.h). Sizes are bytes; an option not set here keeps
// Wasmtime's default.
wasm_config_t *config = wasm_config_new();
wasmtime_pooling_allocation_config_t *pool = wasmtime_pooling_allocation_config_new();
wasmtime_pooling_allocation_strategy_set(config, pool);
wasmtime_pooling_allocation_config_delete(pool);
