# Installation of the blockrange CLI and libblockrange, the report demo and
# the tests of both.  Included by the top-level Makefile after
# userspace/build.mk and userspace/cli.mk (uses TOP, BUILD, US_LIB, CLI_BIN,
# CLI_OUT, deps).
#
#   make install [PREFIX=/usr/local] [DESTDIR=...]
#                   the CLI, libblockrange.so.$(BR_LIB_VERSION) (SONAME
#                   libblockrange.so.$(BR_LIB_SOMAJOR), exports exactly the
#                   API of userspace/libblockrange.map; both versions from
#                   userspace/build.mk), libblockrange.a, the
#                   headers, blockrange.pc, blockrange(1), libblockrange(3),
#                   the bash completion and the QEMU recorder's plugin
#                   (LIBDIR/blockrange/, where the CLI looks: ../lib/blockrange/
#                   beside its binary).  BINDIR, LIBDIR, INCLUDEDIR,
#                   MANDIR, PKGCONFIGDIR and BASHCOMPDIR override the places.
#   make uninstall  removes exactly those files (same variables)
#   make shared     build/shared/libblockrange.so.$(BR_LIB_VERSION)
#   make check-install
#                   installs into a temporary DESTDIR and checks the file
#                   list, the SONAME and links, builds the library demo
#                   against it with `pkg-config --cflags --libs blockrange`
#                   only and runs it, compiles the man page's example,
#                   links a program with its own kernel-style tree against
#                   the shared and the static library,
#                   checks the man pages and the completion, uninstalls;
#                   then the exported symbols of both libraries and the
#                   names the headers define (check-tests/install/)
#   make report-demo
#                   the HTML report of REPORT_DEMO_INPUT (default: a
#                   recording of the sortsearch workload) into
#                   build/report/report.html, and prints its path
#   make check-report
#                   the report of the demo and of the golden program: its
#                   embedded numbers against `annotate --format=json`, then
#                   in headless Chromium (console, SVG, clicks, visible
#                   numbers, screenshot build/report/report.png)

# The CLI's version (blockrange --version); the library's is BR_LIB_VERSION.
BR_VERSION := $(shell sed -n 's/^\#define BLOCKRANGE_VERSION "\(.*\)"/\1/p' \
	$(TOP)/userspace/cli/base/version.h)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

BR_SH_OUT := $(BUILD)/shared
BR_SH_SRCS := $(wildcard $(TOP)/userspace/lib/*.c)
BR_SH_OBJS := $(patsubst $(TOP)/userspace/lib/%.c,$(BR_SH_OUT)/obj/%.o,$(BR_SH_SRCS))
BR_MAP := $(TOP)/userspace/libblockrange.map
BR_SO_REAL := libblockrange.so.$(BR_LIB_VERSION)
BR_SO_NAME := libblockrange.so.$(BR_LIB_SOMAJOR)
BR_SO := $(BR_SH_OUT)/$(BR_SO_REAL)
BR_HEADERS := $(wildcard $(TOP)/userspace/include/blockrange/*.h)
BR_MAN1 := $(TOP)/userspace/man/blockrange.1
BR_MAN3 := $(TOP)/userspace/man/libblockrange.3
# blockrange-NAME(1): one page per subcommand, installed as written (the
# binary carries their rendering for `blockrange help NAME`, see cli.mk).
BR_MAN1_SUBS := $(sort $(wildcard $(TOP)/userspace/man/blockrange-*.1))
BR_COMPLETION := $(TOP)/userspace/completion/blockrange
BR_PC_IN := $(TOP)/userspace/blockrange.pc.in

.PHONY: shared install uninstall check-install report-demo check-report

shared: $(BR_SO)

$(BR_SH_OUT)/obj/%.o: $(TOP)/userspace/lib/%.c $(TOP)/userspace/install.mk
	@mkdir -p $(@D)
	gcc -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC \
		-I$(TOP)/userspace/include -I$(TOP)/userspace -MMD -MP -MT $@ \
		-c $< -o $@

# -z defs: the library needs nothing but libc.
$(BR_SO): $(BR_SH_OBJS) $(BR_MAP)
	gcc -shared -Wl,-soname,$(BR_SO_NAME) -Wl,--version-script=$(BR_MAP) \
		-Wl,-z,defs -o $@ $(BR_SH_OBJS)
	ln -sf $(BR_SO_REAL) $(BR_SH_OUT)/$(BR_SO_NAME)
	ln -sf $(BR_SO_NAME) $(BR_SH_OUT)/libblockrange.so

# The files install puts in place, relative to DESTDIR (uninstall and the
# test use the same list).
BR_INSTALLED = $(BINDIR)/blockrange \
	$(LIBDIR)/$(BR_SO_REAL) $(LIBDIR)/$(BR_SO_NAME) $(LIBDIR)/libblockrange.so \
	$(LIBDIR)/libblockrange.a \
	$(addprefix $(INCLUDEDIR)/blockrange/,$(notdir $(BR_HEADERS))) \
	$(PKGCONFIGDIR)/blockrange.pc \
	$(MANDIR)/man1/blockrange.1 $(MANDIR)/man3/libblockrange.3 \
	$(addprefix $(MANDIR)/man1/,$(notdir $(BR_MAN1_SUBS))) \
	$(BASHCOMPDIR)/blockrange $(LIBDIR)/blockrange/blockrange-qemu.so

install: $(CLI_BIN) $(US_PUB_LIB) $(BR_SO) $(QREC_PLUGIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(LIBDIR)/blockrange \
		$(DESTDIR)$(INCLUDEDIR)/blockrange $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/blockrange
	install -m 755 $(BR_SO) $(DESTDIR)$(LIBDIR)/$(BR_SO_REAL)
	ln -sf $(BR_SO_REAL) $(DESTDIR)$(LIBDIR)/$(BR_SO_NAME)
	ln -sf $(BR_SO_NAME) $(DESTDIR)$(LIBDIR)/libblockrange.so
	install -m 644 $(US_PUB_LIB) $(DESTDIR)$(LIBDIR)/libblockrange.a
	install -m 644 $(BR_HEADERS) $(DESTDIR)$(INCLUDEDIR)/blockrange/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(BR_LIB_VERSION)|' \
		$(BR_PC_IN) > $(DESTDIR)$(PKGCONFIGDIR)/blockrange.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/blockrange.pc
	install -m 644 $(BR_MAN1) $(DESTDIR)$(MANDIR)/man1/blockrange.1
	install -m 644 $(BR_MAN1_SUBS) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BR_MAN3) $(DESTDIR)$(MANDIR)/man3/libblockrange.3
	install -m 644 $(BR_COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/blockrange
	install -m 755 $(QREC_PLUGIN) $(DESTDIR)$(LIBDIR)/blockrange/blockrange-qemu.so
	$(if $(DESTDIR),,-ldconfig 2>/dev/null)

uninstall:
	rm -f $(addprefix $(DESTDIR),$(BR_INSTALLED))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/blockrange $(DESTDIR)$(LIBDIR)/blockrange \
		2>/dev/null
	$(if $(DESTDIR),,-ldconfig 2>/dev/null)

# The demo program of the library (userspace/demo/) is built against the
# installed copy; its output must equal the statically linked demo's.
check-install: deps $(BR_SO) $(CLI_BIN) $(US_PUB_LIB) $(US_DEMO_BIN)
	BR_VERSION=$(BR_VERSION) BR_LIB_VERSION=$(BR_LIB_VERSION) \
		BR_SO_NAME=$(BR_SO_NAME) \
		BR_INSTALLED='$(BR_INSTALLED)' PREFIX=$(PREFIX) \
		MAKE='$(MAKE)' TOP=$(TOP) DEMO_SRC=$(TOP)/userspace/demo/blockrange-demo.c \
		DEMO_STATIC=$(US_DEMO_BIN) OUT=$(BUILD)/install-check \
		bash $(TOP)/check-tests/install/check-install.sh
	bash $(TOP)/check-tests/install/check-symbols.sh $(BR_SO) $(US_PUB_LIB) \
		$(BR_MAP) $(BR_MAN3) $(BR_HEADERS)

# The report of the demo recording (the multi-DSO workload's perf.data);
# another input: make report-demo REPORT_DEMO_INPUT=perf.data REPORT_DEMO_ARGS=...
REPORT_OUT := $(BUILD)/report
REPORT_DEMO_INPUT ?= $(CLI_DEMO_DSO)/perf.data
REPORT_DEMO_ARGS ?=
REPORT_HTML := $(REPORT_OUT)/report.html

report-demo: $(CLI_BIN) $(REPORT_DEMO_INPUT)
	@mkdir -p $(REPORT_OUT)
	$(CLI_BIN) report -i $(REPORT_DEMO_INPUT) $(REPORT_DEMO_ARGS) \
		-o $(REPORT_HTML)
	@echo "report: $(REPORT_HTML)"

# Static checks of the pages against annotate's JSON, then the browser.
check-report: deps report-demo $(CLI_OUT)/wl/golden
	/usr/bin/python3 $(TOP)/check-tests/report/check_report.py \
		--blockrange $(CLI_BIN) --out $(REPORT_OUT) \
		--page demo $(REPORT_HTML) '$(REPORT_DEMO_INPUT) $(REPORT_DEMO_ARGS)' \
		--page golden $(REPORT_OUT)/golden.html \
		'$(TOP)/check-tests/cli/golden/flags.perfscript --binary $(CLI_OUT)/wl/golden'

-include $(wildcard $(BR_SH_OUT)/obj/*.d)
