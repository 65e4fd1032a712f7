# The QEMU recorder (`blockrange record --engine=qemu`, the default): its
# TCG plugin, its micro workloads and tests, its benchmark and its demo.
# Included by userspace/cli.mk (uses TOP, BUILD, CLI_OUT, CLI_BIN, CLI_CC,
# CLI_CFLAGS, CLI_LIBA, CLI_SRC, CLI_TESTS).  See docs/record.md.
#
#   make qemu-plugin   build/lib/blockrange/blockrange-qemu.so, where the
#                      CLI finds it (../lib/blockrange/ beside the binary,
#                      as installed); `make cli` builds it too
#
# The plugin is built for the host's qemu-x86_64 (Debian's qemu-user, QEMU
# 7.2, plugin API version 1), with the project's warnings, never with the
# coverage or sanitizer flags (it runs inside QEMU, not in the CLI).

QREC_SRC := $(TOP)/userspace/qemu-plugin
# Beside the CLI binary of the build (CLI_BIN may be overridden).
QREC_PLUGIN = $(abspath $(dir $(CLI_BIN))../lib/blockrange/blockrange-qemu.so)
QREC_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC \
	-fvisibility=hidden -pthread
QREC_PLUGIN_SRCS := $(QREC_SRC)/plugin.c $(QREC_SRC)/x86dec.c \
	$(QREC_SRC)/qexec.c
QREC_HDRS := $(wildcard $(QREC_SRC)/*.h)

.PHONY: qemu-plugin

qemu-plugin: $(QREC_PLUGIN)

# No -z defs: the qemu_plugin_* functions come from qemu-x86_64 at load.
$(QREC_PLUGIN): $(QREC_PLUGIN_SRCS) $(QREC_HDRS) $(TOP)/userspace/qemu-rec.mk
	@mkdir -p $(@D)
	gcc $(QREC_CFLAGS) -shared -o $@ $(QREC_PLUGIN_SRCS)

cli: $(QREC_PLUGIN)
$(CLI_BIN): | $(QREC_PLUGIN)

# The CLI shares qexec.c (what execve would run) with the plugin.
$(CLI_OUT)/obj/qemu-plugin/%.o: $(QREC_SRC)/%.c $(TOP)/userspace/qemu-rec.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_LIBA): $(CLI_OUT)/obj/qemu-plugin/qexec.o

-include $(wildcard $(CLI_OUT)/obj/qemu-plugin/*.d)
