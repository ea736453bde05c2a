;; http-import-component: imports wasi:http, which sweep's host does not
;; provide; the host must refuse it at load and name the import.
(component
  (import "wasi:http/types@0.2.0" (instance))
  (instance $i)
  (export "sweep:plugin/handler@0.1.0" (instance $i))
)
