// The recommended settings for the wasmtime crate (Wasmtime 39). Sizes are
// bytes; an option not set here keeps Wasmtime's default.
use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig};

let mut pool = PoolingAllocationConfig::new();
pool.linear_memory_keep_resident(1048576); // 1MiB
pool.total_component_instances(64);
pool.total_memories(64);
pool.total_tables(64);
pool.total_core_instances(256);
pool.max_core_instance_size(1000);
pool.table_elements(10000);
pool.max_memory_size(16777216); // 16MiB

let mut config = Config::new();
config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
config.memory_init_cow(true);
