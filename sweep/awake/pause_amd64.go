package awake

// spin busy-waits for a few microseconds with the CPU's spin-wait hint
// (PAUSE), in assembly because Go has no intrinsic for it.
func spin()
