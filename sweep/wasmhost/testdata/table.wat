;; table: a core-ABI plugin with a table, so that it takes a slot of the
;; table pool as well as a memory and a core instance.
(module
  (memory (export "memory") 1)
  (table 1 funcref)
  (func (export "handle") (param i32 i32) (result i64)
    (i64.const 0)))
