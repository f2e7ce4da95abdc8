# SPDX-License-Identifier: MIT
# The board (the machine every front end builds) is kernel-style like the
# core below it: built with the core's flags into the core library, and
# into the kernel module (Kbuild).
BOARD_SRCS := $(wildcard board/*.c)
BOARD_OBJS := $(BOARD_SRCS:%.c=$(BUILD)/obj/%.o)

$(CORE_LIB): $(BOARD_OBJS)

-include $(BOARD_OBJS:.o=.d)
