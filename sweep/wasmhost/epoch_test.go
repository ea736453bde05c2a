package wasmhost

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// waitParked waits (boundedly) until the host's epoch ticker has parked.
func waitParked(t *testing.T, h *Host) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !h.epochParked.Load(); {
		if time.Now().After(deadline) {
			t.Fatal("the epoch ticker of an idle host did not park")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestEpochParksWhenIdle: an idle host's epoch ticker parks, and a request
// that finds it parked wakes it: a plugin that loops forever is still
// interrupted at its deadline, every time.
func TestEpochParksWhenIdle(t *testing.T) {
	s := settingsOf(t, nil)
	h, err := New(Options{Plugin: "testdata/loop.wat", Settings: s, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	w := &discardResponse{h: http.Header{}}
	for i := range 3 {
		waitParked(t, h)
		done := make(chan error, 1)
		go func() { done <- h.Invoke(context.Background(), nil, w) }()
		select {
		case err := <-done:
			var e *Error
			if !errors.As(err, &e) || e.Reason != Timeout {
				t.Fatalf("request %d after the ticker parked: err = %v, want a timeout", i, err)
			}
		case <-time.After(10 * time.Second):
			// The spinning instance is left behind (Close would wait for it).
			t.Fatalf("request %d after the ticker parked was never interrupted: the ticker was not woken", i)
		}
	}
	if st := h.Stats(); st.Errors[Timeout.String()] != 3 {
		t.Errorf("stats = %+v, want 3 timeouts", st)
	}
	h.Close()
}
