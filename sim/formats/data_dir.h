/* data_dir.h: the folders of data streamsim reads at run time (device profiles, gnuplot scripts), found next to the program.
 *
 * `cmake --install` puts the programs in PREFIX/bin and their data in
 * PREFIX/share/streamsim/{profiles,plots}. An installed program finds that
 * folder from its own path (/proc/self/exe), so it works wherever the prefix
 * is and whatever the current folder. A program run from the build tree has
 * no such folder beside it and uses the source tree's, compiled in. */
#ifndef DATA_DIR_H
#define DATA_DIR_H

/* The installed folder `SUBFOLDER` of the running program's data (for
 * example PREFIX/share/streamsim/profiles for PREFIX/bin/streamsim) when it
 * exists, else `built_in`. Computed once per SUBFOLDER; owned by the module. */
const char *data_dir (const char *subfolder, const char *built_in);

#endif /* DATA_DIR_H */
