#include "textflag.h"

// func spin()
// 1024 PAUSE instructions: a few µs on current x86 (PAUSE takes tens of
// cycles), kind to a hyperthread sibling, and no memory traffic.
TEXT ·spin(SB), NOSPLIT, $0-0
	MOVQ $1024, CX
loop:
	PAUSE
	DECQ CX
	JNZ loop
	RET
