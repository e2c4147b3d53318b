/* ssl_lazy — OpenSSL's TLS loaded when a connection needs it, not when
 * cordon starts.
 *
 * Only the proxy's credential injection and `cordon fetch` speak TLS
 * (src/net/proxy.c, src/net/fetch.c), but libssl linked into the binary,
 * statically or not, brings libcrypto's EVP, provider and ASN.1 tables,
 * which the loader relocates (writes, page by page) in every process: a
 * third of a `cordon hook claude` call's page faults (bench/PROFILE-hook.md).
 * So the binary does not link libssl: the functions those two files call,
 * with the few of libcrypto's that only TLS needs (ERR_*, X509_*), are
 * defined here and bind, on first use, to the libraries' own by dlopen()
 * of libssl's soname (which loads libcrypto.so.3 beside it; the loader's
 * own search, LD_LIBRARY_PATH included). libcordon.so, the unit tests and
 * the fuzz targets link OpenSSL as usual and never see this file.
 *
 * When the library cannot be loaded or lacks a symbol, TLS_client_method()
 * and SSL_CTX_new() return NULL, which both callers take as the TLS set-up
 * failing, and the calling thread's error queue holds one error, whose
 * text ERR_error_string_n() gives: which library, and dlerror()'s words.
 * A connection is refused, never made in the clear. Nothing else is
 * reached without a context, and each forwarder still checks, so that a
 * call made any other way fails instead of jumping through NULL.
 *
 * The definitions are hidden (the project builds with -fvisibility=hidden
 * and the pragma below makes it explicit), and libcrypto.a's symbols are
 * linked with --exclude-libs (meson.build): the executable exports none of
 * them, so the libssl it loads binds to its own libcrypto, never to these
 * or to the static SHA256_* the binary carries (src/base/sha256.c).
 * tests/integration/hook_startup.sh checks with nm -D.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#pragma GCC visibility push(hidden)
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#pragma GCC visibility pop

#include "banned.h"

/* The ABI OpenSSL has kept since 3.0 (Debian: libssl3). */
#define SSL_SONAME "libssl.so.3"

/* The functions forwarded as they are: X(return type, name, parameters,
 * arguments, what a call returns when the library is not there). */
#define TLS_CALLS(X)                                                           \
	X(const SSL_METHOD *, TLS_client_method, (void), (), NULL)             \
	X(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *meth), (meth), NULL)      \
	X(int, SSL_CTX_up_ref, (SSL_CTX * ctx), (ctx), 0)                      \
	X(long, SSL_CTX_ctrl, (SSL_CTX * ctx, int cmd, long larg, void *parg), \
	  (ctx, cmd, larg, parg), 0)                                           \
	X(int, SSL_CTX_load_verify_locations,                                  \
	  (SSL_CTX * ctx, const char *CAfile, const char *CApath),             \
	  (ctx, CAfile, CApath), 0)                                            \
	X(int, SSL_CTX_set_default_verify_paths, (SSL_CTX * ctx), (ctx), 0)    \
	X(SSL *, SSL_new, (SSL_CTX * ctx), (ctx), NULL)                        \
	X(long, SSL_ctrl, (SSL * ssl, int cmd, long larg, void *parg),         \
	  (ssl, cmd, larg, parg), 0)                                           \
	X(int, SSL_set_fd, (SSL * s, int fd), (s, fd), 0)                      \
	X(int, SSL_set1_host, (SSL * s, const char *hostname), (s, hostname),  \
	  0)                                                                   \
	X(X509_VERIFY_PARAM *, SSL_get0_param, (SSL * ssl), (ssl), NULL)       \
	X(int, SSL_connect, (SSL * ssl), (ssl), -1)                            \
	X(int, SSL_shutdown, (SSL * s), (s), -1)                               \
	X(int, SSL_get_error, (const SSL *s, int ret_code), (s, ret_code),     \
	  SSL_ERROR_SSL)                                                       \
	X(long, SSL_get_verify_result, (const SSL *ssl), (ssl),                \
	  X509_V_ERR_UNSPECIFIED)                                              \
	X(int, SSL_pending, (const SSL *s), (s), 0)                            \
	X(int, SSL_read_ex,                                                    \
	  (SSL * ssl, void *buf, size_t num, size_t *readbytes),               \
	  (ssl, buf, num, readbytes), 0)                                       \
	X(int, SSL_write_ex,                                                   \
	  (SSL * s, const void *buf, size_t num, size_t *written),             \
	  (s, buf, num, written), 0)                                           \
	X(int, X509_VERIFY_PARAM_set1_ip_asc,                                  \
	  (X509_VERIFY_PARAM * param, const char *ipasc), (param, ipasc), 0)   \
	X(const char *, X509_verify_cert_error_string, (long n), (n),          \
	  "libssl is not loaded")

/* The ones that return nothing: X(name, parameters, arguments). */
#define TLS_VOID_CALLS(X)                                                      \
	X(SSL_CTX_free, (SSL_CTX * ctx), (ctx))                                \
	X(SSL_CTX_set_verify, (SSL_CTX * ctx, int mode, SSL_verify_cb cb),     \
	  (ctx, mode, cb))                                                     \
	X(SSL_free, (SSL * ssl), (ssl))                                        \
	X(SSL_set_hostflags, (SSL * s, unsigned int flags), (s, flags))

/* The error queue's, which answer for the load failure when there is no
 * library to ask. */
#define TLS_ERR_CALLS(X)                                                       \
	X(unsigned long, ERR_get_error, (void))                                \
	X(unsigned long, ERR_peek_error, (void))                               \
	X(void, ERR_clear_error, (void))                                       \
	X(void, ERR_error_string_n, (unsigned long e, char *buf, size_t len))

#define SLOT(ret, name, params, args, fail) ret(*name) params;
#define VOID_SLOT(name, params, args) void(*name) params;
#define ERR_SLOT(ret, name, params) ret(*name) params;
static struct {
	TLS_CALLS(SLOT)
	TLS_VOID_CALLS(VOID_SLOT)
	TLS_ERR_CALLS(ERR_SLOT)
} tls;

static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
static bool tls_ok;
static char tls_error[512];
/* A failed call left the load failure in this thread's queue (the way
 * OpenSSL's own queue is per thread). */
static _Thread_local bool tls_error_queued;

/* Any nonzero value: ERR_error_string_n() gives tls_error for it. */
#define TLS_LOAD_ERROR 1UL

/* dlsym() into a typed pointer without the object/function pointer cast
 * ISO C leaves undefined. */
static bool bind_sym(void *lib, const char *name, void *slot, size_t size)
{
	void *sym = dlsym(lib, name);

	if (!sym) {
		const char *e = dlerror();

		snprintf(tls_error, sizeof(tls_error), "%s (TLS) lacks %s: %s",
			 SSL_SONAME, name, e ? e : "not found");
		return false;
	}
	memcpy(slot, &sym, size);
	return true;
}

#define BIND(ret, name, params, args, fail)                                    \
	ok = ok && bind_sym(lib, #name, &tls.name, sizeof(tls.name));
#define VOID_BIND(name, params, args)                                          \
	ok = ok && bind_sym(lib, #name, &tls.name, sizeof(tls.name));
#define ERR_BIND(ret, name, params)                                            \
	ok = ok && bind_sym(lib, #name, &tls.name, sizeof(tls.name));

static void tls_load(void)
{
	void *lib = dlopen(SSL_SONAME, RTLD_NOW | RTLD_LOCAL);
	bool ok = true;

	if (!lib) {
		const char *e = dlerror();

		snprintf(tls_error, sizeof(tls_error),
			 "%s (TLS) cannot be loaded: %s", SSL_SONAME,
			 e ? e : "dlopen failed");
		return;
	}
	TLS_CALLS(BIND)
	TLS_VOID_CALLS(VOID_BIND)
	TLS_ERR_CALLS(ERR_BIND)
	/* A library missing a symbol stays loaded but unused: unloading it
	 * could run its destructors in the middle of nothing. */
	tls_ok = ok;
}

/* Whether the library is bound; when not, the calling thread's error
 * queue says why. */
static bool tls_ready(void)
{
	pthread_once(&tls_once, tls_load);
	if (!tls_ok)
		tls_error_queued = true;
	return tls_ok;
}

#define FORWARD(ret, name, params, args, fail)                                 \
	ret name params                                                        \
	{                                                                      \
		if (!tls_ready())                                              \
			return fail;                                           \
		return tls.name args;                                          \
	}
#define VOID_FORWARD(name, params, args)                                       \
	void name params                                                       \
	{                                                                      \
		if (tls_ready())                                               \
			tls.name args;                                         \
	}
TLS_CALLS(FORWARD)
TLS_VOID_CALLS(VOID_FORWARD)

/* The error queue: the library's own once it is bound; when it cannot
 * be, one entry, the load failure, left by a failed call in this thread
 * (and taken off by ERR_get_error() or ERR_clear_error(), so that a loop
 * draining the queue ends). */
static bool tls_bound(void)
{
	pthread_once(&tls_once, tls_load);
	return tls_ok;
}

unsigned long ERR_get_error(void)
{
	bool had;

	if (tls_bound())
		return tls.ERR_get_error();
	had = tls_error_queued;
	tls_error_queued = false;
	return had ? TLS_LOAD_ERROR : 0;
}

unsigned long ERR_peek_error(void)
{
	if (tls_bound())
		return tls.ERR_peek_error();
	return tls_error_queued ? TLS_LOAD_ERROR : 0;
}

void ERR_clear_error(void)
{
	if (tls_bound())
		tls.ERR_clear_error();
	else
		tls_error_queued = false;
}

void ERR_error_string_n(unsigned long e, char *buf, size_t len)
{
	if (tls_bound()) {
		tls.ERR_error_string_n(e, buf, len);
		return;
	}
	if (len)
		snprintf(buf, len, "%s", tls_error);
}
