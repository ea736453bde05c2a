// The recommended settings for the wasmtime crate (Wasmtime 39). Sizes are
// bytes; an option not set here keeps Wasmtime's default.
use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig};

let mut pool = PoolingAllocationConfig::new();
pool.max_unused_warm_slots(10);
pool.decommit_batch_size(4);
pool.linear_memory_keep_resident(65536); // 64KiB
pool.table_keep_resident(524288); // 512KiB

let mut config = Config::new();
config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
config.memory_init_cow(false);
