// The recommended settings for Wasmtime's C API (Wasmtime 39,
// wasmtime/config.h). Sizes are bytes; an option not set here keeps
// Wasmtime's default.
wasm_config_t *config = wasm_config_new();
wasmtime_pooling_allocation_config_t *pool = wasmtime_pooling_allocation_config_new();
wasmtime_pooling_allocation_config_linear_memory_keep_resident_set(pool, 1048576); // 1MiB
wasmtime_pooling_allocation_config_total_component_instances_set(pool, 64);
wasmtime_pooling_allocation_config_total_memories_set(pool, 64);
wasmtime_pooling_allocation_config_total_tables_set(pool, 64);
wasmtime_pooling_allocation_config_total_core_instances_set(pool, 256);
wasmtime_pooling_allocation_config_max_core_instance_size_set(pool, 1000);
wasmtime_pooling_allocation_config_table_elements_set(pool, 10000);
wasmtime_pooling_allocation_config_max_memory_size_set(pool, 16777216); // 16MiB
wasmtime_pooling_allocation_strategy_set(config, pool);
wasmtime_pooling_allocation_config_delete(pool);
wasmtime_config_memory_init_cow_set(config, true);
