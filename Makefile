# msprof-exec: the launcher, the LD_PRELOAD shim and the injector.
#
#   make            build into build/ (same shape as an install)
#   make check      run the test suite (prove, JOBS files at a time;
#                   JOBS=1: one after another)
#   make demo       profile the bundled example on the simulated Ascend machine
#   make demo-torch the same with the plain PyTorch example (the torch engine)
#   make demo-tune  msprof-exec tune on the simulated machine: the advised
#                   settings tried, compared, the ones that helped kept
#   make install    PREFIX=/usr/local DESTDIR=
#
# Set DEVELOPER=1 for -Werror, SANITIZE=address,undefined for sanitizers
# (launcher, injector and unit tests; never the shim).

VERSION    = 0.1.0
PREFIX    ?= /usr/local
SYSCONFDIR ?= /etc
BINDIR     = $(PREFIX)/bin
LIBDIR     = $(PREFIX)/lib/msprof-exec
DATADIR    = $(PREFIX)/share/msprof-exec

CC        ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS    ?= -O2 -g
WARN       = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
             -Wwrite-strings -Wshadow -Wpointer-arith -Wformat=2 \
             -Wno-unused-parameter -Werror=implicit-function-declaration
ifeq ($(DEVELOPER),1)
WARN      += -Werror
endif
ifneq ($(SANITIZE),)
SAN        = -fsanitize=$(SANITIZE) -fno-sanitize-recover=$(SANITIZE) \
             -fno-omit-frame-pointer
endif

PKGS = libcjson yaml-0.1 libbsd-overlay sqlite3
# Also the libraries .ci/deps-src.sh built from sources beside the tree.
PKG_CONFIG := env PKG_CONFIG_PATH=$(CURDIR)/build-deps/lib/pkgconfig$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} $(PKG_CONFIG)
# 'make deps' installs them (Debian/Ubuntu); otherwise stop early with how.
ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(PKGS) && echo ok),ok)
$(error missing build dependencies: run 'make deps', or \
  'sudo apt-get install build-essential pkg-config libcjson-dev libyaml-dev libbsd-dev')
endif
endif
# Evaluated when used, so that 'make deps all' sees what deps installed.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -lpthread

BASE_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -I. \
              -DVERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"'
APP_CFLAGS  = $(BASE_CFLAGS) $(PKG_CFLAGS) $(SAN) $(CFLAGS)
# The shim: libc only, hidden symbols, no sanitizer (it is loaded into
# every program the command starts).
SHIM_CFLAGS = $(BASE_CFLAGS) -fPIC -fvisibility=hidden $(CFLAGS)

B = build
SHIM      = $(B)/lib/msprof-exec/msprof-exec-shim.so
SHIM_234  = $(B)/lib/msprof-exec/msprof-exec-shim-glibc2.34.so
INJECTOR  = $(B)/lib/msprof-exec/msprof-exec-inject
LAUNCHER  = $(B)/bin/msprof-exec
LAUNCHTAB = $(B)/share/msprof-exec/launchers.conf
TRAININGS = $(B)/share/msprof-exec/trainings.conf

# The folders are floors, each including and calling only its own and
# those below (t/0050-floors.t holds the order): launcher/ (the
# msprof-exec command and its phases) and inject/ (the injector); report/
# (verification and the report, which prints the summary and its
# findings); advice/ (the rules, which read a finished summary and make
# the findings); summary/ (what the profiling data says) and scan/ (the
# static scan of a script); engines/ (one module per MindSpeed engine);
# common/ (what they share, the settings table among it); shim/ (the
# LD_PRELOAD library).
# Everything but the two main programs and the shim's wrappers is built
# once into an internal static library; each program takes from it only
# what it uses.
SHIM_LOGIC  = shim/match.c shim/envfix.c shim/resolve.c
SHIM_SRCS   = shim/shim.c shim/next.c $(SHIM_LOGIC)
COMMON_SRCS = $(sort $(wildcard common/*.c))
ENGINE_SRCS = $(sort $(wildcard engines/*.c))
SCAN_SRCS   = $(sort $(wildcard scan/*.c))
REPORT_SRCS = $(sort $(wildcard report/*.c))
SUMMARY_SRCS = $(sort $(wildcard summary/*.c))
ADVICE_SRCS = $(sort $(wildcard advice/*.c))
COMMON      = $(COMMON_SRCS) $(ENGINE_SRCS) $(SCAN_SRCS) $(REPORT_SRCS) \
              $(SUMMARY_SRCS) $(ADVICE_SRCS) $(SHIM_LOGIC)
LAUNCHER_SRCS = $(sort $(wildcard launcher/*.c))
INJECTOR_SRCS = $(sort $(wildcard inject/*.c))

SHIM_OBJS     = $(SHIM_SRCS:%.c=$(B)/obj/shim-pic/%.o)
COMMON_OBJS   = $(COMMON:%.c=$(B)/obj/app/%.o)
LIBMSPROF     = $(B)/obj/app/libmsprof.a
LAUNCHER_OBJS = $(LAUNCHER_SRCS:%.c=$(B)/obj/app/%.o) $(LIBMSPROF)
INJECTOR_OBJS = $(INJECTOR_SRCS:%.c=$(B)/obj/app/%.o) $(LIBMSPROF)

UNIT_TESTS = $(patsubst t/unit/%.c,$(B)/t/%.t,$(wildcard t/unit/*.c))
HELPERS    = $(patsubst t/helpers/%.c,$(B)/t/helpers/%,$(wildcard t/helpers/*.c))

all: $(LAUNCHER) $(INJECTOR) $(SHIM) $(SHIM_234) $(LAUNCHTAB) $(TRAININGS) \
    $(UNIT_TESTS) \
    $(HELPERS)

$(B)/obj/shim-pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SHIM_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/obj/app/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -MMD -MP -c -o $@ $<

$(LIBMSPROF): $(COMMON_OBJS)
	rm -f $@
	$(AR) rcs $@ $(COMMON_OBJS)

# libdl.so.2 by name: before glibc 2.34 dlsym lives there, and -ldl finds
# only an empty libdl.a on newer systems.  From 2.34 on dlsym is in libc and
# libdl.so.2 an empty stub that still costs every process a file to map:
# the launcher preloads the second build, without it, there.
# Every process pays for loading the shim: no start files (their weak
# symbols cost lookups), calls within the shim bound at link time, and one
# read-only segment for headers, text and constants (one page fault, not
# three, in every process and forked child).
SHIM_LINK = -shared -nostartfiles -Wl,-Bsymbolic -Wl,-z,noseparate-code \
	    -Wl,-soname,msprof-exec-shim.so \
	    -Wl,--version-script=shim/shim.map $(LDFLAGS)

$(SHIM): $(SHIM_OBJS) shim/shim.map
	@mkdir -p $(@D)
	$(CC) $(SHIM_LINK) -o $@ $(SHIM_OBJS) -Wl,--no-as-needed -l:libdl.so.2

$(SHIM_234): $(SHIM_OBJS) shim/shim.map
	@mkdir -p $(@D)
	$(CC) $(SHIM_LINK) -o $@ $(SHIM_OBJS)

# The injector starts at every intercepted launch, and every library it
# loads costs the dynamic linker a file to map and its symbols to relocate:
# it takes only cJSON and libyaml (glibc has reallocarray, libbsd's one
# function here, since 2.26), each from its static archive when the
# library has one (-l:libX.a works in a static link as in a dynamic one).
lib_static = $(if $(wildcard $(shell $(PKG_CONFIG) --variable=libdir $(2))/lib$(1).a),-l:lib$(1).a,-l$(1))
INJECTOR_LIBS = $(patsubst -lcjson,$(call lib_static,cjson,libcjson), \
	$(patsubst -lyaml,$(call lib_static,yaml,yaml-0.1), \
	$(filter-out -lbsd -lmd -lsqlite3,$(PKG_LIBS))))

$(INJECTOR): $(INJECTOR_OBJS)
	@mkdir -p $(@D)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(INJECTOR_OBJS) -Wl,--as-needed \
	    $(INJECTOR_LIBS)

$(LAUNCHER): $(LAUNCHER_OBJS)
	@mkdir -p $(@D)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(LAUNCHER_OBJS) $(PKG_LIBS)

$(LAUNCHTAB): config/launchers.conf
	@mkdir -p $(@D)
	cp $< $@

$(TRAININGS): config/trainings.conf
	@mkdir -p $(@D)
	cp $< $@

# C unit tests: the logic linked without the wrappers.
$(B)/t/%.t: t/unit/%.c t/tap.h $(LIBMSPROF)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -Wno-discarded-qualifiers -It \
	    -o $@ $< $(LIBMSPROF) $(PKG_LIBS)

# Test programs that call the exec entry points.
$(B)/t/helpers/%: t/helpers/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< -lpthread

# The suite runs JOBS test files at a time: twice the CPUs by default, as
# many tests spend their time waiting for the processes they start.  The
# files of t/slowest start first (the longest ones, which would otherwise
# end the run alone), then the others by name, then the unit tests.
JOBS ?= $(shell echo $$(( $$(nproc 2> /dev/null || echo 1) * 2 )))
SLOWEST     = $(filter $(wildcard t/*.t),$(shell sed 's/\#.*//' t/slowest))
SHELL_TESTS = $(SLOWEST) $(filter-out $(SLOWEST),$(sort $(wildcard t/*.t)))

check: all
	prove -j$(JOBS) $(PROVE_FLAGS) $(SHELL_TESTS) $(B)/t/*.t

demo: all
	sh sim/demo.sh

demo-torch: all
	sh sim/demo-torch.sh

demo-tune: all
	sh sim/demo-tune.sh

deps:
	sh .ci/deps.sh

# 'make deps check' and 'make deps demo': install first, build after.
all check demo demo-torch demo-tune: | $(filter deps,$(MAKECMDGOALS))

clean:
	rm -rf $(B)

.PHONY: all check demo demo-torch demo-tune deps clean

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

# Further targets (install, translations, man pages, fuzzing, benchmarks),
# one fragment each.
include $(sort $(wildcard mk/*.mk))
