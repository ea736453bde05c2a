;; other-export-component: exports neither sweep:plugin/handler nor
;; wasi:cli/run; the host must refuse it at load and name its export.
(component
  (instance $i)
  (export "example:thing/api@1.0.0" (instance $i))
)
