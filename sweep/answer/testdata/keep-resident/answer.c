// The recommended settings for Wasmtime's C API (Wasmtime 39,
// wasmtime/config.h). Sizes are bytes; an option not set here keeps
// Wasmtime's default.
wasm_config_t *config = wasm_config_new();
wasmtime_pooling_allocation_config_t *pool = wasmtime_pooling_allocation_config_new();
wasmtime_pooling_allocation_config_max_unused_warm_slots_set(pool, 10);
wasmtime_pooling_allocation_config_decommit_batch_size_set(pool, 4);
wasmtime_pooling_allocation_config_linear_memory_keep_resident_set(pool, 65536); // 64KiB
wasmtime_pooling_allocation_config_table_keep_resident_set(pool, 524288); // 512KiB
wasmtime_pooling_allocation_strategy_set(config, pool);
wasmtime_pooling_allocation_config_delete(pool);
wasmtime_config_memory_init_cow_set(config, false);
