/* mcpscan — see mcpscan.h.
 *
 * One walk over a string's UTF-8 does two things: it counts the hidden
 * characters (tag, zero-width, bidi, invalid bytes) and it feeds a
 * normalised token stream to the phrase matcher.
 *
 * Normalising: ASCII case folded; fullwidth, mathematical, enclosed and a
 * few Cyrillic and Greek look-alike letters mapped to ASCII; hidden
 * characters dropped (so they cannot split a word); whitespace dropped and
 * each run of punctuation cut to at most three tokens (its first and its
 * last two characters: enough for "</IMPORTANT>" and ".\n###"). Words keep
 * inner '.' and '-' ("mcp.json", "id_rsa.pub"), a leading '.' makes a
 * dotfile word (".env", ".ssh"), inner apostrophes go ("don't" is "dont"),
 * and letters spelled out one by one ("i g n o r e", "i.g.n.o.r.e") are
 * joined. The ASCII that tag characters spell goes to a second matcher, so
 * instructions written in invisible tag characters are read as well.
 *
 * A rule is a sequence of elements; an element is a set of alternatives (a
 * word, a word prefix "instruct*", one punctuation character, "END" for the
 * end of the text, or a few of these in a row) and the number of words
 * allowed between it and the element before. Punctuation never counts as
 * a gap; rules marked "sentence" do not reach across '.', '!', '?', ';' or
 * a line end. The matcher works on a window of tokens; windows overlap by
 * more than the longest match can span, so memory stays fixed whatever the
 * length of the text. A memo of failed (element, position) pairs keeps the
 * backtracking linear.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mcpscan.h"
#include "alloc.h"
#include "text.h"
#include "banned.h"

#define TOK_MAX 40 /* bytes of a word kept; longer words never equal */
#define WIN 512 /* tokens in one matcher window */
#define OVERLAP 192 /* tokens carried to the next window (> any span) */
#define MAX_ELEM 6 /* elements in one rule */
#define MAX_ATOMS 4 /* words in one alternative */
#define MAX_DEPTH 128 /* nesting mcpscan_tool walks */
#define ALT_POOL 1536 /* compiled alternatives, all rules together */
#define EXCERPT_MAX 56 /* bytes of matched text quoted in a finding */
#define WHERE_MAX 72 /* bytes of the field name quoted in a finding */
#define TAG_PREVIEW 40 /* decoded tag characters quoted in a finding */

/* ---- the rules ----------------------------------------------------------- */

struct rule_elem {
	const char *alts; /* "a|b c|d*": alternatives, words split by ' ' */
	unsigned gap; /* words allowed before it (ignored for the first) */
};

struct rule {
	const char *what; /* the finding's sentence */
	unsigned mode; /* R_SENTENCE, R_NAMES */
	const char *unless_next; /* alternatives that, right after, undo it */
	struct rule_elem e[MAX_ELEM];
};

#define R_SENTENCE 0x1u /* gaps stop at a sentence end */
#define R_NAMES 0x2u /* only for member names ("read_ssh_key") */

/* clang-format off */
#define V_IGNORE                                                               \
	"ignore|disregard|forget|override|bypass|neglect|ignoring|"            \
	"disregarding|forgetting|overriding|bypassing|supersede|discard|"      \
	"abandon|drop"

#define V_TAKE                                                                 \
	"read|cat|open|include|send|pass|upload|provide|attach|copy|"          \
	"exfiltrate|forward|post|leak|append|embed|dump|share|collect|"        \
	"retrieve|fetch|extract|grab|steal|transmit|email|paste|print|"        \
	"output|reveal|display|echo|insert|submit|access|base64|encode"

/* Things no tool description has a reason to ask the model to read or
 * send. Generic words ("password", "token", "credentials", "cookies",
 * "secret") only count qualified, so "include credentials in the request"
 * and "the next page token" stay clean. */
#define SECRET_OBJ                                                             \
	".ssh|id_rsa*|id_ed25519*|id_ecdsa*|id_dsa*|authorized_keys|"          \
	".env|.env.local|.env.production|.env.prod|.env.development|"          \
	".envrc|.aws|.gnupg|.gpg|.netrc|.npmrc|.pypirc|.git-credentials|"      \
	".kube|.docker|.pgpass|.my.cnf|.bash_history|.zsh_history|"            \
	"mcp.json|.mcp.json|claude_desktop_config.json|.claude.json|"          \
	".cursor|etc shadow|etc passwd|"                                       \
	"api key|api keys|apikey|apikeys|api_key|api_keys|api-key|api-keys|"  \
	"private key|private keys|private_key|secret key|secret keys|"         \
	"secret_key|access key|access keys|ssh key|ssh keys|signing key|"      \
	"gpg key|pgp key|master key|encryption key|client secret|"             \
	"client_secret|aws_secret_access_key|aws_access_key_id|"               \
	"seed phrase|recovery phrase|mnemonic|wallet key|keychain|keystore|"   \
	"keyring|your key|your keys|"                                          \
	"access token|access tokens|api token|api tokens|auth token|"          \
	"authentication token|bearer token|session token|refresh token|"       \
	"github token|oauth token|personal access token|secret token|"         \
	"your token|your tokens|bot token|npm token|jwt|"                      \
	"your password|your passwords|user password|users password|"          \
	"user passwords|stored password|stored passwords|saved password|"      \
	"saved passwords|all passwords|admin password|root password|"          \
	"account password|login password|database password|email password|"   \
	"browser password|browser passwords|passphrase|"                       \
	"your credentials|user credentials|users credentials|"                 \
	"aws credentials|cloud credentials|ssh credentials|git credentials|"   \
	"login credentials|stored credentials|saved credentials|"              \
	"all credentials|credentials file|credentials.json|.credentials|"      \
	"session cookie|session cookies|browser cookies|your cookies|"         \
	"user cookies|users cookies|auth cookie|auth cookies|"                 \
	"your secrets|all secrets|environment variables|env vars|"             \
	"your environment"

static const struct rule rules[] = {
	{ "asks to ignore earlier instructions", 0, NULL,
	  { { V_IGNORE, 0 },
	    { "previous|prior|above|earlier|preceding|system|original|"
	      "former|your|initial|existing|old|developer|safety",
	      3 },
	    { "instruction*|rules|prompt|prompts|direction|directions|"
	      "guideline*|guidance|constraint*|directive*|programming|"
	      "training|orders|context|messages",
	      3 } } },
	{ "asks to ignore all instructions", 0, NULL,
	  { { V_IGNORE, 0 },
	    { "all|every|everything|anything", 1 },
	    { "instruction*|prompt*|direction*|guideline*|directive*|"
	      "above|before|said|told|else you",
	      2 } } },
	{ "asks to ignore the user", 0, NULL,
	  { { "ignore|disregard|override|overrule", 0 },
	    { "user|users|human|humans", 2 },
	    { "request*|question*|instruction*|message*|wishes|"
	      "preference*|choice*|intent|answer*|wish",
	      1 } } },
	{ "contains an <IMPORTANT>-style block", 0, NULL,
	  { { "<", 0 },
	    { "important|system|instructions|instruction|secret|hidden|"
	      "admin|assistant|im_start|im_end|sys|inst|system_prompt|"
	      "system-prompt|critical|developer|ai_instructions|"
	      "instructions_for_ai|note_to_ai|hidden_instructions|"
	      "system_message|override",
	      0 },
	    { ">", 0 } } },
	{ "contains a [SYSTEM]-style marker", 0, NULL,
	  { { "[", 0 },
	    { "system|inst|sys|important|admin|instructions|assistant|"
	      "system message|system note|system prompt|developer",
	      0 },
	    { "]", 0 } } },
	{ "contains a \"### system\" heading", 0, NULL,
	  { { "#", 0 },
	    { "system|instructions|important|system prompt|system message|"
	      "admin|ai instructions|assistant instructions|developer",
	      0 },
	    { ":|\n|END", 0 } } },
	{ "asks to keep something from the user", R_SENTENCE, NULL,
	  { { "do not|dont|never|without|must not|mustnt|should not|"
	      "shouldnt|not to|nor",
	      0 },
	    { "tell*|mention*|inform*|reveal*|disclos*|notify*|notifi*|"
	      "alert*|warn*|ask*",
	      1 },
	    { "user|users|human|humans|anyone|anybody|operator", 5 } } },
	{ "asks not to mention what it does", R_SENTENCE, NULL,
	  { { "do not|dont|never|must not|mustnt", 0 },
	    { "mention|reveal|disclose|tell|explain|say|acknowledge|"
	      "report|admit",
	      0 },
	    { "this|that|it|these|any of this|the fact|anything about|"
	      "what you",
	      0 } } },
	{ "asks to hide something from the user", R_SENTENCE, NULL,
	  { { "hide|conceal|keep|withhold", 0 },
	    { "from", 4 },
	    { "user|users|human|humans|operator", 1 } } },
	{ "asks to act without the user knowing", R_SENTENCE, NULL,
	  { { "without", 0 },
	    { "user|users|human|them|anyone", 2 },
	    { "know*|notic*|realiz*|realis*|aware*|suspect*|find out|"
	      "finding out",
	      1 } } },
	{ "says the user must not know", R_SENTENCE, NULL,
	  { { "user|users|human", 0 },
	    { "should not|must not|need not|does not need to|doesnt need to|"
	      "wont|will not|cannot|shouldnt|mustnt|must never|"
	      "should never|never|is not to|isnt to",
	      1 },
	    { "know|notice|be told|be informed|find out|learn|be aware|"
	      "suspect|realize|realise",
	      1 } } },
	{ "asks to read or send secrets", R_SENTENCE,
	  "reset|resets|policy|policies|strength|requirement*|hint|hints|"
	  "field|prompt|rotation|change|length|manager|form|protected|less|"
	  "expir*|complexity|reset_link|template|example|sample|format|"
	  "name|names",
	  { { V_TAKE, 0 }, { SECRET_OBJ, 5 } } },
	{ "asks to pass file contents along", R_SENTENCE, NULL,
	  { { "pass|send|include|provide|put|insert|append|attach|embed|"
	      "forward|add|copy|paste|upload",
	      0 },
	    { "its|their|whose", 1 },
	    { "content|contents|text|data|value|values|output", 0 } } },
	{ "asks to act before any other tool", R_SENTENCE, NULL,
	  { { "before|prior to|ahead of", 0 },
	    { "using|calling|invoking|running|executing|use|call|invoke|"
	      "run|execute|any|every|each|all",
	      1 },
	    { "any|every|each|all|other|another", 1 },
	    { "tool*|function*", 2 },
	    { "must|first|always|need to|needs to|required|mandatory|"
	      "should|have to",
	      12 } } },
	{ "asks to read or send something before the tool is used", R_SENTENCE,
	  NULL,
	  { { "before|prior to", 0 },
	    { "using|calling|invoking|running|executing|use|call|invoke|"
	      "run|execute",
	      1 },
	    { "this|the|these", 1 },
	    { "tool*|function*", 1 },
	    { "read|cat|send|pass|upload|attach|exfiltrate|forward|paste|"
	      "email|base64|encode",
	      12 } } },
	{ "asks to change how another tool is used", 0, NULL,
	  { { "when|whenever|if|once", 0 },
	    { "call|calls|use|uses|using|calling|invoke*|run|runs|"
	      "execute*|try to use|tries to use",
	      3 },
	    { "any|another|the|a|other", 1 },
	    { "tool*|function*", 4 },
	    { "instead|rather than|in place of", 20 } } },
	{ "refers to other tools while this one is present", 0, NULL,
	  { { "when|while|whenever|if|once", 0 },
	    { "this tool|this server|this function", 0 },
	    { "is|are", 0 },
	    { "available|present|loaded|enabled|installed|active|connected|"
	      "in use|in context",
	      0 },
	    { "must|should|always|never|tool*|function*", 12 } } },
	{ "asks not to use another tool", 0, NULL,
	  { { "never|do not|dont|must not|should not", 0 },
	    { "use|call|invoke|run", 0 },
	    { "the|any|other|another|built-in|builtin|default|native", 0 },
	    { "tool*|function*", 3 },
	    { "instead|use this|call this", 8 } } },
	{ "asks to add something to every command or answer", 0, NULL,
	  { { "always|must|should", 0 },
	    { "append|prepend|add|inject|insert", 1 },
	    { "to|in|into", 6 },
	    { "every|all|each|any", 1 },
	    { "command*|shell command*|response*|answer*|reply|replies|"
	      "message*|output*|commit*|code|script*",
	      2 } } },
	{ "claims a side effect on another tool", 0, NULL,
	  { { "side effect|side effects|side-effect|side-effects", 0 },
	    { "on|for|upon|to", 0 },
	    { "tool*|function*", 5 } } },
	{ "asks to redirect messages or payments", R_SENTENCE, NULL,
	  { { "must|should|always|shall", 0 },
	    { "send|forward|bcc|cc|redirect|route|copy|transfer|email", 1 },
	    { "all|every|each|any", 1 },
	    { "email*|mail*|message*|payment*|transfer*|fund*|money|crypto*|"
	      "recipient*|invoice*",
	      2 } } },
	{ "claims hidden or real instructions", 0, NULL,
	  { { "real|actual|true|hidden|secret", 0 },
	    { "instruction|instructions|task|goal|objective|purpose|"
	      "directive|directives|mission",
	      0 },
	    { ":|is|are", 0 } } },
	{ "announces new instructions", 0, NULL,
	  { { "new|updated|additional|revised|override", 0 },
	    { "instructions|directives|orders|system prompt|rules", 0 },
	    { ":", 0 } } },
	{ "tries to change the model's behaviour from now on", 0, NULL,
	  { { "from now on|henceforth|from this point on|"
	      "from this point forward",
	      0 },
	    { "you|always|never|ignore|must|do|respond|act|answer|reply|"
	      "pretend|behave|treat|only",
	      2 } } },
	{ "tries to give the model a new role", 0, NULL,
	  { { "you are now|pretend to be|pretend you are|roleplay as|"
	      "you must now act|you will now act|you are no longer",
	      0 },
	    { "a|an|the|dan|developer|unrestricted|jailbroken|admin|root|"
	      "system|evil|free|bound|limited|restricted|an ai|assistant",
	      1 } } },
	{ "asks to reveal the prompt or the conversation", R_SENTENCE, NULL,
	  { { "reveal|print|output|repeat|leak|dump|send|exfiltrate|share|"
	      "copy|pass|disclose|append|attach|forward|upload|email",
	      0 },
	    { "system prompt|system message|system instructions|"
	      "initial prompt|initial instructions|hidden instructions|"
	      "previous instructions|instructions above|prior instructions|"
	      "conversation history|chat history|previous messages|"
	      "entire conversation|full conversation|whole conversation|"
	      "prior conversation|earlier messages|conversation so far",
	      4 } } },
	/* A member name is not a sentence: in "content_from_reading_ssh_id_rsa"
	 * (split at '_', '-' and case changes first) any mention of reading a
	 * secret counts. */
	{ .what = "names a secret to read",
	  .mode = R_NAMES,
	  .e = { { "read|reading|content|contents|from|of|dump|steal|"
		   "exfil*|leak*|upload*|send*|copy|grab",
		   0 },
		 { "ssh|id rsa|id ed25519|id ecdsa|id dsa|private key|"
		   "ssh key|mcp json|aws credentials|env file|dotenv|"
		   "passwords|credentials|api keys|secrets|gnupg|netrc|"
		   "keychain|cookies",
		   3 } } },
};

/* clang-format on */

#define NRULES (sizeof(rules) / sizeof(rules[0]))
_Static_assert(NRULES <= 64, "a rule's hit is one bit of a uint64_t");

/* ---- the rules compiled -------------------------------------------------- */

enum atom_kind { A_EXACT, A_PREFIX, A_PUNCT, A_END };

struct atom {
	const char *s;
	uint8_t len;
	uint8_t kind;
};

struct alt {
	struct atom a[MAX_ATOMS];
	uint8_t n;
};

struct celem {
	const struct alt *alts;
	uint16_t nalts;
	uint8_t gap;
	bool has_end;
	uint64_t first[4]; /* first bytes of the alternatives' first atoms */
};

struct crule {
	struct celem e[MAX_ELEM];
	uint8_t n;
	struct celem unless; /* nalts 0: none */
	/* For the first element, by first byte: the token lengths that can
	 * start a match (bit n: length n). Most tokens start no rule, and
	 * this says so in one load. */
	uint64_t start_len[256];
};

static struct alt alt_pool[ALT_POOL];
static size_t alt_used;
static struct crule crules[NRULES];
static bool compiled_ok;
static pthread_once_t compile_once = PTHREAD_ONCE_INIT;

static bool is_punct_byte(unsigned char c)
{
	return (c > 0x20 && c < 0x7f && !(c >= '0' && c <= '9') &&
		!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		c != '_') ||
	       c == '\n';
}

/* Parses "a|b c|d*" into e. false when the pool or an alternative is too
 * small (a table error, caught by the tests). */
static bool compile_elem(const char *src, unsigned gap, struct celem *e)
{
	const char *p = src;

	memset(e, 0, sizeof(*e));
	e->alts = &alt_pool[alt_used];
	e->gap = (uint8_t)gap;
	while (*p) {
		struct alt *a;
		const char *end = strchr(p, '|');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		size_t i = 0;

		if (alt_used >= ALT_POOL || n == 0)
			return false;
		a = &alt_pool[alt_used++];
		memset(a, 0, sizeof(*a));
		while (i < n) {
			size_t j = i;
			struct atom *at;

			while (j < n && p[j] != ' ')
				j++;
			if (j == i || a->n >= MAX_ATOMS || j - i > TOK_MAX)
				return false;
			at = &a->a[a->n++];
			at->s = p + i;
			at->len = (uint8_t)(j - i);
			if (at->len == 3 && memcmp(at->s, "END", 3) == 0)
				at->kind = A_END;
			else if (at->len == 1 &&
				 is_punct_byte((unsigned char)at->s[0]))
				at->kind = A_PUNCT;
			else if (at->s[at->len - 1] == '*') {
				at->kind = A_PREFIX;
				at->len--;
			} else {
				at->kind = A_EXACT;
			}
			i = j + 1;
		}
		if (a->a[0].kind == A_END) {
			e->has_end = true;
		} else {
			unsigned char c = (unsigned char)a->a[0].s[0];
			e->first[c >> 6] |= (uint64_t)1 << (c & 63);
		}
		e->nalts++;
		p += n;
		if (*p == '|')
			p++;
	}
	return e->nalts > 0;
}

static void compile_rules(void)
{
	for (size_t r = 0; r < NRULES; r++) {
		struct crule *cr = &crules[r];

		for (size_t i = 0; i < MAX_ELEM && rules[r].e[i].alts; i++) {
			if (!compile_elem(rules[r].e[i].alts, rules[r].e[i].gap,
					  &cr->e[i]))
				return;
			cr->n++;
		}
		for (size_t i = 0; i < cr->e[0].nalts; i++) {
			const struct atom *a = &cr->e[0].alts[i].a[0];
			unsigned char c = (unsigned char)a->s[0];

			if (a->kind == A_END)
				continue;
			if (a->kind == A_PREFIX)
				cr->start_len[c] |= ~(uint64_t)0 << a->len;
			else
				cr->start_len[c] |= (uint64_t)1 << a->len;
		}
		if (rules[r].unless_next &&
		    !compile_elem(rules[r].unless_next, 0, &cr->unless))
			return;
	}
	compiled_ok = true;
}

/* ---- characters ---------------------------------------------------------- */

/* The code point at s[0..n) for the scan's loops: -1 for a byte that does
 * not start a well-formed sequence, with *len 1. */
static int32_t u8_decode(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t cp;
	size_t k = text_utf8_decode(s, n, &cp);

	*len = k ? k : 1;
	return k ? (int32_t)cp : -1;
}

enum hid { HID_NONE = 0, HID_TAG, HID_ZW, HID_BIDI };

static bool is_pictographic(uint32_t cp)
{
	return (cp >= 0x1f000 && cp <= 0x1faff) ||
	       (cp >= 0x2300 && cp <= 0x23ff) ||
	       (cp >= 0x2600 && cp <= 0x27bf) ||
	       (cp >= 0x2b00 && cp <= 0x2bff) || cp == 0xfe0f || cp == 0x00a9 ||
	       cp == 0x00ae || cp == 0x2640 || cp == 0x2642;
}

/* Scripts where ZWJ and ZWNJ are part of ordinary spelling. */
static bool is_joining_script(uint32_t cp)
{
	return (cp >= 0x0600 && cp <= 0x08ff && cp != 0x061c) ||
	       (cp >= 0x0900 && cp <= 0x0dff) ||
	       (cp >= 0x0e00 && cp <= 0x0fff) ||
	       (cp >= 0x1780 && cp <= 0x17ff && cp != 0x17b4 && cp != 0x17b5);
}

static bool is_variation_selector(uint32_t cp)
{
	return (cp >= 0xfe00 && cp <= 0xfe0f) ||
	       (cp >= 0xe0100 && cp <= 0xe01ef);
}

/* The hidden class of cp between prev and next (0: none or the end). A
 * zero-width joiner inside an emoji sequence, ZWJ/ZWNJ between letters of
 * a script that needs them, and one variation selector after a character
 * are ordinary text; a run of variation selectors is a known way to smuggle
 * bytes, and the supplement's selectors have no use in a description. */
static enum hid hidden_class(uint32_t cp, uint32_t prev, uint32_t next)
{
	if (cp < 0xad)
		return HID_NONE;
	if (cp >= 0xe0000 && cp <= 0xe007f)
		return HID_TAG;
	if (text_is_bidi_control(cp))
		return HID_BIDI;
	if (cp == 0x200d && is_pictographic(prev) && is_pictographic(next))
		return HID_NONE;
	if ((cp == 0x200c || cp == 0x200d) && is_joining_script(prev) &&
	    is_joining_script(next))
		return HID_NONE;
	if (cp >= 0xfe00 && cp <= 0xfe0f)
		return is_variation_selector(prev) ? HID_ZW : HID_NONE;
	if ((cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2065) ||
	    (cp >= 0x206a && cp <= 0x206f) || cp == 0xfeff || cp == 0x180e ||
	    cp == 0x00ad || cp == 0x034f || cp == 0x115f || cp == 0x1160 ||
	    cp == 0x3164 || cp == 0xffa0 || cp == 0x17b4 || cp == 0x17b5 ||
	    (cp >= 0xfff9 && cp <= 0xfffb) ||
	    (cp >= 0x1d173 && cp <= 0x1d17a) ||
	    (cp >= 0xe0100 && cp <= 0xe01ef))
		return HID_ZW;
	return HID_NONE;
}

/* Characters shown escaped: controls, the hidden classes, line and
 * paragraph separators. */
static bool must_escape(uint32_t cp, uint32_t prev, uint32_t next)
{
	return text_is_control(cp) || hidden_class(cp, prev, next) != HID_NONE;
}

struct confusable {
	uint16_t cp;
	char to;
};

/* Cyrillic and Greek letters that look like Latin ones (sorted). */
static const struct confusable confusables[] = {
	{ 0x0261, 'g' }, { 0x0391, 'a' }, { 0x0392, 'b' }, { 0x0395, 'e' },
	{ 0x0396, 'z' }, { 0x0397, 'h' }, { 0x0399, 'i' }, { 0x039a, 'k' },
	{ 0x039c, 'm' }, { 0x039d, 'n' }, { 0x039f, 'o' }, { 0x03a1, 'p' },
	{ 0x03a4, 't' }, { 0x03a5, 'y' }, { 0x03a7, 'x' }, { 0x03b1, 'a' },
	{ 0x03b9, 'i' }, { 0x03ba, 'k' }, { 0x03bd, 'v' }, { 0x03bf, 'o' },
	{ 0x03c1, 'p' }, { 0x03c4, 't' }, { 0x03c5, 'u' }, { 0x0405, 's' },
	{ 0x0406, 'i' }, { 0x0408, 'j' }, { 0x0410, 'a' }, { 0x0412, 'b' },
	{ 0x0415, 'e' }, { 0x041a, 'k' }, { 0x041c, 'm' }, { 0x041d, 'h' },
	{ 0x041e, 'o' }, { 0x0420, 'p' }, { 0x0421, 'c' }, { 0x0422, 't' },
	{ 0x0423, 'y' }, { 0x0425, 'x' }, { 0x0430, 'a' }, { 0x0435, 'e' },
	{ 0x043e, 'o' }, { 0x0440, 'p' }, { 0x0441, 'c' }, { 0x0443, 'y' },
	{ 0x0445, 'x' }, { 0x0455, 's' }, { 0x0456, 'i' }, { 0x0458, 'j' },
	{ 0x04bb, 'h' }, { 0x0501, 'd' }, { 0x051b, 'q' }, { 0x051d, 'w' },
};

/* Maps cp for the matcher: ASCII letters lower-cased, look-alikes to ASCII,
 * quotes and spaces to their ASCII forms. Other characters unchanged. */
static uint32_t map_cp(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
	if (cp >= 0xff01 && cp <= 0xff5e)
		return map_cp(cp - 0xfee0);
	if (cp >= 0x1d400 && cp <= 0x1d6a3)
		return 'a' + (cp - 0x1d400) % 52 % 26;
	if (cp >= 0x1d7ce && cp <= 0x1d7ff)
		return '0' + (cp - 0x1d7ce) % 10;
	if (cp >= 0x24b6 && cp <= 0x24cf)
		return 'a' + (cp - 0x24b6);
	if (cp >= 0x24d0 && cp <= 0x24e9)
		return 'a' + (cp - 0x24d0);
	if (cp >= 0x249c && cp <= 0x24b5)
		return 'a' + (cp - 0x249c);
	if (cp >= 0x1f130 && cp <= 0x1f149)
		return 'a' + (cp - 0x1f130);
	if (cp >= 0x1f170 && cp <= 0x1f189)
		return 'a' + (cp - 0x1f170);
	if (cp >= 0x1f1e6 && cp <= 0x1f1ff)
		return 'a' + (cp - 0x1f1e6);
	switch (cp) {
	case 0x2018:
	case 0x2019:
	case 0x02bc:
		return '\'';
	case 0x201c:
	case 0x201d:
		return '"';
	case 0x2028:
	case 0x2029:
	case 0x0085:
		return '\n';
	case 0x3002:
	case 0xff61:
		return '.';
	case 0x2039:
	case 0x3008:
	case 0x27e8:
	case 0xfe64:
		return '<';
	case 0x203a:
	case 0x3009:
	case 0x27e9:
	case 0xfe65:
		return '>';
	case 0x00a0:
	case 0x1680:
	case 0x202f:
	case 0x205f:
	case 0x3000:
		return ' ';
	}
	if (cp >= 0x2000 && cp <= 0x200a)
		return ' ';
	if (cp >= 0x2010 && cp <= 0x2015)
		return '-';
	if (cp <= 0xffff) {
		size_t lo = 0,
		       hi = sizeof(confusables) / sizeof(confusables[0]);
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (confusables[mid].cp == cp)
				return (uint32_t)confusables[mid].to;
			if (confusables[mid].cp < cp)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return cp;
}

/* Non-ASCII characters that separate words like punctuation: Latin-1
 * symbols, general punctuation, arrows, maths, box drawing, symbols,
 * CJK punctuation, small forms and emoji. */
static bool is_sep_nonascii(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0xbf) || cp == 0xd7 || cp == 0xf7 ||
	       (cp >= 0x2000 && cp <= 0x2bff) ||
	       (cp >= 0x2e00 && cp <= 0x2e7f) ||
	       (cp >= 0x3000 && cp <= 0x303f) ||
	       (cp >= 0xfe10 && cp <= 0xfe6f) ||
	       (cp >= 0xff00 && cp <= 0xff0f) ||
	       (cp >= 0x1f000 && cp <= 0x1faff);
}

static bool is_word_cp(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		       c == '_' || (c >= 'A' && c <= 'Z');
	return !is_sep_nonascii(c);
}

static bool is_break_char(char c)
{
	return c == '.' || c == '!' || c == '?' || c == ';' || c == '\n';
}

/* ---- findings ------------------------------------------------------------ */

/* Cuts s (NUL-terminated, in a buffer of cap bytes) back to a code point
 * boundary when it was truncated, ending it with "…" when room allows. */
static void fix_truncation(char *s, size_t cap, bool truncated)
{
	size_t n = strlen(s);

	if (!truncated)
		return;
	while (n > 0 && ((unsigned char)s[n - 1] & 0xc0) == 0x80)
		n--;
	if (n > 0 && (unsigned char)s[n - 1] >= 0xc0)
		n--;
	if (cap >= 4 && n > cap - 4)
		n = cap - 4;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	if (cap >= 4) {
		memcpy(s + n, "\xe2\x80\xa6", 3);
		n += 3;
	}
	s[n] = '\0';
}

__attribute__((format(printf, 2, 3))) static void
add_finding(struct mcpscan_result *r, const char *fmt, ...)
{
	const size_t cap = sizeof(r->findings[0]);
	va_list ap;
	int k;

	if (r->nfindings < sizeof(r->findings) / sizeof(r->findings[0])) {
		char *dst = r->findings[r->nfindings];

		va_start(ap, fmt);
		k = vsnprintf(dst, cap, fmt, ap);
		va_end(ap);
		if (k < 0)
			dst[0] = '\0';
		fix_truncation(dst, cap, k >= 0 && (size_t)k >= cap);
	}
	if (r->nfindings < SIZE_MAX)
		r->nfindings++;
}

/* Escapes s[0..len) into out (cap bytes; NUL-terminated when cap > 0),
 * never splitting an escape; returns the length the whole escape needs. */
static size_t esc_into(char *out, size_t cap, const char *s, size_t len,
		       bool *truncated)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, need = 0, o = 0;
	uint32_t prev = 0;
	bool full = false;

	while (i < len) {
		size_t n, nn;
		int32_t cp = u8_decode(p + i, len - i, &n);
		int32_t next = i + n < len ?
				       u8_decode(p + i + n, len - i - n, &nn) :
				       0;
		char unit[16];
		size_t ulen;

		if (cp < 0) {
			snprintf(unit, sizeof(unit), "\\x%02X", p[i]);
			ulen = 4;
			prev = 0;
		} else if (must_escape((uint32_t)cp, prev,
				       next < 0 ? 0 : (uint32_t)next)) {
			int k = snprintf(unit, sizeof(unit), "\\u{%04X}",
					 (unsigned)cp);
			ulen = (size_t)k;
			prev = (uint32_t)cp;
		} else {
			memcpy(unit, p + i, n);
			ulen = n;
			prev = (uint32_t)cp;
		}
		need += ulen;
		if (!full && cap > 0 && o + ulen < cap) {
			memcpy(out + o, unit, ulen);
			o += ulen;
		} else {
			full = true;
		}
		i += n;
	}
	if (cap > 0)
		out[o] = '\0';
	if (truncated)
		*truncated = full;
	return need;
}

char *mcpscan_escape(const char *s, size_t len)
{
	size_t need;
	char *out;

	if (!s)
		len = 0;
	need = esc_into(NULL, 0, s, len, NULL);
	if (need == SIZE_MAX)
		return NULL;
	out = cordon__malloc(need + 1);
	if (!out)
		return NULL;
	esc_into(out, need + 1, s, len, NULL);
	return out;
}

const char *mcpscan_flag_name(unsigned flag)
{
	switch (flag) {
	case MCPSCAN_HIDDEN_TAG:
		return "tag-characters";
	case MCPSCAN_ZERO_WIDTH:
		return "zero-width-characters";
	case MCPSCAN_BIDI:
		return "bidi-controls";
	case MCPSCAN_POISONING:
		return "tool-poisoning";
	case MCPSCAN_BAD_UTF8:
		return "invalid-utf8";
	case MCPSCAN_UNSCANNED:
		return "unscanned";
	}
	return NULL;
}

/* ---- the matcher --------------------------------------------------------- */

enum { TK_WORD = 1, TK_PUNCT = 2 };
#define TF_LONG 0x1 /* the word was longer than TOK_MAX */
#define TF_BREAK 0x2 /* a sentence ends here */

struct tok {
	uint8_t kind;
	uint8_t flags;
	uint8_t len;
	char s[TOK_MAX];
};

struct matcher {
	struct tok t[WIN];
	size_t n;
	uint32_t memo[MAX_ELEM + 1][WIN + 1];
	uint32_t stamp;
	uint64_t hit; /* rules already reported for this text */
	/* the word being read */
	char w[TOK_MAX];
	size_t wlen; /* bytes kept in w */
	bool wlong; /* more bytes than TOK_MAX */
	bool in_word;
	/* single letters waiting to be joined ("i g n o r e") */
	char run[TOK_MAX];
	size_t nrun;
	bool run_long;
	/* the punctuation run since the last word (adjacent repeats once) */
	size_t np;
	char p_first, p_prev, p_last;
	bool p_break;
	/* one code point of look-ahead */
	uint32_t pending;
	bool have_pending;
	/* where findings go */
	struct mcpscan_result *r;
	const char *where;
	const char *label;
	bool is_name; /* a member name: names_only rules apply */
};

static void m_reset(struct matcher *m, struct mcpscan_result *r,
		    const char *where, const char *label)
{
	m->is_name = false;
	m->n = 0;
	m->hit = 0;
	m->wlen = 0;
	m->wlong = false;
	m->in_word = false;
	m->nrun = 0;
	m->run_long = false;
	m->np = 0;
	m->p_break = false;
	m->have_pending = false;
	m->r = r;
	m->where = where;
	m->label = label;
}

static bool bitmap_has(const struct celem *e, unsigned char c)
{
	return (e->first[c >> 6] >> (c & 63)) & 1;
}

static bool atom_match(const struct atom *a, const struct tok *t)
{
	switch (a->kind) {
	case A_PUNCT:
		return t->kind == TK_PUNCT && t->s[0] == a->s[0];
	case A_EXACT:
		return t->kind == TK_WORD && !(t->flags & TF_LONG) &&
		       t->len == a->len && memcmp(t->s, a->s, a->len) == 0;
	case A_PREFIX:
		return t->kind == TK_WORD && t->len >= a->len &&
		       memcmp(t->s, a->s, a->len) == 0;
	}
	return false;
}

/* Does alternative a match at token j? *end: the token after it. Words of
 * one alternative may have punctuation between them, not a sentence end. */
static bool alt_match(const struct matcher *m, const struct alt *a, size_t j,
		      bool final, size_t *end)
{
	size_t k = j;

	for (size_t i = 0; i < a->n; i++) {
		const struct atom *at = &a->a[i];

		if (at->kind == A_END) {
			if (k != m->n || !final)
				return false;
			continue;
		}
		if (i > 0 && at->kind != A_PUNCT)
			while (k < m->n && m->t[k].kind == TK_PUNCT &&
			       !(m->t[k].flags & TF_BREAK))
				k++;
		if (k >= m->n || !atom_match(at, &m->t[k]))
			return false;
		k++;
	}
	*end = k;
	return true;
}

static bool elem_at(const struct matcher *m, const struct celem *e, size_t j,
		    bool final, size_t *end)
{
	if (j < m->n) {
		if (!bitmap_has(e, (unsigned char)m->t[j].s[0]))
			return false;
	} else if (!e->has_end) {
		return false;
	}
	for (size_t i = 0; i < e->nalts; i++)
		if (alt_match(m, &e->alts[i], j, final, end))
			return true;
	return false;
}

/* Can elements ei… of rule ri be found from token p on? */
static bool search(struct matcher *m, size_t ri, size_t ei, size_t p,
		   bool final, size_t *end)
{
	const struct crule *cr = &crules[ri];
	const struct celem *e;
	size_t words = 0;

	if (ei == cr->n) {
		size_t q = p, dummy;
		if (cr->unless.nalts && q < m->n &&
		    elem_at(m, &cr->unless, q, final, &dummy))
			return false;
		*end = p;
		return true;
	}
	if (m->memo[ei][p] == m->stamp)
		return false;
	e = &cr->e[ei];
	for (size_t j = p; j <= m->n; j++) {
		size_t k;

		if (elem_at(m, e, j, final, &k) &&
		    search(m, ri, ei + 1, k, final, end))
			return true;
		if (j == m->n)
			break;
		if (m->t[j].kind == TK_WORD) {
			if (++words > e->gap)
				break;
		} else if ((m->t[j].flags & TF_BREAK) &&
			   (rules[ri].mode & R_SENTENCE)) {
			break;
		}
	}
	m->memo[ei][p] = m->stamp;
	return false;
}

/* Renders tokens [a, b) for a finding. */
static void excerpt(const struct matcher *m, size_t a, size_t b, char *out,
		    size_t cap)
{
	size_t o = 0;
	bool truncated = false;
	char prev = 0; /* 'w' after a word, else the punctuation */

	for (size_t i = a; i < b && !truncated; i++) {
		const struct tok *t = &m->t[i];
		bool space;
		char c;

		if (t->kind == TK_PUNCT && t->s[0] == '\n')
			c = ' ';
		else
			c = t->kind == TK_WORD ? 'w' : t->s[0];
		if (t->kind == TK_WORD)
			space = prev == 'w' ||
				(prev && strchr(".,;:!?>])#`'\"", prev));
		else
			space = prev == 'w' && strchr("<[(~#`'\"", c);
		if (c == ' ') {
			space = false;
			if (o > 0 && out[o - 1] != ' ' && o + 1 < cap)
				out[o++] = ' ';
			prev = 0;
			continue;
		}
		if (space && o > 0 && out[o - 1] != ' ') {
			if (o + 1 >= cap) {
				truncated = true;
				break;
			}
			out[o++] = ' ';
		}
		if (o + t->len >= cap) {
			truncated = true;
			break;
		}
		memcpy(out + o, t->s, t->len);
		o += t->len;
		prev = c;
	}
	out[o] = '\0';
	fix_truncation(out, cap, truncated);
}

static void report_hit(struct matcher *m, size_t ri, size_t a, size_t b)
{
	char ex[EXCERPT_MAX];

	excerpt(m, a, b, ex, sizeof(ex));
	m->r->flags |= MCPSCAN_POISONING;
	add_finding(m->r, "%s%s: %s: \"%s\" (tool-poisoning)", m->where,
		    m->label ? m->label : "", rules[ri].what, ex);
}

/* Runs every rule from the tokens that start in this window; keeps the
 * last OVERLAP tokens for the next window unless final. */
static void m_run(struct matcher *m, bool final)
{
	size_t limit = final ? m->n : m->n - OVERLAP;

	for (size_t ri = 0; ri < NRULES; ri++) {
		const struct celem *e0 = &crules[ri].e[0];

		if ((m->hit & ((uint64_t)1 << ri)) ||
		    ((rules[ri].mode & R_NAMES) && !m->is_name))
			continue;
		if (++m->stamp == 0) {
			memset(m->memo, 0, sizeof(m->memo));
			m->stamp = 1;
		}
		for (size_t s = 0; s < limit; s++) {
			const struct tok *t = &m->t[s];
			size_t k, end;

			if (!((crules[ri].start_len[(unsigned char)t->s[0]] >>
			       t->len) &
			      1) ||
			    !elem_at(m, e0, s, final, &k))
				continue;
			if (search(m, ri, 1, k, final, &end)) {
				m->hit |= (uint64_t)1 << ri;
				report_hit(m, ri, s, end);
				break;
			}
		}
	}
	if (!final) {
		memmove(m->t, m->t + limit, (m->n - limit) * sizeof(m->t[0]));
		m->n -= limit;
	}
}

static void push_tok(struct matcher *m, uint8_t kind, uint8_t flags,
		     const char *s, size_t len)
{
	struct tok *t = &m->t[m->n++];

	t->kind = kind;
	t->flags = flags;
	t->len = (uint8_t)len;
	memcpy(t->s, s, len);
	if (m->n == WIN)
		m_run(m, false);
}

static void flush_run(struct matcher *m)
{
	if (m->nrun >= 3) {
		push_tok(m, TK_WORD, m->run_long ? TF_LONG : 0, m->run,
			 m->nrun);
	} else {
		for (size_t i = 0; i < m->nrun; i++)
			push_tok(m, TK_WORD, 0, &m->run[i], 1);
	}
	m->nrun = 0;
	m->run_long = false;
}

static void flush_punct(struct matcher *m)
{
	char out[3];
	size_t n = 0;
	bool has_break = false;

	if (m->np == 0)
		return;
	out[n++] = m->p_first;
	if (m->np >= 3)
		out[n++] = m->p_prev;
	if (m->np >= 2)
		out[n++] = m->p_last;
	for (size_t i = 0; i < n; i++)
		has_break |= is_break_char(out[i]);
	for (size_t i = 0; i < n; i++) {
		uint8_t fl = is_break_char(out[i]) ? TF_BREAK : 0;
		if (i == 0 && m->p_break && !has_break)
			fl |= TF_BREAK;
		push_tok(m, TK_PUNCT, fl, &out[i], 1);
	}
	m->np = 0;
	m->p_break = false;
}

static void punct_add(struct matcher *m, char c)
{
	m->p_break |= is_break_char(c);
	if (m->np > 0 && c == m->p_last)
		return;
	if (m->np == 0)
		m->p_first = c;
	m->p_prev = m->p_last;
	m->p_last = c;
	m->np++;
}

/* "i.g.n.o.r.e", "i-g-n-o-r-e", "i_g_n_o_r_e": single characters with one
 * separator between each, at least three of them: joined. */
static void unspell(struct matcher *m)
{
	size_t n = m->wlen;

	if (m->wlong || n < 5 || n % 2 == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)m->w[i];
		if (i % 2 == 0 ? !((c >= 'a' && c <= 'z') ||
				   (c >= '0' && c <= '9')) :
				 !(c == '.' || c == '-' || c == '_'))
			return;
	}
	for (size_t i = 0; i * 2 < n; i++)
		m->w[i] = m->w[i * 2];
	m->wlen = (n + 1) / 2;
}

static void end_word(struct matcher *m)
{
	bool single;

	m->in_word = false;
	unspell(m);
	single = m->wlen == 1 && !m->wlong && m->w[0] >= 'a' && m->w[0] <= 'z';
	if (m->np > 0 || !single) {
		flush_run(m);
		flush_punct(m);
	}
	if (single) {
		if (m->nrun < TOK_MAX)
			m->run[m->nrun++] = m->w[0];
		else
			m->run_long = true;
		return;
	}
	push_tok(m, TK_WORD, m->wlong ? TF_LONG : 0, m->w, m->wlen);
}

static void word_add(struct matcher *m, uint32_t c)
{
	char b[4];
	size_t n;

	if (!m->in_word) {
		m->in_word = true;
		m->wlen = 0;
		m->wlong = false;
	}
	n = text_utf8_encode(c, b); /* c came from the decoder */
	if (m->wlen + n <= TOK_MAX && !m->wlong) {
		memcpy(m->w + m->wlen, b, n);
		m->wlen += n;
	} else {
		m->wlong = true;
	}
}

/* One mapped code point c, with the next one (0 at the end). */
static void feed(struct matcher *m, uint32_t c, uint32_t next)
{
	if (is_word_cp(c)) {
		word_add(m, (c >= 'A' && c <= 'Z') ? c + 32 : c);
		return;
	}
	if (m->in_word) {
		if ((c == '.' || c == '-') && is_word_cp(next)) {
			word_add(m, c);
			return;
		}
		if (c == '\'' && is_word_cp(next))
			return;
		end_word(m);
	} else if (c == '.' && is_word_cp(next)) {
		word_add(m, c);
		return;
	}
	if (c < 0x80 && is_punct_byte((unsigned char)c))
		punct_add(m, (char)c);
}

/* Queues mapped code point c; the one before it is fed with c as its
 * look-ahead. */
static void m_put(struct matcher *m, uint32_t c)
{
	if (m->have_pending)
		feed(m, m->pending, c);
	m->pending = c;
	m->have_pending = true;
}

static void m_finish(struct matcher *m)
{
	if (m->have_pending)
		feed(m, m->pending, 0);
	m->have_pending = false;
	if (m->in_word)
		end_word(m);
	flush_run(m);
	flush_punct(m);
	m_run(m, true);
}

/* ---- one string ---------------------------------------------------------- */

struct scanner {
	struct matcher main;
	struct matcher tag;
};

struct census {
	size_t n[4]; /* by enum hid */
	uint32_t first[4];
	size_t first_at[4];
	uint32_t second_tag; /* the second tag character, for the finding */
	size_t nbad;
	size_t first_bad;
	char preview[TAG_PREVIEW + 1];
	size_t npreview;
	bool more_preview;
};

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void report_census(struct mcpscan_result *r, const char *where,
			  const struct census *c)
{
	if (c->n[HID_TAG]) {
		char preview[TAG_PREVIEW + 8];
		char second[16] = "";

		r->flags |= MCPSCAN_HIDDEN_TAG;
		snprintf(preview, sizeof(preview), "%s%s", c->preview,
			 c->more_preview ? "\xe2\x80\xa6" : "");
		if (c->n[HID_TAG] > 1)
			snprintf(second, sizeof(second), " U+%04X",
				 (unsigned)c->second_tag);
		add_finding(r,
			    "%s: U+%04X%s%s (%zu tag character%s spelling "
			    "\"%s\"; that text is scanned too)",
			    where, (unsigned)c->first[HID_TAG], second,
			    c->n[HID_TAG] > 2 ? " \xe2\x80\xa6" : "",
			    c->n[HID_TAG], plural(c->n[HID_TAG]), preview);
	}
	if (c->n[HID_ZW]) {
		r->flags |= MCPSCAN_ZERO_WIDTH;
		add_finding(r,
			    "%s: U+%04X at byte %zu (%zu zero-width or "
			    "invisible character%s)",
			    where, (unsigned)c->first[HID_ZW],
			    c->first_at[HID_ZW], c->n[HID_ZW],
			    plural(c->n[HID_ZW]));
	}
	if (c->n[HID_BIDI]) {
		r->flags |= MCPSCAN_BIDI;
		add_finding(r, "%s: U+%04X at byte %zu (%zu bidi control%s)",
			    where, (unsigned)c->first[HID_BIDI],
			    c->first_at[HID_BIDI], c->n[HID_BIDI],
			    plural(c->n[HID_BIDI]));
	}
	if (c->nbad) {
		r->flags |= MCPSCAN_BAD_UTF8;
		add_finding(r, "%s: invalid UTF-8 at byte %zu (%zu byte%s)",
			    where, c->first_bad, c->nbad, plural(c->nbad));
	}
}

/* Scans s[0..len). A member name (is_name) is split into words at '_',
 * '-' and lower-to-upper case changes first. */
static void scan_string(struct scanner *sc, const char *s, size_t len,
			const char *where, bool is_name,
			struct mcpscan_result *r)
{
	const unsigned char *p = (const unsigned char *)s;
	struct census c;
	uint32_t prev = 0;
	size_t i = 0;

	memset(&c, 0, sizeof(c));
	m_reset(&sc->main, r, where, NULL);
	m_reset(&sc->tag, r, where, " (tag-character text)");
	sc->main.is_name = is_name;
	while (i < len) {
		size_t n, nn;
		int32_t cp = u8_decode(p + i, len - i, &n);
		int32_t next;
		enum hid h;

		if (cp < 0x80 && cp >= 0 && !is_name) {
			/* ASCII is never hidden: no look-ahead needed. */
			m_put(&sc->main, map_cp((uint32_t)cp));
			prev = (uint32_t)cp;
			i++;
			continue;
		}
		if (cp < 0) {
			if (c.nbad++ == 0)
				c.first_bad = i;
			m_put(&sc->main, ' ');
			prev = 0;
			i++;
			continue;
		}
		next = i + n < len ? u8_decode(p + i + n, len - i - n, &nn) : 0;
		h = hidden_class((uint32_t)cp, prev,
				 next < 0 ? 0 : (uint32_t)next);
		if (h != HID_NONE) {
			if (c.n[h]++ == 0) {
				c.first[h] = (uint32_t)cp;
				c.first_at[h] = i;
			} else if (h == HID_TAG && c.n[h] == 2) {
				c.second_tag = (uint32_t)cp;
			}
		}
		if (h == HID_TAG) {
			uint32_t a = (uint32_t)cp - 0xe0000;
			bool printable = a >= 0x20 && a <= 0x7e;

			m_put(&sc->tag, printable ? map_cp(a) : ' ');
			if (printable && c.npreview < TAG_PREVIEW)
				c.preview[c.npreview++] = (char)a;
			else if (printable)
				c.more_preview = true;
		} else if (h == HID_NONE && is_name &&
			   (cp == '_' || cp == '-')) {
			m_put(&sc->main, ' ');
		} else if (h == HID_NONE) {
			if (is_name && cp >= 'A' && cp <= 'Z' && prev >= 'a' &&
			    prev <= 'z')
				m_put(&sc->main, ' ');
			m_put(&sc->main, map_cp((uint32_t)cp));
		}
		prev = (uint32_t)cp;
		i += n;
	}
	c.preview[c.npreview] = '\0';
	report_census(r, where, &c);
	m_finish(&sc->main);
	if (c.n[HID_TAG])
		m_finish(&sc->tag);
}

static struct scanner *scanner_new(struct mcpscan_result *r, const char *where)
{
	struct scanner *sc;

	pthread_once(&compile_once, compile_rules);
	if (!compiled_ok) {
		r->flags |= MCPSCAN_UNSCANNED;
		add_finding(r, "%s: not scanned: the rule table is broken",
			    where);
		return NULL;
	}
	sc = cordon__calloc(1, sizeof(*sc));
	if (!sc) {
		r->flags |= MCPSCAN_UNSCANNED;
		add_finding(r, "%s: not scanned: out of memory", where);
	}
	return sc;
}

void mcpscan_text(const char *s, size_t len, const char *where,
		  struct mcpscan_result *r)
{
	char w[WHERE_MAX];
	struct scanner *sc;
	bool truncated;

	if (!r)
		return;
	if (!s)
		len = 0;
	esc_into(w, sizeof(w), where ? where : "(text)",
		 strlen(where ? where : "(text)"), &truncated);
	fix_truncation(w, sizeof(w), truncated);
	sc = scanner_new(r, w);
	if (!sc)
		return;
	scan_string(sc, s ? s : "", len, w, false, r);
	free(sc);
}

/* ---- a tool object ------------------------------------------------------- */

struct walk {
	struct scanner *sc;
	struct mcpscan_result *r;
	char path[WHERE_MAX + 16];
	size_t plen;
	bool deep_reported;
};

/* Appends ".key" (or "key" at the root) or "[i]" to the path, escaped; the
 * path is cut with "…" when it would not fit. Returns the old length. */
static size_t path_push(struct walk *w, const char *key, long idx)
{
	size_t old = w->plen, cap = WHERE_MAX;
	char seg[WHERE_MAX];
	bool truncated = false;
	size_t need;

	if (key) {
		size_t o = 0;
		if (w->plen > 0)
			seg[o++] = '.';
		need = esc_into(seg + o, sizeof(seg) - o, key, strlen(key),
				&truncated);
		need += o;
		if (truncated)
			need = sizeof(seg);
	} else {
		need = (size_t)snprintf(seg, sizeof(seg), "[%ld]", idx);
	}
	if (w->plen + need < cap) {
		memcpy(w->path + w->plen, seg, need);
		w->plen += need;
	} else if (w->plen + 4 < sizeof(w->path)) {
		/* Cut: the path still names where it starts. */
		if (!(w->plen >= 3 &&
		      memcmp(w->path + w->plen - 3, "\xe2\x80\xa6", 3) == 0)) {
			memcpy(w->path + w->plen, "\xe2\x80\xa6", 3);
			w->plen += 3;
		}
	}
	w->path[w->plen] = '\0';
	return old;
}

static void path_pop(struct walk *w, size_t old)
{
	w->plen = old;
	w->path[old] = '\0';
}

static void walk_value(struct walk *w, const cJSON *v, unsigned depth)
{
	const cJSON *c;
	long i = 0;

	if (depth > MAX_DEPTH) {
		if (!w->deep_reported) {
			w->r->flags |= MCPSCAN_UNSCANNED;
			add_finding(w->r,
				    "%s: not scanned past %d levels of "
				    "nesting (the limit)",
				    w->path, MAX_DEPTH);
			w->deep_reported = true;
		}
		return;
	}
	if (cJSON_IsString(v) && v->valuestring) {
		scan_string(w->sc, v->valuestring, strlen(v->valuestring),
			    w->plen ? w->path : "(value)", false, w->r);
		return;
	}
	if (cJSON_IsObject(v)) {
		cJSON_ArrayForEach (c, v) {
			const char *key = c->string ? c->string : "";
			size_t old = path_push(w, key, 0);
			char kw[WHERE_MAX + 32];

			snprintf(kw, sizeof(kw), "%s (name)", w->path);
			scan_string(w->sc, key, strlen(key), kw, true, w->r);
			walk_value(w, c, depth + 1);
			path_pop(w, old);
		}
		return;
	}
	if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach (c, v) {
			size_t old = path_push(w, NULL, i++);
			walk_value(w, c, depth + 1);
			path_pop(w, old);
		}
	}
}

void mcpscan_tool(const cJSON *tool, struct mcpscan_result *r)
{
	struct walk w;

	if (!r || !tool)
		return;
	memset(&w, 0, sizeof(w));
	w.r = r;
	w.sc = scanner_new(r, "tool");
	if (!w.sc)
		return;
	walk_value(&w, tool, 0);
	free(w.sc);
}
