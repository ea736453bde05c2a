package probe

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// pagemapScan is the PAGEMAP_SCAN ioctl of /proc/PID/pagemap (Linux 6.7):
// _IOWR('f', 16, struct pm_scan_arg), a 96-byte argument.
const pagemapScan = 0xC0606610

// PagemapScan reports whether the kernel offers the PAGEMAP_SCAN ioctl,
// with which a Wasmtime configured to use it (37 and later,
// PoolingAllocationConfig::pagemap_scan) resets only the dirty pages of a
// slot's keep_resident memory. Wasmtime 39's C API cannot turn it on, so
// sweep's host memsets those bytes either way (wasmhost.PagemapScan).
// It asks with a NULL argument: a kernel with the ioctl answers EFAULT
// (it tried to read the argument), one without answers ENOTTY (no ioctl
// on pagemap) or EINVAL.
func PagemapScan() (bool, error) {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = unix.IoctlSetInt(int(f.Fd()), pagemapScan, 0)
	return errors.Is(err, unix.EFAULT), nil
}
