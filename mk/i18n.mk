# Translations (gettext), as git does it: po/msprof-exec.pot is extracted
# from the launcher's _() and N_() messages, po/LL.po holds a language, and
# each is compiled into build/share/locale/LL/LC_MESSAGES/msprof-exec.mo,
# where i18n_init() finds it (PREFIX/share/locale of the running program).
#
#   make pot                      regenerate po/msprof-exec.pot
#   make po-update                merge it into every po/*.po (msgmerge)
#   make po-update PO_FILE=po/zh_CN.po   one language only
#
# t/0520-i18n.t fails when the template or a catalogue lags the sources.

XGETTEXT ?= xgettext
MSGFMT   ?= msgfmt
MSGMERGE ?= msgmerge

# Like the library check in the Makefile: stop early, saying what to install.
ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(MSGFMT)),)
$(error $(MSGFMT) not found (translations): run 'make deps', or \
  'sudo apt-get install gettext')
endif
endif

POT_FILE  = po/msprof-exec.pot
PO_FILES  = $(wildcard po/*.po)
PO_FILE  ?= $(PO_FILES)
MO_FILES  = $(PO_FILES:po/%.po=$(B)/share/locale/%/LC_MESSAGES/msprof-exec.mo)
I18N_SRCS = $(sort $(wildcard common/*.c engines/*.c scan/*.c report/*.c \
	    summary/*.c advice/*.c inject/*.c launcher/*.c))
XGETTEXT_FLAGS = --language=C --keyword=_ --keyword=N_ \
	--add-comments=TRANSLATORS: --from-code=UTF-8 --force-po \
	--package-name=msprof-exec

all: $(MO_FILES)

# Written beside and renamed: a test may be reading the old one, and
# another make may be writing it too.
$(B)/share/locale/%/LC_MESSAGES/msprof-exec.mo: po/%.po
	@mkdir -p $(@D)
	$(MSGFMT) --check -o $@.$$$$ $< && mv -f $@.$$$$ $@

# Only a change of the messages rewrites the file, not a new date.
pot:
	$(XGETTEXT) $(XGETTEXT_FLAGS) -o $(POT_FILE).tmp $(I18N_SRCS)
	@if [ -f $(POT_FILE) ] && diff -q -I '^"POT-Creation-Date:' \
	    $(POT_FILE) $(POT_FILE).tmp >/dev/null; then \
		rm -f $(POT_FILE).tmp; \
	else \
		mv -f $(POT_FILE).tmp $(POT_FILE); echo "updated $(POT_FILE)"; \
	fi

po-update: pot
	@for po in $(PO_FILE); do \
		echo "$(MSGMERGE) $$po"; \
		$(MSGMERGE) --quiet --update --backup=none --previous \
		    $$po $(POT_FILE) || exit 1; \
	done

.PHONY: pot po-update
