/* diag: the one struct cordon_diag setter resets every field, returns the
 * code, accepts NULL and cuts a long message. */
#include <string.h>

#include "cordon.h"
#include "diag.h"
#include "tap.h"

int main(void)
{
	struct cordon_diag d;
	char big[600];

	tap_no_plan();
	memset(&d, 0x5a, sizeof(d));
	is_int(diag_set(&d, CORDON_E_LIMIT, "over %d", 7), CORDON_E_LIMIT,
	       "diag_set returns the code");
	ok(d.code == CORDON_E_LIMIT && d.offset == 0 && d.line == 0 &&
		   d.column == 0 && d.sys_errno == 0,
	   "and resets every other field");
	is_str(d.message, "over 7", "the message");
	diag_errno(&d, CORDON_E_IO, 2, "open %s", "x");
	ok(d.sys_errno == 2 && d.offset == 0, "diag_errno keeps the errno");
	diag_at(&d, CORDON_E_JSON, 12, "bad");
	ok(d.offset == 12 && d.sys_errno == 0, "diag_at keeps the offset");
	is_int(diag_set(NULL, CORDON_E_INVAL, "x"), CORDON_E_INVAL,
	       "a NULL diag still returns the code");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	diag_set(&d, CORDON_E_INVAL, "%s", big);
	is_int((long long)strlen(d.message), (long long)sizeof(d.message) - 1,
	       "a long message is cut to the struct");
	diag_clear(&d);
	ok(d.code == CORDON_OK && d.message[0] == '\0', "diag_clear");
	diag_clear(NULL);
	return tap_done();
}
