# make install / make uninstall, and make lint-man.
#
#   make install   [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]   (the same variables)
#   make lint-man  mandoc -T lint -W warning on the man pages
#
# The layout is the one msprof-exec finds its files in, relative to its own
# location (launcher/install.c), so a DESTDIR or moved install works:
#
#   PREFIX/bin/msprof-exec
#   PREFIX/lib/msprof-exec/msprof-exec-shim.so, msprof-exec-shim-glibc2.34.so,
#   msprof-exec-inject
#   PREFIX/share/msprof-exec/launchers.conf, trainings.conf
#   PREFIX/share/locale/<lang>/LC_MESSAGES/msprof-exec.mo   (when built)
#   PREFIX/share/man/man1/msprof-exec.1, man5/msprof-exec-launchers.5,
#   man7/msprof-exec-summary.7
#   PREFIX/share/bash-completion/completions/msprof-exec
#
# Nothing is installed in SYSCONFDIR: /etc/msprof-exec/launchers.conf is
# the administrator's override, /etc/msprof-exec/trainings.conf and
# ~/.config/msprof-exec/trainings.conf add rows (msprof-exec-launchers(5)).

INSTALL     ?= install
MANDOC      ?= mandoc
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Fixed: msprof-exec looks for its catalogues in PREFIX/share/locale.
INSTALL_LOCALEDIR = $(PREFIX)/share/locale
BUILT_LOCALE = $(B)/share/locale

MAN1 = man/msprof-exec.1
MAN5 = man/msprof-exec-launchers.5
MAN7 = man/msprof-exec-summary.7
COMPLETION = completion/msprof-exec

install: all
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(LIBDIR)' \
	    '$(DESTDIR)$(DATADIR)' '$(DESTDIR)$(MANDIR)/man1' \
	    '$(DESTDIR)$(MANDIR)/man5' '$(DESTDIR)$(MANDIR)/man7' \
	    '$(DESTDIR)$(BASHCOMPDIR)'
	$(INSTALL) -m 755 $(LAUNCHER) '$(DESTDIR)$(BINDIR)/msprof-exec'
	$(INSTALL) -m 755 $(INJECTOR) '$(DESTDIR)$(LIBDIR)/msprof-exec-inject'
	$(INSTALL) -m 644 $(SHIM) '$(DESTDIR)$(LIBDIR)/msprof-exec-shim.so'
	$(INSTALL) -m 644 $(SHIM_234) \
	    '$(DESTDIR)$(LIBDIR)/msprof-exec-shim-glibc2.34.so'
	$(INSTALL) -m 644 $(LAUNCHTAB) '$(DESTDIR)$(DATADIR)/launchers.conf'
	$(INSTALL) -m 644 $(TRAININGS) '$(DESTDIR)$(DATADIR)/trainings.conf'
	$(INSTALL) -m 644 $(MAN1) '$(DESTDIR)$(MANDIR)/man1/msprof-exec.1'
	$(INSTALL) -m 644 $(MAN5) \
	    '$(DESTDIR)$(MANDIR)/man5/msprof-exec-launchers.5'
	$(INSTALL) -m 644 $(MAN7) '$(DESTDIR)$(MANDIR)/man7/msprof-exec-summary.7'
	$(INSTALL) -m 644 $(COMPLETION) '$(DESTDIR)$(BASHCOMPDIR)/msprof-exec'
# Translations: whatever the build put under $(BUILT_LOCALE).
	@if [ -d '$(BUILT_LOCALE)' ]; then \
	    find '$(BUILT_LOCALE)' -type f | sort | while read -r f; do \
		rel=$${f#'$(BUILT_LOCALE)'/}; \
		echo "$(INSTALL) -m 644 $$f '$(DESTDIR)$(INSTALL_LOCALEDIR)/$$rel'"; \
		$(INSTALL) -d "$(DESTDIR)$(INSTALL_LOCALEDIR)/$${rel%/*}" && \
		$(INSTALL) -m 644 "$$f" \
		    "$(DESTDIR)$(INSTALL_LOCALEDIR)/$$rel" || exit 1; \
	    done; \
	fi

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/msprof-exec' \
	    '$(DESTDIR)$(LIBDIR)/msprof-exec-inject' \
	    '$(DESTDIR)$(LIBDIR)/msprof-exec-shim.so' \
	    '$(DESTDIR)$(LIBDIR)/msprof-exec-shim-glibc2.34.so' \
	    '$(DESTDIR)$(DATADIR)/launchers.conf' \
	    '$(DESTDIR)$(DATADIR)/trainings.conf' \
	    '$(DESTDIR)$(MANDIR)/man1/msprof-exec.1' \
	    '$(DESTDIR)$(MANDIR)/man5/msprof-exec-launchers.5' \
	    '$(DESTDIR)$(MANDIR)/man7/msprof-exec-summary.7' \
	    '$(DESTDIR)$(BASHCOMPDIR)/msprof-exec'
# Translations: those built here, and any msprof-exec catalogue.
	@if [ -d '$(BUILT_LOCALE)' ]; then \
	    find '$(BUILT_LOCALE)' -type f | sort | while read -r f; do \
		rel=$${f#'$(BUILT_LOCALE)'/}; \
		echo "rm -f '$(DESTDIR)$(INSTALL_LOCALEDIR)/$$rel'"; \
		rm -f "$(DESTDIR)$(INSTALL_LOCALEDIR)/$$rel"; \
	    done; \
	fi
	rm -f '$(DESTDIR)$(INSTALL_LOCALEDIR)'/*/LC_MESSAGES/msprof-exec.mo
# The directories that are msprof-exec's own, when empty.
	rmdir '$(DESTDIR)$(LIBDIR)' '$(DESTDIR)$(DATADIR)' 2>/dev/null || true

lint-man:
	$(MANDOC) -T lint -W warning $(MAN1) $(MAN5) $(MAN7)

.PHONY: install uninstall lint-man
