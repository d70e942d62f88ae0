/* Message translation: _() marks and translates, N_() only marks. */
#ifndef MSPROF_I18N_H
#define MSPROF_I18N_H

#include <libintl.h>

#define PACKAGE	"msprof-exec"
#define _(s)	gettext(s)
#define N_(s)	(s)

/* Bind the message catalogue found next to the running program. */
void	i18n_init(void);

#endif
