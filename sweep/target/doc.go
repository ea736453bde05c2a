// Package target starts and stops the server processes under test.
//
// Each server runs in its own process group, pinned to the server CPUs from
// birth, and is "ready" either when it prints a ready line on stdout (the
// built-in host) or when its URL answers (a user's command). Its output is
// kept only as a bounded tail of lines, for error messages. Stop ends the
// whole group, so helpers a server spawned die with it; KillAll ends every
// server this package started, for the driver's exit path.
package target
