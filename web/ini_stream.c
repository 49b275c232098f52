/* ini_stream.c - ini_parse_stream for the browser build only.
 *
 * The native build links Debian's libinih (55). Its source package cannot
 * be fetched from the Debian mirror these machines reach (the .orig.tar.gz
 * answers 404, while gsl's and zlib's come), so the WebAssembly build
 * compiles this file instead: the same function, written here from inih's
 * documented behaviour under the settings of Debian's /usr/include/ini.h
 * (INI_ALLOW_MULTILINE 1, INI_ALLOW_BOM 1, start-of-line comments ';' and
 * '#', INI_ALLOW_INLINE_COMMENTS 1 with prefix ';' after a blank,
 * INI_MAX_LINE 200, INI_STOP_ON_FIRST_ERROR 0, INI_ALLOW_NO_VALUE 0,
 * section and continued-key names kept to 49 bytes). sim/scn_ini.c's reader
 * already refuses the long lines, control bytes and lone CRs inih would
 * split or pass; tests/web_node.sh holds every shipped scenario and every
 * tests/bad case to the native build's output byte for byte.
 * docs/decisions.md says why. */
#include <ini.h>

#include <ctype.h>
#include <string.h>

/* inih's fixed name buffers (MAX_SECTION, MAX_NAME). */
#define INI_NAME_BYTES 50

/* Drop the blanks at the end of s (its NUL at end); s. */
static char *trim_end(char *s, char *end)
{
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* The first non-blank of s. */
static char *skip_blanks(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* The first of `stops` (NULL: none) in s, or the ';' of an inline comment
 * (one that follows a blank), or s's NUL. */
static char *find_stop(char *s, const char *stops)
{
    int after_blank = 0;
    for (; *s; s++) {
        if (stops && strchr(stops, *s))
            break;
        if (after_blank && *s == ';')
            break;
        after_blank = isspace((unsigned char)*s) != 0;
    }
    return s;
}

/* Copy at most size - 1 bytes of src and a NUL into dst. */
static void copy_name(char *dst, const char *src, size_t size)
{
    size_t i = 0;
    for (; i + 1 < size && src[i]; i++)
        dst[i] = src[i];
    dst[i] = '\0';
}

/**
 * Parse INI text line by line as Debian's libinih 55 does (ini.h).
 *
 * @param reader   reads the next line into str (at most num - 1 bytes and
 *                 a NUL), NULL at the end
 * @param stream   the reader's context
 * @param handler  called with (user, section, name, value) for every
 *                 key = value (or key: value) line and every indented
 *                 continuation line; a 0 return is an error on that line
 * @param user     the handler's context
 * @return 0, or the number of the first line in error (parsing goes on
 *         after it, as INI_STOP_ON_FIRST_ERROR 0).
 */
int ini_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user)
{
    char line[INI_MAX_LINE], section[INI_NAME_BYTES] = "", prev[INI_NAME_BYTES] = "";
    char rest[16];
    int lineno = 0, error = 0;
    while (reader(line, INI_MAX_LINE, stream)) {
        size_t len = strlen(line);
        lineno++;
        if (len == INI_MAX_LINE - 1 && line[len - 1] != '\n') {
            /* too long: the rest of the line is read and dropped, an error */
            while (reader(rest, (int)sizeof rest, stream)) {
                size_t k = strlen(rest);
                if (!error)
                    error = lineno;
                if (k && rest[k - 1] == '\n')
                    break;
            }
        }
        char *start = line;
        if (lineno == 1 && (unsigned char)line[0] == 0xEF && (unsigned char)line[1] == 0xBB &&
            (unsigned char)line[2] == 0xBF)
            start += 3;
        start = trim_end(skip_blanks(start), line + len);
        if (!*start || *start == ';' || *start == '#')
            continue; /* a blank line or a comment */
        if (*prev && start > line) { /* indented: the value above goes on */
            char *end = find_stop(start, NULL);
            *end = '\0';
            trim_end(start, end);
            if (!handler(user, section, prev, start) && !error)
                error = lineno;
        } else if (*start == '[') {
            char *end = find_stop(start + 1, "]");
            if (*end == ']') {
                *end = '\0';
                copy_name(section, start + 1, sizeof section);
                prev[0] = '\0';
            } else if (!error) {
                error = lineno;
            }
        } else {
            char *end = find_stop(start, "=:");
            if (*end != '=' && *end != ':') {
                if (!error)
                    error = lineno;
                continue;
            }
            *end = '\0';
            char *name = trim_end(start, end), *value = end + 1;
            end = find_stop(value, NULL);
            *end = '\0';
            value = skip_blanks(value);
            trim_end(value, end);
            copy_name(prev, name, sizeof prev);
            if (!handler(user, section, name, value) && !error)
                error = lineno;
        }
    }
    return error;
}
