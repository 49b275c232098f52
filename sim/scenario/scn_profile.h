/* scn_profile.h - `profile = NAME` on a [tester NAME]: the settings that
 * make a tester behave as a real load tool (docs/models.md has the table,
 * with the tool's source read for each row). Internal to the scenario
 * reader.
 *
 * A profile is a list of key = value settings of the tester section, each
 * either *fixed* (it is what the tool does: a section that gives the key
 * with another value is refused), a *default* (a figure the user may
 * change: the section's own key wins). A profile adds no engine behaviour
 * of its own: everything it sets is an ordinary key (MODEL.md, "Tool
 * profiles").
 */
#ifndef COSIM_SCN_PROFILE_H
#define COSIM_SCN_PROFILE_H

#include "names.h"
#include "scn_keys.h"

#include <stddef.h>

/** The most settings one profile makes. */
#define SCN_PROFILE_MAX_SETTINGS 8

/** One key = value a profile sets. */
typedef struct scn_profile_setting {
    const char *key;
    const char *value;
    int fixed; /**< 1: the tool's behaviour (a different value is refused);
                    0: a default the section may override; 2: required
                    (value NULL): the section must give the key, as the
                    tool has no default */
} scn_profile_setting;

/** One profile: a row of the profile table. */
typedef struct scn_profile {
    const char *name;       /**< the word after `profile =` */
    const char *tool;       /**< the tool and the feature modelled */
    scn_profile_setting set[SCN_PROFILE_MAX_SETTINGS]; /**< ends at key NULL */
} scn_profile;

/** The table, in docs/models.md's order, and its length. */
extern const scn_profile scn_profiles[];
extern const size_t scn_profiles_n;

/** "none" (no profile, the default) and the profiles' names: the key
 *  table's choices. */
extern const names_table scn_profile_names;

/** The profile named name, or NULL. */
const scn_profile *scn_profile_find(const char *name);

/** Whether profile p (NULL: none) fixes key (the tool's behaviour, which
 *  the section may not change). @return 1 or 0. */
int scn_profile_fixes(const scn_profile *p, const char *key);

/**
 * Apply the section's `profile` key, if any (and not "none"), before its keys are read:
 * each setting the section lacks is added as if written on the profile's
 * line; a fixed setting the section gives with another value is refused
 * at that key's line ("profile P sets K = V: ..."); a required key the
 * section lacks is refused at the profile's line ("profile P needs K").
 * An unknown profile is
 * refused at the profile's line, naming the nearest profile when one is
 * within 3 edits ("did you mean ..."), else listing them all.
 *
 * @param c  the tester section being read (c->sec)
 * @return 0 (also when there is no profile), or -1 with the message set
 *         (or c->p->oom).
 */
int scn_profile_apply(scn_ctx *c);

#endif
