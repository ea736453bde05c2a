;; badimport: imports a host function sweep does not provide.
(module
  (import "env" "missing" (func))
  (memory (export "memory") 1)
  (func (export "handle") (param i32 i32) (result i64) (i64.const 0)))
