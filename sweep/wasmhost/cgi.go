package wasmhost

import (
	"bytes"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
)

// writeCGI writes a WASI command's stdout as the response. If stdout
// starts with a "Status: " line, it and the header lines up to the first
// blank line are a CGI-style header block: "Status: 404 Not Found" sets the
// status code and other "Name: value" lines become response headers.
// Otherwise all of stdout is the body of a 200 response.
func writeCGI(w http.ResponseWriter, out []byte) {
	if !bytes.HasPrefix(out, []byte("Status: ")) {
		writeBody(w, http.StatusOK, nil, out)
		return
	}
	end, skip := bytes.Index(out, []byte("\r\n\r\n")), 4
	if i := bytes.Index(out, []byte("\n\n")); i >= 0 && (end < 0 || i < end) {
		end, skip = i, 2
	}
	if end < 0 {
		end, skip = len(out), 0
	}
	status := http.StatusOK
	var contentType []string
	hdr := w.Header()
	for _, line := range strings.Split(string(out[:end]), "\n") {
		name, value, ok := strings.Cut(strings.TrimRight(line, "\r"), ":")
		if !ok {
			continue
		}
		name, value = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name)), strings.TrimSpace(value)
		switch name {
		case "Status":
			code, _, _ := strings.Cut(value, " ")
			if n, err := strconv.Atoi(code); err == nil && n >= 100 && n <= 999 {
				status = n
			}
		case "Content-Type":
			contentType = []string{value}
		case "Content-Length":
			// Recomputed from the body.
		default:
			hdr.Add(name, value)
		}
	}
	writeBody(w, status, contentType, out[min(end+skip, len(out)):])
}
