/*
 * Unit tests of the lazy message catalogue (common/install.c): the first
 * _() binds it and keeps the caller's errno, for a message whose other
 * arguments read errno; nothing is bound before.
 */
#include <errno.h>
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "common/i18n.h"

int
main(void)
{
	const char *msg;

	/* A locale whose name must be looked up, as on a cluster. */
	setenv("LC_ALL", "xx_YY.UTF-8", 1);
	is_str(textdomain(NULL), "messages", "no catalogue before the first _()");
	errno = ENOSPC;
	msg = _("cannot read the plan %s: %s");
	is_int(errno, ENOSPC, "the first _() keeps errno");
	is_str(msg, "cannot read the plan %s: %s",
	    "an unknown locale: the message as written");
	is_str(textdomain(NULL), PACKAGE, "the first _() bound the catalogue");
	errno = EACCES;
	is_str(i18n_strerror(errno), strerror(EACCES),
	    "i18n_strerror: strerror of its argument");
	is_int(errno, EACCES, "i18n_strerror keeps errno");
	return done_testing();
}
