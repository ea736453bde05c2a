;; badhandle: handle has the wrong type.
(module (memory (export "memory") 1) (func (export "handle") (param i32) (result i32) (i32.const 0)))
