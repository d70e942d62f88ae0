/* Message translation: _() marks and translates, N_() only marks. */
#ifndef MSPROF_I18N_H
#define MSPROF_I18N_H

#include <libintl.h>

#define PACKAGE	"msprof-exec"
#define _(s)	i18n_gettext(s)
#define N_(s)	(s)

/*
 * Bind the message catalogue found next to the running program.  Optional:
 * the first _() does it, so that a program that prints nothing never pays
 * for reading the locale (the injector, at every launch).
 */
void	i18n_init(void);
/* gettext(MSGID), after i18n_init() when it has not run; errno kept. */
char	*i18n_gettext(const char *msgid) __attribute__((format_arg(1)));
/*
 * strerror(E) in the user's language: for a message built with _(), whose
 * arguments may be evaluated before the _() that binds the catalogue.
 */
char	*i18n_strerror(int e);

#endif
