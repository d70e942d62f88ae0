# make release: what an air-gapped cluster installs (packaging/README).
#
#   make release-deps   what it needs on Debian (root or sudo): the aarch64
#                       cross compiler and libraries, qemu-user, rpm, and
#                       Debian's cJSON source (apt-get source, deb-src lines
#                       added for it)
#   make release        into $(REL_B)/, for x86_64 and aarch64:
#                         msprof-exec-VERSION-linux-ARCH.tar.gz
#                         msprof-exec_VERSION_DEBARCH.deb
#                         msprof-exec-VERSION-1.ARCH.rpm
#   make release-check  t/0700-release.t: the binaries' ELF, the x86_64
#                       tarball unpacked alone, the aarch64 one under qemu
#
# The launcher and the injector are linked statically against glibc, cJSON,
# libyaml, libbsd and libmd: they start on any Linux of their architecture,
# whatever its glibc and libraries.  The shim cannot be static (it is
# loaded into the job's own programs) and needs glibc 2.17 or newer.  A
# static launcher cannot ask the node's glibc for its version (it would get
# its own), so the release carries only the shim that loads on every glibc
# (the one linked with libdl.so.2), not the glibc 2.34 build.
#
# Debian has no static cJSON: it is compiled from its source, found in
# REL_CJSON_SRC (default: a cJSON source directory unpacked beside the
# tree, ../cJSON-* or ../cjson-*, else the one release-deps fetched).

REL_B       ?= build-release
REL_ARCHES  ?= x86_64 aarch64
REL_HOST    := $(shell uname -m)
REL_ABS      = $(abspath $(REL_B))
REL_CJSON_SRC ?= $(patsubst %/cJSON.c,%,$(firstword $(wildcard \
    $(CURDIR)/../cJSON-*/cJSON.c $(CURDIR)/../cjson-*/cJSON.c \
    $(REL_ABS)/src/cjson-*/cJSON.c)))
# The oldest glibc the shim loads into: aarch64's first glibc.  Checked on
# every shim of the release by t/0700-release.t.
REL_GLIBC_MAX = 2.17
REL_STATIC_LIBS = -lcjson -lyaml -lbsd -lmd -lsqlite3 -lm -lpthread
# A static glibc links in only the locale categories the program reads
# itself; setlocale(LC_MESSAGES, "") then leaves the category empty and
# gettext translates nothing.  Pulling the category in keeps zh_CN.
REL_LOCALE_LDFLAGS = -Wl,-u,_nl_current_LC_MESSAGES_used

# Per architecture: the compiler, binutils prefix, Debian and RPM names.
rel_triple  = $(1)-linux-gnu
rel_cc      = $(if $(filter $(1),$(REL_HOST)),$(CC),$(call rel_triple,$(1))-gcc)
rel_strip   = $(if $(filter $(1),$(REL_HOST)),strip,$(call rel_triple,$(1))-strip)
rel_debarch = $(if $(filter x86_64,$(1)),amd64,$(if $(filter aarch64,$(1)),arm64,$(1)))
rel_pkgconf = env PKG_CONFIG_LIBDIR=/usr/lib/$(call rel_triple,$(1))/pkgconfig:/usr/share/pkgconfig PKG_CONFIG_PATH= pkg-config
rel_name    = msprof-exec-$(VERSION)-linux-$(1)
rel_build   = $(REL_ABS)/$(1)/build
rel_deps    = $(REL_ABS)/$(1)/deps
rel_stage   = $(REL_ABS)/$(1)/$(call rel_name,$(1))

REL_TARBALLS = $(foreach a,$(REL_ARCHES),$(REL_B)/$(call rel_name,$(a)).tar.gz)
REL_DEBS     = $(foreach a,$(REL_ARCHES),$(REL_B)/msprof-exec_$(VERSION)_$(call rel_debarch,$(a)).deb)
REL_RPMS     = $(foreach a,$(REL_ARCHES),$(REL_B)/msprof-exec-$(VERSION)-1.$(a).rpm)

# The licences of what the static programs contain, from the Debian
# packages they were linked from (same texts on every architecture).
REL_LICENSES = glibc:/usr/share/doc/libc6/copyright \
	glibc-LGPL-2.1:/usr/share/common-licenses/LGPL-2.1 \
	libyaml:/usr/share/doc/libyaml-0-2/copyright \
	libbsd:/usr/share/doc/libbsd0/copyright \
	libmd:/usr/share/doc/libmd0/copyright \
	sqlite:/usr/share/doc/libsqlite3-0/copyright

release: $(REL_TARBALLS) $(REL_DEBS) $(REL_RPMS)
	@cd $(REL_B) && ls -l $(notdir $^)

# --- per architecture: build, stage, tarball --------------------------------

define rel_arch
$(REL_B)/$(call rel_name,$(1)).tar.gz: rel-build-$(1)
	rm -f $$@
	tar -C $(REL_ABS)/$(1) --sort=name --owner=0 --group=0 --numeric-owner \
	    -czf $$@ $(call rel_name,$(1))

rel-build-$(1): rel-cjson-$(1)
	$$(MAKE) B=$(call rel_build,$(1)) CC='$(call rel_cc,$(1))' \
	    PKG_CONFIG='$(call rel_pkgconf,$(1))' SANITIZE= LDFLAGS= \
	    $(patsubst $(B)/%,$(call rel_build,$(1))/%,$(SHIM) $(LAUNCHTAB) $(MO_FILES))
	$$(MAKE) B=$(call rel_build,$(1)) CC='$(call rel_cc,$(1))' \
	    PKG_CONFIG='$(call rel_pkgconf,$(1))' SANITIZE= \
	    CFLAGS='$(CFLAGS) -I$(call rel_deps,$(1))/include' \
	    PKG_LIBS='$(REL_STATIC_LIBS)' \
	    LDFLAGS='-static -L$(call rel_deps,$(1))/lib $(REL_LOCALE_LDFLAGS)' \
	    $(patsubst $(B)/%,$(call rel_build,$(1))/%,$(LAUNCHER) $(INJECTOR) $(HELPERS))
	ARCH=$(1) VERSION=$(VERSION) BUILD=$(call rel_build,$(1)) \
	    STAGE=$(call rel_stage,$(1)) TOP=$(CURDIR) \
	    STRIP=$(call rel_strip,$(1)) CJSON_SRC='$$(REL_CJSON_SRC)' \
	    LICENSES='$(REL_LICENSES)' sh packaging/stage.sh

# cJSON as a static library, from its source (two files).
rel-cjson-$(1): | $(filter release-deps,$(MAKECMDGOALS))
	@command -v $(call rel_cc,$(1)) > /dev/null || { echo "release: no" \
	    "$(call rel_cc,$(1)) for $(1): run 'make release-deps', or leave" \
	    "$(1) out (make release REL_ARCHES=$(REL_HOST))" >&2; exit 1; }
	@[ -n '$$(REL_CJSON_SRC)' ] || { echo "release: no cJSON source: unpack" \
	    "one beside the tree (../cJSON-1.7.15) or run 'make release-deps'" >&2; exit 1; }
	mkdir -p $(call rel_deps,$(1))/include/cjson $(call rel_deps,$(1))/lib
	cp $$(REL_CJSON_SRC)/cJSON.h $(call rel_deps,$(1))/include/cjson/
	$(call rel_cc,$(1)) -O2 -std=c89 -c -o $(call rel_deps,$(1))/cJSON.o \
	    $$(REL_CJSON_SRC)/cJSON.c
	rm -f $(call rel_deps,$(1))/lib/libcjson.a
	$(if $(filter $(1),$(REL_HOST)),ar,$(call rel_triple,$(1))-ar) rcs \
	    $(call rel_deps,$(1))/lib/libcjson.a $(call rel_deps,$(1))/cJSON.o

$(REL_B)/msprof-exec_$(VERSION)_$(call rel_debarch,$(1)).deb: $(REL_B)/$(call rel_name,$(1)).tar.gz
	ARCH=$(1) DEBARCH=$(call rel_debarch,$(1)) VERSION=$(VERSION) \
	    STAGE=$(call rel_stage,$(1)) OUT=$$@ TOP=$(CURDIR) sh packaging/deb.sh

$(REL_B)/msprof-exec-$(VERSION)-1.$(1).rpm: $(REL_B)/$(call rel_name,$(1)).tar.gz
	ARCH=$(1) VERSION=$(VERSION) STAGE=$(call rel_stage,$(1)) \
	    OUT=$$@ TOP=$(CURDIR) WORK=$(REL_ABS)/$(1)/rpm sh packaging/rpm.sh

.PHONY: rel-build-$(1) rel-cjson-$(1)
endef
$(foreach a,$(REL_ARCHES),$(eval $(call rel_arch,$(a))))

# --- the checks, and what the build needs -----------------------------------

release-check: release
	prove $(PROVE_FLAGS) t/0700-release.t

# The smoke test of mk/cross.mk, for t/0700-release.t to run on the
# unpacked aarch64 tarball.
release-smoke-script:
	@mkdir -p $(REL_ABS)
	@: $(file >$(REL_ABS)/aarch64-smoke.t,$(value cross_smoke))

REL_SUDO = $(if $(filter 0,$(shell id -u)),,sudo)
release-deps: cross-deps
	$(REL_SUDO) sh packaging/debian-src.sh
	DEBIAN_FRONTEND=noninteractive $(REL_SUDO) apt-get install -y -qq \
	    --no-install-recommends rpm dpkg-dev
	mkdir -p $(REL_B)/src
	cd $(REL_B)/src && rm -rf cjson-* && apt-get source -qq cjson

release-clean:
	rm -rf $(REL_B)

.PHONY: release release-check release-smoke-script release-deps release-clean

# --- msprof-exec -V names the revision it was built from --------------------

GIT_REVISION := $(shell git -C '$(CURDIR)' describe --always --dirty \
    --abbrev=12 2>/dev/null || echo unknown)
REVISION_FILE = $(B)/obj/revision
ifeq ($(filter clean deps release-clean,$(MAKECMDGOALS)),)
# Rewritten when the revision changes, so that profile.o (which prints it
# for -V) is rebuilt then.
$(shell mkdir -p '$(B)/obj' && [ "$$(cat '$(REVISION_FILE)' 2>/dev/null)" = \
    '$(GIT_REVISION)' ] || echo '$(GIT_REVISION)' > '$(REVISION_FILE)')
endif
# Also made by a rule: with 'make deps check' the line above is skipped.
$(REVISION_FILE):
	@mkdir -p $(@D)
	echo '$(GIT_REVISION)' > $@
REVISION_OBJ = $(filter %/launcher/profile.o,$(LAUNCHER_OBJS))
$(REVISION_OBJ): $(REVISION_FILE)
$(REVISION_OBJ): APP_CFLAGS += -DGIT_REVISION='"$(GIT_REVISION)"'
