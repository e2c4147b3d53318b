/* redact — finding secrets in text and replacing their values.
 *
 * One hand-written scanner, linear in the input (no regex, no
 * backtracking): every byte is looked at a bounded number of times. It is
 * pure: no I/O, no globals that change. Used by the audit log (every string
 * it writes), `cordon redact` (stdin to stdout) and cordon_redact().
 *
 * What it replaces (the value only; the key, flag or header name stays):
 *   - key=value and key: value (quoted or not, any case) for the key names
 *     api_key apikey token access_token secret client_secret password
 *     passwd pwd bearer authorization auth, as whole key names or as the
 *     last part of a longer one (x_api_key, "db-password"); URL query
 *     strings too (?token=…&…);
 *   - flags --api-key --token --password --bearer --auth --secret (and
 *     --client-secret, --access-token) with the value after '=' or as the
 *     next word; -p glued to its value for known clients (mysql -pSECRET);
 *     --token-file and friends are paths, not secrets, and stay;
 *   - Authorization: Bearer … / Basic … / Token … headers; user:password@
 *     in URLs (the password only);
 *   - known token formats, each with its kind: github-pat (ghp_ gho_ ghu_
 *     ghs_ ghr_ github_pat_), gitlab-pat (glpat-), slack-token
 *     (xox[abprs]-), aws-access-key (AKIA/ASIA + 16), aws-secret-key (40
 *     base64 characters near an AWS key id or an aws_secret… key),
 *     openai-key (sk-…, sk-proj-…), anthropic-key (sk-ant-…), google-api-key
 *     (AIza + 35), stripe-key (sk_live_ rk_live_), jwt (three base64url
 *     parts, the first starting eyJ), private-key (a PEM "-----BEGIN …
 *     PRIVATE KEY-----" block up to its END line, across lines);
 *   - NAME=value assignments (shell, env files, `export`) whose NAME
 *     matches the environment deny-list: *_API_KEY *_TOKEN *SECRET*
 *     *PASSWORD* *PASSWD* AWS_* *_KEY *CREDENTIAL* …;
 *   - bare opaque tokens of 32 or more characters from [A-Za-z0-9_+/=-]
 *     with letters and digits mixed (heuristic); all-hex strings (commit
 *     hashes, digests), UUIDs and words containing '/' or '.' (paths, file
 *     names, hosts) are left alone.
 * A value becomes "[REDACTED]", or "[REDACTED:<kind>]" for a known format.
 */
#ifndef CORDON_REDACT_H
#define CORDON_REDACT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cordon.h"

/* The largest input cordon_redact() and redact_append() take at once. */
#define REDACT_MAX_INPUT ((size_t)1 << 30)

/* What carries over from one call to the next when text comes in pieces
 * split at line ends: being inside a PEM private-key block, and whether
 * its one replacement is already written (the body's first line becomes
 * "[REDACTED:private-key]", the lines after it are dropped), or inside a
 * public block (a certificate, a public key), whose body is left alone.
 * Zero it to start. */
struct redact_state {
	bool in_pem;
	bool pem_marked; /* the block's "[REDACTED:private-key]" is written */
	bool in_public; /* inside a certificate or public-key block: kept */
};

/* Appends the redacted form of text[0..len) to out. Text fed in pieces
 * must be split just after a '\n' (the CLI feeds lines); a piece may hold
 * many lines. *count (may be NULL) is increased by the number of values
 * replaced. CORDON_E_NOMEM (also when out fails, at its ceiling);
 * CORDON_E_LIMIT over REDACT_MAX_INPUT. */
enum cordon_err redact_append(struct redact_state *st, const char *text,
			      size_t len, struct buf *out, size_t *count);

/* Redacts a JSON value in place: every string value is redacted as text;
 * an object member whose key is a secret key name (above, or an env
 * deny-list name) has a string or number value replaced whole by
 * "[REDACTED]"; in an array of strings (an argv), an element that is a
 * secret flag ("--token", "-p" after sshpass…) makes the next element
 * "[REDACTED]". Keys are not changed. *count as above. */
enum cordon_err redact_json(cJSON *v, size_t *count);

/* 1 when name is a secret key name or matches the environment deny-list
 * (case-insensitive), for callers that hold key/value pairs. */
bool redact_is_secret_name(const char *name, size_t len);

/* For test_redact. redact__tables_ok: each token format row sits under
 * its prefix's first byte, a body that can run past a key run has no
 * bound, the clients are sorted. redact__work: the scanner's steps on
 * this thread so far (byte classes looked up, bytes searched), counted
 * when redact__counting() (builds defining CORDON_REDACT_WORK, all but
 * release builds), else 0: a hostile-input test weighs work by it, not
 * by time. */
bool redact__tables_ok(void);
bool redact__counting(void);
extern _Thread_local size_t redact__work;

#endif
