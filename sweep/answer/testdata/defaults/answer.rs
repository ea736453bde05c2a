// The recommended settings for the wasmtime crate (Wasmtime 39). Sizes are
// bytes; an option not set here keeps Wasmtime's default.
use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig};

let pool = PoolingAllocationConfig::new();

let mut config = Config::new();
config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
