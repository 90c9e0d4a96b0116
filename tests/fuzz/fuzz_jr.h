/*
 * fuzz_jr.h -- for the fuzz targets that check what a JSON writer produced
 * (fuzz_sim: the Chrome trace; fuzz_lint: the JSON and SARIF reports): a
 * strict JSON reader that keeps no tree.  It reads what jansson's json_loadb
 * with no flags accepts -- an object or array at the top and nothing after
 * it, UTF-8 without overlong forms or surrogates, no control characters or
 * \u0000 in strings, \u surrogates in pairs, numbers as RFC 8259 writes them,
 * integers that fit 64 bits, reals that do not overflow, at most 2048 levels
 * -- and on the way counts what the oracles need:
 *   JR_TRACE:  each event's "ph" (the elements of the top array, or of the top
 *              object's "traceEvents"): events, open "B" spans (never < 0),
 *              open "b" spans;
 *   JR_REPORT: the elements of the top object's "findings" (gcnlint --format=json);
 *   JR_SARIF:  the elements of the top object's "runs", and of the first run's
 *              "results" (gcnlint --format=sarif).
 * A key it looks for given twice is refused (jansson would take the last; the
 * writers write each once), and so is a missing one.  Parsing the text into
 * jansson's tree, even from an arena, was a fifth of a fuzz_sim run and most
 * of fuzz_lint's report checks; the targets still have jansson read the same
 * text on a sample of their inputs, and both must agree.
 * The reader is the harness's, not code under test: no coverage or comparison
 * tracing (its comparisons of every byte of a text filled libFuzzer's tables
 * with the text).
 */
#ifndef FUZZ_JR_H
#define FUZZ_JR_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define JR_FN static __attribute__((no_sanitize("coverage")))

typedef struct jr {
    const char *p, *e;
    int depth;
    long nev, begin_depth, async;   /* JR_TRACE: events; open "B" spans; open "b" spans */
    long nfind;                     /* JR_REPORT: findings */
    long nruns, nresults;           /* JR_SARIF: runs; the first run's results */
} jr;

/* What a value is to the checks: JR_ANY nothing; the rest name a place in a trace or report. */
enum { JR_ANY, JR_TRACE, JR_EVENTS, JR_EVENT, JR_REPORT, JR_FINDINGS, JR_SARIF, JR_RUNS,
       JR_RUN, JR_RESULTS };

JR_FN int jr_value(jr *r, int role);

JR_FN void jr_ws(jr *r)
{
    while (r->p < r->e && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

JR_FN int jr_hex4(jr *r, unsigned *u)
{
    if (r->e - r->p < 4)
        return -1;
    *u = 0;
    for (int i = 0; i < 4; i++) {
        char c = *r->p++;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
                     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
                     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d > 15)
            return -1;
        *u = *u << 4 | d;
    }
    return 0;
}

/* A string (at its opening quote); its first bytes, escapes undone, into out (cap bytes
 * with the NUL; *len the whole length, so a longer string never equals a short name). */
JR_FN int jr_string(jr *r, char *out, size_t cap, size_t *len)
{
    size_t n = 0;
    r->p++;
    for (;;) {
        /* a run of printable ASCII other than '"' and '\\' as it is (most of a trace) */
        const char *q = r->p;
        while (q < r->e && (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80 && *q != '"' &&
               *q != '\\')
            q++;
        if (q > r->p) {
            size_t k = (size_t)(q - r->p);
            if (n + 1 < cap)
                memcpy(out + n, r->p, n + k + 1 <= cap ? k : cap - 1 - n);
            n += k;
            r->p = q;
        }
        if (r->p >= r->e)
            return -1;
        unsigned char c = (unsigned char)*r->p;
        unsigned cp;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (++r->p >= r->e)
                return -1;
            switch (*r->p++) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                if (jr_hex4(r, &cp))
                    return -1;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return -1;                          /* a low surrogate alone */
                if (cp >= 0xd800 && cp <= 0xdbff) {      /* a high one: its low one next */
                    unsigned lo;
                    if (r->e - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                        return -1;
                    r->p += 2;
                    if (jr_hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff)
                        return -1;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                if (cp == 0)
                    return -1;
                break;
            default:
                return -1;
            }
        } else if (c < 0x80) {
            cp = c;
            r->p++;
        } else {                                        /* UTF-8: 2 to 4 bytes */
            unsigned k = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 :
                         c >= 0xf0 && c <= 0xf4 ? 3 : 0;
            if (!k || r->e - r->p < (ptrdiff_t)k + 1)
                return -1;
            cp = c & (0x3fu >> k);
            for (unsigned i = 1; i <= k; i++) {
                unsigned char t = (unsigned char)r->p[i];
                if ((t & 0xc0) != 0x80)
                    return -1;
                cp = cp << 6 | (t & 0x3f);
            }
            if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
                (cp >= 0xd800 && cp <= 0xdfff))
                return -1;                              /* overlong, too large, surrogate */
            r->p += k + 1;
        }
        if (n + 1 < cap)
            out[n] = cp < 0x80 ? (char)cp : '?';
        n++;
    }
    if (cap)
        out[n < cap ? n : cap - 1] = 0;
    *len = n;
    return 0;
}

JR_FN int jr_number(jr *r)
{
    const char *s = r->p;
    int real = 0, expo = 0;
    if (r->p < r->e && *r->p == '-')
        r->p++;
    if (r->p >= r->e)
        return -1;
    const char *d0 = r->p;
    if (*r->p == '0') {
        r->p++;
    } else if (*r->p >= '1' && *r->p <= '9') {
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    } else {
        return -1;
    }
    size_t idigits = (size_t)(r->p - d0);
    if (r->p < r->e && *r->p == '.') {
        real = 1;
        r->p++;
        if (r->p >= r->e || *r->p < '0' || *r->p > '9')
            return -1;
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    if (r->p < r->e && (*r->p == 'e' || *r->p == 'E')) {
        real = expo = 1;
        r->p++;
        if (r->p < r->e && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->e || *r->p < '0' || *r->p > '9')
            return -1;
        while (r->p < r->e && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    /* jansson: an integer must fit json_int_t (long long), a real must not overflow.
     * Without strtoll/strtod where the digits decide it: an integer of at most 18 digits
     * fits 64 bits, a real without exponent and at most 308 digits before the point is
     * below DBL_MAX (about 1.8e308) -- what the trace writer and the reports write */
    size_t n = (size_t)(r->p - s);
    if (!real && idigits <= 18)
        return 0;
    if (real && !expo && idigits <= 308 && n < 512)
        return 0;
    char buf[512];
    if (n >= sizeof buf)
        return real ? 0 : -1;       /* (no 64-bit integer has that many digits) */
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    if (real) {
        double d = strtod(buf, NULL);
        return (d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE ? -1 : 0;
    }
    (void)strtoll(buf, NULL, 10);
    return errno == ERANGE ? -1 : 0;
}

/* An event's "ph": the spans it opens and closes. */
JR_FN int jr_phase(jr *r, const char *ph, size_t len)
{
    if (len != 1)
        return 0;
    if (ph[0] == 'B')
        r->begin_depth++;
    if (ph[0] == 'E' && --r->begin_depth < 0)
        return -1;
    if (ph[0] == 'b')
        r->async++;
    if (ph[0] == 'e')
        r->async--;
    return 0;
}

/* The array a key of an object in role `role` holds, in the role it has there (JR_ANY: none). */
JR_FN int jr_member(int role, const char *key, size_t klen)
{
    if (role == JR_TRACE && klen == 11 && !strcmp(key, "traceEvents"))
        return JR_EVENTS;
    if (role == JR_REPORT && klen == 8 && !strcmp(key, "findings"))
        return JR_FINDINGS;
    if (role == JR_SARIF && klen == 4 && !strcmp(key, "runs"))
        return JR_RUNS;
    if (role == JR_RUN && klen == 7 && !strcmp(key, "results"))
        return JR_RESULTS;
    return JR_ANY;
}

JR_FN int jr_object(jr *r, int role)
{
    int has_ph = 0, has_member = 0;
    char ph[8] = "", key[16];
    size_t phlen = 0, klen;
    r->p++;
    jr_ws(r);
    if (r->p < r->e && *r->p == '}') {
        r->p++;
    } else {
        for (;;) {
            jr_ws(r);
            if (r->p >= r->e || *r->p != '"' || jr_string(r, key, sizeof key, &klen))
                return -1;
            jr_ws(r);
            if (r->p >= r->e || *r->p++ != ':')
                return -1;
            jr_ws(r);
            int kph = role == JR_EVENT && klen == 2 && !strcmp(key, "ph");
            int member = jr_member(role, key, klen);
            if (kph) {
                /* (a second "ph" or array looked for is refused: jansson would take the
                 * last, and the writer writes each once) */
                if (has_ph++ || r->p >= r->e || *r->p != '"' || jr_string(r, ph, sizeof ph, &phlen))
                    return -1;
            } else if (member != JR_ANY) {
                if (has_member++ || r->p >= r->e || *r->p != '[' || jr_value(r, member))
                    return -1;
            } else if (jr_value(r, JR_ANY)) {
                return -1;
            }
            jr_ws(r);
            if (r->p < r->e && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p < r->e && *r->p == '}') {
                r->p++;
                break;
            }
            return -1;
        }
    }
    if (role == JR_EVENT)
        return has_ph ? jr_phase(r, ph, phlen) : -1;
    if (role == JR_TRACE || role == JR_REPORT || role == JR_SARIF || role == JR_RUN)
        return has_member ? 0 : -1;
    return 0;
}

JR_FN int jr_array(jr *r, int role)
{
    r->p++;
    jr_ws(r);
    if (r->p < r->e && *r->p == ']') {
        r->p++;
        return 0;
    }
    for (;;) {
        jr_ws(r);
        if (role == JR_EVENTS) {
            if (r->p >= r->e || *r->p != '{' || jr_value(r, JR_EVENT))
                return -1;
            r->nev++;
        } else if (role == JR_RUNS && r->nruns == 0) {
            if (r->p >= r->e || *r->p != '{' || jr_value(r, JR_RUN))
                return -1;
            r->nruns++;
        } else {
            if (jr_value(r, JR_ANY))
                return -1;
            r->nfind += role == JR_FINDINGS;
            r->nruns += role == JR_RUNS;
            r->nresults += role == JR_RESULTS;
        }
        jr_ws(r);
        if (r->p < r->e && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->e && *r->p == ']') {
            r->p++;
            return 0;
        }
        return -1;
    }
}

JR_FN int jr_value(jr *r, int role)
{
    if (r->p >= r->e)
        return -1;
    char c = *r->p;
    if (c == '{' || c == '[') {
        if (++r->depth > 2048)
            return -1;
        int st;
        if (c == '{')
            st = role == JR_ANY || role == JR_TRACE || role == JR_EVENT || role == JR_REPORT ||
                 role == JR_SARIF || role == JR_RUN ? jr_object(r, role) : -1;
        else if (role == JR_TRACE)
            st = jr_array(r, JR_EVENTS);           /* a trace may be the array of events */
        else
            st = role == JR_ANY || role == JR_EVENTS || role == JR_FINDINGS || role == JR_RUNS ||
                 role == JR_RESULTS ? jr_array(r, role) : -1;
        r->depth--;
        return st;
    }
    if (role != JR_ANY)
        return -1;
    char tmp[1];
    size_t len;
    if (c == '"')
        return jr_string(r, tmp, 0, &len);
    if (c == '-' || (c >= '0' && c <= '9'))
        return jr_number(r);
    static const char *const lit[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(lit[i]);
        if ((size_t)(r->e - r->p) >= n && !memcmp(r->p, lit[i], n)) {
            r->p += n;
            return 0;
        }
    }
    return -1;
}

/* Read text[0..n) whole as a value in role `role` (JR_TRACE, JR_REPORT or JR_SARIF), the
 * counts into *r; 0, or -1 when it is no JSON or not what the role asks (r->p then points
 * where the reading stopped). */
JR_FN int jr_read(jr *r, const char *text, size_t n, int role)
{
    memset(r, 0, sizeof *r);
    r->p = text;
    r->e = text + n;
    jr_ws(r);
    if (r->p >= r->e || (*r->p != '{' && *r->p != '[') || (role != JR_TRACE && *r->p != '{'))
        return -1;
    int st = jr_value(r, role);
    jr_ws(r);
    return st || r->p != r->e ? -1 : 0;
}

#endif
