package wasmhost_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
)

// Example serves the builtin workload plugin over HTTP.
func Example() {
	s, err := setting.FromMap(map[string]string{
		"linear_memory_keep_resident": "64KiB",
		"total_memories":              "64",
		"touch":                       "64KiB",
		"response_bytes":              "20",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	host, err := wasmhost.New(wasmhost.Options{Plugin: wasmhost.Workload, Settings: s})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Close()
	srv := httptest.NewServer(host)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	st := host.Stats()
	fmt.Println(resp.StatusCode, len(body))
	fmt.Println(st.Requests, st.OK, st.LiveInstances)
	// Output:
	// 200 20
	// 1 1 0
}
