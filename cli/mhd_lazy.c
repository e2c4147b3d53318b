/* mhd_lazy — libmicrohttpd loaded when the console starts, not when cordon
 * does.
 *
 * Only `cordon console` serves HTTP, but a binary linked against
 * libmicrohttpd loads it, and through it GnuTLS, p11-kit, nettle, gmp,
 * libtasn1, libidn2 and libunistring, on every start: ten libraries to map
 * and relocate and GnuTLS's constructor to run. That was more than half of
 * a `cordon hook claude` call (bench/PROFILE-hook.md), and a hook is one
 * process per tool call. So the binary does not link it: the few MHD_*
 * functions console.c calls are defined here and bind, on first use, to
 * the library's own by dlopen() of its soname (the same search the dynamic
 * loader makes for a linked library). When it cannot be loaded,
 * MHD_start_daemon() says why and returns NULL, which the console reports
 * as the server not starting; nothing else is called before it.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "banned.h"

/* The ABI libmicrohttpd has kept since 0.9 (Debian: libmicrohttpd12). */
#define MHD_SONAME "libmicrohttpd.so.12"

static struct {
	struct MHD_Daemon *(*start_daemon_va)(unsigned, uint16_t,
					      MHD_AcceptPolicyCallback, void *,
					      MHD_AccessHandlerCallback, void *,
					      va_list);
	void (*stop_daemon)(struct MHD_Daemon *);
	const char *(*lookup_connection_value)(struct MHD_Connection *,
					       enum MHD_ValueKind,
					       const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned,
					  struct MHD_Response *);
	struct MHD_Response *(*create_response_from_callback)(
		uint64_t, size_t, MHD_ContentReaderCallback, void *,
		MHD_ContentReaderFreeCallback);
	struct MHD_Response *(*create_response_from_buffer)(
		size_t, void *, enum MHD_ResponseMemoryMode);
	void (*destroy_response)(struct MHD_Response *);
	enum MHD_Result (*add_response_header)(struct MHD_Response *,
					       const char *, const char *);
} mhd;

static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static bool mhd_ok;
static char mhd_error[512];

/* dlsym() into a typed pointer without the object/function pointer cast
 * ISO C leaves undefined. */
static bool bind_sym(void *lib, const char *name, void *slot, size_t size)
{
	void *sym = dlsym(lib, name);

	if (!sym) {
		const char *e = dlerror();

		snprintf(mhd_error, sizeof(mhd_error), "%s: %s", name,
			 e ? e : "not found");
		return false;
	}
	memcpy(slot, &sym, size);
	return true;
}

#define BIND(lib, field, name) bind_sym(lib, name, &mhd.field, sizeof(mhd.field))

static void mhd_load(void)
{
	void *lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		const char *e = dlerror();

		snprintf(mhd_error, sizeof(mhd_error), "%s",
			 e ? e : MHD_SONAME ": cannot be loaded");
		return;
	}
	mhd_ok = BIND(lib, start_daemon_va, "MHD_start_daemon_va") &&
		 BIND(lib, stop_daemon, "MHD_stop_daemon") &&
		 BIND(lib, lookup_connection_value,
		      "MHD_lookup_connection_value") &&
		 BIND(lib, queue_response, "MHD_queue_response") &&
		 BIND(lib, create_response_from_callback,
		      "MHD_create_response_from_callback") &&
		 BIND(lib, create_response_from_buffer,
		      "MHD_create_response_from_buffer") &&
		 BIND(lib, destroy_response, "MHD_destroy_response") &&
		 BIND(lib, add_response_header, "MHD_add_response_header");
	/* The library stays loaded: its threads run until the process ends. */
}

/* Every function below but MHD_start_daemon() runs only once a daemon
 * started, so the library is loaded by then; the check keeps a call made
 * any other way from jumping through NULL. */
static bool mhd_ready(void)
{
	pthread_once(&mhd_once, mhd_load);
	return mhd_ok;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
				    MHD_AcceptPolicyCallback apc, void *apc_cls,
				    MHD_AccessHandlerCallback dh, void *dh_cls,
				    ...)
{
	struct MHD_Daemon *d;
	va_list ap;

	if (!mhd_ready()) {
		fprintf(stderr, "cordon: libmicrohttpd: %s\n", mhd_error);
		return NULL;
	}
	va_start(ap, dh_cls);
	d = mhd.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}

void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
	if (mhd_ready())
		mhd.stop_daemon(daemon);
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection,
					enum MHD_ValueKind kind,
					const char *key)
{
	return mhd_ready() ?
		       mhd.lookup_connection_value(connection, kind, key) :
		       NULL;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection,
				   unsigned int status_code,
				   struct MHD_Response *response)
{
	return mhd_ready() ?
		       mhd.queue_response(connection, status_code, response) :
		       MHD_NO;
}

struct MHD_Response *
MHD_create_response_from_callback(uint64_t size, size_t block_size,
				  MHD_ContentReaderCallback crc, void *crc_cls,
				  MHD_ContentReaderFreeCallback crfc)
{
	return mhd_ready() ? mhd.create_response_from_callback(
				     size, block_size, crc, crc_cls, crfc) :
			     NULL;
}

struct MHD_Response *
MHD_create_response_from_buffer(size_t size, void *buffer,
				enum MHD_ResponseMemoryMode mode)
{
	return mhd_ready() ? mhd.create_response_from_buffer(size, buffer,
							     mode) :
			     NULL;
}

void MHD_destroy_response(struct MHD_Response *response)
{
	if (mhd_ready())
		mhd.destroy_response(response);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response,
					const char *header,
					const char *content)
{
	return mhd_ready() ?
		       mhd.add_response_header(response, header, content) :
		       MHD_NO;
}
