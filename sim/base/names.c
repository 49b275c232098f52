/* names.c - lookups in the name tables of enums. */
#include "names.h"

#include <stdio.h>
#include <string.h>

int names_find(names_table t, const char *name)
{
    for (size_t i = 0; i < t.n; i++)
        if (t.names[i] && strcmp(name, t.names[i]) == 0)
            return (int)i;
    return -1;
}

const char *names_get(names_table t, int i)
{
    return i >= 0 && (size_t)i < t.n && t.names[i] ? t.names[i] : "?";
}

char *names_join(names_table t, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < t.n && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "", t.names[i]);
        if (n < 0 || (size_t)n >= len - used) {
            if (len >= 4)
                snprintf(buf + len - 4, 4, "...");
            return buf;
        }
        used += (size_t)n;
    }
    return buf;
}

/* ---- user-given NAMEs ------------------------------------------------------ */

int names_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

int names_valid(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n > max || s[0] == '-')
        return 0;
    for (; *s; s++)
        if (!names_char_ok(*s))
            return 0;
    return 1;
}

/* The length (2 to 4) of the well-formed UTF-8 sequence of a letter at q
 * (Unicode 15, Table 3-7: no overlong form, no surrogate, at most
 * U+10FFFF), or 0 when q does not start one or the character is a C1
 * control (U+0080..U+009F) or a line or paragraph separator (U+2028,
 * U+2029), which no file name shown on one line should hold. */
static size_t utf8_letter(const unsigned char *q)
{
    unsigned b = q[0];
    size_t n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (!n)
        return 0;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (b == 0xe0) lo = 0xa0;
    if (b == 0xed) hi = 0x9f;
    if (b == 0xf0) lo = 0x90;
    if (b == 0xf4) hi = 0x8f;
    if (q[1] < lo || q[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (q[i] < 0x80 || q[i] > 0xbf)
            return 0;
    if (b == 0xc2 && q[1] <= 0x9f)
        return 0; /* C1 controls */
    if (b == 0xe2 && q[1] == 0x80 && (q[2] == 0xa8 || q[2] == 0xa9))
        return 0; /* U+2028, U+2029 */
    return n;
}

void names_from_file(char *s)
{
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = '\0';
    for (char *q = s; *q; q++) {
        size_t u = utf8_letter((const unsigned char *)q);
        if (u) {
            q += u - 1; /* a UTF-8 letter is kept whole */
            continue;
        }
        if (!names_char_ok(*q))
            *q = '_';
    }
    if (s[0] == '-')
        s[0] = '_';
    if (!*s)
        strcpy(s, "scenario");
}

long names_path_control(const char *path, char *shown, size_t len)
{
    long first = -1;
    for (const char *q = path; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f) {
            first = (long)(q - path);
            break;
        }
    if (first < 0)
        return -1;
    size_t used = 0;
    for (const char *q = path; *q; q++) {
        unsigned char b = (unsigned char)*q;
        char e[8];
        if (b == '\n' || b == '\r' || b == '\t')
            snprintf(e, sizeof e, "\\%c", b == '\n' ? 'n' : b == '\r' ? 'r' : 't');
        else if (b < 0x20 || b == 0x7f)
            snprintf(e, sizeof e, "\\x%02x", b);
        else
            snprintf(e, sizeof e, "%c", b);
        size_t n = strlen(e);
        if (used + n + 4 > len) { /* room for "..." and the NUL */
            snprintf(shown + used, len - used, "...");
            return first;
        }
        memcpy(shown + used, e, n + 1);
        used += n;
    }
    return first;
}
