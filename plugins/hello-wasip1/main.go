//go:build wasip1

package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	n, err := io.Copy(io.Discard, os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "read stdin:", err)
		os.Exit(1)
	}
	fmt.Printf("Hello from Go on wasip1! You sent %d bytes.\n", n)
}
