/* redact — the secret scanner: one left-to-right walk over each line.
 *
 * A line is cut into blobs, runs of word bytes (letters, digits and
 * _ - . + / =), and inside a blob into key runs (letters, digits, _ - .).
 * Every rule starts at a key run: a known token format, a key name
 * followed by = or : and its value, a secret flag and the word after it, a
 * database client's glued -p, Bearer and the word after it, a PEM header.
 * A blob where nothing started is then weighed whole as a bare opaque
 * token, and "://" starts the user:password@ rule. A rule that looks ahead
 * either consumes what it read (the walk resumes after the value) or stops
 * where the next rule of its kind could start, so every byte is read a
 * bounded number of times, whatever the line holds.
 *
 * Each line yields spans in order; a span is written as "[REDACTED]" or
 * "[REDACTED:kind]" and the text between spans is copied. Only the PEM
 * state (inside a private-key block) carries from one line to the next;
 * the client and flag context of a line starts afresh on the next one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cordon.h"
#include "redact.h"

#include "alloc.h"
#include "text.h"
#include "banned.h"

/* ---- byte classes ------------------------------------------------------ */

enum {
	C_SPACE = 1 << 0, /* blanks inside a line */
	C_ALNUM = 1 << 1, /* A-Z a-z 0-9 */
	C_KEY = 1 << 2, /* key names and token bodies: alnum _ - . */
	C_WORD = 1 << 3, /* blobs: alnum _ - . + / = */
	C_STOP = 1 << 4, /* ends a bare value */
	C_QUOTE = 1 << 5, /* " ' */
	C_SEG = 1 << 6, /* ends a shell command: ; & | ( ) { } ` */
	C_PATH = 1 << 7, /* / and . : a blob holding one is a path or name */
	C_B64 = 1 << 8, /* the standard base64 alphabet: alnum + / */
	C_UPPER = 1 << 9,
	C_LOWER = 1 << 10,
	C_DIGIT = 1 << 11,
	C_HEX = 1 << 12,
	C_URL64 = 1 << 13, /* the base64url alphabet: alnum _ - */
	C_LEAD = 1 << 14, /* ':' '\\': scan_line looks further (URL, escape) */
};

#define C_ALNUM_ALL (C_ALNUM | C_KEY | C_WORD | C_B64 | C_URL64)

static const uint16_t cls[256] = {
	['0' ... '9'] = C_ALNUM_ALL | C_DIGIT | C_HEX,
	['A' ... 'F'] = C_ALNUM_ALL | C_UPPER | C_HEX,
	['G' ... 'Z'] = C_ALNUM_ALL | C_UPPER,
	['a' ... 'f'] = C_ALNUM_ALL | C_LOWER | C_HEX,
	['g' ... 'z'] = C_ALNUM_ALL | C_LOWER,
	['_'] = C_KEY | C_WORD | C_URL64,
	['-'] = C_KEY | C_WORD | C_URL64,
	['.'] = C_KEY | C_WORD | C_PATH,
	['+'] = C_WORD | C_B64,
	['/'] = C_WORD | C_B64 | C_PATH,
	['='] = C_WORD,
	[' '] = C_SPACE | C_STOP,
	['\t'] = C_SPACE | C_STOP,
	['\r'] = C_SPACE | C_STOP,
	['\v'] = C_SPACE | C_STOP,
	['\f'] = C_SPACE | C_STOP,
	['\n'] = C_SPACE | C_STOP,
	['\0'] = C_STOP,
	['"'] = C_QUOTE | C_STOP,
	['\''] = C_QUOTE | C_STOP,
	['`'] = C_STOP | C_SEG,
	[','] = C_STOP,
	[';'] = C_STOP | C_SEG,
	['&'] = C_STOP | C_SEG,
	['|'] = C_STOP | C_SEG,
	['('] = C_STOP | C_SEG,
	[')'] = C_STOP | C_SEG,
	['{'] = C_STOP | C_SEG,
	['}'] = C_STOP | C_SEG,
	['<'] = C_STOP,
	['>'] = C_STOP,
	['['] = C_STOP,
	[']'] = C_STOP,
	['\\'] = C_STOP | C_LEAD,
	[':'] = C_LEAD,
};

/* The work counter test_redact reads (redact.h): every byte class looked
 * up and every byte a memchr or memmem passes over, in builds that define
 * CORDON_REDACT_WORK (src/meson.build: all but release builds). */
_Thread_local size_t redact__work;
#ifdef CORDON_REDACT_WORK
#define WORK(n) (redact__work += (size_t)(n))
#else
#define WORK(n) ((void)0)
#endif

bool redact__counting(void)
{
#ifdef CORDON_REDACT_WORK
	return true;
#else
	return false;
#endif
}

#define CL(c) (WORK(1), cls[(unsigned char)(c)])

#define NONE SIZE_MAX

/* memchr and memmem, their work counted up to what they found. */
static const char *find_byte(const char *s, char c, size_t n)
{
	const char *p = memchr(s, c, n);

	WORK(p ? (size_t)(p - s) + 1 : n);
	return p;
}

static const char *find_str(const char *s, size_t n, const char *w, size_t m)
{
	const char *p = memmem(s, n, w, m);

	WORK(p ? (size_t)(p - s) + m : n);
	return p;
}

static inline unsigned char lower(char c)
{
	unsigned char u = (unsigned char)c;

	return (CL(u) & C_UPPER) ? (unsigned char)(u + 32) : u;
}

static inline bool is_sep(char c)
{
	return c == '_' || c == '-' || c == '.';
}

/* Case-insensitive comparison of s[0..n) with the lower-case word w. */
static bool eq_ci(const char *s, size_t n, const char *w)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i] == '\0' || lower(s[i]) != (unsigned char)w[i])
			return false;
	return w[n] == '\0';
}

static bool prefix_ci(const char *s, size_t n, const char *w)
{
	size_t i;

	for (i = 0; w[i]; i++)
		if (i >= n || lower(s[i]) != (unsigned char)w[i])
			return false;
	return true;
}

static bool suffix_ci(const char *s, size_t n, const char *w)
{
	size_t m = strlen(w);

	return m <= n && prefix_ci(s + n - m, m, w);
}

/* Does s[0..n) contain the lower-case word w (case-insensitively)? The
 * words are a few bytes long, so this stays linear in n. */
static bool contains_ci(const char *s, size_t n, const char *w)
{
	size_t m = strlen(w), i;

	for (i = 0; i + m <= n; i++)
		if (prefix_ci(s + i, m, w))
			return true;
	return false;
}

/* The end of the run of bytes of class mask from s[i], n at most: eight
 * looks without a bound check while eight bytes are left. */
static inline size_t run_of(const char *s, size_t i, size_t n, uint16_t mask)
{
	size_t k;

	while (i < n && n - i >= 8) {
		for (k = 0; k < 8; k++)
			if (!(CL(s[i + k]) & mask))
				return i + k;
		i += 8;
	}
	while (i < n && (CL(s[i]) & mask))
		i++;
	return i;
}

static bool blank(const char *s, size_t a, size_t b)
{
	for (; a < b; a++)
		if (!(CL(s[a]) & C_SPACE))
			return false;
	return true;
}

/* ---- kinds ------------------------------------------------------------- */

/* Each kind and the name its replacement carries ("[REDACTED:name]"). */
#define KINDS(X)                                                               \
	X(GENERIC, "")                                                         \
	X(GITHUB, "github-pat")                                                \
	X(GITLAB, "gitlab-pat")                                                \
	X(GITLAB_OTHER, "gitlab-token")                                        \
	X(SLACK, "slack-token")                                                \
	X(SLACK_HOOK, "slack-webhook")                                         \
	X(DISCORD, "discord-token")                                            \
	X(DISCORD_HOOK, "discord-webhook")                                     \
	X(TEAMS_HOOK, "teams-webhook")                                         \
	X(CHAT_HOOK, "webhook")                                                \
	X(TELEGRAM, "telegram-bot-token")                                      \
	X(AWS_ID, "aws-access-key")                                            \
	X(AWS_SECRET, "aws-secret-key")                                        \
	X(OPENAI, "openai-key")                                                \
	X(ANTHROPIC, "anthropic-key")                                          \
	X(GOOGLE, "google-api-key")                                            \
	X(GOOGLE_OAUTH, "google-oauth-token")                                  \
	X(STRIPE, "stripe-key")                                                \
	X(TWILIO, "twilio-key")                                                \
	X(SENDGRID, "sendgrid-key")                                            \
	X(MAILGUN, "mailgun-key")                                              \
	X(MAILCHIMP, "mailchimp-key")                                          \
	X(VAULT, "vault-token")                                                \
	X(DATABRICKS, "databricks-token")                                      \
	X(NPM, "npm-token")                                                    \
	X(PYPI, "pypi-token")                                                  \
	X(DOCKER, "docker-pat")                                                \
	X(HUGGINGFACE, "huggingface-token")                                    \
	X(SHOPIFY, "shopify-token")                                            \
	X(DIGITALOCEAN, "digitalocean-token")                                  \
	X(GRAFANA, "grafana-token")                                            \
	X(ATLASSIAN, "atlassian-token")                                        \
	X(HEROKU, "heroku-key")                                                \
	X(AZURE, "azure-key")                                                  \
	X(TOKEN, "api-token") /* a provider's token of a known prefix */       \
	X(JWT, "jwt")                                                          \
	X(PEM, "private-key")                                                  \
	X(B64, "base64-secret")                                                \
	X(PUBLIC, "") /* a format known to be public: kept, never pushed */

enum kind {
#define K_ENUM(k, name) K_##k,
	KINDS(K_ENUM)
#undef K_ENUM
		K_COUNT
};

static const struct {
	const char *text;
	size_t len;
} repl[K_COUNT] = {
#define K_REPL(k, name)                                                        \
	[K_##k] = { sizeof(name) > 1 ? "[REDACTED:" name "]" : "[REDACTED]",   \
		    sizeof(name) > 1 ? sizeof("[REDACTED:" name "]") - 1 :     \
				       10 },
	KINDS(K_REPL)
#undef K_REPL
};

/* ---- secret names ------------------------------------------------------ */

/* What a key name says about its value. */
enum secret_kind {
	NOT_SECRET,
	SECRET, /* the value is a secret */
	SECRET_ENV, /* only the environment deny-list says so (SECRET_…) */
	SECRET_LONG, /* a secret when 16 bytes or more (a SAS sig=) */
	SECRET_HEADER, /* an Authorization value: "Scheme credential" */
	SECRET_COOKIE, /* a Cookie header: name=value; … pairs */
};

/* Key names whose value is a secret, matched at the end of a longer name
 * (x_api_key, db-password, clientSecret, ansible_become_pass). '_' stands
 * for an optional separator: '-', '_', '.' or nothing ("apikey",
 * "api-key", "apiKey"). Sorted by last letter: key_name searches them by
 * halves (test_redact checks the order). */
#define S_(s, kind)                                                            \
	{                                                                      \
		s, sizeof(s) - 1 + TEXT_FITS(s, 24), kind                      \
	}
static const struct {
	char pat[24];
	uint8_t len;
	uint8_t kind;
} key_names[] = {
	S_("password", SECRET),
	S_("passwd", SECRET),
	S_("pwd", SECRET),
	S_("session_id", SECRET),
	S_("phpsessid", SECRET),
	S_("jsessionid", SECRET),
	S_("passphrase", SECRET),
	S_("cookie", SECRET_COOKIE), /* Cookie, Set-Cookie */
	S_("sig", SECRET_LONG), /* Azure SAS signature */
	S_("auth", SECRET_HEADER),
	S_("credential", SECRET),
	S_("token", SECRET),
	S_("authorization", SECRET_HEADER),
	S_("bearer", SECRET),
	S_("pass", SECRET), /* DB_PASS, become_pass, "pass" */
	S_("credentials", SECRET),
	S_("secret", SECRET),
	S_("pw", SECRET), /* DB_PW */
	S_("bindpw", SECRET), /* LDAP */
	S_("rootpw", SECRET), /* kickstart */
	S_("api_key", SECRET),
	S_("secret_key", SECRET),
	S_("private_key", SECRET),
	S_("access_key", SECRET),
	S_("account_key", SECRET), /* Azure AccountKey= */
	S_("shared_access_key", SECRET), /* Azure SharedAccessKey= */
	S_("signing_key", SECRET),
	S_("encryption_key", SECRET),
	S_("master_key", SECRET),
	S_("session_key", SECRET),
	S_("app_key", SECRET), /* Datadog, Pusher, Laravel */
	S_("application_key", SECRET), /* DD-APPLICATION-KEY */
	S_("auth_key", SECRET), /* Cloudflare X-Auth-Key */
	S_("license_key", SECRET),
	S_("hmac_key", SECRET),
	S_("shared_key", SECRET), /* pre_shared_key */
	S_("subscription_key", SECRET), /* Ocp-Apim-Subscription-Key */
	S_("functions_key", SECRET), /* x-functions-key */
	S_("service_role_key", SECRET), /* Supabase */
};
#undef S_

/* Last name parts that make a deny-listed name a place or a setting rather
 * than a secret: PASSWORD_FILE, AWS_REGION, SECRET_NAME,
 * SECRET_ROTATION_DAYS. */
static const char *const quiet_tails[] = {
	"file",	    "path",	"dir",	    "name",    "region",   "profile",
	"output",   "pager",	"url",	    "type",    "mode",	   "length",
	"count",    "size",	"version",  "policy",  "days",	   "hours",
	"minutes",  "seconds",	"secs",	    "ms",      "ttl",	   "timeout",
	"interval", "retries",	"attempts", "enabled", "arn",	   "backend",
	"store",    "rotation", "expiry",   "expires", "provider", "format",
};

/* Matches the pattern pat (lower case, '_' an optional separator) at the
 * end of k[0..n), at a name boundary: the start, a separator, or a
 * lower-to-upper case change (dbPassword). */
static bool tail_match(const char *k, size_t n, const char *pat, size_t j)
{
	size_t i = n;

	while (j > 0) {
		char pc = pat[j - 1];

		if (pc == '_') {
			if (i > 0 && is_sep(k[i - 1]))
				i--;
			j--;
			continue;
		}
		if (i == 0 || lower(k[i - 1]) != (unsigned char)pc)
			return false;
		i--;
		j--;
	}
	if (i == 0 || is_sep(k[i - 1]))
		return true;
	return (CL(k[i]) & C_UPPER) && (CL(k[i - 1]) & (C_LOWER | C_DIGIT));
}

#define KEY_NAME_COUNT (sizeof(key_names) / sizeof(key_names[0]))

static unsigned char name_last(size_t i)
{
	return (unsigned char)key_names[i].pat[key_names[i].len - 1];
}

/* The key names' last two letters: by the last, the letters that may
 * come before it (bit 'x' - 'a'). One look rules out nearly every name
 * (test_redact checks it against the table). */
#define LB_(c) (UINT32_C(1) << ((c) - 'a'))
static const uint32_t name_prev_ok[256] = {
	['d'] = LB_('i') | LB_('r') | LB_('w'),
	['e'] = LB_('i') | LB_('s'),
	['g'] = LB_('i'),
	['h'] = LB_('t'),
	['l'] = LB_('a'),
	['n'] = LB_('e') | LB_('o'),
	['r'] = LB_('e'),
	['s'] = LB_('l') | LB_('s'),
	['t'] = LB_('e'),
	['w'] = LB_('p'),
	['y'] = LB_('e'),
};
#undef LB_

/* The kind of the key name k ends with, or NOT_SECRET. */
static enum secret_kind key_name(const char *k, size_t n)
{
	size_t i, lo = 0, hi = KEY_NAME_COUNT, mid;
	unsigned char last, prev;

	if (n < 2)
		return NOT_SECRET;
	last = lower(k[n - 1]);
	prev = lower(k[n - 2]);
	if (prev < 'a' || prev > 'z' ||
	    !(name_prev_ok[last] & (UINT32_C(1) << (prev - 'a'))))
		return NOT_SECRET;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (name_last(mid) < last)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Every row ends in two letters: the second rules out most rows. */
	for (i = lo; i < KEY_NAME_COUNT && name_last(i) == last; i++)
		if ((unsigned char)key_names[i].pat[key_names[i].len - 2] ==
			    prev &&
		    tail_match(k, n, key_names[i].pat, key_names[i].len))
			return (enum secret_kind)key_names[i].kind;
	return NOT_SECRET;
}

/* The environment deny-list: *_API_KEY *_TOKEN *_KEY *SECRET* *PASSWORD*
 * *PASSWD* *CREDENTIAL* AWS_*, case-insensitive, less the quiet tails. */
static bool env_denied(const char *k, size_t n)
{
	size_t i, t;

	if (!(prefix_ci(k, n, "aws_") || suffix_ci(k, n, "_token") ||
	      suffix_ci(k, n, "_key") || contains_ci(k, n, "secret") ||
	      contains_ci(k, n, "password") || contains_ci(k, n, "passwd") ||
	      contains_ci(k, n, "credential")))
		return false;
	t = n;
	while (t > 0 && !is_sep(k[t - 1]))
		t--;
	for (i = 0; i < sizeof(quiet_tails) / sizeof(quiet_tails[0]); i++)
		if (eq_ci(k + t, n - t, quiet_tails[i]))
			return false;
	return true;
}

/* Is k[0..n) a secret key name? any_case: apply the deny-list to names in
 * any case (JSON members, callers' pairs); otherwise only to names written
 * the way environment variables are, in capitals. PWD and OLDPWD are the
 * shell's directories, not passwords. */
static enum secret_kind secret_name(const char *k, size_t n, bool any_case)
{
	size_t i;
	uint16_t seen = 0;
	enum secret_kind name;

	if (n < 2 || (n == 3 && memcmp(k, "PWD", 3) == 0) ||
	    (n == 6 && memcmp(k, "OLDPWD", 6) == 0))
		return NOT_SECRET;
	name = key_name(k, n);
	if (name != NOT_SECRET)
		return name;
	if (!any_case) {
		for (i = 0; i < n && !(seen & C_LOWER); i++)
			seen |= CL(k[i]);
		if ((seen & (C_LOWER | C_UPPER)) != C_UPPER)
			return NOT_SECRET;
	}
	return env_denied(k, n) ? SECRET_ENV : NOT_SECRET;
}

bool redact_is_secret_name(const char *name, size_t len)
{
	return name && secret_name(name, len, true) != NOT_SECRET;
}

/* A value a deny-listed name may hold in the open: a small number is a
 * setting (AWS_MAX_ATTEMPTS=3), not a secret. */
static bool small_number(const char *s, size_t vs, size_t ve)
{
	return ve > vs && ve - vs <= 6 && run_of(s, vs, ve, C_DIGIT) == ve;
}

/* A name that says its value is an AWS secret access key. */
static bool aws_secret_name(const char *k, size_t n)
{
	return (contains_ci(k, n, "aws") && contains_ci(k, n, "secret")) ||
	       contains_ci(k, n, "secret_access_key") ||
	       contains_ci(k, n, "secret-access-key") ||
	       contains_ci(k, n, "secretaccesskey");
}

/* ---- database and other clients --------------------------------------- */

/* How a password option's value reads (also what an argv element after
 * the option holds, argctx.pending). */
enum pend {
	P_NONE,
	P_WHOLE, /* the value is the password */
	P_COLON, /* user:password (curl -u) */
	P_PERCENT, /* user%password (smbclient -U) */
	P_COMMA, /* user,password (lftp -u) */
	P_PASSARG, /* openssl's pass:password; env: file: fd: stdin stay */
};

/* A client's password option: its spelling, how its value reads, and
 * whether the value may be glued to it (-pSECRET) or come as the next
 * word (-p SECRET), or both. */
struct pwopt {
	char opt[16]; /* "" ends a list */
	uint8_t mode; /* enum pend */
	bool glued, next;
};

#define O_(opt, mode, glued, next)                                             \
	{                                                                      \
		opt, mode + TEXT_FITS(opt, 16), glued, next                    \
	}
#define END_                                                                   \
	{                                                                      \
		"", 0, false, false                                            \
	}
/* From each program's manual page. */
static const struct pwopt o_mysql[] = { O_("-p", P_WHOLE, true, false), END_ };
static const struct pwopt o_sshpass[] = { O_("-p", P_WHOLE, true, true), END_ };
static const struct pwopt o_redis[] = { O_("-a", P_WHOLE, false, true), END_ };
static const struct pwopt o_login[] = { O_("-p", P_WHOLE, true, true), END_ };
static const struct pwopt o_curl[] = {
	O_("-u", P_COLON, true, true),
	O_("--user", P_COLON, false, true),
	O_("-U", P_COLON, true, true), /* --proxy-user */
	O_("--proxy-user", P_COLON, false, true),
	END_,
};
static const struct pwopt o_zip[] = { O_("-P", P_WHOLE, false, true), END_ };
static const struct pwopt o_7z[] = { O_("-p", P_WHOLE, true, false), END_ };
static const struct pwopt o_rar[] = {
	O_("-p", P_WHOLE, true, false),
	O_("-hp", P_WHOLE, true, false),
	END_,
};
static const struct pwopt o_keytool[] = {
	O_("-storepass", P_WHOLE, false, true),
	O_("-keypass", P_WHOLE, false, true),
	O_("-srcstorepass", P_WHOLE, false, true),
	O_("-deststorepass", P_WHOLE, false, true),
	O_("-srckeypass", P_WHOLE, false, true),
	O_("-destkeypass", P_WHOLE, false, true),
	O_("-new", P_WHOLE, false, true),
	END_,
};
static const struct pwopt o_openssl[] = {
	O_("-pass", P_PASSARG, false, true),
	O_("-passin", P_PASSARG, false, true),
	O_("-passout", P_PASSARG, false, true),
	O_("-password", P_PASSARG, false, true),
	O_("-k", P_WHOLE, false, true), /* enc -k PASSWORD */
	END_,
};
static const struct pwopt o_smb[] = {
	O_("-U", P_PERCENT, true, true),
	O_("--user", P_PERCENT, false, true),
	END_,
};
static const struct pwopt o_ldap[] = { O_("-w", P_WHOLE, true, true), END_ };
static const struct pwopt o_ldappasswd[] = {
	O_("-w", P_WHOLE, true, true),
	O_("-s", P_WHOLE, true, true), /* the new password */
	O_("-a", P_WHOLE, true, true), /* the old one */
	END_,
};
static const struct pwopt o_mongo[] = { O_("-p", P_WHOLE, false, true), END_ };
static const struct pwopt o_sqlcmd[] = { O_("-P", P_WHOLE, true, true), END_ };
static const struct pwopt o_sshkeygen[] = {
	O_("-N", P_WHOLE, false, true), /* the new passphrase */
	O_("-P", P_WHOLE, false, true), /* the old one */
	END_,
};
static const struct pwopt o_lftp[] = { O_("-u", P_COMMA, false, true), END_ };
static const struct pwopt o_ipmi[] = { O_("-P", P_WHOLE, false, true), END_ };
static const struct pwopt o_snmp[] = {
	O_("-c", P_WHOLE, false, true), /* the community */
	O_("-A", P_WHOLE, false, true), /* v3 auth passphrase */
	O_("-X", P_WHOLE, false, true), /* v3 privacy passphrase */
	END_,
};
static const struct pwopt o_mosquitto[] = { O_("-P", P_WHOLE, false, true),
					    END_ };
static const struct pwopt o_az[] = { O_("-p", P_WHOLE, false, true), END_ };
static const struct pwopt o_rdesktop[] = { O_("-p", P_WHOLE, false, true),
					   END_ };
#undef O_
#undef END_

/* Clients that take a password on their command line. sub: a subcommand
 * that must come first (docker login). Sorted by name: client_index
 * searches it by halves (test_redact checks the order). */
struct client {
	const char *name;
	uint8_t len;
	const char *sub;
	const struct pwopt *opts;
};

#define CLIENT_(name, sub, opts)                                               \
	{                                                                      \
		name, sizeof(name) - 1, sub, opts                              \
	}
static const struct client clients[] = {
	CLIENT_("7z", NULL, o_7z),
	CLIENT_("7za", NULL, o_7z),
	CLIENT_("7zr", NULL, o_7z),
	CLIENT_("7zz", NULL, o_7z),
	CLIENT_("az", "login", o_az),
	CLIENT_("curl", NULL, o_curl),
	CLIENT_("docker", "login", o_login),
	CLIENT_("ipmitool", NULL, o_ipmi),
	CLIENT_("jarsigner", NULL, o_keytool),
	CLIENT_("keytool", NULL, o_keytool),
	CLIENT_("ldapadd", NULL, o_ldap),
	CLIENT_("ldapcompare", NULL, o_ldap),
	CLIENT_("ldapdelete", NULL, o_ldap),
	CLIENT_("ldapexop", NULL, o_ldap),
	CLIENT_("ldapmodify", NULL, o_ldap),
	CLIENT_("ldapmodrdn", NULL, o_ldap),
	CLIENT_("ldappasswd", NULL, o_ldappasswd),
	CLIENT_("ldapsearch", NULL, o_ldap),
	CLIENT_("ldapwhoami", NULL, o_ldap),
	CLIENT_("lftp", NULL, o_lftp),
	CLIENT_("mariadb", NULL, o_mysql),
	CLIENT_("mariadb-admin", NULL, o_mysql),
	CLIENT_("mariadb-dump", NULL, o_mysql),
	CLIENT_("mongo", NULL, o_mongo),
	CLIENT_("mongodump", NULL, o_mongo),
	CLIENT_("mongoexport", NULL, o_mongo),
	CLIENT_("mongofiles", NULL, o_mongo),
	CLIENT_("mongoimport", NULL, o_mongo),
	CLIENT_("mongorestore", NULL, o_mongo),
	CLIENT_("mongosh", NULL, o_mongo),
	CLIENT_("mongostat", NULL, o_mongo),
	CLIENT_("mongotop", NULL, o_mongo),
	CLIENT_("mosquitto_pub", NULL, o_mosquitto),
	CLIENT_("mosquitto_sub", NULL, o_mosquitto),
	CLIENT_("mysql", NULL, o_mysql),
	CLIENT_("mysqladmin", NULL, o_mysql),
	CLIENT_("mysqlcheck", NULL, o_mysql),
	CLIENT_("mysqldump", NULL, o_mysql),
	CLIENT_("mysqlimport", NULL, o_mysql),
	CLIENT_("mysqlshow", NULL, o_mysql),
	CLIENT_("mysqlslap", NULL, o_mysql),
	CLIENT_("nerdctl", "login", o_login),
	CLIENT_("openssl", NULL, o_openssl),
	CLIENT_("podman", "login", o_login),
	CLIENT_("rar", NULL, o_rar),
	CLIENT_("rdesktop", NULL, o_rdesktop),
	CLIENT_("redis-cli", NULL, o_redis),
	CLIENT_("rpcclient", NULL, o_smb),
	CLIENT_("smbcacls", NULL, o_smb),
	CLIENT_("smbclient", NULL, o_smb),
	CLIENT_("smbget", NULL, o_smb),
	CLIENT_("snmpbulkwalk", NULL, o_snmp),
	CLIENT_("snmpget", NULL, o_snmp),
	CLIENT_("snmpset", NULL, o_snmp),
	CLIENT_("snmpwalk", NULL, o_snmp),
	CLIENT_("sqlcmd", NULL, o_sqlcmd),
	CLIENT_("ssh-keygen", NULL, o_sshkeygen),
	CLIENT_("sshpass", NULL, o_sshpass),
	CLIENT_("unrar", NULL, o_rar),
	CLIENT_("unzip", NULL, o_zip),
	CLIENT_("zip", NULL, o_zip),
};
#undef CLIENT_
#define CLIENT_COUNT (sizeof(clients) / sizeof(clients[0]))

static int name_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i, m = an < bn ? an : bn;

	/* Inline: most words differ from a row at the first byte. */
	for (i = 0; i < m; i++)
		if (a[i] != b[i])
			return (unsigned char)a[i] < (unsigned char)b[i] ? -1 :
									   1;
	return (an > bn) - (an < bn);
}

/* The clients' names' second letters by their first (bit 'x' - 'a'): two
 * looks rule out most words (test_redact checks it against the table). */
#define CB_(c) (UINT32_C(1) << ((c) - 'a'))
static const uint32_t client_second[256] = {
	['7'] = CB_('z'),
	['a'] = CB_('z'),
	['c'] = CB_('u'),
	['d'] = CB_('o'),
	['i'] = CB_('p'),
	['j'] = CB_('a'),
	['k'] = CB_('e'),
	['l'] = CB_('d') | CB_('f'),
	['m'] = CB_('a') | CB_('o') | CB_('y'),
	['n'] = CB_('e'),
	['o'] = CB_('p'),
	['p'] = CB_('o'),
	['r'] = CB_('a') | CB_('d') | CB_('e') | CB_('p'),
	['s'] = CB_('m') | CB_('n') | CB_('q') | CB_('s'),
	['u'] = CB_('n'),
	['z'] = CB_('i'),
};
#undef CB_

/* Could a client's name start with the bytes a, b? */
static inline bool client_start(char a, char b)
{
	unsigned char c = (unsigned char)b;

	return c >= 'a' && c <= 'z' &&
	       (client_second[(unsigned char)a] & (UINT32_C(1) << (c - 'a')));
}

/* The client named s[0..n), or -1. */
static int client_index(const char *s, size_t n)
{
	size_t lo = 0, hi = CLIENT_COUNT, mid;
	int c;

	if (n < 2 || n > 13 || !client_start(s[0], s[1]))
		return -1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = name_cmp(s, n, clients[mid].name, clients[mid].len);
		if (c == 0)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* ---- the scanner's state ----------------------------------------------- */

/* What a line (or an argv element) says about the words after it. */
struct argctx {
	int client; /* index in clients, -1: none */
	bool client_sub; /* its subcommand was seen */
	enum pend pending; /* argv: the next element is a flag's value */
};

enum { SP_DROP = 1, SP_BARE = 2 };

struct span {
	size_t s, e;
	uint8_t kind;
	uint8_t flags;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

struct scan {
	const char *s; /* the line */
	size_t n; /* its length, without the '\n' */
	struct spans sp; /* what to replace, in order */
	struct spans aws; /* 40-byte words waiting for an AWS key id */
	bool aws_id; /* an AWS key id is on this line */
	bool argv; /* the text is one element of an argv array */
	bool nomem;
	bool end_known; /* the "-----END" search cache */
	size_t end_from, end_at;
	bool pipe_known; /* the next-pipe cache (stdin_reader_after) */
	bool pipe_reads; /* what follows that pipe reads a password */
	size_t pipe_from, pipe_at;
	bool netrc; /* the line starts "machine" or "default" */
	bool quiet; /* in a public PEM body: no bare-token guesses */
	unsigned depth; /* base64 decoded and scanned again this often */
	struct argctx ctx;
	struct redact_state *st;
};

static void ctx_reset(struct argctx *c)
{
	c->client = -1;
	c->client_sub = false;
	c->pending = P_NONE;
}

static void push(struct scan *sc, struct spans *l, size_t s, size_t e, int kind,
		 uint8_t flags)
{
	struct span *v;
	size_t cap;

	if (e <= s || kind == K_PUBLIC)
		return;
	/* Rules consume what they replace, so spans come in order; keep it
	 * so even if one day a rule does not. */
	if (l->n && s < l->v[l->n - 1].e) {
		if (e <= l->v[l->n - 1].e)
			return;
		s = l->v[l->n - 1].e;
	}
	if (l->n == l->cap) {
		cap = l->cap ? l->cap * 2 : 16;
		if (cap > SIZE_MAX / sizeof(*v)) {
			sc->nomem = true;
			return;
		}
		v = cordon__realloc(l->v, cap * sizeof(*v));
		if (!v) {
			sc->nomem = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].s = s;
	l->v[l->n].e = e;
	l->v[l->n].kind = (uint8_t)kind;
	l->v[l->n].flags = flags;
	l->n++;
}

/* ---- known token formats ----------------------------------------------- */

/* What a token's body may hold after its prefix. */
enum body {
	B_ALNUM, /* A-Z a-z 0-9 */
	B_ALNUM_US, /* and '_' */
	B_HEX, /* 0-9 a-f A-F */
	B_UPDIG, /* A-Z 0-9 */
	B_LOWDIG, /* a-z 0-9 */
	B_URL64, /* base64url: alnum _ - */
	B_KEY, /* alnum _ - . */
	B_DASHED, /* alnum - */
	B_B64, /* standard base64 and its padding: alnum + / = */
	B_B64URL, /* both alphabets and padding: alnum + / _ - = */
};

/* A shape a body must also have, beyond its length. */
enum check {
	CK_NONE,
	CK_MIXED, /* letters and digits */
	CK_MIXED3, /* capitals, small letters and digits */
	CK_JWT, /* eyJ…, three base64url parts */
	CK_TELEGRAM, /* 8-10 digits ':' 35 base64url */
	CK_SENDGRID, /* SG. 22 '.' 43 */
	CK_DISCORD, /* 23-28 '.' 6 '.' 27-40, base64url */
};

/* A provider's published token format: a fixed prefix, then a body of
 * min..max bytes of one class (max 0: no bound). A token ends at a word
 * boundary: the byte after it is no letter or digit. Written from the
 * providers' documentation of their token prefixes (GitHub, GitLab,
 * Slack, Stripe, HashiCorp, Databricks, npm, PyPI, Docker, Hugging Face,
 * Shopify, DigitalOcean, Grafana, Atlassian, Heroku …). A body that can
 * run past a key run's bytes (B_B64: '+' '/' '=') has no max: the token
 * takes all of it, so the walk never reads it again from a later key run
 * (a max would make every prefix inside a long run read max bytes). */
struct fmt {
	char prefix[22]; /* the longest, X's 21 A's, and its NUL */
	uint8_t plen;
	uint8_t kind;
	uint8_t body;
	uint8_t check;
	uint16_t min, max;
};

#define F_(p, kind, body, check, min, max)                                     \
	{                                                                      \
		p, sizeof(p) - 1 + TEXT_FITS(p, 22), K_##kind, body, check,    \
			min, max                                               \
	}

/* The rows by the first byte of their prefix (fmt_by_first), sorted by
 * the second (known_format searches by halves; test_redact checks the
 * order); among rows of the same two bytes the longer or stricter prefix
 * goes first. */
static const struct fmt fmt_1[] = {
	F_("1//0", GOOGLE_OAUTH, B_URL64, CK_NONE, 40, 0), /* refresh */
	F_("", TELEGRAM, B_ALNUM, CK_TELEGRAM, 0, 0),
};
static const struct fmt fmt_digit[] = {
	F_("", TELEGRAM, B_ALNUM, CK_TELEGRAM, 0, 0),
};
static const struct fmt fmt_A[] = {
	F_("AAAAAAAAAAAAAAAAAAAAA", TOKEN, B_URL64, CK_NONE, 30, 0), /* X */
	F_("AGE-SECRET-KEY-1", TOKEN, B_UPDIG, CK_NONE, 58, 58), /* age */
	F_("AIza", GOOGLE, B_URL64, CK_NONE, 35, 0),
	F_("AKIA", AWS_ID, B_UPDIG, CK_NONE, 16, 16),
	F_("AKCp", TOKEN, B_ALNUM, CK_NONE, 69, 69), /* Artifactory */
	F_("ASIA", AWS_ID, B_UPDIG, CK_NONE, 16, 16),
	F_("ATATT3", ATLASSIAN, B_B64URL, CK_NONE, 100, 0),
	F_("ATCTT3", ATLASSIAN, B_B64URL, CK_NONE, 100, 0),
	F_("ATBB", ATLASSIAN, B_ALNUM, CK_NONE, 28, 0), /* Bitbucket */
};
static const struct fmt fmt_C[] = {
	F_("CCIPAT_", TOKEN, B_URL64, CK_NONE, 30, 0), /* CircleCI */
	F_("CLOJARS_", TOKEN, B_ALNUM, CK_NONE, 60, 60),
};
static const struct fmt fmt_E[] = {
	F_("EAAA", TOKEN, B_URL64, CK_MIXED, 60, 0), /* Square */
	F_("EAA", TOKEN, B_ALNUM, CK_MIXED, 80, 0), /* Meta access token */
};
static const struct fmt fmt_G[] = {
	F_("GOCSPX-", GOOGLE_OAUTH, B_URL64, CK_NONE, 24, 0), /* secret */
	F_("GR1348941", GITLAB_OTHER, B_URL64, CK_NONE, 20, 0), /* runner */
};
static const struct fmt fmt_H[] = {
	F_("HRKU-", HEROKU, B_URL64, CK_NONE, 30, 0),
};
static const struct fmt fmt_L[] = {
	F_("LTAI", TOKEN, B_ALNUM, CK_MIXED, 20, 24), /* Alibaba key id */
};
static const struct fmt fmt_MNO[] = {
	F_("", DISCORD, B_URL64, CK_DISCORD, 0, 0), /* bot token */
};
static const struct fmt fmt_N[] = {
	F_("NRAK-", TOKEN, B_UPDIG, CK_NONE, 27, 27), /* New Relic */
	F_("NRII-", TOKEN, B_URL64, CK_NONE, 32, 32),
	F_("NRJS-", TOKEN, B_HEX, CK_NONE, 19, 19),
	F_("", DISCORD, B_URL64, CK_DISCORD, 0, 0),
};
static const struct fmt fmt_P[] = {
	F_("PMAK-", TOKEN, B_DASHED, CK_NONE, 40, 0), /* Postman */
};
static const struct fmt fmt_S[] = {
	F_("SG.", SENDGRID, B_URL64, CK_SENDGRID, 22, 22),
	F_("SK", TWILIO, B_HEX, CK_NONE, 32, 32), /* API key */
};
static const struct fmt fmt_a[] = {
	F_("api_org_", HUGGINGFACE, B_ALNUM, CK_NONE, 30, 0),
};
static const struct fmt fmt_b[] = {
	F_("b.", VAULT, B_ALNUM, CK_MIXED3, 24, 24), /* batch, legacy */
	F_("bkua_", TOKEN, B_HEX, CK_NONE, 40, 40), /* Buildkite */
	F_("bot", TELEGRAM, B_ALNUM, CK_TELEGRAM, 0, 0), /* in a path */
};
static const struct fmt fmt_c[] = {
	F_("cmVmdGtu", TOKEN, B_ALNUM, CK_NONE, 56, 0), /* Artifactory */
};
static const struct fmt fmt_d[] = {
	F_("dapi", DATABRICKS, B_HEX, CK_NONE, 32, 32),
	F_("dckr_pat_", DOCKER, B_URL64, CK_NONE, 20, 0),
	F_("dckr_oat_", DOCKER, B_URL64, CK_NONE, 20, 0),
	F_("dop_v1_", DIGITALOCEAN, B_HEX, CK_NONE, 64, 64),
	F_("doo_v1_", DIGITALOCEAN, B_HEX, CK_NONE, 64, 64),
	F_("dor_v1_", DIGITALOCEAN, B_HEX, CK_NONE, 64, 64),
	F_("dp.pt.", TOKEN, B_ALNUM, CK_NONE, 40, 0), /* Doppler */
	F_("dp.st.", TOKEN, B_KEY, CK_NONE, 40, 0),
	F_("dp.sa.", TOKEN, B_ALNUM, CK_NONE, 40, 0),
	F_("dp.ct.", TOKEN, B_ALNUM, CK_NONE, 40, 0),
	F_("dt0c01.", TOKEN, B_KEY, CK_NONE, 80, 0), /* Dynatrace */
};
static const struct fmt fmt_e[] = {
	F_("eyJ", JWT, B_URL64, CK_JWT, 0, 0),
	F_("eyJrIjoi", GRAFANA, B_B64, CK_NONE, 40, 0), /* {"k":" */
};
static const struct fmt fmt_f[] = {
	F_("figd_", TOKEN, B_URL64, CK_NONE, 40, 0), /* Figma */
	F_("fm2_", TOKEN, B_B64URL, CK_NONE, 50, 0),
	F_("fo1_", TOKEN, B_URL64, CK_NONE, 40, 0), /* Fly.io */
};
static const struct fmt fmt_g[] = {
	F_("ghp_", GITHUB, B_ALNUM, CK_NONE, 30, 0),
	F_("gho_", GITHUB, B_ALNUM, CK_NONE, 30, 0),
	F_("ghu_", GITHUB, B_ALNUM, CK_NONE, 30, 0),
	F_("ghs_", GITHUB, B_ALNUM, CK_NONE, 30, 0),
	F_("ghr_", GITHUB, B_ALNUM, CK_NONE, 30, 0),
	F_("github_pat_", GITHUB, B_ALNUM_US, CK_NONE, 30, 0),
	/* GitLab: glpat- and the routable form glpat-….01.crc32. */
	F_("glpat-", GITLAB, B_KEY, CK_NONE, 20, 0),
	F_("gldt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* deploy */
	F_("glrt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* runner */
	F_("glrtr-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0),
	F_("glptt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* trigger */
	F_("glsoat-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* SCIM */
	F_("glcbt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* CI job */
	F_("glft-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* feed */
	F_("glimt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* mail */
	F_("gloas-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0), /* OAuth */
	F_("glagent-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0),
	F_("glffct-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0),
	F_("glwt-", GITLAB_OTHER, B_KEY, CK_NONE, 20, 0),
	F_("glsa_", GRAFANA, B_ALNUM_US, CK_NONE, 41, 41), /* service acct */
	F_("glc_", GRAFANA, B_B64, CK_NONE, 32, 0), /* Grafana Cloud */
	F_("gsk_", TOKEN, B_ALNUM, CK_NONE, 50, 0), /* Groq */
};
static const struct fmt fmt_h[] = {
	F_("hf_", HUGGINGFACE, B_ALNUM, CK_NONE, 30, 0),
	F_("hvs.", VAULT, B_URL64, CK_NONE, 24, 0),
	F_("hvb.", VAULT, B_URL64, CK_NONE, 24, 0),
	F_("hvr.", VAULT, B_URL64, CK_NONE, 24, 0),
};
static const struct fmt fmt_k[] = {
	F_("key-", MAILGUN, B_HEX, CK_NONE, 32, 32),
};
static const struct fmt fmt_l[] = {
	F_("lin_api_", TOKEN, B_ALNUM, CK_NONE, 40, 0), /* Linear */
};
static const struct fmt fmt_n[] = {
	F_("nfp_", TOKEN, B_ALNUM, CK_NONE, 36, 0), /* Netlify */
	F_("npm_", NPM, B_ALNUM, CK_NONE, 36, 36),
	F_("ntn_", TOKEN, B_ALNUM, CK_NONE, 40, 0), /* Notion */
};
static const struct fmt fmt_o[] = {
	F_("ops_eyJ", TOKEN, B_B64URL, CK_NONE, 50, 0), /* 1Password */
	F_("oy2", TOKEN, B_LOWDIG, CK_NONE, 43, 43), /* NuGet */
};
static const struct fmt fmt_p[] = {
	/* Publishable keys are public by design: kept whole. */
	F_("pk_live_", PUBLIC, B_ALNUM, CK_NONE, 10, 0), /* Stripe */
	F_("pk_test_", PUBLIC, B_ALNUM, CK_NONE, 10, 0),
	F_("pk.eyJ", PUBLIC, B_KEY, CK_NONE, 50, 0), /* Mapbox */
	F_("pplx-", TOKEN, B_ALNUM, CK_NONE, 40, 0), /* Perplexity */
	F_("pscale_", TOKEN, B_URL64, CK_NONE, 32, 0), /* PlanetScale */
	F_("pul-", TOKEN, B_HEX, CK_NONE, 40, 40), /* Pulumi */
	F_("pypi-AgE", PYPI, B_URL64, CK_NONE, 50, 0),
};
static const struct fmt fmt_r[] = {
	F_("r8_", TOKEN, B_ALNUM, CK_NONE, 30, 0), /* Replicate */
	F_("rk_live_", STRIPE, B_ALNUM, CK_NONE, 10, 0),
	F_("rk_test_", STRIPE, B_ALNUM, CK_NONE, 10, 0),
	F_("rubygems_", TOKEN, B_HEX, CK_NONE, 48, 48),
};
static const struct fmt fmt_s[] = {
	F_("s.", VAULT, B_ALNUM, CK_MIXED3, 24, 24), /* service, legacy */
	F_("sbp_", TOKEN, B_HEX, CK_NONE, 40, 40), /* Supabase */
	F_("sb_secret_", TOKEN, B_URL64, CK_NONE, 20, 0),
	F_("sb_publishable_", PUBLIC, B_URL64, CK_NONE, 20, 0),
	F_("secret_", TOKEN, B_ALNUM, CK_MIXED3, 43, 43), /* Notion */
	F_("shpat_", SHOPIFY, B_HEX, CK_NONE, 32, 32),
	F_("shpca_", SHOPIFY, B_HEX, CK_NONE, 32, 32),
	F_("shppa_", SHOPIFY, B_HEX, CK_NONE, 32, 32),
	F_("shpss_", SHOPIFY, B_HEX, CK_NONE, 32, 32),
	F_("shippo_live_", TOKEN, B_HEX, CK_NONE, 40, 40),
	F_("shippo_test_", TOKEN, B_HEX, CK_NONE, 40, 40),
	F_("sk_live_", STRIPE, B_ALNUM, CK_NONE, 10, 0),
	F_("sk_test_", STRIPE, B_ALNUM, CK_NONE, 10, 0),
	F_("sk-ant-", ANTHROPIC, B_URL64, CK_NONE, 20, 0),
	/* sk-learn and other words: a key has digits among its letters. */
	F_("sk-", OPENAI, B_URL64, CK_MIXED, 20, 0),
	F_("sk.eyJ", TOKEN, B_KEY, CK_NONE, 50, 0), /* Mapbox secret */
	F_("sntrys_", TOKEN, B_B64URL, CK_NONE, 40, 0), /* Sentry */
	F_("sntryu_", TOKEN, B_HEX, CK_NONE, 64, 64),
	F_("sq0atp-", TOKEN, B_URL64, CK_NONE, 22, 0), /* Square */
	F_("sq0csp-", TOKEN, B_URL64, CK_NONE, 40, 0),
	F_("squ_", TOKEN, B_HEX, CK_NONE, 40, 40), /* SonarQube */
	F_("sqp_", TOKEN, B_HEX, CK_NONE, 40, 40),
	F_("sqa_", TOKEN, B_HEX, CK_NONE, 40, 40),
};
static const struct fmt fmt_t[] = {
	F_("tskey-", TOKEN, B_DASHED, CK_MIXED, 20, 0), /* Tailscale */
};
static const struct fmt fmt_w[] = {
	F_("whsec_", STRIPE, B_B64, CK_NONE, 24, 0), /* webhook secret */
};
static const struct fmt fmt_x[] = {
	F_("xapp-", SLACK, B_DASHED, CK_NONE, 10, 0), /* app-level */
	F_("xai-", TOKEN, B_ALNUM, CK_NONE, 70, 0), /* xAI */
	F_("xoxe.xoxp-", SLACK, B_DASHED, CK_NONE, 10, 0), /* rotating */
	F_("xoxe.xoxb-", SLACK, B_DASHED, CK_NONE, 10, 0),
	F_("xoxa-", SLACK, B_DASHED, CK_NONE, 10, 0),
	F_("xoxb-", SLACK, B_DASHED, CK_NONE, 10, 0), /* bot */
	F_("xoxc-", SLACK, B_DASHED, CK_NONE, 10, 0), /* session */
	F_("xoxd-", SLACK, B_DASHED, CK_NONE, 10, 0),
	F_("xoxe-", SLACK, B_DASHED, CK_NONE, 10, 0), /* refresh, config */
	F_("xoxo-", SLACK, B_DASHED, CK_NONE, 10, 0),
	F_("xoxp-", SLACK, B_DASHED, CK_NONE, 10, 0), /* user */
	F_("xoxr-", SLACK, B_DASHED, CK_NONE, 10, 0),
	F_("xoxs-", SLACK, B_DASHED, CK_NONE, 10, 0),
};
static const struct fmt fmt_y[] = {
	F_("ya29.", GOOGLE_OAUTH, B_KEY, CK_NONE, 20, 0), /* access */
};
#undef F_

struct fmt_group {
	const struct fmt *v;
	uint8_t n;
	/* The second bytes of the rows' prefixes ("": a row has none), one
	 * look that rules out most words (test_redact checks them). */
	char second[8];
};

/* The bytes a prefix can start with: fmt_by_first holds a group for each
 * byte from '0' to 'z' (most of them empty), fmt_group_of() for any. */
#define FMT_FIRST_LO '0'
#define FMT_FIRST_HI 'z'

#define G_(c, a, second)                                                       \
	[(c)-FMT_FIRST_LO] = {                                                 \
		a, sizeof(a) / sizeof(a[0]) + TEXT_FITS(second, 8), second     \
	}
static const struct fmt_group fmt_by_first[FMT_FIRST_HI - FMT_FIRST_LO + 1] = {
	G_('1', fmt_1, ""),	   G_('2', fmt_digit, ""),
	G_('3', fmt_digit, ""),	   G_('4', fmt_digit, ""),
	G_('5', fmt_digit, ""),	   G_('6', fmt_digit, ""),
	G_('7', fmt_digit, ""),	   G_('8', fmt_digit, ""),
	G_('9', fmt_digit, ""),	   G_('A', fmt_A, "AGIKST"),
	G_('C', fmt_C, "CL"),	   G_('E', fmt_E, "A"),
	G_('G', fmt_G, "OR"),	   G_('H', fmt_H, "R"),
	G_('L', fmt_L, "T"),	   G_('M', fmt_MNO, ""),
	G_('N', fmt_N, ""),	   G_('O', fmt_MNO, ""),
	G_('P', fmt_P, "M"),	   G_('S', fmt_S, "GK"),
	G_('a', fmt_a, "p"),	   G_('b', fmt_b, ".ko"),
	G_('c', fmt_c, "m"),	   G_('d', fmt_d, "acopt"),
	G_('e', fmt_e, "y"),	   G_('f', fmt_f, "imo"),
	G_('g', fmt_g, "hils"),	   G_('h', fmt_h, "fv"),
	G_('k', fmt_k, "e"),	   G_('l', fmt_l, "i"),
	G_('n', fmt_n, "fpt"),	   G_('o', fmt_o, "py"),
	G_('p', fmt_p, "kpsuy"),   G_('r', fmt_r, "8ku"),
	G_('s', fmt_s, ".behknq"), G_('t', fmt_t, "s"),
	G_('w', fmt_w, "h"),	   G_('x', fmt_x, "ao"),
	G_('y', fmt_y, "a"),
};
#undef G_

static const struct fmt_group *fmt_group_of(unsigned char c)
{
	static const struct fmt_group none;

	if (c < FMT_FIRST_LO || c > FMT_FIRST_HI)
		return &none;
	return &fmt_by_first[c - FMT_FIRST_LO];
}

static bool body_byte(enum body b, char c)
{
	uint16_t k = CL(c);

	switch (b) {
	case B_ALNUM:
		return k & C_ALNUM;
	case B_ALNUM_US:
		return (k & C_ALNUM) || c == '_';
	case B_HEX:
		return k & C_HEX;
	case B_UPDIG:
		return k & (C_UPPER | C_DIGIT);
	case B_LOWDIG:
		return k & (C_LOWER | C_DIGIT);
	case B_URL64:
		return k & C_URL64;
	case B_KEY:
		return k & C_KEY;
	case B_DASHED:
		return (k & C_ALNUM) || c == '-';
	case B_B64:
		return (k & C_B64) || c == '=';
	case B_B64URL:
		return (k & (C_B64 | C_URL64)) || c == '=';
	}
	return false;
}

/* The end of the run of body bytes from i, reading no more than cap. */
static size_t body_run(enum body b, const char *s, size_t i, size_t n,
		       size_t cap)
{
	size_t lim = cap && n - i > cap ? i + cap : n;

	while (i < lim && body_byte(b, s[i]))
		i++;
	return i;
}

static bool mixed(const char *s, size_t a, size_t b, uint16_t need)
{
	uint16_t seen = 0;

	for (; a < b && (seen & need) != need; a++)
		seen |= CL(s[a]);
	return (seen & need) == need;
}

/* The end of a run of url64 bytes from i of min..max bytes followed by
 * the byte c (c 0: followed by no url64 byte), or NONE. */
static size_t part(const char *s, size_t i, size_t n, size_t min, size_t max,
		   char c)
{
	size_t e = body_run(B_URL64, s, i, n, max + 1);

	if (e - i < min || e - i > max)
		return NONE;
	if (c)
		return e < n && s[e] == c ? e + 1 : NONE;
	return e;
}

/* The shapes a table row cannot say: the end of the token whose body
 * starts at b (after the prefix at p), or NONE. */
static size_t check_shape(const struct fmt *f, const char *s, size_t p,
			  size_t b, size_t n)
{
	size_t e, d;

	switch (f->check) {
	case CK_JWT:
		e = run_of(s, p, n, C_URL64);
		if (e - p < 10 || e >= n || s[e] != '.')
			return NONE;
		d = run_of(s, e + 1, n, C_URL64);
		if (d - e - 1 < 10 || d >= n || s[d] != '.')
			return NONE;
		return run_of(s, d + 1, n, C_URL64);
	case CK_TELEGRAM:
		/* The bot's id, ':', and 35 base64url bytes. */
		d = b;
		while (d < n && d - b <= 10 && (CL(s[d]) & C_DIGIT))
			d++;
		if (d - b < 8 || d - b > 10 || d >= n || s[d] != ':')
			return NONE;
		return part(s, d + 1, n, 35, 35, 0);
	case CK_SENDGRID:
		e = part(s, b, n, 22, 22, '.');
		return e == NONE ? NONE : part(s, e, n, 43, 43, 0);
	case CK_DISCORD:
		/* base64 of the bot's id, a timestamp, an HMAC. */
		e = part(s, b, n, 23, 28, '.');
		if (e == NONE || !mixed(s, b, e - 1, C_UPPER | C_DIGIT))
			return NONE;
		e = part(s, e, n, 6, 6, '.');
		return e == NONE ? NONE : part(s, e, n, 27, 40, 0);
	default:
		return NONE;
	}
}

/* The shortest token of any row (xoxb- and 10): test_redact checks every
 * row against it. */
#define TOKEN_MIN_LEN 15

/* Can a known format start at s[p]? The first two bytes decide for
 * nearly every word, without a call. */
static inline bool fmt_may_start(const char *s, size_t p, size_t n)
{
	const struct fmt_group *g = fmt_group_of((unsigned char)s[p]);
	const char *c;

	if (!g->n)
		return false;
	if (!g->second[0])
		return true;
	if (n - p < 2)
		return false;
	for (c = g->second; *c; c++)
		if (*c == s[p + 1])
			return true;
	return false;
}

/* The known format starting at s[p] (a key-run start, so a word
 * boundary), scanning no further than n: its kind with *te its end, or
 * -1. */
static int known_format(const char *s, size_t p, size_t n, size_t *te)
{
	const struct fmt_group *g;
	const struct fmt *f;
	size_t i, b, e, cap;

	if (p >= n)
		return -1;
	g = fmt_group_of((unsigned char)s[p]);
	i = 0;
	if (g->second[0]) {
		/* Rows sorted by their second byte: the first with s[p+1]. */
		size_t lo = 0, hi = g->n, mid;

		if (n - p < 2)
			return -1;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if ((unsigned char)g->v[mid].prefix[1] <
			    (unsigned char)s[p + 1])
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	for (; i < g->n; i++) {
		f = &g->v[i];
		if (g->second[0] && f->prefix[1] != s[p + 1])
			break;
		if (n - p < f->plen || memcmp(s + p, f->prefix, f->plen) != 0)
			continue;
		b = p + f->plen;
		if (f->check >= CK_JWT) {
			e = check_shape(f, s, p, b, n);
		} else {
			cap = f->max ? (size_t)f->max + 1 : 0;
			e = body_run((enum body)f->body, s, b, n, cap);
			if (e - b < f->min || (f->max && e - b > f->max))
				e = NONE;
			else if (f->check == CK_MIXED &&
				 (!mixed(s, b, e, C_DIGIT) ||
				  !(mixed(s, b, e, C_UPPER) ||
				    mixed(s, b, e, C_LOWER))))
				e = NONE;
			else if (f->check == CK_MIXED3 &&
				 !mixed(s, b, e, C_UPPER | C_LOWER | C_DIGIT))
				e = NONE;
		}
		if (e == NONE || (e < n && (CL(s[e]) & C_ALNUM)))
			continue;
		*te = e;
		return f->kind;
	}
	return -1;
}

bool redact__tables_ok(void)
{
	size_t c, i;

	for (i = 0; i < KEY_NAME_COUNT; i++) {
		unsigned char pc =
			(unsigned char)key_names[i].pat[key_names[i].len - 2];

		if (key_names[i].len < 2 || pc < 'a' || pc > 'z' ||
		    !(name_prev_ok[name_last(i)] &
		      (UINT32_C(1) << (pc - 'a'))) ||
		    (i > 0 && name_last(i - 1) > name_last(i)))
			return false;
	}
	for (i = 0; i < CLIENT_COUNT; i++)
		if (clients[i].len < 2 ||
		    !client_start(clients[i].name[0], clients[i].name[1]))
			return false;
	for (i = 1; i < CLIENT_COUNT; i++)
		if (name_cmp(clients[i - 1].name, clients[i - 1].len,
			     clients[i].name, clients[i].len) >= 0)
			return false;

	for (c = 0; c < 256; c++)
		for (i = 0; i < fmt_group_of((unsigned char)c)->n; i++) {
			const struct fmt_group *g =
				fmt_group_of((unsigned char)c);
			const struct fmt *f = &g->v[i];

			if (f->plen && (unsigned char)f->prefix[0] != c)
				return false;
			if (f->check < CK_JWT &&
			    (size_t)f->plen + f->min < TOKEN_MIN_LEN)
				return false;
			if (g->second[0] &&
			    (f->plen < 2 || !strchr(g->second, f->prefix[1]) ||
			     (i > 0 && (unsigned char)f[-1].prefix[1] >
					       (unsigned char)f->prefix[1])))
				return false;

			if (!f->plen && f->check < CK_JWT)
				return false;
			if ((f->body == B_B64 || f->body == B_B64URL) && f->max)
				return false;
		}
	return true;
}

/* ---- values ------------------------------------------------------------ */

/* Skips up to three backslashes and a quote at i: a quote, or one escaped
 * inside a JSON string (\" or \\\"). Returns the position after it with
 * *q and *bs set, or i when no quote is there. */
static size_t quote_at(const char *s, size_t i, size_t n, char *q, size_t *bs)
{
	size_t j = i;

	while (j < n && j - i < 3 && s[j] == '\\')
		j++;
	if (j < n && (s[j] == '"' || s[j] == '\'')) {
		*q = s[j];
		*bs = j - i;
		return j + 1;
	}
	return i;
}

/* Where the string opened by quote q (escaped with bs backslashes) that
 * starts at c closes: the position of the closing quote, or n. */
static size_t quoted_end(const char *s, size_t c, size_t n, char q, size_t bs)
{
	const char *p;

	if (q == '"' && bs == 0) {
		while (c < n && s[c] != '"')
			c += s[c] == '\\' ? 2 : 1;
		return c < n ? c : n;
	}
	p = find_byte(s + c, q, n - c);
	return p ? (size_t)(p - s) : n;
}

/* The length of a replacement this scanner writes ("[REDACTED]",
 * "[REDACTED:kind]") at s[i], or 0. A rule that finds one where its value
 * goes has matched, with nothing left to replace: it goes on after it as
 * it did the first time, so redacting twice changes nothing. */
static size_t marker_at(const char *s, size_t i, size_t n)
{
	size_t j;

	if (i >= n || n - i < 10 || s[i] != '[' ||
	    memcmp(s + i, "[REDACTED", 9) != 0)
		return 0;
	if (s[i + 9] == ']')
		return 10;
	if (s[i + 9] != ':')
		return 0;
	for (j = i + 10;
	     j < n && j - i < 40 && ((CL(s[j]) & C_LOWER) || s[j] == '-'); j++)
		;
	return j > i + 10 && j < n && s[j] == ']' ? j + 1 - i : 0;
}

/* A value that references something else ($VAR, ${VAR}, $(cmd), or a
 * $VAR whose name an earlier pass replaced). */
static bool is_reference(const char *s, size_t vs, size_t ve)
{
	return ve - vs > 1 && s[vs] == '$' &&
	       ((CL(s[vs + 1]) & (C_UPPER | C_LOWER)) || s[vs + 1] == '_' ||
		s[vs + 1] == '{' || s[vs + 1] == '(' ||
		marker_at(s, vs + 1, ve));
}

/* Is s[vs..ve) worth replacing? Not empty, not a reference, not a literal
 * (null, true …), not a mask (****). */
static bool value_ok(const char *s, size_t vs, size_t ve)
{
	static const char *const literals[] = {
		"null", "true", "false", "none", "nil", "undefined",
	};
	size_t i, len = ve - vs;

	if (ve <= vs || is_reference(s, vs, ve))
		return false;
	if (len <= 9)
		for (i = 0; i < sizeof(literals) / sizeof(literals[0]); i++)
			if (eq_ci(s + vs, len, literals[i]))
				return false;
	for (i = vs; i < ve; i++)
		if (s[i] != '*')
			return true;
	return false;
}

enum found { V_NONE, V_FOUND, V_DONE };

/* The value at v (after blanks when skip): a quoted string's contents or a
 * bare word up to a stop byte. whole: a bare value must be all there is
 * up to the end of the statement (key = value in an INI file, not const
 * token = await f()). Returns V_NONE when there is none worth replacing,
 * V_DONE for one already replaced (*resume after it), else V_FOUND with
 * [*vs, *ve) and *resume, where the walk goes on. */
static enum found value_at(const char *s, size_t n, size_t v, bool skip,
			   bool whole, size_t *vs, size_t *ve, size_t *resume)
{
	char q = 0;
	size_t bs = 0, c, e, ce, m;

	if (skip)
		while (v < n && (CL(s[v]) & C_SPACE))
			v++;
	if (v >= n)
		return V_NONE;
	c = quote_at(s, v, n, &q, &bs);
	if (c != v) {
		/* Decide on the first bytes before reading to the close. */
		if (c < n && is_reference(s, c, n))
			return V_NONE;
		e = quoted_end(s, c, n, q, bs);
		ce = e;
		if (bs)
			while (ce > c && s[ce - 1] == '\\')
				ce--;
		if (marker_at(s, c, ce) == ce - c && ce > c) {
			*resume = e < n ? e + 1 : n;
			return V_DONE;
		}
		*vs = c;
		*ve = ce;
		*resume = e < n ? e + 1 : n;
		return value_ok(s, c, ce) ? V_FOUND : V_NONE;
	}
	*vs = *ve = v;
	m = marker_at(s, v, n);
	if (m) {
		*resume = v + m;
		return V_DONE;
	}
	if (is_reference(s, v, n))
		return V_NONE;
	e = v;
	while (e < n && !(CL(s[e]) & C_STOP))
		e++;
	/* A replacement right after the word: an earlier pass judged this
	 * stretch (its value, or the token in it); judge it the same way. */
	if (e < n && s[e] == '[' && (m = marker_at(s, e, n)) != 0) {
		*ve = e;
		*resume = e + m;
		return V_DONE;
	}
	/* token=get_token() or key=env["X"]: code, not a value. */
	if (e < n && (s[e] == '(' || s[e] == '['))
		return V_NONE;
	if (whole) {
		c = e;
		while (c < n && (CL(s[c]) & C_SPACE))
			c++;
		if (c < n && !memchr(";,})#", s[c], 5))
			return V_NONE;
	}
	*vs = v;
	*ve = e;
	*resume = e;
	return value_ok(s, v, e) ? V_FOUND : V_NONE;
}

/* The kind of a value: that of a known format it starts with, else
 * generic. An AWS key id also arms the AWS secret rule for the line. */
static int value_kind(struct scan *sc, size_t vs, size_t ve)
{
	size_t te;
	int k = known_format(sc->s, vs, ve, &te);

	if (k < 0)
		return K_GENERIC;
	if (k == K_AWS_ID)
		sc->aws_id = true;
	return k;
}

/* 40 bytes of base64 that could be an AWS secret access key. */
static bool aws_secret_shape(const char *s, size_t a, size_t b)
{
	size_t i;
	bool hex = true, digit = false, upper = false, lower_ = false;
	bool sym = false;

	if (b - a != 40)
		return false;
	for (i = a; i < b; i++) {
		uint16_t k = CL(s[i]);

		if (!(k & C_B64))
			return false;
		hex &= (k & C_HEX) != 0;
		digit |= (k & C_DIGIT) != 0;
		upper |= (k & C_UPPER) != 0;
		lower_ |= (k & C_LOWER) != 0;
		sym |= !(k & C_ALNUM);
	}
	return !hex && (sym || (digit && upper && lower_));
}

/* The kind for a value found after the key k[0..kn). */
static int kind_after_key(struct scan *sc, const char *k, size_t kn, size_t vs,
			  size_t ve)
{
	int kind = value_kind(sc, vs, ve);

	if (kind == K_GENERIC && aws_secret_shape(sc->s, vs, ve) &&
	    aws_secret_name(k, kn))
		kind = K_AWS_SECRET;
	return kind;
}

/* ---- bare opaque tokens ------------------------------------------------ */

/* Is s[a..b) base64 of ordinary text: every decoded byte printable, some
 * spaces, mostly letters? Such a word is data, not a key. */
static bool b64_text(const char *s, size_t a, size_t b)
{
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t i, bytes = 0, spaces = 0, letters = 0;
	int v;
	unsigned char c;

	if ((b - a) % 4 == 1)
		return false;
	for (i = a; i < b; i++) {
		v = text_b64_value((unsigned char)s[i]);
		if (v < 0)
			return false;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits < 8)
			continue;
		bits -= 8;
		c = (unsigned char)(acc >> bits);
		acc &= (1u << bits) - 1;
		if (c == ' ')
			spaces++;
		else if (CL(c) & (C_UPPER | C_LOWER))
			letters++;
		else if ((c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' &&
			 c != '\r')
			return false;
		bytes++;
	}
	return spaces > 0 && letters * 2 >= bytes;
}

/* Does s[a..b), split at '_' and '-', read as an identifier: every part
 * letters, digits, or letters then digits (x86_64, test_case_12)? */
static bool identifier_parts(const char *s, size_t a, size_t b)
{
	size_t i = a, j;

	while (i < b) {
		if (s[i] == '_' || s[i] == '-' || s[i] == '+') {
			i++;
			continue;
		}
		j = run_of(s, i, b, C_UPPER | C_LOWER);
		j = run_of(s, j, b, C_DIGIT);
		if (j < b && s[j] != '_' && s[j] != '-' && s[j] != '+')
			return false;
		i = j;
	}
	return true;
}

/* Is s[a..b) (32 bytes or more of [A-Za-z0-9_+-]) an opaque token? It
 * mixes letters and digits, is not all hex (commit hashes, digests,
 * UUIDs), is not an identifier (test_case_123, someLongName2) and is not
 * base64 of text. */
static bool opaque(const char *s, size_t a, size_t b)
{
	size_t i, letters = 0, digits = 0, druns = 0, runs = 0, run = 0;
	size_t longest = 0;
	bool seps = false;
	uint16_t k, prev = 0, cur;

	for (i = a; i < b && ((CL(s[i]) & C_HEX) || s[i] == '-'); i++)
		;
	if (i == b)
		return false;
	for (i = a; i < b; i++) {
		k = CL(s[i]);
		cur = k & (C_UPPER | C_LOWER | C_DIGIT);
		if (!cur) {
			seps = true;
			prev = 0;
			continue;
		}
		if (cur & C_DIGIT)
			digits++;
		else
			letters++;
		if (cur != prev) {
			runs++;
			druns += (cur & C_DIGIT) != 0;
			run = 1;
		} else {
			run++;
		}
		if (!(cur & C_DIGIT) && run > longest)
			longest = run;
		prev = cur;
	}
	if (!letters || !digits)
		return false;
	if (prefix_ci(s + a, b - a, "sha1-") ||
	    prefix_ci(s + a, b - a, "sha256-") ||
	    prefix_ci(s + a, b - a, "sha384-") ||
	    prefix_ci(s + a, b - a, "sha512-"))
		return false;
	if (seps && identifier_parts(s, a, b))
		return false;
	/* Random base62 changes class every 1.6 bytes on average; names in
	 * camelCase or with a number at the end change far less often. */
	if ((druns < 2 && longest >= 5) || runs * 3 <= letters + digits)
		return false;
	return !b64_text(s, a, b);
}

/* Is the blob at b a digest written after its algorithm's label
 * (go.sum's h1:…, sha256:…, sha512-… in a lock file)? The label is never
 * replaced, but the look back must not read into a replaced span. */
static bool digest_label(const struct scan *sc, size_t b)
{
	static const char *const labels[] = {
		"h1",	  "sha1",     "sha224",	  "sha256",
		"sha384", "sha512",   "md5",	  "blake2b",
		"blake3", "sha3-256", "sha3-512", "sha512_256",
	};
	const char *s = sc->s;
	size_t a, i;

	if (b < 3 || (s[b - 1] != ':' && s[b - 1] != '-'))
		return false;
	for (a = b - 1;
	     a > 0 && b - a < 12 && (CL(s[a - 1]) & C_KEY) && s[a - 1] != '-';
	     a--)
		;
	if (a > 0 && (CL(s[a - 1]) & C_WORD) && s[a - 1] != '/')
		return false;
	if (sc->sp.n && sc->sp.v[sc->sp.n - 1].e > a)
		return false;
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (eq_ci(s + a, b - 1 - a, labels[i]))
			return true;
	return false;
}

static enum cordon_err redact_text_at(struct redact_state *st, const char *text,
				      size_t len, struct buf *out,
				      size_t *count, struct argctx *actx,
				      unsigned depth);

/* Base64 inside base64 (a kubeconfig's data, itself a base64'd PEM) is
 * decoded this deep, no deeper: each level is at most 3/4 of the one
 * above, so the work stays linear. */
#define REDACT_B64_DEPTH 2

/* Are the decoded bytes d[0..n) text, or at least free of control bytes
 * other than line ends and tabs? */
static bool decoded_text(const unsigned char *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((d[i] < 0x20 && d[i] != '\n' && d[i] != '\r' &&
		     d[i] != '\t') ||
		    d[i] == 0x7f)
			return false;
	return true;
}

/* A blob s[b..be) that is base64 (32 bytes or more) decoded and scanned
 * again: a PEM private key (kubeconfig client-key-data) or anything the
 * scanner would replace makes the whole blob a secret. Returns its kind,
 * K_PUBLIC for a certificate or public key (kept whole), or -1. */
static int b64_rule(struct scan *sc, size_t b, size_t be)
{
	const char *s = sc->s;
	struct redact_state st = { 0 };
	struct buf out = BUF_INIT(SIZE_MAX);
	unsigned char small[512], *dec;
	size_t e = be, dn = 0, count = 0, i;
	const char *begin;
	int kind = -1;

	if (sc->depth >= REDACT_B64_DEPTH)
		return -1;
	while (e > b && be - e < 2 && s[e - 1] == '=')
		e--;
	if (e - b < 32 || (e - b) % 4 == 1)
		return -1;
	for (i = b; i < e; i++)
		if (!(CL(s[i]) & C_B64))
			return -1;
	/* Its first 32 characters (24 bytes; no '=' among them) rule out
	 * nearly every random token before the whole is decoded. */
	if (!text_b64_decode(s + b, 32, TEXT_B64_LAX, small, sizeof(small),
			     &dn) ||
	    !decoded_text(small, dn))
		return -1;
	dec = e - b <= sizeof(small) ? small : cordon__malloc(e - b);
	if (!dec) {
		sc->nomem = true;
		return -1;
	}
	if (!text_b64_decode(s + b, e - b, TEXT_B64_LAX, dec, e - b, &dn))
		goto out;
	WORK(dn);
	/* Text or nothing: a random token decodes to bytes that are not
	 * (and hold no secret the scanner could name). */
	if (!decoded_text(dec, dn))
		goto out;
	begin = memmem(dec, dn, "-----BEGIN ", 11);
	if (begin) {
		kind = memmem(begin,
			      dn - (size_t)((const unsigned char *)begin - dec),
			      "PRIVATE KEY", 11) ?
			       K_PEM :
			       K_PUBLIC;
		goto out;
	}
	if (redact_text_at(&st, (const char *)dec, dn, &out, &count, NULL,
			   sc->depth + 1) != CORDON_OK)
		sc->nomem = true;
	else if (count)
		kind = K_B64;
out:
	buf_free(&out);
	if (dec != small)
		free(dec);
	return kind;
}

/* The rules that weigh a blob whole, when no rule started inside it: an
 * AWS secret key next to a key id, a bare opaque token. */
static void blob_rules(struct scan *sc, size_t b, size_t be)
{
	const char *s = sc->s;
	size_t p, q, e;
	bool path = false;
	int kind;

	if (be - b < 32 || sc->quiet)
		return;
	/* Hex and dashes (commit hashes, digests, UUIDs) in one quick look. */
	for (p = b; p < be && ((CL(s[p]) & C_HEX) || s[p] == '-'); p++)
		;
	if (p == be)
		return;
	/* A Mailchimp API key: 32 hex digits, -us and its data center. */
	if (p == b + 33 && s[b + 32] == '-' && be - p >= 3 && be - p <= 4 &&
	    s[p] == 'u' && s[p + 1] == 's' &&
	    run_of(s, p + 2, be, C_DIGIT) == be) {
		push(sc, &sc->sp, b, be, K_MAILCHIMP, 0);
		return;
	}
	kind = b64_rule(sc, b, be);
	if (kind >= 0) {
		push(sc, &sc->sp, b, be, kind, 0);
		return;
	}
	while (p < be && !(CL(s[p]) & C_PATH))
		p++;
	path = p < be;
	if (aws_secret_shape(s, b, be)) {
		bool bare = !path && opaque(s, b, be);

		if (sc->aws_id)
			push(sc, &sc->sp, b, be, K_AWS_SECRET, 0);
		else
			push(sc, &sc->aws, b, be, K_AWS_SECRET,
			     bare ? SP_BARE : 0);
		return;
	}
	if (path || digest_label(sc, b))
		return;
	/* data:…;base64,… is data. The look back must not read text that
	 * is (or may yet be) replaced: redacting the output would then judge
	 * otherwise. */
	if (b >= 7 && memcmp(s + b - 7, "base64,", 7) == 0 &&
	    (sc->sp.n == 0 || sc->sp.v[sc->sp.n - 1].e <= b - 7) &&
	    (sc->aws.n == 0 || sc->aws.v[sc->aws.n - 1].e <= b - 7))
		return;
	/* '=' separates a key from its value, or pads base64 at the end. */
	for (p = b; p < be;) {
		if (s[p] == '=') {
			p++;
			continue;
		}
		q = p;
		while (q < be && s[q] != '=')
			q++;
		e = q;
		while (e < be && s[e] == '=')
			e++;
		if (q - p >= 32 && opaque(s, p, q))
			push(sc, &sc->sp, p, e == be ? be : q, K_GENERIC, 0);
		p = e;
	}
}

/* The user of user:password at s[u..colon): a token used as the user
 * goes too (https://ghp_…:x-oauth-basic@github.com). Returns whether a
 * span was pushed. */
static bool user_part(struct scan *sc, size_t u, size_t colon)
{
	const char *s = sc->s;
	size_t te;
	int kind = known_format(s, u, colon, &te);

	if (kind >= 0) {
		push(sc, &sc->sp, u, te, kind, 0);
		return true;
	}
	if (colon - u >= 32 && run_of(s, u, colon, C_URL64 | C_B64) == colon &&
	    opaque(s, u, colon)) {
		push(sc, &sc->sp, u, colon, K_GENERIC, 0);
		return true;
	}
	return false;
}

/* ---- the rules that start at a key run --------------------------------- */

/* "-----END" at or after from on the line, or NONE. The answer is kept:
 * the first END at or after end_from is end_at, so a later search from
 * up to end_at needs no new pass (many BEGIN headers on one line). */
static size_t find_end(struct scan *sc, size_t from)
{
	const char *p;

	if (sc->end_known && from >= sc->end_from &&
	    (sc->end_at == NONE || from <= sc->end_at))
		return sc->end_at;
	p = from < sc->n ? find_str(sc->s + from, sc->n - from, "-----END", 8) :
			   NULL;
	sc->end_known = true;
	sc->end_from = from;
	sc->end_at = p ? (size_t)(p - sc->s) : NONE;
	return sc->end_at;
}

/* The end of the "-----END …-----" line that starts at e. The walk
 * resumes after it: the END line is never replaced, so the block it
 * closes is found the same way when the output is redacted again. */
static size_t end_label(const char *s, size_t e, size_t n)
{
	e += 8;
	while (e < n && ((CL(s[e]) & (C_UPPER | C_DIGIT)) || s[e] == ' '))
		e++;
	if (n - e >= 5 && memcmp(s + e, "-----", 5) == 0)
		e += 5;
	return e;
}

/* Bytes a private key written on one line can hold (its body in base64,
 * the \n escapes of a JSON string, Proc-Type and DEK-Info headers). */
static bool pem_inline_byte(char c)
{
	return (CL(c) & (C_B64 | C_SPACE)) || c == '\\' || c == ':' ||
	       c == ',' || c == '-' || c == '=';
}

/* After the header of a PEM block that is not a private key (a
 * certificate, a public key, a CRL, a request) at h: its body is public.
 * The rest of the line (up to an END), and the body lines after it
 * (redact_state.in_public), are scanned quietly: the rules that name a
 * secret still apply, the bare-token and base64 guesses do not. Returns
 * where the walk resumes. */
static size_t public_pem(struct scan *sc, size_t h)
{
	if (blank(sc->s, h, sc->n))
		sc->st->in_public = true;
	else
		sc->quiet = true;
	return h;
}

/* After "-----BEGIN " at l: a private-key header? Then the key up to its
 * END on this line, or to the line's end (the block goes on: PEM state).
 * Returns where the walk resumes, 0 when this is not a private key. */
static size_t pem_rule(struct scan *sc, size_t l)
{
	const char *s = sc->s;
	size_t n = sc->n, le, h, e, q;

	le = l;
	while (le < n && ((CL(s[le]) & (C_UPPER | C_DIGIT)) || s[le] == ' '))
		le++;
	if (le == l || n - le < 5 || memcmp(s + le, "-----", 5) != 0)
		return 0;
	if (!find_str(s + l, le - l, "PRIVATE KEY", 11))
		return public_pem(sc, le + 5);
	h = le + 5;
	e = find_end(sc, h);
	if (e != NONE) {
		if (!blank(s, h, e))
			push(sc, &sc->sp, h, e, K_PEM, 0);
		return end_label(s, e, n);
	}
	q = h;
	while (q < n && pem_inline_byte(s[q]))
		q++;
	if (q < n) {
		/* A quote or the like ends it: a key cut short in a string,
		 * or only the header mentioned (echo "-----BEGIN …"). A word
		 * it stopped inside is left whole to the other rules (a
		 * token's prefix must not go while its body stays), and so
		 * is one cut short by a replacement. */
		if ((CL(s[q]) & C_WORD) || marker_at(s, q, n))
			while (q > h && (CL(s[q - 1]) & C_WORD))
				q--;
		if (!blank(s, h, q))
			push(sc, &sc->sp, h, q, K_PEM, 0);
		return q;
	}
	sc->st->in_pem = true;
	sc->st->in_public = false; /* a private block ends a public one */
	sc->st->pem_marked = !blank(s, h, n);
	if (sc->st->pem_marked)
		push(sc, &sc->sp, h, n, K_PEM, 0);
	return n;
}

static size_t header_rule(struct scan *sc, size_t v);
static size_t cookie_rule(struct scan *sc, size_t v);

static bool in_list(const char *s, size_t n, const char *const *list,
		    size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (eq_ci(s, n, list[i]))
			return true;
	return false;
}

/* After an unquoted key, is the quote at v (after blanks when skip) the
 * one that closes the word the key is in, not one that opens its value?
 * grep -rn "API_KEY=" . : the key follows that same quote, or the quote
 * is followed by a blank or the line's end. */
static bool closes_word(const char *s, size_t n, size_t p, size_t v, bool skip)
{
	if (skip)
		while (v < n && (CL(s[v]) & C_SPACE))
			v++;
	if (v >= n || !(CL(s[v]) & C_QUOTE))
		return false;
	return (p > 0 && s[p - 1] == s[v]) || v + 1 >= n ||
	       (CL(s[v + 1]) & C_SPACE);
}

/* A type where a value goes: "password: str", "token: Optional[str]",
 * "api_key: String,", "secret: Option<String>". */
static bool type_value(const char *s, size_t n, size_t vs, size_t ve)
{
	static const char *const types[] = {
		"str",	   "string",	  "bytes",	"int",
		"integer", "bool",	  "boolean",	"float",
		"number",  "any",	  "unknown",	"object",
		"char",	   "text",	  "secretstr",	"secretstring",
		"secret",  "secretbytes", "optional",	"option",
		"none",	   "void",	  "uint8array", "buffer",
	};
	size_t i;

	if (ve < n && (s[ve] == '<' || s[ve] == '['))
		return true;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (eq_ci(s + vs, ve - vs, types[i]))
			return true;
	return false;
}

/* A variable where a value goes: api_key=api_key, self.api_key = api_key,
 * password=args.password, token: config.token. The value is a name (or a
 * dotted path) whose last part is itself a secret name. */
static bool identifier_value(const char *s, size_t vs, size_t ve)
{
	size_t i, last = vs;

	if (!(CL(s[vs]) & (C_UPPER | C_LOWER)) && s[vs] != '_')
		return false;
	for (i = vs; i < ve; i++) {
		if (!(CL(s[i]) & C_KEY) || s[i] == '-')
			return false;
		if (s[i] == '.')
			last = i + 1;
	}
	return last < ve && key_name(s + last, ve - last) != NOT_SECRET;
}

/* Cookie names that carry a session or a login. */
static bool session_cookie(const char *s, size_t a, size_t b)
{
	static const char *const words[] = {
		"sess", "sid",	"auth", "token",   "login", "remember",
		"jwt",	"csrf", "xsrf", "secure-", "host-", "key",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (contains_ci(s + a, b - a, words[i]))
			return true;
	return false;
}

/* The value of a Cookie or Set-Cookie header at v: name=value pairs split
 * by ';'. A session or login cookie's value goes, and any value that is
 * long (20 bytes or more); Set-Cookie's attributes (Path=/, Max-Age=…)
 * and short settings (theme=dark) stay. Returns where the walk resumes,
 * 0 when nothing was replaced. */
static size_t cookie_rule(struct scan *sc, size_t v)
{
	static const char *const attrs[] = {
		"path",	    "domain", "expires",  "max-age",	 "samesite",
		"priority", "secure", "httponly", "partitioned",
	};
	const char *s = sc->s;
	size_t n = sc->n, a, b, e, m;
	bool any = false;

	while (v < n && (CL(s[v]) & (C_SPACE | C_QUOTE)))
		v++;
	while (v < n) {
		a = v;
		while (v < n && s[v] != '=' && s[v] != ';' &&
		       !(CL(s[v]) & (C_SPACE | C_QUOTE)) && s[v] != '\\')
			v++;
		b = v;
		if (v >= n || s[v] != '=') {
			v = a;
			break;
		}
		e = ++v;
		if ((m = marker_at(s, v, n)) != 0) {
			v += m;
			any = true;
		} else {
			/* To a stop byte: a replacement ('[') inside ends the
			 * value where it ended the first time. */
			while (e < n && s[e] != ';' && !(CL(s[e]) & C_STOP))
				e++;
			if (!in_list(s + a, b - a, attrs,
				     sizeof(attrs) / sizeof(attrs[0])) &&
			    value_ok(s, v, e) &&
			    (session_cookie(s, a, b) || e - v >= 20)) {
				push(sc, &sc->sp, v, e, value_kind(sc, v, e),
				     0);
				any = true;
			}
			v = e;
		}
		if (v >= n || s[v] != ';')
			break;
		v++;
		while (v < n && (CL(s[v]) & C_SPACE))
			v++;
	}
	return any ? v : 0;
}

/* Can a key's value follow its name ending at q? The common case, a word
 * and the next word, is decided here, before kv_rule() is called: most
 * key runs end so. */
static inline bool kv_may_start(const char *s, size_t q, size_t n)
{
	size_t t;
	char c;

	if (q >= n)
		return false;
	c = s[q];
	if (c == ' ' || c == '\t') {
		for (t = q + 1; t < n && (CL(s[t]) & C_SPACE); t++)
			;
		return t < n && (s[t] == '=' || s[t] == ':');
	}
	return c == '=' || c == ':' || c == '"' || c == '\'' || c == '\\' ||
	       c == '>';
}

/* After a key run k[p..ke): a separator (=, :, :=, =>, or the end of
 * <key>) and, when the key is a secret name, its value. Returns where the
 * walk resumes, 0 when nothing was replaced. */
static size_t kv_rule(struct scan *sc, size_t p, size_t ke)
{
	const char *s = sc->s;
	size_t n = sc->n, q = ke, t, sp, v, vs, ve, resume, bs = 0;
	bool quoted = false, skip, whole = false, bare;
	enum found found;
	char c, qc = 0;
	enum secret_kind sk;
	const char *lt;

	c = s[q]; /* kv_may_start() said yes */
	if (c == '>') {
		/* <password>value</password> */
		if (p == 0 || s[p - 1] != '<' ||
		    secret_name(s + p, ke - p, false) == NOT_SECRET)
			return 0;
		lt = find_byte(s + q + 1, '<', n - q - 1);
		if (!lt)
			return 0;
		if (marker_at(s, q + 1, n) == (size_t)(lt - s) - q - 1)
			return (size_t)(lt - s);
		if (!value_ok(s, q + 1, (size_t)(lt - s)))
			return 0;
		push(sc, &sc->sp, q + 1, (size_t)(lt - s),
		     kind_after_key(sc, s + p, ke - p, q + 1, (size_t)(lt - s)),
		     0);
		return (size_t)(lt - s);
	}
	t = quote_at(s, q, n, &qc, &bs);
	if (t != q) {
		q = t;
		quoted = true;
		if (q < n && s[q] == ']')
			q++;
	}
	sp = q;
	while (q < n && (CL(s[q]) & C_SPACE))
		q++;
	if (q >= n)
		return 0;
	if (s[q] == '=') {
		if (q + 1 < n && s[q + 1] == '=')
			return 0;
		if (q + 1 < n && s[q + 1] == '>') {
			v = q + 2;
			skip = true;
		} else {
			/* PASSWORD= cmd assigns nothing; key = value and
			 * "key"= value are spaced on purpose. */
			v = q + 1;
			skip = q > sp || quoted;
			whole = q > sp;
		}
	} else if (s[q] == ':') {
		if (q + 1 < n && s[q + 1] == ':')
			return 0;
		if (q + 2 < n && s[q + 1] == '/' && s[q + 2] == '/')
			return 0;
		v = q + 1 + (q + 1 < n && s[q + 1] == '=');
		skip = true;
	} else {
		return 0;
	}
	sk = secret_name(s + p, ke - p, false);
	if (sk == NOT_SECRET)
		return 0;
	if (sk == SECRET_HEADER)
		return header_rule(sc, v);
	if (sk == SECRET_COOKIE)
		return cookie_rule(sc, v);
	if (!quoted && closes_word(s, n, p, v, skip))
		return 0;
	found = value_at(s, n, v, skip, whole, &vs, &ve, &resume);
	if (found == V_NONE)
		return 0;
	if (found == V_DONE)
		return resume;
	bare = !(CL(s[vs - 1]) & C_QUOTE) && s[vs - 1] != '\\';
	if ((sk == SECRET_ENV && small_number(s, vs, ve)) ||
	    (sk == SECRET_LONG && ve - vs < 16) ||
	    (bare && s[q] == ':' && type_value(s, n, vs, ve)) ||
	    (bare && identifier_value(s, vs, ve)))
		return 0;
	push(sc, &sc->sp, vs, ve, kind_after_key(sc, s + p, ke - p, vs, ve), 0);
	return resume;
}

/* Authorization schemes: the scheme stays, the credential goes. */
static const char *const schemes[] = {
	"bearer",	 "basic",     "token",	"bot",	    "apikey",
	"key",		 "negotiate", "ntlm",	"sso-key",  "sharedkey",
	"sharedkeylite", "ssws",      "splunk", "geniekey", "flyv1",
};
/* Schemes whose credential is the rest of the value (name=value lists). */
static const char *const schemes_rest[] = {
	"digest", "aws4-hmac-sha256", "oauth", "hawk", "signature",
};

/* The value at v (value_at: a quoted string, a word) replaced as a
 * secret of its kind; where the scan resumes, 0 when there is none. */
static size_t value_rule(struct scan *sc, size_t v)
{
	size_t vs, ve, resume;
	enum found found =
		value_at(sc->s, sc->n, v, false, false, &vs, &ve, &resume);

	if (found == V_NONE)
		return 0;
	if (found == V_FOUND)
		push(sc, &sc->sp, vs, ve, value_kind(sc, vs, ve), 0);
	return resume;
}
/* The value of an Authorization (or auth) key at v: "Scheme credential"
 * keeps the scheme; anything else is replaced as a value. */
static size_t header_rule(struct scan *sc, size_t v)
{
	const char *s = sc->s;
	size_t n = sc->n, w, we, x, end, bs = 0, m;
	char q = 0;
	bool rest;

	while (v < n && (CL(s[v]) & C_SPACE))
		v++;
	w = quote_at(s, v, n, &q, &bs);
	we = run_of(s, w, n, C_KEY);
	if (we > w && we < n && (CL(s[we]) & C_SPACE)) {
		rest = in_list(s + w, we - w, schemes_rest,
			       sizeof(schemes_rest) / sizeof(schemes_rest[0]));
		if (rest || in_list(s + w, we - w, schemes,
				    sizeof(schemes) / sizeof(schemes[0]))) {
			x = we;
			while (x < n && (CL(s[x]) & C_SPACE))
				x++;
			m = x < n ? marker_at(s, x, n) : 0;
			if (m)
				return x + m;
			if (rest) {
				end = w != v ? quoted_end(s, x, n, q, bs) : n;
				if (bs)
					while (end > x && s[end - 1] == '\\')
						end--;
			} else {
				end = x;
				while (end < n && !(CL(s[end]) & C_STOP))
					end++;
			}
			if (!value_ok(s, x, end))
				return 0;
			push(sc, &sc->sp, x, end, value_kind(sc, x, end), 0);
			return end;
		}
		/* A scheme it does not know may be followed by more of the
		 * credential than one word: all of the value goes, to its
		 * quote, or to a quote or the end of the line. */
		if (!marker_at(s, w, n)) {
			if (w != v) {
				end = quoted_end(s, w, n, q, bs);
				if (bs)
					while (end > w && s[end - 1] == '\\')
						end--;
			} else {
				for (end = w; end < n && s[end] != '"' &&
					      s[end] != '\'' && s[end] != '\n';
				     end++)
					;
				while (end > w && (CL(s[end - 1]) & C_SPACE))
					end--;
			}
			if (!value_ok(s, w, end))
				return 0;
			push(sc, &sc->sp, w, end, value_kind(sc, w, end), 0);
			return end;
		}
	}
	return value_rule(sc, v);
}

/* The byte that splits a user from a password in mode m, or 0. */
static char pend_sep(enum pend m)
{
	return m == P_COLON   ? ':' :
	       m == P_PERCENT ? '%' :
	       m == P_COMMA   ? ',' :
				0;
}

/* Where the password starts in the value s[vs..ve) of an option read in
 * mode m (after the user and its separator, after openssl's "pass:"),
 * or NONE when the value holds none (a user alone, env:VAR, file:PATH).
 * lftp's user,password: the ',' ends the value, so the password is the
 * word after it, up to *pe. */
static size_t password_at(const char *s, size_t n, size_t vs, size_t ve,
			  enum pend m, size_t *pe)
{
	const char *sep;
	char c = pend_sep(m);

	*pe = ve;
	if (m == P_WHOLE)
		return vs;
	if (m == P_PASSARG)
		return ve - vs > 5 && memcmp(s + vs, "pass:", 5) == 0 ? vs + 5 :
									NONE;
	if (m == P_COMMA) {
		if (ve >= n || s[ve] != ',')
			return NONE;
		for (*pe = ve + 1; *pe < n && !(CL(s[*pe]) & C_STOP); (*pe)++)
			;
		return ve + 1;
	}
	sep = find_byte(s + vs, c, ve - vs);
	return sep ? (size_t)(sep - s) + 1 : NONE;
}

/* The value at [vs, ve) of a secret flag or a client's password option
 * read in mode m: replaces the password part. found/resume: value_at's
 * answer. Returns where the walk resumes, 0 when nothing applied. */
static size_t option_value(struct scan *sc, enum found found, size_t vs,
			   size_t ve, size_t resume, enum pend m, const char *k,
			   size_t kn)
{
	const char *s = sc->s;
	size_t n = sc->n, pw, pe, mk;

	if (found == V_NONE)
		return 0;
	/* Replaced before, user:password reads "user:[REDACTED]" and the
	 * user is weighed the same way again. */
	if (found == V_DONE) {
		if (m == P_COLON && ve > vs && s[ve - 1] == ':')
			user_part(sc, vs, ve - 1);
		if (m == P_COMMA && ve < n && s[ve] == ',' &&
		    (pw = marker_at(s, ve + 1, n)) != 0)
			return ve + 1 + pw;
		return resume;
	}
	/* A URL is not a password (mongosh -p mongodb://…: it prompts). */
	if (find_str(s + vs, ve - vs, "://", 3))
		return 0;
	pw = password_at(s, n, vs, ve, m, &pe);
	if (pw == NONE)
		return m == P_PASSARG ? resume : 0;
	if (m == P_COMMA && (mk = marker_at(s, pw, n)) != 0)
		return pw + mk;
	/* "user:[REDACTED:kind]" in quotes: replaced before. */
	if ((mk = marker_at(s, pw, pe)) != 0 && pw + mk == pe) {
		if (m == P_COLON)
			user_part(sc, vs, pw - 1);
		return pe > resume ? pe : resume;
	}
	if (!value_ok(s, pw, pe))
		return m == P_WHOLE ? 0 : resume;
	if (m == P_COLON)
		user_part(sc, vs, pw - 1);
	push(sc, &sc->sp, pw, pe, kind_after_key(sc, k, kn, pw, pe), 0);
	return pe > resume ? pe : resume;
}

/* The word after a flag that ends at be (--token VALUE, or "--token",
 * "VALUE" in an array written as text), read in mode m. At the end of an
 * argv element the next element is the value. */
static size_t flag_value(struct scan *sc, size_t be, enum pend mode,
			 const char *k, size_t kn)
{
	const char *s = sc->s;
	size_t n = sc->n, v = be, c, vs = 0, ve = 0, resume = 0, bs = 0;
	char q = 0;
	enum found found;

	c = quote_at(s, v, n, &q, &bs);
	if (c != v) {
		v = c;
		if (v < n && s[v] == ',')
			v++;
	} else if (v < n && !(CL(s[v]) & C_SPACE)) {
		return 0;
	}
	while (v < n && (CL(s[v]) & C_SPACE))
		v++;
	if (v >= n) {
		if (sc->argv)
			sc->ctx.pending = mode;
		return 0;
	}
	if (s[v] == '-')
		return 0;
	found = value_at(s, n, v, false, false, &vs, &ve, &resume);
	return option_value(sc, found, vs, ve, resume, mode, k, kn);
}

/* Bearer followed by a token-like word, outside an Authorization header
 * ("Bearer tokens are …" stays: a credential has digits or is long). */
static size_t bearer_rule(struct scan *sc, size_t be)
{
	const char *s = sc->s;
	size_t n = sc->n, v = be, e, digits = 0;
	bool upper = false, lower_ = false;

	if (v >= n || !(CL(s[v]) & C_SPACE))
		return 0;
	while (v < n && (CL(s[v]) & C_SPACE))
		v++;
	if (v < n && (e = marker_at(s, v, n)) != 0)
		return v + e;
	for (e = v; e < n && ((CL(s[e]) & C_WORD) || s[e] == '~'); e++) {
		digits += (CL(s[e]) & C_DIGIT) != 0;
		upper |= (CL(s[e]) & C_UPPER) != 0;
		lower_ |= (CL(s[e]) & C_LOWER) != 0;
	}
	if (e - v < 8 || (!digits && (e - v < 24 || !upper || !lower_)) ||
	    !value_ok(s, v, e))
		return 0;
	push(sc, &sc->sp, v, e, value_kind(sc, v, e), 0);
	return e;
}

/* --name or -name (Go style) where name is a secret key name;
 * --token-file ends in "file" and --no-password switches a prompt off. */
static bool secret_flag(const char *s, size_t p, size_t ke)
{
	size_t a;

	if (ke - p < 4 || s[p] != '-')
		return false;
	a = s[p + 1] == '-' ? p + 2 : p + 1;
	if (ke - a < 3 || s[a] == '-' || prefix_ci(s + a, ke - a, "no-"))
		return false;
	return secret_name(s + a, ke - a, false) != NOT_SECRET;
}

static bool client_active(const struct scan *sc)
{
	return sc->ctx.client >= 0 &&
	       (!clients[sc->ctx.client].sub || sc->ctx.client_sub);
}

/* A client's option glued to its value at v: mysql -pSECRET, -p'SECRET',
 * 7z -pSECRET, smbclient -Ubob%SECRET. */
static size_t glued_rule(struct scan *sc, size_t v, enum pend m)
{
	size_t vs = 0, ve = 0, resume = 0;
	enum found found;

	found = value_at(sc->s, sc->n, v, false, false, &vs, &ve, &resume);
	return option_value(sc, found, vs, ve, resume, m, "", 0);
}

/* The active client's password option spelled s[p..p+len) (glued: one
 * that s[p..p+len) starts with, its value glued on), or NULL. */
static const struct pwopt *client_opt(const struct scan *sc, const char *s,
				      size_t p, size_t len, bool glued)
{
	const struct pwopt *o;
	size_t ol;

	if (!client_active(sc))
		return NULL;
	for (o = clients[sc->ctx.client].opts; o->opt[0]; o++) {
		ol = strlen(o->opt);
		if (glued ? o->glued && len >= ol &&
				    memcmp(s + p, o->opt, ol) == 0 :
			    o->next && len == ol &&
				    memcmp(s + p, o->opt, ol) == 0)
			return o;
	}
	return NULL;
}

/* Programs that read a password from their standard input, and the
 * option that makes them (NULL: they always do). From their manual
 * pages: sudo -S, passwd --stdin, docker login --password-stdin … */
static const struct {
	const char *name;
	const char *opt;
} stdin_readers[] = {
	{ "sudo", "-S" },
	{ "sudo", "--stdin" },
	{ "passwd", "--stdin" },
	{ "chpasswd", NULL },
	{ "smbpasswd", "-s" },
	{ "htpasswd", "-i" },
	{ "kinit", NULL },
	{ "docker", "--password-stdin" },
	{ "podman", "--password-stdin" },
	{ "nerdctl", "--password-stdin" },
	{ "buildah", "--password-stdin" },
	{ "skopeo", "--password-stdin" },
	{ "helm", "--password-stdin" },
	{ "oras", "--password-stdin" },
	{ "cryptsetup", NULL },
};

/* Is the word s[a..b) the option opt, or for sudo's -S a cluster of short
 * options holding it (-kS)? */
static bool has_opt(const char *s, size_t a, size_t b, const char *opt)
{
	size_t ol = strlen(opt), i;

	if (b - a == ol && memcmp(s + a, opt, ol) == 0)
		return true;
	if (ol != 2 || b - a < 3 || s[a] != '-' || s[a + 1] == '-')
		return false;
	for (i = a + 1; i < b; i++)
		if (s[i] == opt[1])
			return true;
	return false;
}

/* Does the command after the first '|' at or after from read a password
 * on its standard input (echo pw | sudo -S …)? One look per pipe: the
 * answer is kept for every from up to that pipe. */
static bool stdin_reader_after(struct scan *sc, size_t from)
{
	const char *s = sc->s, *bar;
	size_t n = sc->n, i, w, we, base, k;
	bool named[sizeof(stdin_readers) / sizeof(stdin_readers[0])] = { 0 };
	bool any = false, reads = false;

	if (sc->pipe_known && from >= sc->pipe_from && from <= sc->pipe_at)
		return sc->pipe_reads;
	bar = from < n ? find_byte(s + from, '|', n - from) : NULL;
	sc->pipe_known = true;
	sc->pipe_from = from;
	sc->pipe_at = bar ? (size_t)(bar - s) : n;
	sc->pipe_reads = false;
	if (!bar || sc->pipe_at + 1 >= n || s[sc->pipe_at + 1] == '|')
		return false;
	w = sc->pipe_at + 1;
	while (w < n && (CL(s[w]) & C_SPACE))
		w++;
	we = run_of(s, w, n, C_WORD);
	for (base = we; base > w && s[base - 1] != '/'; base--)
		;
	for (k = 0; k < sizeof(stdin_readers) / sizeof(stdin_readers[0]); k++) {
		named[k] = strlen(stdin_readers[k].name) == we - base &&
			   memcmp(s + base, stdin_readers[k].name, we - base) ==
				   0;
		any |= named[k];
		reads |= named[k] && !stdin_readers[k].opt;
	}
	/* Its options, up to the end of the command. */
	for (i = we; any && !reads && i < n && !(CL(s[i]) & C_SEG);) {
		if (!(CL(s[i]) & C_WORD)) {
			i++;
			continue;
		}
		w = i;
		i = run_of(s, i, n, C_WORD);
		for (k = 0;
		     k < sizeof(stdin_readers) / sizeof(stdin_readers[0]); k++)
			reads |= named[k] && stdin_readers[k].opt &&
				 has_opt(s, w, i, stdin_readers[k].opt);
	}
	sc->pipe_reads = reads;
	return reads;
}

/* echo PASSWORD | sudo -S …: the word echo or printf prints into a
 * program that reads a password from its input. be: the end of "echo".
 * Returns where the walk resumes, 0 when nothing was replaced. */
static size_t stdin_rule(struct scan *sc, size_t be)
{
	const char *s = sc->s;
	size_t n = sc->n, v = be, e;

	for (;;) {
		while (v < n && (CL(s[v]) & C_SPACE))
			v++;
		if (v >= n || s[v] != '-')
			break;
		e = run_of(s, v, n, C_WORD); /* echo -n, -e */
		if (e - v > 3)
			return 0;
		v = e;
	}
	if (v >= n || v == be || !stdin_reader_after(sc, v))
		return 0;
	return value_rule(sc, v);
}

/* A .netrc line: machine HOST login USER password PASSWORD, or an
 * indented "password PASSWORD" line of an entry written over several
 * lines. p..be: the word "password". */
static size_t netrc_rule(struct scan *sc, size_t p, size_t be)
{
	const char *s = sc->s;
	size_t n = sc->n, v = be, e;

	if (v >= n || !(CL(s[v]) & C_SPACE))
		return 0;
	while (v < n && (CL(s[v]) & C_SPACE))
		v++;
	if (!sc->netrc) {
		/* "password WORD" alone on an indented line, as in an entry
		 * written over several lines ("password reset" at the start
		 * of a line is prose). */
		e = v;
		while (e < n && !(CL(s[e]) & C_SPACE))
			e++;
		if (p == 0 || !blank(s, 0, p) || !blank(s, e, n))
			return 0;
	}
	return value_rule(sc, v);
}

/* "set NAME VALUE" after the word set or setx at be (aws configure set,
 * npm and yarn config set, Windows setx): when NAME is a secret name, the
 * next word is its value. An option in its place stays (gh secret set
 * NAME --body-file F). */
static size_t set_rule(struct scan *sc, size_t be)
{
	const char *s = sc->s;
	size_t n = sc->n, k = be, ke;

	while (k < n && (CL(s[k]) & C_SPACE))
		k++;
	ke = k;
	while (ke < n && !(CL(s[ke]) & (C_SPACE | C_QUOTE | C_SEG)))
		ke++;
	if (k == be || ke == k || ke >= n || !(CL(s[ke]) & C_SPACE) ||
	    secret_name(s + k, ke - k, true) == NOT_SECRET)
		return 0;
	while (ke < n && (CL(s[ke]) & C_SPACE))
		ke++;
	if (ke >= n || s[ke] == '-')
		return 0;
	return value_rule(sc, ke);
}

/* The start of the word that ends before the blanks before p, or p when
 * there is none. */
static size_t word_start(const char *s, size_t p)
{
	size_t e = p, b;

	while (e > 0 && (CL(s[e - 1]) & C_SPACE))
		e--;
	if (e == p)
		return p;
	for (b = e; b > 0 && (CL(s[b - 1]) & C_KEY); b--)
		;
	return b;
}

/* The start of the word w (any case) before the blanks before p, or
 * NONE. */
static size_t word_before(const char *s, size_t p, const char *w)
{
	size_t b = word_start(s, p), e = b;

	while (e < p && !(CL(s[e]) & C_SPACE))
		e++;
	return b < p && eq_ci(s + b, e - b, w) ? b : NONE;
}

/* SQL's password literals: PASSWORD 'x' (CREATE ROLE, ALTER USER) and
 * IDENTIFIED [WITH plugin] BY 'x' (MySQL), the word at p..be. */
static size_t sql_rule(struct scan *sc, size_t p, size_t be)
{
	const char *s = sc->s;
	size_t n = sc->n, v = be, w;

	while (v < n && (CL(s[v]) & C_SPACE))
		v++;
	if (v == be || v >= n || s[v] != '\'')
		return 0;
	/* BY: after IDENTIFIED, or IDENTIFIED WITH plugin (words, never a
	 * distance in bytes: a redacted value before would change it). */
	if (be - p == 2 &&
	    !((w = word_before(s, p, "identified")) != NONE ||
	      ((w = word_before(s, word_start(s, p), "with")) != NONE &&
	       word_before(s, w, "identified") != NONE)))
		return 0;
	return value_rule(sc, v);
}

/* Rules for a key run that is a whole word (flags, clients, Bearer).
 * b..be is the blob, p..ke the run, ke == be. */
static size_t word_rules(struct scan *sc, size_t b, size_t be, size_t p)
{
	const char *s = sc->s;
	size_t n = sc->n, len = be - p, r;
	const struct pwopt *o;
	int ci;

	if (be < n && !(CL(s[be]) & (C_SPACE | C_QUOTE | C_SEG)) &&
	    s[be] != ',' && s[be] != '\\')
		return 0;
	if (p == b && s[p] == '-') {
		o = client_opt(sc, s, p, len, false);
		if (o && (r = flag_value(sc, be, (enum pend)o->mode, s + p,
					 len)) != 0)
			return r;
		if (o)
			return 0;
		if (secret_flag(s, p, be))
			return flag_value(sc, be, P_WHOLE, s + p, len);
		return 0;
	}
	if (p == b && len == 6 && (s[p] == 'b' || s[p] == 'B') &&
	    eq_ci(s + p, 6, "bearer"))
		return bearer_rule(sc, be);
	if (p == b && ((len == 4 && memcmp(s + p, "echo", 4) == 0) ||
		       (len == 6 && memcmp(s + p, "printf", 6) == 0)))
		return stdin_rule(sc, be);
	if (p == b &&
	    ((len == 8 && eq_ci(s + p, 8, "password")) ||
	     (len == 2 && eq_ci(s + p, 2, "by"))) &&
	    (r = sql_rule(sc, p, be)) != 0)
		return r;
	if (p == b && len == 8 && memcmp(s + p, "password", 8) == 0)
		return netrc_rule(sc, p, be);
	if (p == b && ((len == 3 && memcmp(s + p, "set", 3) == 0) ||
		       (len == 4 && eq_ci(s + p, 4, "setx"))))
		return set_rule(sc, be);
	if (p == b &&
	    ((len == 7 && memcmp(s + p, "machine", 7) == 0) ||
	     (len == 7 && memcmp(s + p, "default", 7) == 0)) &&
	    blank(s, 0, p))
		sc->netrc = true;
	if (p == b && sc->ctx.client >= 0 && clients[sc->ctx.client].sub &&
	    eq_ci(s + p, len, clients[sc->ctx.client].sub)) {
		sc->ctx.client_sub = true;
		return 0;
	}
	if (p == b || s[p - 1] == '/') {
		ci = client_index(s + p, len);
		if (ci >= 0) {
			sc->ctx.client = ci;
			sc->ctx.client_sub = false;
		}
	}
	return 0;
}

/* The rules that start at the key run s[p..ke) inside the blob b..be.
 * Returns where the walk resumes, 0 when none applied. */
static size_t key_run(struct scan *sc, size_t b, size_t be, size_t p, size_t ke)
{
	const char *s = sc->s;
	size_t n = sc->n, te, r, ol;
	const struct pwopt *o;
	int kind;

	/* A token lies inside its blob (a Telegram token's ':' ends the
	 * blob early) and is TOKEN_MIN_LEN bytes or more: most words are
	 * shorter. */
	kind = (be - p >= TOKEN_MIN_LEN || (be < n && s[be] == ':')) &&
			       fmt_may_start(s, p, n) ?
		       known_format(s, p, n, &te) :
		       -1;
	if (kind >= 0) {
		if (kind == K_AWS_ID)
			sc->aws_id = true;
		push(sc, &sc->sp, p, te, kind, 0);
		return te;
	}
	if (ke - p == 10 && ke == be && be < n && s[be] == ' ' &&
	    memcmp(s + p, "-----BEGIN", 10) == 0) {
		r = pem_rule(sc, be + 1);
		if (r)
			return r;
	}
	if (p == b && s[p] == '-' &&
	    (o = client_opt(sc, s, p, ke - p, true)) != NULL) {
		ol = strlen(o->opt);
		if (ke - p > ol ||
		    (ke < n && (s[ke] == '\'' || s[ke] == '"'))) {
			r = glued_rule(sc, p + ol, (enum pend)o->mode);
			if (r)
				return r;
		}
	}
	/* A client's long option with its value after '=' (--user=U:P). */
	if (p == b && ke - p > 2 && s[p] == '-' && s[p + 1] == '-' && ke < n &&
	    s[ke] == '=' && (o = client_opt(sc, s, p, ke - p, false)) != NULL) {
		r = glued_rule(sc, ke + 1, (enum pend)o->mode);
		if (r)
			return r;
	}
	/* A key run after '/' is a path component (/etc/passwd:1:…). */
	if ((p == b || s[p - 1] != '/') && kv_may_start(s, ke, n)) {
		r = kv_rule(sc, p, ke);
		if (r)
			return r;
	}
	if (ke == be)
		return word_rules(sc, b, be, p);
	return 0;
}

/* A rule that started at p inside the blob at b replaced what it found
 * (its one span is the last, from mark on): the blob's part before p is
 * weighed whole, as it will be once the rest is a "[REDACTED]" (which
 * ends the blob there), and its spans go before the rule's. */
static void prefix_rules(struct scan *sc, size_t b, size_t p, size_t mark)
{
	struct span rule;

	if (p - b < 32 || (sc->sp.n != mark + 1 && sc->sp.n != mark))
		return;
	if (sc->sp.n == mark) {
		blob_rules(sc, b, p);
		return;
	}
	rule = sc->sp.v[--sc->sp.n];
	blob_rules(sc, b, p);
	push(sc, &sc->sp, rule.s, rule.e, rule.kind, rule.flags);
}

/* Public words a secret rule must not read: an ARN (arn:aws:…:secret:
 * name is a name), an OpenSSH public key ("ssh-ed25519 AAAA… comment",
 * the key types of ssh-keygen(1) and their -cert-v01 forms). Returns
 * their end, or 0. */
static size_t public_word(const char *s, size_t i, size_t n)
{
	static const char *const key_types[] = {
		"ssh-",
		"ecdsa-sha2-",
		"sk-ssh-",
		"sk-ecdsa-sha2-",
	};
	size_t e, k, t;

	if (n - i < 5)
		return 0;
	if (s[i] == 'a') {
		if (s[i + 1] != 'r' || s[i + 2] != 'n' || s[i + 3] != ':')
			return 0;
		for (e = i + 4; e < n && !(CL(s[e]) & (C_STOP | C_QUOTE)); e++)
			;
		return e;
	}
	if (s[i + 1] != 's' && s[i + 1] != 'c' && s[i + 1] != 'k')
		return 0;
	for (k = 0; k < sizeof(key_types) / sizeof(key_types[0]); k++) {
		t = strlen(key_types[k]);
		if (n - i > t && memcmp(s + i, key_types[k], t) == 0)
			break;
	}
	if (k == sizeof(key_types) / sizeof(key_types[0]))
		return 0;
	/* The type name, one blank, then base64 starting AAAA (the length
	 * of the type name, big-endian, is under 2^24). */
	for (e = i + t; e < n && e - i < 48 &&
			((CL(s[e]) & (C_LOWER | C_DIGIT)) || s[e] == '-' ||
			 s[e] == '@' || s[e] == '.');
	     e++)
		;
	if (e >= n || s[e] != ' ' || n - e < 5 ||
	    memcmp(s + e + 1, "AAAA", 4) != 0)
		return 0;
	for (e += 1; e < n && ((CL(s[e]) & C_B64) || s[e] == '='); e++)
		;
	return e;
}

/* A blob starting at i. Returns where the walk resumes. */
static size_t scan_blob(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t n = sc->n, be, p, ke, r, mark;

	/* An END line stays as it is, in a block or not (see end_label). */
	if (s[i] == '-' && n - i >= 8 && memcmp(s + i, "-----END", 8) == 0) {
		sc->quiet = false;
		return end_label(s, i, n);
	}
	if ((s[i] == 'a' || s[i] == 's' || s[i] == 'e') &&
	    (r = public_word(s, i, n)) != 0)
		return r;
	/* One pass finds the first key run, and usually the blob's end: most
	 * blobs are one word. */
	be = run_of(s, i, n, C_KEY);
	ke = be;
	if (be < n && (CL(s[be]) & C_WORD))
		be = run_of(s, be + 1, n, C_WORD);
	for (p = i; p < be;) {
		if (!(CL(s[p]) & C_KEY)) {
			p++;
			continue;
		}
		if (p != i)
			ke = run_of(s, p, be, C_KEY);
		mark = sc->sp.n;
		r = key_run(sc, i, be, p, ke);
		if (r) {
			if (p > i)
				prefix_rules(sc, i, p, mark);
			return r;
		}
		p = ke;
	}
	if (be - i >= 32)
		blob_rules(sc, i, be);
	return be;
}

/* URLs whose path holds the secret: a webhook's address is its
 * credential. host: the host, or with a leading '.' any host under that
 * domain; path: what the secret part follows. From the providers'
 * documentation of their incoming webhooks. */
static const struct {
	const char *host;
	const char *path;
	uint8_t kind;
} url_secrets[] = {
	{ "hooks.slack.com", "/services/", K_SLACK_HOOK },
	{ "hooks.slack.com", "/workflows/", K_SLACK_HOOK },
	{ "hooks.slack.com", "/triggers/", K_SLACK_HOOK },
	{ "discord.com", "/api/webhooks/", K_DISCORD_HOOK },
	{ ".discord.com", "/api/webhooks/", K_DISCORD_HOOK },
	{ "discordapp.com", "/api/webhooks/", K_DISCORD_HOOK },
	{ ".webhook.office.com", "/webhookb2/", K_TEAMS_HOOK },
	{ "outlook.office.com", "/webhook/", K_TEAMS_HOOK },
	{ "hooks.zapier.com", "/hooks/catch/", K_CHAT_HOOK },
	{ "maker.ifttt.com", "/use/", K_CHAT_HOOK },
	{ "open.feishu.cn", "/open-apis/bot/v2/hook/", K_CHAT_HOOK },
	{ "open.larksuite.com", "/open-apis/bot/v2/hook/", K_CHAT_HOOK },
};

/* The longest secret part of a webhook's path: a Teams URL's is about 230
 * bytes. */
#define URL_SECRET_MAX 300

/* Does host h[0..n) match the row's host (any case)? */
static bool host_is(const char *h, size_t n, const char *row)
{
	size_t m = strlen(row);

	if (row[0] == '.')
		return n > m && prefix_ci(h + n - m, m, row);
	return n == m && prefix_ci(h, n, row);
}

/* The path at j (s[j] == '/') of a URL whose host is h[0..hn): when it is
 * a webhook's, the secret part of the path goes. Returns where the walk
 * resumes, 0 when the path holds no secret. */
static size_t url_path_rule(struct scan *sc, const char *h, size_t hn, size_t j)
{
	const char *s = sc->s;
	size_t n = sc->n, i, pl, v, e, m;

	for (i = 0; i < sizeof(url_secrets) / sizeof(url_secrets[0]); i++) {
		pl = strlen(url_secrets[i].path);
		if (!host_is(h, hn, url_secrets[i].host) || n - j < pl ||
		    memcmp(s + j, url_secrets[i].path, pl) != 0)
			continue;
		v = j + pl;
		if ((m = marker_at(s, v, n)) != 0)
			return v + m;
		for (e = v; e < n && e - v <= URL_SECRET_MAX &&
			    !(CL(s[e]) & (C_STOP | C_QUOTE)) && s[e] != '?' &&
			    s[e] != '#';
		     e++)
			;
		/* Longer than any webhook's secret: not one (and a bound on
		 * what one look reads, as the walk reads it again). */
		if (e - v > URL_SECRET_MAX)
			return 0;
		/* Too short or without digits: a placeholder in the docs
		 * (…/services/T000/B000/XXXX), passed over whole. */
		if (e - v < 16 || !mixed(s, v, e, C_DIGIT))
			return e;
		push(sc, &sc->sp, v, e, url_secrets[i].kind, 0);
		return e;
	}
	return 0;
}

/* user:password@ after "://" at i: the password goes, and a token used as
 * the user (https://ghp_…:x-oauth-basic@github.com). The authority ends at
 * the first / ? # or blank, so two scans never overlap. */
static size_t url_rule(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t n = sc->n, j, m, at = NONE, colon = NONE, u = i + 3, h, he;
	size_t path_end = 0;
	bool pushed;
	char c;

	for (j = u; j < n; j++) {
		c = s[j];
		/* A replacement where the user or the password goes is read
		 * over; any other one ends the authority where its text
		 * (a '/' in a value, say) ended it the first time. */
		if (c == '[' && (m = marker_at(s, j, n)) != 0) {
			if (j != u && (colon == NONE || j != colon + 1))
				break;
			j += m - 1;
			continue;
		}
		if (c == '/' || c == '?' || c == '#' || c == '\\' || c == '<' ||
		    c == '>' || c == '`' || (CL(c) & (C_SPACE | C_QUOTE)))
			break;
		if (c == '@')
			at = j;
		else if (c == ':' && colon == NONE)
			colon = j;
	}
	pushed = false;
	if (at != NONE && colon != NONE && colon < at) {
		pushed = user_part(sc, u, colon);
		if (marker_at(s, colon + 1, n) == at - colon - 1) {
			pushed = true;
		} else if (value_ok(s, colon + 1, at)) {
			push(sc, &sc->sp, colon + 1, at,
			     value_kind(sc, colon + 1, at), 0);
			pushed = true;
		}
	}
	if (j < n && s[j] == '/') {
		h = at == NONE ? u : at + 1;
		for (he = h; he < j && s[he] != ':'; he++)
			;
		path_end = url_path_rule(sc, s + h, he - h, j);
	}
	if (path_end)
		return path_end;
	return pushed ? at + 1 : i + 1;
}

static void scan_line(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t n = sc->n;
	uint16_t k;

	while (i < n) {
		k = CL(s[i]);
		if (k & C_WORD) {
			i = scan_blob(sc, i);
			continue;
		}
		if (!(k & (C_LEAD | C_SEG))) { /* blanks, quotes, … */
			i++;
			continue;
		}
		if (s[i] == ':' && n - i > 3 && s[i + 1] == '/' &&
		    s[i + 2] == '/') {
			i = url_rule(sc, i);
			continue;
		}
		/* A JSON string's escape (\n, \t, \u00e9, \\) is not the
		 * start of the next word: "…\nPASSWORD=x" holds PASSWORD. */
		if (s[i] == '\\' && n - i > 1 &&
		    memchr("bfnrtu\\", s[i + 1], 7)) {
			i += 2;
			if (s[i - 1] == 'u' && n - i >= 4 &&
			    run_of(s, i, i + 4, C_HEX) == i + 4)
				i += 4;
			continue;
		}
		if (k & C_SEG) {
			sc->ctx.client = -1;
			sc->ctx.client_sub = false;
		}
		i++;
	}
}

/* A line inside a PEM block (base64, blank, or a Name: value header)? */
static bool pem_body_line(const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n && (CL(s[i]) & C_SPACE))
		i++;
	j = i;
	while (j < n && ((CL(s[j]) & (C_UPPER | C_LOWER)) || s[j] == '-'))
		j++;
	if (j > i && j < n && s[j] == ':')
		return true;
	/* Base64, its '=' padding only at the end of the line. */
	for (; i < n; i++) {
		if (CL(s[i]) & (C_B64 | C_SPACE))
			continue;
		if (s[i] != '=')
			return false;
		j = i;
		while (j < n && (s[j] == '=' || (CL(s[j]) & C_SPACE)))
			j++;
		return j == n;
	}
	return true;
}

/* Finds the spans of one line. nl: a '\n' follows it (a dropped PEM line
 * takes it along). */
static void do_line(struct scan *sc, const char *line, size_t n, bool nl)
{
	struct redact_state *st = sc->st;
	size_t start = 0, e;

	sc->s = line;
	sc->n = n;
	sc->sp.n = 0;
	sc->aws.n = 0;
	sc->aws_id = false;
	sc->end_known = false;
	sc->pipe_known = false;
	sc->netrc = false;
	sc->quiet = false;
	if (st->in_public) {
		/* An END inside a word (a token that a rule replaces whole)
		 * is no END: redacting the output again must judge the line
		 * the same way. */
		e = find_end(sc, 0);
		if (e != NONE && e > 0 && (CL(line[e - 1]) & C_WORD))
			e = NONE;
		if (e != NONE) {
			st->in_public = false;
			sc->quiet = true; /* up to the END */
		} else if (pem_body_line(line, n)) {
			sc->quiet = true;
		} else {
			st->in_public = false;
		}
	}
	if (st->in_pem) {
		e = find_end(sc, 0);
		if (e != NONE) {
			if (!blank(line, 0, e))
				push(sc, &sc->sp, 0, e, K_PEM,
				     st->pem_marked ? SP_DROP : 0);
			st->in_pem = false;
			st->pem_marked = false;
			sc->quiet = false; /* the END is passed over */
			start = end_label(line, e, n);
		} else if (pem_body_line(line, n)) {
			if (blank(line, 0, n))
				return;
			if (st->pem_marked) {
				push(sc, &sc->sp, 0, n + nl, K_PEM, SP_DROP);
			} else {
				push(sc, &sc->sp, 0, n, K_PEM, 0);
				st->pem_marked = true;
			}
			return;
		} else {
			st->in_pem = false;
			st->pem_marked = false;
		}
	}
	scan_line(sc, start);
}

/* ---- output ------------------------------------------------------------ */

/* Writes text[*pend .. base + span start) and the replacement. */
static bool emit_span(struct buf *out, const char *text, size_t *pend,
		      size_t base, const struct span *sp, size_t *count)
{
	size_t s0 = base + sp->s, e0 = base + sp->e;
	const char *r = repl[sp->kind].text;
	size_t rl = repl[sp->kind].len;

	if (e0 <= *pend)
		return true;
	if (s0 < *pend)
		s0 = *pend;
	if (!buf_add(out, text + *pend, s0 - *pend))
		return false;
	*pend = e0;
	if (sp->flags & SP_DROP)
		return true;
	if (!(e0 - s0 == rl && memcmp(text + s0, r, rl) == 0))
		(*count)++;
	return buf_add(out, r, rl);
}

/* Writes the spans of the line at base, with the AWS candidates merged in
 * (kept when a key id is on the line, or when they are opaque anyway). */
static bool emit_line(struct scan *sc, struct buf *out, const char *text,
		      size_t *pend, size_t base, size_t *count)
{
	size_t i = 0, j = 0;
	struct span t;

	while (i < sc->sp.n || j < sc->aws.n) {
		if (j >= sc->aws.n ||
		    (i < sc->sp.n && sc->sp.v[i].s < sc->aws.v[j].s)) {
			if (!emit_span(out, text, pend, base, &sc->sp.v[i++],
				       count))
				return false;
			continue;
		}
		t = sc->aws.v[j++];
		if (!sc->aws_id && !(t.flags & SP_BARE))
			continue;
		if (!sc->aws_id)
			t.kind = K_GENERIC;
		t.flags = 0;
		if (!emit_span(out, text, pend, base, &t, count))
			return false;
	}
	return true;
}

/* The engine: text in lines, each with fresh context except argv mode's
 * first line, which starts from *actx (and the last line's context is
 * left there). */
static enum cordon_err redact_text_at(struct redact_state *st, const char *text,
				      size_t len, struct buf *out,
				      size_t *count, struct argctx *actx,
				      unsigned depth)
{
	struct scan sc;
	size_t pos = 0, lend, pend = 0, n = 0;
	const char *nl;
	enum cordon_err rc = CORDON_OK;

	if (!st || !out || (!text && len))
		return CORDON_E_INVAL;
	if (len > REDACT_MAX_INPUT)
		return CORDON_E_LIMIT;
	if (!buf_reserve(out, len))
		return CORDON_E_NOMEM;
	memset(&sc, 0, sizeof(sc));
	sc.st = st;
	sc.argv = actx != NULL;
	sc.depth = depth;
	while (pos < len) {
		nl = find_byte(text + pos, '\n', len - pos);
		lend = nl ? (size_t)(nl - text) : len;
		if (actx && pos == 0)
			sc.ctx = *actx;
		else
			ctx_reset(&sc.ctx);
		sc.ctx.pending = P_NONE;
		do_line(&sc, text + pos, lend - pos, nl != NULL);
		if (sc.nomem || !emit_line(&sc, out, text, &pend, pos, &n)) {
			rc = CORDON_E_NOMEM;
			goto out;
		}
		pos = nl ? lend + 1 : len;
	}
	if (pend < len && !buf_add(out, text + pend, len - pend)) {
		rc = CORDON_E_NOMEM;
		goto out;
	}
	if (actx)
		*actx = sc.ctx;
	if (count)
		*count += n;
out:
	free(sc.sp.v);
	free(sc.aws.v);
	return rc;
}

static enum cordon_err redact_text(struct redact_state *st, const char *text,
				   size_t len, struct buf *out, size_t *count,
				   struct argctx *actx)
{
	return redact_text_at(st, text, len, out, count, actx, 0);
}

enum cordon_err redact_append(struct redact_state *st, const char *text,
			      size_t len, struct buf *out, size_t *count)
{
	return redact_text(st, text, len, out, count, NULL);
}

enum cordon_err cordon_redact(const char *text, size_t len, char **out,
			      size_t *out_len, size_t *count)
{
	struct redact_state st = { 0 };
	struct buf b = BUF_INIT(SIZE_MAX);
	size_t n = 0;
	enum cordon_err rc;

	if (!out)
		return CORDON_E_INVAL;
	*out = NULL;
	if (out_len)
		*out_len = 0;
	if (count)
		*count = 0;
	rc = redact_append(&st, text, len, &b, &n);
	if (rc != CORDON_OK) {
		buf_free(&b);
		return rc;
	}
	*out = buf_take(&b, out_len);
	if (!*out)
		return CORDON_E_NOMEM;
	if (count)
		*count = n;
	return CORDON_OK;
}

/* ---- JSON -------------------------------------------------------------- */

/* Deeper documents are refused rather than walked on the C stack; cJSON
 * itself parses no deeper than 1000. */
#define REDACT_JSON_DEPTH 1000

/* Replaces the value of item (a string or a number) with the string
 * text, keeping its key. */
static enum cordon_err set_string(cJSON *item, const char *text)
{
	cJSON *fresh = cJSON_CreateString(text);

	if (!fresh)
		return CORDON_E_NOMEM;
	if (!(item->type & cJSON_IsReference) && item->valuestring)
		cJSON_free(item->valuestring);
	item->valuestring = fresh->valuestring;
	fresh->valuestring = NULL;
	cJSON_Delete(fresh);
	item->type = cJSON_String | (item->type & cJSON_StringIsConst);
	item->valueint = 0;
	item->valuedouble = 0;
	return CORDON_OK;
}

/* A string item redacted as text (PEM state of its own; ctx: argv). */
static enum cordon_err json_string(cJSON *item, size_t *count,
				   struct argctx *ctx)
{
	struct redact_state st = { 0 };
	struct buf b = BUF_INIT(SIZE_MAX);
	const char *s = item->valuestring;
	size_t len = strlen(s);
	enum cordon_err rc;

	rc = redact_text(&st, s, len, &b, count, ctx);
	if (rc == CORDON_OK && (b.len != len || memcmp(b.p, s, len) != 0))
		rc = set_string(item, b.p);
	buf_free(&b);
	return rc;
}

/* One element of an array, read as an argv: the value of a secret flag
 * in the element before is replaced whole (or after its ':'). */
static enum cordon_err json_argv_elem(cJSON *item, struct argctx *ctx,
				      size_t *count)
{
	const char *s = item->valuestring, *sep = NULL;
	size_t len = strlen(s), keep = 0;
	enum pend mode = ctx->pending;
	enum cordon_err rc;
	char *t;

	ctx->pending = P_NONE;
	if (mode != P_NONE && (s[0] == '-' || memmem(s, len, "://", 3)))
		mode = P_NONE;
	if (mode == P_WHOLE && len && value_ok(s, 0, len) &&
	    marker_at(s, 0, len) != len) {
		rc = set_string(item, repl[K_GENERIC].text);
		if (rc == CORDON_OK)
			(*count)++;
		return rc;
	}
	if (mode == P_PASSARG && len > 5 && memcmp(s, "pass:", 5) == 0)
		sep = s + 4;
	else if (mode != P_NONE && pend_sep(mode))
		sep = memchr(s, pend_sep(mode), len);
	keep = sep ? (size_t)(sep - s) + 1 : 0;
	if (sep && value_ok(s, keep, len) &&
	    marker_at(s, keep, len) != len - keep) {
		/* user:[REDACTED], then the user is read as text, as it
		 * will be when the element is redacted again. */
		t = cordon__malloc(keep + repl[K_GENERIC].len + 1);
		if (!t)
			return CORDON_E_NOMEM;
		memcpy(t, s, keep);
		memcpy(t + keep, repl[K_GENERIC].text, repl[K_GENERIC].len + 1);
		rc = set_string(item, t);
		free(t);
		if (rc != CORDON_OK)
			return rc;
		(*count)++;
	}
	return json_string(item, count, ctx);
}

/* Is v, under a secret key, a value to replace whole? */
static bool secret_scalar(const cJSON *v)
{
	size_t len;

	if (cJSON_IsNumber(v))
		return true;
	if (!cJSON_IsString(v) || !v->valuestring)
		return false;
	len = strlen(v->valuestring);
	return len && marker_at(v->valuestring, 0, len) != len;
}

static enum cordon_err json_walk(cJSON *v, size_t *count, unsigned depth)
{
	struct argctx ctx;
	enum cordon_err rc = CORDON_OK;
	cJSON *c;

	if (depth > REDACT_JSON_DEPTH)
		return CORDON_E_LIMIT;
	if (cJSON_IsString(v) && v->valuestring)
		return json_string(v, count, NULL);
	if (cJSON_IsObject(v)) {
		for (c = v->child; c && rc == CORDON_OK; c = c->next) {
			if (c->string &&
			    redact_is_secret_name(c->string,
						  strlen(c->string)) &&
			    secret_scalar(c)) {
				rc = set_string(c, repl[K_GENERIC].text);
				if (rc == CORDON_OK)
					(*count)++;
				continue;
			}
			rc = json_walk(c, count, depth + 1);
		}
		return rc;
	}
	if (cJSON_IsArray(v)) {
		ctx_reset(&ctx);
		for (c = v->child; c && rc == CORDON_OK; c = c->next) {
			if (cJSON_IsString(c) && c->valuestring) {
				rc = json_argv_elem(c, &ctx, count);
				continue;
			}
			ctx_reset(&ctx);
			rc = json_walk(c, count, depth + 1);
		}
	}
	return rc;
}

enum cordon_err redact_json(cJSON *v, size_t *count)
{
	size_t n = 0;
	enum cordon_err rc;

	if (!v)
		return CORDON_OK;
	rc = json_walk(v, &n, 0);
	if (count)
		*count += n;
	return rc;
}
