/* Fuzz target: a connect address as the connect supervisor reads it
 * (unixnotif.c, sandbox_unixnotif_parse). The first byte picks the
 * socket's domain, the second its type, the rest is the address the
 * command handed connect(). No crash, no read past the address; a
 * pathname is non-empty, NUL-terminated within sun_path and no longer
 * than the address; an abstract name or pathname only for AF_UNIX, a
 * port only for a TCP socket. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/socket.h>
#include <sys/un.h>

#include "fuzz.h"
#include "sandbox_int.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int domains[] = { AF_UNIX, AF_INET, AF_INET6, AF_NETLINK };
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET,
				     SOCK_RAW };
	struct sandbox_unixnotif_addr a;
	unsigned char *addr;
	int domain, type, err;
	size_t len;

	if (size < 2 || size > 2 + 256)
		return 0;
	domain = domains[data[0] % 4];
	type = types[data[1] % 4];
	len = size - 2;
	/* exactly len bytes: ASan catches a read past them */
	addr = malloc(len ? len : 1);
	if (!addr)
		return 0;
	memcpy(addr, data + 2, len);
	err = sandbox_unixnotif_parse(domain, type, addr, len, &a);
	if (err && a.kind != UNOTIF_ADDR_PASS)
		abort();
	if (a.kind == UNOTIF_ADDR_PATH) {
		size_t pl = strnlen(a.path, sizeof(a.path));

		if (domain != AF_UNIX || pl == 0 || pl >= sizeof(a.path) ||
		    pl > len - offsetof(struct sockaddr_un, sun_path) ||
		    memcmp(a.path,
			   addr + offsetof(struct sockaddr_un, sun_path),
			   pl) != 0)
			abort();
	}
	if (a.kind == UNOTIF_ADDR_ABSTRACT && domain != AF_UNIX)
		abort();
	if (a.kind == UNOTIF_ADDR_TCP &&
	    (type != SOCK_STREAM || (domain != AF_INET && domain != AF_INET6) ||
	     a.port > 65535))
		abort();
	free(addr);
	return 0;
}
