//go:build !wasip1

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "hello-wasip1 is a sweep plugin; build it with GOOS=wasip1 GOARCH=wasm go build -o hello.wasm .")
	os.Exit(2)
}
