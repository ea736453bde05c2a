// Command hello-wasip1 is a sample plugin for sweep's built-in Wasmtime
// host: a plain Go program built as a WASI preview-1 command,
//
//	GOOS=wasip1 GOARCH=wasm go build -o plugins/hello-wasip1/hello.wasm ./plugins/hello-wasip1
//
// and served with `sweep serve -plugin plugins/hello-wasip1/hello.wasm`.
// It reads the request body from stdin and answers with a greeting and the
// number of bytes it read. The plugin is main.go, built only for wasip1;
// on other platforms main (below) only says how to build it, so that
// `go build ./...` and `go vet ./...` work everywhere.
package main
